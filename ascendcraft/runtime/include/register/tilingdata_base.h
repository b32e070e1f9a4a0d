// AscendCraft: msopgen-style tiling structs as plain C++ structs, usable on the host side
// (set_<field>, SaveToBuffer, GetDataSize) and on the kernel side (GET_TILING_DATA copies the same
// bytes back). Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ascendcraft_emu/cube_tiling.h"   // TCubeTiling, for TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...)
#include "ascendcraft_emu/tiling_bind.h"   // SetDataPtr's binding of an object to a tiling buffer

namespace optiling {}
// The advanced APIs' tiling structs, for TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...) and the like.
#include "ascendcraft_emu/norm_tiling_data.h"
#include "ascendcraft_emu/pad_tiling_data.h"   // PadTiling, UnPadTiling (lib/pad)

#define BEGIN_TILING_DATA_DEF(name) \
    struct name {                   \
        ~name() { ::ascendcraft::tiling_bind_detail::release(this); }
#define TILING_DATA_FIELD_DEF(type, field)            \
    type field = type();                              \
    void set_##field(type value) { field = value; }   \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                    \
    type field[count] = {};                                                              \
    void set_##field(const type* value) { std::memcpy(field, value, sizeof(field)); }   \
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
    };  /* the struct ends here: projects write END_TILING_DATA_DEF; and END_TILING_DATA_DEF alike */
// An op project build (ascendcraft.opproject) defines ASCENDCRAFT_OP_TYPE: every registration gets its own
// name (nested structs are registered too) and GET_TILING_DATA takes the op's. Otherwise the one registration
// is the kernel's tiling struct.
#ifdef ASCENDCRAFT_OP_TYPE
#define REGISTER_TILING_DATA_CLASS(op, cls) using AscendCraftTilingData_##op = cls;
#else
#define REGISTER_TILING_DATA_CLASS(op, cls) using AscendCraftTilingData = cls;
#endif
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
