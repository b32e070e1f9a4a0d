/*
 * GetMMConfig<mode>(parameter structs...): each struct sets its own MatmulConfig fields, in any order. Here
 * MatmulFuncParams written out positionally up to enableRelu (its fifteenth field), with MatmulBatchParams and
 * MatmulBiasParams beside it: C leaves L0C through ReLU, and the config says so at compile time.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

constexpr MatmulFuncParams kFunc = {false, false, false, false, 0, IterateOrder::UNDEF, ScheduleType::INNER_PRODUCT,
                                    true, false, false, false, false, false, false, true};
constexpr MatmulConfig kReluCfg = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::NONE}, kFunc, MatmulBiasParams{true});
static_assert(kReluCfg.enableRelu && !kReluCfg.isNBatch && kReluCfg.enableSetBias, "GetMMConfig took the structs");

extern "C" __global__ __aicore__ void matmul_mmconfig_relu(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), t.M * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType, CType, kReluCfg> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
