// Broken: the loop bound never changes; the kernel spins until the time limit.
// TIMEOUT: 2
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t i = 0; i < 8; i += 0) {
        Duplicate(t, 0.0f, 64);  // EXPECT: timeout
    }
}
