// AscendCraft CPU emulation: views of the raw UB pointers that kernels pass to the devkit's implementation functions
// (DuplicateImpl, DataCopy*Impl; devkit_impl.h). Written from the public AscendC documentation; no vendor code.
#include "ascendcraft_emu/devkit_impl.h"
#include "ascendcraft_emu/internal.h"

#include <cstring>

namespace ascendcraft { namespace emu {

Local ub_raw_view(const void* p, const char* api, SrcLoc loc) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    Core& c = core();
    const uint32_t top = g_launch->ub_bytes;
    // a UB address written as a number (`(__ubuf__ float*)((uintptr_t)76 * 1024)`, hicann ops-blas caxpy): on the NPU a
    // __ubuf__ pointer is the offset in the core's UB; here that offset of this core's UB (no host pointer is that small)
    if (reinterpret_cast<uintptr_t>(q) < top) q = c.ub + reinterpret_cast<uintptr_t>(q);
    // a UB address kept in 32 bits (hicann ops-math arg_max_with_value: `static_cast<uint32_t>(t.GetPhyAddr())` as
    // vgather's source address): on the NPU every UB address fits; here GetPhyAddr() is a host address, so a value below
    // 2^32 whose low 32 bits are those of an address in this core's UB is that address. Every UB starts where the low
    // 32 bits are 0x40000000 (ub_allocate, emu_ub.cpp), so such a value is never below ub_bytes (never read as an offset)
    // and is the same in every run
    else if (reinterpret_cast<uintptr_t>(q) <= 0xffffffffu) {
        const uintptr_t base = reinterpret_cast<uintptr_t>(c.ub), low = reinterpret_cast<uintptr_t>(q);
        const uintptr_t off = (low - (base & 0xffffffffu)) & 0xffffffffu;   // distance past the UB's start, mod 2^32
        if (off < top) q = c.ub + off;
    }
    if (q < c.ub || q >= c.ub + top)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("%s: the __ubuf__ pointer is not inside this core's Unified Buffer (%u bytes)", api, top)
            .hint("pass (__ubuf__ T*)tensor.GetPhyAddr() of a LocalTensor of this core").fail();
    Local t;
    t.addr = const_cast<uint8_t*>(q);
    t.bytes = t.cap = static_cast<uint32_t>(c.ub + top - q);
    return t;
}

void* ub_numbered_place(uintptr_t v) {
    Core* c = current_core();
    if (!c || !g_launch || !c->ub) return nullptr;
    const uint32_t top = g_launch->ub_bytes;
    const uintptr_t base = reinterpret_cast<uintptr_t>(c->ub);
    if (v >= base && v < base + top) return nullptr;     // a place in this UB already: kept as it is
    if (v < top) return c->ub + v;                        // an offset, as the NPU's scalar unit takes it
    if (v <= 0xffffffffu) {                               // a place in this UB kept in 32 bits (see ub_raw_view)
        const uintptr_t off = (v - (base & 0xffffffffu)) & 0xffffffffu;
        if (off < top) return c->ub + off;
    }
    return nullptr;
}

// The special register of the last ReduceMax/Min or WholeReduceMax/Min as the raw get_max_min_cnt reads it: the value's
// bits in the low half (16 bits for half, 32 for float), the index in the high 32 bits.
uint64_t maxmin_register(SrcLoc loc) {
    enter(Op::GetReduceMaxMinCount, loc);
    record(TPipe_::S, TKind::INSTR, Op::GetReduceMaxMinCount, Dt::none, 0, loc);
    Core& c = core();
    if (tracing_now()) return 0;
    if (!c.maxmin_set)
        Report("reduce-register", Op::GetReduceMaxMinCount, loc)
            .msg("get_max_min_cnt reads the result of the last ReduceMax / ReduceMin / WholeReduceMax / WholeReduceMin, "
                 "but this block has made none")
            .hint("call it after a max or min reduction (and a V_S flag, so the scalar unit sees the result)").fail();
    uint64_t bits = 0;
    if (c.maxmin_dt == Dt::f16) { const half h(static_cast<float>(c.maxmin_value)); uint16_t u; std::memcpy(&u, &h, 2); bits = u; }
    else { const float f = static_cast<float>(c.maxmin_value); uint32_t u; std::memcpy(&u, &f, 4); bits = u; }
    return bits | (static_cast<uint64_t>(static_cast<uint32_t>(c.maxmin_index)) << 32);
}

// Trap(): the kernel stops the AI Core on purpose (its own check of the inputs failed).
void kernel_trap(SrcLoc loc) {
    enter(Op::Kernel, loc);
    Report("kernel-trap", Op::Kernel, loc)
        .msg("the kernel called Trap(): on the NPU the AI Core stops here")
        .hint("the kernel's own check of its inputs or tiling failed at this line: look at the condition around it").fail();
}

}}  // namespace ascendcraft::emu
