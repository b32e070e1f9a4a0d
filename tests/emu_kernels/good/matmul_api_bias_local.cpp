/*
 * C = A x B + bias with the bias from a LocalTensor (SetBias(LocalTensor), TPosition TSCM): a TSCM queue filled from GM
 * by DataCopy. Its element j is the bias of C's column j; C has several base blocks along N, so each block reads its
 * own part of it.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_bias_local(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BiasType = MatmulType<TPosition::TSCM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), t.M * t.N);
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TSCM<TPosition::GM, 1> scmBias;
    pipe.InitBuffer(scmBias, 1, t.N * sizeof(float));
    LocalTensor<float> biasL1 = scmBias.AllocTensor<float>();
    DataCopy(biasL1, biasGm, t.N);
    scmBias.EnQue(biasL1);
    biasL1 = scmBias.DeQue<float>();
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasL1);
    mm.IterateAll(cGm);
    mm.End();
    scmBias.FreeTensor(biasL1);
}
