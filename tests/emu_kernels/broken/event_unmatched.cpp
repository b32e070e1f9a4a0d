// Broken: WaitFlag without the SetFlag that should release it; on the NPU the vector pipe hangs.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);  // EXPECT: event-unmatched
}
