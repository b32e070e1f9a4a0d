/*
 * y = 2 * x[::2] for a [8, 64] bfloat16 matrix: one strided DataCopy (DataCopyParams with a source
 * gap of one row) gathers the even rows; the arithmetic runs in float via Cast.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint16_t ROWS_OUT = 4;
constexpr uint16_t COLS = 64;
constexpr uint16_t ROW_BLOCKS = COLS * sizeof(bfloat16_t) / 32;  // a row is 4 blocks of 32 bytes

extern "C" __global__ __aicore__ void bf16_strided(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> floatBuf;
    GlobalTensor<bfloat16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ bfloat16_t *)x, 2 * ROWS_OUT * COLS);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t *)y, ROWS_OUT * COLS);
    pipe.InitBuffer(inQueue, 1, ROWS_OUT * COLS * sizeof(bfloat16_t));
    pipe.InitBuffer(outQueue, 1, ROWS_OUT * COLS * sizeof(bfloat16_t));
    pipe.InitBuffer(floatBuf, ROWS_OUT * COLS * sizeof(float));

    LocalTensor<bfloat16_t> xLocal = inQueue.AllocTensor<bfloat16_t>();
    DataCopyParams everyOtherRow{ROWS_OUT, ROW_BLOCKS, ROW_BLOCKS, 0};
    DataCopy(xLocal, xGm, everyOtherRow);
    inQueue.EnQue(xLocal);

    xLocal = inQueue.DeQue<bfloat16_t>();
    LocalTensor<float> wide = floatBuf.Get<float>();
    LocalTensor<bfloat16_t> yLocal = outQueue.AllocTensor<bfloat16_t>();
    Cast(wide, xLocal, RoundMode::CAST_NONE, ROWS_OUT * COLS);
    Muls(wide, wide, 2.0f, ROWS_OUT * COLS);
    Cast(yLocal, wide, RoundMode::CAST_RINT, ROWS_OUT * COLS);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);

    yLocal = outQueue.DeQue<bfloat16_t>();
    DataCopy(yGm, yLocal, ROWS_OUT * COLS);
    outQueue.FreeTensor(yLocal);
}
