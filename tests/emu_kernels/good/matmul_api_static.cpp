/*
 * C = A x B with the Matmul API's constant tiling: the single-core and base shapes are compile-time constants
 * (GetMMConfig<CONFIG_NORM>(MatmulShapeParams{...}) -> GetMatmulApiTiling -> the Matmul's MM_CFG), so
 * REGIST_MATMUL_OBJ takes a typed null tiling, (TCubeTiling*)nullptr (AscendC rejects a bare nullptr: it deduces the tiling's
 * type from the argument). One core computes the 64 x 64 x 64 product in 32 x 32 x 32 blocks.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY  // the Matmul runs on the cube core itself (without it: a MIX kernel, AIV clients)
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulShapeParams SHAPE = {64, 64, 64, 32, 32, 32};
constexpr MatmulConfig CONFIG = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(SHAPE);
constexpr MatmulApiStaticTiling STATIC_TILING = GetMatmulApiTiling<AType, BType, CType, CType>(CONFIG);

extern "C" __global__ __aicore__ void matmul_static(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 64 * 64);
    bGm.SetGlobalBuffer((__gm__ half *)b, 64 * 64);
    cGm.SetGlobalBuffer((__gm__ float *)c, 64 * 64);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, STATIC_TILING> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
