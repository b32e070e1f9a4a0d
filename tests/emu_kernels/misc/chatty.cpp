// A kernel that prints about 8 MB: the parent keeps the head and the tail of its output.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void chatty(GM_ADDR x, GM_ADDR y)
{
    for (int i = 0; i < 200000; i++) {
        printf("block %lld line %d: the quick brown fox jumps over the lazy dog\n", (long long)GetBlockIdx(), i);
    }
    GlobalTensor<float> yGm;  // and it writes its output (a run that writes nothing is a no-output error)
    yGm.SetGlobalBuffer((__gm__ float *)y, 1);
    yGm.SetValue(0, 1.0f);
}
