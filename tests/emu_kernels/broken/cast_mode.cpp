// Broken: half -> float is exact, so A2 accepts only CAST_NONE for it.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> h, f;
    pipe.InitBuffer(h, 128 * sizeof(half));
    pipe.InitBuffer(f, 128 * sizeof(float));
    LocalTensor<half> a = h.Get<half>();
    LocalTensor<float> b = f.Get<float>();
    Duplicate(a, (half)1.0, 128);
    Cast(b, a, RoundMode::CAST_RINT, 128);  // EXPECT: cast-mode
}
