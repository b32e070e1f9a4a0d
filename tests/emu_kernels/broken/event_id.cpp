// Broken: hardware event ids are 0..7.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    SetFlag<HardEvent::MTE2_V>(8);  // EXPECT: event-id
    WaitFlag<HardEvent::MTE2_V>(8);
}
