// Broken: a continuous mask of 100 lanes on float data; a float repeat has 64 lanes.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 512);
    uint64_t mask = 100;
    Add(t, t, t, mask, 4, {1, 1, 1, 8, 8, 8});  // EXPECT: vector-mask
}
