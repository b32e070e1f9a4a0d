/*
 * Batches in the BSNGD layout: A [B, S, N, G, D] (S rows of D per (b, n, g)), B^T [B, S2, N, G, D] (transposed: S2 rows
 * of D), C [B, S, N, G, S2]. One IterateBatch over the N * G batches of one b (the core's b: GetBlockIdx()), the
 * *LayoutInfo* fields of the tiling giving the layout.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_batch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;
    const int32_t ng = td.ALayoutInfoN * td.ALayoutInfoG;
    const int32_t aPerB = td.ALayoutInfoS * ng * td.ALayoutInfoD;
    const int32_t bPerB = td.BLayoutInfoS * ng * td.BLayoutInfoD;
    const int32_t cPerB = td.CLayoutInfoS1 * ng * td.CLayoutInfoS2;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.ALayoutInfoB * aPerB);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.BLayoutInfoB * bPerB);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.CLayoutInfoB * cPerB);
    TPipe pipe;
    Matmul<AType, BType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    const int32_t core = GetBlockIdx();
    mm.SetTensorA(aGm[core * aPerB], false);
    mm.SetTensorB(bGm[core * bPerB], true);
    mm.IterateBatch(cGm[core * cPerB], ng, ng, false);
    mm.End();
}
