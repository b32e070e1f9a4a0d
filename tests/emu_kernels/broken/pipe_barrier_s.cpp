// Broken: a barrier on the scalar pipe is a hardware error.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    PipeBarrier<PIPE_S>();  // EXPECT: pipe-barrier
}
