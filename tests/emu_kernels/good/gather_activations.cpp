/*
 * The APIs AscendCraft's lowering emits beyond the basics: CreateVecIndex builds byte offsets that
 * Gather uses to reverse 256 floats; Tanh and Erf (with a shared temporary buffer) and Sigmoid
 * (without) run on the result. y = [reversed, tanh, sigmoid, erf], 256 floats each.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void gather_activations(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> indexBuf, tmpBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * N);
    pipe.InitBuffer(inQueue, 1, N * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 4 * N * sizeof(float));
    pipe.InitBuffer(indexBuf, N * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, 8 * 1024);

    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, N);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();

    LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
    CreateVecIndex(index, (int32_t)0, N);            // 0, 1, ..., 255
    Muls(index, index, (int32_t)-4, N);              // byte offsets of the reversed order
    Adds(index, index, (int32_t)((N - 1) * 4), N);

    LocalTensor<float> out = outQueue.AllocTensor<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Gather(out, xLocal, index.ReinterpretCast<uint32_t>(), (uint32_t)0, N);
    Tanh(out[N], out, tmp, N);
    Sigmoid(out[2 * N], out, N);
    Erf<float, false>(out[3 * N], out, tmp, N);
    outQueue.EnQue(out);
    inQueue.FreeTensor(xLocal);

    out = outQueue.DeQue<float>();
    DataCopy(yGm, out, 4 * N);
    outQueue.FreeTensor(out);
}
