// AscendCraft: msopgen-style tiling structs as plain C++ structs, usable on the host side
// (set_<field>, SaveToBuffer, GetDataSize) and on the kernel side (GET_TILING_DATA copies the same
// bytes back). Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "ascendcraft_emu/cube_tiling.h"   // TCubeTiling, for TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...)
#include "ascendcraft_emu/tiling_bind.h"   // SetDataPtr's binding of an object to a tiling buffer

namespace optiling {}
// The advanced APIs' tiling structs, for TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...) and the like.
#include "ascendcraft_emu/norm_tiling_data.h"
#include "ascendcraft_emu/pad_tiling_data.h"   // PadTiling, UnPadTiling (lib/pad)
#include "ascendcraft_emu/transpose_tiling_data.h"   // ConfusionTransposeTiling (adv_api/transpose)

// The Ascend C project framework pads a tiling struct to 8 bytes as a whole, so that the next one (a nested struct
// field, or the next struct in the buffer) starts 8-byte aligned, and each field sits at a multiple of its own size
// (TilingData结构定义 / 限制TilingData结构大小 in the AscendC docs): {uint8, uint32, uint8, uint32, uint32} is 24 bytes,
// a struct field follows an odd number of uint32 at the next 8-byte offset. alignas(8) gives that layout, on the host
// (GetDataSize: CANN's op hosts check it is a multiple of 8) and on the kernel side alike.
// CANN's base class of the BEGIN_TILING_DATA_DEF classes: host code that knows a tiling object only as a TilingDef&
// saves it through it (vllm-ascend sparse_flash_attention_tiling.cpp: `SetTilingData(TilingDef &tilingData)` calls
// `tilingData.SaveToBuffer(data, capacity)` and `SetDataSize(tilingData.GetDataSize())`). The emulation's tiling
// structs have no base: the kernel side reads their fields' layout, and an empty base would move a first field that is
// a nested tiling struct with the same base. Each struct instead converts to a TilingDef& that stands for it (the
// conversion binds a `TilingDef&` parameter as the derived-to-base conversion does): a view of the object's address
// and size, kept while the object lives, whose GetDataSize, SaveToBuffer and SetDataPtr do what the struct's own do.
namespace optiling {
class TilingDef {
public:
    size_t GetDataSize() const { return size_; }
    void SaveToBuffer(void* dst, size_t capacity) const {
        std::memcpy(dst, object_, size_ < capacity ? size_ : capacity);
    }
    void SetDataPtr(void* buffer) { ::ascendcraft::tiling_bind_detail::bind(object_, size_, buffer); }
    TilingDef(const TilingDef&) = delete;
    TilingDef& operator=(const TilingDef&) = delete;
    TilingDef(const void* object, size_t size) : object_(object), size_(size) {}   // the emulation's view (below)

private:
    const void* object_;
    size_t size_;
};
}  // namespace optiling
namespace ascendcraft {
namespace tiling_bind_detail {   // the emulation's own: the TilingDef view of each tiling object that was asked for one
// keyed by address and size: a nested struct that is its outer struct's first field has the outer's address
using ViewKey = std::pair<const void*, size_t>;
inline std::map<ViewKey, std::unique_ptr<::optiling::TilingDef>>& views() {
    static std::map<ViewKey, std::unique_ptr<::optiling::TilingDef>> v;
    return v;
}
inline std::atomic<size_t> view_count{0};   // the destructors of objects never viewed return at once
inline ::optiling::TilingDef& view(const void* object, size_t size) {
    std::lock_guard<std::mutex> g(lock());
    std::unique_ptr<::optiling::TilingDef>& v = views()[ViewKey(object, size)];
    if (!v) v.reset(new ::optiling::TilingDef(object, size));
    view_count.store(views().size(), std::memory_order_relaxed);
    return *v;
}
inline void drop_view(const void* object) {   // the object's destructor (and so its nested structs' views)
    if (view_count.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard<std::mutex> g(lock());
    auto& v = views();
    v.erase(v.lower_bound(ViewKey(object, 0)), v.upper_bound(ViewKey(object, SIZE_MAX)));
    view_count.store(v.size(), std::memory_order_relaxed);
}
}  // namespace tiling_bind_detail
}  // namespace ascendcraft
#define BEGIN_TILING_DATA_DEF(name) \
    struct alignas(8) name {        \
        ~name() { ::ascendcraft::tiling_bind_detail::release(this); ::ascendcraft::tiling_bind_detail::drop_view(this); }
// (the setters' parameter has a name no field takes: a field called `value`, as the samples' AddcdivCustom has, would
// otherwise be hidden by it in `set_value`, which then assigned the parameter to itself and left the field 0)
#define TILING_DATA_FIELD_DEF(type, field)                                        \
    type field = type();                                                          \
    void set_##field(type ascendcraft_set_to) { field = ascendcraft_set_to; }     \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                                        \
    type field[count] = {};                                                                                  \
    void set_##field(const type* ascendcraft_set_to) { std::memcpy(field, ascendcraft_set_to, sizeof(field)); } \
    type* get_##field() { return field; }   /* host code keeps and writes through it */   \
    const type* get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field = type();
// SetDataPtr(buffer): CANN's tiling object then reads and writes its fields in the buffer (the op host later only
// calls SetDataSize(GetDataSize())). Here the fields stay the struct's own, so the layout and sizeof the kernel side
// reads are unchanged: the object is bound to the buffer (tiling_bind.h), which receives the fields at once, when the
// object is destroyed (BEGIN_TILING_DATA_DEF's destructor: nothing for an unbound object, such as the kernel
// side's) and when the tiling function returns.
#define END_TILING_DATA_DEF                                                                          \
    size_t GetDataSize() const { return sizeof(*this); }                                             \
    void SetDataPtr(void* buffer) { ::ascendcraft::tiling_bind_detail::bind(this, sizeof(*this), buffer); } \
    void SaveToBuffer(void* dst, size_t capacity) const {                                            \
        std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);                 \
    }                                                                                                \
    operator ::optiling::TilingDef&() { return ::ascendcraft::tiling_bind_detail::view(this, sizeof(*this)); } \
    operator const ::optiling::TilingDef&() const {                                                  \
        return ::ascendcraft::tiling_bind_detail::view(this, sizeof(*this));                          \
    }                                                                                                \
    };  /* the struct ends here: projects write END_TILING_DATA_DEF; and END_TILING_DATA_DEF alike */
