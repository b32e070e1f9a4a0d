// AscendCraft CPU emulation: the level-2 vector APIs (and the count forms of the advanced unary APIs) as function
// values. Kernels pass them as template arguments, e.g. `template <..., void (*op)(const LocalTensor<T>&, const
// LocalTensor<T>&, const LocalTensor<T>&, const int32_t&)>` with `Div` (the public Foreach* kernels do). The
// emulated APIs take a trailing SrcLoc, so their type differs; each overload here has the official parameter list
// followed by an empty pack, which gives it exactly the official function type. In a call the SrcLoc form is the
// more specialised template and wins, so kernels that call the APIs directly keep their source locations.
#pragma once

#include <type_traits>

#include "adv.h"
#include "math.h"
#include "vector.h"

namespace AscendC {

#define ASCENDCRAFT_EMU_PACK template <typename T, typename... P, typename = typename std::enable_if<sizeof...(P) == 0>::type>
#define ASCENDCRAFT_EMU_FN_BINARY(API)                                                                           \
    ASCENDCRAFT_EMU_PACK inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                  \
                                         const LocalTensor<T>& src1, const int32_t& count, P...) {               \
        API<T>(dst, src0, src1, count, SrcLoc{});                                                                \
    }
#define ASCENDCRAFT_EMU_FN_UNARY(API)                                                                            \
    ASCENDCRAFT_EMU_PACK inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, \
                                         P...) {                                                                 \
        API<T>(dst, src, count, SrcLoc{});                                                                       \
    }
#define ASCENDCRAFT_EMU_FN_SCALAR(API)                                                                           \
    ASCENDCRAFT_EMU_PACK inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,  \
                                         const int32_t& count, P...) {                                           \
        API<T>(dst, src, scalar, count, SrcLoc{});                                                               \
    }
// The advanced APIs' second template parameter is isReuseSource (kernels write Sin<half, false>).
#define ASCENDCRAFT_EMU_FN_ADV(API)                                                                              \
    template <typename T, bool isReuseSource = false, typename... P,                                             \
              typename = typename std::enable_if<sizeof...(P) == 0>::type>                                       \
    inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, P...) {          \
        API<T, isReuseSource>(dst, src, count, SrcLoc{});                                                        \
    }
// The level-0 forms (mask, repeatTime, repeat parameters); the second template parameter is isSetMask.
#define ASCENDCRAFT_EMU_L0_TEMPLATE                                                                              \
    template <typename T, bool isSetMask = true, typename... P, typename = typename std::enable_if<sizeof...(P) == 0>::type>
#define ASCENDCRAFT_EMU_FN_BINARY_L0(API)                                                                        \
    ASCENDCRAFT_EMU_L0_TEMPLATE inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src0,           \
                                                const LocalTensor<T>& src1, uint64_t mask, const uint8_t repeatTime, \
                                                const BinaryRepeatParams& repeatParams, P...) {                  \
        API<T, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams, SrcLoc{});                            \
    }
#define ASCENDCRAFT_EMU_FN_UNARY_L0(API)                                                                         \
    ASCENDCRAFT_EMU_L0_TEMPLATE inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, \
                                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, P...) { \
        API<T, isSetMask>(dst, src, mask, repeatTime, repeatParams, SrcLoc{});                                   \
    }
#define ASCENDCRAFT_EMU_FN_SCALAR_L0(API)                                                                        \
    ASCENDCRAFT_EMU_L0_TEMPLATE inline void API(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, \
                                                uint64_t mask, const uint8_t repeatTime,                         \
                                                const UnaryRepeatParams& repeatParams, P...) {                   \
        API<T, isSetMask>(dst, src, scalar, mask, repeatTime, repeatParams, SrcLoc{});                           \
    }

