// AscendCraft CPU emulation: the 4:2 structured-sparse matrix product of Ascend 910B (A2), LoadDataWithSparse and
// MmadWithSparse. Written from the public AscendC API reference; no vendor code.
//
// B (k x n) is kept dense: of each group of 4 consecutive k values at most 2 are non-zero, and only those 2 are stored,
// so L0B holds K/2 x N int8 in the ZN fractal layout (cube.h). Every stored element has a 2-bit index, packed four to a
// byte (the first in the low bits), in fractals of 128 bytes that mirror B's 512-byte fractals (16 n x 32 k, 8 bytes per
// n row). LoadDataWithSparse copies whole B fractals L1 -> L0B and their index fractals into the cube's own index buffer
// (a quarter of L0B's size, at the L0B offset / 4). MmadWithSparse takes the full A (m x k, ZZ in L0A) and, for each
// stored pair of B (group g), picks the two A columns of 4g..4g+3 the pair's indices name (the first index: 0..2 of the
// group, the second: 1..3 of it, by the reference's table), then C (+)= A_sel x B_dense in int32.
#pragma once

#include "cube.h"

namespace ascendcraft { namespace emu {
void cube_load2d_sparse(const Local& dst, const Local& src, const Local& idx, uint32_t startIndex, uint32_t repeatTimes,
                        SrcLoc loc);
void cube_mmad_sparse(const Local& c, const Local& a, const Local& b, const MmadSpec& p, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {
// ---- LoadDataWithSparse: dense B fractals L1 -> L0B and their 2-bit indices L1 -> the index buffer (MTE1) ----------
// Only startIndex and repeatTimes are read (the fractals are consecutive: no stride, no transpose).
template <typename T = int8_t, typename U = uint8_t,
          typename std::enable_if<std::is_same<T, int8_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, uint8_t>::value, bool>::type = true>
inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                               const LoadData2DParams& loadDataParam, SrcLoc loc = {}) {
    ascendcraft::emu::cube_load2d_sparse(dst.emu(), src.emu(), idx.emu(), loadDataParam.startIndex,
                                         loadDataParam.repeatTimes, loc);
}

// ---- MmadWithSparse: L0C (+)= A (L0A, full k) x B (L0B, the dense k / 2 rows selected by the index buffer) (M) -------
template <typename T = int32_t, typename U = int8_t,
          typename std::enable_if<std::is_same<T, int32_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, int8_t>::value, bool>::type = true>
inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                           const MmadParams& mmadParams, SrcLoc loc = {}) {
    if (mmadParams.kDirectionAlign)
        ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::MmadWithSparse,
                                           "MmadWithSparse with kDirectionAlign = true (the sparse product has no K "
                                           "alignment mode)", "leave kDirectionAlign false", loc);
    ascendcraft::emu::MmadSpec s;
    s.m = mmadParams.m; s.n = mmadParams.n; s.k = mmadParams.k;
    s.initZero = mmadParams.cmatrixInitVal && !mmadParams.isBias; s.fromBias = mmadParams.cmatrixSource;
    ascendcraft::emu::cube_mmad_sparse(dst.emu(), fm.emu(), filter.emu(), s, loc);
}
}  // namespace AscendC
