// Broken: Tanh into a dst that overlaps its src a few elements further on; the advanced API does not allow dst and
// src to overlap (exactly in place, dst being src, the NPU computes it right: a warning, see test_emu_corpus_styles).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmp;
    pipe.InitBuffer(buf, 512 * sizeof(float));
    pipe.InitBuffer(tmp, 4096);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.5f, 512);
    Tanh(t[8], t, tmp.Get<uint8_t>(), 256);  // EXPECT: adv-overlap
}