// An op project build (ascendcraft.opproject) defines ASCENDCRAFT_OP_TYPE: every registration gets its own
// name (nested structs are registered too) and GET_TILING_DATA takes the op's. Otherwise the one registration
// is the kernel's tiling struct.
// The choice is made where the macro is used, not where this header is read (no #ifdef ASCENDCRAFT_OP_TYPE here): g++
// refuses a precompiled header whose text tested a macro that the build defines, and the op-project host headers
// (op_def_registry.h, which includes this one) are precompiled once for every project (ascendcraft.emu.host_object).
// g++ refuses it too when the build defines a macro whose name occurs anywhere in it, so that name is not written
// here either: it is pasted together where REGISTER_TILING_DATA_CLASS is used (ASCENDCRAFT_OP_TYPE_NAME_).
// ASCENDCRAFT_OP_PROJECT() is 1 when ASCENDCRAFT_OP_TYPE is defined (to the op's type, an identifier), else 0: pasted
// after ASCENDCRAFT_OP_PROJECT_ the undefined name becomes the probe below, which expands to `~, 0`.
#define ASCENDCRAFT_OP_PROJECT_ASCENDCRAFT_OP_TYPE ~, 0
#define ASCENDCRAFT_SECOND_(a, b, ...) b
#define ASCENDCRAFT_SECOND(...) ASCENDCRAFT_SECOND_(__VA_ARGS__)
#define ASCENDCRAFT_OP_TYPE_NAME_(a, b) a##b
#define ASCENDCRAFT_OP_PROJECT_PASTE_(a) ASCENDCRAFT_OP_PROJECT_##a
#define ASCENDCRAFT_OP_PROJECT_PASTE(a) ASCENDCRAFT_OP_PROJECT_PASTE_(a)
#define ASCENDCRAFT_OP_PROJECT() \
    ASCENDCRAFT_SECOND(ASCENDCRAFT_OP_PROJECT_PASTE(ASCENDCRAFT_OP_TYPE_NAME_(ASCENDCRAFT_OP_, TYPE)), 1, ~)
#define ASCENDCRAFT_TILING_NAME_0(named) AscendCraftTilingData
#define ASCENDCRAFT_TILING_NAME_1(named) named
#define ASCENDCRAFT_TILING_NAME_PICK_(flag, named) ASCENDCRAFT_TILING_NAME_##flag(named)
#define ASCENDCRAFT_TILING_NAME_PICK(flag, named) ASCENDCRAFT_TILING_NAME_PICK_(flag, named)
#define REGISTER_TILING_DATA_CLASS(op, cls) \
    using ASCENDCRAFT_TILING_NAME_PICK(ASCENDCRAFT_OP_PROJECT(), AscendCraftTilingData_##op) = cls;
// CANN's tiling headers see the graph and context types (gert::, ge::) wherever they are included, the kernel
// build's copy of an op's tiling header too.
#include "register/op_def_registry.h"
// Public op hosts that build with CANN name std's string, vector and map unqualified inside namespace optiling
// (NPUKernelBench ScatterList's `vector<int64_t>`, GeGluGradV2's map, cann-ops cube_tiling_runtime.h's `string`): the
// SDK's headers make them visible there.
namespace optiling {
using std::string;
using std::vector;
using std::map;
}  // namespace optiling
