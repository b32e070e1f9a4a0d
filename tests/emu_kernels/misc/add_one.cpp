// y[b*T:(b+1)*T] = x[...] + 1, each block on its own slice (order-free): the small kernel of the GM-file, parallel-run
// and verification-memory tests.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR y, uint32_t tile)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + tile * GetBlockIdx(), tile);
    yGm.SetGlobalBuffer((__gm__ float *)y + tile * GetBlockIdx(), tile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, tile);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, tile);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, tile);
}
