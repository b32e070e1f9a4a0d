/*
 * Calls every API form of the emulation header once with valid arguments (level-0 bit-mask forms,
 * legacy spellings, event-id management, the software SyncAll, in-place queue calls, advanced-API
 * overloads, tiling macros, the bitwise/shift/fused/block APIs). It checks that the whole surface
 * compiles unmodified and runs clean; test_emu_numerics.py and test_emu_api_extra.py check values.
 */
#include "kernel_operator.h"

using namespace AscendC;

struct SurfaceTiling {
    uint32_t n;
    uint32_t key;
};

extern "C" __global__ __aicore__ void api_surface(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SurfaceTiling, t, tiling);
    GET_TILING_DATA_MEMBER(SurfaceTiling, key, key, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    TPipe pipe;
    TQue<TPosition::VECIN, 0> inplace;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> fb, hb, ib, mb, tmp, syncBuf;
    pipe.InitBuffer(inplace, 1, 512 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 512 * sizeof(float));
    pipe.InitBuffer(fb, 4 * 256 * sizeof(float));
    pipe.InitBuffer(hb, 2 * 256 * sizeof(half));
    pipe.InitBuffer(ib, 256 * sizeof(int32_t));
    pipe.InitBuffer(mb, 64);
    pipe.InitBuffer(tmp, 4096);
    pipe.InitBuffer(syncBuf, 8 * 32);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> wsGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + 256 * GetBlockIdx(), 256);
    yGm.SetGlobalBuffer((__gm__ float *)y + 256 * GetBlockIdx(), 256);
    wsGm.SetGlobalBuffer((__gm__ int32_t *)ws, 8 * 8);

    LocalTensor<float> in;
    inplace.AllocTensor<float>(in);
    DataCopy(in, xGm, t.n);
    DataCopyPad(in[256], xGm, DataCopyParams(1, 40, 0, 0), DataCopyPadParams(false, 0, 0, 0));
    inplace.EnQue<TPosition::GM, TPosition::VECIN, float>(in);
    inplace.DeQue<float>(in);

    LocalTensor<float> f = fb.Get<float>();
    LocalTensor<half> h = hb.Get<half>();
    LocalTensor<int32_t> i32 = ib.Get<int32_t>();
    LocalTensor<uint8_t> m = mb.Get<uint8_t>();
    uint64_t bits[2] = {0xFFFFFFFFull, 0};
    uint64_t hbits[2] = {~0ull, ~0ull};
    Duplicate(f, 0.5f, 4 * 256);
    Duplicate(h, (half)0.25, 2 * 256);
    Duplicate<float, true>(f[256], 1.0f, bits, 1, 1, 8);
    Sub(f, f, in, bits, 4, {1, 1, 1, 8, 8, 8});
    Div(f, f, f[256], 64, 4, {1, 1, 1, 8, 8, 8});
    Max(f, f, f[256], bits, 4, {1, 1, 1, 8, 8, 8});
    Min(h, h, h[256], hbits, 2, {1, 1, 1, 8, 8, 8});
    Mul(h, h, h[256], 128, 2, {1, 1, 1, 8, 8, 8});
    Exp(f[512], f, 64, 4, {1, 1, 8, 8});
    Ln(f[512], f[512], bits, 4, {1, 1, 8, 8});
    Abs(f[512], f[512], 256);
    Sqrt(f[512], f[512], 256);
    Rsqrt(f[768], f[512], 256);
    Reciprocal(f[768], f[768], 256);
    Maxs(f[512], f[512], 0.125f, 64, 4, {1, 1, 8, 8});
    Mins(f[512], f[512], 8.0f, bits, 4, {1, 1, 8, 8});
    Adds(h, h, (half)1, 128, 2, {1, 1, 8, 8});
    Muls(i32.ReinterpretCast<int16_t>(), i32.ReinterpretCast<int16_t>(), (int16_t)3, 256);
    Relu(i32, i32, 256);
    LeakyRelu(h, h, (half)0.1, hbits, 2, {1, 1, 8, 8});
    Axpy(f, f[256], 2.0f, 64, 4, {1, 1, 8, 8});
    Cast(h, f, RoundMode::CAST_ODD, 64, 4, {1, 1, 4, 8});
    Cast(f, h, RoundMode::CAST_NONE, bits, 4, {1, 1, 8, 4});
    Cast(i32, f, RoundMode::CAST_TRUNC, 256);
    Cast(f[256], i32, RoundMode::CAST_NONE, 256);
    Compare(m, f, f[256], CMPMODE::LE, 64, 4, {1, 1, 1, 8, 8, 8});
    Compare(m, h, h[256], CMPMODE::NE, hbits, 2, {1, 1, 1, 8, 8, 8});
    CompareScalar(m, f, 0.5f, CMPMODE::EQ, bits, 4, {1, 1, 8, 8});
    Select(f[512], m, f, f[256], SELMODE::VSEL_TENSOR_TENSOR_MODE, 64, 4, {1, 1, 1, 8, 8, 8});
    Select(f[512], m, f, 3.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, bits, 4, {1, 1, 1, 8, 8, 8});
    SetVectorMask<half>(64);
    Add<half, false>(h, h, h[256], MASK_PLACEHOLDER, 2, {1, 1, 1, 8, 8, 8});
    SetVectorMask<float>(0, 0xFFull);
    Add<float, false>(f, f, f[256], MASK_PLACEHOLDER, 4, {1, 1, 1, 8, 8, 8});
    ResetMask();
    ReduceMin(f[768], f, f[512], 64, 4, 8, true);
    ReduceSum(f[776], f, f[512], bits, 4, 8);
    ReduceMax(h[256], h, h[128], 128, 2, 8);
    WholeReduceSum(f[768], f, bits, 4, 1, 1, 8);
    WholeReduceMin<float>(f[768], f, 64, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
    WholeReduceMax<half>(h[256], h, hbits, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
    BlockReduceMax(f[768], f, 4, bits, 1, 1, 8);
    BlockReduceMin<half>(h[256], h, 2, 128, 1, 1, 8);
    CreateVecIndex(i32, (int32_t)0, 64, 4, 1, 8);
    Muls(i32, i32, (int32_t)4, 256);
    Gather(f[512], f, i32.ReinterpretCast<uint32_t>(), (uint32_t)0, bits, 4, 8);
    LocalTensor<uint8_t> scratch = tmp.Get<uint8_t>();
    Tanh<float, false, DEFAULT_TANH_CONFIG>(f[512], f, scratch, 256);
    Sigmoid(f[256], f[768], scratch);   // whole-tensor forms: count = src.GetSize()
    Erf(f[256], f[768]);
    Tanh(f[256], f[768]);

    LocalTensor<int16_t> s16 = i32.ReinterpretCast<int16_t>();
    And(s16, s16, s16[256], hbits, 2, {1, 1, 1, 8, 8, 8});
    Or(s16, s16, s16[256], 128, 2, {1, 1, 1, 8, 8, 8});
    Not(s16.ReinterpretCast<uint16_t>(), s16.ReinterpretCast<uint16_t>(), hbits, 2, {1, 1, 8, 8});
    ShiftLeft(s16, s16, (int16_t)1, hbits, 2, {1, 1, 8, 8});
    ShiftRight(i32, i32, (int32_t)2, bits, 4, {1, 1, 8, 8}, true);
    ShiftRight<int32_t, false>(i32, i32, (int32_t)1, MASK_PLACEHOLDER, 4, {1, 1, 8, 8});
    AddRelu(h, h, h[256], hbits, 2, {1, 1, 1, 8, 8, 8});
    SubRelu(f, f, f[256], 64, 4, {1, 1, 1, 8, 8, 8});
    FusedMulAdd(f, f[256], f[512], bits, 4, {1, 1, 1, 8, 8, 8});
    MulAddDst(f, h, h[256], bits, 2, {1, 1, 1, 8, 4, 4});
    MulAddDst(f, f[256], f[512], 64, 4, {1, 1, 1, 8, 8, 8});
    Brcb(f[512], f, 2, BrcbRepeatParams(1, 8));
    Transpose(h, h);
    Sin(f[512], f, scratch, 256);
    Cos<float, false, defaultCosConfig>(f[768], f, 256);
    Trunc(f[256], f[768], scratch);   // whole-tensor form: count = src.GetSize()
    Floor(f[512], f, 256);
    Ceil(f[512], f, scratch, 256);
    Round<float>(f[512], f, 256);

    TQueSync<PIPE_V, PIPE_S> vs;
    vs.SetFlag(EVENT_ID1);
    vs.WaitFlag(EVENT_ID1);
    TEventID id = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
    SetFlag<HardEvent::V_MTE3>(id);
    WaitFlag<HardEvent::V_MTE3>(id);
    GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(id);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID2);
    pipe_barrier(PIPE_ALL);
    PipeBarrier<PIPE_V>();

    LocalTensor<float> out = outQueue.AllocTensor<float>();
    DataCopy(out, f, DataCopyParams(4, 2, 6, 0));
    vs.SetFlag(EVENT_ID1);                    // the UB -> UB copy runs on PIPE_V: the scalar reads wait for it
    vs.WaitFlag(EVENT_ID1);
    float probe = out.GetValue(3) + out(4);
    out.SetValue(5, probe);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID3);    // and the copy-out (MTE3) waits for the scalar store
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID3);
    out.SetSize(256);
    DumpTensor(out, 7, 0);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    if (TILING_KEY_IS(0) && key == t.key) {
        DataCopyPad(yGm, out, DataCopyParams(2, 128, 0, 384));
    }
    outQueue.FreeTensor(out);
    inplace.FreeTensor(in);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
    SyncAll(wsGm, syncBuf.Get<int32_t>());
    AscendC::printf("block %lld of %lld done\n", (long long)GetBlockIdx(), (long long)GetBlockNum());
}
