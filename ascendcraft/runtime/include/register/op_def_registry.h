// AscendCraft host-side emulation of the CANN op-project API that an msopgen op_host/<op>.cpp uses:
// the operator definition (OpDef, OP_ADD), the graph types (ge::DataType, ge::Format, graphStatus)
// and the subset of gert::TilingContext / InferShapeContext a tiling function needs (shapes, dtypes,
// attrs, block dim, tiling key, raw tiling data, workspace, platform info). Anything else is a compile
// error naming the missing member. Written from the public CANN documentation; no vendor code.
// Why one header (about 1,050 lines): op_host sources include CANN's header of this name and expect everything above
// from it; splitting it would only make this file a list of includes.
#pragma once
#include "ascendcraft_emu/type_macros_push.h"   // kernel_type.h's DT_* / FORMAT_* macros are ge enumerators here

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include <initializer_list>
#include <limits>          // CANN's exe_graph/runtime/shape.h includes it (kInvalidDimValue); op_host files use it without their own
#include <type_traits>
#include <iostream>
#include <map>
#include <memory>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "securec.h"   // CANN's exe_graph/runtime/tiling_data.h (gert::TilingData, below) includes <securec.h>: op_host
                       // sources call memset_s / memcpy_s through it (cann-ops gemm/cache_tiling_basic_block_calc.cc)
#include "register/tilingdata_base.h"
#include "ascendcraft_emu/ge_shape.h"   // ge::Shape (ge::TensorDesc::GetShape)

namespace ge {
using char_t = char;
using float32_t = float;    // GE's fixed-width float names (ops-nn mat_mul_v3's tiling: using ge::float32_t)
using float64_t = double;
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;   // GE's 'nothing changed' (check-support: unknown)
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;   // a tiling class that cannot tile the case (the next one tries)
constexpr graphStatus GRAPH_NULL_PTR = 50331538;        // GE's code for a null pointer (op hosts return it for a null context)
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;   // GE's code for a parameter out of range (ops-nn rms_norm_quant's tiling)
// ge::Status, the result code of GE's API (an op host's own helpers return it: AddRmsNormQuant's `!= SUCCESS`)
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
}  // namespace ge

// Where a tiling function failed. A host run that ends in GRAPH_FAILED says only that it failed; the user wants the
// `return ge::GRAPH_FAILED` that did it. So every evaluation of GRAPH_FAILED (below, the macro) notes its file and line
// in the host process's failure log; the op-project glue prints the log when the tiling function fails and the
// Python side picks out the returns (a comparison such as `status == ge::GRAPH_FAILED` is noted too, and told apart
// there by its source line). Constant evaluation (`case ge::GRAPH_FAILED:`, static_assert) notes nothing.
namespace ascendcraft { namespace host_failures {
struct Place { const char* file; int line; };
constexpr unsigned kKept = 16;                 // the newest places only: a failing tiling returns within a few
struct Log { Place places[kKept] = {}; unsigned count = 0; };
inline Log& log() { static Log kept; return kept; }   // one per host process (the glue reads it after TilingFunc)
inline void note(const char* file, int line) { Log& l = log(); l.places[l.count++ % kKept] = Place{file, line}; }
}}  // namespace ascendcraft::host_failures

namespace ge {
constexpr graphStatus graph_failed_at(const char* file, int line) {
    if (!__builtin_is_constant_evaluated()) ::ascendcraft::host_failures::note(file, line);
    return GRAPH_FAILED;
}
enum DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_BF16 = 27,
    DT_UNDEFINED = 28, DT_COMPLEX32 = 33,
    // the rest of GE's enumerators, which shared host headers name (cann-ops op_tiling_util.h's dtype-name table);
    // no emulated kernel runs on them
    DT_STRING = 13, DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_QINT8 = 18, DT_QINT16 = 19, DT_QINT32 = 20,
    DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24, DT_DUAL = 25, DT_VARIANT = 26, DT_INT4 = 29,
    DT_UINT1 = 30, DT_INT2 = 31, DT_UINT2 = 32, DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37, DT_FLOAT6_E3M2 = 38, DT_FLOAT6_E2M3 = 39, DT_FLOAT4_E2M1 = 40, DT_FLOAT4_E1M2 = 41,
    DT_MAX = 42   // the boundary past every data type (as C_DT_MAX): an op host's 'not known yet' (mse_loss_v2's tiling)
};
// GE's string (compile info, operator names in host helpers' signatures)
class AscendString {
public:
    AscendString() = default;
    AscendString(const char* text) : text_(text ? text : "") {}
    const char* GetString() const { return text_.c_str(); }
    size_t GetLength() const { return text_.size(); }
    bool operator<(const AscendString& o) const { return text_ < o.text_; }
    bool operator==(const AscendString& o) const { return text_ == o.text_; }
    bool operator!=(const AscendString& o) const { return text_ != o.text_; }
private:
    std::string text_;
};
enum Format : int32_t {   // ge::Format's values (ascendcraft.opproject.FORMATS)
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4, FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6, FORMAT_FSR_NCHW = 7, FORMAT_FRACTAL_DECONV = 8, FORMAT_C1HWNC0 = 9,
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10, FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11, FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13, FORMAT_CHWN = 14, FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15, FORMAT_HWCN = 16,
    FORMAT_NC1KHKWHWC0 = 17, FORMAT_BN_WEIGHT = 18, FORMAT_FILTER_HWCK = 19, FORMAT_C1HWNCoC0 = 25, FORMAT_MD = 26,
    FORMAT_NDHWC = 27, FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32, FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35, FORMAT_DHWNC = 36,
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37, FORMAT_FRACTAL_ZN_LSTM = 38, FORMAT_FRACTAL_Z_G = 39,
    FORMAT_ND_RNN_BIAS = 43, FORMAT_FRACTAL_ZN_RNN = 44, FORMAT_NYUV = 45, FORMAT_NYUV_A = 46, FORMAT_NCL = 47,
    FORMAT_FRACTAL_Z_WINO = 48, FORMAT_C1HWC0 = 49, FORMAT_FRACTAL_NZ_C0_16 = 50, FORMAT_FRACTAL_NZ_C0_32 = 51,
    FORMAT_FRACTAL_NZ_C0_2 = 52, FORMAT_FRACTAL_NZ_C0_4 = 53, FORMAT_FRACTAL_NZ_C0_8 = 54,
    FORMAT_RESERVED = 40, FORMAT_ALL = 41, FORMAT_NULL = 42, FORMAT_MAX = 0xff
};
// GE's GetSizeByDataType gives a sub-byte type's size as this offset plus its bits; op hosts reject such a size
// (ops-transformer flash_attention_score_grad's tilings: `size >= ge::kDataTypeSizeBitOffset`). The emulated
// GetSizeByDataType below gives those types no size (-1) instead; GetSizeInBytes packs them.
constexpr int32_t kDataTypeSizeBitOffset = 1000;
// GE's graph/types.h: the one dim of an unknown-rank shape, {-2} (cann-ops moe_init_routing_v2's InferShape compares a
// dim with it, reaching it through this header alone)
constexpr int64_t UNKNOWN_DIM_NUM = -2;
// and an unknown dim, -1 (cann-ops grid_sample's InferShape: `GetDim(0U) != ge::UNKNOWN_DIM`); ops-base's shape helpers
// (ascendcraft_emu/ops_base.h) name this one constant too
constexpr int64_t UNKNOWN_DIM = -1;
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
    case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
    case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
    case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
    case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
    case DT_COMPLEX32: return 4;
    case DT_COMPLEX128: return 16;
    default: return -1;
    }
}
// the bytes of `element_count` elements of a type (sub-byte types packed: two int4 in a byte, rounded up); -1 for a
// negative count or a type without a size
inline int64_t GetSizeInBytes(int64_t element_count, DataType data_type) {
    if (element_count < 0) return -1;
    int64_t bits = 0;
    switch (data_type) {
    case DT_INT4: case DT_FLOAT4_E2M1: case DT_FLOAT4_E1M2: bits = 4; break;
    case DT_INT2: case DT_UINT2: bits = 2; break;
    case DT_UINT1: bits = 1; break;
    case DT_FLOAT6_E3M2: case DT_FLOAT6_E2M3: bits = 6; break;
    case DT_HIFLOAT8: case DT_FLOAT8_E5M2: case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E8M0: case DT_QINT8: case DT_QUINT8:
        bits = 8; break;
    case DT_QINT16: case DT_QUINT16: bits = 16; break;
    case DT_QINT32: bits = 32; break;
    default: { const int size = GetSizeByDataType(data_type); if (size < 0) return -1; bits = 8 * size; }
    }
    return (element_count * bits + 7) / 8;
}
class InferShapeContextPlaceholder;
// GE's graph view of an operator (graph/operator.h): the old-style (TBE) tiling helpers of shared host headers take
// one, and an OpDef's check-support function reads its tensor descriptions and attributes by name (NPUKernelBench
// ReverseSequence: SetCheckSupport(CheckSupported), where CheckSupported(const ge::Operator&, ge::AscendString&)).
// The emulated host runs no graph and calls no check-support function; the view holds what is set on it.
class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(const Shape& shape, Format format = FORMAT_ND, DataType dtype = DT_FLOAT)
        : shape_(shape), format_(format), dtype_(dtype) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape& shape) { shape_ = shape; }
    Shape GetOriginShape() const { return shape_; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dtype) { dtype_ = dtype; }
    Format GetFormat() const { return format_; }
    Format GetOriginFormat() const { return format_; }
    void SetFormat(Format format) { format_ = format; }
