// AscendCraft CPU emulation: the SelectWithBytesMask advanced API (select_bytes.h). Written from the public AscendC
// documentation; no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/race.h"
#include "ascendcraft_emu/select_bytes.h"

namespace ascendcraft { namespace emu {

void select_reserved_scratch(Dt dt, uint8_t mode, Scalar v, Op op, const SrcLoc& loc);  // emu_vector.cpp

void vec_select_bytes(Dt dt, Dt maskDt, const Local& d, const Local& src, Scalar scalar, const Local& mask, const Local& tmp,
                      uint32_t rows, uint32_t srcLast, uint32_t maskLast, bool scalarOnNonzero, bool reuseMask, SrcLoc loc) {
    const Op op = Op::SelectWithBytesMask;
    enter(op, loc);
    const uint32_t es = dt_size(dt), ms = dt_size(maskDt);
    check_local(d, op, loc, "dst", 32);
    check_local(src, op, loc, "src", 32);
    check_local(mask, op, loc, "mask", 32);
    check_local(tmp, op, loc, "sharedTmpBuffer", 32);
    // The API checks the size only in CPU-debug builds; on the NPU a smaller buffer runs, and the API's temporaries
    // reach past its end into whatever UB follows: a warning here (an error when that UB holds the kernel's data is
    // not modelled: the emulator keeps the temporaries inside the buffer).
    if (tmp.bytes < 1024 && first_report_at("select-bytes-tmp", loc))
        Report("select-bytes-tmp", op, loc)
            .msg("SelectWithBytesMask: sharedTmpBuffer holds %u bytes; the API needs at least 1024 (on the NPU its "
                 "temporaries then run past the buffer into the UB that follows)", tmp.bytes)
            .val("tmp_bytes", tmp.bytes)
            .hint("give it the size GetSelectMaxMinTmpSize returns (at least 1 KB)").warn();
    if ((uint64_t(srcLast) * es) % 32 || (uint64_t(maskLast) * ms) % 32 || maskLast < srcLast)
        Report("bad-argument", op, loc)
            .msg("SelectWithBytesMask: a source row has %u elements (%u bytes) and a mask row %u (%u bytes); both rows must "
                 "be whole 32-byte blocks and the mask row at least as long as the source row",
                 srcLast, srcLast * es, maskLast, maskLast * ms)
            .val("srcLastAxis", srcLast).val("maskLastAxis", maskLast)
            .hint("pad the last axes to 32 bytes (maskLastAxis >= srcLastAxis) in SelectWithBytesMaskShapeInfo").fail();
    const uint64_t n = uint64_t(rows) * srcLast;
    check_extent(src, n * es, op, loc, "src");
    check_extent(d, n * es, op, loc, "dst");
    check_extent(mask, uint64_t(rows) * maskLast * ms, op, loc, "mask");
    const bool pack = reuseMask && maskLast != srcLast;  // the mask rows are packed in place first
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, n * es);
        race.read(mask.addr, uint64_t(rows) * maskLast * ms);
        race.write(tmp.addr, tmp.bytes);
        if (pack) race.write(mask.addr, n * ms);
        race.write(d.addr, n * es);
    }
    select_reserved_scratch(dt, 1, scalar, op, loc);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, n * (2 * es + ms), n, static_cast<uint32_t>(std::max<uint64_t>(1, (n * es + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(src, 0, n * es, op, loc, "src");
    for (uint32_t r = 0; r < rows; ++r) check_initialised(mask, uint64_t(r) * maskLast * ms, uint64_t(srcLast) * ms, op, loc, "mask");
    uint8_t sbytes[8] = {0};
    if (dt == Dt::f16) { const half h(static_cast<float>(scalar.f)); std::memcpy(sbytes, &h, 2); }  // half or float only
    else { const float f = static_cast<float>(scalar.f); std::memcpy(sbytes, &f, 4); }
    std::vector<uint8_t> out(n * es);
    std::vector<uint8_t> packed;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t j = 0; j < srcLast; ++j) {
            const uint8_t* m = mask.addr + (uint64_t(r) * maskLast + j) * ms;
            bool nonzero = false;
            for (uint32_t b = 0; b < ms; ++b) nonzero |= m[b] != 0;
            const bool take_scalar = nonzero == scalarOnNonzero;
            const uint64_t k = uint64_t(r) * srcLast + j;
            std::memcpy(out.data() + k * es, take_scalar ? sbytes : src.addr + k * es, es);
            if (pack) packed.insert(packed.end(), m, m + ms);
        }
    std::memcpy(d.addr, out.data(), out.size());
    mark_written(d, 0, out.size());
    if (pack) { std::memcpy(mask.addr, packed.data(), packed.size()); mark_written(mask, 0, packed.size()); }
    for (uint32_t b = 0; b < tmp.bytes; b += es) std::memcpy(tmp.addr + b, sbytes, std::min<uint32_t>(es, tmp.bytes - b));
    mark_written(tmp, 0, tmp.bytes);
}

}}  // namespace ascendcraft::emu
