/*
 * The triangular Matmul policies: only the base blocks on or above (upper) / on or below (lower) the block diagonal
 * of C are computed; the others keep what C held. The policy is the Matmul's last template argument, named without
 * its arguments. The entries also use IterateAll<false> + WaitIterateAll and GetMmDstType (the L0C element type).
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY  // the Matmul runs on the cube core itself (without it: a MIX kernel, AIV clients)
#include "lib/matmul_intf.h"

using namespace AscendC;

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, typename GetMmDstType<half>::Type>;

template <template <const auto &, typename...> class POLICY>
__aicore__ inline void TriangleProduct(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), t.M * t.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, POLICY> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.template IterateAll<false>(cGm, 0, false, true);
    mm.WaitIterateAll();
    mm.End();
}

extern "C" __global__ __aicore__ void matmul_upper(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    TriangleProduct<Impl::Detail::TrianUpperMatmulPolicy>(a, b, c, tiling);
}

extern "C" __global__ __aicore__ void matmul_lower(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    TriangleProduct<Impl::Detail::TrianLowerMatmulPolicy>(a, b, c, tiling);
}
