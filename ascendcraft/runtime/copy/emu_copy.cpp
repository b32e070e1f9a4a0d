// AscendCraft CPU emulation runtime: DataCopy and DataCopyPad between GM and UB.
#include <algorithm>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ascendcraft_emu/internal.h"
#include "ascendcraft_emu/cube_internal.h"

namespace ascendcraft { namespace emu {

namespace {

// dst += src elementwise in the atomic accumulation type (SetAtomicAdd).
void atomic_accumulate(Dt dt, uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    switch (dt) {
    case Dt::f32: for (uint64_t i = 0; i + 4 <= bytes; i += 4) { float a, b; std::memcpy(&a, dst + i, 4); std::memcpy(&b, src + i, 4); a += b; std::memcpy(dst + i, &a, 4); } break;
    case Dt::f16: for (uint64_t i = 0; i + 2 <= bytes; i += 2) { half a, b; std::memcpy(&a, dst + i, 2); std::memcpy(&b, src + i, 2); a = static_cast<half>(static_cast<float>(a) + static_cast<float>(b)); std::memcpy(dst + i, &a, 2); } break;
    case Dt::bf16: for (uint64_t i = 0; i + 2 <= bytes; i += 2) { uint16_t a, b; std::memcpy(&a, dst + i, 2); std::memcpy(&b, src + i, 2); uint16_t r = bfloat16_t::from_float(bfloat16_t::to_float(a) + bfloat16_t::to_float(b)); std::memcpy(dst + i, &r, 2); } break;
    case Dt::i32: for (uint64_t i = 0; i + 4 <= bytes; i += 4) { int32_t a, b; std::memcpy(&a, dst + i, 4); std::memcpy(&b, src + i, 4); a = static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); std::memcpy(dst + i, &a, 4); } break;
    case Dt::i16: for (uint64_t i = 0; i + 2 <= bytes; i += 2) { int16_t a, b; std::memcpy(&a, dst + i, 2); std::memcpy(&b, src + i, 2); a = static_cast<int16_t>(a + b); std::memcpy(dst + i, &a, 2); } break;
    default: std::memcpy(dst, src, bytes);
    }
}

// The atomic mode's combination of a burst into GM: SetAtomicAdd sums, SetAtomicMax/Min keep the extreme.
void atomic_combine(const Core& c, Dt copied, uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    const Dt dt = c.atomic_dt != Dt::none ? c.atomic_dt : copied;
    if (c.atomic_mode == AtomicMode::add) atomic_accumulate(dt, dst, src, bytes);
    else atomic_extreme(c.atomic_mode == AtomicMode::max, dt, dst, src, bytes);
}

// A UB -> GM burst: the bytes of `n` at `s` to `d`. A burst of 4 KiB or more goes with streaming stores: GM is far
// larger than the cache, the kernel does not read what it just wrote back soon, and a plain copy would first read
// every destination cache line (the poison) from memory only to overwrite it. The bytes are the same.
void gm_store(uint8_t* d, const uint8_t* s, uint64_t n) {
#if defined(__SSE2__)
    if (n >= 4096) {
        const uint64_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
        std::memcpy(d, s, head);
        uint8_t* q = d + head;
        const uint8_t* r = s + head;
        const uint64_t body = (n - head) / 64 * 64;
        for (uint64_t i = 0; i < body; i += 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + i + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + i + 32));
            const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + i + 48));
            _mm_stream_si128(reinterpret_cast<__m128i*>(q + i), a);
            _mm_stream_si128(reinterpret_cast<__m128i*>(q + i + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i*>(q + i + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i*>(q + i + 48), e);
        }
        _mm_sfence();  // ordered before whatever this core does next (a flag, another block's read)
        std::memcpy(q + body, r + body, n - head - body);
        return;
    }
#endif
    std::memcpy(d, s, n);
}

