/*
 * The contiguous float casts and Axpy, each done twice: in counter mode (one contiguous range, the emulator's typed
 * loops) and as level-0 repeats with a full mask (its lane-by-lane path). tests/test_emu_cast_contiguous.py checks
 * the two agree bit for bit and match NumPy's model of each conversion.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 512;           // 8 repeats of 64 lanes

extern "C" __global__ __aicore__ void api_cast_contiguous(GM_ADDR xf, GM_ADDR xb, GM_ADDR xh, GM_ADDR yf, GM_ADDR fb,
                                                          GM_ADDR bf, GM_ADDR hf, GM_ADDR fh, GM_ADDR ax)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inF, inB, inH, inY, oB, oF, oH, oA;
    pipe.InitBuffer(inF, N * sizeof(float));
    pipe.InitBuffer(inB, N * sizeof(bfloat16_t));
    pipe.InitBuffer(inH, N * sizeof(half));
    pipe.InitBuffer(inY, N * sizeof(float));
    pipe.InitBuffer(oB, 2 * N * sizeof(bfloat16_t));
    pipe.InitBuffer(oF, 4 * N * sizeof(float));
    pipe.InitBuffer(oH, 2 * N * sizeof(half));
    pipe.InitBuffer(oA, 2 * N * sizeof(float));
    GlobalTensor<float> xfGm, yfGm, bfGm, hfGm, axGm;
    GlobalTensor<bfloat16_t> xbGm, fbGm;
    GlobalTensor<half> xhGm, fhGm;
    xfGm.SetGlobalBuffer((__gm__ float *)xf, N);
    xbGm.SetGlobalBuffer((__gm__ bfloat16_t *)xb, N);
    xhGm.SetGlobalBuffer((__gm__ half *)xh, N);
    yfGm.SetGlobalBuffer((__gm__ float *)yf, N);
    fbGm.SetGlobalBuffer((__gm__ bfloat16_t *)fb, 2 * N);
    bfGm.SetGlobalBuffer((__gm__ float *)bf, 2 * N);
    hfGm.SetGlobalBuffer((__gm__ float *)hf, 2 * N);
    fhGm.SetGlobalBuffer((__gm__ half *)fh, 2 * N);
    axGm.SetGlobalBuffer((__gm__ float *)ax, 2 * N);

    LocalTensor<float> f = inF.Get<float>();
    LocalTensor<bfloat16_t> b = inB.Get<bfloat16_t>();
    LocalTensor<half> h = inH.Get<half>();
    LocalTensor<float> y = inY.Get<float>();
    DataCopy(f, xfGm, N);
    DataCopy(b, xbGm, N);
    DataCopy(h, xhGm, N);
    DataCopy(y, yfGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    LocalTensor<bfloat16_t> ob = oB.Get<bfloat16_t>();
    LocalTensor<float> of = oF.Get<float>();
    LocalTensor<half> oh = oH.Get<half>();
    LocalTensor<float> oa = oA.Get<float>();
    // float -> bfloat16, nearest-even: first half counter mode, second half level 0
    Cast(ob, f, RoundMode::CAST_RINT, N);
    Cast(ob[N], f, RoundMode::CAST_RINT, 64, N / 64, {1, 1, 4, 8});
    // bfloat16 -> float and half -> float, exact
    Cast(of, b, RoundMode::CAST_NONE, N);
    Cast(of[N], b, RoundMode::CAST_NONE, 64, N / 64, {1, 1, 8, 4});
    Cast(of[2 * N], h, RoundMode::CAST_NONE, N);
    Cast(of[3 * N], h, RoundMode::CAST_NONE, 64, N / 64, {1, 1, 8, 4});
    // float -> half, nearest-even
    Cast(oh, f, RoundMode::CAST_NONE, N);
    Cast(oh[N], f, RoundMode::CAST_NONE, 64, N / 64, {1, 1, 4, 8});
    // y + x * 0.37 in float, twice from the same y
    DataCopy(oa, y, N);
    DataCopy(oa[N], y, N);
    Axpy(oa, f, 0.37f, N);
    Axpy(oa[N], f, 0.37f, 64, N / 64, {1, 1, 8, 8});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(fbGm, ob, 2 * N);
    DataCopy(bfGm, of, 2 * N);
    DataCopy(hfGm, of[2 * N], 2 * N);
    DataCopy(fhGm, oh, 2 * N);
    DataCopy(axGm, oa, 2 * N);
}
