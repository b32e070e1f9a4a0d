/*
 * DataCopyPad's documented UB layout, made visible by copying the padded UB rows out unchanged:
 *   rows 0..2: 13 floats per row, no padding  -> the 3 dummy floats repeat the row's first element
 *   rows 3..5: leftPadding 2, rightPadding 1, isPad with -1 -> [-1 -1 | 13 floats | -1] = 16 floats
 * plus GlobalTensor::SetValue / LocalTensor::GetValue (scalar accesses): out[96] = x[0] + x[12].
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 13;

extern "C" __global__ __aicore__ void api_pad(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * 16 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 6 * COLS);
    yGm.SetGlobalBuffer((__gm__ float *)y, 6 * 16 + 8);
    LocalTensor<float> t = buf.Get<float>();

    DataCopyPad(t, xGm, {3, COLS * sizeof(float), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    DataCopyPad(t[3 * 16], xGm[3 * COLS], {3, COLS * sizeof(float), 0, 0, 0}, DataCopyPadExtParams<float>{true, 2, 1, -1.0f});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 6 * 16);
    float sum = t.GetValue(0) + t.GetValue(12);
    yGm.SetValue(6 * 16, sum);
}
