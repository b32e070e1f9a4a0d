/*
 * Probes of the level-0 machinery: counter mode with isSetMask = false, bit masks on half,
 * Duplicate with a block stride, Select modes 0 and 2, level-0 CompareScalar and Gather, a strided
 * UB -> UB DataCopy and the mixed-precision Axpy (float dst, half src).
 *   zf = [z1 | z3 | z4 | z5 | z7 | z8 | z9] (7 x 256 floats), zh = z2 (256 halves), zb = bits (32 bytes)
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void api_level0(GM_ADDR x, GM_ADDR y, GM_ADDR hx, GM_ADDR zf, GM_ADDR zh, GM_ADDR zb)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> in, hin, outF, outH, bits, offs;
    pipe.InitBuffer(in, 2 * N * sizeof(float));
    pipe.InitBuffer(hin, N * sizeof(half));
    pipe.InitBuffer(outF, 7 * N * sizeof(float));
    pipe.InitBuffer(outH, N * sizeof(half));
    pipe.InitBuffer(bits, 3 * 32);
    pipe.InitBuffer(offs, N * sizeof(uint32_t));
    GlobalTensor<float> xGm, yGm, zfGm;
    GlobalTensor<half> hGm, zhGm;
    GlobalTensor<uint8_t> zbGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    hGm.SetGlobalBuffer((__gm__ half *)hx, N);
    zfGm.SetGlobalBuffer((__gm__ float *)zf, 7 * N);
    zhGm.SetGlobalBuffer((__gm__ half *)zh, N);
    zbGm.SetGlobalBuffer((__gm__ uint8_t *)zb, 32);

    LocalTensor<float> xs = in.Get<float>();
    LocalTensor<float> ys = xs[N];
    LocalTensor<half> hs = hin.Get<half>();
    DataCopy(xs, xGm, N);
    DataCopy(ys, yGm, N);
    DataCopy(hs, hGm, N);
    PipeBarrier<PIPE_ALL>();

    LocalTensor<float> z = outF.Get<float>();
    Duplicate(z, 0.0f, 7 * N);

    // z1: counter mode, the mask set beforehand (isSetMask = false): the first 100 elements only
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Add<float, false>(z, xs, ys, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();

    // z2: half with a bit mask: odd lanes 1..63 and lane 64 of each 128-lane repeat
    LocalTensor<half> z2 = outH.Get<half>();
    Duplicate(z2, (half)0, N);
    uint64_t mask2[2] = {0xAAAAAAAAAAAAAAAAull, 0x1ull};
    Muls(z2, hs, (half)2, mask2, 2, {1, 1, 8, 8});

    // z3: Duplicate into every other 32-byte block
    Duplicate(z[N], 7.0f, 64, 2, 2, 16);

    // z4: Select mode 0 - the first 64 bits of the mask are reused by every repeat
    LocalTensor<uint8_t> m = bits.Get<uint8_t>();
    Duplicate(m.ReinterpretCast<uint16_t>(), (uint16_t)0x00FF, 16);
    Select(z[2 * N], m, xs, ys, SELMODE::VSEL_CMPMASK_SPR, N);
    // z5: Select mode 2 - the mask bits are consumed continuously
    LocalTensor<uint8_t> m2 = m[32];
    Duplicate(m2.ReinterpretCast<uint16_t>(), (uint16_t)0x0F0F, 16);
    Select(z[3 * N], m2, xs, ys, SELMODE::VSEL_TENSOR_TENSOR_MODE, N);

    // bits: level-0 CompareScalar x >= 0 over 4 repeats
    LocalTensor<uint8_t> cmp = m[64];
    CompareScalar(cmp, xs, 0.0f, CMPMODE::GE, 64, 4, {1, 1, 8, 8});

    // z7: level-0 Gather reversing x
    LocalTensor<int32_t> off = offs.Get<int32_t>();
    CreateVecIndex(off, (int32_t)0, N);
    Muls(off, off, (int32_t)-4, N);
    Adds(off, off, (int32_t)((N - 1) * 4), N);
    Gather(z[4 * N], xs, off.ReinterpretCast<uint32_t>(), (uint32_t)0, 64, 4, 8);

    // z8: UB -> UB copy of four 16-float bursts taken every 32 floats
    DataCopyParams strided{4, 2, 2, 0};
    DataCopy(z[5 * N], xs, strided);

    // z9: 1 + 0.5 * h accumulated into float
    Duplicate(z[6 * N], 1.0f, N);
    Axpy(z[6 * N], hs, (half)0.5, N);

    PipeBarrier<PIPE_ALL>();
    DataCopy(zfGm, z, 7 * N);
    DataCopy(zhGm, z2, N);
    DataCopy(zbGm, cmp, 32);
}
