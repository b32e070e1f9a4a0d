// Broken: a vector op whose count runs past the end of its LocalTensor.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 512 * sizeof(float));
    pipe.InitBuffer(b, 1024 * sizeof(float));
    LocalTensor<float> small = a.Get<float>();
    LocalTensor<float> big = b.Get<float>();
    Duplicate(big, 0.5f, 1024);
    LeakyRelu(small, big, 0.1f, 1024);  // EXPECT: ub-out-of-range
}
