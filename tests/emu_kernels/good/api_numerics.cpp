/*
 * Probes of the numerics the emulator promises: Cast with every rounding mode (float -> half,
 * float -> int32), ReduceSum's order and half saturation, ReduceMax with its index,
 * WholeReduceMax (value, index) per repeat and BlockReduceSum per 32-byte block.
 */
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void api_numerics(GM_ADDR xf, GM_ADDR xh, GM_ADDR xr, GM_ADDR outH, GM_ADDR outI,
                                                   GM_ADDR sumF, GM_ADDR maxF, GM_ADDR sumH, GM_ADDR whole, GM_ADDR blk)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inF, inH, inR, bufH, bufI, red, tmp;
    pipe.InitBuffer(inF, 64 * sizeof(float));
    pipe.InitBuffer(inH, 128 * sizeof(half));
    pipe.InitBuffer(inR, 256 * sizeof(float));
    pipe.InitBuffer(bufH, 6 * 64 * sizeof(half));
    pipe.InitBuffer(bufI, 5 * 64 * sizeof(int32_t));
    pipe.InitBuffer(red, 96 * sizeof(float));
    pipe.InitBuffer(tmp, 256 * sizeof(float));
    GlobalTensor<float> xfGm, xrGm, sumFGm, maxFGm, wholeGm, blkGm;
    GlobalTensor<half> xhGm, outHGm, sumHGm;
    GlobalTensor<int32_t> outIGm;
    xfGm.SetGlobalBuffer((__gm__ float *)xf, 64);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, 128);
    xrGm.SetGlobalBuffer((__gm__ float *)xr, 256);
    outHGm.SetGlobalBuffer((__gm__ half *)outH, 6 * 64);
    outIGm.SetGlobalBuffer((__gm__ int32_t *)outI, 5 * 64);
    sumFGm.SetGlobalBuffer((__gm__ float *)sumF, 8);
    maxFGm.SetGlobalBuffer((__gm__ float *)maxF, 8);
    sumHGm.SetGlobalBuffer((__gm__ half *)sumH, 16);
    wholeGm.SetGlobalBuffer((__gm__ float *)whole, 8);
    blkGm.SetGlobalBuffer((__gm__ float *)blk, 32);

    LocalTensor<float> f = inF.Get<float>();
    LocalTensor<half> h = inH.Get<half>();
    LocalTensor<float> r = inR.Get<float>();
    DataCopy(f, xfGm, 64);
    DataCopy(h, xhGm, 128);
    DataCopy(r, xrGm, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    LocalTensor<half> oh = bufH.Get<half>();
    Cast(oh[0 * 64], f, RoundMode::CAST_RINT, 64);
    Cast(oh[1 * 64], f, RoundMode::CAST_FLOOR, 64);
    Cast(oh[2 * 64], f, RoundMode::CAST_CEIL, 64);
    Cast(oh[3 * 64], f, RoundMode::CAST_ROUND, 64);
    Cast(oh[4 * 64], f, RoundMode::CAST_TRUNC, 64);
    Cast(oh[5 * 64], f, RoundMode::CAST_ODD, 64);
    LocalTensor<int32_t> oi = bufI.Get<int32_t>();
    Cast(oi[0 * 64], f, RoundMode::CAST_RINT, 64);
    Cast(oi[1 * 64], f, RoundMode::CAST_FLOOR, 64);
    Cast(oi[2 * 64], f, RoundMode::CAST_CEIL, 64);
    Cast(oi[3 * 64], f, RoundMode::CAST_ROUND, 64);
    Cast(oi[4 * 64], f, RoundMode::CAST_TRUNC, 64);

    LocalTensor<float> out = red.Get<float>();
    LocalTensor<float> t = tmp.Get<float>();
    Duplicate(out, 0.0f, 96);
    ReduceSum(out[0], r, t, 256);                          // sumF: out[0..8)
    ReduceMax(out[8], r, t, 256, true);                    // maxF: out[8..16): value, index bits
    LocalTensor<half> hs = out[16].ReinterpretCast<half>(); // sumH: out[16..24) as 16 halves
    ReduceSum(hs, h, t.ReinterpretCast<half>(), 128);
    WholeReduceMax(out[24], r, 64, 4, 1, 1, 8);            // whole: (value, index) x 4 repeats
    BlockReduceSum(out[32], r, 4, 64, 1, 1, 8);            // blk: 8 sums x 4 repeats

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outHGm, oh, 6 * 64);
    DataCopy(outIGm, oi, 5 * 64);
    DataCopy(sumFGm, out[0], 8);
    DataCopy(maxFGm, out[8], 8);
    DataCopy(sumHGm, hs, 16);
    DataCopy(wholeGm, out[24], 8);
    DataCopy(blkGm, out[32], 32);
}
