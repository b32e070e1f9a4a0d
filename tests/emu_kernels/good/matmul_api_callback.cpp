/*
 * A Matmul whose A comes into L1 through the kernel's own MatmulCallBackFunc CopyA1: A lies in GM as K / baseK panels,
 * each an M x baseK ND matrix (panel after panel), which the default copy (one M x K ND matrix) would read wrongly.
 * The callback copies block (row, col) of baseM x baseK from its panel with DataCopy ND -> NZ; the tiling's address
 * reaches it through SetUserDefInfo, the panel layout's flag through SetSelfDefineData.
 */
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

__aicore__ inline void CopyAFromPanels(const LocalTensor<int8_t> &aMatrix, const __gm__ void *gm, int row, int col,
                                       int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    const TCubeTiling &t = *reinterpret_cast<const TCubeTiling *>(tilingPtr);
    (void)dataPtr;
    GlobalTensor<half> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(const_cast<__gm__ void *>(gm)));
    const uint64_t panel = static_cast<uint64_t>(col) * t.M * t.baseK;   // panel col: M x baseK
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = useM;
    p.dValue = useK;
    p.srcNdMatrixStride = 0;
    p.srcDValue = t.baseK;
    p.dstNzC0Stride = (useM + 15) / 16 * 16;
    p.dstNzNStride = 1;
    p.dstNzMatrixStride = 0;
    DataCopy(aMatrix.ReinterpretCast<half>(), src[panel + static_cast<uint64_t>(row) * t.baseM * t.baseK], p);
}

extern "C" __global__ __aicore__ void matmul_callback(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.M * td.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.Kb * td.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.M * td.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, CFG_NORM, MatmulCallBackFunc<nullptr, CopyAFromPanels, nullptr>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(&td));
    mm.SetSelfDefineData(uint64_t(1));
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);
    mm.End();
}
