// AscendCraft CPU emulation runtime: the cube core (AIC). Its buffers (L1 512 KB, L0A/L0B 64 KB, L0C 128 KB),
// the GM -> L1 copies, LoadData (MTE1), Mmad (M) and Fixpipe (FIX), on the documented fractal layouts
// (see include/ascendcraft_emu/cube.h). Execute mode moves and computes the data; trace mode records the
// pipe work only.
// Why one file (about 1,500 lines): every entry point here reads and writes the same model of the cube core's buffers
// (the regions, the fractal index arithmetic and the checks of its anonymous namespace), and the Mmad, the Matmul API
// and the sparse product share one product kernel (rows_product), so that they round alike. The sections follow the
// data's path: GM -> L1 -> L0A / L0B -> L0C -> GM, then the high-level API built on it.
#include <algorithm>
#include <functional>
#include <vector>

#include "ascendcraft_emu/cube_internal.h"
#include "ascendcraft_emu/cube.h"
#include "ascendcraft_emu/cube_sparse.h"
#include "ascendcraft_emu/matmul.h"

namespace ascendcraft { namespace emu {

namespace {
constexpr uint32_t kFractalBytes = 512;
using AscendC::TPosition;

uint8_t pos_u8(TPosition p) { return static_cast<uint8_t>(p); }

// The cube core's buffer a LocalTensor points into (0 = none: UB or never allocated).
uint8_t region_of_local(const Local& t) {
    const uint8_t r = cube_region_of(t.pos);
    if (!r) return 0;
    const std::vector<uint8_t>& mem = core().cube_mem[r];
    if (mem.empty() || t.addr < mem.data() || t.addr > mem.data() + mem.size()) return 0;
    return r;
}

// A LocalTensor that was never placed (default-constructed: no TBuf / queue buffer, no InitBuffer) has buffer address 0.
// An instruction whose operand lives in one fixed memory (Mmad's A in L0A, B in L0B, C in L0C; Fixpipe's source in L0C)
// addresses that memory with it, so the hardware reads and writes from the memory's start; ATB's pp matmul kernels
// (with_bias, ein_sum) keep their L0C tensor so. The operand becomes that memory from its start, with a warning once
// per call site; an unplaced tensor anywhere else is still an error (check_cube).
Local unplaced_at_start(const Local& t, uint8_t region, Op op, const char* role, const SrcLoc& loc) {
    if (t.addr || t.queue >= 0 || t.slot != -1) return t;
    const TPosition pos = region == kRegionL0A ? TPosition::A2 : region == kRegionL0B ? TPosition::B2 : TPosition::CO1;
    if (first_report_at("cube-unplaced-tensor", loc))
        Report("cube-unplaced-tensor", op, loc)
            .msg("%s: the %s operand is a LocalTensor that was never placed (buffer address 0); the instruction addresses "
                 "%s with it, from its start", op_name(op), role, cube_region_name(region))
            .val("operand", role).hint("allocate it from a TBuf / TQue on TPosition::%s, or give it that place with "
                                       "InitBuffer(0, size) and address_.logicPos", position_name(static_cast<uint8_t>(pos)))
            .warn();
    Local z;
    z.addr = cube_base(region);
    z.bytes = z.cap = static_cast<uint32_t>(cube_region_bytes(region));
    z.pos = static_cast<uint8_t>(pos);
    z.slot = kStaticTensorSlot;
    return z;
}

uint64_t offset_in(const Local& t, uint8_t region) { return static_cast<uint64_t>(t.addr - core().cube_mem[region].data()); }

// The operand must be a tensor of one of the `allowed` cube buffers, start on `align` bytes and hold `bytes`.
uint8_t check_cube(const Local& t, Op op, const SrcLoc& loc, const char* role, std::initializer_list<uint8_t> allowed,
                   uint32_t align, uint64_t bytes) {
    // In a mixed launch the AIVs hold the Matmul clients, and AscendC lets them fill a TSCM queue (L1) for the Matmul
    // (asc-devkit matmul_tscm): the emulation's AIVs do the cube work in place, so that copy is theirs to make.
    const bool aivTscm = t.pos == static_cast<uint8_t>(AscendC::TPosition::TSCM) && g_launch && g_launch->mixed;
    if (kernel_declared() && !kernel_on_aic() && !aivTscm)
        Report("cube-on-vector-core", op, loc)
            .msg("%s runs on the cube core (AIC), but this code runs on a vector core (AIV) of the launch", op_name(op))
            .hint("in a mixed kernel put the cube stages under `if ASCEND_IS_AIC { ... }` and hand the result to the "
                  "vector cores through GM with CrossCoreSetFlag / CrossCoreWaitFlag")
            .fail();
    const uint8_t r = region_of_local(t);
    bool ok = false;
    for (uint8_t a : allowed) ok = ok || a == r;
    if (!ok) {
        std::string want;
        for (uint8_t a : allowed) want += std::string(want.empty() ? "" : " or ") + cube_region_name(a);
        Report("cube-position", op, loc)
            .msg("%s: the %s operand is in %s, but it must be in %s", op_name(op), role,
                 r ? cube_region_name(r) : (t.addr ? "UB (a vector-core position)" : "no buffer (never allocated)"), want.c_str())
            .val("operand", role).val("position", position_name(t.pos))
            .hint("allocate it from a TQue/TBuf on TPosition::%s",
                  op == Op::Mmad ? (std::string(role) == "dst" ? "CO1" : std::string(role) == "fm" ? "A2" : "B2")
                  : op == Op::LoadData ? (std::string(role) == "src" ? "A1 or B1" : "A2 or B2")
                  : op == Op::Fixpipe ? "CO1" : std::string(role) == "bias" || (std::string(role) == "dst" && *allowed.begin() == kRegionBT)
                  ? "C2 (the bias table)" : "A1 or B1")
            .fail();
    }
    const uint64_t off = offset_in(t, r);
    if (align > 1 && off % align != 0)
        Report("cube-misaligned", op, loc)
            .msg("%s: the %s operand starts at %s offset %llu, not a multiple of %u bytes", op_name(op), role, cube_region_name(r),
                 static_cast<unsigned long long>(off), align)
            .val("operand", role).val("offset", static_cast<int64_t>(off)).val("alignment", align)
            .hint("offset cube tensors by whole %u-byte units (%s)", align,
                  align == kFractalBytes ? "one fractal: 256 halves, 512 int8, 128 floats" : "32 bytes")
            .fail();
    // A static tensor (LocalTensor(pos, addr, count)) is an address: the hardware reads and writes past its count as long as
    // the memory goes on, so that is a warning (its neighbour's data may be overwritten); a TQue / TBuf buffer's end is an error.
    if (bytes > t.cap && t.queue < 0 && t.slot == kStaticTensorSlot && off + bytes <= cube_region_bytes(r)) {
        if (first_report_at("cube-beyond-static-tensor", loc))
            Report("cube-beyond-static-tensor", op, loc)
                .msg("%s: the %s operand needs %llu bytes of %s from its start, past the %u bytes of its static tensor", op_name(op),
                     role, static_cast<unsigned long long>(bytes), cube_region_name(r), t.cap)
                .val("operand", role).val("bytes_needed", static_cast<int64_t>(bytes)).val("tensor_bytes", t.cap)
                .hint("declare the LocalTensor with at least %llu bytes (anything placed right after it in %s is overwritten)",
                      static_cast<unsigned long long>(bytes), cube_region_name(r))
                .warn();
        return r;
    }
    if (bytes > t.cap)
        Report(r == kRegionL1 ? "l1-overflow" : "l0-overflow", op, loc)
            .msg("%s: the %s operand needs %llu bytes of %s from its start (offset %llu), but its buffer has %u", op_name(op), role,
                 static_cast<unsigned long long>(bytes), cube_region_name(r), static_cast<unsigned long long>(off), t.cap)
            .val("operand", role).val("bytes_needed", static_cast<int64_t>(bytes)).val("tensor_bytes", t.cap)
            .hint("InitBuffer the %s queue with at least %llu bytes, or split the work into smaller base blocks",
                  position_name(t.pos), static_cast<unsigned long long>(bytes))
            .fail();
    return r;
}

uint32_t c0_of(Dt dt) { return 32 / dt_size(dt); }
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

void store_cube(Dt dt, uint8_t* p, double v) {
    switch (dt) {
    case Dt::f16: { half h = static_cast<half>(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
    case Dt::bf16: { uint16_t b = bfloat16_t::from_float(static_cast<float>(v)); std::memcpy(p, &b, 2); break; }
    case Dt::f32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case Dt::i32: { int32_t i = static_cast<int32_t>(v); std::memcpy(p, &i, 4); break; }
    case Dt::i8: { int8_t i = static_cast<int8_t>(std::max(-128.0, std::min(127.0, std::nearbyint(v)))); std::memcpy(p, &i, 1); break; }
    case Dt::u8: { uint8_t u = static_cast<uint8_t>(std::max(0.0, std::min(255.0, std::nearbyint(v)))); std::memcpy(p, &u, 1); break; }
    default: break;
    }
}
}  // namespace

// ---- buffers -----------------------------------------------------------------------------------------
uint8_t cube_region_of(uint8_t pos) {
    switch (static_cast<TPosition>(pos)) {
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return kRegionL1;
    case TPosition::A2: return kRegionL0A;
    case TPosition::B2: return kRegionL0B;
    case TPosition::CO1: return kRegionL0C;
    case TPosition::C2: return kRegionBT;
    // the Fixpipe buffer (FB) is memory of its own, not UB: catlass's Arch::Resource takes all of it with a TBuf
    // (InitBuffer(tbuf, 7 KiB)) beside a VECCALC TBuf that takes all of UB
    case TPosition::C2PIPE2GM: return kRegionFB;
    default: return kRegionUB;
    }
}
const char* cube_region_name(uint8_t region) {
    static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "the bias table", "the Fixpipe buffer"};
    return region < 7 ? names[region] : "?";
}
uint32_t cube_region_bytes(uint8_t region) {
    // A2 (dav-2201): the Fixpipe buffer holds 7 KiB (the devkit's CPU-debug sizes of its memories)
    static const uint32_t bytes[] = {0, 512 * 1024, 64 * 1024, 64 * 1024, 128 * 1024, 1024, 7 * 1024};
    return region < 7 ? bytes[region] : 0;
}
uint8_t cube_producer_pipe(uint8_t pos) {
    switch (cube_region_of(pos)) {
    case kRegionL1: return static_cast<uint8_t>(TPipe_::MTE2);
    case kRegionL0A: case kRegionL0B: case kRegionBT: return static_cast<uint8_t>(TPipe_::MTE1);
    case kRegionFB: return static_cast<uint8_t>(TPipe_::FIX);
    default: return static_cast<uint8_t>(TPipe_::M);
    }
}
uint8_t cube_consumer_pipe(uint8_t pos) {
    switch (cube_region_of(pos)) {
    case kRegionL1: return static_cast<uint8_t>(TPipe_::MTE1);
    case kRegionL0A: case kRegionL0B: case kRegionBT: return static_cast<uint8_t>(TPipe_::M);
    default: return static_cast<uint8_t>(TPipe_::FIX);
    }
}
uint64_t cube_round_len(uint8_t region, uint64_t len) {
    const uint64_t unit = region == kRegionL0A || region == kRegionL0B ? kFractalBytes : region == kRegionL0C || region == kRegionBT ? 64 : 32;
    return (len + unit - 1) / unit * unit;
}
void cube_check_capacity(uint8_t region, uint32_t used, uint64_t total, int num, uint64_t len, const SrcLoc& loc) {
    const uint32_t cap = cube_region_bytes(region);
    if (used + total <= cap) return;
    Report(region == kRegionL1 || region == kRegionBT ? "l1-overflow" : "l0-overflow", Op::InitBuffer, loc)
        .msg("InitBuffer asks for %d x %llu = %llu bytes of %s at offset %u, but only %u of its %u bytes are left", num,
             static_cast<unsigned long long>(len), static_cast<unsigned long long>(total), cube_region_name(region), used,
             cap - used, cap)
        .val("requested", static_cast<int64_t>(total)).val("available", cap - used).val("capacity", cap)
        .val("buffer", cube_region_name(region))
        .hint("all %s buffers together must fit in %u bytes: shrink the base block (baseM/baseN/baseK) or use fewer buffers",
              cube_region_name(region), cap)
        .fail();
}
uint8_t* cube_base(uint8_t region) {
    std::vector<uint8_t>& mem = core().cube_mem[region];
    if (mem.empty()) mem.assign(cube_region_bytes(region), tracing_now() ? 0 : g_launch->poison);
    return mem.data();
}

// ---- L1 -> bias table (C2) -----------------------------------------------------------------------------
// DataCopy(C2 tensor, L1 tensor, DataCopyParams) on MTE1: blockCount bursts of blockLen x 64 bytes of the L1 data, the
// source bursts srcStride x 32 bytes apart, the destination's dstStride x 64 bytes apart; half data is widened to float
// on the way (the bias table holds fp32). The documents give 64 bytes as the burst unit; that it counts the L1 side's
// bytes when half widens to float is how catlass's L1 -> bias-table copy sizes it (n / (64 / sizeof(source))).
void cube_copy_bias(Dt dstDt, Dt srcDt, const Local& dst, const Local& src, const CopyShape& shape, SrcLoc loc) {
    enter(Op::DataCopy, loc);
    const bool ok = (dstDt == Dt::f32 && (srcDt == Dt::f32 || srcDt == Dt::f16)) || (dstDt == Dt::i32 && srcDt == Dt::i32);
    if (!ok)
        Report("copy-types", Op::DataCopy, loc)
            .msg("DataCopy from %s in L1 to %s in the bias table: the bias table takes float (from float or half) or int32_t",
                 dt_name(srcDt), dt_name(dstDt))
            .hint("declare the bias table tensor as float (int32_t for int8 products) and the L1 bias as half or float").fail();
    // the count form (one element type): one burst of count / (64 / sizeof(T)) 64-byte units, no gaps, as the A2
    // DataCopy(LocalTensor, LocalTensor, count) sets its DataCopyParams for an L1 -> bias table copy
    CopyShape given = shape;
    if (given.countForm) {
        given.blockCount = 1;
        given.blockLen = static_cast<uint32_t>(given.count / (64 / dt_size(srcDt)));
        given.srcStride = given.dstStride = 0;
    }
    if (given.blockCount < 1 || given.blockCount > 4095 || given.blockLen < 1)
        Report("copy-params", Op::DataCopy, loc)
            .msg("DataCopy L1 -> bias table: blockCount = %u, blockLen = %u", given.blockCount, given.blockLen)
            .hint("blockCount is 1..4095 bursts and blockLen at least 1 (64-byte units of the L1 data)").fail();
    const uint32_t ss = dt_size(srcDt), ds = dt_size(dstDt);
    const uint64_t srcBurst = static_cast<uint64_t>(given.blockLen) * 64, n = srcBurst / ss, dstBurst = n * ds;
    const uint64_t srcStep = srcBurst + static_cast<uint64_t>(given.srcStride) * 32;
    const uint64_t dstStep = dstBurst + static_cast<uint64_t>(given.dstStride) * 64;
    const uint64_t count = given.blockCount;
    check_cube(src, Op::DataCopy, loc, "src", {kRegionL1}, 32, (count - 1) * srcStep + srcBurst);
    check_cube(dst, Op::DataCopy, loc, "dst", {kRegionBT}, 64, (count - 1) * dstStep + dstBurst);
    record(TPipe_::MTE1, TKind::INSTR, Op::DataCopy, srcDt, 0, loc, count * srcBurst, count * n, static_cast<uint32_t>(count));
    if (tracing_now()) return;
    for (uint64_t b = 0; b < count; ++b)
        for (uint64_t i = 0; i < n; ++i)
            store_cube(dstDt, dst.addr + b * dstStep + i * ds, load_d(srcDt, src.addr + b * srcStep + i * ss));
}

// ---- L1 -> the Fixpipe buffer (FB): the per-channel quantisation vector that SetFixPipeConfig names ---------------------
// uint64_t data; blockCount bursts of blockLen x 128 bytes; the gaps are head-to-head distances: srcStride in 32-byte
// blocks of L1, dstStride in 128-byte blocks of FB (0: every burst on the first). The count form: count x 8 bytes,
// rounded down to whole 32-byte blocks, one burst.
static void cube_copy_fb(Dt dt, const Local& dst, const Local& src, const CopyShape& shape, SrcLoc loc) {
    enter(Op::DataCopy, loc);
    if (dt != Dt::u64)
        unsupported_type(Op::DataCopy, dt, "uint64_t (DataCopy L1 -> Fixpipe buffer: quantisation parameters)", loc);
    uint64_t count = 1, burst = shape.count * 8 / 32 * 32, srcStep = 0, dstStep = 0;
    if (!shape.countForm) {
        if (shape.blockCount < 1 || shape.blockCount > 4095 || shape.blockLen < 1)
            Report("copy-params", Op::DataCopy, loc)
                .msg("DataCopy L1 -> Fixpipe buffer: blockCount = %u, blockLen = %u", shape.blockCount, shape.blockLen)
                .hint("blockCount is 1..4095 bursts and blockLen at least 1 (128-byte units)").fail();
        count = shape.blockCount;
        burst = static_cast<uint64_t>(shape.blockLen) * 128;
        srcStep = count > 1 ? static_cast<uint64_t>(shape.srcStride) * 32 : 0;
        dstStep = count > 1 ? static_cast<uint64_t>(shape.dstStride) * 128 : 0;
    }
    if (!burst) return;
    check_cube(src, Op::DataCopy, loc, "src", {kRegionL1}, 32, (count - 1) * srcStep + burst);
    check_cube(dst, Op::DataCopy, loc, "dst", {kRegionFB}, 128, (count - 1) * dstStep + burst);
    record(TPipe_::FIX, TKind::INSTR, Op::DataCopy, dt, 0, loc, count * burst, count * burst / 8, static_cast<uint32_t>(count));
    if (tracing_now()) return;
    for (uint64_t b = 0; b < count; ++b) std::memmove(dst.addr + b * dstStep, src.addr + b * srcStep, burst);
}

// ---- L1 -> GM (A2 / A3: MTE3) ---------------------------------------------------------------------------
// DataCopy(GlobalTensor, L1 tensor, ...): the bytes as they lie (the format is kept), count x sizeof(T) rounded down to
// whole 32-byte blocks, or blockCount bursts of blockLen 32-byte blocks with srcStride / dstStride gaps (end to start) in
// 32-byte blocks on either side. The asc-devkit's fixpipe_l0c2l1 example reads its L1 result out so.
static void cube_copy_l1_gm(Dt dt, const Local& src, void* gm, const CopyShape& shape, SrcLoc loc) {
    enter(Op::DataCopy, loc);
    const uint32_t esize = dt_size(dt);
    const uint64_t count = shape.countForm ? 1 : shape.blockCount;
    uint64_t burst = shape.countForm ? shape.count * esize : static_cast<uint64_t>(shape.blockLen) * 32;
    const uint64_t srcGap = shape.countForm ? 0 : static_cast<uint64_t>(shape.srcStride) * 32;
    const uint64_t dstGap = shape.countForm ? 0 : static_cast<uint64_t>(shape.dstStride) * 32;
    if (burst % 32 != 0 && first_report_at("copy-misaligned", loc))
        Report("copy-misaligned", Op::DataCopy, loc)
            .msg("DataCopy of %llu bytes from L1 to GM, not a multiple of 32: the NPU rounds the count down to whole "
                 "32-byte blocks and copies %llu bytes, and so does the emulator", static_cast<unsigned long long>(burst),
                 static_cast<unsigned long long>(burst / 32 * 32))
            .hint("copy whole 32-byte blocks").warn();
    burst = burst / 32 * 32;
    if (!count || !burst) return;   // a NOP, as documented
    if (count > 4095)
        Report("copy-params", Op::DataCopy, loc)
            .msg("DataCopy L1 -> GM with blockCount = %llu", static_cast<unsigned long long>(count))
            .hint("blockCount is 0..4095 bursts").fail();
    const uint64_t srcSpan = (count - 1) * (burst + srcGap) + burst, dstSpan = (count - 1) * (burst + dstGap) + burst;
    check_cube(src, Op::DataCopy, loc, "src", {kRegionL1}, 32, srcSpan);
    const GmBuffer& g = check_gm(gm, dstSpan, true, Op::DataCopy, loc);
    uint8_t* d = static_cast<uint8_t*>(gm);
    for (uint64_t b = 0; b < count; ++b) track_gm_write(d + b * (burst + dstGap), burst, Op::DataCopy, loc);
    record_gm(TPipe_::MTE3, Op::DataCopy, dt, 0, loc, count * burst, count * burst / esize, static_cast<uint32_t>(count),
              static_cast<uint32_t>(burst), GmPlace{&g, gm, burst + dstGap});
    if (tracing_now() || !g.real) return;
    for (uint64_t b = 0; b < count; ++b)
        std::memcpy(gm_target(g, d) + b * (burst + dstGap), src.addr + b * (burst + srcGap), burst);
}

// ---- GM -> L1 ------------------------------------------------------------------------------------------
void cube_data_copy(Dt dt, const Local* dst, const Local* src, void* gm, const CopyShape& shape, SrcLoc loc) {
    const uint32_t esize = dt_size(dt);
    if (!dst && src && gm && cube_region_of(src->pos) == kRegionL1) return cube_copy_l1_gm(dt, *src, gm, shape, loc);
    if (dst && src && !gm && cube_region_of(dst->pos) == kRegionBT) return cube_copy_bias(dt, dt, *dst, *src, shape, loc);
    if (dst && src && !gm && cube_region_of(dst->pos) == kRegionFB && cube_region_of(src->pos) == kRegionL1)
        return cube_copy_fb(dt, *dst, *src, shape, loc);
    if (!dst || !gm || src)
        unsupported_call(Op::DataCopy, "DataCopy between these positions of the cube core is not emulated yet",
                         "copy GM -> A1/B1 with DataCopy, L1 -> L0 with LoadData and L0C -> GM with Fixpipe", loc);
    uint64_t count = shape.countForm ? 1 : shape.blockCount;
    uint64_t burst = shape.countForm ? shape.count * esize : static_cast<uint64_t>(shape.blockLen) * 32;
    uint64_t srcGap = shape.countForm ? 0 : static_cast<uint64_t>(shape.srcStride) * 32;
    uint64_t dstGap = shape.countForm ? 0 : static_cast<uint64_t>(shape.dstStride) * 32;
    // the count form rounds down to whole 32-byte blocks on the NPU, as into UB (emu_copy.cpp's data_copy)
    if (burst % 32 != 0 && first_report_at("copy-misaligned", loc)) {
        Report r("copy-misaligned", Op::DataCopy, loc);
        r.msg("DataCopy of %llu bytes into %s, not a multiple of 32: the NPU rounds the count down to whole 32-byte "
              "blocks and copies %llu bytes, and so does the emulator (CANN's CPU-debug build stops here)",
              static_cast<unsigned long long>(burst), position_name(dst->pos), static_cast<unsigned long long>(burst / 32 * 32))
            .hint("copy whole 32-byte blocks, or use DataCopy with Nd2NzParams");
        r.warn();
    }
    burst = burst / 32 * 32;
    const uint64_t srcSpan = count ? (count - 1) * (burst + srcGap) + burst : 0;
    const uint64_t dstSpan = count ? (count - 1) * (burst + dstGap) + burst : 0;
    check_cube(*dst, Op::DataCopy, loc, "dst", {kRegionL1}, 32, dstSpan);
    const GmBuffer& g = check_gm(gm, srcSpan, false, Op::DataCopy, loc);
    record_gm(TPipe_::MTE2, Op::DataCopy, dt, 0, loc, count * burst, count * burst / esize, static_cast<uint32_t>(count),
              static_cast<uint32_t>(burst), GmPlace{&g, gm, burst + srcGap});
    if (tracing_now() || !g.real) return;
    for (uint64_t b = 0; b < count; ++b)
        std::memcpy(dst->addr + b * (burst + dstGap), static_cast<const uint8_t*>(gm) + b * (burst + srcGap), burst);
}

void cube_copy_nd2nz(Dt dt, const Local& dst, const void* gm, const Local* l1src, const Nd2NzSpec& p, SrcLoc loc) {
    enter(Op::DataCopy, loc);
    if (l1src || !gm)
        unsupported_call(Op::DataCopy, "DataCopy with Nd2NzParams from a LocalTensor is not emulated yet",
                         "copy GM -> A1/B1 with Nd2NzParams", loc);
    const uint32_t esize = dt_size(dt), c0 = c0_of(dt);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    // dstNzC0Stride (documented 1..16384) places each C0 column block after the first: rows of dValue <= C0 elements
    // are one block, where it is never applied, and kernels that leave it 0 there run on the NPU (SpMM-AscendC's
    // 16 x 16 half tiles): a warning there, the copy as with any stride; an error where a second block would use it
    const bool unusedC0Stride = p.dstNzC0Stride == 0 && p.dValue <= c0;
    if (unusedC0Stride && first_report_at("copy-params", loc))
        Report("copy-params", Op::DataCopy, loc)
            .msg("DataCopy Nd2NzParams: dstNzC0Stride = 0, outside its documented range 1..16384; dValue = %u is one C0 "
                 "block of %u elements, so the stride is never applied and the copy goes on", p.dValue, c0)
            .hint("set dstNzC0Stride to the destination's rows rounded up to 16 (the distance between C0 column blocks)")
            .warn();
    if (p.nValue > 16384 || p.dValue > 65535 || (p.dstNzC0Stride == 0 && !unusedC0Stride) || p.dstNzNStride == 0)
        Report("copy-params", Op::DataCopy, loc)
            .msg("DataCopy Nd2NzParams: nValue = %u, dValue = %u, dstNzC0Stride = %u, dstNzNStride = %u", p.nValue, p.dValue,
                 p.dstNzC0Stride, p.dstNzNStride)
            .hint("nValue is 1..16384 rows, dValue 1..65535 columns, and both dst strides are at least 1 (in %u-element units)", c0)
            .fail();
    if (p.srcDValue < p.dValue)
        Report("copy-params", Op::DataCopy, loc)
            .msg("DataCopy Nd2NzParams: srcDValue = %llu is smaller than dValue = %u", static_cast<unsigned long long>(p.srcDValue), p.dValue)
            .hint("srcDValue is the source row length in elements (at least dValue)").fail();
    // destination extent: the last element's place, rounded up to its C0 block
    const uint64_t c0Blocks = ceil_div(p.dValue, c0);
    const uint64_t lastDst = static_cast<uint64_t>(p.ndNum - 1) * p.dstNzMatrixStride +
                             (c0Blocks - 1) * p.dstNzC0Stride * c0 + static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride * c0 + c0;
    check_cube(dst, Op::DataCopy, loc, "dst", {kRegionL1}, 32, lastDst * esize);
    const uint64_t srcSpan = (static_cast<uint64_t>(p.ndNum - 1) * p.srcNdMatrixStride +
                              static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue) * esize;
    const GmBuffer& g = check_gm(gm, srcSpan, false, Op::DataCopy, loc);
    const uint64_t rowBytes = static_cast<uint64_t>(p.dValue) * esize;
    record_gm(TPipe_::MTE2, Op::DataCopy, dt, 0, loc, rowBytes * p.nValue * p.ndNum, static_cast<uint64_t>(p.dValue) * p.nValue * p.ndNum,
              p.nValue * p.ndNum, static_cast<uint32_t>(rowBytes), GmPlace{&g, gm, p.srcDValue * esize});
    if (tracing_now() || !g.real) return;
    const uint8_t* s = static_cast<const uint8_t*>(gm);
    for (uint32_t nd = 0; nd < p.ndNum; ++nd)
        for (uint32_t r = 0; r < p.nValue; ++r)
            for (uint64_t blk = 0; blk < c0Blocks; ++blk) {
                uint8_t* d = dst.addr + (static_cast<uint64_t>(nd) * p.dstNzMatrixStride + blk * p.dstNzC0Stride * c0 +
                                         static_cast<uint64_t>(r) * p.dstNzNStride * c0) * esize;
                const uint64_t first = blk * c0, n = std::min<uint64_t>(c0, p.dValue - first);
                std::memcpy(d, s + (nd * p.srcNdMatrixStride + static_cast<uint64_t>(r) * p.srcDValue + first) * esize, n * esize);
                if (n < c0) std::memset(d + n * esize, 0, (c0 - n) * esize);  // the tail of a C0 block is padded with 0
            }
}

// ---- L1 -> L0A / L0B -----------------------------------------------------------------------------------
void cube_load2d(Dt dt, const Local& dst, const Local& src, const Load2DSpec& p, SrcLoc loc) {
    enter(Op::LoadData, loc);
    const uint64_t srcEnd = p.repeatTimes ? (static_cast<uint64_t>(p.startIndex) + (p.repeatTimes - 1) * static_cast<uint64_t>(p.srcStride) + 1) * kFractalBytes : 0;
    const uint64_t dstEnd = p.repeatTimes ? (static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * kFractalBytes : 0;
    check_cube(src, Op::LoadData, loc, "src", {kRegionL1}, 32, srcEnd);
    check_cube(dst, Op::LoadData, loc, "dst", {kRegionL0A, kRegionL0B}, kFractalBytes, dstEnd);
    if (p.transpose && dt_size(dt) != 2)
        unsupported_call(Op::LoadData, "LoadData with ifTranspose on 8- or 32-bit data (a fractal transposes as 16 x 16 "
                         "elements of 2 bytes only)", "keep B transposed in GM (B^T, n x k) and load it without ifTranspose, "
                         "or use LoadDataWithTranspose", loc);
    record(TPipe_::MTE1, TKind::INSTR, Op::LoadData, dt, 0, loc, static_cast<uint64_t>(p.repeatTimes) * kFractalBytes,
           static_cast<uint64_t>(p.repeatTimes) * kFractalBytes / dt_size(dt), p.repeatTimes);
    if (tracing_now()) return;
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint8_t* s = src.addr + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * kFractalBytes;
        uint8_t* d = dst.addr + static_cast<uint64_t>(r) * (1 + p.dstGap) * kFractalBytes;
        if (!p.transpose) { std::memmove(d, s, kFractalBytes); continue; }
        uint8_t tmp[kFractalBytes];
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t j = 0; j < 16; ++j) std::memcpy(tmp + (j * 16 + i) * 2, s + (i * 16 + j) * 2, 2);
        std::memcpy(d, tmp, kFractalBytes);
    }
}

void cube_load2d_gm(Dt dt, const Local& dst, const void* gm, const Load2DSpec& p, SrcLoc loc) {
    enter(Op::LoadData, loc);
    const uint64_t srcEnd = p.repeatTimes ? (static_cast<uint64_t>(p.startIndex) + (p.repeatTimes - 1) * static_cast<uint64_t>(p.srcStride) + 1) * kFractalBytes : 0;
    const uint64_t dstEnd = p.repeatTimes ? (static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * kFractalBytes : 0;
    const uint8_t r = region_of_local(dst);
    check_cube(dst, Op::LoadData, loc, "dst", {kRegionL1, kRegionL0A, kRegionL0B}, r == kRegionL1 ? 32 : kFractalBytes, dstEnd);
    const GmBuffer& g = check_gm(gm, srcEnd, false, Op::LoadData, loc);
    record_gm(TPipe_::MTE2, Op::LoadData, dt, 0, loc, static_cast<uint64_t>(p.repeatTimes) * kFractalBytes,
              static_cast<uint64_t>(p.repeatTimes) * kFractalBytes / dt_size(dt), p.repeatTimes, static_cast<uint32_t>(kFractalBytes),
              GmPlace{&g, gm, static_cast<uint64_t>(p.srcStride) * kFractalBytes});
    if (tracing_now() || !g.real) return;
    const uint8_t* src = static_cast<const uint8_t*>(gm);
    for (uint32_t i = 0; i < p.repeatTimes; ++i)
        std::memcpy(dst.addr + static_cast<uint64_t>(i) * (1 + p.dstGap) * kFractalBytes,
                    src + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(i) * p.srcStride) * kFractalBytes, kFractalBytes);
}

void cube_fill(Dt dt, const Local& dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap, const void* value,
               uint32_t size, SrcLoc loc) {
    enter(Op::Fill, loc);
    const uint8_t r = region_of_local(dst);
    const uint64_t block = r == kRegionL0A || r == kRegionL0B ? kFractalBytes : 32;
    const uint64_t span = repeatTimes && blockNum
        ? ((static_cast<uint64_t>(repeatTimes) - 1) * (static_cast<uint64_t>(blockNum) + dstGap) + blockNum) * block : 0;
    check_cube(dst, Op::Fill, loc, "dst", {kRegionL1, kRegionL0A, kRegionL0B}, static_cast<uint32_t>(block), span);
    if (!span) return;   // 0 repeats or 0 blocks: nothing (the instruction is a NOP)
    const uint64_t bytes = static_cast<uint64_t>(repeatTimes) * blockNum * block;
    record(r == kRegionL1 ? TPipe_::MTE2 : TPipe_::MTE1, TKind::INSTR, Op::Fill, dt, 0, loc, bytes, bytes / size, repeatTimes);
    if (tracing_now()) return;
    for (uint32_t rep = 0; rep < repeatTimes; ++rep) {
        uint8_t* d = dst.addr + static_cast<uint64_t>(rep) * (static_cast<uint64_t>(blockNum) + dstGap) * block;
        for (uint64_t off = 0; off < static_cast<uint64_t>(blockNum) * block; off += size) std::memcpy(d + off, value, size);
    }
}

// LoadDataWithTranspose (Ascend 910B): one repeat transposes one square of the source. 2-byte data: the square is one
// 16 x 16 fractal. 1-byte data: 32 x 32 bytes, row-major over two stacked 16 x 32 fractals; its transpose is split into
// two 16 x 32 fractals. 4-bit data (int4b_t, into L0B only): 64 x 64 elements, row-major over four stacked 16 x 64
// fractals (32 bytes a row, the even element of a byte in its low half); its transpose is split into four 16 x 64
// fractals. 4-byte data: 16 x 16 words made of two 16 x 8 fractals side by side (left columns first); its transpose is
// split into its left and right 16 x 8 halves. Repeat r reads the square startIndex + r * srcStride (minus with
// addrMode) and writes its first fractal (dstGap + 1) * r fractals into dst, each next one (dstFracGap + 1) fractals
// after the one before.
void cube_load2d_transpose(Dt dt, const Local& dst, const Local& src, const Load2DTransposeSpec& p, SrcLoc loc) {
    enter(Op::LoadData, loc);
    const uint32_t es = dt_size(dt);
    if (!(dt == Dt::f16 || dt == Dt::bf16 || dt == Dt::i8 || dt == Dt::u8 || dt == Dt::f32 || dt == Dt::i32 || dt == Dt::u32))
        unsupported_type(Op::LoadData, dt, "int4b_t (into L0B), int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t and float (LoadDataWithTranspose)", loc);
    if (p.int4 && region_of_local(dst) != kRegionL0B)
        Report("cube-position", Op::LoadData, loc)
            .msg("LoadDataWithTranspose of int4b_t into %s: 4-bit data is transposed into L0B (B2) only",
                 region_of_local(dst) == kRegionL0A ? "L0A (A2)" : "a buffer that is not L0B")
            .hint("load int4b_t A with LoadData (LoadData2DParams), and transpose only B into TPosition::B2").fail();
    const uint32_t fracs = p.int4 ? 4 : es == 2 ? 1 : 2;
    const uint64_t square = static_cast<uint64_t>(fracs) * kFractalBytes;
    const uint64_t last = p.repeatTimes ? static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride : 0;
    if (p.decrement && p.repeatTimes && last > p.startIndex)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadDataWithTranspose with addrMode (decreasing) reads square %lld - %llu: before the source tensor",
                 static_cast<long long>(p.startIndex), static_cast<unsigned long long>(last))
            .hint("start at a square at least (repeatTimes - 1) * srcStride").fail();
    const uint64_t srcEnd = p.repeatTimes ? ((p.decrement ? p.startIndex : p.startIndex + last) + 1) * square : 0;
    const uint64_t dstEnd = p.repeatTimes ? (static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) +
                                             static_cast<uint64_t>(fracs - 1) * (1 + p.dstFracGap) + 1) * kFractalBytes : 0;
    check_cube(src, Op::LoadData, loc, "src", {kRegionL1}, 32, srcEnd);
    check_cube(dst, Op::LoadData, loc, "dst", {kRegionL0A, kRegionL0B}, kFractalBytes, dstEnd);
    record(TPipe_::MTE1, TKind::INSTR, Op::LoadData, dt, 0, loc, static_cast<uint64_t>(p.repeatTimes) * square,
           static_cast<uint64_t>(p.repeatTimes) * square * (p.int4 ? 2 : 1) / es, p.repeatTimes * fracs);   // elements
    if (tracing_now()) return;
    uint8_t t[4 * kFractalBytes];              // the transposed square, row-major
    if (p.int4) {                              // 64 x 64 nibbles: element (i, j) in byte i * 32 + j / 2, odd j high
        for (uint32_t r = 0; r < p.repeatTimes; ++r) {
            const uint64_t sq = p.decrement ? p.startIndex - static_cast<uint64_t>(r) * p.srcStride
                                            : p.startIndex + static_cast<uint64_t>(r) * p.srcStride;
            const uint8_t* s = src.addr + sq * square;
            std::memset(t, 0, sizeof t);
            for (uint32_t i = 0; i < 64; ++i)
                for (uint32_t j = 0; j < 64; ++j) {
                    const uint8_t v = (s[j * 32 + i / 2] >> (4 * (i % 2))) & 0xF;   // source element (j, i)
                    t[i * 32 + j / 2] |= static_cast<uint8_t>(v << (4 * (j % 2)));
                }
            uint8_t* d = dst.addr + static_cast<uint64_t>(r) * (1 + p.dstGap) * kFractalBytes;
            for (uint32_t f = 0; f < fracs; ++f)
                std::memcpy(d + static_cast<uint64_t>(f) * (1 + p.dstFracGap) * kFractalBytes,
                            t + static_cast<uint64_t>(f) * kFractalBytes, kFractalBytes);
        }
        return;
    }
    const uint32_t n = es == 1 ? 32 : 16;      // the square is n x n elements
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t sq = p.decrement ? p.startIndex - static_cast<uint64_t>(r) * p.srcStride
                                        : p.startIndex + static_cast<uint64_t>(r) * p.srcStride;
        const uint8_t* s = src.addr + sq * square;
        // element (i, j) of the square
        auto at = [&](uint32_t i, uint32_t j) -> const uint8_t* {
            if (es != 4) return s + (static_cast<uint64_t>(i) * n + j) * es;
            return s + (j < 8 ? 0 : kFractalBytes) + (static_cast<uint64_t>(i) * 8 + j % 8) * 4;   // [F0 | F1]
        };
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t j = 0; j < n; ++j) std::memcpy(t + (static_cast<uint64_t>(i) * n + j) * es, at(j, i), es);
        uint8_t* d = dst.addr + static_cast<uint64_t>(r) * (1 + p.dstGap) * kFractalBytes;
        for (uint32_t f = 0; f < fracs; ++f) {
            uint8_t* df = d + static_cast<uint64_t>(f) * (1 + p.dstFracGap) * kFractalBytes;
            if (es != 4) { std::memcpy(df, t + static_cast<uint64_t>(f) * kFractalBytes, kFractalBytes); continue; }
            for (uint32_t i = 0; i < 16; ++i) std::memcpy(df + i * 8 * 4, t + (i * 16 + f * 8) * 4, 8 * 4);   // half f
        }
    }
}

