// Broken: Select in tensor/tensor mode writes scratch at the top 8 KB of UB, where InitBuffer put a buffer that
// holds the kernel's data.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> big, data, bits;
    pipe.InitBuffer(data, 3 * 64 * sizeof(float));
    pipe.InitBuffer(bits, 32);
    pipe.InitBuffer(big, 190 * 1024);
    LocalTensor<float> d = data.Get<float>();
    LocalTensor<uint8_t> m = bits.Get<uint8_t>();
    Duplicate(d, 1.0f, 3 * 64);
    Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0x5555, 16);
    Duplicate(big.Get<float>(), 2.0f, 190 * 1024 / 4);
    PipeBarrier<PIPE_V>();
    Select(d, m, d[64], d[128], SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);  // EXPECT: select-scratch
}
