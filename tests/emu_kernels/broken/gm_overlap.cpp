// Broken: every block writes the same first 256 floats of y (the block offset was forgotten).
// BLOCKS: 2
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    LocalTensor<float> t = outQueue.AllocTensor<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), 256);
    outQueue.EnQue(t);
    t = outQueue.DeQue<float>();
    DataCopy(yGm, t, 256);  // EXPECT: gm-overlap
    outQueue.FreeTensor(t);
}
