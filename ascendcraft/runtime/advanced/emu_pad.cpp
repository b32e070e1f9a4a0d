// AscendCraft CPU emulation: the Pad / UnPad advanced APIs (pad.h). Written from the public AscendC API reference;
// no vendor code.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/pad.h"
#include "ascendcraft_emu/race.h"

namespace ascendcraft { namespace emu {

namespace {

void check_shape(Op op, const char* api, const char* tilingName, uint32_t height, uint32_t width, const SrcLoc& loc) {
    if (height == 0 || width == 0)
        Report("bad-argument", op, loc)
            .msg("%s: the tiling gives a %u x %u tensor; %s holds the shape (srcHeight, srcWidth)", api, height, width, tilingName)
            .val("srcHeight", height).val("srcWidth", width)
            .hint("fill the tiling struct on the host with %sFunc (srcShape, oriSrcShape, tmp size, type size)", tilingName).fail();
}

// The temporary buffer the API works in: its bytes hold the API's intermediate values afterwards.
void clobber_tmp(const Local* tmp, Op op, const SrcLoc& loc) {
    if (!tmp || tmp->bytes == 0) return;
    check_local(*tmp, op, loc, "sharedTmpBuffer", 32);
    if (RaceScope race{TPipe_::V, op, loc}) race.write(tmp->addr, tmp->bytes);
    if (!tracing_now()) mark_written(*tmp, 0, tmp->bytes);
}

}  // namespace

void adv_pad(Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t height, uint32_t width, uint32_t oriWidth,
             uint16_t leftPad, uint16_t rightPad, int32_t padValue, SrcLoc loc) {
    const Op op = Op::Pad;
    enter(op, loc);
    check_shape(op, "Pad", "PadTiling", height, width, loc);
    check_local(dst, op, loc, "dst", 32);
    check_local(src, op, loc, "src", 32);
    const uint32_t es = dt_size(dt);
    const uint32_t aligned = (width * es + 31) / 32 * 32 / es;
    const bool unaligned = aligned != width;      // case 1: pad the row out to 32 bytes; case 2: overwrite its tail
    const uint32_t data = unaligned ? width : std::min(oriWidth == 0 ? width : oriWidth, width);
    if (unaligned ? uint32_t(leftPad) + width + rightPad > aligned : (leftPad != 0 || data + rightPad > width))
        Report("bad-argument", op, loc)
            .msg(unaligned ? "Pad: leftPad %u + width %u + rightPad %u exceeds the row rounded up to 32 bytes (%u elements)"
                           : "Pad: the width %u is 32-byte aligned: only rightPad may be set, and %u data columns + "
                             "rightPad %u must fit in it (leftPad is %u)",
                 unaligned ? leftPad : width, unaligned ? width : data, rightPad, unaligned ? aligned : leftPad)
            .val("leftPad", leftPad).val("rightPad", rightPad).val("srcWidth", width)
            .hint("keep the padded width within the width rounded up to 32 bytes (PadParams{leftPad, rightPad, value})").fail();
    const uint64_t srcBytes = uint64_t(height) * width * es, dstBytes = uint64_t(height) * aligned * es;
    check_extent(src, srcBytes, op, loc, "src");
    check_extent(dst, dstBytes, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, srcBytes);
        race.write(dst.addr, dstBytes);
    }
    clobber_tmp(tmp, op, loc);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, srcBytes + dstBytes, uint64_t(height) * aligned,
           static_cast<uint32_t>(std::max<uint64_t>(1, (dstBytes + 255) / 256)));
    if (tracing_now()) return;
    check_initialised(src, 0, srcBytes, op, loc, "src");
    uint8_t value[4] = {0};   // padValue (an int32_t) in T
    switch (dt) {
    case Dt::f16: { const half h(static_cast<float>(padValue)); std::memcpy(value, &h, 2); break; }
    case Dt::f32: { const float f = static_cast<float>(padValue); std::memcpy(value, &f, 4); break; }
    case Dt::i16: case Dt::u16: { const uint16_t v = static_cast<uint16_t>(padValue); std::memcpy(value, &v, 2); break; }
    default: std::memcpy(value, &padValue, 4);   // int32_t, uint32_t
    }
    std::vector<uint8_t> out(dstBytes);
    std::vector<bool> set(uint64_t(height) * aligned, false);
    for (uint32_t r = 0; r < height; ++r) {
        uint8_t* row = out.data() + uint64_t(r) * aligned * es;
        const uint8_t* in = src.addr + uint64_t(r) * width * es;
        auto put = [&](uint32_t col, const uint8_t* bytes) {
            std::memcpy(row + uint64_t(col) * es, bytes, es);
            set[uint64_t(r) * aligned + col] = true;
        };
        if (unaligned) {
            for (uint32_t j = 0; j < leftPad; ++j) put(j, value);
            for (uint32_t j = 0; j < width; ++j) put(leftPad + j, in + uint64_t(j) * es);
            for (uint32_t j = 0; j < rightPad; ++j) put(leftPad + width + j, value);
        } else {
            for (uint32_t j = 0; j < width; ++j) put(j, j >= data && j < data + rightPad ? value : in + uint64_t(j) * es);
        }
    }
    // columns past leftPad + width + rightPad (case 1) are not written: they keep what dst held
    for (uint64_t k = 0; k < set.size(); ++k)
        if (set[k]) {
            std::memcpy(dst.addr + k * es, out.data() + k * es, es);
            mark_written(dst, k * es, es);
        }
}

