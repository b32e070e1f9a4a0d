/*
 * y = relu(x), two tiles per block through one TBuf. Each copy-in is followed by an MTE2 -> V flag,
 * but nothing makes the next copy-in wait for the Relu that reads the previous tile: on the NPU the
 * second DataCopy can overwrite the TBuf while the vector pipe is still reading it (write-after-read).
 * The queue protocol's FreeTensor / AllocTensor is that back edge; a TBuf needs a V -> MTE2 flag.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE = 256;
constexpr int32_t TILES = 2;

extern "C" __global__ __aicore__ void tbuf_war(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * TILE * TILES, TILE * TILES);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * TILE * TILES, TILE * TILES);
    pipe.InitBuffer(xBuf, TILE * sizeof(float));
    pipe.InitBuffer(outQueue, 2, TILE * sizeof(float));
    LocalTensor<float> xLocal = xBuf.Get<float>();

    for (int32_t i = 0; i < TILES; ++i) {
        DataCopy(xLocal, xGm[i * TILE], TILE);  // EXPECT: ub-race
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Relu(yLocal, xLocal, TILE);  // FIRST
        outQueue.EnQue(yLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[i * TILE], yLocal, TILE);
        outQueue.FreeTensor(yLocal);
    }
}
