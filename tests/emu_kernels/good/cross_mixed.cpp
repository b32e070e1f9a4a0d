/*
 * Mixed AIC/AIV kernels (KERNEL_TYPE_MIX_AIC_1_2): each group's cube core computes C = A x B^T one 16-row tile at a
 * time into a two-slot GM workspace and hands each tile to its two vector cores with CrossCoreSetFlag<2, PIPE_FIX>(3);
 * each vector core waits for it (CrossCoreWaitFlag(3)), applies ReLU to its 8 rows and writes them to y, then hands the
 * slot back with CrossCoreSetFlag<2, PIPE_MTE3>(4) (both vector cores' sets release the cube core's wait). The
 * variants break one hand-over each: `Bug::NoWait` reads the cube's output without waiting, `Bug::NoBackPressure`
 * overwrites a slot the vector cores may still read, `Bug::WrongFlag` waits for a flag nobody sets.
 *
 * A is [groups * tiles * 16, K] half, B^T is [N, K] half, y is [groups * tiles * 16, N] float, workspace is
 * groups * 2 * 16 * N floats.
 */
#include "kernel_operator.h"

using namespace AscendC;

enum class Bug { None, NoWait, NoBackPressure, WrongFlag };
constexpr uint32_t TILE = 16;

template <Bug bug>
class MatmulRelu {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n, uint32_t k, uint32_t tiles)
    {
        N = n; K = k; T = tiles;
        n1 = (N + 15) / 16; k1 = (K + 15) / 16;
        const uint32_t g = GetBlockIdx() / GetTaskRation();
        aGm.SetGlobalBuffer((__gm__ half *)a + g * T * TILE * K, T * TILE * K);
        btGm.SetGlobalBuffer((__gm__ half *)bt, N * K);
        yGm.SetGlobalBuffer((__gm__ float *)y + g * T * TILE * N, T * TILE * N);
        wsGm.SetGlobalBuffer((__gm__ float *)ws + g * 2 * TILE * N, 2 * TILE * N);
    }
    __aicore__ inline void Cube()
    {
        pipe.InitBuffer(inA1, 1, TILE * k1 * 16 * sizeof(half));
        pipe.InitBuffer(inB1, 1, n1 * 16 * k1 * 16 * sizeof(half));
        pipe.InitBuffer(inA2, 1, k1 * 512);
        pipe.InitBuffer(inB2, 1, n1 * k1 * 512);
        pipe.InitBuffer(outCO1, 1, n1 * 16 * 16 * sizeof(float));
        LoadB();   // B stays in L0B for every tile
        LocalTensor<half> b2 = inB2.DeQue<half>();
        for (uint32_t t = 0; t < T; ++t) {
            if (bug != Bug::NoBackPressure && t >= 2) CrossCoreWaitFlag(4);   // the slot's previous tile was read
            LocalTensor<half> a1 = inA1.AllocTensor<half>();
            Nd2NzParams pa;
            pa.ndNum = 1; pa.nValue = TILE; pa.dValue = K; pa.srcDValue = K; pa.dstNzC0Stride = TILE; pa.dstNzNStride = 1;
            DataCopy(a1, aGm[t * TILE * K], pa);
            inA1.EnQue(a1);
            a1 = inA1.DeQue<half>();
            LocalTensor<half> a2 = inA2.AllocTensor<half>();
            LoadData2DParams la;
            la.repeatTimes = k1; la.srcStride = 1;
            LoadData(a2, a1, la);
            inA2.EnQue(a2);
            inA1.FreeTensor(a1);
            a2 = inA2.DeQue<half>();
            LocalTensor<float> c1 = outCO1.AllocTensor<float>();
            Mmad(c1, a2, b2, MmadParams(TILE, N, K, 0, false, true));
            outCO1.EnQue(c1);
            inA2.FreeTensor(a2);
            c1 = outCO1.DeQue<float>();
            FixpipeParamsV220 f;
            f.nSize = N; f.mSize = TILE; f.srcStride = TILE; f.dstStride = N;
            Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm[(t % 2) * TILE * N], c1, f);
            outCO1.FreeTensor(c1);
            CrossCoreSetFlag<2, PIPE_FIX>(3);                                  // tile t is in its slot
        }
        inB2.FreeTensor(b2);
        if (bug != Bug::NoBackPressure)
            for (uint32_t t = (T >= 2 ? T - 2 : 0); t < T; ++t) CrossCoreWaitFlag(4);   // the last hand-backs
    }
    __aicore__ inline void Vector()
    {
        const uint32_t rows = TILE / 2, sub = GetSubBlockIdx();
        pipe.InitBuffer(inQ, 1, rows * N * sizeof(float));
        pipe.InitBuffer(outQ, 1, rows * N * sizeof(float));
        for (uint32_t t = 0; t < T; ++t) {
            if (bug == Bug::WrongFlag) CrossCoreWaitFlag(5);
            else if (bug != Bug::NoWait) CrossCoreWaitFlag(3);
            LocalTensor<float> x = inQ.AllocTensor<float>();
            DataCopy(x, wsGm[(t % 2) * TILE * N + sub * rows * N], rows * N);
            inQ.EnQue(x);
            x = inQ.DeQue<float>();
            LocalTensor<float> r = outQ.AllocTensor<float>();
            Relu(r, x, rows * N);
            outQ.EnQue(r);
            inQ.FreeTensor(x);
            r = outQ.DeQue<float>();
            DataCopy(yGm[t * TILE * N + sub * rows * N], r, rows * N);
            outQ.FreeTensor(r);
            CrossCoreSetFlag<2, PIPE_MTE3>(4);                                 // the slot can be reused
        }
    }

