/*
 * IterateNBatch: `loops` IterateBatch computations of batchA x batchB batches each (NORMAL layout: matrix after matrix),
 * C into the workspace SetWorkspace gives (here C itself). With batchB = 1 step s shares B's matrix s among its batches.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct NBatchTiling {
    TCubeTiling cube;
    int32_t loops, batchA, batchB;
};

constexpr MatmulBatchParams kBatch = {true, BatchMode::BATCH_LESS_THAN_L1, false};
constexpr MatmulConfig kCfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(kBatch);

extern "C" __global__ __aicore__ void matmul_nbatch(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(NBatchTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    const int32_t batches = td.loops * (td.batchA > td.batchB ? td.batchA : td.batchB);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.loops * td.batchA * td.cube.M * td.cube.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.loops * td.batchB * td.cube.Kb * td.cube.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), batches * td.cube.M * td.cube.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, kCfg> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetWorkspace(cGm);
    mm.IterateNBatch(td.loops, td.batchA, td.batchB, false);
    mm.End();
}
