// Reads its share of x `passes` times, tile by tile, summing every tile into an accumulator, and
// writes the accumulator to y once: the memory traffic of a multi-pass kernel (softmax reads each
// row twice) without the rest. Used by the L2 tests of the cost model.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 8192;

extern "C" __global__ __aicore__ void reread(GM_ADDR x, GM_ADDR y, uint64_t perBlock, uint32_t passes)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> accBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + TILE * GetBlockIdx(), TILE);
    pipe.InitBuffer(inQueue, 2, TILE * sizeof(float));
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));
    pipe.InitBuffer(accBuf, TILE * sizeof(float));
    LocalTensor<float> acc = accBuf.Get<float>();
    Duplicate(acc, 0.0f, TILE);
    for (uint32_t p = 0; p < passes; p++) {
        for (uint64_t off = 0; off < perBlock; off += TILE) {
            LocalTensor<float> t = inQueue.AllocTensor<float>();
            DataCopy(t, xGm[off], TILE);
            inQueue.EnQue(t);
            t = inQueue.DeQue<float>();
            Add(acc, acc, t, TILE);
            inQueue.FreeTensor(t);
        }
    }
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    DataCopy(out, acc, TILE);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    DataCopy(yGm, out, TILE);
    outQueue.FreeTensor(out);
}
