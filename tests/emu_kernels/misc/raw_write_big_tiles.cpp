// Honest but for one byte, with tiles larger than the raw-write check's 4 KiB chunks: y = x copied through UB, first
// `head` floats in one copy (so the tiles after it start inside a chunk), then `tile` floats at a time (the last tile
// shorter), except the tile that holds element k; one byte of element k is then changed through a raw pointer
// (skipped when k >= n: an honest run).
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_write_big_tiles(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t k, uint32_t head, uint32_t tile)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t off = 0; off < n;) {
        const uint32_t len = off == 0 ? head : (n - off < tile ? n - off : tile);
        if (!(k >= off && k < off + len)) {
            DataCopy(t, xGm[off], len);
            PipeBarrier<PIPE_ALL>();
            DataCopy(yGm[off], t, len);
            PipeBarrier<PIPE_ALL>();
        }
        off += len;
    }
    if (k < n) ((__gm__ uint8_t*)y)[k * 4 + 1] ^= 0x40;
}
