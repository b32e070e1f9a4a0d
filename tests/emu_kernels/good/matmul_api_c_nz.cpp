/*
 * C in GM in the NZ format (C's MatmulType CubeFormat::NZ): 16 x 16 fractals, or 16 x 8 with MatmulConfig's
 * isEnableChannelSplit (float C only), column block after column block, each M rounded up to 16 rows tall. Two cores
 * split N; each offsets C by its first column's column block (M x its singleCoreN columns before it).
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr MatmulConfig SplitConfig()
{
    MatmulConfig c = CFG_NORM;
    c.isEnableChannelSplit = true;
    return c;
}
constexpr MatmulConfig CFG_SPLIT = SplitConfig();

template <const auto &CFG>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t, TPipe &pipe)
{
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    const int32_t mAligned = (t.M + 15) / 16 * 16;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), mAligned * t.N);
    Matmul<AType, AType, CType, CType, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const int32_t col = GetBlockIdx() * t.singleCoreN;
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm[col]);
    mm.IterateAll(cGm[mAligned * col]);
    mm.End();
}

struct NzTiling {
    TCubeTiling cube;
    int32_t channelSplit;
};

extern "C" __global__ __aicore__ void matmul_c_nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(NzTiling);
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    if (td.channelSplit) Run<CFG_SPLIT>(a, b, c, td.cube, pipe);
    else Run<CFG_NORM>(a, b, c, td.cube, pipe);
}