void adv_unpad(Dt dt, const Local& dst, const Local& src, const Local* tmp, uint32_t height, uint32_t width, uint16_t rightPad,
               SrcLoc loc) {
    const Op op = Op::UnPad;
    enter(op, loc);
    check_shape(op, "UnPad", "UnPadTiling", height, width, loc);
    check_local(dst, op, loc, "dst", 32);
    check_local(src, op, loc, "src", 32);
    const uint32_t es = dt_size(dt);
    if ((uint64_t(width) * es) % 32 || rightPad == 0 || uint64_t(rightPad) * es >= 32 || rightPad >= width)
        Report("bad-argument", op, loc)
            .msg("UnPad: a row of %u elements (%llu bytes) loses rightPad = %u; the row must be whole 32-byte blocks and "
                 "rightPad more than 0 and under 32 bytes", width, static_cast<unsigned long long>(uint64_t(width) * es), rightPad)
            .val("srcWidth", width).val("rightPad", rightPad)
            .hint("UnPad takes a 32-byte aligned width (Pad first if it is not) and removes fewer than 32 bytes per row").fail();
    const uint32_t kept = width - rightPad;
    const uint64_t srcBytes = uint64_t(height) * width * es, dstBytes = uint64_t(height) * kept * es;
    check_extent(src, srcBytes, op, loc, "src");
    check_extent(dst, dstBytes, op, loc, "dst");
    if (RaceScope race{TPipe_::V, op, loc}) {
        race.read(src.addr, srcBytes);
        race.write(dst.addr, dstBytes);
    }
    clobber_tmp(tmp, op, loc);
    record(TPipe_::V, TKind::INSTR, op, dt, 0, loc, srcBytes + dstBytes, uint64_t(height) * kept,
           static_cast<uint32_t>(std::max<uint64_t>(1, (srcBytes + 255) / 256)));
    if (tracing_now()) return;
    std::vector<uint8_t> out(dstBytes);
    for (uint32_t r = 0; r < height; ++r) {
        check_initialised(src, uint64_t(r) * width * es, uint64_t(kept) * es, op, loc, "src");
        std::memcpy(out.data() + uint64_t(r) * kept * es, src.addr + uint64_t(r) * width * es, uint64_t(kept) * es);
    }
    std::memcpy(dst.addr, out.data(), dstBytes);
    mark_written(dst, 0, dstBytes);
}

}}  // namespace ascendcraft::emu
