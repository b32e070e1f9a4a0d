// Honest: y = x through UB with DataCopy for the bulk and GlobalTensor::SetValue for the last 8
// elements, plus an inout accumulator updated with SetValue. Nothing bypasses the API.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void api_writes_only(GM_ADDR x, GM_ADDR y, GM_ADDR acc, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    GlobalTensor<float> xGm, yGm, accGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    accGm.SetGlobalBuffer((__gm__ float*)acc, 8);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, n - 8);
    for (uint32_t i = n - 8; i < n; ++i) yGm.SetValue(i, xGm.GetValue(i));
    accGm.SetValue(0, accGm.GetValue(0) + xGm.GetValue(0));
}
