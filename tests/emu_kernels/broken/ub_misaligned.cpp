// Broken: a vector operand that starts 3 floats (12 bytes) into a buffer.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 1024);
    Add(t, t[3], t, 64);  // EXPECT: ub-misaligned
}
