// Broken: the same flag is set twice without a WaitFlag in between.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TQueSync<PIPE_V, PIPE_MTE3> sync;
    sync.SetFlag(EVENT_ID3);
    sync.SetFlag(EVENT_ID3);  // EXPECT: event-unmatched
    sync.WaitFlag(EVENT_ID3);
}
