// Half honest: copies y = x through UB with DataCopy for all but the last 8 elements, then patches
// those through a raw pointer. The emulator must name 'y' and the first raw byte (n - 8) * 4.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_write_tail(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, n - 8);
    for (uint32_t i = n - 8; i < n; ++i) ((__gm__ float*)y)[i] = xGm.GetValue(i);
}
