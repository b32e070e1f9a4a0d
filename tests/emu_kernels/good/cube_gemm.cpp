/*
 * C = A x B on the cube core, written with the low-level cube API: GM -> L1 with the ND -> NZ conversion
 * (DataCopy + Nd2NzParams), L1 -> L0A/L0B with LoadData, Mmad into L0C (k in two halves: the second
 * accumulates), and Fixpipe L0C -> GM with the NZ -> ND conversion and the output cast.
 *
 * A is [M, K] row-major. B is [K, N] row-major (half: each fractal is transposed by LoadData on its way
 * to L0B), or B^T [N, K] row-major (bTrans: its NZ fractals already are L0B's, loaded as they are).
 * `wrongA` loads A's NZ fractals into L0A in their L1 order (column of fractals first) instead of the
 * ZZ order Mmad reads: on the NPU, and here, that gives wrong numbers.
 */
#include "kernel_operator.h"

using namespace AscendC;

// transLoad: B [K, N] goes L1 -> L0B with LoadDataWithTranspose (squares of 32 x 32 bytes for int8, fractals for half)
template <typename AT, typename CT, typename OT, bool bTrans, bool wrongA, bool misalignA = false, bool withBias = false,
          bool transLoad = false>
class CubeGemm {
public:
    __aicore__ inline CubeGemm() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
    {
        M = m; N = n; K = k;
        c0 = 32 / sizeof(AT);
        m1 = (M + 15) / 16; n1 = (N + 15) / 16; k1 = (K + c0 - 1) / c0;
        aGm.SetGlobalBuffer((__gm__ AT *)a, M * K);
        bGm.SetGlobalBuffer((__gm__ AT *)b, K * N);
        cGm.SetGlobalBuffer((__gm__ OT *)c, M * N);
        pipe.InitBuffer(inA1, 1, m1 * 16 * k1 * c0 * sizeof(AT));
        pipe.InitBuffer(inB1, 1, n1 * 16 * k1 * c0 * sizeof(AT));
        pipe.InitBuffer(inA2, 1, m1 * k1 * 512);
        pipe.InitBuffer(inB2, 1, n1 * k1 * 512);
        pipe.InitBuffer(outCO1, 1, m1 * n1 * 16 * 16 * sizeof(CT));
    }
    // withBias: a half bias row of N elements, copied GM -> L1 -> the bias table (widened to float), where Mmad starts C
    __aicore__ inline void InitBias(GM_ADDR bias)
    {
        biasGm.SetGlobalBuffer((__gm__ half *)bias, N);
        pipe.InitBuffer(inBias1, 1, N * sizeof(half));
        pipe.InitBuffer(biasTable, N * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn();
        SplitA();
        SplitB();
        Compute();
        CopyOut();
    }

private:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<AT> a1 = inA1.AllocTensor<AT>();
        LocalTensor<AT> b1 = inB1.AllocTensor<AT>();
        // ND [M, K] -> NZ: column blocks of c0 elements, each m1 * 16 rows tall
        Nd2NzParams pa;
        pa.ndNum = 1; pa.nValue = M; pa.dValue = K; pa.srcNdMatrixStride = 0; pa.srcDValue = K;
        pa.dstNzC0Stride = m1 * 16; pa.dstNzNStride = 1; pa.dstNzMatrixStride = 0;
        DataCopy(a1, aGm, pa);
        Nd2NzParams pb;
        pb.ndNum = 1; pb.srcNdMatrixStride = 0; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 0;
        if constexpr (bTrans) {   // B^T [N, K]
            pb.nValue = N; pb.dValue = K; pb.srcDValue = K; pb.dstNzC0Stride = n1 * 16;
        } else {                  // B [K, N]: column blocks of c0 elements, K rows tall
            pb.nValue = K; pb.dValue = N; pb.srcDValue = N; pb.dstNzC0Stride = transLoad ? k1 * c0 : k1 * 16;
        }
        DataCopy(b1, bGm, pb);
        inA1.EnQue(a1);
        inB1.EnQue(b1);
    }
    __aicore__ inline void SplitA()
    {
        LocalTensor<AT> a1 = inA1.DeQue<AT>();
        LocalTensor<AT> a2 = inA2.AllocTensor<AT>();
        const uint32_t fractal = 512 / sizeof(AT);
        LoadData2DParams p;
        if constexpr (wrongA) {   // the L1 order as it is: NZ is not the ZZ that Mmad reads
            p.repeatTimes = m1 * k1; p.srcStride = 1; p.ifTranspose = false;
            LoadData(a2, a1, p);
        } else {                  // one row of fractals at a time: fractal (i, j) of NZ is at j * m1 + i
            for (uint32_t i = 0; i < m1; ++i) {
                p.startIndex = i; p.repeatTimes = k1; p.srcStride = m1; p.ifTranspose = false;
                // misalignA: 16 elements (32 bytes) into L0A, where LoadData's destination must start on a 512-byte fractal
                LoadData(a2[i * k1 * fractal + (misalignA ? 16 : 0)], a1, p);
            }
        }
        inA2.EnQue(a2);
        inA1.FreeTensor(a1);
    }
    __aicore__ inline void SplitB()
    {
        LocalTensor<AT> b1 = inB1.DeQue<AT>();
        LocalTensor<AT> b2 = inB2.AllocTensor<AT>();
        const uint32_t fractal = 512 / sizeof(AT);
        LoadData2DParams p;
        if constexpr (transLoad) {
            // square (kk, jj) of B's NZ (c0 rows of one column block: two stacked fractals for int8) is at jj * k1 + kk;
            // its transpose gives L0B's fractals (kk, 2 jj) and (kk, 2 jj + 1) for int8 (dstGap 1 leaves room for the
            // second), fractal (kk, jj) for half
            const uint32_t perSquare = sizeof(AT) == 1 ? 2 : 1;
            LoadData2dTransposeParams t;
            for (uint32_t kk = 0; kk < k1; ++kk) {
                t.startIndex = kk; t.repeatTimes = n1 / perSquare; t.srcStride = k1; t.dstGap = perSquare - 1; t.dstFracGap = 0;
                LoadDataWithTranspose(b2[kk * n1 * fractal], b1, t);
            }
        } else if constexpr (bTrans) {   // B^T's NZ fractal (j, kk) is at kk * n1 + j, as L0B wants; no transpose
            p.startIndex = 0; p.repeatTimes = k1 * n1; p.srcStride = 1; p.ifTranspose = false;
            LoadData(b2, b1, p);
        } else {                  // B's NZ fractal (kk, j) is at j * k1 + kk; L0B wants kk * n1 + j, transposed
            for (uint32_t kk = 0; kk < k1; ++kk) {
                p.startIndex = kk; p.repeatTimes = n1; p.srcStride = k1; p.ifTranspose = true;
                LoadData(b2[kk * n1 * fractal], b1, p);
            }
        }
        inB2.EnQue(b2);
        inB1.FreeTensor(b1);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<AT> a2 = inA2.DeQue<AT>();
        LocalTensor<AT> b2 = inB2.DeQue<AT>();
        LocalTensor<CT> c1 = outCO1.AllocTensor<CT>();
        // k in two halves: the first starts from 0, the second accumulates onto L0C
        const uint32_t kHalf = (k1 / 2) * c0;
        const uint32_t fractal = 512 / sizeof(AT);
        if constexpr (withBias) {
            LocalTensor<half> l1Bias = inBias1.AllocTensor<half>();
            DataCopy(l1Bias, biasGm, N);
            inBias1.EnQue(l1Bias);
            l1Bias = inBias1.DeQue<half>();
            LocalTensor<float> bt = biasTable.Get<float>();
            DataCopy(bt, l1Bias, DataCopyParams(1, N * sizeof(half) / 64, 0, 0));   // 64-byte units of the L1 data
            SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
            WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
            MmadParams p;
            p.m = M; p.n = N; p.k = K;
            Mmad(c1, a2, b2, bt, p);   // C = bias row (each row of C) + A x B
            inBias1.FreeTensor(l1Bias);
        } else if (kHalf > 0 && m1 == 1) {
            MmadParams p(M, N, kHalf, 0, false, true);
            Mmad(c1, a2, b2, p);
            MmadParams q(M, N, K - kHalf, 0, false, false);
            Mmad(c1, a2[(k1 / 2) * fractal], b2[(k1 / 2) * n1 * fractal], q);
        } else {
            MmadParams p;
            p.m = M; p.n = N; p.k = K; p.cmatrixInitVal = true;
            Mmad(c1, a2, b2, p);
        }
        outCO1.EnQue(c1);
        inA2.FreeTensor(a2);
        inB2.FreeTensor(b2);
    }
    __aicore__ inline void CopyOut()
    {
        LocalTensor<CT> c1 = outCO1.DeQue<CT>();
        FixpipeParamsV220 p;
        p.nSize = N; p.mSize = M; p.srcStride = m1 * 16; p.dstStride = N; p.ndNum = 1;
        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;
        else p.quantPre = QuantMode_t::NoQuant;
        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);
        outCO1.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> inA1;
    TQue<TPosition::B1, 1> inB1;
    TQue<TPosition::A2, 1> inA2;
    TQue<TPosition::B2, 1> inB2;
    TQue<TPosition::CO1, 1> outCO1;
    TQue<TPosition::C1, 1> inBias1;
    TBuf<TPosition::C2> biasTable;
    GlobalTensor<half> biasGm;
    GlobalTensor<AT> aGm, bGm;
    GlobalTensor<OT> cGm;
    uint32_t M = 0, N = 0, K = 0, c0 = 16, m1 = 0, n1 = 0, k1 = 0;
};

extern "C" __global__ __aicore__ void gemm_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, half, false, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_f16_bt_f32(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, float, true, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_i8(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<int8_t, int32_t, int32_t, true, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_i8_trans_load(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<int8_t, int32_t, int32_t, false, false, false, false, true> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_f16_trans_load(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, float, false, false, false, false, true> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_f16_wrong_layout(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, half, false, true> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

// A cube-only kernel as CANN builds them: marked AIC_ONLY, with its cube code guarded for the cube core.
extern "C" __global__ __aicore__ void gemm_f16_aic_only(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    if ASCEND_IS_AIV {
        return;
    }
    CubeGemm<half, float, half, false, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_bf16_bt_f32(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<bfloat16_t, float, float, true, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_f16_misaligned_l0a(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, half, false, false, true> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}

extern "C" __global__ __aicore__ void gemm_f16_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<half, float, float, true, false, false, true> op;
    op.Init(a, b, c, m, n, k);
    op.InitBias(bias);
    op.Process();
}
