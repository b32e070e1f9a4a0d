// Broken: Compare over 100 floats (400 bytes); Compare works on whole 256-byte repeats.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, bits;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(bits, 64);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<uint8_t> m = bits.Get<uint8_t>();
    Duplicate(a, 1.0f, 256);
    Compare(m, a, a[128], CMPMODE::LT, 100);  // EXPECT: compare-count
}
