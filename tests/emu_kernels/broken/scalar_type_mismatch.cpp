// Broken: the scalar of Muls must have the tensor's element type (half), not float.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> t = buf.Get<half>();
    Muls(t, t, 2.0f, 128);  // EXPECT: compile-error
}
