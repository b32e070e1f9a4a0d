/*
 * C = A x B + bias with the Matmul high-level API, one single-core tile of C per block. The host tiling
 * (TCubeTiling inside this kernel's tiling struct) gives the whole shape (M, N, Ka, Kb), one core's part
 * (singleCoreM/N/K) and the base block (baseM/N/K). Tiles at the bottom and right edges are smaller:
 * SetTail tells the Matmul object. `useIterate` picks Iterate + GetTensorC over IterateAll.
 * The int8 entry keeps B transposed in GM (B^T, N x K) and accumulates in int32.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct GemmBiasTiling {
    TCubeTiling cube;
    int32_t useIterate;
};

template <typename IN, typename OUT, bool transB>
__aicore__ inline void GemmBiasTile(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const GemmBiasTiling &td)
{
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, IN>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, IN, transB>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, OUT>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, OUT>;
    const TCubeTiling &t = td.cube;

    // one tile per group: in a mixed launch (1 AIC + 2 AIV) the AIVs are GetBlockIdx() 2g and 2g + 1, and the first
    // of them asks the group's AIC for the product
    const int32_t tilesN = (t.N + t.singleCoreN - 1) / t.singleCoreN;
    const int32_t tile = GetBlockIdx() / GetTaskRation();
    const int32_t tileM = tile / tilesN;
    const int32_t tileN = tile % tilesN;
    const int32_t rows = t.M - tileM * t.singleCoreM < t.singleCoreM ? t.M - tileM * t.singleCoreM : t.singleCoreM;
    const int32_t cols = t.N - tileN * t.singleCoreN < t.singleCoreN ? t.N - tileN * t.singleCoreN : t.singleCoreN;

    GlobalTensor<IN> aGm, bGm;
    GlobalTensor<OUT> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ IN *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ IN *>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ OUT *>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ OUT *>(c), t.M * t.N);

    const uint64_t offsetA = static_cast<uint64_t>(tileM) * t.singleCoreM * t.Ka;
    const uint64_t offsetB = transB ? static_cast<uint64_t>(tileN) * t.singleCoreN * t.Kb : static_cast<uint64_t>(tileN) * t.singleCoreN;
    const uint64_t offsetC = static_cast<uint64_t>(tileM) * t.singleCoreM * t.N + static_cast<uint64_t>(tileN) * t.singleCoreN;

    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetSubBlockIdx() != 0) return;
    mm.SetTensorA(aGm[offsetA]);
    mm.SetTensorB(bGm[offsetB], transB);
    mm.SetBias(biasGm[tileN * t.singleCoreN]);
    mm.SetTail(rows, cols);
    if (td.useIterate) {
        while (mm.Iterate()) {
            mm.GetTensorC(cGm[offsetC]);
        }
    } else {
        mm.IterateAll(cGm[offsetC]);
    }
    mm.End();
}

extern "C" __global__ __aicore__ void matmul_bias_f16(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(GemmBiasTiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GemmBiasTile<half, float, false>(a, b, bias, c, td);
}

extern "C" __global__ __aicore__ void matmul_bias_i8(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(GemmBiasTiling);
    GET_TILING_DATA(td, tiling);
    GemmBiasTile<int8_t, int32_t, true>(a, b, bias, c, td);
}
