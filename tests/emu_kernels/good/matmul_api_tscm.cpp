/*
 * A Matmul whose A (and, with `bLocal` = 1, B) comes from L1: a TSCM queue filled from GM by DataCopy, handed to the
 * Matmul with SetTensorA/B(LocalTensor), so the Matmul does no GM -> L1 copy of it. A is stored in the NZ format (16-row
 * x 32-byte fractals, column block after column block, as the host wrote it); B in ND, K x N.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

struct TscmTiling {
    TCubeTiling cube;
    int32_t bLocal;
};

extern "C" __global__ __aicore__ void matmul_tscm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TscmTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::TSCM, CubeFormat::NZ, half>;
    using BType = MatmulType<TPosition::TSCM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    const int32_t m = td.cube.M, n = td.cube.N, k = td.cube.Ka;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), m * k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), k * n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), m * n);
    TPipe pipe;
    Matmul<AType, BType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    TSCM<TPosition::GM, 1> scmA, scmB;
    pipe.InitBuffer(scmA, 1, m * k * sizeof(half));
    pipe.InitBuffer(scmB, 1, k * n * sizeof(half));
    LocalTensor<half> aL1 = scmA.AllocTensor<half>();
    DataCopy(aL1, aGm, m * k);
    scmA.EnQue(aL1);
    aL1 = scmA.DeQue<half>();
    mm.SetTensorA(aL1);
    LocalTensor<half> bL1 = scmB.AllocTensor<half>();
    if (td.bLocal) {
        DataCopy(bL1, bGm, k * n);
        scmB.EnQue(bL1);
        bL1 = scmB.DeQue<half>();
        mm.SetTensorB(bL1);
    } else {
        mm.SetTensorB(bGm);
    }
    mm.IterateAll(cGm);
    mm.End();
    scmA.FreeTensor(aL1);
    scmB.FreeTensor(bL1);
}