private:
    Shape shape_;
    Format format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
};
class Operator {
public:
    Operator() = default;
    // a named operator of a type (the classes graph/operator_reg.h's REG_OP makes construct their base this way)
    explicit Operator(const char* type) : type_(type ? type : "") {}
    Operator(const char* name, const char* type) : name_(name ? name : ""), type_(type ? type : "") {}
    Operator(const AscendString& name, const char* type) : Operator(name.GetString(), type) {}
    graphStatus GetName(AscendString& name) const { name = AscendString(name_.c_str()); return GRAPH_SUCCESS; }
    graphStatus GetOpType(AscendString& type) const { type = AscendString(type_.c_str()); return GRAPH_SUCCESS; }
    TensorDesc GetInputDescByName(const char* name) const { return find(inputs_, name); }
    TensorDesc GetOutputDescByName(const char* name) const { return find(outputs_, name); }
    graphStatus UpdateInputDesc(const char* name, const TensorDesc& desc) { return update(inputs_, input_order_, name, desc); }
    graphStatus UpdateOutputDesc(const char* name, const TensorDesc& desc) { return update(outputs_, output_order_, name, desc); }
    // By index: the inputs (outputs) in the order they were first named, which for an operator of the IR (REG_OP) is
    // the IR's order, a dynamic input's instances where create_dynamic_input_<x> adds them (ops-nn dynamic_rnnv2's
    // OpSelectFormat reads GetInputDesc(0).GetShape()); an empty TensorDesc past the last
    TensorDesc GetInputDesc(uint32_t index) const {
        return index < input_order_.size() ? find(inputs_, input_order_[index].c_str()) : TensorDesc();
    }
    TensorDesc GetOutputDesc(uint32_t index) const {
        return index < output_order_.size() ? find(outputs_, output_order_[index].c_str()) : TensorDesc();
    }
    // an attribute of one of GE's scalar attribute types (int64_t, float, bool, std::string): GRAPH_FAILED when the
    // operator has none of that name and type
    template <typename T> Operator& SetAttr(const char* name, const T& value) {
        attrs_[name] = Attr{}; assign(attrs_[name], value); return *this;
    }
    template <typename T> graphStatus GetAttr(const char* name, T& value) const {
        auto it = attrs_.find(name);
        return it != attrs_.end() && read(it->second, value) ? GRAPH_SUCCESS : GRAPH_FAILED;
    }
private:
    struct Attr { int kind = -1; int64_t i = 0; float f = 0; std::string s; };
    static void assign(Attr& a, bool v) { a.kind = 2; a.i = v; }
    static void assign(Attr& a, float v) { a.kind = 1; a.f = v; }
    static void assign(Attr& a, double v) { a.kind = 1; a.f = static_cast<float>(v); }
    static void assign(Attr& a, const std::string& v) { a.kind = 3; a.s = v; }
    static void assign(Attr& a, const char* v) { a.kind = 3; a.s = v; }
    template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
    static void assign(Attr& a, T v) { a.kind = 0; a.i = static_cast<int64_t>(v); }
    static bool read(const Attr& a, bool& v) { if (a.kind != 2) return false; v = a.i != 0; return true; }
    static bool read(const Attr& a, float& v) { if (a.kind != 1) return false; v = a.f; return true; }
    static bool read(const Attr& a, std::string& v) { if (a.kind != 3) return false; v = a.s; return true; }
    template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
    static bool read(const Attr& a, T& v) { if (a.kind != 0) return false; v = static_cast<T>(a.i); return true; }
    static graphStatus update(std::map<std::string, TensorDesc>& m, std::vector<std::string>& order, const char* name,
                              const TensorDesc& desc) {
        const std::string key = name ? name : "";
        if (m.find(key) == m.end()) order.push_back(key);
        m[key] = desc;
        return GRAPH_SUCCESS;
    }
    static TensorDesc find(const std::map<std::string, TensorDesc>& m, const char* name) {
        auto it = m.find(name ? name : "");
        return it == m.end() ? TensorDesc() : it->second;
    }
    std::string name_, type_;
    std::map<std::string, TensorDesc> inputs_, outputs_;
    std::vector<std::string> input_order_, output_order_;
    std::map<std::string, Attr> attrs_;
};
// A storage format may carry a sub-format in its upper bits; the primary format is its lowest byte.
inline int32_t GetPrimaryFormat(int32_t format) { return format & 0xff; }
}  // namespace ge

namespace gert {

class Shape {
public:
    // CANN's gert::Shape keeps its dims in a fixed array of kMaxDimNum slots and a count: slots past the count keep
    // their values (SetDimNum only moves the count), and operator[] gives a reference to a slot, so a tiling function
    // may write through it (NPUKernelBench ReverseSequence's strided-slice helper: `dense->begin[i] = 0`).
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        if (dims.size() > kMaxDimNum) return;
        for (int64_t d : dims) dims_[num_++] = d;
    }
    size_t GetDimNum() const { return num_; }
    int64_t GetDim(size_t i) const { return i < kMaxDimNum ? dims_[i] : kInvalidDimValue; }
    void SetDimNum(size_t n) { num_ = n; }
    void SetDim(size_t i, int64_t v) {   // as CANN: the count becomes at least i (not i + 1)
        if (i >= kMaxDimNum) return;
        dims_[i] = v;
        if (num_ < i) num_ = i;
    }
    Shape& AppendDim(int64_t v) {
        if (num_ < kMaxDimNum) dims_[num_++] = v;
        return *this;
    }
    bool IsScalar() const { return num_ == 0; }   // rank 0 (cann-ops pooling 3d, group_quant)
    void SetScalar() { num_ = 0; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < num_; ++i) n *= dims_[i];
        return n;
    }
    const int64_t& operator[](size_t i) const { return dims_[i]; }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const {
        if (num_ != o.num_) return false;
        for (size_t i = 0; i < num_; ++i) if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }
private:
    size_t num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

// A view tensor's strides in elements, one per dimension (metadef's gert::Stride, kept like Shape: a fixed array of
// kMaxDimNum slots and a count; GetStride past the slots gives kInvalidStrideValue). Only a non-contiguous tensor (a
// view) carries one: the emulated runs hand over contiguous tensors, so the tiling context gives none (see
// TilingContext::GetInputStride).
class Stride {
public:
    static constexpr size_t kMaxDimNum = Shape::kMaxDimNum;
    static constexpr int64_t kInvalidStrideValue = std::numeric_limits<int64_t>::min();
    Stride() = default;
    Stride(std::initializer_list<int64_t> strides) {
        if (strides.size() > kMaxDimNum) return;
        for (int64_t v : strides) strides_[num_++] = v;
    }
    size_t GetDimNum() const { return num_; }
    void SetDimNum(size_t n) { num_ = n; }
    int64_t GetStride(size_t i) const { return i < kMaxDimNum ? strides_[i] : kInvalidStrideValue; }
    void SetStride(size_t i, int64_t v) {
        if (i >= kMaxDimNum) return;
        strides_[i] = v;
        if (num_ <= i) num_ = i + 1;
    }
    Stride& AppendStride(int64_t v) {
        if (num_ < kMaxDimNum) strides_[num_++] = v;
        return *this;
    }
    const int64_t& operator[](size_t i) const { return strides_[i]; }
    int64_t& operator[](size_t i) { return strides_[i]; }
    bool operator==(const Stride& o) const {
        if (num_ != o.num_) return false;
        for (size_t i = 0; i < num_; ++i) if (strides_[i] != o.strides_[i]) return false;
        return true;
    }
    bool operator!=(const Stride& o) const { return !(*this == o); }
private:
    size_t num_ = 0;
    int64_t strides_[kMaxDimNum] = {};
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    // metadef's GetShape / MutableShape are the origin shape (hicann ops-math radix_top_k's tiling reads GetShape)
    const Shape& GetShape() const { return origin_; }
    Shape& MutableShape() { return origin_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    // both shapes equal (NPUKernelBench AddLayerNormGrad compares its inputs' StorageShapes)
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }
private:
    Shape origin_, storage_;
};

