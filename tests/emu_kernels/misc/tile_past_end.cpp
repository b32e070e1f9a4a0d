// y = 2 * x over n floats, copied in and out in whole 8-float tiles: for n not a multiple of 8 the last tile reads
// and writes up to 7 floats past the end of x and y (DataCopy of a rounded-up count, no DataCopyPad).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void tile_past_end(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t padded = (n + 7) / 8 * 8;
    pipe.InitBuffer(buf, padded * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, padded);
    yGm.SetGlobalBuffer((__gm__ float*)y, padded);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, padded);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, padded);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, padded);
}
