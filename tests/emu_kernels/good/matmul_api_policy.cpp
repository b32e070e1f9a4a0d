/*
 * A Matmul's policy of the kernel's own (its last template argument), the way ops-transformer's attention kernels
 * write one: a class template derived from AscendC::Impl::Detail::MatmulPolicy, chosen through a selector, that may
 * replace some of the Matmul's modules. A replacing module is a class template whose first argument IMPL is the Matmul;
 * it reaches the Matmul's other modules with MATMUL_USE_MODULE / MATMUL_USE_MODULE_ON and MATMUL_MODULE, and sees
 * its operand as MatmulInputAType / MatmulInputBType (TAG, TRANS_T).
 *   matmul_plain:  a policy that derives from MatmulPolicy and replaces nothing: the default Matmul.
 *   matmul_upper:  one that derives from TrianUpperMatmulPolicy and replaces nothing: the upper-triangle Matmul.
 *   matmul_staged: one that replaces Context and the GM -> L1 copy of A with the kernel's own (a staging copy that
 *                  counts its tiles): the emulation does not run a policy's modules.
 * All three compute C = A x B (M x N x K) on one core.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace AscendC {
namespace Impl {
namespace Detail {
// The kernel's bookkeeping between its modules.
template <typename IMPL, class INPUT_TYPE, const auto &MM_CFG>
class StagingContext {
public:
    __aicore__ inline StagingContext() {}
    int32_t tilesCopied{0};
    int32_t lastRow{-1};
};

// A's GM -> L1 copy: counts the tiles it stages, then leaves the copy to the Matmul's own utilities.
template <typename IMPL, class INPUT_TYPE, const auto &MM_CFG>
class StagingCopyCubeIn {
    MATMUL_USE_MODULE(Context);
    MATMUL_USE_MODULE_ON(DataCopyUtils, INPUT_TYPE::TAG);
    using TransT = typename INPUT_TYPE::TRANS_T;

public:
    __aicore__ inline void Init() {}
    __aicore__ inline LocalTensor<TransT> LoadData(int32_t row, int32_t col, int32_t height, int32_t width)
    {
        LocalTensor<TransT> tile;
        if constexpr (INPUT_TYPE::TAG == InputTypeTag::A) {
            MATMUL_MODULE(Context)->tilesCopied++;
            MATMUL_MODULE(Context)->lastRow = row;
        }
        MATMUL_MODULE(DataCopyUtils)->CopyTileToCube(tile, row, col, height, width);
        return tile;
    }
    __aicore__ inline void ClearLoadData(const LocalTensor<TransT> &tensor = LocalTensor<TransT>{}, int32_t row = 0,
                                         int32_t col = 0) {}
};

template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
class StagingPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
public:
    using Context = StagingContext<IMPL, MatmulInputAType<A_TYPE, typename A_TYPE::T>, MM_CFG>;
    using CopyCubeInA = StagingCopyCubeIn<IMPL, MatmulInputAType<A_TYPE, typename A_TYPE::T>, MM_CFG>;
};
}  // namespace Detail
}  // namespace Impl
}  // namespace AscendC

enum class Choice { PLAIN, UPPER, STAGED };
template <Choice c> struct Selector {
    template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
    struct Result : Impl::Detail::MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
};
template <> struct Selector<Choice::UPPER> {
    template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
    struct Result : Impl::Detail::TrianUpperMatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
};
template <> struct Selector<Choice::STAGED> {
    template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
    struct Result : Impl::Detail::StagingPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
};

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <Choice c>
__aicore__ inline void Product(GM_ADDR a, GM_ADDR b, GM_ADDR c_, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c_), t.M * t.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>,
           Selector<c>::template Result> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetSelfDefineData(1);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}

extern "C" __global__ __aicore__ void matmul_plain(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    Product<Choice::PLAIN>(a, b, c, tiling);
}

extern "C" __global__ __aicore__ void matmul_upper(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    Product<Choice::UPPER>(a, b, c, tiling);
}

extern "C" __global__ __aicore__ void matmul_staged(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    Product<Choice::STAGED>(a, b, c, tiling);
}
