// AscendCraft CPU emulation runtime: TransData (transdata.h), the 16-bit layout conversions NCDHW <-> NDC1HWC0 and
// NCDHW <-> FRACTAL_Z_3D. Written from the public AscendC API reference; no vendor code.
#include <algorithm>
#include <cstring>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/transdata.h"

namespace ascendcraft { namespace emu {

void adv_transdata(int mode, const Local& dst, const Local& src, const Local* tmp, const int64_t s[5], SrcLoc loc) {
    const Op op = Op::TransData;
    enter(op, loc);
    if (mode == 0)
        unsupported_call(op, "TransData with this TransDataConfig: Ascend 910B (A2) converts only NCDHW -> NDC1HWC0, NDC1HWC0 -> NCDHW, "
                         "NCDHW -> FRACTAL_Z_3D and FRACTAL_Z_3D -> NCDHW (the others do nothing on the NPU)",
                         "use one of the four format pairs", loc);
    const int64_t n = s[0], c = s[1], d = s[2], h = s[3], w = s[4];
    if (n <= 0 || c <= 0 || d <= 0 || h <= 0 || w <= 0)
        Report("adv-shape", op, loc)
            .msg("TransData: the NCDHW shape (%lld, %lld, %lld, %lld, %lld) has a dimension that is not positive",
                 (long long)n, (long long)c, (long long)d, (long long)h, (long long)w)
            .hint("give the NCDHW layout's real shape: MakeShape(n, c, d, h, w)").fail();
    constexpr int64_t K0 = 16;   // C0 = N0 = 16 elements of 2 bytes
    const int64_t c1 = (c + K0 - 1) / K0, n1 = (n + K0 - 1) / K0, hw = h * w, padHw = (hw + K0 - 1) / K0 * K0;
    const bool fromNcdhw = mode == 1 || mode == 3;
    const uint64_t ncdhwBytes = uint64_t(n * c * d * padHw) * 2;
    const uint64_t otherBytes = uint64_t(mode <= 2 ? d * c1 * hw * n1 * K0 * K0 : n * d * c1 * hw * K0) * 2;
    const uint64_t srcBytes = fromNcdhw ? ncdhwBytes : otherBytes, dstBytes = fromNcdhw ? otherBytes : ncdhwBytes;
    check_local(src, op, loc, "srcTensor", 32);
    check_local(dst, op, loc, "dstTensor", 32);
    check_extent(src, srcBytes, op, loc, "srcTensor");
    check_extent(dst, dstBytes, op, loc, "dstTensor");
    if (ub_overlap(src, srcBytes, dst, dstBytes))
        Report("adv-overlap", op, loc).msg("TransData: srcTensor and dstTensor overlap; the API does not convert in place")
            .hint("give the destination its own buffer").fail();
    // the temporary space GetTransDataMaxMinTmpSize asks for, in bytes
    const int64_t need = mode == 3 ? (d * padHw + d * c1 * K0 * padHw) * 2
                       : mode == 4 ? d * c1 * K0 * padHw * 2 + 512
                       : mode == 1 ? std::max(c * d * padHw, d * hw * n1 * K0) * 2 + n1 * K0 * d * c1 * K0 * padHw * 2
                       : n1 * K0 * c1 * K0 * d * padHw * 2 * (n == n1 * K0 && c == c1 * K0 ? 1 : 2);
    if (tmp) {
        check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
        if (tmp->bytes < uint64_t(need))
            Report("adv-tmp-space", op, loc)
                .msg("TransData: sharedTmpBuffer holds %u bytes; this conversion needs %lld", tmp->bytes, (long long)need)
                .val("tmp_bytes", tmp->bytes).val("needed", need)
                .hint("size the temporary buffer with GetTransDataMaxMinTmpSize").fail();
        if (ub_overlap(*tmp, tmp->bytes, src, srcBytes) || ub_overlap(*tmp, tmp->bytes, dst, dstBytes))
            Report("adv-overlap", op, loc).msg("TransData: sharedTmpBuffer overlaps srcTensor or dstTensor")
                .hint("give the temporary buffer its own InitBuffer / TBuf").fail();
    } else {
        const uint32_t used = ub_in_use(), top = g_launch->ub_bytes;
        if (top - std::min(top, used) < need)
            Report("adv-tmp-space", op, loc)
                .msg("TransData without a sharedTmpBuffer needs %lld bytes of free UB for its temporaries, but InitBuffer "
                     "allocations use %u of the %u bytes", (long long)need, used, top)
                .val("ub_used", used).val("ub_bytes", top)
                .hint("pass a sharedTmpBuffer, or leave UB free (GetTransDataMaxMinTmpSize gives the size)").fail();
    }
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, srcBytes);
        if (tmp) race.write(tmp->addr, tmp->bytes);
        race.write(dst.addr, dstBytes);
    }
    record(TPipe_::V, TKind::INSTR, op, Dt::f16, 0, loc, srcBytes + dstBytes, dstBytes / 2,
           static_cast<uint32_t>(2 * ((dstBytes + 255) / 256)));
    if (tracing_now()) return;
    // element offsets: NCDHW with padded rows; FRACTAL_Z_3D (d, c1, hw, n1 n0, c0); NDC1HWC0 (n, d, c1, hw, c0)
    auto ncdhwAt = [&](int64_t in, int64_t ic, int64_t id, int64_t ihw) { return ((in * c + ic) * d + id) * padHw + ihw; };
    auto otherAt = [&](int64_t in, int64_t ic, int64_t id, int64_t ihw) {
        return mode <= 2 ? (((id * c1 + ic / K0) * hw + ihw) * n1 * K0 + in) * K0 + ic % K0
                         : (((in * d + id) * c1 + ic / K0) * hw + ihw) * K0 + ic % K0;
    };
    if (fromNcdhw) {
        for (int64_t in = 0; in < n; ++in)
            for (int64_t ic = 0; ic < c; ++ic)
                for (int64_t id = 0; id < d; ++id)
                    check_initialised(src, uint64_t(ncdhwAt(in, ic, id, 0)) * 2, uint64_t(hw) * 2, op, loc, "srcTensor");
        std::memset(dst.addr, 0, dstBytes);   // the C (and N) positions past c (and n) are 0
        for (int64_t in = 0; in < n; ++in)
            for (int64_t ic = 0; ic < c; ++ic)
                for (int64_t id = 0; id < d; ++id)
                    for (int64_t i = 0; i < hw; ++i)
                        std::memcpy(dst.addr + otherAt(in, ic, id, i) * 2, src.addr + ncdhwAt(in, ic, id, i) * 2, 2);
    } else {
        check_initialised(src, 0, srcBytes, op, loc, "srcTensor");
        std::memset(dst.addr, 0, dstBytes);   // the padding of each H x W row: invalid data by the reference, 0 here
        for (int64_t in = 0; in < n; ++in)
            for (int64_t ic = 0; ic < c; ++ic)
                for (int64_t id = 0; id < d; ++id)
                    for (int64_t i = 0; i < hw; ++i)
                        std::memcpy(dst.addr + ncdhwAt(in, ic, id, i) * 2, src.addr + otherAt(in, ic, id, i) * 2, 2);
    }
    mark_written(dst, 0, dstBytes);
    if (tmp) mark_written(*tmp, 0, tmp->bytes);
}

}}  // namespace ascendcraft::emu
