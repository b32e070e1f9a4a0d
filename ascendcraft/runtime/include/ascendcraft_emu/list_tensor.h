// AscendCraft CPU emulation: ListTensorDesc and TensorDesc (kernel_operator_list_tensor_intf.h), the reader of the
// list-of-tensors argument a dynamic-input op receives in GM. Its layout (little-endian 64-bit words): word 0 is the
// byte offset of the data-pointer array; then one descriptor per tensor, a word holding dim (low 32 bits) and the
// tensor's index (high 32 bits) followed by dim shape words (dim 0: a descriptor of two words, pointers only); then
// the data pointers. Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstdint>

#include "math.h"
#include "tensor.h"

namespace AscendC {
class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    TensorDesc() {}
    ~TensorDesc() {}
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset, SrcLoc loc = {}) {
        if (offset >= dim_ || !shape_)
            ascendcraft::emu::kernel_assert_failed("offset < dim", "TensorDesc::GetShape: no such dimension (or no SetShapeAddr)", loc);
        return shape_[offset];
    }
    __gm__ T* GetDataPtr() { return ptr_; }
    GlobalTensor<T> GetDataObj() {
        uint64_t count = 1;
        for (uint32_t i = 0; i < dim_ && shape_; ++i) count *= shape_[i];
        GlobalTensor<T> obj;
        obj.SetGlobalBuffer(ptr_, count);
        return obj;
    }
    friend class ListTensorDesc;

private:
    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t* shape_ = nullptr;
    T* ptr_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() {}
    ~ListTensorDesc() {}
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, SrcLoc loc = {}) {
        Init(data, length, shapeSize, loc);
    }
    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff, SrcLoc loc = {}) {
        if (!data) ascendcraft::emu::kernel_assert_failed("data != nullptr", "ListTensorDesc: the list pointer is null", loc);
        const uint64_t* words = static_cast<const uint64_t*>(data);
        const uint64_t ptrOffset = words[0];
        descs_ = words + 1;
        ptrs_ = words + ptrOffset / sizeof(uint64_t);
        dim_ = static_cast<uint32_t>(descs_[0] & 0xffffffffu);
        const uint32_t first = static_cast<uint32_t>(descs_[0] >> 32);
        stride_ = dim_ == 0 ? 2 : 1 + dim_;
        count_ = first != 0 ? first : static_cast<uint32_t>(ptrs_[-static_cast<int64_t>(stride_)] >> 32) + 1;
        const bool consistent = dim_ != 0 ? count_ == (ptrOffset - sizeof(uint64_t)) / (stride_ * sizeof(uint64_t))
                                          : (descs_[1] == 0xffffffffu && ptrOffset == 24);
        if (!consistent)
            ascendcraft::emu::kernel_assert_failed("the list's layout", "ListTensorDesc: the descriptors do not match the "
                                                   "data-pointer offset (word 0) and the tensors' count", loc);
        if (length != 0xffffffff && shapeSize != 0xffffffff &&
            (count_ != shapeSize || length != ptrOffset + count_ * sizeof(uint64_t)))
            ascendcraft::emu::kernel_assert_failed("length / shapeSize", "ListTensorDesc: length or shapeSize disagrees with the list", loc);
    }
    template <class T>
    void GetDesc(TensorDesc<T>& desc, uint32_t index, SrcLoc loc = {}) {
        if (index >= count_ || dim_ == 0)
            ascendcraft::emu::kernel_assert_failed("index < count && dim != 0", "ListTensorDesc::GetDesc: no such tensor, or the "
                                                   "list holds data pointers only", loc);
        desc.dim_ = dim_;
        desc.index_ = index;
        desc.ptr_ = reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index]));
        if (desc.shape_)
            for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = descs_[static_cast<uint64_t>(index) * stride_ + 1 + i];
    }
    template <class T>
    __gm__ T* GetDataPtr(uint32_t index, SrcLoc loc = {}) {
        if (index >= count_)
            ascendcraft::emu::kernel_assert_failed("index < count", "ListTensorDesc::GetDataPtr: no such tensor", loc);
        return reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index]));
    }
    uint32_t GetSize() { return count_; }

private:
    const uint64_t* descs_ = nullptr;
    const uint64_t* ptrs_ = nullptr;
    uint32_t dim_ = 0, stride_ = 0, count_ = 0;
};
}  // namespace AscendC