void check_burst_params(const CopyShape& s, uint32_t maxLen, Op op, const SrcLoc& loc, const char* kind) {
    if (s.blockCount < 1 || s.blockCount > 4095)
        Report(kind, op, loc).msg("%s: blockCount = %u; it must be 1..4095", op_name(op), s.blockCount)
            .val("blockCount", s.blockCount).hint("split the copy into several calls of at most 4095 bursts").fail();
    if (s.blockLen < 1 || s.blockLen > maxLen)
        Report(kind, op, loc).msg("%s: blockLen = %u; it must be 1..%u", op_name(op), s.blockLen, maxLen)
            .val("blockLen", s.blockLen).hint("blockLen is %s per burst", op == Op::DataCopy ? "in 32-byte blocks" : "in bytes").fail();
}

}  // namespace

void data_copy(Dt dt, const Local* ubDst, const Local* ubSrc, void* gm, const CopyShape& shape, SrcLoc loc) {
    enter(Op::DataCopy, loc);
    if ((ubDst && cube_region_of(ubDst->pos)) || (ubSrc && cube_region_of(ubSrc->pos)))
        return cube_data_copy(dt, ubDst, ubSrc, gm, shape, loc);  // a cube-core buffer (emu_cube.cpp)
    const uint32_t esize = dt_size(dt);
    uint64_t blockCount, burst, srcGap, dstGap;
    if (shape.countForm) {
        const uint64_t bytes = shape.count * esize;
        // AscendC's count form sets blockLen = count / (32 / sizeof(T)): the NPU copies the whole 32-byte blocks and
        // reports nothing (asc-devkit's DataCopyCheck asserts alignment only in the CPU-debug build, "In NPU mode, no
        // error is reported. The value is rounded down by 32B."), so the copy runs as the NPU runs it, with a warning
        // once per line; under one block it copies nothing (LLM4AscendC's upper-triangular matmul, passed on its 910B,
        // clears 1..7 floats of a row that way; a kernel that writes nothing at all is still `no-output`).
        if (bytes % 32 != 0 && first_report_at("copy-misaligned", loc)) {
            Report r("copy-misaligned", Op::DataCopy, loc);
            if (bytes < 32)
                r.msg("DataCopy of %llu %s elements = %llu bytes, less than one 32-byte block: the NPU rounds the count "
                      "down to whole blocks, so it copies nothing, and so does the emulator (CANN's CPU-debug build "
                      "stops here)", static_cast<unsigned long long>(shape.count),
                      dt_name(dt), static_cast<unsigned long long>(bytes));
            else
                r.msg("DataCopy of %llu %s elements = %llu bytes, not a multiple of 32: the NPU rounds the count down to "
                      "whole 32-byte blocks and copies only %llu bytes, and so does the emulator (CANN's CPU-debug build "
                      "stops here)", static_cast<unsigned long long>(shape.count), dt_name(dt),
                      static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(bytes / 32 * 32));
            r.val("count", static_cast<int64_t>(shape.count)).val("bytes", static_cast<int64_t>(bytes))
                .hint("copy a multiple of %u elements, or use DataCopyPad for the unaligned tail", 32 / esize ? 32 / esize : 1);
            r.warn();
        }
        blockCount = 1; burst = bytes / 32 * 32; srcGap = dstGap = 0;
    } else {
        check_burst_params(shape, 65535, Op::DataCopy, loc, "copy-params");
        blockCount = shape.blockCount;
        burst = static_cast<uint64_t>(shape.blockLen) * 32;
        srcGap = static_cast<uint64_t>(shape.srcStride) * 32;
        dstGap = static_cast<uint64_t>(shape.dstStride) * 32;
    }
    const uint64_t total = blockCount * burst;
    const uint64_t srcSpan = blockCount ? (blockCount - 1) * (burst + srcGap) + burst : 0;
    const uint64_t dstSpan = blockCount ? (blockCount - 1) * (burst + dstGap) + burst : 0;
    const bool execute = !tracing_now();

    if (ubDst && ubSrc) {  // UB -> UB on the vector pipe
        check_local(*ubSrc, Op::DataCopy, loc, "src", 32);
        check_local(*ubDst, Op::DataCopy, loc, "dst", 32);
        check_extent(*ubSrc, srcSpan, Op::DataCopy, loc, "src");
        check_extent(*ubDst, dstSpan, Op::DataCopy, loc, "dst");
        for (uint64_t b = 0; b < blockCount; ++b) check_initialised(*ubSrc, b * (burst + srcGap), burst, Op::DataCopy, loc, "src");
        if (RaceScope race{TPipe_::V, Op::DataCopy, loc}) {  // copy_ubuf_to_ubuf runs on the vector pipe
            for (uint64_t b = 0; b < blockCount; ++b) race.read(ubSrc->addr + b * (burst + srcGap), burst);
            for (uint64_t b = 0; b < blockCount; ++b) race.write(ubDst->addr + b * (burst + dstGap), burst);
        }
        record(TPipe_::V, TKind::INSTR, Op::DataCopy, dt, kFlagUbToUb, loc, 2 * total, total / esize, 0,
               static_cast<uint32_t>(blockCount), static_cast<uint32_t>(burst));
        if (!execute) return;
        for (uint64_t b = 0; b < blockCount; ++b) {
            std::memmove(ubDst->addr + b * (burst + dstGap), ubSrc->addr + b * (burst + srcGap), burst);
            mark_written(*ubDst, b * (burst + dstGap), burst);
        }
        return;
    }
    if (ubDst) {  // GM -> UB on MTE2
        check_local(*ubDst, Op::DataCopy, loc, "dst", 32);
        check_extent(*ubDst, dstSpan, Op::DataCopy, loc, "dst");
        const GmBuffer& g = check_gm(gm, srcSpan, false, Op::DataCopy, loc);
        if (RaceScope race{TPipe_::MTE2, Op::DataCopy, loc})
            for (uint64_t b = 0; b < blockCount; ++b) race.write(ubDst->addr + b * (burst + dstGap), burst);
        record_gm(TPipe_::MTE2, Op::DataCopy, dt, 0, loc, total, total / esize, static_cast<uint32_t>(blockCount),
                  static_cast<uint32_t>(burst), GmPlace{&g, gm, burst + srcGap});
        if (!execute) return;
        const uint8_t* src = g.real ? gm_source(g, gm) : nullptr;
        for (uint64_t b = 0; b < blockCount; ++b) {
            if (g.real) std::memcpy(ubDst->addr + b * (burst + dstGap), src + b * (burst + srcGap), burst);
            mark_written(*ubDst, b * (burst + dstGap), burst);
        }
        return;
    }
    // UB -> GM on MTE3
    check_local(*ubSrc, Op::DataCopy, loc, "src", 32);
    check_extent(*ubSrc, srcSpan, Op::DataCopy, loc, "src");
    const GmBuffer& g = check_gm(gm, dstSpan, true, Op::DataCopy, loc);
    uint8_t* dst = static_cast<uint8_t*>(gm);
    for (uint64_t b = 0; b < blockCount; ++b) {
        check_initialised(*ubSrc, b * (burst + srcGap), burst, Op::DataCopy, loc, "src");
        track_gm_write(dst + b * (burst + dstGap), burst, Op::DataCopy, loc, ubSrc->addr + b * (burst + srcGap));
    }
    if (RaceScope race{TPipe_::MTE3, Op::DataCopy, loc})
        for (uint64_t b = 0; b < blockCount; ++b) race.read(ubSrc->addr + b * (burst + srcGap), burst);
    record_gm(TPipe_::MTE3, Op::DataCopy, dt, 0, loc, total, total / esize, static_cast<uint32_t>(blockCount),
              static_cast<uint32_t>(burst), GmPlace{&g, gm, burst + dstGap});
    if (!execute || !g.real) return;
    Core& c = core();
    uint8_t* to = gm_target(g, dst);  // an alias while the buffer's poison is deferred (atomic accumulation ended that)
    for (uint64_t b = 0; b < blockCount; ++b) {
        uint8_t* d = to + b * (burst + dstGap);
        const uint8_t* s = ubSrc->addr + b * (burst + srcGap);
        if (c.atomic_add) atomic_combine(c, dt, d, s, burst);
        else gm_store(d, s, burst);
    }
}

