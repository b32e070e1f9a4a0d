/*
 * IterateNBatch<false> read back step by step with GetBatchTensorC<false> (and GetBatchC, its older name): `loops`
 * steps of batchA x batchB batches go to the workspace `cache` (BSNGD layouts whose N and G are 1: matrix after
 * matrix, as AscendC's IterateNBatch takes no NORMAL layout); the kernel then
 * takes each step's max(batchA, batchB) C matrices, from GM (`form` 0: the GlobalTensor the call returns, copied through
 * UB) or into UB (`form` 1: the LocalTensor form; `form` 2: GetBatchC's), and writes them to y in step order. Also
 * AsyncGetTensorC: a plain Matmul of the first A and B matrices, its one block taken after Iterate<false>(), into z.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct NBatchReadTiling {
    TCubeTiling cube;
    int32_t loops, batchA, batchB, form;
};

constexpr MatmulBatchParams kBatch = {true, BatchMode::BATCH_LESS_THAN_L1, false};
constexpr MatmulConfig kCfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(kBatch);

extern "C" __global__ __aicore__ void matmul_nbatch_read(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR z, GM_ADDR cache,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(NBatchReadTiling);
    GET_TILING_DATA(td, tiling);
    const TCubeTiling &t = td.cube;
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;
    const int32_t perStep = td.batchA > td.batchB ? td.batchA : td.batchB;
    const uint32_t stepElems = perStep * t.M * t.N;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> yGm, zGm, cacheGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.loops * td.batchA * t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.loops * td.batchB * t.Kb * t.N);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), td.loops * stepElems);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), t.M * t.N);
    cacheGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(cache), td.loops * stepElems);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> stepIn;
    pipe.InitBuffer(stepIn, 1, stepElems * sizeof(float));
    Matmul<AType, BType, CType, CType, kCfg> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetWorkspace(cacheGm);
    mm.template IterateNBatch<false>(td.loops, td.batchA, td.batchB, false);
    for (int32_t s = 0; s < td.loops; ++s) {
        LocalTensor<float> part = stepIn.AllocTensor<float>();
        if (td.form == 0) {
            GlobalTensor<float> step = mm.template GetBatchTensorC<false>(td.batchA, td.batchB);
            DataCopy(part, step, stepElems);
        } else if (td.form == 1) {
            mm.template GetBatchTensorC<false>(part, td.batchA, td.batchB);
        } else {
            mm.template GetBatchC<false>(part, td.batchA, td.batchB);
        }
        stepIn.EnQue(part);
        part = stepIn.DeQue<float>();
        DataCopy(yGm[s * stepElems], part, stepElems);
        stepIn.FreeTensor(part);
    }
    mm.End();

    // AsyncGetTensorC: A[0] x B[0] as one block (baseM = M, baseN = N in the test's tiling), a Matmul of its own
    // (its own scope: REGIST_MATMUL_OBJ declares the registration's names there)
    {
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
               MatmulType<TPosition::VECCALC, CubeFormat::ND, float>> one;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), one, &t);
        one.SetTensorA(aGm);
        one.SetTensorB(bGm);
        one.SetWorkspace(cacheGm);
        one.template Iterate<false>();
        LocalTensor<float> block = stepIn.AllocTensor<float>();
        one.AsyncGetTensorC(block);
        one.WaitGetTensorC();
        one.End();
        stepIn.EnQue(block);
        block = stepIn.DeQue<float>();
        DataCopy(zGm, block, t.M * t.N);
        stepIn.FreeTensor(block);
    }
}
