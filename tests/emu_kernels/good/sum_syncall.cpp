/*
 * Sum of all elements of a float vector across blocks: every block reduces its slice and writes
 * the partial sum into its own 32-byte slot of a GM workspace; after SyncAll, block 0 reads the
 * slots back and writes the total (in element 0 of an 8-float output).
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t SLOT = 8;  // floats per 32-byte workspace slot

class KernelSum {
public:
    __aicore__ inline KernelSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, uint32_t total)
    {
        perBlock = total / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
        yGm.SetGlobalBuffer((__gm__ float *)y, SLOT);
        wsGm.SetGlobalBuffer((__gm__ float *)GetUserWorkspace(workspace), SLOT * GetBlockNum());
        pipe.InitBuffer(inQueue, 1, perBlock * sizeof(float));
        pipe.InitBuffer(outQueue, 1, SLOT * GetBlockNum() * sizeof(float));
        pipe.InitBuffer(calcBuf, (perBlock + SLOT * GetBlockNum()) * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, perBlock);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();

        LocalTensor<float> part = outQueue.AllocTensor<float>();
        LocalTensor<float> tmp = calcBuf.Get<float>();
        Duplicate(part, 0.0f, SLOT);
        ReduceSum(part, xLocal, tmp, perBlock);
        outQueue.EnQue(part);
        inQueue.FreeTensor(xLocal);
        part = outQueue.DeQue<float>();
        DataCopy(wsGm[SLOT * GetBlockIdx()], part, SLOT);
        outQueue.FreeTensor(part);

        SyncAll();

        if (GetBlockIdx() == 0) {
            int32_t n = SLOT * GetBlockNum();
            LocalTensor<float> all = inQueue.AllocTensor<float>();
            DataCopy(all, wsGm, n);
            inQueue.EnQue(all);
            all = inQueue.DeQue<float>();
            LocalTensor<float> result = outQueue.AllocTensor<float>();
            Duplicate(result, 0.0f, SLOT);
            ReduceSum(result, all, tmp, n);
            outQueue.EnQue(result);
            inQueue.FreeTensor(all);
            result = outQueue.DeQue<float>();
            DataCopy(yGm, result, SLOT);
            outQueue.FreeTensor(result);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm, yGm, wsGm;
    uint32_t perBlock = 0;
};

extern "C" __global__ __aicore__ void sum_syncall(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, uint32_t total)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    KernelSum op;
    op.Init(x, y, workspace, total);
    op.Process();
}
