// Broken: only block 0 reaches SyncAll; on the NPU it waits for the others forever.
// BLOCKS: 4
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    if (GetBlockIdx() == 0) {
        SyncAll();  // EXPECT: syncall-mismatch
    }
}
