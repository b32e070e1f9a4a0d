// AscendCraft: the integer helpers of ops-base's Ops::Base (FloorDiv, FloorAlign, CeilDiv, CeilAlign), one definition
// for op_host code (util/math_util.h, through ascendcraft_emu/ops_base.h) and kernel code (op_kernel/math_util.h), so
// that a kernel unit that sees both (a tiling header that includes host helpers) has one overload, not two ambiguous
// ones. For non-negative values and a nonzero divisor they agree with both of ops-base's versions; a zero divisor gives
// the dividend (host) where the device would divide by zero. Written from the public operator sources' use; no vendor code.
#pragma once

#include <limits>
#include <type_traits>

namespace Ops { namespace Base {
// x / y rounded down (y == 0: x)
template <typename T> auto FloorDiv(T x, T y) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    return y == 0 ? x : x / y;
}
// x rounded down to a multiple of align (align == 0: 0)
template <typename T> auto FloorAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    return align == 0 ? 0 : x / align * align;
}
// x / y rounded up (towards +infinity for signed values; y == 0: x)
template <typename T> auto CeilDiv(T x, T y) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    if (y == 0 || x == 0) return x;
    const T q = x / y;
    const bool exact = x % y == 0;
    if (std::is_signed<T>::value) return (!exact && ((x < 0) == (y < 0))) ? q + 1 : q;
    return exact ? q : q + 1;
}
// x rounded up to a multiple of align (align == 0: 0; saturates at the type's maximum)
template <typename T> auto CeilAlign(T x, T align) -> typename std::enable_if<std::is_integral<T>::value, T>::type {
    if (align == 0) return 0;
    const T n = CeilDiv(x, align);
    if (n > std::numeric_limits<T>::max() / align) return std::numeric_limits<T>::max();
    return n * align;
}
}}  // namespace Ops::Base
