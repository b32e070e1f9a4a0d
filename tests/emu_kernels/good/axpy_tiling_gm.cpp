/*
 * Direct-launch kernel (no GET_TILING_DATA there): the tiling struct is a plain struct in GM that
 * the kernel copies out byte by byte. y += alpha * x with Axpy, y is updated in place (inout).
 */
#include "kernel_operator.h"

using namespace AscendC;

struct AxpyTiling {
    uint32_t totalLength;
    uint32_t tileLength;
    float alpha;
};

__aicore__ inline void CopyTiling(AxpyTiling *tiling, GM_ADDR tilingGm)
{
    uint8_t *dst = reinterpret_cast<uint8_t *>(tiling);
    for (uint32_t i = 0; i < sizeof(AxpyTiling); i++) {
        dst[i] = *(tilingGm + i);
    }
}

extern "C" __global__ __aicore__ void axpy_tiling(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    AxpyTiling t;
    CopyTiling(&t, tiling);
    uint32_t perBlock = t.totalLength / GetBlockNum();

    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue, yQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + perBlock * GetBlockIdx(), perBlock);
    yGm.SetGlobalBuffer((__gm__ float *)y + perBlock * GetBlockIdx(), perBlock);
    pipe.InitBuffer(xQueue, 1, t.tileLength * sizeof(float));
    pipe.InitBuffer(yQueue, 1, t.tileLength * sizeof(float));
    pipe.InitBuffer(outQueue, 1, t.tileLength * sizeof(float));

    for (uint32_t off = 0; off < perBlock; off += t.tileLength) {
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[off], t.tileLength);
        DataCopy(yLocal, yGm[off], t.tileLength);
        xQueue.EnQue(xLocal);
        yQueue.EnQue(yLocal);
        xLocal = xQueue.DeQue<float>();
        yLocal = yQueue.DeQue<float>();
        Axpy(yLocal, xLocal, t.alpha, t.tileLength);
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        DataCopy(out, yLocal, t.tileLength);
        outQueue.EnQue(out);
        xQueue.FreeTensor(xLocal);
        yQueue.FreeTensor(yLocal);
        out = outQueue.DeQue<float>();
        DataCopy(yGm[off], out, t.tileLength);
        outQueue.FreeTensor(out);
    }
}
