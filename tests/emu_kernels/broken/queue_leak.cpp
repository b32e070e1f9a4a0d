// Broken: a tensor allocated from a queue is never freed.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECCALC, 1> tmpQueue;
    pipe.InitBuffer(tmpQueue, 1, 1024);
    LocalTensor<float> tmp = tmpQueue.AllocTensor<float>();  // EXPECT: queue-leak
    Duplicate(tmp, 0.0f, 256);
}