// A tensor's origin and storage formats (gert::StorageFormat); the emulated tensors keep one format for both.
class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(ge::Format f) { origin_ = f; }
    void SetStorageFormat(ge::Format f) { storage_ = f; }
private:
    ge::Format origin_ = ge::FORMAT_ND, storage_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    // both formats at once (BatchNormV3's tiling: xDesc->GetFormat().GetStorageFormat())
    StorageFormat GetFormat() const { return StorageFormat(format_, format_); }
    ge::Format GetOriginFormat() const { return format_; }
    ge::Format GetStorageFormat() const { return format_; }
    ge::DataType dtype_ = ge::DT_FLOAT;
    ge::Format format_ = ge::FORMAT_ND;
};

// Where a tensor's data is (CANN's exe_graph TensorData placements) and the documented predicates on it: IsOnHost for
// host memory, the data right after the tensor's struct (kFollowing) or not (kOnHost); IsOnDevice for device HBM or
// P2P memory. vllm-ascend sparse_attention_score's tiling reads an optional input's values only when IsOnHost.
enum TensorPlacement : int32_t { kOnDeviceHbm, kOnHost, kFollowing, kOnDeviceP2p, kTensorPlacementEnd };
// where an op's tiling function may run (IMPL_OP_OPTILING(...).TilingInputsDataDependency(indexes, placements))
enum class TilingPlacement : int32_t { TILING_ON_HOST, TILING_ON_AICPU };
class TensorPlacementUtils {
public:
    static bool IsOnDevice(TensorPlacement p) { return p == kOnDeviceHbm || p == kOnDeviceP2p; }
    static bool IsOnHost(TensorPlacement p) { return p == kOnHost || p == kFollowing; }
    static bool IsOnHostFollowing(TensorPlacement p) { return p == kFollowing; }
    static bool IsOnHostNotFollowing(TensorPlacement p) { return p == kOnHost; }
    static bool IsOnDeviceHbm(TensorPlacement p) { return p == kOnDeviceHbm; }
    static bool IsOnDeviceP2p(TensorPlacement p) { return p == kOnDeviceP2p; }
};

class Tensor {
public:
    // a tiling function's input: on the host when its values were copied there (a value-dependent input, whose data
    // GetData gives), else in device memory, which the tiling function cannot read
    TensorPlacement GetPlacement() const { return data_.empty() ? kOnDeviceHbm : kOnHost; }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    int64_t GetShapeSize() const { return shape_.GetOriginShape().GetShapeSize(); }
    // both shapes at once (sgl-kernel-npu ada_block_sparse_attention's tiling: `t->GetShape().GetStorageShape()`;
    // vllm-ascend sparse_attn_sharedkv's: `&tensor->GetShape()` as a const StorageShape*)
    const StorageShape& GetShape() const { return shape_; }
    StorageShape& GetShape() { return shape_; }
    ge::DataType GetDataType() const { return desc_.dtype_; }
    // the tensor's origin and storage formats, its description's (ops-cv grid_sampler2_d_grad's tiling:
    // `context->GetInputTensor(0)->GetFormat().GetStorageFormat()`)
    StorageFormat GetFormat() const { return desc_.GetFormat(); }
    // each of the two by itself (cann-ops grid_sample's tiling: `shape_tensor->GetOriginFormat()`)
    ge::Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
    ge::Format GetStorageFormat() const { return desc_.GetStorageFormat(); }
    // The values of a value-dependent input (ValueDepend in the definition: Fill's dims, StridedSliceAssignV2's begin /
    // end / strides), which the glue copies in; nullptr for any other input, as the tiling function has no data then.
    template <typename T = void> const T* GetData() const {
        if (!value_depend_) data_asked_ = true;   // the glue names the input when the tiling function then fails
        return data_.empty() ? nullptr : reinterpret_cast<const T*>(data_.data());
    }
    // The address of the tensor's data: that of a value-dependent input's values (as GetData), nullptr for any other
    // input, as CANN gives a tiling function (ops-nn's IsConstTensor asks GetAddr() == nullptr).
    const void* GetAddr() const { return data_.empty() ? nullptr : data_.data(); }
    void* GetAddr() { return data_.empty() ? nullptr : data_.data(); }
    StorageShape shape_;
    CompileTimeTensorDesc desc_;
    std::vector<uint64_t> data_;   // the bytes, in 8-byte words (aligned for any element type)
    bool value_depend_ = true;     // false: a tiling input the definition does not declare ValueDepend (no data)
    mutable bool data_asked_ = false;
    // a view's description (TilingContext::InputIsView / GetInputStride / GetInputOffset): the glue hands contiguous
    // tensors and leaves view_ false; a host program that fills a context itself may describe a view
    bool view_ = false;
    Stride stride_;
    int64_t offset_ = 0;
};

// A list attribute's elements. ContinuousVector gives them untyped (GetData() is a const void*, which op hosts cast to
// the element type they know: `static_cast<const int64_t*>(v->GetData())`), TypedContinuousVector<T> typed; the
// elements are kept in 8-byte words, aligned for any element type. Append is the emulation's own (the glue's fill).
class ContinuousVector {
public:
    size_t GetSize() const { return size_; }
    const void* GetData() const { return words_.data(); }
    template <typename T> void Append(T v) {
        words_.resize(((size_ + 1) * sizeof(T) + 7) / 8);
        std::memcpy(reinterpret_cast<unsigned char*>(words_.data()) + size_ * sizeof(T), &v, sizeof(T));
        ++size_;
    }
private:
    std::vector<uint64_t> words_;
    size_t size_ = 0;
};
template <typename T> class TypedContinuousVector : public ContinuousVector {
public:
    const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
};

class RuntimeAttrs {
public:
    // a list attribute's pointer is its vector (GetAttrPointer<gert::ContinuousVector>(i), as most op hosts read a list);
    // a string's, its characters; any other's, its value. GE hands the address of the attribute's bytes whatever T is,
    // so a scalar read as char is its first byte, the low one of a little-endian integer (ops-transformer
    // rotary_position_embedding_grad's tiling reads its int `mode` as `*GetAttrPointer<char>(0)`)
    template <typename T> const T* GetAttrPointer(size_t i) const {
        if constexpr (std::is_same_v<T, char>)
            return i < slots_.size() && !slots_[i].is_str && !slots_[i].is_list
                       ? reinterpret_cast<const char*>(slots_[i].bytes) : GetStr(i);
        if constexpr (std::is_base_of_v<ContinuousVector, T>) return static_cast<const T*>(List(i));
        return i < slots_.size() ? reinterpret_cast<const T*>(slots_[i].bytes) : nullptr;
    }
    const char* GetStr(size_t i) const { return i < strs_.size() && slots_[i].is_str ? strs_[i].c_str() : nullptr; }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
        return i < lists_.size() && slots_[i].is_list && !slots_[i].is_float && !slots_[i].is_bool ? &lists_[i] : nullptr;
    }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const {
        return i < float_lists_.size() && slots_[i].is_list && slots_[i].is_float ? &float_lists_[i] : nullptr;
    }
    size_t GetAttrNum() const { return slots_.size(); }
    struct Slot { alignas(8) unsigned char bytes[8] = {}; bool is_list = false; bool is_str = false; bool is_float = false;
                  bool is_bool = false; };   // is_bool: a list of one-byte bools, kept in lists_
    std::vector<Slot> slots_;
    std::vector<std::string> strs_;
    std::vector<TypedContinuousVector<int64_t>> lists_;         // per attribute: its elements if it is a list of ints
    std::vector<TypedContinuousVector<float>> float_lists_;     // ... and if it is a list of floats
private:
    const ContinuousVector* List(size_t i) const {
        if (i >= slots_.size() || !slots_[i].is_list) return nullptr;
        return slots_[i].is_float ? static_cast<const ContinuousVector*>(&float_lists_[i]) : &lists_[i];
    }
};

