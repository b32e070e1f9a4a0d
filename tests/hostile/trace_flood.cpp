// Hostile: floods the trace with 200k vector instructions on one tile, so the trace file grows far past the cap
// (file_limit_mb). The sandbox's file-size limit stops the run before the trace is read into memory.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void trace_flood(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    yGm.SetGlobalBuffer((__gm__ float*)y, 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 256);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 200000; ++i) Adds(t, t, 1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 256);
}
