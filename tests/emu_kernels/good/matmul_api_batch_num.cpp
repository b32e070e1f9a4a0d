/*
 * Batches with the counts set beforehand: SetBatchNum(batchA, 1), then IterateBatch(c, enPartialSum, enAtomic,
 * enSequentialWrite) -- B is shared by every batch of A. This form belongs to the Matmul that runs on the cube core
 * itself (ASCENDC_CUBE_ONLY); the vector cores' Matmul client takes the counts as IterateBatch arguments.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct BatchNumTiling {
    TCubeTiling cube;
    int32_t batchA;
};

extern "C" __global__ __aicore__ void matmul_batch_num(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(BatchNumTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.batchA * td.cube.M * td.cube.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.cube.Kb * td.cube.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.batchA * td.cube.M * td.cube.N);
    TPipe pipe;
    Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBatchNum(td.batchA, 1);
    mm.IterateBatch(cGm, false, 0, false);
    mm.End();
}
