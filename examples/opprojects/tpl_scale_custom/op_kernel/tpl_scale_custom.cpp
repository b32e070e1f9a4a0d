// TplScaleCustom: y = x * scale, squared when SQUARE; the kernel is a template on the tiling-template parameters.
#include "kernel_operator.h"
#include "tpl_scale_custom_tiling_data.h"
#include "tpl_scale_custom_tiling_key.h"

namespace TplScale {
using namespace AscendC;

template <typename T, uint32_t TILES, bool SQUARE>
class Kernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TplScaleCustomTilingData* t) {
        tile_ = t->perCore / TILES;
        scale_ = static_cast<T>(t->scale);
        const uint32_t offset = t->perCore * GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ T*)x + offset, t->perCore);
        yGm_.SetGlobalBuffer((__gm__ T*)y + offset, t->perCore);
        pipe_.InitBuffer(inQ_, 2, tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 2, tile_ * sizeof(T));
    }
    __aicore__ inline void Process() {
        for (uint32_t i = 0; i < TILES; ++i) {
            LocalTensor<T> in = inQ_.AllocTensor<T>();
            DataCopy(in, xGm_[i * tile_], tile_);
            inQ_.EnQue(in);
            in = inQ_.DeQue<T>();
            LocalTensor<T> out = outQ_.AllocTensor<T>();
            Muls(out, in, scale_, tile_);
            if constexpr (SQUARE) Mul(out, out, out, tile_);
            inQ_.FreeTensor(in);
            outQ_.EnQue(out);
            out = outQ_.DeQue<T>();
            DataCopy(yGm_[i * tile_], out, tile_);
            outQ_.FreeTensor(out);
        }
    }
private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t tile_ = 0;
    T scale_;
};
}  // namespace TplScale

template <typename D_T, uint32_t TILES, bool SQUARE>
__global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TplScaleCustomTilingData);
    GET_TILING_DATA_WITH_STRUCT(TplScaleCustomTilingData, tilingData, tiling);
    TplScale::Kernel<D_T, TILES, SQUARE> op;
    op.Init(x, y, &tilingData);
    op.Process();
}
