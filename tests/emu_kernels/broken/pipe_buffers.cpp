// Broken: 72 queue buffers in one TPipe; a TPipe manages at most 64.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECCALC, 8> queues[9];
    for (int i = 0; i < 9; i++) {
        pipe.InitBuffer(queues[i], 8, 64);  // EXPECT: pipe-buffers
    }
}
