/*
 * A mixed (1 AIC : 2 AIV) Matmul kernel whose C comes to UB whole: each AIV of the group takes its half of A's rows,
 * IterateAll writes that half of C (singleCoreM x N, float, in VECIN) into one UB tensor, the vector unit adds a
 * constant to it, and it goes out to GM. The block shape does not divide the half (tail blocks in M and N), so each
 * block must land at its own place in the tensor.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_iterate_all_ub(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    const int32_t half_rows = t.singleCoreM;
    const int32_t count = half_rows * t.N;
    const int32_t part = GetSubBlockIdx();
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + part * half_rows * t.Ka, half_rows * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + part * count, count);

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TQue<TPosition::VECIN, 1> cQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(cQ, 1, count * sizeof(float));
    pipe.InitBuffer(outQ, 1, count * sizeof(float));

    LocalTensor<float> cLocal = cQ.AllocTensor<float>();
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cLocal);
    mm.End();
    cQ.EnQue(cLocal);
    cLocal = cQ.DeQue<float>();
    LocalTensor<float> out = outQ.AllocTensor<float>();
    Adds(out, cLocal, 0.5f, count);
    cQ.FreeTensor(cLocal);
    outQ.EnQue(out);
    out = outQ.DeQue<float>();
    DataCopy(cGm, out, count);
    outQ.FreeTensor(out);
}
