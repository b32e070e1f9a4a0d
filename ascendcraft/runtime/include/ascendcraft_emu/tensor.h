// AscendCraft CPU emulation: GlobalTensor and LocalTensor.
#pragma once

#include <cstddef>
#include <utility>

#include "runtime.h"

namespace AscendC {

template <typename T> class LocalTensor;
// `dst = a + b` (and - * / | & < > <= >= == !=): an operand with the kernel line where it stands, and the pending
// operation that LocalTensor's operator= runs on dst (symbol.h).
template <typename T> struct SymbolOperand {
    const LocalTensor<T>& tensor;
    SrcLoc loc;
    SymbolOperand(const LocalTensor<T>& t, SrcLoc l = {}) : tensor(t), loc(l) {}
};
enum class SymbolOp : uint8_t { Add, Sub, Mul, Div, Or, And, LT, GT, LE, GE, EQ, NE };
template <typename T, SymbolOp op> struct SymbolOverride;
// g++ names a template parameter in diagnostics after the first declaration that used LocalTensor<> with a
// parameter in that position; declaring this first makes the candidate lists read LocalTensor<T> / LocalTensor<U>
// as in the API's own declarations (e.g. Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, ...)).
namespace diag_names { template <typename T, typename U> void names(const LocalTensor<T>&, const LocalTensor<U>&); }

}  // namespace AscendC
struct int4b_t;   // compat.h: two per byte, the even element in the low 4 bits
namespace AscendC {
// The shape a kernel attaches to a LocalTensor (SetShapeInfo); some advanced APIs read it (AscendAntiQuant's
// per-channel offset / scale). Up to 8 dimensions, as in AscendC.
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
#endif
// K_MAX_SHAPE_DIM is a macro a kernel may define before it includes kernel_operator.h (0 to shrink its ShapeInfo, as
// AscendC's guide shows); 8 otherwise. The emulator's ShapeInfo keeps 8 slots whatever the kernel says, so that its
// layout is the one the runtime library was built with; the macro bounds what the kernel's own code reads.
#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif
constexpr int32_t SHAPE_INFO_SLOTS = 8;
struct ShapeInfo {
    ShapeInfo() {}
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], const DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
        for (int i = 0; i < shapeDim && i < SHAPE_INFO_SLOTS; ++i) shape[i] = inputShape[i];
        for (int i = 0; i < originalShapeDim && i < SHAPE_INFO_SLOTS; ++i) originalShape[i] = inputOriginalShape[i];
    }
    ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat = DataFormat::ND)
        : shapeDim(inputShapeDim), originalShapeDim(inputShapeDim), dataFormat(inputFormat) {
        for (int i = 0; i < shapeDim && i < SHAPE_INFO_SLOTS; ++i) shape[i] = originalShape[i] = inputShape[i];
    }
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[SHAPE_INFO_SLOTS] = {};
    uint32_t originalShape[SHAPE_INFO_SLOTS] = {};
    DataFormat dataFormat = DataFormat::ND;
};
inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo) {
    uint64_t n = 1;
    for (int i = 0; i < shapeInfo.shapeDim && i < SHAPE_INFO_SLOTS; ++i) n *= shapeInfo.shape[i];
    return n;
}
// A typed view of global memory. operator[] shifts the start; the recorded size stays the same. An offset into
// GlobalTensor<int4b_t> counts 4-bit elements, two per byte (AscendC asks for an even offset there).
template <typename T> class GlobalTensor {
    static uint64_t steps_of(uint64_t offset) { return std::is_same<T, ::int4b_t>::value ? offset / 2 : offset; }
public:
    using PrimType = T;
    __gm__ T* address_ = nullptr;
    uint64_t bufferSize_ = 0;

    GlobalTensor() {}
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize, SrcLoc = {}) { address_ = buffer; bufferSize_ = bufferSize; }
    void SetGlobalBuffer(__gm__ T* buffer, SrcLoc = {}) { address_ = buffer; bufferSize_ = 0; }
    T GetValue(uint64_t offset, SrcLoc loc = {}) const {
        return ascendcraft::emu::gm_get<T>(address_ + offset, loc);   // runtime.h: inlined unless a check is due
    }
    void SetValue(uint64_t offset, T value, SrcLoc loc = {}) const {
        ascendcraft::emu::gm_set<T>(address_ + offset, sizeof(T), &value, loc);   // runtime.h: no runtime call unless a check is due
    }
    GlobalTensor operator[](uint64_t offset) const { GlobalTensor view = *this; view.address_ = address_ + steps_of(offset); return view; }
    // The element at `offset` by reference (AscendC's `__gm__ PrimType& operator()(uint64_t)`): checked as a scalar
    // read (GetValue); a write through it is not tracked as one (write with SetValue to have it checked).
    T& operator()(uint64_t offset, SrcLoc loc = {}) const {
        return *static_cast<T*>(ascendcraft::emu::gm_ref(address_ + steps_of(offset), sizeof(T), loc));
    }
    uint64_t GetSize() const { return bufferSize_; }
    // As in AscendC: the start address is a pointer to const; GetPhyAddr(offset) is writable.
    const __gm__ T* GetPhyAddr() const { return address_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ + steps_of(offset); }
    template <CacheRwMode rwMode = CacheRwMode::RW> void SetL2CacheHint(CacheMode mode) { (void)mode; }
};

