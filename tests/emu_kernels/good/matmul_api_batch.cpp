/*
 * Batched C[i] = A[i] x B with the Matmul API's IterateBatch: three A matrices, one B shared by all of them
 * (batchB = 1 broadcasts it), the C matrices one after another.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY  // the Matmul runs on the cube core itself (without it: a MIX kernel, AIV clients)
#include "lib/matmul_intf.h"

using namespace AscendC;

struct BatchTiling {
    TCubeTiling cube;
    uint32_t batch;
};

extern "C" __global__ __aicore__ void matmul_batch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(BatchTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.batch * td.cube.M * td.cube.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.cube.Kb * td.cube.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.batch * td.cube.M * td.cube.N);
    TPipe pipe;
    Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateBatch(cGm, td.batch, 1, false);
    mm.End();
}
