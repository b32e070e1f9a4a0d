/*
 * Probes of the vector APIs added to the emulation for A2 kernels written by experts and LLMs:
 * bitwise And/Or/Not, ShiftLeft/ShiftRight (with roundEn), AddRelu/SubRelu, FusedMulAdd,
 * MulAddDst (same type and half -> float), Brcb, Gatherb, the 16 x 16 Transpose, the advanced
 * math APIs Sin/Cos/Floor/Ceil/Round/Trunc, and the values of ReduceMin, WholeReduceMin and
 * BlockReduceMax/Min. Output slots that a level-0 call covers only partly start as -7, so the
 * test sees which lanes the mask left alone. tests/test_emu_api_extra.py checks every slot
 * against NumPy.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;  // elements per slot (float: 4 repeats, 16-bit: 2 repeats)

extern "C" __global__ __aicore__ void api_extra(GM_ADDR xf, GM_ADDR yf, GM_ADDR zf, GM_ADDR xr, GM_ADDR xh, GM_ADDR yh,
                                                GM_ADDR xi, GM_ADDR yi, GM_ADDR x32, GM_ADDR of, GM_ADDR oh, GM_ADDR oi,
                                                GM_ADDR o32, GM_ADDR red, GM_ADDR redh)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inF, inH, inI, in32, outF, outH, outI, out32, redF, redH, tmp, offs;
    pipe.InitBuffer(inF, 4 * N * sizeof(float));       // xf, yf, zf, xr
    pipe.InitBuffer(inH, 2 * N * sizeof(half));        // xh, yh
    pipe.InitBuffer(inI, 2 * N * sizeof(int16_t));     // xi, yi
    pipe.InitBuffer(in32, 64 * sizeof(int32_t));
    pipe.InitBuffer(outF, 15 * N * sizeof(float));
    pipe.InitBuffer(outH, 6 * N * sizeof(half));
    pipe.InitBuffer(outI, 12 * N * sizeof(int16_t));
    pipe.InitBuffer(out32, 4 * 64 * sizeof(int32_t));
    pipe.InitBuffer(redF, 96 * sizeof(float));
    pipe.InitBuffer(redH, 32 * sizeof(half));
    pipe.InitBuffer(tmp, 4096);
    pipe.InitBuffer(offs, 64 * sizeof(uint32_t));

    GlobalTensor<float> xfGm, yfGm, zfGm, xrGm, ofGm, redGm;
    GlobalTensor<half> xhGm, yhGm, ohGm, redhGm;
    GlobalTensor<int16_t> xiGm, yiGm, oiGm;
    GlobalTensor<int32_t> x32Gm, o32Gm;
    xfGm.SetGlobalBuffer((__gm__ float *)xf, N);
    yfGm.SetGlobalBuffer((__gm__ float *)yf, N);
    zfGm.SetGlobalBuffer((__gm__ float *)zf, N);
    xrGm.SetGlobalBuffer((__gm__ float *)xr, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, N);
    yhGm.SetGlobalBuffer((__gm__ half *)yh, N);
    xiGm.SetGlobalBuffer((__gm__ int16_t *)xi, N);
    yiGm.SetGlobalBuffer((__gm__ int16_t *)yi, N);
    x32Gm.SetGlobalBuffer((__gm__ int32_t *)x32, 64);
    ofGm.SetGlobalBuffer((__gm__ float *)of, 15 * N);
    ohGm.SetGlobalBuffer((__gm__ half *)oh, 6 * N);
    oiGm.SetGlobalBuffer((__gm__ int16_t *)oi, 12 * N);
    o32Gm.SetGlobalBuffer((__gm__ int32_t *)o32, 4 * 64);
    redGm.SetGlobalBuffer((__gm__ float *)red, 96);
    redhGm.SetGlobalBuffer((__gm__ half *)redh, 32);

    LocalTensor<float> f = inF.Get<float>();
    LocalTensor<float> x = f, y = f[N], z = f[2 * N], r = f[3 * N];
    LocalTensor<half> h = inH.Get<half>();
    LocalTensor<half> hx = h, hy = h[N];
    LocalTensor<int16_t> i16 = inI.Get<int16_t>();
    LocalTensor<int16_t> ix = i16, iy = i16[N];
    LocalTensor<int32_t> w = in32.Get<int32_t>();
    DataCopy(x, xfGm, N);
    DataCopy(y, yfGm, N);
    DataCopy(z, zfGm, N);
    DataCopy(r, xrGm, N);
    DataCopy(hx, xhGm, N);
    DataCopy(hy, yhGm, N);
    DataCopy(ix, xiGm, N);
    DataCopy(iy, yiGm, N);
    DataCopy(w, x32Gm, 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    LocalTensor<float> of_ = outF.Get<float>();
    LocalTensor<half> oh_ = outH.Get<half>();
    LocalTensor<int16_t> oi_ = outI.Get<int16_t>();
    LocalTensor<int32_t> o32_ = out32.Get<int32_t>();
    LocalTensor<uint8_t> scratch = tmp.Get<uint8_t>();
    Duplicate(of_, -7.0f, 15 * N);
    Duplicate(oh_, (half)-7, 6 * N);
    Duplicate(oi_, (int16_t)-7, 12 * N);
    Duplicate(o32_, (int32_t)-7, 4 * 64);
    uint64_t low32[1] = {0xFFFFFFFFull};          // float lanes 0..31 of a repeat
    uint64_t low64[2] = {~0ull, 0};               // 16-bit lanes 0..63 of a repeat

    // ---- float slots -------------------------------------------------------------------------
    AddRelu(of_[0 * N], x, y, N);
    SubRelu(of_[1 * N], x, y, 32, 4, {1, 1, 1, 8, 8, 8});           // lanes 0..31 of each repeat
    DataCopy(of_[2 * N], z, N);
    FusedMulAdd(of_[2 * N], x, y, N);                                // x * z + y
    DataCopy(of_[3 * N], z, N);
    MulAddDst(of_[3 * N], x, y, N);                                  // x * y + z
    DataCopy(of_[4 * N], z, N);
    MulAddDst(of_[4 * N], hx, hy, N);                                // half sources, float dst
    DataCopy(of_[5 * N], z, N);
    MulAddDst(of_[5 * N], hx, hy, 64, 2, {1, 1, 1, 8, 4, 4});       // 2 repeats of 64: elements 0..127
    Sin(of_[6 * N], x, scratch, N);
    Cos(of_[7 * N], x, N);
    Floor(of_[8 * N], r, scratch, N);
    Ceil(of_[9 * N], r, N);
    Round(of_[10 * N], r, N);
    Trunc(of_[11 * N], r, scratch, N);
    Brcb(of_[12 * N], x, 4, {1, 8});                                 // 32 blocks, one per x[0..32)
    Brcb(of_[13 * N], x, 1, BrcbRepeatParams(2, 8));                 // x[0..8) into the even blocks
    LocalTensor<uint32_t> off = offs.Get<uint32_t>();
    for (int32_t k = 0; k < 32; ++k) off.SetValue(k, (uint32_t)((31 - k) * 32));       // blocks reversed
    for (int32_t k = 0; k < 16; ++k) off.SetValue(32 + k, (uint32_t)(((k * 5) % 16) * 32));
    SetFlag<HardEvent::S_V>(EVENT_ID1);
    WaitFlag<HardEvent::S_V>(EVENT_ID1);
    Gatherb(of_[14 * N].ReinterpretCast<uint32_t>(), x.ReinterpretCast<uint32_t>(), off, 4, {1, 8});

    // ---- half slots --------------------------------------------------------------------------
    AddRelu(oh_[0 * N], hx, hy, N);
    DataCopy(oh_[1 * N], hx, N);
    FusedMulAdd(oh_[1 * N], hy, hx, low64, 2, {1, 1, 1, 8, 8, 8});  // hy * hx + hx on lanes 0..63
    DataCopy(oh_[2 * N], hx, N);
    MulAddDst(oh_[2 * N], hy, hy, N);                                // hy * hy + hx
    Transpose(oh_[3 * N], hx);
    Sin(oh_[4 * N], hx, N);
    Floor(oh_[5 * N], hy, N);

    // ---- int16 slots -------------------------------------------------------------------------
    And(oi_[0 * N], ix, iy, N);
    Or(oi_[1 * N], ix, iy, low64, 2, {1, 1, 1, 8, 8, 8});
    Not(oi_[2 * N], ix, N);
    Not(oi_[3 * N].ReinterpretCast<uint16_t>(), ix.ReinterpretCast<uint16_t>(), 128, 2, {1, 1, 8, 8});
    AddRelu(oi_[4 * N], ix, iy, N);
    ShiftLeft(oi_[5 * N], ix, (int16_t)3, N);
    ShiftRight(oi_[6 * N], ix, (int16_t)2, N);
    ShiftRight(oi_[7 * N], ix, (int16_t)5, 128, 2, {1, 1, 8, 8}, true);
    ShiftRight(oi_[8 * N].ReinterpretCast<uint16_t>(), ix.ReinterpretCast<uint16_t>(), (uint16_t)4, N);
    DataCopy(oi_[9 * N], ix, N);
    Transpose(oi_[9 * N], oi_[9 * N]);                               // in place
    Brcb(oi_[10 * N], ix, 2, {1, 8});                                // 16 blocks of 16, one per ix[0..16)
    Gatherb(oi_[11 * N].ReinterpretCast<uint16_t>(), ix.ReinterpretCast<uint16_t>(), off[32], 2, {1, 8});

    // ---- int32 slots -------------------------------------------------------------------------
    ShiftLeft(o32_[0], w, (int32_t)7, 64);
    ShiftRight(o32_[64], w, (int32_t)3, 64);
    ShiftRight(o32_[128].ReinterpretCast<uint32_t>(), w.ReinterpretCast<uint32_t>(), (uint32_t)32, 64);
    ShiftRight(o32_[192], w, (int32_t)1, low32, 1, {1, 1, 8, 8}, true);

    // ---- reductions: values and indices ------------------------------------------------------
    LocalTensor<float> rd = redF.Get<float>();
    LocalTensor<half> rh = redH.Get<half>();
    LocalTensor<float> t = tmp.Get<float>();
    Duplicate(rd, 0.0f, 96);
    Duplicate(rh, (half)0, 32);
    ReduceMin(rd[0], r, t, N, true);                     // rd[0..2): value, index bits
    ReduceMin(rd[8], r, t, 64, 4, 8);                    // level 0, no index: rd[8]
    WholeReduceMin(rd[16], r, 64, 4, 1, 1, 8);           // (value, index) x 4 repeats: rd[16..24)
    WholeReduceMin(rd[24], r, 64, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);   // rd[24..28)
    BlockReduceMax(rd[32], r, 4, 64, 1, 1, 8);           // 8 maxima x 4 repeats: rd[32..64)
    BlockReduceMin(rd[64], r, 4, 60, 1, 1, 8);           // lanes 0..59: block 7 has 4 lanes
    ReduceMin(rh[0], hx, t.ReinterpretCast<half>(), N, true);       // rh[0..2): value, index (uint16)
    BlockReduceMax(rh[16], hx, 2, 128, 1, 1, 8);         // 8 maxima x 2 repeats: rh[16..32)

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(ofGm, of_, 15 * N);
    DataCopy(ohGm, oh_, 6 * N);
    DataCopy(oiGm, oi_, 12 * N);
    DataCopy(o32Gm, o32_, 4 * 64);
    DataCopy(redGm, rd, 96);
    DataCopy(redhGm, rh, 32);
}
