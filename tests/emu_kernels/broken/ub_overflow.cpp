// Broken: the queues ask for more UB than the 192 KB a vector core has.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    pipe.InitBuffer(inQueue, 2, 64 * 1024);
    pipe.InitBuffer(outQueue, 2, 64 * 1024);  // EXPECT: ub-overflow
}
