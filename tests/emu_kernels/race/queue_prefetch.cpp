/*
 * z = x + y over 8 tiles per block with double-buffered queues, software-pipelined the way the
 * official samples are: the copy-in of tile i + 1 is issued before the compute of tile i. The queue
 * protocol alone orders every UB access (EnQue / DeQue forward, FreeTensor / AllocTensor back).
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILE = 128;
constexpr int32_t TILES = 8;

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        const uint32_t offset = GetBlockIdx() * TILE * TILES;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, TILE * TILES);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, TILE * TILES);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, TILE * TILES);
        pipe.InitBuffer(inX, 2, TILE * sizeof(float));
        pipe.InitBuffer(inY, 2, TILE * sizeof(float));
        pipe.InitBuffer(outZ, 2, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        CopyIn(0);
        for (int32_t i = 0; i < TILES; ++i) {
            if (i + 1 < TILES) CopyIn(i + 1);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t i)
    {
        LocalTensor<float> x = inX.AllocTensor<float>();
        LocalTensor<float> y = inY.AllocTensor<float>();
        DataCopy(x, xGm[i * TILE], TILE);
        DataCopy(y, yGm[i * TILE], TILE);
        inX.EnQue(x);
        inY.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> x = inX.DeQue<float>();
        LocalTensor<float> y = inY.DeQue<float>();
        LocalTensor<float> z = outZ.AllocTensor<float>();
        Add(z, x, y, TILE);
        outZ.EnQue(z);
        inX.FreeTensor(x);
        inY.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(int32_t i)
    {
        LocalTensor<float> z = outZ.DeQue<float>();
        DataCopy(zGm[i * TILE], z, TILE);
        outZ.FreeTensor(z);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> inX, inY;
    TQue<TPosition::VECOUT, 2> outZ;
    GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void queue_prefetch(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
