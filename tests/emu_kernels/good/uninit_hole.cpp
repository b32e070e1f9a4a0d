// Loads 512 floats into UB in two copies that leave a hole of 8 floats at float `a` (none when a = 512), then reads
// all 512: the ub-uninitialised note must name the hole's first byte, a * 4 (the UB bookkeeping is a bit per byte).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void uninit_hole(GM_ADDR x, GM_ADDR y, uint32_t a)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, 512 * sizeof(float));
    pipe.InitBuffer(outBuf, 512 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 512);
    yGm.SetGlobalBuffer((__gm__ float*)y, 512);
    LocalTensor<float> t = inBuf.Get<float>();
    LocalTensor<float> u = outBuf.Get<float>();
    DataCopy(t, xGm, a);
    if (a < 512) DataCopy(t[a + 8], xGm[a + 8], 512 - a - 8);
    PipeBarrier<PIPE_ALL>();
    Muls(u, t, 2.0f, 512);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, u, 512);
}