class TilingData {
public:
    void* GetData() { return data_; }
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t n) { size_ = n; }
    // exe_graph's TilingData::Append: the value's bytes after the data so far (cann-ops cube_tiling_runtime.cc appends
    // the shape's dims one int32 at a time); GRAPH_FAILED, and nothing written, past the capacity
    template <typename T>
    ge::graphStatus Append(const T& value) { return Append(&value, 1); }
    template <typename T>
    ge::graphStatus Append(const T* values, size_t count) {
        static_assert(std::is_trivially_copyable<T>::value, "TilingData::Append copies bytes");
        const size_t bytes = sizeof(T) * count;
        if (values == nullptr || data_ == nullptr || bytes > capacity_ || size_ > capacity_ - bytes) return ge::GRAPH_FAILED;
        std::memcpy(static_cast<unsigned char*>(data_) + size_, values, bytes);
        size_ += bytes;
        return ge::GRAPH_SUCCESS;
    }
    void* data_ = nullptr;
    size_t capacity_ = 0;
    size_t size_ = 0;
};

// Where the instances of one input of the definition (its IR index) start among the node's inputs, and how many there
// are: one for a required input, none for an absent optional one, the list's length for a dynamic (tensor-list) one.
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }
    uint32_t start_ = 0, num_ = 0;
};

class TilingContext;
// What the node is: its name and type, and how many inputs and outputs (instances) it has.
class ComputeNodeInfo {
public:
    const char* GetNodeName() const { return name_; }
    const char* GetNodeType() const { return name_; }
    size_t GetInputsNum() const { return inputs_; }
    size_t GetOutputsNum() const { return outputs_; }
    size_t GetIrInputsNum() const { return ir_inputs_; }
    // the definition's outputs (ops-transformer mc2 matmul_all_reduce's tiling counts its inputs and outputs by these)
    size_t GetIrOutputsNum() const { return ir_outputs_; }
    // by the definition's input index, as TilingContext::GetIrInputInstanceInfo gives it (ScatterList's tiling)
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return instance_ ? instance_(ir) : nullptr; }
    // by the definition's output index, as TilingContext::GetIrOutputInstanceInfo gives it
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const { return output_instance_ ? output_instance_(ir) : nullptr; }
    const char* name_ = "";
    size_t inputs_ = 0, outputs_ = 0, ir_inputs_ = 0, ir_outputs_ = 0;
    std::function<const AnchorInstanceInfo*(size_t)> instance_, output_instance_;
};

struct PlatformInfoHandle {
    uint32_t aiv = 48, aic = 24;
    uint64_t ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072, l2 = 201326592;
    // the fixpipe buffer (the A2 ini's fb0_size) and the bias table (bt_size), CANN's Ascend910B2.ini figures
    uint64_t fb = 2048, bt = 1024;
    // the AI core's L2 and HBM bandwidths in bytes per cycle (the platform ini's AICoreMemoryRates l2_rate / ddr_rate; the
    // A2 figures of CANN's Ascend910B2.ini)
    uint64_t l2_rate = 110, ddr_rate = 32;
    // fe::PlatFormInfos::GetCoreNum / GetLocalMemSize, as op hosts call them on the handle directly (the core count
    // as PlatformAscendC::GetCoreNum gives it: the vector cores of an A2 chip)
    uint32_t GetCoreNum() const { return aiv; }
    // fe::PlatFormInfos::GetPlatformRes(label, key, value): the platform's ini entries that op hosts read (the SoC's
    // version names, the NPU arch, the core counts); false, as for an absent entry, for any other
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        if (label == "version" && key == "SoC_version") value = "Ascend910B1";
        else if (label == "version" && key == "Short_SoC_version") value = "Ascend910B";
        else if (label == "version" && key == "NpuArch") value = "2201";
        else if (label == "SoCInfo" && (key == "ai_core_cnt" || key == "cube_core_cnt")) value = std::to_string(aic);
        else if (label == "SoCInfo" && key == "vector_core_cnt") value = std::to_string(aiv);
        else if (label == "AICoreMemoryRates" && key == "l2_rate") value = std::to_string(l2_rate);
        else if (label == "AICoreMemoryRates" && key == "ddr_rate") value = std::to_string(ddr_rate);
        else if (label == "AICoreSpec" && key == "bt_size") value = std::to_string(bt);
        // the AI core's data paths (AICoreintrinsicDtypeMap: an entry lists the dtypes a path moves; a path the chip
        // lacks has none). An A2 core writes L0C to GM through the fixpipe and copies GM ND to L1 NZ (DataCopy with
        // Nd2NzParams); it has no L1 -> UB / L0C -> UB moves (310P's), and its bias table takes no bf16 (Ascend 950's).
        // CANN's matmul tilings test these: without them they take the chip for a 310P ("shape of n should be 32-byte
        // aligned" in cann-ops MatMulV3 for an unaligned N).
        else if (label == "AICoreintrinsicDtypeMap" && key == "Intrinsic_fix_pipe_l0c2out")
            value = "float32,float16,bfloat16,int32,int8,uint8";
        else if (label == "AICoreintrinsicDtypeMap" && key == "Intrinsic_data_move_out2l1_nd2nz")
            value = "float16,bfloat16,float32,int8,uint8,int16,int32";
        else return false;
        return true;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    // fe::PlatFormInfos::GetCoreNumByType(coreType): the SoCInfo core count of one type, as ops-nn dynamic_rnn's tiling
    // asks for "AiCore": "VectorCore" (or "AIV") the vector cores' vector_core_cnt, any other name the AI cores'
    // ai_core_cnt; 0 when the platform has no such entry
    uint32_t GetCoreNumByType(const std::string& coreType) const {
        std::string value;
        GetPlatformRes("SoCInfo", coreType == "VectorCore" || coreType == "AIV" ? "vector_core_cnt" : "ai_core_cnt", value);
        return value.empty() ? 0 : static_cast<uint32_t>(std::stoul(value));
    }
    // fe::PlatFormInfos::GetLocalMemBw (PlatformAscendC::GetCoreMemBw): L2's and HBM's rate, 0 for the other memories
    // (the documentation reserves them)
    template <typename MemType> void GetLocalMemBw(MemType type, uint64_t& bw) const {
        bw = static_cast<int>(type) == 4 ? l2_rate : static_cast<int>(type) == 6 ? ddr_rate : 0;
    }
    template <typename MemType> void GetLocalMemSize(MemType type, uint64_t& size) const {
        switch (static_cast<int>(type)) {
        case 0: size = l0a; break;
        case 1: size = l0b; break;
        case 2: size = l0c; break;
        case 3: size = l1; break;
        case 5: size = ub; break;
        case 7: size = fb; break;   // (platform_ascendc::CoreMemType's FB and BT)
        case 8: size = bt; break;
        default: size = l2; break;
        }
    }
};

// What CANN's kernel contexts (TilingContext, InferShapeContext) have in common, as op hosts reach it through
// reinterpret_cast<gert::ExtendedKernelContext*>(context) (NPUKernelBench ScatterList's InferShape): the node's name
// and how many inputs and outputs it has. The contexts derive from it and keep these counts up to date.
class ExtendedKernelContext {
public:
    size_t GetComputeNodeInputNum() const { return count_ ? count_(this, false) : 0; }
    size_t GetComputeNodeOutputNum() const { return count_ ? count_(this, true) : 0; }
    const char* GetNodeName() const { return name_of_ ? name_of_(this) : ""; }
    const char* GetNodeType() const { return GetNodeName(); }
protected:
    // set by the derived context's constructor to functions of its own type (a copy keeps them right)
    size_t (*count_)(const ExtendedKernelContext*, bool outputs) = nullptr;
    const char* (*name_of_)(const ExtendedKernelContext*) = nullptr;
};

