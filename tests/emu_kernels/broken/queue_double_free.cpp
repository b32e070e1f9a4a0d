// Broken: the same tensor is freed twice.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    LocalTensor<float> t = outQueue.AllocTensor<float>();
    Duplicate(t, 0.0f, 256);
    outQueue.FreeTensor(t);
    outQueue.FreeTensor(t);  // EXPECT: queue-double-free
}
