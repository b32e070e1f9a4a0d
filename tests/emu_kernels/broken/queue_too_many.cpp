// Broken: nine VECIN buffers allocated at the same time; Ascend 910B allows eight per position.
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void broken(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 4> q1, q2, q3;
    pipe.InitBuffer(q1, 4, 256);
    pipe.InitBuffer(q2, 4, 256);
    pipe.InitBuffer(q3, 4, 256);
    LocalTensor<float> t[9];
    for (int i = 0; i < 4; i++) t[i] = q1.AllocTensor<float>();
    for (int i = 4; i < 8; i++) t[i] = q2.AllocTensor<float>();
    t[8] = q3.AllocTensor<float>();  // EXPECT: queue-too-many
}
