// AscendCraft CPU emulation runtime: the atomic modes SetAtomicMax / SetAtomicMin / SetAtomicType (SetAtomicAdd's
// sum lives with the copies in emu_copy.cpp). A copy to GM under max/min keeps, element by element, the larger /
// smaller of the value in GM and the copied value, compared in the atomic type.
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

namespace {

template <typename T, typename Less>
void extreme_of(bool max, uint8_t* dst, const uint8_t* src, uint64_t bytes, Less less) {
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
        T a, b;
        std::memcpy(&a, dst + i, sizeof(T));
        std::memcpy(&b, src + i, sizeof(T));
        if (max ? less(a, b) : less(b, a)) std::memcpy(dst + i, &b, sizeof(T));
    }
}

}  // namespace

void atomic_extreme(bool max, Dt dt, uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    auto plain = [](auto a, auto b) { return a < b; };
    switch (dt) {
    case Dt::f32: extreme_of<float>(max, dst, src, bytes, plain); break;
    case Dt::i32: extreme_of<int32_t>(max, dst, src, bytes, plain); break;
    case Dt::i16: extreme_of<int16_t>(max, dst, src, bytes, plain); break;
    case Dt::i8: extreme_of<int8_t>(max, dst, src, bytes, plain); break;
    case Dt::f16: extreme_of<half>(max, dst, src, bytes, [](half a, half b) { return static_cast<float>(a) < static_cast<float>(b); }); break;
    case Dt::bf16: extreme_of<uint16_t>(max, dst, src, bytes,
                                        [](uint16_t a, uint16_t b) { return bfloat16_t::to_float(a) < bfloat16_t::to_float(b); }); break;
    default: std::memcpy(dst, src, bytes);   // SetAtomicMax/Min<T> stopped on any other type already
    }
}

void atomic_set_mode(AtomicMode mode, Dt dt, SrcLoc loc) {
    enter(mode == AtomicMode::max ? Op::SetAtomicMax : Op::SetAtomicMin, loc);
    Core& c = core();
    c.atomic_add = true;
    c.atomic_dt = dt;
    c.atomic_mode = mode;
    scalar_writes_forget();   // no fast-path GM write while atomic accumulation is on (keep_gm_set_range)
}

void atomic_set_type(Dt dt, SrcLoc loc) {
    enter(Op::SetAtomicType, loc);
    core().atomic_dt = dt;
}

}}  // namespace ascendcraft::emu
