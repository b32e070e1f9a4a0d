// AscendC's LocalTensor operator overloads: `dst = a + b` is Add(dst, a, b, dst.GetSize()), likewise - (Sub), * (Mul),
// / (Div), | (Or) and & (And; 4-byte elements as twice as many 16-bit lanes, the same bits); `mask = a < b` is
// Compare(mask, a, b, CMPMODE::LT, a.GetSize()) and likewise > <= >= == != (A2: half and float operands only).
// The element count is the whole tensor: dst's size, or the first operand's for a comparison. Written from the public
// AscendC documentation; no vendor code.
#pragma once

#include <type_traits>

#include "tensor.h"
#include "vector.h"

namespace AscendC {

template <typename T, SymbolOp op> struct SymbolOverride {
    const LocalTensor<T>& src0;
    const LocalTensor<T>& src1;
    SrcLoc loc;

    static constexpr bool kCompare = op >= SymbolOp::LT;
    // Arithmetic: the result has the operands' type.
    template <typename U, bool C = kCompare, typename std::enable_if<!C && std::is_same<U, T>::value, int>::type = 0>
    void Process(const LocalTensor<U>& dst) const {
        const int32_t n = static_cast<int32_t>(dst.GetSize());
        if constexpr (op == SymbolOp::Add) Add(dst, src0, src1, n, loc);
        else if constexpr (op == SymbolOp::Sub) Sub(dst, src0, src1, n, loc);
        else if constexpr (op == SymbolOp::Mul) Mul(dst, src0, src1, n, loc);
        else if constexpr (op == SymbolOp::Div) Div(dst, src0, src1, n, loc);
        else if constexpr (sizeof(T) == 4) {  // bitwise on 32-bit elements: the same bits as 16-bit lanes, twice as many
            const LocalTensor<uint16_t> d = dst.template ReinterpretCast<uint16_t>(), a = src0.template ReinterpretCast<uint16_t>(),
                                        b = src1.template ReinterpretCast<uint16_t>();
            if constexpr (op == SymbolOp::Or) Or(d, a, b, 2 * n, loc);
            else And(d, a, b, 2 * n, loc);
        } else if constexpr (op == SymbolOp::Or) Or(dst, src0, src1, n, loc);
        else And(dst, src0, src1, n, loc);
    }
    // Comparison: a bit mask of any element type (uint8_t on A2), from half or float operands.
    template <typename U, bool C = kCompare, typename std::enable_if<C && (std::is_same<T, half>::value || std::is_same<T, float>::value), int>::type = 0>
    void Process(const LocalTensor<U>& dst) const {
        constexpr CMPMODE mode = op == SymbolOp::LT ? CMPMODE::LT : op == SymbolOp::GT ? CMPMODE::GT : op == SymbolOp::LE ? CMPMODE::LE
                               : op == SymbolOp::GE ? CMPMODE::GE : op == SymbolOp::EQ ? CMPMODE::EQ : CMPMODE::NE;
        Compare(dst, src0, src1, mode, src0.GetSize(), loc);
    }
};

}  // namespace AscendC
