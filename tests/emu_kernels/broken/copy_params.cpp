// Broken: a DataCopy with blockCount = 0.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    pipe.InitBuffer(inQueue, 1, 1024);
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopyParams params{0, 8, 0, 0};
    DataCopy(t, xGm, params);  // EXPECT: copy-params
    inQueue.FreeTensor(t);
}
