/*
 * GetTensorC(gm, enAtomic, enSequentialWrite = true): each Iterate's block goes to the tensor given, as a block of
 * baseM x baseN alone (the kernel picks where). Here C's single column of row blocks is stored in reverse order: block i
 * at workspace slot (blocks - 1 - i).
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_sequential(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), t.M * t.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    const int32_t blocks = t.M / t.baseM;
    int32_t i = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(cGm[(blocks - 1 - i) * t.baseM * t.baseN], 0, true);
        ++i;
    }
    mm.End();
}
