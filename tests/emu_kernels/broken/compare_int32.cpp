// Broken: Compare on int32_t supports only EQ on A2.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, bits;
    pipe.InitBuffer(buf, 128 * sizeof(int32_t));
    pipe.InitBuffer(bits, 32);
    LocalTensor<int32_t> a = buf.Get<int32_t>();
    Duplicate(a, 3, 128);
    Compare(bits.Get<uint8_t>(), a, a[64], CMPMODE::LT, 64);  // EXPECT: unsupported
}