// ---- LoadData 3D (img2col) ----------------------------------------------------------------------------------
void cube_set_fmatrix(uint16_t l1H, uint16_t l1W, const uint8_t pad[4], SrcLoc loc) {
    enter(Op::LoadData, loc);
    Core& c = core();
    c.fm_l1h = l1H; c.fm_l1w = l1W;
    for (int i = 0; i < 4; ++i) c.fm_pad[i] = pad[i];
}
void cube_set_load3d_pad(const void* value, uint32_t size, SrcLoc loc) {
    enter(Op::LoadData, loc);
    Core& c = core();
    std::memset(c.load3d_pad, 0, sizeof c.load3d_pad);
    std::memcpy(c.load3d_pad, value, std::min<uint32_t>(size, sizeof c.load3d_pad));
}
void cube_set_load3d_repeat(uint16_t repeatStride, uint8_t repeatTime, uint8_t repeatMode, SrcLoc loc) {
    enter(Op::LoadData, loc);
    Core& c = core();
    c.load3d_repeat_stride = repeatStride; c.load3d_repeat_time = repeatTime; c.load3d_repeat_mode = repeatMode;
}
void cube_set_load3d_boundary(uint32_t bytes, SrcLoc loc) {
    enter(Op::LoadData, loc);
    core().load3d_boundary = bytes;
}