private:
    __aicore__ inline void LoadB()
    {
        LocalTensor<half> b1 = inB1.AllocTensor<half>();
        Nd2NzParams pb;
        pb.ndNum = 1; pb.nValue = N; pb.dValue = K; pb.srcDValue = K; pb.dstNzC0Stride = n1 * 16; pb.dstNzNStride = 1;
        DataCopy(b1, btGm, pb);
        inB1.EnQue(b1);
        b1 = inB1.DeQue<half>();
        LocalTensor<half> b2 = inB2.AllocTensor<half>();
        LoadData2DParams lb;
        lb.repeatTimes = k1 * n1; lb.srcStride = 1;
        LoadData(b2, b1, lb);
        inB2.EnQue(b2);
        inB1.FreeTensor(b1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 1> inA1;
    TQue<TPosition::B1, 1> inB1;
    TQue<TPosition::A2, 1> inA2;
    TQue<TPosition::B2, 1> inB2;
    TQue<TPosition::CO1, 1> outCO1;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<half> aGm, btGm;
    GlobalTensor<float> yGm, wsGm;
    uint32_t N = 0, K = 0, T = 0, n1 = 0, k1 = 0;
};

template <Bug bug>
__aicore__ inline void RunMatmulRelu(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n, uint32_t k, uint32_t tiles)
{
    MatmulRelu<bug> op;
    op.Init(a, bt, y, ws, n, k, tiles);
    if ASCEND_IS_AIC {
        op.Cube();
    }
    if ASCEND_IS_AIV {
        op.Vector();
    }
}

extern "C" __global__ __aicore__ void matmul_relu(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n, uint32_t k,
                                                  uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    RunMatmulRelu<Bug::None>(a, bt, y, ws, n, k, tiles);
}

extern "C" __global__ __aicore__ void matmul_relu_no_wait(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n,
                                                          uint32_t k, uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    RunMatmulRelu<Bug::NoWait>(a, bt, y, ws, n, k, tiles);
}

extern "C" __global__ __aicore__ void matmul_relu_no_back_pressure(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n,
                                                                   uint32_t k, uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    RunMatmulRelu<Bug::NoBackPressure>(a, bt, y, ws, n, k, tiles);
}

extern "C" __global__ __aicore__ void matmul_relu_wrong_flag(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n,
                                                             uint32_t k, uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    RunMatmulRelu<Bug::WrongFlag>(a, bt, y, ws, n, k, tiles);
}

// Which core is which: every core writes (GetBlockIdx, GetSubBlockIdx, GetTaskRation, GetBlockNum, ASCEND_IS_AIC) into
// its own 8-int row of ids: the AIC of group g at row 3g, its AIVs at rows 3g + 1 + sub-block.
extern "C" __global__ __aicore__ void core_ids(GM_ADDR ids)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    const int32_t g = GetBlockIdx() / GetTaskRation();
    const int32_t row = ASCEND_IS_AIC ? 3 * g : 3 * g + 1 + GetSubBlockIdx();
    out.SetValue(row * 8 + 0, GetBlockIdx());
    out.SetValue(row * 8 + 1, GetSubBlockIdx());
    out.SetValue(row * 8 + 2, GetTaskRation());
    out.SetValue(row * 8 + 3, GetBlockNum());
    out.SetValue(row * 8 + 4, ASCEND_IS_AIC ? 1 : 0);
}

// Vector cores only, synchronised with mode 0: each core publishes its value, waits for all, then reads its neighbour's.
template <bool barrier>
__aicore__ inline void Rotate(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32);
    const int32_t i = GetBlockIdx(), n = GetBlockNum();
    GlobalTensor<float> xGm, wsGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    wsGm.SetGlobalBuffer((__gm__ float *)ws);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm[i * 8], 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(wsGm[i * 8], t, 8);
    q.FreeTensor(t);
    if (barrier) {
        CrossCoreSetFlag<0, PIPE_MTE3>(1);
        CrossCoreWaitFlag(1);
    }
    t = q.AllocTensor<float>();
    DataCopy(t, wsGm[((i + 1) % n) * 8], 8);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(yGm[i * 8], t, 8);
    q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void rotate(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    Rotate<true>(x, ws, y);
}

extern "C" __global__ __aicore__ void rotate_no_barrier(GM_ADDR x, GM_ADDR ws, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    Rotate<false>(x, ws, y);
}