void data_copy_pad(Dt dt, const Local* ubDst, const Local* ubSrc, void* gm, const CopyShape& shape, const PadSpec& pad, SrcLoc loc) {
    enter(Op::DataCopyPad, loc);
    const uint32_t esize = dt_size(dt);
    check_burst_params(shape, pad.legacy ? 65535u : 2097151u, Op::DataCopyPad, loc, "pad-limit");
    const uint64_t count = shape.blockCount, len = shape.blockLen;
    const bool execute = !tracing_now();

    if (ubDst) {  // GM -> UB: each burst lands as [left pad][data][right pad][dummy up to 32 B]
        uint64_t left = static_cast<uint64_t>(pad.left) * esize, right = static_cast<uint64_t>(pad.right) * esize;
        if (left > 32 || right > 32)
            Report("pad-limit", Op::DataCopyPad, loc)
                .msg("DataCopyPad: leftPadding = %u and rightPadding = %u elements (%llu and %llu bytes); each side may pad at most 32 bytes",
                     pad.left, pad.right, static_cast<unsigned long long>(left), static_cast<unsigned long long>(right))
                .val("leftPadding", pad.left).val("rightPadding", pad.right)
                .hint("pad at most %u elements of %s per side", 32 / esize, dt_name(dt)).fail();
        if (esize == 8 && pad.isPad && pad.valueBits != 0)
            Report("pad-limit", Op::DataCopyPad, loc)
                .msg("DataCopyPad: paddingValue must be 0 for 64-bit types").hint("pad 64-bit data with 0").fail();
        const uint64_t row = (left + len + right + 31) / 32 * 32;
        const uint64_t srcStride = shape.srcStride;            // bytes (GM side)
        const uint64_t dstStride = static_cast<uint64_t>(shape.dstStride) * 32;  // blocks (UB side)
        const uint64_t gmSpan = (count - 1) * (len + srcStride) + len;
        const uint64_t ubSpan = (count - 1) * (row + dstStride) + row;
        check_local(*ubDst, Op::DataCopyPad, loc, "dst", 32);
        check_extent(*ubDst, (count - 1) * (row + dstStride) + left + len, Op::DataCopyPad, loc, "dst");
        if (ubSpan > ubDst->cap && !ub_overrun(*ubDst, ubSpan, Op::DataCopyPad, loc, "dst"))
            Report("ub-out-of-range", Op::DataCopyPad, loc)
                .msg("DataCopyPad: with padding to 32 bytes the bursts fill %llu bytes of UB, past the end of the %u-byte buffer",
                     static_cast<unsigned long long>(ubSpan), ubDst->cap)
                .val("bytes_needed", static_cast<int64_t>(ubSpan)).val("tensor_bytes", ubDst->cap)
                .hint("each burst occupies ceil((left + blockLen + right) / 32) * 32 bytes of UB").fail();
        const GmBuffer& g = check_gm(gm, gmSpan, false, Op::DataCopyPad, loc);
        if (RaceScope race{TPipe_::MTE2, Op::DataCopyPad, loc})  // whole 32-byte rows: pads and dummy bytes too
            for (uint64_t b = 0; b < count; ++b) race.write(ubDst->addr + b * (row + dstStride), row);
        record_gm(TPipe_::MTE2, Op::DataCopyPad, dt, kFlagPad, loc, count * len, count * len / esize, static_cast<uint32_t>(count),
                  static_cast<uint32_t>(len), GmPlace{&g, gm, len + srcStride});
        if (!execute) return;
        const uint8_t* src = g.real ? gm_source(g, gm) : nullptr;
        // isPad: paddingValue; otherwise the value SetPadValue set, if any (else the pads are left as they were)
        const Core& cur = core();
        const bool pad_with = pad.isPad || cur.pad_value_set;
        const uint64_t pad_bits = pad.isPad ? pad.valueBits : cur.pad_value_bits;
        for (uint64_t b = 0; b < count; ++b) {
            uint8_t* row_start = ubDst->addr + b * (row + dstStride);
            uint64_t row_off = b * (row + dstStride);
            if (g.real) std::memcpy(row_start + left, src + b * (len + srcStride), len);
            mark_written(*ubDst, row_off + left, len);
            auto fill = [&](uint64_t from, uint64_t to) {  // pad value over [from, to) of the row
                for (uint64_t k = from; k + esize <= to; k += esize) std::memcpy(row_start + k, &pad_bits, esize);
                mark_written(*ubDst, row_off + from, to - from);
            };
            if (pad_with) { fill(0, left); fill(left + len, left + len + right); }
            uint64_t used = left + len + right;
            if (used < row) {
                if (pad.left == 0 && pad.right == 0) {  // dummy elements repeat the burst's first element
                    for (uint64_t k = used; k + esize <= row; k += esize) std::memcpy(row_start + k, row_start, esize);
                    mark_written(*ubDst, row_off + used, row - used);
                } else if (pad_with) {
                    fill(used, row);
                }
            }
        }
        return;
    }
    // UB -> GM: each burst reads ceil(blockLen / 32) * 32 bytes of UB and writes blockLen bytes
    const uint64_t row = (len + 31) / 32 * 32;
    const uint64_t srcStride = static_cast<uint64_t>(shape.srcStride) * 32;  // blocks (UB side)
    const uint64_t dstStride = shape.dstStride;                              // bytes (GM side)
    const uint64_t gmSpan = (count - 1) * (len + dstStride) + len;
    check_local(*ubSrc, Op::DataCopyPad, loc, "src", 32);
    check_extent(*ubSrc, (count - 1) * (row + srcStride) + len, Op::DataCopyPad, loc, "src");
    const GmBuffer& g = check_gm(gm, gmSpan, true, Op::DataCopyPad, loc);
    uint8_t* dst = static_cast<uint8_t*>(gm);
    for (uint64_t b = 0; b < count; ++b) {
        check_initialised(*ubSrc, b * (row + srcStride), len, Op::DataCopyPad, loc, "src");
        track_gm_write(dst + b * (len + dstStride), len, Op::DataCopyPad, loc, ubSrc->addr + b * (row + srcStride));
    }
    if (RaceScope race{TPipe_::MTE3, Op::DataCopyPad, loc})
        for (uint64_t b = 0; b < count; ++b) race.read(ubSrc->addr + b * (row + srcStride), row);
    record_gm(TPipe_::MTE3, Op::DataCopyPad, dt, kFlagPad, loc, count * len, count * len / esize, static_cast<uint32_t>(count),
              static_cast<uint32_t>(len), GmPlace{&g, gm, len + dstStride});
    if (!execute || !g.real) return;
    Core& c = core();
    uint8_t* to = gm_target(g, dst);
    for (uint64_t b = 0; b < count; ++b) {
        uint8_t* d = to + b * (len + dstStride);
        const uint8_t* s = ubSrc->addr + b * (row + srcStride);
        if (c.atomic_add) atomic_combine(c, dt, d, s, len);
        else std::memcpy(d, s, len);
    }
}

// SetPadValue<T>(value): the value DataCopyPad GM -> UB writes into the padding when isPad is false.
void set_pad_value(uint64_t bits, SrcLoc loc) {
    enter(Op::DataCopyPad, loc);
    Core& c = core();
    c.pad_value_bits = bits;
    c.pad_value_set = true;
}

// Whether this core's pad-value register was written (SetPadValue, or the raw set_mov_pad_val): the raw
// copy_gm_to_ubuf_align pads with it then, else with its reset value 0 (raw_intrinsics.h).
bool pad_value_written() { return core().pad_value_set; }

}}  // namespace ascendcraft::emu