// The L1 feature map is C1 = ceil(channelSize / C0) blocks of l1H x l1W x C0 elements (NC1HWC0, one image). Its img2col
// matrix has Ho x Wo rows (Ho = (l1H + top + bottom - ((Hk - 1) * dH + 1)) / sH + 1, likewise Wo) and C1 x Hk x Wk x C0
// columns; a tap outside the feature map (the padding) reads the pad value. The block of mExtension rows x kExtension
// columns from (mStartPt, kStartPt) is written as:
//   L0A:                ZZ of the block (16 x C0 fractals)                  - the A of a matrix product;
//   L0A, enTranspose:   ZZ of the block's transpose (b16 / b32 only)        - A from an A^T held in L1;
//   L0B (always):       ZN of the block (C0 x 16 fractals: its rows are k)   - B (b16 / b32 only).
// Only the block's own elements are written; the rest of its last fractals keeps what L0 held.
// The elements of the feature map a LoadData 3D reads, from its start: up to the last C0 group of the furthest position
// (channel block, h, w) of the taps its block of rows and columns reaches inside the map (taps in the padding read the
// pad value). A map declared wider than its buffer (l1W the row stride of a larger L1 tile, the block a part of it) reads
// only these, as the hardware does; the whole l1H x l1W x C1 map need not lie in the buffer.
static uint64_t load3d_read_extent(const Load3DSpec& p, uint32_t c0, int64_t wo, int64_t ho) {
    const uint64_t taps = static_cast<uint64_t>(p.filterH) * p.filterW;
    std::vector<int64_t> far(taps, -1);   // per tap: the furthest h * l1W + w inside the map over the block's rows
    for (uint64_t mi = 0; mi < p.mExtension; ++mi) {
        const uint64_t m = p.mStartPt + mi;
        const int64_t oh = static_cast<int64_t>(m / wo), ow = static_cast<int64_t>(m % wo);
        if (oh >= ho) continue;
        for (uint64_t tap = 0; tap < taps; ++tap) {
            const int64_t h = oh * p.strideH - p.pad[2] + static_cast<int64_t>(tap / p.filterW) * p.dilationH;
            const int64_t w = ow * p.strideW - p.pad[0] + static_cast<int64_t>(tap % p.filterW) * p.dilationW;
            if (h >= 0 && w >= 0 && h < static_cast<int64_t>(p.l1H) && w < static_cast<int64_t>(p.l1W))
                far[tap] = std::max(far[tap], h * static_cast<int64_t>(p.l1W) + w);
        }
    }
    uint64_t extent = 0;
    for (uint64_t q = p.kStartPt / c0; q <= (static_cast<uint64_t>(p.kStartPt) + p.kExtension - 1) / c0; ++q) {
        const uint64_t blk = q / taps, tap = q % taps;
        if (far[tap] < 0) continue;
        const uint64_t position = blk * p.l1H * p.l1W + static_cast<uint64_t>(far[tap]);
        extent = std::max(extent, (position + 1) * c0);
    }
    return extent;
}

