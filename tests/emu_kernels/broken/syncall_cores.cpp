// Broken: SyncAll in a launch of 64 blocks on a 48-core chip: blocks without a core never arrive.
// BLOCKS: 64
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    SyncAll();  // EXPECT: syncall-cores
}
