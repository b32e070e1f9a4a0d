/*
 * int8 A x int8 B^T accumulated in int32 and dequantised to half on the way out of L0C, in the Matmul API's forms:
 *   - one scale for all of C (SetQuantScalar, the float's bits in a uint64), `perChannel` = 0;
 *   - one scale per column of C from a uint64 vector in GM (SetQuantVector), `perChannel` = 1.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY  // the Matmul runs on the cube core itself (without it: a MIX kernel, AIV clients)
#include "lib/matmul_intf.h"

using namespace AscendC;

struct QuantTiling {
    TCubeTiling cube;
    int32_t perChannel;
    float scale;
};

extern "C" __global__ __aicore__ void matmul_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scales, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(QuantTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint64_t> scaleGm;
    GlobalTensor<half> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(a), td.cube.M * td.cube.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(b), td.cube.N * td.cube.Kb);
    scaleGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(scales), td.cube.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(c), td.cube.M * td.cube.N);
    TPipe pipe;
    Matmul<AType, BType, CType, BiasType, CFG_MDL> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cube);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, true);
    if (td.perChannel) {
        mm.SetQuantVector(scaleGm);
    } else {
        float s = td.scale;
        mm.SetQuantScalar(static_cast<uint64_t>(*reinterpret_cast<uint32_t *>(&s)));
    }
    mm.IterateAll(cGm);
    mm.End();
}
