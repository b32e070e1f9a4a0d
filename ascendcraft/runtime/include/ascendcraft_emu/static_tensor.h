// AscendCraft CPU emulation: static Tensor programming (no TPipe / TQue). A LocalTensor made from a position, a byte
// address and an element count, and LocalMemAllocator<Hardware>, which hands out consecutive LocalTensors of one
// physical memory from address 0. Written from the public AscendC documentation; no vendor code.
#pragma once
#include "ascendcraft_emu/tensor.h"

namespace ascendcraft { namespace emu {
// The view of `bytes` bytes at byte address `addr` of the memory that TPosition `pos` lives in (UB, L1, L0A, L0B, L0C,
// the bias table), with AscendC's checks: a count > 0 and an end inside that memory (errors); an address or a length
// that is not whole 32-byte blocks is a warning (the NPU does not check either; the instructions check their operands).
// `api` names the call in the report.
Local local_at(uint8_t pos, uint64_t addr, uint64_t count, uint32_t elem_bits, const char* api, SrcLoc loc);
}}  // namespace ascendcraft::emu

namespace AscendC {

// The physical memories of an AI Core (LocalMemAllocator's template argument).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <typename T>
inline LocalTensor<T>::LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, SrcLoc loc)
    : desc_(ascendcraft::emu::local_at(static_cast<uint8_t>(pos), addr, tileSize, sizeof(T) * 8, "LocalTensor(pos, addr, tileSize)", loc)) {}

namespace static_tensor_detail {
constexpr TPosition default_position(Hardware hard) {
    return hard == Hardware::UB ? TPosition::VECCALC : hard == Hardware::L1 ? TPosition::A1
         : hard == Hardware::L0A ? TPosition::A2 : hard == Hardware::L0B ? TPosition::B2
         : hard == Hardware::L0C ? TPosition::CO1 : hard == Hardware::BIAS ? TPosition::C2 : TPosition::C2PIPE2GM;
}
constexpr Hardware hardware_of(TPosition pos) {
    return pos == TPosition::GM ? Hardware::GM
         : (pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1) ? Hardware::L1
         : pos == TPosition::A2 ? Hardware::L0A : pos == TPosition::B2 ? Hardware::L0B
         : pos == TPosition::CO1 ? Hardware::L0C : pos == TPosition::C2 ? Hardware::BIAS
         : pos == TPosition::C2PIPE2GM ? Hardware::FIXBUF : Hardware::UB;
}
}  // namespace static_tensor_detail

// Hands out LocalTensors of one physical memory one after the other, from address 0 (A2: no static arrays before
// the dynamic part); the next address moves by exactly the bytes of each tensor.
template <Hardware hard = Hardware::UB> class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator: illegal hardware position GM or MAX");
    static_assert(hard != Hardware::FIXBUF, "LocalMemAllocator<Hardware::FIXBUF> is not emulated by AscendCraft");

public:
    LocalMemAllocator() {}
    uint32_t GetCurAddr() const { return head_; }
    template <TPosition pos, class DataType, uint32_t tileSize> LocalTensor<DataType> Alloc(SrcLoc loc = {}) {
        static_assert(static_tensor_detail::hardware_of(pos) == hard, "logic pos and hardware pos not matched.");
        return take<DataType>(pos, tileSize, loc);
    }
    template <TPosition pos, class DataType> LocalTensor<DataType> Alloc(uint32_t tileSize, SrcLoc loc = {}) {
        static_assert(static_tensor_detail::hardware_of(pos) == hard, "logic pos and hardware pos not matched.");
        return take<DataType>(pos, tileSize, loc);
    }
    template <class DataType, uint32_t tileSize> LocalTensor<DataType> Alloc(SrcLoc loc = {}) {
        return take<DataType>(static_tensor_detail::default_position(hard), tileSize, loc);
    }
    template <class DataType> LocalTensor<DataType> Alloc(uint32_t tileSize, SrcLoc loc = {}) {
        return take<DataType>(static_tensor_detail::default_position(hard), tileSize, loc);
    }

private:
    template <class DataType> LocalTensor<DataType> take(TPosition pos, uint32_t tileSize, SrcLoc loc) {
        LocalTensor<DataType> out(ascendcraft::emu::local_at(static_cast<uint8_t>(pos), head_, tileSize, sizeof(DataType) * 8,
                                                             "LocalMemAllocator::Alloc", loc));
        head_ += static_cast<uint32_t>(static_cast<uint64_t>(tileSize) * sizeof(DataType));
        return out;
    }
    uint32_t head_ = 0;
};

}  // namespace AscendC
