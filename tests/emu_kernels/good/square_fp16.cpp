/*
 * y = x * x + 1 for half tensors, computed in float: Cast half -> float, Mul, Adds, Cast back with
 * round-to-nearest-even. Two blocks, four tiles each, single-buffered.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE = 512;

class KernelSquare {
public:
    __aicore__ inline KernelSquare() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total)
    {
        uint32_t perBlock = total / GetBlockNum();
        tiles = perBlock / TILE;
        xGm.SetGlobalBuffer((__gm__ half *)x + perBlock * GetBlockIdx(), perBlock);
        yGm.SetGlobalBuffer((__gm__ half *)y + perBlock * GetBlockIdx(), perBlock);
        pipe.InitBuffer(inQueue, 1, TILE * sizeof(half));
        pipe.InitBuffer(outQueue, 1, TILE * sizeof(half));
        pipe.InitBuffer(floatBuf, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * TILE], TILE);
            inQueue.EnQue(xLocal);

            xLocal = inQueue.DeQue<half>();
            LocalTensor<float> wide = floatBuf.Get<float>();
            LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
            Cast(wide, xLocal, RoundMode::CAST_NONE, TILE);
            Mul(wide, wide, wide, TILE);
            Adds(wide, wide, 1.0f, TILE);
            Cast(yLocal, wide, RoundMode::CAST_RINT, TILE);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            yLocal = outQueue.DeQue<half>();
            DataCopy(yGm[i * TILE], yLocal, TILE);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> floatBuf;
    GlobalTensor<half> xGm, yGm;
    uint32_t tiles = 0;
};

extern "C" __global__ __aicore__ void square_fp16(GM_ADDR x, GM_ADDR y, uint32_t total)
{
    KernelSquare op;
    op.Init(x, y, total);
    op.Process();
}
