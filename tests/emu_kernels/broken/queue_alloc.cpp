// Broken: a third AllocTensor on a double-buffered queue before anything was freed.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    pipe.InitBuffer(inQueue, 2, 256 * sizeof(float));
    LocalTensor<float> a = inQueue.AllocTensor<float>();
    LocalTensor<float> b = inQueue.AllocTensor<float>();
    LocalTensor<float> c = inQueue.AllocTensor<float>();  // EXPECT: queue-alloc
}