// The tiling context of one launch (the emulated subset).
class TilingContext : public ExtendedKernelContext {
public:
    TilingContext() {
        count_ = [](const ExtendedKernelContext* c, bool o) {
            auto* t = static_cast<const TilingContext*>(c);
            return o ? t->outputs_.size() : t->inputs_.size();
        };
        name_of_ = [](const ExtendedKernelContext* c) { return static_cast<const TilingContext*>(c)->name_.c_str(); };
    }
    // CANN's tiling context holds the inputs and then the outputs' shapes in one list (GetOutputShape(i) reads entry
    // inputs + i), and GetInputTensor reads it unchecked, so an input index past the inputs reads an output's shape:
    // yueliang13/cann-ops-adv-vllm's select_position and compute_cent tilings take the output's last dimension as
    // GetInputTensor(<number of inputs>)->GetStorageShape(). The same here; only the shape is CANN's there (the rest of
    // its Tensor is not). GetInputShape checks its index against the input count and gives nullptr past it, as CANN's
    // does (linnlh's BallQuery tells its absent optional inputs so).
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i].shape_ : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape_ : nullptr; }
    const Tensor* GetInputTensor(size_t i) const {
        return i < inputs_.size() ? &inputs_[i] : (i - inputs_.size() < outputs_.size() ? &outputs_[i - inputs_.size()] : nullptr);
    }
    // By the definition's input index (IR index): an optional input (nullptr when absent), an instance of a list
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const {
        return ir_inputs_.empty() ? (ir < inputs_.size() ? &ones_.emplace_back(ir, 1) : nullptr)
                                  : (ir < ir_inputs_.size() ? &ir_inputs_[ir] : nullptr);
    }
    // by the definition's output index: where its instances start among the outputs and how many (0: an optional output
    // not given; flash-linear-attention-npu chunk_kda_fwd's tiling asks which of its optional outputs are wanted)
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const {
        return ir_outputs_.empty() ? (ir < outputs_.size() ? &ones_.emplace_back(ir, 1) : nullptr)
                                   : (ir < ir_outputs_.size() ? &ir_outputs_[ir] : nullptr);
    }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
    const StorageShape* GetOptionalInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
    // a required input by its IR index: the first instance, as for an optional one (hicann ops-nn foreach_utils)
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetDynamicInputTensor(ir, 0); }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetDynamicInputDesc(ir, 0); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t k) const {
        const AnchorInstanceInfo* info = GetIrInputInstanceInfo(ir);
        return info && k < info->num_ ? GetInputTensor(info->start_ + k) : nullptr;
    }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t k) const {
        const Tensor* t = GetDynamicInputTensor(ir, k);
        return t ? &t->shape_ : nullptr;
    }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        const Tensor* t = GetDynamicInputTensor(ir, k);
        return t ? &t->desc_ : nullptr;
    }
    const ComputeNodeInfo* GetComputeNodeInfo() const {
        node_.name_ = name_.c_str();
        node_.inputs_ = inputs_.size();
        node_.outputs_ = outputs_.size();
        node_.ir_inputs_ = ir_inputs_.empty() ? inputs_.size() : ir_inputs_.size();
        node_.ir_outputs_ = ir_outputs_.empty() ? outputs_.size() : ir_outputs_.size();
        node_.instance_ = [this](size_t ir) { return GetIrInputInstanceInfo(ir); };
        node_.output_instance_ = [this](size_t ir) { return GetIrOutputInstanceInfo(ir); };
        return &node_;
    }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < inputs_.size() ? &inputs_[i].desc_ : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < outputs_.size() ? &outputs_[i].desc_ : nullptr; }
    size_t GetComputeNodeInputNum() const { return inputs_.size(); }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    ge::graphStatus SetBlockDim(uint32_t n) { block_dim_ = n; return ge::GRAPH_SUCCESS; }
    uint32_t GetBlockDim() const { return block_dim_; }
    // The launch's block count under its newer name (metadef's SetSimdNumBlocks, which SetBlockDim now forwards to: one
    // value under both names); hicann ops-nn's arch35 quant_batch_matmul_v4 tiling, which the A2 build compiles, sets it
    ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
    uint32_t GetSimdNumBlocks() const { return GetBlockDim(); }
    ge::graphStatus SetTilingKey(uint64_t k) { key_ = k; key_set_ = true; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const { return key_; }
    ge::graphStatus SetScheduleMode(uint32_t m) { schedule_mode_ = m; return ge::GRAPH_SUCCESS; }
    // The atomic-clean flag (metadef's kOutputAtomicCleanFlag): set, the runtime zeroes the op's outputs before the
    // launch (a kernel that accumulates into them with SetAtomicAdd); the glue hands it to the emulated launch
    ge::graphStatus SetNeedAtomic(bool atomic) { need_atomic_ = atomic; return ge::GRAPH_SUCCESS; }
    bool NeedAtomic() const { return need_atomic_; }
    // The dynamic UB size a launch asks for (metadef's kOutputDynUBufSize; SetLocalMemorySize is its older name): the
    // SIMT cores' local memory on Ascend 950; an A2 launch has no use for it, so it is kept for the getters only
    // (hicann ops-math radix_top_k sets it to the whole UB)
    ge::graphStatus SetDynUBufSize(uint32_t bytes) { dyn_ubuf_size_ = bytes; return ge::GRAPH_SUCCESS; }
    uint32_t GetDynUBufSize() const { return dyn_ubuf_size_; }
    ge::graphStatus SetLocalMemorySize(uint32_t bytes) { return SetDynUBufSize(bytes); }
    // The AI CPU blocks a fused op's launch may use beside its AI cores (SetAicpuNumBlocks; SetAicpuBlockDim is its older
    // name): hicann ops-transformer's MC2 MoE tilings set it for their HCCL part. The emulation runs no AI CPU part, so it
    // is kept for the getters only
    ge::graphStatus SetAicpuNumBlocks(uint32_t n) { aicpu_blocks_ = n; return ge::GRAPH_SUCCESS; }
    uint32_t GetAicpuNumBlocks() const { return aicpu_blocks_; }
    ge::graphStatus SetAicpuBlockDim(uint32_t n) { return SetAicpuNumBlocks(n); }
    uint32_t GetAicpuBlockDim() const { return GetAicpuNumBlocks(); }
    uint32_t GetLocalMemorySize() const { return GetDynUBufSize(); }
    // Deterministic computing (aclrtCtxSetSysParamOpt ACL_OPT_DETERMINISTIC): off unless the run asks for it, as in CANN
    int32_t GetDeterministic() const { return deterministic_; }
    // The deterministic level (0 off, 1 deterministic, 2 strong consistency): the level the run asks for, else 1 when
    // deterministic computing is on, 0 otherwise (ops-nn's arch35 matmul tilings read it for their stream-K split)
    int32_t GetDeterministicLevel() const { return deterministic_level_ > 0 ? deterministic_level_ : deterministic_; }
    // Views (non-contiguous tensors: strides and an offset into their storage). The emulated runs hand every input and
    // output over contiguous, so, as CANN answers for a tensor without a non-contiguous description: not a view, no
    // stride (nullptr), offset -1. The index forms follow the other getters: the instance index, or the IR index
    // (optional / required / dynamic).
    bool InputIsView(size_t i) const { return i < inputs_.size() && inputs_[i].view_; }
    const Stride* GetInputStride(size_t i) const { return InputIsView(i) ? &inputs_[i].stride_ : nullptr; }
    int64_t GetInputOffset(size_t i) const { return InputIsView(i) ? inputs_[i].offset_ : -1; }
    bool OutputIsView(size_t i) const { return i < outputs_.size() && outputs_[i].view_; }
    const Stride* GetOutputStride(size_t i) const { return OutputIsView(i) ? &outputs_[i].stride_ : nullptr; }
    int64_t GetOutputOffset(size_t i) const { return OutputIsView(i) ? outputs_[i].offset_ : -1; }
    bool DynamicInputIsView(size_t ir, size_t k) const { return view_of(GetDynamicInputTensor(ir, k)) != nullptr; }
    const Stride* GetDynamicInputStride(size_t ir, size_t k) const {
        const Tensor* t = view_of(GetDynamicInputTensor(ir, k));
        return t ? &t->stride_ : nullptr;
    }
    int64_t GetDynamicInputOffset(size_t ir, size_t k) const {
        const Tensor* t = view_of(GetDynamicInputTensor(ir, k));
        return t ? t->offset_ : -1;
    }
    bool OptionalInputIsView(size_t ir) const { return DynamicInputIsView(ir, 0); }
    const Stride* GetOptionalInputStride(size_t ir) const { return GetDynamicInputStride(ir, 0); }
    int64_t GetOptionalInputOffset(size_t ir) const { return GetDynamicInputOffset(ir, 0); }
    bool RequiredInputIsView(size_t ir) const { return DynamicInputIsView(ir, 0); }
    const Stride* GetRequiredInputStride(size_t ir) const { return GetDynamicInputStride(ir, 0); }
    int64_t GetRequiredInputOffset(size_t ir) const { return GetDynamicInputOffset(ir, 0); }
    TilingData* GetRawTilingData() { return &raw_; }
    template <typename T> T* GetTilingData() {
        raw_.size_ = sizeof(T) < raw_.capacity_ ? sizeof(T) : raw_.capacity_;
        return reinterpret_cast<T*>(raw_.data_);
    }
    size_t* GetWorkspaceSizes(size_t n) {
        if (workspaces_.size() < n) workspaces_.resize(n, 0);
        return workspaces_.data();
    }
    size_t GetWorkspaceNum() const { return workspaces_.size(); }
    PlatformInfoHandle* GetPlatformInfo() const { return const_cast<PlatformInfoHandle*>(&platform_); }
    // The compile info that the op's TilingParse<CompileInfo> function filled (the glue runs it before TilingFunc).
    const void* GetCompileInfo() const { return compile_info_; }
    template <typename T> const T* GetCompileInfo() const {
        if (compile_info_ == nullptr)
            throw std::runtime_error("ascendcraft: TilingContext::GetCompileInfo: the op registers no "
                                     "IMPL_OP_OPTILING(Op).TilingParse<CompileInfo>(...) to fill it");
        return static_cast<const T*>(compile_info_);
    }

    // set up by the AscendCraft glue
    std::string name_;
    std::vector<Tensor> inputs_, outputs_;   // instances: a tensor list's tensors one after another
    std::vector<AnchorInstanceInfo> ir_inputs_, ir_outputs_;
    mutable std::deque<AnchorInstanceInfo> ones_;
    mutable ComputeNodeInfo node_;
    RuntimeAttrs attrs_;
    TilingData raw_;
    std::vector<size_t> workspaces_;
    PlatformInfoHandle platform_;
    uint32_t block_dim_ = 0, schedule_mode_ = 0, dyn_ubuf_size_ = 0, aicpu_blocks_ = 0;
    int32_t deterministic_ = 0, deterministic_level_ = 0;
    uint64_t key_ = 0;
    bool key_set_ = false, need_atomic_ = false;
    const void* compile_info_ = nullptr;
private:
    static const Tensor* view_of(const Tensor* t) { return t && t->view_ ? t : nullptr; }
};