void cube_load3d(Dt dt, const Local& dst, const Local& src, const Load3DSpec& spec, SrcLoc loc) {
    enter(Op::LoadData, loc);
    const Core& cr = core();
    Load3DSpec p = spec;
    if (p.fromRegisters) { p.l1H = cr.fm_l1h; p.l1W = cr.fm_l1w; for (int i = 0; i < 4; ++i) p.pad[i] = cr.fm_pad[i]; }
    if (p.padFromRegister) std::memcpy(p.padValue, cr.load3d_pad, sizeof p.padValue);
    const uint32_t es = dt_size(dt), c0 = c0_of(dt);
    const uint8_t dstRegion = region_of_local(dst);
    const bool toB = dstRegion == kRegionL0B;
    const bool okType = dt == Dt::f16 || dt == Dt::bf16 || dt == Dt::f32 || dt == Dt::i32 || dt == Dt::u32 ||
                        (!toB && !p.transpose && (dt == Dt::i8 || dt == Dt::u8));
    if (!okType)
        unsupported_type(Op::LoadData, dt, toB || p.transpose
                         ? "half, bfloat16_t, int32_t, uint32_t and float (LoadData 3D into L0B, or transposed into L0A)"
                         : "int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t and float (LoadData 3D into L0A)", loc);
    if (cr.load3d_repeat_time != 1)
        unsupported_call(Op::LoadData, "LoadData 3D with SetLoadDataRepeat's repeatTime other than 1 is not emulated yet "
                         "(where each repeat lands in L0 on Ascend 910B is not documented in words)",
                         "issue one LoadData per block (repeatTime = 1), moving mStartPt / kStartPt and the dst offset", loc);
    // a 0 in any extent makes the instruction a NOP
    if (!p.l1H || !p.l1W || !p.channelSize || !p.kExtension || !p.mExtension || !p.filterW || !p.filterH) return;
    if (!p.strideW || !p.strideH || !p.dilationW || !p.dilationH || p.strideW > 63 || p.strideH > 63)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D with strideW = %u, strideH = %u, dilationFilterW = %u, dilationFilterH = %u", p.strideW, p.strideH,
                 p.dilationW, p.dilationH)
            .hint("the strides are 1..63 and the dilations 1..255").fail();
    if (p.channelSize % c0 != 0)
        unsupported_call(Op::LoadData, "LoadData 3D with a channelSize that is not a multiple of C0 (the small-channel "
                         "layouts of 4 / 8 / 16 channels) is not emulated yet",
                         "pad the channels to a multiple of C0 (16 halves, 8 floats, 32 int8) in L1", loc);
    if (p.kStartPt % c0 != 0)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D with kStartPt = %u: it must be a multiple of C0 = %u", p.kStartPt, c0)
            .hint("start the block on a whole C0 column group").fail();
    const int64_t kh = (static_cast<int64_t>(p.filterH) - 1) * p.dilationH + 1, kw = (static_cast<int64_t>(p.filterW) - 1) * p.dilationW + 1;
    const int64_t ho = (static_cast<int64_t>(p.l1H) + p.pad[2] + p.pad[3] - kh) / p.strideH + 1;
    const int64_t wo = (static_cast<int64_t>(p.l1W) + p.pad[0] + p.pad[1] - kw) / p.strideW + 1;
    if (static_cast<int64_t>(p.l1H) + p.pad[2] + p.pad[3] < kh || static_cast<int64_t>(p.l1W) + p.pad[0] + p.pad[1] < kw)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D: the dilated %lld x %lld kernel does not fit the padded %u x %u feature map", static_cast<long long>(kh),
                 static_cast<long long>(kw), p.l1H + p.pad[2] + p.pad[3], p.l1W + p.pad[0] + p.pad[1])
            .hint("check l1H / l1W, padList, filterH / filterW and the dilations").fail();
    const uint64_t c1 = p.channelSize / c0, taps = static_cast<uint64_t>(p.filterH) * p.filterW;
    const uint64_t cols = c1 * taps * c0;
    if (static_cast<uint64_t>(p.kStartPt) + p.kExtension > cols)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D: columns %u..%u of an img2col matrix %llu columns wide (channelSize %u x %u kernel taps)", p.kStartPt,
                 p.kStartPt + p.kExtension - 1, static_cast<unsigned long long>(cols), p.channelSize, static_cast<unsigned>(taps))
            .hint("kStartPt + kExtension is at most channelSize x filterH x filterW").fail();
    const uint64_t M = p.mExtension, K = p.kExtension;
    uint64_t dstBytes;
    if (toB) dstBytes = ceil_div(p.mExtension, c0) * static_cast<uint64_t>(ceil_div(p.kExtension, 16)) * kFractalBytes;
    else if (p.transpose) dstBytes = ceil_div(p.kExtension, 16) * static_cast<uint64_t>((M + 15) / 16 * 16 / c0) * kFractalBytes;
    else dstBytes = ceil_div(p.mExtension, 16) * static_cast<uint64_t>(ceil_div(p.kExtension, c0)) * kFractalBytes;
    check_cube(src, Op::LoadData, loc, "src", {kRegionL1}, 32, load3d_read_extent(p, c0, wo, ho) * es);
    check_cube(dst, Op::LoadData, loc, "dst", {kRegionL0A, kRegionL0B}, kFractalBytes, dstBytes);
    const uint64_t srcOff = offset_in(src, kRegionL1);
    // SetLoadDataBoundary (bytes, for these v2 forms; 0: none): a source byte at or past the boundary is read from the
    // start of L1 on (the address wraps); the feature map must start inside it, and 1..1023 is undefined
    const uint64_t boundary = cr.load3d_boundary;
    if (boundary && boundary < 1024)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D after SetLoadDataBoundary(%llu): a boundary of 1..1023 bytes is undefined behaviour",
                 static_cast<unsigned long long>(boundary))
            .hint("set the boundary to 0 (none) or to at least 1024 bytes").fail();
    if (boundary && srcOff >= boundary)
        Report("load-params", Op::LoadData, loc)
            .msg("LoadData 3D: the feature map starts at L1 byte %llu, not inside the SetLoadDataBoundary boundary of %llu bytes",
                 static_cast<unsigned long long>(srcOff), static_cast<unsigned long long>(boundary))
            .hint("start the source inside the boundary, or set the boundary to 0").fail();
    const uint8_t* l1 = src.addr - srcOff;
    auto source_byte = [&](uint64_t rel) { return boundary ? l1 + (srcOff + rel) % boundary : src.addr + rel; };
    record(TPipe_::MTE1, TKind::INSTR, Op::LoadData, dt, 0, loc, M * K * es, M * K, static_cast<uint32_t>(dstBytes / kFractalBytes));
    if (tracing_now()) return;
    const uint64_t colFracs = (M + 15) / 16 * 16 / c0, kB = ceil_div(p.kExtension, c0), nB = ceil_div(p.kExtension, 16);
    for (uint64_t mi = 0; mi < M; ++mi) {
        const uint64_t m = p.mStartPt + mi;
        const int64_t oh = static_cast<int64_t>(m / wo), ow = static_cast<int64_t>(m % wo);
        for (uint64_t kj = 0; kj < K; ++kj) {
            const uint64_t k = p.kStartPt + kj, q = k / c0, cc = k % c0, blk = q / taps, tap = q % taps;
            const int64_t h = oh * p.strideH - p.pad[2] + static_cast<int64_t>(tap / p.filterW) * p.dilationH;
            const int64_t w = ow * p.strideW - p.pad[0] + static_cast<int64_t>(tap % p.filterW) * p.dilationW;
            const bool inside = oh < ho && h >= 0 && w >= 0 && h < static_cast<int64_t>(p.l1H) && w < static_cast<int64_t>(p.l1W);
            const uint8_t* from = inside ? source_byte(((blk * p.l1H + static_cast<uint64_t>(h)) * p.l1W + static_cast<uint64_t>(w)) * c0 * es + cc * es)
                                         : p.padValue;
            uint64_t at;   // element offset in dst
            if (toB) at = ((mi / c0) * nB + kj / 16) * 16 * c0 + (kj % 16) * c0 + mi % c0;
            else if (p.transpose) at = ((kj / 16) * colFracs + mi / c0) * 16 * c0 + (kj % 16) * c0 + mi % c0;
            else at = ((mi / 16) * kB + kj / c0) * 16 * c0 + (mi % 16) * c0 + kj % c0;
            std::memcpy(dst.addr + at * es, from, es);
        }
    }
}

// ---- L0C (+)= L0A x L0B ----------------------------------------------------------------------------------
void cube_set_nz2nd(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride, SrcLoc loc) {
    enter(Op::Fixpipe, loc);
    Core& c = core();
    c.nz2nd[0] = ndNum; c.nz2nd[1] = srcNdStride; c.nz2nd[2] = static_cast<uint16_t>(dstNdStride);
}

void cube_set_quant_pre(uint64_t config, SrcLoc loc) {
    enter(Op::Fixpipe, loc);
    core().quant_pre = config;
}

void cube_set_fpc(const Local& t, bool unitFlag, SrcLoc loc) {
    enter(Op::Fixpipe, loc);
    (void)unitFlag;
    const uint8_t pos = t.pos;
    if (pos == static_cast<uint8_t>(TPosition::CO1)) return;
    if (pos == static_cast<uint8_t>(TPosition::C2PIPE2GM)) {
        check_cube(t, Op::Fixpipe, loc, "quantPre", {kRegionFB}, 128, 0);
        Core& c = core();
        c.fpc_quant = t.addr;
        c.fpc_quant_bytes = t.cap;
        return;
    }
    Report("cube-position", Op::Fixpipe, loc)
        .msg("SetFixPipeConfig with a tensor in %s: it takes a Fixpipe-buffer tensor (TPosition::C2PIPE2GM), or an L0C one "
             "(TPosition::CO1) to reset the unit flags", position_name(pos))
        .hint("copy the quantisation vector GM -> L1 -> C2PIPE2GM first").fail();
}

void cube_fixpipe_workspace(FixpipeSpec& spec, const Local& workspace, SrcLoc loc) {
    enter(Op::Fixpipe, loc);
    if (spec.quant != VDEQF16 && spec.quant != VQF322B8_PRE && spec.quant != VREQ8) return;   // not read
    check_cube(workspace, Op::Fixpipe, loc, "cbufWorkspace", {kRegionL1}, 32, 0);
    spec.quantVec = workspace.addr;
    spec.quantVecBytes = workspace.cap;
}

// The quantisation parameter of output column j: the scalar (DEQF16, QF322B8_PRE, REQ8: deqScalar, or the register
// SetFixpipePreQuantFlag sets) or channel j's word of the per-channel vector (VDEQF16, VQF322B8_PRE, VREQ8: the one
// SetFixPipeConfig named in the Fixpipe buffer, or a cbufWorkspace in L1). A word (A2): bits 31:0 the scale M1, a float
// of which the NPU keeps the (1, 8, 10) part (the low 13 mantissa bits dropped); 35:32 N and 36 MCB (REQ8: shift the
// int32 right by N and saturate it to int16 first; QF322B8_PRE: divide by 2^N); 45:37 the offset added after the
// scale; 46 the sign (1: int8 out, 0: uint8).
namespace {
bool vector_quant(uint8_t q) { return q == VDEQF16 || q == VQF322B8_PRE || q == VREQ8; }
bool to_bytes(uint8_t q) { return q == QF322B8_PRE || q == VQF322B8_PRE || q == REQ8 || q == VREQ8; }
const char* quant_name(uint8_t q) {
    switch (q) {
    case DEQF16: return "DEQF16"; case VDEQF16: return "VDEQF16"; case QF322B8_PRE: return "QF322B8_PRE";
    case VQF322B8_PRE: return "VQF322B8_PRE"; case REQ8: return "REQ8"; case VREQ8: return "VREQ8";
    case NoQuant: return "NoQuant"; case F322F16: return "F322F16"; case F322BF16: return "F322BF16"; default: return "this mode";
    }
}
struct FixpipeQuant {
    uint8_t mode = 0;
    bool relu = false;
    // the per-channel words as the Fixpipe read them before writing (a cbufWorkspace goes to the Fixpipe buffer first: an
    // output into the same L1 bytes does not change the parameters; the asc-devkit's fixpipe_l0c2l1 scenario 3 has both at
    // L1 address 0)
    std::vector<uint64_t> vec;
    uint64_t scalar = 0;
    uint64_t word(uint32_t j) const { return vec.empty() ? scalar : vec[j]; }
    // the L0C value v of column j as the Fixpipe writes it (before the store's conversion to the output type)
    double apply(double v, uint32_t j) const {
        if (mode != DEQF16 && mode != VDEQF16 && !to_bytes(mode)) return relu && v < 0 ? 0 : v;
        const uint64_t w = word(j);
        const uint32_t bits = static_cast<uint32_t>(w) & 0xFFFFE000u;
        float m1;
        std::memcpy(&m1, &bits, 4);
        if (mode == DEQF16 || mode == VDEQF16) {
            const double x = static_cast<double>(static_cast<float>(v) * m1);
            return relu && x < 0 ? 0 : x;
        }
        const uint32_t shift = static_cast<uint32_t>((w >> 32) & 0xF);
        if ((w >> 36) & 1) {   // MCB: to int16 first
            v = (mode == REQ8 || mode == VREQ8) ? static_cast<double>(static_cast<int64_t>(v) >> shift) : v / std::ldexp(1.0, shift);
            v = std::nearbyint(std::min(32767.0, std::max(-32768.0, v)));
        }
        float x = static_cast<float>(v);
        x = x >= 0 ? x * m1 : (relu ? 0.0f : x * m1);     // M2: the same scale, or 0 with the normal ReLU
        double q = std::nearbyint(std::min(255.0, std::max(-256.0, static_cast<double>(x))));
        q += static_cast<double>((w >> 37) & 0x1FF);
        return (w >> 46) & 1 ? std::min(127.0, std::max(-128.0, q)) : std::min(255.0, std::max(0.0, q));
    }
};
FixpipeQuant fixpipe_quant(const FixpipeSpec& p, SrcLoc loc) {
    FixpipeQuant s;
    s.mode = p.quant;
    s.relu = p.relu;
    s.scalar = p.deqScalar;
    if (!vector_quant(p.quant)) return s;
    const Core& c = core();
    const uint8_t* vec = p.quantVec ? p.quantVec : c.fpc_quant;
    const uint64_t have = p.quantVec ? p.quantVecBytes : c.fpc_quant_bytes;
    if (!vec)
        Report("fixpipe-quant", Op::Fixpipe, loc)
            .msg("Fixpipe with quantPre = %s reads one parameter per output channel from the Fixpipe buffer, but no "
                 "SetFixPipeConfig named a quantisation vector there", quant_name(p.quant))
            .hint("copy the uint64_t parameters GM -> L1 (C1) -> Fixpipe buffer (C2PIPE2GM) with DataCopy, then "
                  "SetFixPipeConfig(fbTensor); or pass them as the cbufWorkspace argument").fail();
    if (have < static_cast<uint64_t>(p.nSize) * 8)
        Report("fixpipe-quant", Op::Fixpipe, loc)
            .msg("Fixpipe with quantPre = %s over %u channels (nSize), but its quantisation vector holds %llu",
                 quant_name(p.quant), p.nSize, static_cast<unsigned long long>(have / 8))
            .hint("the vector holds one uint64_t parameter per output column: give it at least nSize of them").fail();
    s.vec.resize(p.nSize);
    if (!tracing_now()) std::memcpy(s.vec.data(), vec, static_cast<uint64_t>(p.nSize) * 8);
    return s;
}
}  // namespace

void cube_fixpipe_registers(FixpipeSpec& spec, bool nz2nd) {
    const Core& c = core();
    if (nz2nd) { spec.ndNum = c.nz2nd[0]; spec.srcNdStride = c.nz2nd[1]; spec.dstNdStride = c.nz2nd[2]; }
    spec.deqScalar = c.quant_pre;
}

void cube_set_hf32(bool on, SrcLoc loc) {
    enter(Op::Mmad, loc);
    core().hf32 = on;
}

// HF32 mode with fp32 operands: the NPU rounds them to HF32 first; the emulation computes in fp32 and says so once
static void warn_hf32(Dt aDt, Op op, const SrcLoc& loc) {
    if (aDt != Dt::f32 || !core().hf32 || !first_report_at("hf32-not-emulated", loc)) return;
    Report("hf32-not-emulated", op, loc)
        .msg("an fp32 matrix product in HF32 mode (SetHF32Mode / Matmul::SetHF32): the NPU rounds the fp32 inputs to "
             "HF32 first; the emulation multiplies the full fp32 values, so its result can be more precise than the NPU's")
        .hint("compare with a tolerance for HF32 (about 1e-3 relative), or leave HF32 mode off for fp32-exact products")
        .warn();
}

