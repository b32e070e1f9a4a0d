// AscendCraft host side: ops-base's 16-bit float types for op_host code (op_host/util/fp16.h: Ops::Base::fp16_t,
// op_host/util/bfloat16.h: Ops::Base::bfloat16): the raw bits of a half or bfloat16 value (an attribute, a constant
// tensor's element), converted to and from float (round to nearest even). Written from the IEEE 754 and bfloat16
// formats; no vendor code.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace Ops { namespace Base {

struct fp16_t {
    uint16_t val = 0;
    fp16_t() = default;
    fp16_t(float f) : val(FromFloat(f)) {}
    operator float() const { return ToFloat(val); }
    float toFloat() const { return ToFloat(val); }
    static uint16_t FromFloat(float f) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
        const uint32_t absx = x & 0x7FFFFFFFu;
        if (absx >= 0x7F800000u) return static_cast<uint16_t>(sign | (absx > 0x7F800000u ? 0x7E00u : 0x7C00u));
        if (absx >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);           // rounds past 65504: inf
        if (absx < 0x38800000u) {                                                          // a half subnormal (or 0)
            const float a = std::fabs(f) * 16777216.0f;                                    // in units of 2^-24
            return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a)));
        }
        const uint32_t mant = absx & 0x7FFFFFu;
        uint32_t h = ((absx >> 23) - 112u) << 10 | (mant >> 13);
        const uint32_t rest = mant & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    static float ToFloat(uint16_t h) {
        const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
        const uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
        float f;
        if (e == 0) f = std::ldexp(static_cast<float>(m), -24);
        else if (e == 31) f = m ? NAN : INFINITY;
        else f = std::ldexp(static_cast<float>(m | 0x400u), static_cast<int>(e) - 25);
        uint32_t x;
        std::memcpy(&x, &f, 4);
        x |= sign;
        std::memcpy(&f, &x, 4);
        return f;
    }
};

struct bfloat16 {
    uint16_t value = 0;
    bfloat16() = default;
    bfloat16(float f) : value(FromFloat(f)) {}
    operator float() const { return ToFloat(value); }
    static uint16_t FromFloat(float f) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);   // NaN stays NaN
        x += 0x7FFFu + ((x >> 16) & 1u);
        return static_cast<uint16_t>(x >> 16);
    }
    static float ToFloat(uint16_t b) {
        const uint32_t x = static_cast<uint32_t>(b) << 16;
        float f;
        std::memcpy(&f, &x, 4);
        return f;
    }
};
}}  // namespace Ops::Base
