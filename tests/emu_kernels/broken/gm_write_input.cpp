// Broken: the result is copied back into the input tensor x.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + 256 * GetBlockIdx(), 256);
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    LocalTensor<float> t = outQueue.AllocTensor<float>();
    Duplicate(t, 0.0f, 256);
    outQueue.EnQue(t);
    t = outQueue.DeQue<float>();
    DataCopy(xGm, t, 256);  // EXPECT: gm-write-input
    outQueue.FreeTensor(t);
}
