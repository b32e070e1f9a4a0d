/* MatmulReluByPassCustom kernel (see op_host): group g's cube core computes its 16-row tiles of x . w^T, w resident in
 * L0B, into the group's two workspace slots, handing each over with CrossCoreSetFlag<2, PIPE_FIX>(3); each of the two
 * vector cores waits for it, applies the activation to its 8 rows, writes them to y and hands the slot back with
 * CrossCoreSetFlag<2, PIPE_MTE3>(4). `Process` is defined once per pass: the cube core's under __DAV_C220_CUBE__, the
 * vector cores' under __DAV_C220_VEC__. */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 16;

template <bool leaky>
class MatmulReluByPass {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR ws, const MatmulReluByPassTilingData& t)
    {
        N = t.n; K = t.k; slope = t.negativeSlope;
        n1 = N / 16; k1 = K / 16;
        const uint32_t g = GetBlockIdx() / GetTaskRation(), first = g * t.tilesPerGroup;
        T = first >= t.tiles ? 0 : (t.tiles - first < t.tilesPerGroup ? t.tiles - first : t.tilesPerGroup);
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + first * TILE * K, T * TILE * K);
        wGm.SetGlobalBuffer((__gm__ DTYPE_W *)w, N * K);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + first * TILE * N, T * TILE * N);
        wsGm.SetGlobalBuffer((__gm__ float *)GetUserWorkspace(ws) + g * 2 * TILE * N, 2 * TILE * N);
    }

#ifdef __DAV_C220_CUBE__
    __aicore__ inline void Process()
    {
        pipe.InitBuffer(inA1, 1, TILE * K * sizeof(half));
        pipe.InitBuffer(inB1, 1, N * K * sizeof(half));
        pipe.InitBuffer(inA2, 1, k1 * 512);
        pipe.InitBuffer(inB2, 1, n1 * k1 * 512);
        pipe.InitBuffer(outCO1, 1, N * TILE * sizeof(float));
        LoadW();
        LocalTensor<half> b2 = inB2.DeQue<half>();
        for (uint32_t t = 0; t < T; ++t) {
            if (t >= 2) CrossCoreWaitFlag(4);   // both vector cores have read the slot's previous tile
            LocalTensor<half> a1 = inA1.AllocTensor<half>();
            Nd2NzParams pa;
            pa.ndNum = 1; pa.nValue = TILE; pa.dValue = K; pa.srcDValue = K; pa.dstNzC0Stride = TILE; pa.dstNzNStride = 1;
            DataCopy(a1, xGm[t * TILE * K], pa);
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
            CrossCoreSetFlag<2, PIPE_FIX>(3);   // tile t is in its slot
        }
        inB2.FreeTensor(b2);
        for (uint32_t t = (T >= 2 ? T - 2 : 0); t < T; ++t) CrossCoreWaitFlag(4);   // the last hand-backs
    }
#endif

#ifdef __DAV_C220_VEC__
    __aicore__ inline void Process()
    {
        const uint32_t rows = TILE / 2, sub = GetSubBlockIdx();
        pipe.InitBuffer(inQ, 1, rows * N * sizeof(float));
        pipe.InitBuffer(outQ, 1, rows * N * sizeof(float));
        for (uint32_t t = 0; t < T; ++t) {
            CrossCoreWaitFlag(3);
            LocalTensor<float> v = inQ.AllocTensor<float>();
            DataCopy(v, wsGm[(t % 2) * TILE * N + sub * rows * N], rows * N);
            inQ.EnQue(v);
            v = inQ.DeQue<float>();
            LocalTensor<float> r = outQ.AllocTensor<float>();
            if (leaky) {
                LeakyRelu(r, v, slope, rows * N);
            } else {
                Relu(r, v, rows * N);
            }
            outQ.EnQue(r);
            inQ.FreeTensor(v);
            r = outQ.DeQue<float>();
            DataCopy(yGm[t * TILE * N + sub * rows * N], r, rows * N);
            outQ.FreeTensor(r);
            CrossCoreSetFlag<2, PIPE_MTE3>(4);   // the slot can be reused
        }
    }
#endif

private:
#ifdef __DAV_C220_CUBE__
    __aicore__ inline void LoadW()
    {
        LocalTensor<half> b1 = inB1.AllocTensor<half>();
        Nd2NzParams pb;
        pb.ndNum = 1; pb.nValue = N; pb.dValue = K; pb.srcDValue = K; pb.dstNzC0Stride = N; pb.dstNzNStride = 1;
        DataCopy(b1, wGm, pb);
        inB1.EnQue(b1);
        b1 = inB1.DeQue<half>();
        LocalTensor<half> b2 = inB2.AllocTensor<half>();
        LoadData2DParams lb;
        lb.repeatTimes = k1 * n1; lb.srcStride = 1;
        LoadData(b2, b1, lb);
        inB2.EnQue(b2);
        inB1.FreeTensor(b1);
    }

    TQue<TPosition::A1, 1> inA1;
    TQue<TPosition::B1, 1> inB1;
    TQue<TPosition::A2, 1> inA2;
    TQue<TPosition::B2, 1> inB2;
    TQue<TPosition::CO1, 1> outCO1;
#endif
#ifdef __DAV_C220_VEC__
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
#endif
    TPipe pipe;
    GlobalTensor<half> xGm, wGm;
    GlobalTensor<float> yGm, wsGm;
    uint32_t N = 0, K = 0, T = 0, n1 = 0, k1 = 0;
    float slope = 0.0f;
};

extern "C" __global__ __aicore__ void matmul_relu_by_pass_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace,
                                                                 GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        MatmulReluByPass<false> op;
        op.Init(x, w, y, workspace, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        MatmulReluByPass<true> op;
        op.Init(x, w, y, workspace, tilingData);
        op.Process();
    }
}
