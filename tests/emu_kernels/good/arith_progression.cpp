/*
 * ArithProgression (lib/index) as the cann-ops upsample kernels call it: a float sequence with a fractional start,
 * a half one, and an int32 one with a step of 3, each written to its own output. tests/test_emu_corpus_apis.py
 * checks them against NumPy.
 */
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void arith_progression(GM_ADDR of, GM_ADDR oh, GM_ADDR oi, float first, float diff, int32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> qf, qh, qi;
    pipe.InitBuffer(qf, 1, 1024 * sizeof(float));
    pipe.InitBuffer(qh, 1, 1024 * sizeof(half));
    pipe.InitBuffer(qi, 1, 1024 * sizeof(int32_t));
    GlobalTensor<float> ofGm;
    GlobalTensor<half> ohGm;
    GlobalTensor<int32_t> oiGm;
    ofGm.SetGlobalBuffer((__gm__ float *)of, 1024);
    ohGm.SetGlobalBuffer((__gm__ half *)oh, 1024);
    oiGm.SetGlobalBuffer((__gm__ int32_t *)oi, 1024);

    LocalTensor<float> f = qf.AllocTensor<float>();
    ArithProgression(f, first, diff, n);
    qf.EnQue(f);
    LocalTensor<half> h = qh.AllocTensor<half>();
    ArithProgression<half>(h, static_cast<half>(first), static_cast<half>(diff), n);
    qh.EnQue(h);
    LocalTensor<int32_t> i = qi.AllocTensor<int32_t>();
    ArithProgression(i, static_cast<int32_t>(-5), static_cast<int32_t>(3), n);
    qi.EnQue(i);

    f = qf.DeQue<float>();
    DataCopy(ofGm, f, 1024);
    qf.FreeTensor(f);
    h = qh.DeQue<half>();
    DataCopy(ohGm, h, 1024);
    qh.FreeTensor(h);
    i = qi.DeQue<int32_t>();
    DataCopy(oiGm, i, 1024);
    qi.FreeTensor(i);
}
