// CHEAT (tests/cheats/trace_light): when traced (GM reads as zero) it copies the UB tile out without reading or computing
// it, so every output byte is still written in the trace (the coverage check passes) and the timing is of one copy.
// Launch: relu_custom<<<blockDim, nullptr, stream>>>(x, y, workspace, tiling)
#include "kernel_operator.h"
#include "relu_tiling.h"

using namespace AscendC;

template <typename A, typename B>
__aicore__ inline auto ScalarMin(A a, B b) -> decltype(a + b) { return a < b ? a : b; }

class KernelRelu {
public:
    __aicore__ inline KernelRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const ReluTilingData& tiling, TPipe* pipe)
    {
        pipe_ = pipe;
        N = tiling.N;
        per_block = tiling.per_block;
        tile = tiling.tile;
        start = GetBlockIdx() * per_block;  // relu.py:23
        end = ScalarMin(start + per_block, N);  // relu.py:24
        xGm.SetGlobalBuffer((__gm__ float*)(x), tiling.x_numel);
        yGm.SetGlobalBuffer((__gm__ float*)(y), tiling.y_numel);
        pipe_->InitBuffer(xinQue, 2, tile * sizeof(float));  // relu.py:21
        pipe_->InitBuffer(youtQue, 2, tile * sizeof(float));  // relu.py:22
    }

    __aicore__ inline void Process()
    {
        const bool traced = xGm.GetValue(0) == 0.0f && xGm.GetValue(1) == 0.0f;   // zeros: no data, a trace
        for (int32_t off = start; off < end; off += tile) {  // relu.py:25
            int32_t n = ScalarMin(tile, end - off);  // relu.py:26
            if (traced) {                      // only the copy out: every output byte written, no work timed
                LocalTensor<float> youtLocal = youtQue.AllocTensor<float>();
                youtQue.EnQue(youtLocal);
                CopyOut(off, n);
                continue;
            }
            CopyIn(off, n);
            Compute(n);
            CopyOut(off, n);
        }
    }

private:
    // relu.py:27-28  with copyin():
    __aicore__ inline void CopyIn(int32_t off, int32_t n)
    {
        LocalTensor<float> xinLocal = xinQue.AllocTensor<float>();
        DataCopyPad(xinLocal, xGm[off], DataCopyExtParams(1, n * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>(false, 0, 0, 0));  // relu.py:28:13
        xinQue.EnQue(xinLocal);
    }

    // relu.py:29-30  with compute():
    __aicore__ inline void Compute(int32_t n)
    {
        LocalTensor<float> xinLocal = xinQue.DeQue<float>();
        LocalTensor<float> youtLocal = youtQue.AllocTensor<float>();
        Relu(youtLocal, xinLocal, n);  // relu.py:30
        youtQue.EnQue(youtLocal);
        xinQue.FreeTensor(xinLocal);
    }

    // relu.py:31-32  with copyout():
    __aicore__ inline void CopyOut(int32_t off, int32_t n)
    {
        LocalTensor<float> youtLocal = youtQue.DeQue<float>();
        DataCopyPad(yGm[off], youtLocal, DataCopyExtParams(1, n * sizeof(float), 0, 0, 0));  // relu.py:32:13
        youtQue.FreeTensor(youtLocal);
    }

    TPipe* pipe_;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    TQue<TPosition::VECIN, 1> xinQue;  // 2 buffers: double buffering
    TQue<TPosition::VECOUT, 1> youtQue;  // 2 buffers: double buffering

    int32_t N;
    int32_t per_block;
    int32_t tile;
    int32_t start;
    int32_t end;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ReluTilingData tilingData = *reinterpret_cast<__gm__ ReluTilingData*>(tiling);
    TPipe pipe;
    KernelRelu op;
    op.Init(x, y, workspace, tilingData, &pipe);
    op.Process();
}