// AscendC's record of a buffer's place (the SDK's kernel_tensor_base.h: dataLen, bufferAddr, bufferHandle, logicPos), which
// TBuf::GetBufferAddr gives and LocalTensor::SetAddr takes (hicann ops-transformer's attention kernels keep L1 and L0
// views this way). The emulation keeps the view it describes in it too (emuDesc); bufferAddr is the view's byte
// offset inside its TBuf.
struct TBuffAddr {
    uint32_t dataLen = 0;
    uint32_t bufferAddr = 0;
    uint8_t* bufferHandle = nullptr;
    uint8_t logicPos = 0;
    ascendcraft::emu::Local emuDesc{};
};

}  // namespace AscendC
namespace ascendcraft { namespace emu {
// LocalTensor::InitBuffer(offset, size) and writes of address_.logicPos (emu_static_tensor.cpp): the view of `bytes`
// bytes at byte `offset` of the memory of TPosition `pos`, with AscendC's checks; the view `d` moved to the position
// `pos` (a view not yet placed: `pending`, at `offset`, made by the InitBuffer at `init`; `loc`: the write); a view's
// byte address inside its memory.
Local local_logic_pos(const Local& d, bool pending, uint32_t offset, uint8_t pos, SrcLoc loc, SrcLoc init);
uint32_t local_memory_offset(const Local& d);
}}  // namespace ascendcraft::emu
namespace AscendC {

// A typed view of a block's Unified Buffer. operator[] shifts the start and shrinks the size.
template <typename T> class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() {}
    explicit LocalTensor(const ascendcraft::emu::Local& desc) : desc_(desc) {}
    // Static Tensor programming: `tileSize` elements at byte address `addr` of the memory of `pos` (static_tensor.h).
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, SrcLoc loc = {});

    T GetValue(uint32_t index, SrcLoc loc = {}) const {
        T value{};
        if (kNibbles) {   // the 4-bit element `index`: the low half of byte index / 2 when even, the high half when odd
            uint8_t byte = 0;
            ascendcraft::emu::local_read(desc_, index / 2, 1, &byte, loc);
            byte = static_cast<uint8_t>((byte >> (4 * (index % 2))) & 0xF);
            std::memcpy(&value, &byte, 1);
            return value;
        }
        (void)value;
        return ascendcraft::emu::local_get<T>(desc_, index, loc);   // runtime.h: inlined unless a check is due
    }
    template <typename U> void SetValue(uint32_t index, U value, SrcLoc loc = {}) const {
        T converted = static_cast<T>(value);
        if (kNibbles) {   // only this element's 4 bits of the byte change
            uint8_t byte = 0, v = 0;
            std::memcpy(&v, &converted, 1);
            ascendcraft::emu::local_read(desc_, index / 2, 1, &byte, loc);
            const int shift = 4 * (index % 2);
            byte = static_cast<uint8_t>((byte & ~(0xF << shift)) | ((v & 0xF) << shift));
            ascendcraft::emu::local_write(desc_, index / 2, 1, &byte, loc);
            return;
        }
        ascendcraft::emu::local_set<T>(desc_, index, converted, loc);   // runtime.h: inlined unless a check is due
    }
    T& operator()(uint32_t index, SrcLoc loc = {}) const {
        return *static_cast<T*>(ascendcraft::emu::local_ref(desc_, index, sizeof(T), loc));
    }
    LocalTensor operator[](uint32_t offset) const {
        LocalTensor view = *this;
        uint64_t shift = bytes_of(offset);
        view.desc_.addr = desc_.addr + shift;
        view.desc_.bytes = shift < desc_.bytes ? static_cast<uint32_t>(desc_.bytes - shift) : 0u;
        view.desc_.cap = shift < desc_.cap ? static_cast<uint32_t>(desc_.cap - shift) : 0u;
        return view;
    }
    uint32_t GetSize() const { return kNibbles ? desc_.bytes * 2 : desc_.bytes / sizeof(T); }
    void SetSize(uint32_t size, SrcLoc loc = {}) { ascendcraft::emu::local_set_size(desc_, bytes_of(size), loc); }
    uint32_t GetLength() const { return desc_.bytes; }
    template <typename U> LocalTensor<U> ReinterpretCast() const { return LocalTensor<U>(desc_); }
    // As in AscendC on the device: the UB address is an integer (cast it to a __ubuf__ pointer to use it).
    uint64_t GetPhyAddr() const { return reinterpret_cast<uintptr_t>(desc_.addr); }
    uint64_t GetPhyAddr(uint32_t offset) const { return reinterpret_cast<uintptr_t>(desc_.addr) + bytes_of(offset); }
    // As in AscendC: the TPosition as an int32_t (compare with static_cast<int32_t>(TPosition::VECIN)).
    int32_t GetPosition() const { return static_cast<int32_t>(desc_.pos); }
    void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
    ShapeInfo GetShapeInfo() const { return shape_info_; }

    // AscendC's operator overloads: `dst = a * b` runs Mul(dst, a, b, dst.GetSize()) (symbol.h).
    template <typename E, typename = decltype(std::declval<const E&>().Process(std::declval<const LocalTensor&>()))>
    void operator=(const E& expr) { expr.Process(*this); }
