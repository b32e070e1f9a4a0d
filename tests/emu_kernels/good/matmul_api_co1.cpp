/*
 * The user-managed CO1 form of the Matmul API: C's MatmulType is CO1 / NZ, each Iterate(enPartialSum, l0cTensor[off])
 * leaves one baseM x baseN block in the kernel's own L0C tensor, the blocks one after another (singleCoreM = baseM, so
 * the blocks along N make one NZ matrix), and one Fixpipe takes the whole row of blocks to GM as ND rows.
 * `partial` = 1: a single block computed twice into the same tensor, the second time with enPartialSum (C = 2 A B).
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

struct Co1Tiling {
    TCubeTiling cube;
    int32_t partial;
};

extern "C" __global__ __aicore__ void matmul_co1(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(Co1Tiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::CO1, CubeFormat::NZ, float>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    const TCubeTiling &t = td.cube;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), t.M * t.N);
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TQue<TPosition::CO1, 1> co1;
    pipe.InitBuffer(co1, 1, t.baseM * t.singleCoreN * sizeof(float));
    LocalTensor<float> l0c = co1.AllocTensor<float>();
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (td.partial) {
        mm.Iterate(false, l0c);
        mm.End();
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.Iterate(true, l0c);
    } else {
        int32_t offset = 0;
        while (mm.Iterate(false, l0c[offset])) offset += t.baseM * t.baseN;
    }
    mm.End();
    co1.EnQue(l0c);
    l0c = co1.DeQue<float>();
    FixpipeParamsV220 params;
    params.mSize = t.baseM;
    params.nSize = t.singleCoreN;
    params.srcStride = (t.baseM + 15) / 16 * 16;
    params.dstStride = t.N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, l0c, params);
    co1.FreeTensor(l0c);
}
