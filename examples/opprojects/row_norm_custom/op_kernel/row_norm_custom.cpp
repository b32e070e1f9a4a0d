/* RowNormCustom kernel: each core takes rowsPerCore rows, tileRows at a time, and normalises them with the SoftMax
 * (key 1) or RmsNorm (key 2) advanced API, the temporaries in a buffer of the size the host tiling asked for. */
#include "kernel_operator.h"

using namespace AscendC;

template <typename T, int KEY> class KernelRowNorm {
public:
    __aicore__ inline KernelRowNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, const RowNormTilingData& t)
    {
        tiling = t;
        const uint32_t first = GetBlockIdx() * t.rowsPerCore;
        rows = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ T *)x + static_cast<uint64_t>(first) * t.cols, static_cast<uint64_t>(rows) * t.cols);
        yGm.SetGlobalBuffer((__gm__ T *)y + static_cast<uint64_t>(first) * t.cols, static_cast<uint64_t>(rows) * t.cols);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, t.cols);
        pipe.InitBuffer(inQueue, 2, t.tileRows * t.cols * sizeof(T));
        pipe.InitBuffer(outQueue, 2, t.tileRows * t.cols * sizeof(T));
        pipe.InitBuffer(gammaBuf, t.cols * sizeof(T));
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> gammaLocal = gammaBuf.Get<T>();
        if (KEY == 2) DataCopy(gammaLocal, gammaGm, tiling.cols);
        for (uint32_t r = 0; r < rows; r += tiling.tileRows) {
            const uint32_t n = rows - r < tiling.tileRows ? rows - r : tiling.tileRows;
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopy(xLocal, xGm[static_cast<uint64_t>(r) * tiling.cols], n * tiling.cols);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
            if (KEY == 1) {
                SoftMaxShapeInfo shape = {n, tiling.cols, n, tiling.cols};
                SoftMax<T>(yLocal, xLocal, tmp, tiling.softmax, shape);
            } else {
                RmsNormTiling rms = tiling.rms;
                rms.sLength = n;  // the last tile may hold fewer rows
                RmsNorm<T>(yLocal, xLocal, gammaLocal, tmp, static_cast<T>(tiling.epsilon), rms);
            }
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<T>();
            DataCopy(yGm[static_cast<uint64_t>(r) * tiling.cols], yLocal, n * tiling.cols);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> gammaBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm, gammaGm;
    RowNormTilingData tiling;
    uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void row_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelRowNorm<DTYPE_X, 1> op;
        op.Init(x, gamma, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelRowNorm<DTYPE_X, 2> op;
        op.Init(x, gamma, y, tilingData);
        op.Process();
    }
}
