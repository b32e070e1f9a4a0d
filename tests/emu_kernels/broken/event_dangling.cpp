// Broken: a flag is set and never waited for before the kernel ends.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);  // EXPECT: event-unmatched
}