class InferShapeContext : public ExtendedKernelContext {
public:
    InferShapeContext() {
        count_ = [](const ExtendedKernelContext* c, bool o) {
            auto* t = static_cast<const InferShapeContext*>(c);
            return o ? t->out_.size() : t->in_.size();
        };
        name_of_ = [](const ExtendedKernelContext* c) { return static_cast<const InferShapeContext*>(c)->name_.c_str(); };
    }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    std::string name_;
    const Shape* GetInputShape(size_t i) const { return i < in_.size() ? &in_[i] : nullptr; }
    // the inputs' dtype and format (AddSigmoidMulReduceSumD's InferShape reads GetOriginFormat)
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    std::vector<CompileTimeTensorDesc> in_desc_;
    const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetDynamicInputShape(ir, 0); }
    const Shape* GetDynamicInputShape(size_t ir, size_t k) const {
        if (ir_inputs_.empty()) return k == 0 ? GetInputShape(ir) : nullptr;
        return ir < ir_inputs_.size() && k < ir_inputs_[ir].num_ ? GetInputShape(ir_inputs_[ir].start_ + k) : nullptr;
    }
    // the description of a dynamic input's k-th tensor, placed as GetDynamicInputShape places its shape (vllm-ascend
    // moe_grouped_matmul's InferShape reads the weight's storage format)
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        if (ir_inputs_.empty()) return k == 0 ? GetInputDesc(ir) : nullptr;
        return ir < ir_inputs_.size() && k < ir_inputs_[ir].num_ ? GetInputDesc(ir_inputs_[ir].start_ + k) : nullptr;
    }
    // an optional input's description by its IR index, placed as GetOptionalInputTensor places its tensor
    // (ops-transformer grouped_matmul's InferShape checks group_list's dtype); nullptr when it is absent
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const {
        if (ir_inputs_.empty()) return GetInputDesc(ir);
        return ir < ir_inputs_.size() && ir_inputs_[ir].num_ > 0 ? GetInputDesc(ir_inputs_[ir].start_) : nullptr;
    }
    // a value-dependent input's values (nullptr for the others), as the tiling context has them
    const Tensor* GetInputTensor(size_t i) const { return i < in_tensors_.size() ? &in_tensors_[i] : nullptr; }
    // an optional value-dependent input's values by its IR index: its one instance after the dynamic inputs' ones when
    // the context has the IR layout (ops-transformer grouped_matmul's InferShape reads group_list's after the x and
    // weight lists); nullptr when it is absent or not value-dependent
    const Tensor* GetOptionalInputTensor(size_t ir) const {
        if (ir_inputs_.empty()) return GetInputTensor(ir);
        return ir < ir_inputs_.size() && ir_inputs_[ir].num_ > 0 ? GetInputTensor(ir_inputs_[ir].start_) : nullptr;
    }
    std::vector<Tensor> in_tensors_;
    std::vector<AnchorInstanceInfo> ir_inputs_;
    Shape* GetOutputShape(size_t i) { return i < out_.size() ? &out_[i] : nullptr; }
    // an output's dtype and format as the definition's column gives them (cann-ops conv2d_backprop_filter_v2's InferShape
    // folds the depthwise filter's dims by the output's GetOriginFormat)
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < out_desc_.size() ? &out_desc_[i] : nullptr; }
    std::vector<CompileTimeTensorDesc> out_desc_;
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    std::vector<Shape> in_, out_;
    RuntimeAttrs attrs_;
};

class InferDataTypeContext {
public:
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    std::string name_;
    ge::DataType GetInputDataType(size_t i) const { return i < in_.size() ? in_[i] : ge::DT_UNDEFINED; }
    // an optional input's dtype by its IR index (cann-ops dynamic_rnnv2's InferDataType reads the bias's and init_c's):
    // the emulation runs no InferDataType function, and a context filled by hand holds one dtype per IR input, in order,
    // so the IR index is the place, as for InferShapeContext::GetOptionalInputShape; DT_UNDEFINED past the last
    ge::DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(ir); }
    // a required input's dtype by its IR index, placed the same way (ops-transformer mla_prolog's InferDataType)
    ge::DataType GetRequiredInputDataType(size_t ir) const { return GetInputDataType(ir); }
    // a dynamic input's k-th tensor: the tensors of one dynamic input have its one dtype (the definition's column), so
    // the IR input's (moe_grouped_matmul's InferDataType: `GetDynamicInputDataType(X_INDEX, 0)`)
    ge::DataType GetDynamicInputDataType(size_t ir, size_t k) const { (void)k; return GetInputDataType(ir); }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
        if (out_.size() <= i) out_.resize(i + 1, ge::DT_UNDEFINED);
        out_[i] = dt;
        return ge::GRAPH_SUCCESS;
    }
    ge::DataType GetOutputDataType(size_t i) const { return i < out_.size() ? out_[i] : ge::DT_UNDEFINED; }
    std::vector<ge::DataType> in_, out_;
    // the op's attributes, as every gert context gives them (ops-transformer flash_attention_score's InferDataType reads
    // its outDtype attribute for the float8 inputs)
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    RuntimeAttrs attrs_;
    // the node's outputs, a dynamic output's instances each (ops-transformer grouped_matmul's InferDataType sets the
    // dtype of each of its y outputs); set by whoever fills the context, as its inputs' dtypes are
    size_t GetComputeNodeOutputNum() const { return node_outputs_; }
    size_t node_outputs_ = 0;
};

// GE's range of a value (exe_graph/runtime/range.h): a lower and an upper bound, each a pointer to a value held
// elsewhere (a dynamic-shape input's shape range: Range<Shape>).
template <typename T> class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    explicit Range(T* same) : min_(same), max_(same) {}
    bool operator==(const Range& other) const { return min_ == other.min_ && max_ == other.max_; }
    void SetMin(T* min) { min_ = min; }
    void SetMax(T* max) { max_ = max; }
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }
private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};
// The context of an InferShapeRange function, the graph's shape-range inference for dynamic-shape inputs (cann-ops
// grid_sample: IMPL_OP_INFERSHAPE(GridSample)...InferShapeRange(fn)). The emulated host runs with known shapes and never
// calls it; the function compiles against this context, whose ranges are set by whoever fills it.
class InferShapeRangeContext : public ExtendedKernelContext {
public:
    InferShapeRangeContext() {
        count_ = [](const ExtendedKernelContext* c, bool o) {
            auto* t = static_cast<const InferShapeRangeContext*>(c);
            return o ? t->out_.size() : t->in_.size();
        };
        name_of_ = [](const ExtendedKernelContext* c) { return static_cast<const InferShapeRangeContext*>(c)->name_.c_str(); };
    }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return name_.c_str(); }
    const Range<Shape>* GetInputShapeRange(size_t i) const { return i < in_.size() ? &in_[i] : nullptr; }
    const Range<Shape>* GetOptionalInputShapeRange(size_t ir) const { return GetInputShapeRange(ir); }
    const Range<Shape>* GetRequiredInputShapeRange(size_t ir) const { return GetInputShapeRange(ir); }
    const Range<Shape>* GetDynamicInputShapeRange(size_t ir, size_t k) const { return k == 0 ? GetInputShapeRange(ir) : nullptr; }
    Range<Shape>* GetOutputShapeRange(size_t i) { return i < out_.size() ? &out_[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    std::string name_;
    std::vector<Range<Shape>> in_, out_;
    RuntimeAttrs attrs_;
};
class TilingParseContext;

// The context of a TilingParse (TilingPrepare) function: the glue runs the one registered with
// IMPL_OP_OPTILING(Op).TilingParse<CompileInfo>(fn) on a fresh CompileInfo, which TilingFunc then reads.
class TilingParseContext {
public:
    template <typename T> T* GetCompiledInfo() {
        if (compiled_ == nullptr)
            throw std::runtime_error("ascendcraft: TilingParseContext::GetCompiledInfo: no CompileInfo (register the "
                                     "parse function with TilingParse<CompileInfo>(fn))");
        return static_cast<T*>(compiled_);
    }
    void* compiled_ = nullptr;
    PlatformInfoHandle* GetPlatformInfo() const { return const_cast<PlatformInfoHandle*>(&platform_); }
    // The op's compile info as CANN's TBE compiler hands it over (a JSON text). The emulated build has no such
    // compiler step: it is an empty JSON object, and a parse function that needs a field of it fails at run time
    // with its own message (cann-ops' conv and quant matmul ops read it).
    const char* GetCompiledJson() const { return compiled_json_.c_str(); }
    std::string compiled_json_ = "{}";
    const char* GetNodeName() const { return ""; }
    const char* GetNodeType() const { return ""; }
    PlatformInfoHandle platform_;
};
}  // namespace gert

