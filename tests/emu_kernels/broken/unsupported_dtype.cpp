// Broken: Exp has no double form on Ascend 910B; a compile error at this line.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<double> t = buf.Get<double>();
    Exp(t, t, 128);  // EXPECT: compile-error
}