// One row of C: row `a` of A (k values) times B (k rows of n values) added into acc[0..n). Each acc[j] still sums its k
// products in k order, in fp32, each product rounded to fp32 first (the same sums, bit for bit, as a loop over k for
// each element); with j innermost over a contiguous row of B the elements are independent and the compiler
// vectorises across them (the loop over k per element waited on each add and strode through B: 4096^3 took minutes).
static void row_product(const double* a, const double* b, uint32_t k, uint32_t n, float* acc) {
    for (uint32_t kk = 0; kk < k; ++kk) {
        const double x = a[kk];
        const double* brow = b + static_cast<size_t>(kk) * n;
        for (uint32_t j = 0; j < n; ++j) acc[j] += static_cast<float>(x * brow[j]);
    }
}
// Operands of these types hold floats exactly, and the product of two floats is exact in double: rounding it to fp32
// gives what fp32's own multiply gives. The fp32 row product then has the same bits with twice the lanes.
static bool float_exact(Dt dt, bool int4) {
    return int4 || dt == Dt::f16 || dt == Dt::bf16 || dt == Dt::f32 || dt == Dt::i8 || dt == Dt::u8 || dt == Dt::i16 || dt == Dt::u16;
}
static void row_product(const float* a, const float* b, uint32_t k, uint32_t n, float* acc) {
    for (uint32_t kk = 0; kk < k; ++kk) {
        const float x = a[kk];
        const float* brow = b + static_cast<size_t>(kk) * n;
        for (uint32_t j = 0; j < n; ++j) acc[j] += x * brow[j];
    }
}
// C's rows in fp32: with exact float operands as floats (above), else in double as the products were always taken
static void rows_product(const std::vector<double>& av, const std::vector<double>& bv, uint32_t k, uint32_t n, bool exact,
                         const std::function<void(uint32_t, float*)>& start, const std::function<void(uint32_t, const float*)>& done,
                         uint32_t m) {
    std::vector<float> acc(n), af, bf;
    if (exact) {
        af.assign(av.begin(), av.end());
        bf.assign(bv.begin(), bv.end());
    }
    for (uint32_t i = 0; i < m; ++i) {
        start(i, acc.data());
        if (exact) row_product(&af[static_cast<size_t>(i) * k], bf.data(), k, n, acc.data());
        else row_product(&av[static_cast<size_t>(i) * k], bv.data(), k, n, acc.data());
        done(i, acc.data());
    }
}
static void row_product(const double* a, const double* b, uint32_t k, uint32_t n, int64_t* acc) {
    for (uint32_t kk = 0; kk < k; ++kk) {
        const int64_t x = static_cast<int64_t>(a[kk]);
        const double* brow = b + static_cast<size_t>(kk) * n;
        for (uint32_t j = 0; j < n; ++j) acc[j] += x * static_cast<int64_t>(brow[j]);
    }
}

void cube_mmad(Dt cDt, Dt aDt, Dt bDt, const Local& cIn, const Local& aIn, const Local& bIn, const MmadSpec& spec, SrcLoc loc,
               const Local* bias) {
    enter(Op::Mmad, loc);
    const Local c = unplaced_at_start(cIn, kRegionL0C, Op::Mmad, "dst", loc), a = unplaced_at_start(aIn, kRegionL0A, Op::Mmad, "fm", loc),
                b = unplaced_at_start(bIn, kRegionL0B, Op::Mmad, "filter", loc);
    MmadSpec p = spec;
    if (p.m == 0 || p.n == 0 || p.k == 0 || p.m > 4095 || p.n > 4095 || p.k > 4095)
        Report("mmad-params", Op::Mmad, loc)
            .msg("Mmad with m = %u, n = %u, k = %u; each must be 1..4095", p.m, p.n, p.k)
            .hint("split the matrix product into base blocks (baseM x baseN x baseK)").fail();
    // a bias tensor in L0C (TPosition::CO1): AscendC's Mmad with a bias takes C's source from the tensor's position,
    // the bias table (C2) or L0C (CO1: cmatrixSource = false, which initialises nothing), so C starts from 0
    // (cmatrixInitVal) or from dst's own L0C contents, as without a bias (SpMM-AscendC passes dst itself to accumulate)
    if (bias && region_of_local(*bias) == kRegionL0C) {
        if (bias->addr != c.addr)
            unsupported_call(Op::Mmad, "Mmad with a bias tensor in L0C other than dst is not emulated (L0C as C's "
                             "source is dst's own contents)", "pass dst itself, or put the bias in the bias table (C2)", loc);
        bias = nullptr;
        p.fromBias = false;
        p.initZero = p.biasFormInitVal;
    }
    // cmatrixSource = true in the form without a bias tensor: with cmatrixInitVal = false, C starts from the bias table
    // (BT, TPosition::C2), read from its start (the API reference names the buffer and no address; the form passes
    // none); with cmatrixInitVal = true C starts from 0, as the reference says of that flag
    Local fromTable;
    if (p.fromBias && !bias && !p.initZero) {
        fromTable.addr = cube_base(kRegionBT);
        fromTable.bytes = fromTable.cap = cube_region_bytes(kRegionBT);
        fromTable.pos = static_cast<uint8_t>(TPosition::C2);
        bias = &fromTable;
    }
    // int4b_t: C0 = 64 elements (32 bytes), two per byte with the even element in the low half; k must be even
    if (p.int4 && p.k % 2 != 0)
        Report("mmad-params", Op::Mmad, loc)
            .msg("Mmad on int4b_t data with k = %u; k must be even (two 4-bit elements per byte)", p.k)
            .hint("pad K to an even count (the padding elements 0)").fail();
    const uint32_t c0 = p.int4 ? 64 : c0_of(aDt);
    // kDirectionAlign (fp32 only: c0 = 8): K is laid out rounded up to 16 (two fractals per 16), as a transposing LoadData
    // 3D leaves it; for the other types c0 is already 16 or more and the flag changes nothing
    const uint32_t mB = ceil_div(p.m, 16), nB = ceil_div(p.n, 16),
                   kB = p.kAlign16 && c0 < 16 ? ceil_div(p.k, 16) * (16 / c0) : ceil_div(p.k, c0);
    // GEMV (A2 switches it on by itself when m = 1): A is one row of k elements stored one after another from its
    // 512-byte-aligned start (not a 16-row ZZ fractal row), so L0A holds k elements rounded up to whole fractals;
    // C keeps its NZ layout, row 0 of each 16 x 16 fractal being the result.
    const bool gemv = p.m == 1;
    const uint32_t as = dt_size(aDt), bs = dt_size(bDt);
    // element e of an operand: e * size bytes in, or for int4b_t the half-byte e (sign-extended from 4 bits)
    auto elem = [&](Dt dt, uint32_t size, const uint8_t* base, uint64_t e) -> double {
        if (!p.int4) return load_d(dt, base + e * size);
        const uint8_t byte = base[e / 2];
        const int v = (byte >> (4 * (e % 2))) & 0xF;
        return v >= 8 ? v - 16 : v;
    };
    const uint64_t aBytes = gemv ? ((p.int4 ? (static_cast<uint64_t>(p.k) + 1) / 2 : static_cast<uint64_t>(p.k) * as) +
                                    kFractalBytes - 1) / kFractalBytes * kFractalBytes
                                 : static_cast<uint64_t>(mB) * kB * kFractalBytes;
    check_cube(a, Op::Mmad, loc, "fm", {kRegionL0A}, kFractalBytes, aBytes);
    check_cube(b, Op::Mmad, loc, "filter", {kRegionL0B}, kFractalBytes, static_cast<uint64_t>(kB) * nB * kFractalBytes);
    check_cube(c, Op::Mmad, loc, "dst", {kRegionL0C}, 64, static_cast<uint64_t>(mB) * nB * 256 * 4);
    if (bias) check_cube(*bias, Op::Mmad, loc, "bias", {kRegionBT}, 64, static_cast<uint64_t>(p.n) * 4);
    // one cycle per 16 x C0 x 16 fractal product: 16x16x16 for half/bf16, 16x32x16 for int8, 16x8x16 for float
    record(TPipe_::M, TKind::INSTR, Op::Mmad, aDt, 0, loc, aBytes + static_cast<uint64_t>(kB) * nB * kFractalBytes,
           static_cast<uint64_t>(p.m) * p.n * p.k, mB * nB * kB);
    if (tracing_now()) return;
    warn_hf32(aDt, Op::Mmad, loc);
    const bool integer = cDt == Dt::i32;
    std::vector<double> av(static_cast<size_t>(p.m) * p.k), bv(static_cast<size_t>(p.k) * p.n);
    for (uint32_t i = 0; i < p.m; ++i)  // L0A: ZZ, or the GEMV row
        for (uint32_t kk = 0; kk < p.k; ++kk)
            av[static_cast<size_t>(i) * p.k + kk] = elem(aDt, as, a.addr, gemv ? static_cast<uint64_t>(kk)
                : (static_cast<uint64_t>(i / 16) * kB + kk / c0) * 16 * c0 + (i % 16) * c0 + kk % c0);
    for (uint32_t kk = 0; kk < p.k; ++kk)  // L0B: ZN
        for (uint32_t j = 0; j < p.n; ++j)
            bv[static_cast<size_t>(kk) * p.n + j] = elem(bDt, bs, b.addr, (static_cast<uint64_t>(kk / c0) * nB + j / 16) * 16 * c0 + (j % 16) * c0 + kk % c0);
    auto out = [&](uint32_t i, uint32_t j) { return c.addr + ((static_cast<uint64_t>(j / 16) * mB + i / 16) * 256 + (i % 16) * 16 + j % 16) * 4; };
    if (integer) {
        std::vector<int64_t> acc(p.n);
        for (uint32_t i = 0; i < p.m; ++i) {
            std::fill(acc.begin(), acc.end(), 0);
            row_product(&av[static_cast<size_t>(i) * p.k], bv.data(), p.k, p.n, acc.data());
            for (uint32_t j = 0; j < p.n; ++j) {
                int32_t prev = 0;
                if (bias) std::memcpy(&prev, bias->addr + static_cast<uint64_t>(j) * 4, 4);   // C starts from the bias row
                else if (!p.initZero) std::memcpy(&prev, out(i, j), 4);
                int32_t r = static_cast<int32_t>(static_cast<uint32_t>(prev) + static_cast<uint32_t>(acc[j]));
                std::memcpy(out(i, j), &r, 4);
            }
        }
        return;
    }
    rows_product(av, bv, p.k, p.n, float_exact(aDt, p.int4) && float_exact(bDt, p.int4),
        [&](uint32_t i, float* acc) {   // products of half/bf16 are exact in fp32; the sum accumulates in fp32
            for (uint32_t j = 0; j < p.n; ++j) {
                acc[j] = 0;
                if (bias) std::memcpy(&acc[j], bias->addr + static_cast<uint64_t>(j) * 4, 4);    // C starts from the bias row
                else if (!p.initZero) std::memcpy(&acc[j], out(i, j), 4);
            }
        },
        [&](uint32_t i, const float* acc) { for (uint32_t j = 0; j < p.n; ++j) std::memcpy(out(i, j), &acc[j], 4); }, p.m);
}

// ---- L0C -> GM -------------------------------------------------------------------------------------------
// The NZ output of a Fixpipe (NZ2NZ: to L1 always on A2, to GM with CFG_NZ / no nz2ndEn). The output is cut into Z
// columns of W channels: 16 (half, bfloat16_t, float, int32_t), 8 for float with the channel split (16 x 8 fractals), 32
// for int8_t / uint8_t (the channel merge: two neighbouring 16-channel groups make one 16 x 32 fractal; when nSize / 16
// is odd the last 16 channels stay a group of 16). A Z column holds the mSize rows one after the other, each its width x
// the output size in bytes; Z column g starts g x dstStride x 32 bytes after the destination's start.
namespace {
struct NzOut {
    uint32_t w = 16, os = 2, nSize = 0, mSize = 0;
    uint64_t stride = 0;   // bytes between Z columns
    uint32_t columns() const { return ceil_div(nSize, w); }
    uint32_t width(uint32_t g) const { return std::min(w, nSize - g * w); }
    uint64_t at(uint32_t i, uint32_t j) const {
        const uint32_t g = j / w;
        return g * stride + (static_cast<uint64_t>(i) * width(g) + j % w) * os;
    }
    uint64_t column_bytes(uint32_t g) const { return static_cast<uint64_t>(mSize) * width(g) * os; }
    uint64_t span() const { return (columns() - 1) * stride + column_bytes(columns() - 1); }
};
const char* to_where(bool l1) { return l1 ? "L1" : "GM"; }
// the L0C bytes an NZ -> NZ Fixpipe reads: its 16-column groups srcStride rows apart, mSize rows of 16 values each
uint64_t l0c_read(const FixpipeSpec& p) {
    return (static_cast<uint64_t>(ceil_div(p.nSize, 16) - 1) * p.srcStride + p.mSize) * 16 * 4;
}
// The NZ layout of p's output as `dstDt`, its sizes and dstStride checked (a misuse is an error at the call's line)
NzOut nz_out(Dt dstDt, Dt srcDt, const FixpipeSpec& p, bool l1, SrcLoc loc) {
    NzOut o;
    o.os = dt_size(dstDt);
    o.w = o.os == 1 ? 32 : 16;
    const bool split = p.channelSplit && !l1;   // L0C -> L1 reads no channelSplit
    if (split) {
        if (srcDt != Dt::f32 || dstDt != Dt::f32)
            Report("fixpipe-params", Op::Fixpipe, loc)
                .msg("Fixpipe with the channel split from %s in L0C to %s: the split applies to float in and float out only",
                     dt_name(srcDt), dt_name(dstDt))
                .hint("leave isChannelSplit / channelSplit false for a quantised or cast output").fail();
        o.w = 8;
    }
    o.nSize = p.nSize; o.mSize = p.mSize;
    o.stride = static_cast<uint64_t>(p.dstStride) * 32;
    if (p.nSize % (split ? 8 : 16) != 0)
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe NZ -> NZ to %s with nSize = %u: nSize is a multiple of %u here", to_where(l1), p.nSize, split ? 8 : 16)
            .hint(split ? "with the channel split nSize counts 16 x 8 fractals: round it up to 8"
                        : "nSize counts whole 16-column fractals of L0C: round it up to 16").fail();
    // srcStride is read from the second 16-column group of L0C on (ops-nn's conv3d_backprop_input_v2 moves one group
    // with srcStride = 1)
    if (p.nSize > 16 && (p.srcStride < p.mSize || p.srcStride % 16 != 0))
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe with srcStride = %u for mSize = %u: srcStride is the L0C distance between fractal columns in rows, a "
                 "multiple of 16 and at least mSize", p.srcStride, p.mSize)
            .hint("use srcStride = (mSize + 15) / 16 * 16").fail();
    if (p.dstStride == 0 || (o.columns() > 1 && o.stride < o.column_bytes(0)))
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe NZ -> NZ to %s with dstStride = %u (x 32 bytes) for mSize = %u rows of %u %s channels a Z column "
                 "(%llu bytes): the Z columns would overlap", to_where(l1), p.dstStride, p.mSize, o.w, dt_name(dstDt),
                 static_cast<unsigned long long>(o.column_bytes(0)))
            .hint("dstStride is the distance between the output's Z columns in 32-byte blocks: at least mSize x %u x %u / 32 "
                  "(%s)", o.w, o.os, o.os == 1 ? "8-bit output merges two 16-channel fractals into one 16 x 32"
                                                 : split ? "the channel split makes 16 x 8 fractals"
                                                         : "16 channels a Z column").fail();
    return o;
}
// the quantisation must turn the L0C type into the output type (A2's pairs; to L1 there is no float or int32_t out)
void check_conversion(Dt dstDt, Dt srcDt, uint8_t quant, bool l1, SrcLoc loc) {
    const bool ok = (!l1 && srcDt == Dt::f32 && dstDt == Dt::f32 && quant == NoQuant) ||
                    (srcDt == Dt::f32 && dstDt == Dt::f16 && quant == F322F16) ||
                    (srcDt == Dt::f32 && dstDt == Dt::bf16 && quant == F322BF16) ||
                    (!l1 && srcDt == Dt::i32 && dstDt == Dt::i32 && quant == NoQuant) ||
                    (srcDt == Dt::i32 && dstDt == Dt::f16 && (quant == DEQF16 || quant == VDEQF16)) ||
                    (srcDt == Dt::i32 && (dstDt == Dt::i8 || dstDt == Dt::u8) && (quant == REQ8 || quant == VREQ8)) ||
                    (srcDt == Dt::f32 && (dstDt == Dt::i8 || dstDt == Dt::u8) && (quant == QF322B8_PRE || quant == VQF322B8_PRE));
    if (ok) return;
    Report("fixpipe-quant", Op::Fixpipe, loc)
        .msg("Fixpipe from %s in L0C to %s in %s with quantPre = %s: that conversion is not one Fixpipe makes",
             dt_name(srcDt), dt_name(dstDt), to_where(l1),
             quant <= VREQ8 ? quant_name(quant) : std::to_string(quant).c_str())
        .hint(l1 ? "to L1: float -> half needs quantPre = QuantMode_t::F322F16, float -> bfloat16_t F322BF16, int32 -> half "
                   "DEQF16 / VDEQF16, int32 -> int8 / uint8 REQ8 / VREQ8, float -> int8 / uint8 QF322B8_PRE / VQF322B8_PRE "
                   "(float and int32_t do not go to L1 on A2)"
                 : "float -> half needs quantPre = QuantMode_t::F322F16, float -> bfloat16_t F322BF16; float -> float and "
                   "int32 -> int32 need NoQuant; int32 -> half DEQF16 (one scale) or VDEQF16 (one a channel); int32 -> "
                   "int8 / uint8 REQ8 or VREQ8, float -> int8 / uint8 QF322B8_PRE or VQF322B8_PRE")
        .fail();
}
}  // namespace