// CANN's name for the platform handle the contexts hand out (TilingParseContext::GetPlatformInfo returns it).
namespace fe {
using PlatFormInfos = gert::PlatformInfoHandle;
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6 };
}  // namespace fe

namespace ops {

// VIRTUAL: an input its caller may leave out, as OPTIONAL (cann-ops rfft1_d's dft: the aclnn form passes it)
enum Option { REQUIRED = 0, OPTIONAL = 1, DYNAMIC = 2, VIRTUAL = 3 };
// ValueDepend's second argument (the OpParamDef API reference, ValueDepend): ALL, the values serve every host function
// (as the one-argument form), TILING, the tiling function only (tiling sinking); either way the tiling function gets them
enum class DependScope : uint32_t { ALL = 0, TILING = 1 };
enum class AttrDataType { ATTR_DT_BOOL, ATTR_DT_FLOAT, ATTR_DT_INT, ATTR_DT_STR, ATTR_DT_LIST_INT, ATTR_DT_LIST_FLOAT,
                          ATTR_DT_LIST_BOOL };

using TilingKernelFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeKernelFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

// An output's initial value of a given type (InitValue's typed forms; the documented ScalarType / ScalarNum /
// ScalarVar of the op-definition API): hicann ops-cv grid_sampler2_d_grad gives one per dtype column.
enum class ScalarType : uint32_t {
    UINT64 = 0, INT64 = 1, UINT32 = 2, INT32 = 3, UINT16 = 4, INT16 = 5, UINT8 = 6, INT8 = 7, FLOAT32 = 8, FLOAT16 = 9,
    INVALID_DTYPE = static_cast<uint32_t>(-1),
};
union ScalarNum {
    uint64_t value_u64;
    int64_t value_i64;
    float value_f32;
    ScalarNum() : value_u64(0) {}
    explicit ScalarNum(uint64_t v) : value_u64(v) {}
    explicit ScalarNum(int64_t v) : value_i64(v) {}
    explicit ScalarNum(float v) : value_f32(v) {}
};
struct ScalarVar {
    ScalarType scalar_type = ScalarType::INVALID_DTYPE;
    ScalarNum scalar_num;
    ScalarVar() = default;
    ScalarVar(ScalarType t, uint64_t n) : scalar_type(t), scalar_num(n) {}
    ScalarVar(ScalarType t, int64_t n) : scalar_type(t), scalar_num(n) {}
    ScalarVar(ScalarType t, int n) : scalar_type(t), scalar_num(static_cast<int64_t>(n)) {}
    ScalarVar(ScalarType t, unsigned int n) : scalar_type(t), scalar_num(static_cast<uint64_t>(n)) {}
    ScalarVar(ScalarType t, float n) : scalar_type(t), scalar_num(n) {}
    ScalarVar(ScalarType t, double n) : scalar_type(t), scalar_num(static_cast<float>(n)) {}
    bool operator==(const ScalarVar& o) const {
        return scalar_type == o.scalar_type && scalar_num.value_u64 == o.scalar_num.value_u64;
    }
};

class OpParamDef {
public:
    explicit OpParamDef(const char* name) : name_(name) {}
    OpParamDef& ParamType(Option o) { option_ = o; return *this; }
    OpParamDef& DataType(std::vector<ge::DataType> t) { dtypes_ = std::move(t); set_ |= kSetDtypes; return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> t) { dtypes_ = std::move(t); set_ |= kSetDtypes; return *this; }
    OpParamDef& Format(std::vector<ge::Format> f) { formats_ = std::move(f); set_ |= kSetFormats; return *this; }
    OpParamDef& FormatList(std::vector<ge::Format> f) { formats_ = std::move(f); set_ |= kSetFormats; return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> f) { (void)f; return *this; }
    // the dtypes / formats CANN's runtime looks a column's kernel binary up by, one per column (DataType's / Format's
    // count): a column whose entry differs runs the binary built for the column that has these dtypes / formats
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> t) { bin_dtypes_ = std::move(t); set_ |= kSetBinDtypes; return *this; }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format> f) { bin_formats_ = std::move(f); set_ |= kSetBinFormats; return *this; }
    std::vector<ge::DataType> bin_dtypes_;
    std::vector<ge::Format> bin_formats_;
    OpParamDef& ValueDepend(Option o) { (void)o; return *this; }
    OpParamDef& ValueDepend(Option o, DependScope scope) { (void)o; (void)scope; return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& Version(uint32_t version) { version_ = version; return *this; }   // the op version that added it
    uint32_t version_ = 0;
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& Follow(const char* other) { (void)other; return *this; }
    OpParamDef& InitValue(uint64_t v) { (void)v; return *this; }
    // the typed forms: recorded (init_values_), applied no more than the form above is (the caller's output buffers)
    OpParamDef& InitValue(const ScalarVar& v) { init_values_ = {v}; return *this; }
    OpParamDef& InitValue(const std::vector<ScalarVar>& v) { init_values_ = v; return *this; }
    std::vector<ScalarVar> init_values_;
    // the output's shape is known only once the kernel ran (MaskedSelectV3's y): the caller gives the buffer
    OpParamDef& OutputShapeDependOnCompute() { shape_depends_on_compute_ = true; return *this; }
    bool shape_depends_on_compute_ = false;
    // which lists a call set (an OpAICoreConfig's parameter replaces only those of the op's: OpDef::a2_params)
    static constexpr unsigned kSetDtypes = 1, kSetFormats = 2, kSetBinDtypes = 4, kSetBinFormats = 8;
    unsigned set_ = 0;
    std::string name_;
    Option option_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name) : name_(name) {}
    OpAttrDef& AttrType(Option o) { option_ = o; return *this; }
    OpAttrDef& Bool(bool v = false) { type_ = AttrDataType::ATTR_DT_BOOL; b_ = v; return *this; }
    OpAttrDef& Float(float v = 0) { type_ = AttrDataType::ATTR_DT_FLOAT; f_ = v; return *this; }
    OpAttrDef& Int(int64_t v = 0) { type_ = AttrDataType::ATTR_DT_INT; i_ = v; return *this; }
    OpAttrDef& String(const char* v = "") { type_ = AttrDataType::ATTR_DT_STR; s_ = v; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v = {}) { type_ = AttrDataType::ATTR_DT_LIST_INT; li_ = std::move(v); return *this; }
    OpAttrDef& ListFloat(std::vector<float> v = {}) { type_ = AttrDataType::ATTR_DT_LIST_FLOAT; lf_ = std::move(v); return *this; }
    // a list of bools (vllm-ascend rms_norm_dynamic_quant's output_mask): its default kept as 0 / 1 in li_; the tiling
    // context gives it as a ContinuousVector of one-byte bools (`static_cast<const bool*>(v->GetData())`)
    OpAttrDef& ListBool(std::vector<bool> v = {}) { type_ = AttrDataType::ATTR_DT_LIST_BOOL; li_.assign(v.begin(), v.end()); return *this; }
    OpAttrDef& Version(uint32_t version) { version_ = version; return *this; }   // the op version that added it
    uint32_t version_ = 0;
    std::string name_;
    Option option_ = OPTIONAL;
    AttrDataType type_ = AttrDataType::ATTR_DT_INT;
    bool b_ = false;
    float f_ = 0;
    int64_t i_ = 0;
    std::string s_;
    std::vector<int64_t> li_;
    std::vector<float> lf_;
};

class OpAICoreConfig {
public:
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
    OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
    std::vector<OpParamDef> inputs_, outputs_;
};