#define ASCENDCRAFT_EMU_SYMBOL(OPER, OP)                                                                     \
    friend SymbolOverride<T, SymbolOp::OP> operator OPER(SymbolOperand<T> a, const LocalTensor& b) {         \
        return SymbolOverride<T, SymbolOp::OP>{a.tensor, b, a.loc};                                          \
    }
    ASCENDCRAFT_EMU_SYMBOL(+, Add) ASCENDCRAFT_EMU_SYMBOL(-, Sub) ASCENDCRAFT_EMU_SYMBOL(*, Mul)
    ASCENDCRAFT_EMU_SYMBOL(/, Div) ASCENDCRAFT_EMU_SYMBOL(|, Or) ASCENDCRAFT_EMU_SYMBOL(&, And)
    ASCENDCRAFT_EMU_SYMBOL(<, LT) ASCENDCRAFT_EMU_SYMBOL(>, GT) ASCENDCRAFT_EMU_SYMBOL(<=, LE)
    ASCENDCRAFT_EMU_SYMBOL(>=, GE) ASCENDCRAFT_EMU_SYMBOL(==, EQ) ASCENDCRAFT_EMU_SYMBOL(!=, NE)
#undef ASCENDCRAFT_EMU_SYMBOL

    // The runtime's view of this tensor (not part of the AscendC API).
    // the handle of the buffer the view starts at (TBufHandle), and a view set from a buffer's TBuffAddr
    uint8_t* GetBufferHandle() const { return desc_.addr; }
    void SetAddr(const TBuffAddr& address, SrcLoc loc = {}) {
        if (!address.emuDesc.addr)
            ascendcraft::emu::unsupported_call(ascendcraft::emu::Op::GetValue,
                "LocalTensor::SetAddr: this TBuffAddr was not given by a buffer's GetBufferAddr (the emulation knows a "
                "buffer's place only from it)", "take the TBuffAddr from TBuf::GetBufferAddr(tensor.GetBufferHandle())", loc);
        desc_ = address.emuDesc;
    }
    // The deprecated AscendC way to make a tensor over a whole memory (hicann ops-transformer's AsdopsBuffer in
    // flash_attention_score_grad and nsa_selected_attention_grad): `size` elements from byte `bufferOffset`, placed in
    // a memory when the kernel then writes address_.logicPos (a TPosition: VECIN -> UB, A1 -> L1, A2 -> L0A, B2 -> L0B,
    // CO1 -> L0C). Used before that, the tensor has no memory and the run stops at the use.
    [[deprecated("LocalTensor::InitBuffer is deprecated in AscendC: allocate through TPipe / TBuf, or use "
                 "LocalTensor(pos, addr, tileSize)")]]
    void InitBuffer(const uint32_t bufferOffset, const uint32_t bufferSize, SrcLoc loc = {}) {
        desc_ = ascendcraft::emu::Local{};
        desc_.bytes = desc_.cap = static_cast<uint32_t>(bytes_of(bufferSize));
        address_.ascendcraftOffset = bufferOffset;
        address_.ascendcraftPending = true;
        address_.ascendcraftInit = loc;
    }
    // AscendC's address_ (TBuffAddr), as kernels use it: read whole (a TBuffAddr that SetAddr takes back), and its
    // logicPos read or written (a write places a tensor InitBuffer made, or renames the position of a placed one
    // within its memory). The tensor's place itself stays in desc_; address_ holds only InitBuffer's offset until
    // the write. (`a.address_.logicPos = b.address_.logicPos` copies nothing: write the value,
    // `static_cast<uint8_t>(b.address_.logicPos)`.)
    struct Address {
        // the value written, with the kernel line of the write (an implicit conversion's default arguments are
        // evaluated where the kernel assigns)
        struct Written {
            uint8_t pos;
            SrcLoc loc;
            Written(uint8_t p, SrcLoc l = {}) : pos(p), loc(l) {}
        };
        struct LogicPos {
            LogicPos& operator=(Written w) { owner().set_logic_pos(w.pos, w.loc); return *this; }
            operator uint8_t() const { return owner().desc_.pos; }
        private:
            LocalTensor& owner() const {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
                return *reinterpret_cast<LocalTensor*>(const_cast<char*>(reinterpret_cast<const char*>(this))
                                                       - offsetof(Address, logicPos) - offsetof(LocalTensor, address_));
#pragma GCC diagnostic pop
            }
        } logicPos;
        uint32_t ascendcraftOffset = 0;     // InitBuffer's byte offset, until logicPos places the tensor
        bool ascendcraftPending = false;
        SrcLoc ascendcraftInit{};           // where InitBuffer was called
        operator TBuffAddr() const {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
            const LocalTensor& t = *reinterpret_cast<const LocalTensor*>(reinterpret_cast<const char*>(this)
                                                                         - offsetof(LocalTensor, address_));
#pragma GCC diagnostic pop
            TBuffAddr a;
            a.dataLen = t.desc_.bytes;
            a.bufferAddr = t.desc_.addr ? ascendcraft::emu::local_memory_offset(t.desc_) : ascendcraftOffset;
            a.bufferHandle = t.desc_.addr;
            a.logicPos = t.desc_.pos;
            a.emuDesc = t.desc_;
            return a;
        }
    };
    Address address_;

    const ascendcraft::emu::Local& emu() const { return desc_; }
    ascendcraft::emu::Local& emu() { return desc_; }

private:
    void set_logic_pos(uint8_t pos, SrcLoc loc) {
        desc_ = ascendcraft::emu::local_logic_pos(desc_, address_.ascendcraftPending, address_.ascendcraftOffset, pos, loc,
                                                  address_.ascendcraftInit);
        address_.ascendcraftPending = false;
    }
    // LocalTensor<int4b_t> counts 4-bit elements, two per byte (the even one in the low half), as AscendC does: its
    // offsets, sizes and GetPhyAddr(offset) are halved into bytes
    static constexpr bool kNibbles = std::is_same<T, ::int4b_t>::value;
    static uint64_t bytes_of(uint64_t elements) { return kNibbles ? elements / 2 : elements * sizeof(T); }
    ascendcraft::emu::Local desc_;
    ShapeInfo shape_info_;
};

}  // namespace AscendC
