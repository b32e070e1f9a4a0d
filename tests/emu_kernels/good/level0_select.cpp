/*
 * Level-0 (mask / repeat) instructions on 512 floats = 8 repeats of 64 lanes:
 *   z   = x + y on the first 32 lanes of every repeat (mask = 32), 0 elsewhere
 *   sel = z > 0 ? z : -1           (CompareScalar + Select in tensor/scalar mode)
 *   sums[r] = sum of repeat r of sel   (WholeReduceSum, one result per repeat)
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 512;
constexpr int32_t REPEATS = 8;

extern "C" __global__ __aicore__ void level0_select(GM_ADDR x, GM_ADDR y, GM_ADDR sel, GM_ADDR sums)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm, yGm, selGm, sumsGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    selGm.SetGlobalBuffer((__gm__ float *)sel, N);
    sumsGm.SetGlobalBuffer((__gm__ float *)sums, REPEATS);
    pipe.InitBuffer(inQueue, 2, N * sizeof(float));
    pipe.InitBuffer(outQueue, 2, N * sizeof(float));
    pipe.InitBuffer(work, N * sizeof(float) + N / 8);

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    DataCopy(yLocal, yGm, N);
    inQueue.EnQue(xLocal);
    inQueue.EnQue(yLocal);
    xLocal = inQueue.DeQue<float>();
    yLocal = inQueue.DeQue<float>();

    LocalTensor<float> z = work.Get<float>(N);
    LocalTensor<uint8_t> bits = work.GetWithOffset<uint8_t>(N / 8, N * sizeof(float));
    Duplicate(z, 0.0f, N);
    uint64_t mask = 32;
    Add(z, xLocal, yLocal, mask, REPEATS, {1, 1, 1, 8, 8, 8});

    LocalTensor<float> selLocal = outQueue.AllocTensor<float>();
    CompareScalar(bits, z, 0.0f, CMPMODE::GT, N);
    Select(selLocal, bits, z, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);

    LocalTensor<float> sumsLocal = outQueue.AllocTensor<float>();
    WholeReduceSum(sumsLocal, selLocal, 64, REPEATS, 1, 1, 8);

    inQueue.FreeTensor(xLocal);
    inQueue.FreeTensor(yLocal);
    outQueue.EnQue(selLocal);
    outQueue.EnQue(sumsLocal);
    selLocal = outQueue.DeQue<float>();
    sumsLocal = outQueue.DeQue<float>();
    DataCopy(selGm, selLocal, N);
    DataCopy(sumsGm, sumsLocal, REPEATS);
    outQueue.FreeTensor(selLocal);
    outQueue.FreeTensor(sumsLocal);
}
