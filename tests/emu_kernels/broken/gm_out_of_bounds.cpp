// Broken: the block offset uses the wrong length, so the last block reads past the end of x.
// BLOCKS: 4
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    constexpr uint32_t perBlock = 4096 / 4;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + (perBlock + 8) * GetBlockIdx(), perBlock);
    pipe.InitBuffer(inQueue, 1, perBlock * sizeof(float));
    LocalTensor<float> t = inQueue.AllocTensor<float>();
    DataCopy(t, xGm, perBlock);  // EXPECT: gm-out-of-bounds
    inQueue.FreeTensor(t);
}
