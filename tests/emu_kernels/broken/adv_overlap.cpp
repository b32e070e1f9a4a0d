// Broken: Tanh in place; the advanced API does not allow dst and src to overlap.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(tmp, 4096);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.5f, 256);
    Tanh(t, t, tmp.Get<uint8_t>(), 256);  // EXPECT: adv-overlap
}
