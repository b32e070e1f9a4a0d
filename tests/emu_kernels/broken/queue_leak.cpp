// Broken: a tensor put into a queue is never taken out (EnQue without DeQue): its flag is left set.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, 1024);
    LocalTensor<float> out = outQueue.AllocTensor<float>();  // EXPECT: queue-leak
    Duplicate(out, 0.0f, 256);
    outQueue.EnQue(out);
}
