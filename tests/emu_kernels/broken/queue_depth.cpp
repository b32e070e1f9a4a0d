// Broken: two EnQue on a queue of depth 1 without a DeQue in between.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 2, 256 * sizeof(float));
    LocalTensor<float> a = outQueue.AllocTensor<float>();
    LocalTensor<float> b = outQueue.AllocTensor<float>();
    Duplicate(a, 0.0f, 256);
    Duplicate(b, 0.0f, 256);
    outQueue.EnQue(a);
    outQueue.EnQue(b);  // EXPECT: queue-depth
}
