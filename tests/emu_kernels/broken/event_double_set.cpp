// Broken: the same flag is set twice without a WaitFlag in between, and a PipeBarrier<PIPE_ALL> comes before the two
// waits: the API reference's SetFlag page says this barrier hangs the core.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TQueSync<PIPE_V, PIPE_MTE3> sync;
    sync.SetFlag(EVENT_ID3);
    sync.SetFlag(EVENT_ID3);
    PipeBarrier<PIPE_ALL>();  // EXPECT: event-set-twice
    sync.WaitFlag(EVENT_ID3);
    sync.WaitFlag(EVENT_ID3);
}
