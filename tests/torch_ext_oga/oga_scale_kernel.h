// y = x * scale in the layout of an agent-made task (tests/test_emu_oga_forms.py): K_MAX_SHAPE_DIM defined before
// kernel_operator.h, the tiling read word by word from GM, the work split over the vector cores of a MIX 1:2 launch.
#pragma once

#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 0
#endif

#include "kernel_operator.h"

#include "oga_scale_tiling.h"

class OgaScaleKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, AscendC::TPipe *pipe)
    {
        auto *words = reinterpret_cast<__gm__ int32_t *>(tiling);
        auto *mine = reinterpret_cast<int32_t *>(&tiling_);
        for (uint32_t i = 0; i < sizeof(OgaScaleTiling) / sizeof(int32_t); ++i) {
            mine[i] = words[i];
        }
        const int32_t vector = AscendC::GetBlockIdx();
        const int32_t first = vector * tiling_.perVector;
        count_ = tiling_.n - first < tiling_.perVector ? tiling_.n - first : tiling_.perVector;
        if (count_ <= 0) {
            count_ = 0;
            return;
        }
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + first, count_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + first, count_);
        pipe->InitBuffer(buf_, tiling_.perVector * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (count_ == 0) {
            return;
        }
        AscendC::LocalTensor<float> local = buf_.Get<float>();
        AscendC::DataCopy(local, xGm_, count_);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::Muls(local, local, tiling_.scale, count_);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(yGm_, local, count_);
    }

private:
    OgaScaleTiling tiling_;
    int32_t count_ = 0;
    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<float> yGm_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
};
