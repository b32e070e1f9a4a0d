// Broken: CopyIn runs once but Compute dequeues twice; on the NPU the second DeQue waits forever.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    pipe.InitBuffer(inQueue, 2, 256 * sizeof(float));
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopy(t, xGm, 256);
    inQueue.EnQue(t);
    LocalTensor<float> a = inQueue.DeQue<float>();
    LocalTensor<float> b = inQueue.DeQue<float>();  // EXPECT: queue-empty
    inQueue.FreeTensor(a);
    inQueue.FreeTensor(b);
}
