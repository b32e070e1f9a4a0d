/*
 * A 4:2 sparse Matmul (the Matmul API's SparseMatmulType B with SetSparseIndex, MDL, the cube core alone): int8_t A
 * (M x K), B^T densified to N x K / 2 (two of every four elements along K) with its index matrix (NZ, 16 x 8-byte
 * fractals), int32_t C, two cores splitting N.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_sparse(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR c, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
    using BType = SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> idxGm;
    GlobalTensor<int32_t> cGm;
    const int32_t col = GetBlockIdx() * td.singleCoreN;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(a), td.M * td.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(b), td.N * td.Kb / 2);
    idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(index), td.N * td.Kb / 8);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(c), td.M * td.N);
    TPipe pipe;
    Matmul<AType, BType, CType, CType, CFG_MDL> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm[col * td.Kb / 2], true);
    mm.SetSparseIndex(idxGm[col * 8]);   // one NZ row is 8 bytes wide: the core's rows start col rows on
    mm.IterateAll(cGm[col]);
    mm.End();
}
