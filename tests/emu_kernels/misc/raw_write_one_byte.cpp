// Honest but for one byte: y = x copied through UB with DataCopy, 8 floats at a time, except the 32-byte tile
// that holds element k; one byte of element k is then changed through a raw pointer. The emulator must name that
// byte (at an odd offset, in a buffer the API wrote everywhere else).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_write_one_byte(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t k)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t tile = 8;
    pipe.InitBuffer(buf, tile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t off = 0; off < n; off += tile) {
        if (off / tile == k / tile) continue;
        DataCopy(t, xGm[off], tile);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[off], t, tile);
        PipeBarrier<PIPE_ALL>();
    }
    ((__gm__ uint8_t*)y)[k * 4 + 1] ^= 0x40;
}