ASCENDCRAFT_EMU_FN_BINARY(Add) ASCENDCRAFT_EMU_FN_BINARY(Sub) ASCENDCRAFT_EMU_FN_BINARY(Mul) ASCENDCRAFT_EMU_FN_BINARY(Div)
ASCENDCRAFT_EMU_FN_BINARY(Max) ASCENDCRAFT_EMU_FN_BINARY(Min) ASCENDCRAFT_EMU_FN_BINARY(And) ASCENDCRAFT_EMU_FN_BINARY(Or)
ASCENDCRAFT_EMU_FN_BINARY(AddRelu) ASCENDCRAFT_EMU_FN_BINARY(SubRelu)
ASCENDCRAFT_EMU_FN_UNARY(Exp) ASCENDCRAFT_EMU_FN_UNARY(Ln) ASCENDCRAFT_EMU_FN_UNARY(Abs) ASCENDCRAFT_EMU_FN_UNARY(Sqrt)
ASCENDCRAFT_EMU_FN_UNARY(Rsqrt) ASCENDCRAFT_EMU_FN_UNARY(Reciprocal) ASCENDCRAFT_EMU_FN_UNARY(Relu) ASCENDCRAFT_EMU_FN_UNARY(Not)
ASCENDCRAFT_EMU_FN_SCALAR(Adds) ASCENDCRAFT_EMU_FN_SCALAR(Muls) ASCENDCRAFT_EMU_FN_SCALAR(Maxs) ASCENDCRAFT_EMU_FN_SCALAR(Mins)
ASCENDCRAFT_EMU_FN_SCALAR(LeakyRelu)
ASCENDCRAFT_EMU_FN_ADV(Sin) ASCENDCRAFT_EMU_FN_ADV(Cos) ASCENDCRAFT_EMU_FN_ADV(Tanh) ASCENDCRAFT_EMU_FN_ADV(Sigmoid)
ASCENDCRAFT_EMU_FN_ADV(Erf) ASCENDCRAFT_EMU_FN_ADV(Tan) ASCENDCRAFT_EMU_FN_ADV(Asin) ASCENDCRAFT_EMU_FN_ADV(Acos)
ASCENDCRAFT_EMU_FN_ADV(Atan) ASCENDCRAFT_EMU_FN_ADV(Sinh) ASCENDCRAFT_EMU_FN_ADV(Cosh) ASCENDCRAFT_EMU_FN_ADV(Erfc)
ASCENDCRAFT_EMU_FN_ADV(Log) ASCENDCRAFT_EMU_FN_ADV(Log10)
ASCENDCRAFT_EMU_FN_ADV(Asinh) ASCENDCRAFT_EMU_FN_ADV(Acosh) ASCENDCRAFT_EMU_FN_ADV(Atanh)
ASCENDCRAFT_EMU_FN_BINARY_L0(Add) ASCENDCRAFT_EMU_FN_BINARY_L0(Sub) ASCENDCRAFT_EMU_FN_BINARY_L0(Mul)
ASCENDCRAFT_EMU_FN_BINARY_L0(Div) ASCENDCRAFT_EMU_FN_BINARY_L0(Max) ASCENDCRAFT_EMU_FN_BINARY_L0(Min)
ASCENDCRAFT_EMU_FN_UNARY_L0(Exp) ASCENDCRAFT_EMU_FN_UNARY_L0(Ln) ASCENDCRAFT_EMU_FN_UNARY_L0(Abs)
ASCENDCRAFT_EMU_FN_UNARY_L0(Sqrt) ASCENDCRAFT_EMU_FN_UNARY_L0(Rsqrt) ASCENDCRAFT_EMU_FN_UNARY_L0(Reciprocal)
ASCENDCRAFT_EMU_FN_UNARY_L0(Relu)
ASCENDCRAFT_EMU_FN_SCALAR_L0(Adds) ASCENDCRAFT_EMU_FN_SCALAR_L0(Muls) ASCENDCRAFT_EMU_FN_SCALAR_L0(Maxs)
ASCENDCRAFT_EMU_FN_SCALAR_L0(Mins)
#undef ASCENDCRAFT_EMU_FN_BINARY
#undef ASCENDCRAFT_EMU_FN_UNARY
#undef ASCENDCRAFT_EMU_FN_SCALAR
#undef ASCENDCRAFT_EMU_FN_ADV
#undef ASCENDCRAFT_EMU_FN_BINARY_L0
#undef ASCENDCRAFT_EMU_FN_UNARY_L0
#undef ASCENDCRAFT_EMU_FN_SCALAR_L0
#undef ASCENDCRAFT_EMU_L0_TEMPLATE
#undef ASCENDCRAFT_EMU_PACK

}  // namespace AscendC