// Fixpipe L0C -> L1 (A2: always NZ -> NZ; CFG_ROW_MAJOR does not apply on this path): the mSize x nSize block, converted
// as quantPre says, in the NZ layout above (half / bfloat16_t: 16 channels a Z column; int8_t / uint8_t: 32), adjacent Z
// columns dstStride x 32 bytes apart. So a requantised int8 result can feed a second Mmad from L1.
static void cube_fixpipe_l1(Dt dstDt, Dt srcDt, const Local& dst, const Local& src, const FixpipeSpec& p, SrcLoc loc) {
    check_conversion(dstDt, srcDt, p.quant, true, loc);
    if (p.mSize == 0 || p.nSize == 0) return;
    const NzOut o = nz_out(dstDt, srcDt, p, true, loc);
    check_cube(src, Op::Fixpipe, loc, "src", {kRegionL0C}, 64, l0c_read(p));
    check_cube(dst, Op::Fixpipe, loc, "dst", {kRegionL1}, 32, o.span());
    const FixpipeQuant quant = fixpipe_quant(p, loc);
    record(TPipe_::FIX, TKind::INSTR, Op::Fixpipe, dstDt, 0, loc, static_cast<uint64_t>(p.mSize) * p.nSize * o.os,
           static_cast<uint64_t>(p.mSize) * p.nSize, p.mSize);
    if (tracing_now()) return;
    for (uint32_t i = 0; i < p.mSize; ++i)
        for (uint32_t j = 0; j < p.nSize; ++j) {
            const double v = quant.apply(load_d(srcDt, src.addr + ((static_cast<uint64_t>(j / 16) * p.srcStride + i) * 16 + j % 16) * 4), j);
            // a requantised byte is written as the sign bit made it, whatever the tensor's declared byte type
            store_cube(to_bytes(p.quant) ? (v < 0 ? Dt::i8 : Dt::u8) : dstDt, dst.addr + o.at(i, j), v);
        }
}

// An L0C -> GM element under an atomic mode: the value as the Fixpipe writes it (converted to the destination type),
// combined with the destination's in the atomic mode's way; the sum is rounded once more when stored.
static double fixpipe_atomic(const Core* c, Dt dstDt, const uint8_t* at, double v) {
    uint8_t conv[8];
    store_cube(dstDt, conv, v);
    v = load_d(dstDt, conv);
    const double old = load_d(dstDt, at);
    if (c->atomic_mode == AtomicMode::add) return old + v;
    return c->atomic_mode == AtomicMode::max ? std::max(old, v) : std::min(old, v);
}

// Fixpipe L0C -> GM with the NZ output layout (CFG_NZ; DataCopy without nz2ndEn; FixpipeParams<T> without nz2ndEn):
// the mSize x nSize block in the Z columns of NzOut, converted as quantPre says; an atomic mode combines as below.
static void cube_fixpipe_gm_nz(Dt dstDt, Dt srcDt, void* gm, const Local& src, const FixpipeSpec& p, SrcLoc loc) {
    check_conversion(dstDt, srcDt, p.quant, false, loc);
    const NzOut o = nz_out(dstDt, srcDt, p, false, loc);
    check_cube(src, Op::Fixpipe, loc, "src", {kRegionL0C}, 64, l0c_read(p));
    if (reinterpret_cast<uintptr_t>(gm) % 32 != 0)
        Report("cube-misaligned", Op::Fixpipe, loc)
            .msg("Fixpipe NZ -> NZ to a GM address %llu bytes past a 32-byte boundary: NZ output in GM is 32-byte aligned",
                 static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(gm) % 32))
            .hint("start the output at a multiple of 32 bytes (ND output, CFG_ROW_MAJOR, takes any byte address)").fail();
    const FixpipeQuant quant = fixpipe_quant(p, loc);
    const GmBuffer& g = check_gm(gm, o.span(), true, Op::Fixpipe, loc);
    uint8_t* d = static_cast<uint8_t*>(gm);
    for (uint32_t c = 0; c < o.columns(); ++c) track_gm_write(d + c * o.stride, o.column_bytes(c), Op::Fixpipe, loc);
    record_gm(TPipe_::FIX, Op::Fixpipe, dstDt, 0, loc, static_cast<uint64_t>(p.mSize) * p.nSize * o.os,
              static_cast<uint64_t>(p.mSize) * p.nSize, o.columns(), static_cast<uint32_t>(o.column_bytes(0)),
              GmPlace{&g, gm, o.stride});
    if (tracing_now() || !g.real) return;
    const Core* atomic = core().atomic_add ? &core() : nullptr;
    for (uint32_t i = 0; i < p.mSize; ++i)
        for (uint32_t j = 0; j < p.nSize; ++j) {
            double v = quant.apply(load_d(srcDt, src.addr + ((static_cast<uint64_t>(j / 16) * p.srcStride + i) * 16 + j % 16) * 4), j);
            uint8_t* at = gm_target(g, d) + o.at(i, j);
            if (atomic) v = fixpipe_atomic(atomic, dstDt, at, v);
            store_cube(to_bytes(p.quant) ? (v < 0 ? Dt::i8 : Dt::u8) : dstDt, at, v);
        }
}

void cube_fixpipe(Dt dstDt, Dt srcDt, void* gm, const Local* localDst, const Local& srcIn, const FixpipeSpec& p, SrcLoc loc) {
    enter(Op::Fixpipe, loc);
    const Local src = unplaced_at_start(srcIn, kRegionL0C, Op::Fixpipe, "src", loc);
    if (localDst) return cube_fixpipe_l1(dstDt, srcDt, *localDst, src, p, loc);
    if (!gm) unsupported_call(Op::Fixpipe, "Fixpipe into this destination is not emulated", "Fixpipe into a GlobalTensor", loc);
    if (p.mSize == 0 || p.nSize == 0) return;   // a NOP, as documented
    if (p.layout == static_cast<uint8_t>(AscendC::CO2Layout::NZ)) return cube_fixpipe_gm_nz(dstDt, srcDt, gm, src, p, loc);
    if (p.layout != static_cast<uint8_t>(AscendC::CO2Layout::ROW_MAJOR))
        unsupported_call(Op::Fixpipe, "Fixpipe to GM with the column-major (NZ2DN) output layout is not emulated: Ascend 950 "
                         "has it, A2 does not", "use Fixpipe<T, U, CFG_ROW_MAJOR> (NZ -> ND) or CFG_NZ", loc);
    if (p.channelSplit)
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe with the channel split and the ND output (NZ2ND): the split applies to NZ output only")
            .hint("leave isChannelSplit / channelSplit false with CFG_ROW_MAJOR / nz2ndEn, or write NZ (CFG_NZ)").fail();
    if (p.ndNum == 0) return;
    // ndNum > 1: ndNum NZ matrices, srcNdStride x 1024 bytes apart in L0C, go to ndNum ND matrices dstNdStride elements apart
    if (p.ndNum > 1) {
        if (p.srcNdStride == 0 || p.srcNdStride > 512)
            Report("fixpipe-params", Op::Fixpipe, loc)
                .msg("Fixpipe with ndNum = %u and srcNdStride = %u: the L0C distance between the NZ matrices is 1..512 units of "
                     "1024 bytes (16 x 16 floats)", p.ndNum, p.srcNdStride)
                .hint("srcNdStride = ceil(m / 16) * ceil(n / 16) for matrices one after the other").fail();
        FixpipeSpec one = p;
        one.ndNum = 1;
        const uint32_t os = dt_size(dstDt);
        for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
            Local s = src;
            const uint64_t off = static_cast<uint64_t>(nd) * p.srcNdStride * 1024;
            s.addr += off; s.cap = s.cap > off ? static_cast<uint32_t>(s.cap - off) : 0; s.bytes = s.cap;
            cube_fixpipe(dstDt, srcDt, static_cast<uint8_t*>(gm) + static_cast<uint64_t>(nd) * p.dstNdStride * os, nullptr, s, one, loc);
        }
        return;
    }
    check_conversion(dstDt, srcDt, p.quant, false, loc);
    if (p.srcStride < p.mSize || p.srcStride % 16 != 0)
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe with srcStride = %u for mSize = %u: srcStride is the L0C distance between fractal columns in rows, a "
                 "multiple of 16 and at least mSize", p.srcStride, p.mSize)
            .hint("use srcStride = (mSize + 15) / 16 * 16").fail();
    if (p.dstStride < p.nSize)
        Report("fixpipe-params", Op::Fixpipe, loc)
            .msg("Fixpipe with dstStride = %u for nSize = %u: the output rows would overlap", p.dstStride, p.nSize)
            .hint("dstStride is the output row length in elements (N of the output matrix)").fail();
    const uint32_t nB = ceil_div(p.nSize, 16);
    // (the last 16-column group is read for its mSize rows (whole 16-row fractals), not srcStride: cann-ops mmad moves its
    // one group with srcStride 64 from an L0C buffer of 32 rows)
    check_cube(src, Op::Fixpipe, loc, "src", {kRegionL0C}, 64,
               (static_cast<uint64_t>(nB - 1) * p.srcStride * 16 + static_cast<uint64_t>(ceil_div(p.mSize, 16)) * 16 * 16) * 4);
    const FixpipeQuant quant = fixpipe_quant(p, loc);
    const uint32_t os = dt_size(dstDt);
    const uint64_t span = (static_cast<uint64_t>(p.mSize - 1) * p.dstStride + p.nSize) * os;
    const GmBuffer& g = check_gm(gm, span, true, Op::Fixpipe, loc);
    uint8_t* d = static_cast<uint8_t*>(gm);
    for (uint32_t i = 0; i < p.mSize; ++i) track_gm_write(d + static_cast<uint64_t>(i) * p.dstStride * os, static_cast<uint64_t>(p.nSize) * os, Op::Fixpipe, loc);
    record_gm(TPipe_::FIX, Op::Fixpipe, dstDt, 0, loc, static_cast<uint64_t>(p.mSize) * p.nSize * os,
              static_cast<uint64_t>(p.mSize) * p.nSize, p.mSize, p.nSize * os, GmPlace{&g, gm, static_cast<uint64_t>(p.dstStride) * os});
    if (tracing_now() || !g.real) return;
    // SetAtomicAdd / Max / Min before it: the FIX pipe's write to GM combines with what is there (catlass's split-K
    // kernels accumulate each K slice into C so), as the MTE3 copies from UB do
    const Core* atomic = core().atomic_add ? &core() : nullptr;
    for (uint32_t i = 0; i < p.mSize; ++i)
        for (uint32_t j = 0; j < p.nSize; ++j) {
            const uint8_t* s = src.addr + ((static_cast<uint64_t>(j / 16) * p.srcStride + i) * 16 + j % 16) * 4;
            double v = quant.apply(load_d(srcDt, s), j);
            uint8_t* at = gm_target(g, d) + (static_cast<uint64_t>(i) * p.dstStride + j) * os;
            if (atomic) v = fixpipe_atomic(atomic, dstDt, at, v);
            // a requantised byte is written as the sign bit made it, whatever the tensor's declared byte type
            store_cube(to_bytes(p.quant) ? (v < 0 ? Dt::i8 : Dt::u8) : dstDt, at, v);
        }
}

// ---- the Matmul high-level API -------------------------------------------------------------------------
void matmul_misuse(const char* message, const char* hint, SrcLoc loc) {
    enter(Op::Matmul, loc);
    Report("matmul-usage", Op::Matmul, loc).msg("%s", message).hint("%s", hint).fail();
}

MatmulL1Plan matmul_l1_plan(const TCubeTilingView& t, int singleK, uint32_t aBytes, uint32_t bBytes, bool bias, SrcLoc loc) {
    auto at_least_1 = [](int v) { return static_cast<uint64_t>(v > 1 ? v : 1); };
    const uint64_t blockA = static_cast<uint64_t>(t.baseM) * t.baseK * aBytes, blockB = static_cast<uint64_t>(t.baseN) * t.baseK * bBytes;
    const uint64_t l1A = at_least_1(t.depthA1) * blockA, l1B = at_least_1(t.depthB1) * blockB;
    const uint64_t l1 = l1A + l1B + (bias ? static_cast<uint64_t>(t.baseN) * 4 : 0);
    const uint32_t capL1 = cube_region_bytes(kRegionL1);
    if (l1 > capL1) {
        enter(Op::Matmul, loc);
        Report("l1-overflow", Op::Matmul, loc)
            .msg("Matmul: the tiling keeps %d base blocks of A (%d x %d) and %d of B (%d x %d) in L1: %llu bytes, but L1 has %u",
                 static_cast<int>(at_least_1(t.depthA1)), t.baseM, t.baseK, static_cast<int>(at_least_1(t.depthB1)), t.baseN,
                 t.baseK, static_cast<unsigned long long>(l1), capL1)
            .val("bytes_needed", static_cast<int64_t>(l1)).val("capacity", capL1)
            .hint("lower depthA1 / depthB1 (stepM x stepKa, stepN x stepKb) or the base block, so that "
                  "depthA1 x baseM x baseK + depthB1 x baseN x baseK elements fit in %u bytes", capL1)
            .fail();
    }
    struct L0 { const char* name; uint8_t region; uint64_t bytes; };
    // one base block must fit (dbL0A/B/C ask for double buffers where they fit; the emulation does not time them)
    const L0 l0s[] = {{"L0A", kRegionL0A, blockA}, {"L0B", kRegionL0B, blockB},
                      {"L0C", kRegionL0C, static_cast<uint64_t>(t.baseM) * t.baseN * 4}};
    for (const L0& b : l0s)
        if (b.bytes > cube_region_bytes(b.region)) {
            enter(Op::Matmul, loc);
            Report("l0-overflow", Op::Matmul, loc)
                .msg("Matmul: the tiling's base block (baseM %d, baseN %d, baseK %d) needs %llu bytes of %s, which has %u", t.baseM, t.baseN, t.baseK, static_cast<unsigned long long>(b.bytes),
                     b.name, cube_region_bytes(b.region))
                .val("bytes_needed", static_cast<int64_t>(b.bytes)).val("capacity", cube_region_bytes(b.region))
                .hint("make the base block smaller: baseM x baseK elements fit L0A, baseN x baseK L0B, "
                      "baseM x baseN x 4 bytes L0C")
                .fail();
        }
    MatmulL1Plan plan;
    const int64_t panel = static_cast<int64_t>(singleK);
    plan.reuseA = at_least_1(t.stepKa) * t.baseK >= static_cast<uint64_t>(panel) &&
                  at_least_1(t.depthA1) >= at_least_1(t.stepM) * at_least_1(t.stepKa);
    plan.reuseB = at_least_1(t.stepKb) * t.baseK >= static_cast<uint64_t>(panel) &&
                  at_least_1(t.depthB1) >= at_least_1(t.stepN) * at_least_1(t.stepKb);
    return plan;
}

