/*
 * y = 3 * x over a [rows, 13] float matrix whose rows are 52 bytes: not 32-byte aligned, so the
 * copies use DataCopyPad. Each row lands in UB padded to 64 bytes (16 floats); the vector op works
 * on the padded rows and DataCopyPad writes back only the 52 bytes of each row.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 13;
constexpr uint32_t PADDED = 16;  // COLS rounded up to 32 bytes

class KernelPadRows {
public:
    __aicore__ inline KernelPadRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows)
    {
        this->rows = rows;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y, rows * COLS);
        pipe.InitBuffer(inQueue, 1, rows * PADDED * sizeof(float));
        pipe.InitBuffer(outQueue, 1, rows * PADDED * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams copyIn{static_cast<uint16_t>(rows), COLS * sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, 3, 0.0f};
        DataCopyPad(xLocal, xGm, copyIn, pad);
        inQueue.EnQue(xLocal);

        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Muls(yLocal, xLocal, 3.0f, rows * PADDED);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);

        yLocal = outQueue.DeQue<float>();
        DataCopyExtParams copyOut{static_cast<uint16_t>(rows), COLS * sizeof(float), 0, 0, 0};
        DataCopyPad(yGm, yLocal, copyOut);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void pad_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    KernelPadRows op;
    op.Init(x, y, rows);
    op.Process();
}
