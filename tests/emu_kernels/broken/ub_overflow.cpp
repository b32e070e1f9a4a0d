// Broken: the queues ask for more UB than the 192 KB a vector core has, and the kernel uses the buffer past the end
// (an InitBuffer past the end that the kernel never uses is a warning: on the NPU it only hands out addresses).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    pipe.InitBuffer(inQueue, 2, 64 * 1024);
    pipe.InitBuffer(outQueue, 2, 64 * 1024);  // EXPECT: ub-overflow
    LocalTensor<float> t = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(t);
}
