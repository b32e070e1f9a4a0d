/*
 * Row softmax of a [rows, 256] float matrix. Each block takes rows / GetBlockNum() rows; the row
 * max and sum come from ReduceMax / ReduceSum into scratch tensors carved out of one TBuf, and are
 * read back as scalars after a V -> S flag.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t COLS = 256;
constexpr int32_t BUFFER_NUM = 2;

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows)
    {
        rowsPerBlock = rows / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x + rowsPerBlock * COLS * GetBlockIdx(), rowsPerBlock * COLS);
        yGm.SetGlobalBuffer((__gm__ float *)y + rowsPerBlock * COLS * GetBlockIdx(), rowsPerBlock * COLS);
        pipe.InitBuffer(inQueue, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(calcBuf, 3 * COLS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rowsPerBlock; row++) {
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[row * COLS], COLS);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> work = calcBuf.Get<float>();
        LocalTensor<float> tmp = work;                 // ReduceMax/ReduceSum scratch
        LocalTensor<float> maxLocal = work[COLS];      // dst of the reductions (32-byte aligned)
        LocalTensor<float> sumLocal = work[2 * COLS];

        ReduceMax(maxLocal, xLocal, tmp, COLS);
        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        float rowMax = maxLocal.GetValue(0);

        Adds(yLocal, xLocal, -rowMax, COLS);
        Exp(yLocal, yLocal, COLS);
        ReduceSum(sumLocal, yLocal, tmp, COLS);
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        float rowSum = sumLocal.GetValue(0);
        Muls(yLocal, yLocal, 1.0f / rowSum, COLS);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[row * COLS], yLocal, COLS);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rowsPerBlock = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    KernelSoftmax op;
    op.Init(x, y, rows);
    op.Process();
}