class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(TilingKernelFunc f) { tiling_ = f; return *this; }
    template <typename F> OpAICoreDef& SetTilingParse(F) { return *this; }
    template <typename F> OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { (void)soc; return *this; }
    // the configuration for ascend910b (the A2 build's) is kept as it is at the call, a later call replacing it (CANN's
    // AddConfig keeps a copy); other SoCs' are not built here
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& cfg) {
        if (std::string(soc) == "ascend910b") { a2_ = cfg; has_a2_ = true; }
        return *this;
    }
    TilingKernelFunc tiling_ = nullptr;
    OpAICoreConfig a2_;
    bool has_a2_ = false;
};

// the communication groups of an MC2 op, one name or a list (ops-transformer moe_distribute_combine's
// `HcclGroup({"group_ep", "group_tp"})`): recorded; the emulation runs one card, so no group is set up
class OpMC2Def {
public:
    OpMC2Def& HcclGroup(const char* group) { groups_.assign(1, group); return *this; }
    OpMC2Def& HcclGroup(std::vector<const char*> groups) { groups_ = std::move(groups); return *this; }
    std::vector<const char*> groups_;
};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type) {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
    OpAttrDef& Attr(const char* name) { attrs_.emplace_back(name); return attrs_.back(); }
    OpDef& SetInferShape(InferShapeKernelFunc f) { infer_shape_ = f; return *this; }
    OpDef& SetInferDataType(InferDataTypeKernelFunc f) { infer_dtype_ = f; return *this; }
    template <typename F> OpDef& SetInferShapeRange(F) { return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpMC2Def& MC2() { return mc2_; }
    // The inputs (out false) or outputs as CANN's A2 build takes them: the op's, each merged by name with the
    // parameter of its ascend910b configuration (AddConfig) -- the configuration's ParamType, and its dtypes, formats and
    // bin-query lists where it sets them; one only the configuration declares comes after the op's (as CANN's OpDef
    // merges a SoC's configuration; ascendcraft.opproject's parse_op_definition reads the text the same way).
    std::vector<OpParamDef> a2_params(bool out) const {
        std::vector<OpParamDef> params = out ? outputs_ : inputs_;
        if (!aicore_.has_a2_) return params;
        for (const OpParamDef& c : out ? aicore_.a2_.outputs_ : aicore_.a2_.inputs_) {
            OpParamDef* own = nullptr;
            for (OpParamDef& p : params) if (p.name_ == c.name_) { own = &p; break; }
            if (!own) { params.push_back(c); continue; }
            own->option_ = c.option_;
            if (c.set_ & OpParamDef::kSetDtypes) own->dtypes_ = c.dtypes_;
            if (c.set_ & OpParamDef::kSetFormats) own->formats_ = c.formats_;
            if (c.set_ & OpParamDef::kSetBinDtypes) own->bin_dtypes_ = c.bin_dtypes_;
            if (c.set_ & OpParamDef::kSetBinFormats) own->bin_formats_ = c.bin_formats_;
            if (c.shape_depends_on_compute_) own->shape_depends_on_compute_ = true;
        }
        return params;
    }
    std::string type_;
    std::vector<OpParamDef> inputs_, outputs_;
    std::vector<OpAttrDef> attrs_;
    InferShapeKernelFunc infer_shape_ = nullptr;
    InferDataTypeKernelFunc infer_dtype_ = nullptr;
    OpAICoreDef aicore_;
    OpMC2Def mc2_;
};

// Every OP_ADD'ed operator of the program (the glue looks its tiling function up by type name).
struct OpRegistry {
    std::vector<OpDef*> ops;
    static OpRegistry& get() { static OpRegistry r; return r; }
};
template <typename T> struct OpRegistrar {
    explicit OpRegistrar(const char* name) { OpRegistry::get().ops.push_back(new T(name)); }
};

}  // namespace ops

#define OP_ADD(name, ...) static ::ops::OpRegistrar<name> ascendcraft_op_registrar_##name(#name)

// ---- IMPL_OP registrations: the tiling / infer functions registered apart from the OpDef --------------------------
// Many projects keep the OpDef in op_host/<op>_def.cpp and register the tiling function in another file with
// `IMPL_OP_OPTILING(Op).Tiling(TilingFunc).TilingParse<CompileInfo>(Prepare);`. The glue looks the tiling function up
// here when the OpDef names none (AICore().SetTiling). The other chained calls are accepted and not run.
namespace ops {
// A registered TilingParse<CompileInfo>(fn): makes a CompileInfo, runs fn on it (status in the second argument).
using TilingParseRunner = std::function<std::shared_ptr<void>(gert::TilingParseContext*, ge::graphStatus*)>;
struct OpImplRegistry {
    std::vector<std::pair<std::string, TilingKernelFunc>> tilings;
    std::vector<std::pair<std::string, TilingParseRunner>> parses;
    std::vector<std::pair<std::string, InferShapeKernelFunc>> infer_shapes;   // IMPL_OP_INFERSHAPE(Op).InferShape(fn)
    static OpImplRegistry& get() { static OpImplRegistry r; return r; }
    InferShapeKernelFunc infer_shape(const std::string& type) const {
        for (const auto& t : infer_shapes) if (t.first == type) return t.second;
        return nullptr;
    }
    TilingKernelFunc tiling(const std::string& type) const {
        for (const auto& t : tilings) if (t.first == type) return t.second;
        return nullptr;
    }
    const TilingParseRunner* parse(const std::string& type) const {
        for (const auto& p : parses) if (p.first == type) return &p.second;
        return nullptr;
    }
};
class OpImplRegisterV2 {
public:
    explicit OpImplRegisterV2(const char* type) : type_(type) {}
    OpImplRegisterV2& Tiling(TilingKernelFunc f) { OpImplRegistry::get().tilings.emplace_back(type_, f); return *this; }
    template <typename F> OpImplRegisterV2& Tiling(F f, size_t) { return Tiling(static_cast<TilingKernelFunc>(f)); }
    template <typename CompileInfo, typename F> OpImplRegisterV2& TilingParse(F f) {
        OpImplRegistry::get().parses.emplace_back(type_, [f](gert::TilingParseContext* ctx, ge::graphStatus* status) {
            std::shared_ptr<CompileInfo> info = std::make_shared<CompileInfo>();
            ctx->compiled_ = info.get();
            *status = f(ctx);
            return std::shared_ptr<void>(info);
        });
        return *this;
    }
    template <typename F> OpImplRegisterV2& TilingParse(F) { return *this; }
    template <typename F> OpImplRegisterV2& InferShape(F f) {
        if constexpr (std::is_convertible<F, InferShapeKernelFunc>::value)
            OpImplRegistry::get().infer_shapes.emplace_back(type_, static_cast<InferShapeKernelFunc>(f));
        return *this;
    }
    template <typename F> OpImplRegisterV2& InferDataType(F) { return *this; }
    template <typename F> OpImplRegisterV2& InferShapeRange(F) { return *this; }
    template <typename F> OpImplRegisterV2& GenSimplifiedKey(F) { return *this; }
    OpImplRegisterV2& InferOutDataTypeSameWithFirstInput() { return *this; }
    OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    template <typename... A> OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>, A...) { return *this; }
    // where the tiling may run with those inputs' values (host, or AI CPU for a tiling sunk to the device): sparse
    // attention ops name both; the emulation runs it on the host
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>, std::initializer_list<gert::TilingPlacement>) {
        return *this;
    }
    template <typename V> OpImplRegisterV2& PrivateAttr(const char*, V) { return *this; }
    OpImplRegisterV2& PrivateAttr(const char*) { return *this; }
private:
    std::string type_;
};
}  // namespace ops
#define ASCENDCRAFT_IMPL_CAT2(a, b) a##b
#define ASCENDCRAFT_IMPL_CAT(a, b) ASCENDCRAFT_IMPL_CAT2(a, b)
#define IMPL_OP(op_type) \
    static ::ops::OpImplRegisterV2 ASCENDCRAFT_IMPL_CAT(ascendcraft_impl_##op_type##_, __COUNTER__) = ::ops::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_DEFAULT(op_type) IMPL_OP(op_type)
#include "ascendcraft_emu/type_macros_pop.h"
// ge::Tensor (graph/tensor.h), which CANN's op-definition headers bring in with ge::Operator: cann-ops lin_space's
// op_host names `Tensor` in namespace ge with only this header included
#include "graph/tensor.h"

// every later GRAPH_FAILED (ge::GRAPH_FAILED, or GRAPH_FAILED under `using namespace ge`) notes its place (above)
#define GRAPH_FAILED graph_failed_at(__FILE__, __LINE__)
