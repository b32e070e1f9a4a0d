/*
 * LoadData with LoadData3DParamsV2 (img2col, L1 -> L0A / L0B) on the cube core, checked through a matrix product.
 *
 * conv_f16: a half feature map (NC1HWC0 in GM, copied to L1 as it is) unrolled by img2col into L0A (padding, strides,
 * dilation, a kernel window; rows mStart .. mStart + mExt of the img2col matrix), times W (given as W^T [N, K] ND, whose
 * NZ in L1 is L0B's ZN) = rows of a convolution's output, float [mExt, N]. `padFromRegs` takes l1H / l1W / padList from
 * SetFmatrix and the pad value from SetLoadDataPaddingValue (IsResetLoad3dConfig {false, false}).
 *
 * matmul_t<T>: C = A x B with A given as A^T [K, M] and B as B [K, N] (ND): both go to L1 as NZ; A reaches L0A through
 * LoadData 3D with enTranspose (ZZ of A), B reaches L0B through LoadData 3D (ZN of B). `noTranspose` leaves enTranspose
 * off: L0A then holds A^T's layout, not A's, and the product is wrong, as on the NPU.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr IsResetLoad3dConfig FROM_REGISTERS = {false, false};   // l1H / l1W / padList and padValue from the registers

__aicore__ inline uint32_t Align(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

template <bool padFromRegs>
__aicore__ inline void ConvF16(GM_ADDR fmap, GM_ADDR wT, GM_ADDR out, uint32_t H, uint32_t W, uint32_t C, uint32_t Hk,
                               uint32_t Wk, uint32_t stride, uint32_t dilation, uint32_t padLR, uint32_t padTB,
                               uint32_t mStart, uint32_t mExt, uint32_t N)
{
    const uint32_t K = C * Hk * Wk, n1 = (N + 15) / 16, k1 = K / 16;
    GlobalTensor<half> fGm, wGm;
    GlobalTensor<float> oGm;
    fGm.SetGlobalBuffer((__gm__ half *)fmap, C * H * W);
    wGm.SetGlobalBuffer((__gm__ half *)wT, N * K);
    oGm.SetGlobalBuffer((__gm__ float *)out, mExt * N);
    const uint32_t fmElems = C * H * W;
    LocalTensor<half> a1(TPosition::A1, 0, fmElems);
    LocalTensor<half> b1(TPosition::B1, Align(fmElems * 2, 512), n1 * 16 * K);
    DataCopy(a1, fGm, fmElems);                      // NC1HWC0 as it is
    Nd2NzParams pb;                                   // W^T [N, K] -> NZ: its fractals are L0B's ZN
    pb.ndNum = 1; pb.nValue = N; pb.dValue = K; pb.srcNdMatrixStride = 0; pb.srcDValue = K;
    pb.dstNzC0Stride = n1 * 16; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 0;
    DataCopy(b1, wGm, pb);
    PipeBarrier<PIPE_ALL>();

    LocalTensor<half> a2(TPosition::A2, 0, Align(mExt, 16) * K);
    LoadData3DParamsV2<half> p;
    const uint8_t pads[4] = {static_cast<uint8_t>(padLR), static_cast<uint8_t>(padLR), static_cast<uint8_t>(padTB),
                             static_cast<uint8_t>(padTB)};
    if constexpr (padFromRegs) {
        SetFmatrix(H, W, pads, FmatrixMode::FMATRIX_LEFT);
        SetLoadDataPaddingValue<half>(half(-2.0f));
        p.padValue = half(9.0f);                      // not used: the register's -2 is
    } else {
        p.l1H = H; p.l1W = W;
        for (int i = 0; i < 4; ++i) p.padList[i] = pads[i];
        p.padValue = half(-2.0f);
    }
    p.channelSize = C; p.kExtension = K; p.mExtension = mExt; p.kStartPt = 0; p.mStartPt = mStart;
    p.strideW = stride; p.strideH = stride; p.filterW = Wk; p.filterH = Hk; p.dilationFilterW = dilation;
    p.dilationFilterH = dilation; p.enTranspose = false;
    if constexpr (padFromRegs) {
        LoadData<half, FROM_REGISTERS>(a2, a1, p);
    } else {
        LoadData(a2, a1, p);
    }
    LocalTensor<half> b2(TPosition::B2, 0, n1 * 16 * K);
    LoadData2DParams lb;
    lb.startIndex = 0; lb.repeatTimes = k1 * n1; lb.srcStride = 1; lb.ifTranspose = false;
    LoadData(b2, b1, lb);
    PipeBarrier<PIPE_ALL>();

    LocalTensor<float> c1(TPosition::CO1, 0, Align(mExt, 16) * n1 * 16);
    MmadParams mp;
    mp.m = mExt; mp.n = N; mp.k = K;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = mExt; fp.srcStride = Align(mExt, 16); fp.dstStride = N; fp.ndNum = 1;
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(oGm, c1, fp);
}

extern "C" __global__ __aicore__ void conv_f16(GM_ADDR fmap, GM_ADDR wT, GM_ADDR out, uint32_t H, uint32_t W, uint32_t C,
                                               uint32_t Hk, uint32_t Wk, uint32_t stride, uint32_t dilation, uint32_t padLR,
                                               uint32_t padTB, uint32_t mStart, uint32_t mExt, uint32_t N)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    ConvF16<false>(fmap, wT, out, H, W, C, Hk, Wk, stride, dilation, padLR, padTB, mStart, mExt, N);
}

extern "C" __global__ __aicore__ void conv_f16_regs(GM_ADDR fmap, GM_ADDR wT, GM_ADDR out, uint32_t H, uint32_t W,
                                                    uint32_t C, uint32_t Hk, uint32_t Wk, uint32_t stride, uint32_t dilation,
                                                    uint32_t padLR, uint32_t padTB, uint32_t mStart, uint32_t mExt, uint32_t N)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    ConvF16<true>(fmap, wT, out, H, W, C, Hk, Wk, stride, dilation, padLR, padTB, mStart, mExt, N);
}

// M, N multiples of 16 / C0 as the fractals need. A K that is not a multiple of 16 (float) reads as 16-aligned in L0
// (the img2col rows past the map are padding): Mmad's kDirectionAlign says so
template <typename T, bool noTranspose>
__aicore__ inline void MatmulT(GM_ADDR aT, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{
    constexpr uint32_t c0 = 32 / sizeof(T);
    GlobalTensor<T> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ T *)aT, K * M);
    bGm.SetGlobalBuffer((__gm__ T *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    LocalTensor<T> a1(TPosition::A1, 0, K * M);
    LocalTensor<T> b1(TPosition::B1, Align(K * M * sizeof(T), 512), K * N);
    Nd2NzParams pa;                                   // A^T [K, M] -> NZ: column blocks of c0, K rows tall
    pa.ndNum = 1; pa.nValue = K; pa.dValue = M; pa.srcNdMatrixStride = 0; pa.srcDValue = M;
    pa.dstNzC0Stride = K; pa.dstNzNStride = 1; pa.dstNzMatrixStride = 0;
    DataCopy(a1, aGm, pa);
    Nd2NzParams pb = pa;                              // B [K, N] likewise
    pb.dValue = N; pb.srcDValue = N;
    DataCopy(b1, bGm, pb);
    PipeBarrier<PIPE_ALL>();

    const uint32_t K16 = Align(K, 16);
    LocalTensor<T> a2(TPosition::A2, 0, M * K16);
    LoadData3DParamsV2<T> p;                          // the NZ of A^T is NC1HWC0 with H = 1, W = K, C = M
    p.l1H = 1; p.l1W = K; p.channelSize = M; p.kExtension = M; p.mExtension = K16;
    p.enTranspose = !noTranspose;
    LoadData(a2, a1, p);
    LocalTensor<T> b2(TPosition::B2, 0, K16 * N);
    LoadData3DParamsV2<T> q;                          // the NZ of B is NC1HWC0 with H = K, W = 1, C = N
    q.l1H = K; q.l1W = 1; q.channelSize = N; q.kExtension = N; q.mExtension = K16;
    LoadData(b2, b1, q);
    PipeBarrier<PIPE_ALL>();

    LocalTensor<float> co1(TPosition::CO1, 0, M * Align(N, 16));
    MmadParams mp;
    mp.m = M; mp.n = N; mp.k = K; mp.kDirectionAlign = sizeof(T) == 4;
    Mmad(co1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = Align(M, 16); fp.dstStride = N; fp.ndNum = 1;
    fp.quantPre = QuantMode_t::NoQuant;
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, co1, fp);
}

extern "C" __global__ __aicore__ void matmul_t_f16(GM_ADDR aT, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulT<half, false>(aT, b, c, M, N, K);
}
extern "C" __global__ __aicore__ void matmul_t_f32(GM_ADDR aT, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulT<float, false>(aT, b, c, M, N, K);
}
extern "C" __global__ __aicore__ void matmul_t_f16_no_transpose(GM_ADDR aT, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t N,
                                                                uint32_t K)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    MatmulT<half, true>(aT, b, c, M, N, K);
}