void matmul_block(const MatmulCall& p, SrcLoc loc) {
    enter(Op::Matmul, loc);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    if (!tracing_now()) warn_hf32(p.aDt, Op::Matmul, loc);
    const uint32_t as = dt_size(p.aDt), bs = dt_size(p.bDt), cs = dt_size(p.cDt);
    // int4 operands (p.int4, aDt = bDt = int8): two elements per byte, the even one in the low 4 bits
    auto aBytes = [&](uint64_t elems) { return p.int4 ? (elems + 1) / 2 : elems * as; };
    auto bBytes = [&](uint64_t elems) { return p.int4 ? (elems + 1) / 2 : elems * bs; };
    // Where the element at (row r, column c) of the matrix as stored (A or A^T, B or B^T) lies: ND, row r of `ld`
    // elements; NZ, column block c / c0 (c0 = 32 bytes of elements) of `rows` x c0 elements, row r of c0 in it
    const uint32_t aC0 = 32 / as, bC0 = 32 / bs;
    auto aIdx = [&](uint64_t r, uint64_t col) -> uint64_t {
        return p.aNz ? (col / aC0) * p.aRows * aC0 + r * aC0 + col % aC0 : r * p.lda + col;
    };
    auto bIdx = [&](uint64_t r, uint64_t col) -> uint64_t {
        return p.bNz ? (col / bC0) * p.bRows * bC0 + r * bC0 + col % bC0 : r * p.ldb + col;
    };
    // A's element (i, kk) of the block and B's (kk, j), in elements from the operand's address
    const uint32_t aRow0 = p.aOwnRows ? 0 : p.row0;
    auto aAt = [&](uint32_t i, uint32_t kk) { return p.aTrans ? aIdx(kk, aRow0 + i) : aIdx(aRow0 + i, kk); };
    auto bAt = [&](uint32_t kk, uint32_t j) { return p.bTrans ? bIdx(p.col0 + j, kk) : bIdx(kk, p.col0 + j); };
    // A's block: rows row0.. of A (or columns of A^T), all of k; B's: columns col0.. of B (or rows of B^T); the last
    // element is the furthest in either format (NZ: the last column block, its last row)
    const uint64_t aSpan = aBytes(aAt(p.m - 1, p.k - 1) + 1);
    // a 4:2 sparse B (p.sparseIndex): B^T stored densified, N rows of K / 2 (2 of every 4 along K), ldb its row length
    const uint32_t kStoredB = p.sparseIndex ? p.k / 2 : p.k;
    const uint64_t bSpan = p.sparseIndex ? (static_cast<uint64_t>(p.col0 + p.n - 1) * p.ldb + kStoredB) * bs
                                         : bBytes(bAt(p.k - 1, p.n - 1) + 1);
    if (p.sparseIndex) {
        if (!p.bTrans || p.aDt != Dt::i8 || p.aTrans || p.aNz || p.bNz || p.int4 || p.k % 8)
            Report("matmul-usage", Op::Matmul, loc)
                .msg("Matmul: a 4:2 sparse B (SparseMatmulType with SetSparseIndex) is emulated for int8_t A (ND, not "
                     "transposed) and B^T (ND, densified to N x K / 2) with K a multiple of 8")
                .hint("use int8_t operands, B transposed (ISTRANS = true), ND formats").fail();
        // the index matrix: N rows of K / 8 bytes (four 2-bit indices a byte, the first in the low bits), in NZ fractals
        // of 16 rows x 8 bytes, column block after column block, each `sparseRows` (N rounded up to 16) rows tall
        const uint64_t lastByte = kStoredB / 4 - 1;
        check_gm(p.sparseIndex, (lastByte / 8) * p.sparseRows * 8 + static_cast<uint64_t>(p.col0 + p.n - 1) * 8 + lastByte % 8 + 1,
                 false, Op::Matmul, loc);
    }
    if ((p.aTrans ? p.lda < p.row0 + p.m : p.lda < p.k) || (p.bTrans ? p.ldb < kStoredB : p.ldb < p.col0 + p.n))
        Report("matmul-usage", Op::Matmul, loc)
            .msg("Matmul: the org shape (M, N, Ka, Kb) of the tiling or SetOrgShape is smaller than the single-core shape it "
                 "holds (A row stride %u, B row stride %u for a %u x %u x %u block)", p.lda, p.ldb, p.m, p.n, p.k)
            .hint("set M, N, Ka and Kb to the full matrices' shapes, and singleCoreM/N/K to one core's part").fail();
    // an operand from a LocalTensor: TSCM (L1) or VECOUT (UB), its span inside the tensor; else from GM
    auto local_operand = [&](const Local& t, uint64_t span, const char* role) {
        if (t.pos == static_cast<uint8_t>(AscendC::TPosition::TSCM) || region_of_local(t) == kRegionL1) {
            check_cube(t, Op::Matmul, loc, role, {kRegionL1}, 32, span);
        } else {
            check_local(t, Op::Matmul, loc, role, 32);
            check_extent(t, span, Op::Matmul, loc, role);
        }
    };
    if (p.aLocal) local_operand(*p.aLocal, aSpan, "A");
    if (p.bLocal) local_operand(*p.bLocal, bSpan, "B");
    const GmBuffer* ga = p.aLocal ? nullptr : &check_gm(p.a, aSpan, false, Op::Matmul, loc);
    const GmBuffer* gb = p.bLocal ? nullptr : &check_gm(p.b, bSpan, false, Op::Matmul, loc);
    const uint64_t biasSpan = (static_cast<uint64_t>(p.col0) + p.n) * dt_size(p.biasDt);
    if (p.biasLocal) local_operand(*p.biasLocal, biasSpan, "bias");
    const GmBuffer* gbias = p.bias && !p.biasLocal ? &check_gm(p.bias, biasSpan, false, Op::Matmul, loc) : nullptr;
    const bool hasBias = p.bias != nullptr;   // from GM (gbias) or from a LocalTensor
    if (p.quant == 2) {
        if (!p.quantVec)
            Report("matmul-usage", Op::Matmul, loc).msg("Matmul: SetQuantVector was given no tensor")
                .hint("pass the per-column scales as a GlobalTensor<uint64_t> of N elements").fail();
        check_gm(p.quantVec, (static_cast<uint64_t>(p.col0) + p.n) * 8, false, Op::Matmul, loc);
    }
    if (p.cDt == Dt::i8 && !p.quant)
        Report("matmul-usage", Op::Matmul, loc).msg("Matmul: an int8_t C needs a quantisation scale (SetQuantScalar or SetQuantVector)")
            .hint("call mm.SetQuantScalar(scaleBits) or mm.SetQuantVector(scalesGm) before Iterate/IterateAll").fail();
    const uint64_t mAligned = (p.m + 15) / 16 * 16;
    auto cAt = [&](uint32_t i, uint32_t j) -> uint64_t {
        if (p.l0cNz) return ((j / 16) * mAligned + i) * 16 + j % 16;
        if (p.cNzW) {   // C in GM in NZ: column blocks of cNzW columns, each cNzRows rows tall
            const uint64_t r = p.row0 + i, col = p.col0 + j;
            return (col / p.cNzW) * p.cNzRows * p.cNzW + r * p.cNzW + col % p.cNzW;
        }
        return p.packed ? static_cast<uint64_t>(i) * p.ldc + j : static_cast<uint64_t>(p.row0 + i) * p.ldc + p.col0 + j;
    };
    const uint64_t cSpan = (cAt(p.m - 1, p.n - 1) + 1 + (p.ub ? p.ubRowPad : 0)) * cs;
    const GmBuffer* gcp = nullptr;
    uint8_t* c = static_cast<uint8_t*>(p.c);
    if (p.l0cNz) {  // Iterate into the user's L0C tensor
        check_cube(*p.ub, Op::Matmul, loc, "localCmatrix", {kRegionL0C}, 64, cSpan);
        c = p.ub->addr;
    } else if (p.ub) {  // GetTensorC into UB: the block, row-major with row stride ldc
        check_local(*p.ub, Op::Matmul, loc, "dst", 32);
        check_extent(*p.ub, cSpan, Op::Matmul, loc, "dst");
        c = p.ub->addr;
    } else {
        gcp = &check_gm(p.c, cSpan, true, Op::Matmul, loc);
    }
    // C's rows in GM as the pieces they are stored in (ND: the row; NZ: its part in each column block): f(i, j, count)
    auto each_c_piece = [&](const std::function<void(uint32_t, uint32_t, uint32_t)>& f) {
        for (uint32_t i = 0; i < p.m; ++i) {
            if (!p.cNzW) { f(i, 0, p.n); continue; }
            for (uint32_t j = 0; j < p.n;) {
                const uint32_t piece = std::min<uint32_t>(p.n - j, p.cNzW - (p.col0 + j) % p.cNzW);
                f(i, j, piece);
                j += piece;
            }
        }
    };
    // The check of C's GM writes; `stage` (C's bytes from GM offset stageAt on, as they will be stored) lets it compare
    // the values (cross_gm_write: the same product asked for by both AIVs of a mixed group), nullptr when not known.
    auto track_c = [&](const uint8_t* stage, uint64_t stageAt) {
        // IterateAll(gm, enAtomic = 1) accumulates like SetAtomicAdd: cores adding into one region is not a race
        Core& writer = core();
        const bool was_atomic = writer.atomic_add;
        writer.atomic_add = was_atomic || p.atomic;
        each_c_piece([&](uint32_t i, uint32_t j, uint32_t count) {
            const uint64_t at = cAt(i, j) * cs;
            track_gm_write(c + at, static_cast<uint64_t>(count) * cs, Op::Matmul, loc, stage ? stage + (at - stageAt) : nullptr);
        });
        writer.atomic_add = was_atomic;
    };
    const bool computes = !(tracing_now() || (ga && !ga->real) || (gb && !gb->real) || (gcp && !gcp->real));
    // An AIV's Matmul in a mixed launch: C is computed into a copy of its GM bytes, checked with its values, then stored.
    const bool staged = gcp && computes && g_launch->mixed && !kernel_on_aic() && !p.atomic && !core().atomic_add;
    const uint64_t stageAt = staged ? cAt(0, 0) * cs : 0;
    std::vector<uint8_t> stage;
    if (staged) {
        const uint8_t* from = gm_source(*gcp, c);
        stage.assign(from + stageAt, from + cSpan);
    }
    auto store_staged = [&]() {
        if (!staged) return;
        track_c(stage.data(), stageAt);
        uint8_t* to = gm_target(*gcp, c);
        each_c_piece([&](uint32_t i, uint32_t j, uint32_t count) {
            const uint64_t at = cAt(i, j) * cs;
            std::memcpy(to + at, stage.data() + (at - stageAt), static_cast<size_t>(count) * cs);
        });
    };
    if (gcp && !staged) track_c(nullptr, 0);
    // the cube core's work: A and B blocks into L1 (MTE2), base blocks through L0 (MTE1), the products (M), C out (FIX)
    const uint32_t c0 = 32 / as;
    const uint32_t mB = ceil_div(p.m, 16), nB = ceil_div(p.n, 16), kB = ceil_div(p.k, c0);
    // the block's part of an operand as rows of bytes (first, rows, bytes, stride): ND, its rows; NZ, its column blocks
    // (each the block's rows x c0 elements, one after another, a whole column block apart)
    struct Region { const void* first; uint32_t rows; uint64_t bytes, stride; };
    auto region = [&](const void* base, bool nz, uint32_t r0, uint32_t nr, uint32_t c0_, uint32_t nc, uint32_t ld,
                      uint32_t rowsNz, uint32_t c0, uint32_t size) -> Region {
        if (!nz) return {static_cast<const uint8_t*>(base) + (static_cast<uint64_t>(r0) * ld + c0_) * size, nr,
                         static_cast<uint64_t>(nc) * size, static_cast<uint64_t>(ld) * size};
        const uint32_t b0 = c0_ / c0, b1 = (c0_ + nc - 1) / c0;
        return {static_cast<const uint8_t*>(base) + (static_cast<uint64_t>(b0) * rowsNz * c0 + static_cast<uint64_t>(r0) * c0) * size,
                b1 - b0 + 1, static_cast<uint64_t>(nr) * c0 * size, static_cast<uint64_t>(rowsNz) * c0 * size};
    };
    const Region ra = p.int4 ? Region{static_cast<const uint8_t*>(p.a) + aBytes(p.aTrans ? p.row0 : static_cast<uint64_t>(p.row0) * p.lda),
                                      p.aTrans ? p.k : p.m, aBytes(p.aTrans ? p.m : p.k), aBytes(p.lda)}
                            : p.aTrans ? region(p.a, p.aNz, 0, p.k, p.row0, p.m, p.lda, p.aRows, aC0, as)
                                       : region(p.a, p.aNz, p.row0, p.m, 0, p.k, p.lda, p.aRows, aC0, as);
    const Region rb = p.int4 ? Region{static_cast<const uint8_t*>(p.b) + bBytes(p.bTrans ? static_cast<uint64_t>(p.col0) * p.ldb : p.col0),
                                      p.bTrans ? p.n : p.k, bBytes(p.bTrans ? p.k : p.n), bBytes(p.ldb)}
                            : p.bTrans ? region(p.b, p.bNz, p.col0, p.n, 0, kStoredB, p.ldb, p.bRows, bC0, bs)
                                       : region(p.b, p.bNz, 0, p.k, p.col0, p.n, p.ldb, p.bRows, bC0, bs);
    const void* aFirst = ra.first;
    const void* bFirst = rb.first;
    // what another core must have handed over (emu_sync_cross.cpp): A's rows, B's columns, the bias
    if (ga) cross_gm_read(aFirst, ra.rows, ra.bytes, ra.stride, Op::Matmul, loc);
    if (gb) cross_gm_read(bFirst, rb.rows, rb.bytes, rb.stride, Op::Matmul, loc);
    if (gbias) {
        const uint64_t bb = dt_size(p.biasDt);
        cross_gm_read(static_cast<const uint8_t*>(p.bias) + p.col0 * bb, 1, p.n * bb, p.n * bb, Op::Matmul, loc);
    }
    if (p.loadA && ga)   // (an L1 / UB operand is already on the core: no GM -> L1 copy)
    record_gm(TPipe_::MTE2, Op::Matmul, p.aDt, 0, loc, aBytes(static_cast<uint64_t>(p.m) * p.k), static_cast<uint64_t>(p.m) * p.k,
              ra.rows, ra.bytes, GmPlace{ga, aFirst, ra.stride});
    if (p.loadB && gb)
    record_gm(TPipe_::MTE2, Op::Matmul, p.bDt, 0, loc, bBytes(static_cast<uint64_t>(p.k) * p.n), static_cast<uint64_t>(p.k) * p.n,
              rb.rows, rb.bytes, GmPlace{gb, bFirst, rb.stride});
    record(TPipe_::MTE1, TKind::INSTR, Op::Matmul, p.aDt, 0, loc, static_cast<uint64_t>(mB + nB) * kB * kFractalBytes,
           static_cast<uint64_t>(mB + nB) * kB * kFractalBytes / as, (mB + nB) * kB);
    record(TPipe_::M, TKind::INSTR, Op::Matmul, p.aDt, 0, loc, static_cast<uint64_t>(mB + nB) * kB * kFractalBytes,
           static_cast<uint64_t>(p.m) * p.n * p.k, mB * nB * kB);
    if (gcp)
        record_gm(TPipe_::FIX, Op::Matmul, p.cDt, 0, loc, static_cast<uint64_t>(p.m) * p.n * cs, static_cast<uint64_t>(p.m) * p.n, p.m,
                  p.n * cs, GmPlace{gcp, c + cAt(0, 0) * cs, static_cast<uint64_t>(p.ldc) * cs});
    else
        record(TPipe_::FIX, TKind::INSTR, Op::Matmul, p.cDt, 0, loc, static_cast<uint64_t>(p.m) * p.n * cs,
               static_cast<uint64_t>(p.m) * p.n, 0, p.m, p.n * cs);
    if (p.ub && !p.l0cNz)
        for (uint32_t i = 0; i < p.m; ++i) {
            mark_written(*p.ub, cAt(i, 0) * cs, static_cast<uint64_t>(p.n + p.ubRowPad) * cs);
            if (p.ubRowPad && !tracing_now()) std::memset(c + (cAt(i, 0) + p.n) * cs, 0, static_cast<size_t>(p.ubRowPad) * cs);
        }
    if (!computes) return;
    const uint8_t* a = static_cast<const uint8_t*>(p.a);
    const uint8_t* b = static_cast<const uint8_t*>(p.b);
    const bool integer = p.cDt == Dt::i32;
    std::vector<double> av(static_cast<size_t>(p.m) * p.k), bv(static_cast<size_t>(p.k) * p.n);
    auto element = [&](Dt dt, const uint8_t* base, uint64_t idx, uint32_t size) -> double {
        if (!p.int4) return load_d(dt, base + idx * size);
        const int nib = (base[idx / 2] >> (4 * (idx % 2))) & 0xF;
        return nib & 0x8 ? nib - 16 : nib;
    };
    for (uint32_t i = 0; i < p.m; ++i)
        for (uint32_t kk = 0; kk < p.k; ++kk)
            av[static_cast<size_t>(i) * p.k + kk] = element(p.aDt, a, aAt(i, kk), as);
    if (p.sparseIndex) {
        // each pair of dense elements (k2, k2 + 1) of B^T's row is the two non-zeros of K's group k2 / 2 of 4; their
        // 2-bit indices select the places in the group by the A2 selection table (as MmadWithSparse reads them)
        static const int8_t kFirst[3][3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
        static const int8_t kSecond[3][3] = {{1, 2, 3}, {1, 2, 3}, {2, -1, 3}};
        const uint8_t* idx = static_cast<const uint8_t*>(p.sparseIndex);
        std::fill(bv.begin(), bv.end(), 0.0);
        for (uint32_t j = 0; j < p.n; ++j)
            for (uint32_t k2 = 0; k2 < kStoredB; k2 += 2) {
                uint32_t ix[2];
                for (uint32_t t = 0; t < 2; ++t) {
                    const uint64_t byte = (k2 + t) / 4;
                    const uint8_t v = idx[(byte / 8) * p.sparseRows * 8 + static_cast<uint64_t>(p.col0 + j) * 8 + byte % 8];
                    ix[t] = (v >> (2 * ((k2 + t) % 4))) & 3u;
                }
                const int first = ix[0] < 3 && ix[1] < 3 ? kFirst[ix[0]][ix[1]] : -1;
                const int second = ix[0] < 3 && ix[1] < 3 ? kSecond[ix[0]][ix[1]] : -1;
                if (first < 0 || second < 0)
                    Report("matmul-usage", Op::Matmul, loc)
                        .msg("Matmul: the sparse index of B^T's row %u, dense elements %u and %u, is a pair the A2 "
                             "selection table does not define (a 2-bit index of 3, or the first 2 with the second 1)",
                             p.col0 + j, k2, k2 + 1)
                        .hint("make each pair's first index the first non-zero's place among elements 0..2 of its group "
                              "of 4 and the second the second non-zero's place among elements 1..3, minus 1").fail();
                const uint64_t row = static_cast<uint64_t>(p.col0 + j) * p.ldb;
                bv[static_cast<size_t>(k2 / 2 * 4 + first) * p.n + j] += load_d(p.bDt, b + (row + k2) * bs);
                bv[static_cast<size_t>(k2 / 2 * 4 + second) * p.n + j] += load_d(p.bDt, b + (row + k2 + 1) * bs);
            }
    } else {
        for (uint32_t kk = 0; kk < p.k; ++kk)
            for (uint32_t j = 0; j < p.n; ++j)
                bv[static_cast<size_t>(kk) * p.n + j] = element(p.bDt, b, bAt(kk, j), bs);
    }
    Core& core_ = core();
    const bool atomicAdd = p.atomic || (core_.atomic_add && !p.ub);
    // The Fixpipe takes the scale's float in the (1, 8, 10) format: sign, exponent and the top 10 mantissa bits (bits
    // 13..22); the low 13 mantissa bits are dropped (AscendC's Fixpipe docs: zero them in a golden to match the NPU).
    auto scale_of = [](uint64_t bits) {
        const uint32_t low = static_cast<uint32_t>(bits) & 0xFFFFE000u;
        float f;
        std::memcpy(&f, &low, 4);
        return f;
    };
    std::vector<float> scales;
    if (p.quant == 1) scales.assign(p.n, scale_of(p.quantScalar));
    if (p.quant == 2)
        for (uint32_t j = 0; j < p.n; ++j) scales.push_back(scale_of(p.quantVec[p.col0 + j]));
    std::vector<int64_t> iacc(integer ? p.n : 0);
    auto finish = [&](uint32_t i, const float* facc) {   // C's row i out of L0C: quantised, ReLU, accumulated, stored
        for (uint32_t j = 0; j < p.n; ++j) {
            uint8_t* out = staged ? stage.data() + (cAt(i, j) * cs - stageAt) : (gcp ? gm_target(*gcp, c) : c) + cAt(i, j) * cs;
            double v;
            if (integer) {
                int64_t acc = iacc[j];
                if (hasBias) acc += static_cast<int64_t>(load_d(p.biasDt, static_cast<const uint8_t*>(p.bias) + (p.col0 + j) * dt_size(p.biasDt)));
                v = static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(acc)));
            } else {
                v = facc[j];
            }
            if (p.quant) v = static_cast<double>(static_cast<float>(v) * scales[j]);   // in fp32 on the way out of L0C
            if (p.relu && v < 0) v = 0;
            if (atomicAdd) v += load_d(p.cDt, out);
            store_cube(p.cDt, out, v);
        }
    };
    if (integer) {
        for (uint32_t i = 0; i < p.m; ++i) {
            std::fill(iacc.begin(), iacc.end(), 0);
            row_product(&av[static_cast<size_t>(i) * p.k], bv.data(), p.k, p.n, iacc.data());
            finish(i, nullptr);
        }
        store_staged();
        return;
    }
    rows_product(av, bv, p.k, p.n, float_exact(p.aDt, p.int4) && float_exact(p.bDt, p.int4),
        [&](uint32_t, float* acc) {
            for (uint32_t j = 0; j < p.n; ++j)
                acc[j] = hasBias ? static_cast<float>(load_d(p.biasDt, static_cast<const uint8_t*>(p.bias) + (p.col0 + j) * dt_size(p.biasDt))) : 0.0f;
        },
        finish, p.m);
    store_staged();
}

