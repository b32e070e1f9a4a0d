/*
 * A mixed (1 AIC : 2 AIV) Matmul kernel without a sub-block guard: both AIVs of the group call IterateAll into the same
 * workspace, then each copies the workspace through UB to C. In the Matmul API's client / server form each AIV's call is
 * a request the group's one AIC runs, so the product is computed twice. With `distinct` = 0 both requests ask for the
 * same product (the second leaves the workspace as it was); with `distinct` = 1 AIV 1 multiplies by the second B, so the
 * two requests write different bytes while AIV 0 reads them: a race.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct MixPairTiling {
    TCubeTiling cube;
    int32_t distinct;
};

extern "C" __global__ __aicore__ void matmul_mix_pair(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(MixPairTiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    const TCubeTiling &t = td.cube;
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    const int32_t count = t.M * t.N;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm, wsGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), 2 * t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), count);
    wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(workspace), count);

    TPipe pipe;
    Matmul<AType, BType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TQue<TPosition::VECIN, 1> inQ;
    pipe.InitBuffer(inQ, 1, count * sizeof(float));

    const int32_t which = td.distinct ? GetSubBlockIdx() : 0;
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm[which * t.Kb * t.N]);
    mm.IterateAll(wsGm);
    mm.End();

    LocalTensor<float> buf = inQ.AllocTensor<float>();
    DataCopy(buf, wsGm, count);
    inQ.EnQue(buf);
    buf = inQ.DeQue<float>();
    DataCopy(cGm, buf, count);
    inQ.FreeTensor(buf);
}
