/*
 * A cube kernel whose L0A buffers do not fit: two 48 KB buffers on TPosition::A2, where L0A holds 64 KB.
 * The emulator stops at the InitBuffer with an `l0-overflow` error naming this line.
 */
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void l0_overflow(GM_ADDR a)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> inA1;
    TQue<TPosition::A2, 2> inA2;
    pipe.InitBuffer(inA1, 1, 96 * 1024);
    pipe.InitBuffer(inA2, 2, 48 * 1024);  // 96 KB of L0A: too much
}