// ---- the 4:2 structured-sparse product (cube_sparse.h) --------------------------------------------------------------
// The index buffer: a quarter of L0B, the index fractal of the B fractal at L0B offset o at o / 4.
static uint8_t* sparse_index_buffer() {
    std::vector<uint8_t>& mem = core().sparse_idx;
    if (mem.empty()) mem.assign(cube_region_bytes(kRegionL0B) / 4, tracing_now() ? 0 : g_launch->poison);
    return mem.data();
}

void cube_load2d_sparse(const Local& dst, const Local& src, const Local& idx, uint32_t startIndex, uint32_t repeatTimes,
                        SrcLoc loc) {
    enter(Op::LoadDataWithSparse, loc);
    constexpr uint32_t kIdxFractal = kFractalBytes / 4;   // 16 x 32 two-bit indices
    const uint64_t srcEnd = repeatTimes ? (static_cast<uint64_t>(startIndex) + repeatTimes) * kFractalBytes : 0;
    check_cube(src, Op::LoadDataWithSparse, loc, "src", {kRegionL1}, 32, srcEnd);
    check_cube(idx, Op::LoadDataWithSparse, loc, "idx", {kRegionL1}, 32,
               repeatTimes ? (static_cast<uint64_t>(startIndex) + repeatTimes) * kIdxFractal : 0);
    const uint8_t r = check_cube(dst, Op::LoadDataWithSparse, loc, "dst", {kRegionL0B}, kFractalBytes,
                                 static_cast<uint64_t>(repeatTimes) * kFractalBytes);
    (void)r;
    record(TPipe_::MTE1, TKind::INSTR, Op::LoadDataWithSparse, Dt::i8, 0, loc,
           static_cast<uint64_t>(repeatTimes) * (kFractalBytes + kIdxFractal), static_cast<uint64_t>(repeatTimes) * kFractalBytes,
           repeatTimes);
    if (tracing_now() || repeatTimes == 0) return;
    const uint64_t dstOff = offset_in(dst, kRegionL0B);
    uint8_t* ib = sparse_index_buffer() + dstOff / 4;
    for (uint32_t k = 0; k < repeatTimes; ++k) {
        std::memmove(dst.addr + static_cast<uint64_t>(k) * kFractalBytes,
                     src.addr + (static_cast<uint64_t>(startIndex) + k) * kFractalBytes, kFractalBytes);
        std::memmove(ib + static_cast<uint64_t>(k) * kIdxFractal,
                     idx.addr + (static_cast<uint64_t>(startIndex) + k) * kIdxFractal, kIdxFractal);
    }
}

void cube_mmad_sparse(const Local& c, const Local& a, const Local& b, const MmadSpec& p, SrcLoc loc) {
    enter(Op::MmadWithSparse, loc);
    if (p.m == 0 || p.n == 0 || p.k == 0) return;   // a NOP, as documented
    if (p.m > 4095 || p.n > 4095 || p.k > 4095)
        Report("mmad-params", Op::MmadWithSparse, loc)
            .msg("MmadWithSparse with m = %u, n = %u, k = %u; each must be 0..4095", p.m, p.n, p.k)
            .hint("split the matrix product into base blocks").fail();
    if (p.fromBias)
        unsupported_call(Op::MmadWithSparse, "MmadWithSparse with cmatrixSource = true (C from the bias table) is not "
                         "emulated", "start C from 0 (cmatrixInitVal = true) or accumulate onto L0C (cmatrixInitVal = false)", loc);
    if (p.m == 1)   // a plain Mmad with m = 1 reads A as a GEMV row; whether the sparse one does is not documented
        unsupported_call(Op::MmadWithSparse, "MmadWithSparse with m = 1 (the GEMV form of A) is not emulated",
                         "pad M to 16 rows (zero rows of A) and keep the ZZ layout", loc);
    if (p.k % 4 != 0)
        unsupported_call(Op::MmadWithSparse, "MmadWithSparse with k not a multiple of 4 (a 4:2 group split at the end of "
                         "K) is not emulated", "pad K to a multiple of 4 with zero columns of A and zero groups of B", loc);
    constexpr uint32_t c0 = 32;   // int8
    const uint32_t kd = p.k / 2;  // B's dense rows
    const uint32_t mB = ceil_div(p.m, 16), nB = ceil_div(p.n, 16), kBa = ceil_div(p.k, c0), kBb = ceil_div(kd, c0);
    check_cube(a, Op::MmadWithSparse, loc, "fm", {kRegionL0A}, kFractalBytes, static_cast<uint64_t>(mB) * kBa * kFractalBytes);
    check_cube(b, Op::MmadWithSparse, loc, "filter", {kRegionL0B}, kFractalBytes, static_cast<uint64_t>(kBb) * nB * kFractalBytes);
    check_cube(c, Op::MmadWithSparse, loc, "dst", {kRegionL0C}, 1024, static_cast<uint64_t>(mB) * nB * 256 * 4);
    record(TPipe_::M, TKind::INSTR, Op::MmadWithSparse, Dt::i8, 0, loc,
           static_cast<uint64_t>(mB) * kBa * kFractalBytes + static_cast<uint64_t>(kBb) * nB * kFractalBytes,
           static_cast<uint64_t>(p.m) * p.n * kd, mB * nB * kBb);
    if (tracing_now()) return;
    const uint8_t* ib = sparse_index_buffer() + offset_in(b, kRegionL0B) / 4;
    // the A element of group g that the two indices (i0 of the pair's first element, i1 of its second) select, by the
    // reference's selection table; -1: a pair the table does not define
    static const int8_t kFirst[3][3] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
    static const int8_t kSecond[3][3] = {{1, 2, 3}, {1, 2, 3}, {2, -1, 3}};
    std::vector<int32_t> bv(static_cast<size_t>(kd) * p.n), sel(static_cast<size_t>(kd) * p.n);
    for (uint32_t kk = 0; kk < kd; kk += 2)
        for (uint32_t j = 0; j < p.n; ++j) {
            uint32_t ix[2];
            for (uint32_t t = 0; t < 2; ++t) {
                const uint32_t k2 = kk + t;
                const uint64_t e = (static_cast<uint64_t>(k2 / c0) * nB + j / 16) * 16 * c0 + (j % 16) * c0 + k2 % c0;
                bv[static_cast<size_t>(k2) * p.n + j] = static_cast<int8_t>(b.addr[e]);
                ix[t] = (ib[e / 4] >> (2 * (e % 4))) & 3u;
            }
            const int first = ix[0] < 3 && ix[1] < 3 ? kFirst[ix[0]][ix[1]] : -1;
            const int second = ix[0] < 3 && ix[1] < 3 ? kSecond[ix[0]][ix[1]] : -1;
            if (first < 0 || second < 0)
                unsupported_call(Op::MmadWithSparse, "MmadWithSparse with an index pair the A2 selection table does not "
                                 "define (a 2-bit index of 3, or the first index 2 with the second 1)",
                                 "make each pair's first index the first non-zero's place among elements 0..2 of its group "
                                 "of 4 and the second index the second non-zero's place among elements 1..3, minus 1", loc);
            sel[static_cast<size_t>(kk) * p.n + j] = static_cast<int32_t>(kk / 2 * 4 + first);
            sel[static_cast<size_t>(kk + 1) * p.n + j] = static_cast<int32_t>(kk / 2 * 4 + second);
        }
    auto aAt = [&](uint32_t i, uint32_t kk) -> int32_t {   // L0A: ZZ
        return static_cast<int8_t>(a.addr[(static_cast<uint64_t>(i / 16) * kBa + kk / c0) * 16 * c0 + (i % 16) * c0 + kk % c0]);
    };
    for (uint32_t i = 0; i < p.m; ++i)
        for (uint32_t j = 0; j < p.n; ++j) {
            uint8_t* out = c.addr + ((static_cast<uint64_t>(j / 16) * mB + i / 16) * 256 + (i % 16) * 16 + j % 16) * 4;
            int64_t acc = 0;
            for (uint32_t kk = 0; kk < kd; ++kk)
                acc += static_cast<int64_t>(aAt(i, static_cast<uint32_t>(sel[static_cast<size_t>(kk) * p.n + j]))) *
                       bv[static_cast<size_t>(kk) * p.n + j];
            int32_t prev = 0;
            if (!p.initZero) std::memcpy(&prev, out, 4);
            const int32_t r = static_cast<int32_t>(static_cast<uint32_t>(prev) + static_cast<uint32_t>(acc));
            std::memcpy(out, &r, 4);
        }
}

}}  // namespace ascendcraft::emu
