// AscendCraft host side: the ops-base helpers (CANN's opbase repository, op_common/) that the op_host code of the newer
// open operator repositories (hicann ops-math, ops-nn) uses: the log and check macros (OP_LOGE / OP_LOGD / OP_CHECK_IF /
// OP_CHECK_NULL_WITH_CONTEXT / OP_LOGE_FOR_INVALID_*), the integer helpers of Ops::Base (CeilDiv, FloorDiv, CeilAlign,
// FloorAlign), the platform queries (GetAivCoreNum, GetUbSize, GetUbBlockSize, ...), the shape helpers
// (IsUnknownRank, EnsureNotScalar, ...) and the elementwise / broadcast InferShape functions. Errors and warnings go to
// stderr (the tiling function's failure message says which op); debug and info lines are off, as CANN's default log
// level has them. Written from the public operator sources' use of these names; no vendor code.
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include "base/err_msg.h"
#include "ascendcraft_emu/ops_base_math.h"
#include "securec.h"   // the bounds-checked C functions (memset_s, memcpy_s) op_host code calls through these headers

namespace Ops { namespace Base {

// ---- logging ------------------------------------------------------------------------------------------------------
// The op a message is about: a context's node name, or the name given.
inline const char* OpInfoOf(const char* name) { return name ? name : "nil"; }
inline const char* OpInfoOf(const std::string& name) { return name.c_str(); }
template <typename C, typename = decltype(std::declval<const C*>()->GetNodeName())>
inline const char* OpInfoOf(const C* context) { return context && context->GetNodeName() ? context->GetNodeName() : "nil"; }
template <typename C, typename = decltype(std::declval<const C*>()->GetNodeName())>
inline const char* OpInfoOf(C* context) { return OpInfoOf(static_cast<const C*>(context)); }
inline std::string GetOpInfo(const std::string& s) { return s; }
inline std::string GetOpInfo(const char* s) { return OpInfoOf(s); }
template <typename C> inline std::string GetOpInfo(const C* context) { return OpInfoOf(context); }
// a C string of a name, whether given as one or as a std::string (ops-nn's error_util.h logs GetSafeStr(GetOpInfo(op)))
inline const char* GetSafeStr(const char* name) { return name; }
inline const char* GetSafeStr(const std::string& name) { return name.c_str(); }

// level: 0 debug, 1 info, 2 warning, 3 error; only warnings and errors are written
inline void Log(int level, const char* op, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
inline void Log(int level, const char* op, const char* fmt, ...) {
    if (level < 2) return;
    va_list args;
    va_start(args, fmt);
    std::fprintf(stderr, "[%s] %s: ", level >= 3 ? "ERROR" : "WARNING", op ? op : "");
    std::vfprintf(stderr, fmt, args);
    std::fprintf(stderr, "\n");
    va_end(args);
}
// A message with no format arguments may still name none (OP_LOGE(context, "msg")).
inline void LogPlain(int level, const char* op) { Log(level, op, "%s", ""); }
inline void Log(int level, const char* op) { LogPlain(level, op); }   // the op argument alone

inline std::string ToString(ge::DataType type) { return ge::TypeUtils::DataTypeToSerialString(type); }
inline std::string ToString(ge::Format format) { return ge::TypeUtils::FormatToSerialString(format); }
inline std::string ToString(const gert::Shape& shape) {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) out << (i ? ", " : "") << shape.GetDim(i);
    out << "]";
    return out.str();
}
inline std::string ToString(const std::vector<const gert::Shape*>& shapes) {
    std::string out;
    for (size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + (shapes[i] ? ToString(*shapes[i]) : std::string("nil"));
    return out;
}
template <typename T> inline std::string ToString(const std::vector<T>& v) {
    std::ostringstream out;
    out << "[";
    for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
    out << "]";
    return out.str();
}
inline uint64_t GetTid() { return 0; }

// ---- integers: FloorDiv, FloorAlign, CeilDiv, CeilAlign (ascendcraft_emu/ops_base_math.h, shared with the kernel side) ----
template <typename T> auto IsFloatEqual(T a, T b) -> typename std::enable_if<std::is_floating_point<T>::value, bool>::type {
    if (std::isnan(a) || std::isnan(b)) return false;
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(a - b) <= std::numeric_limits<T>::epsilon();
}
inline uint64_t LastPow2(uint64_t n) {
    if (n == 0) return 0;
    uint64_t p = 1;
    while (p <= n / 2) p <<= 1;
    return p;
}

// ---- platform ------------------------------------------------------------------------------------------------------
template <typename T> uint32_t GetAivCoreNum(const T* context) {
    return context ? platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv() : 0;
}
template <typename T> uint32_t GetAicCoreNum(const T* context) {
    return context ? platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAic() : 0;
}
template <typename T> uint32_t GetUbSize(const T* context) {
    if (!context) return 0;
    uint64_t ub = 0;
    platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    return static_cast<uint32_t>(ub);
}
template <typename T> uint32_t GetUbBlockSize(const T*) { return 32U; }      // bytes of a UB block
template <typename T> uint32_t GetVRegSize(const T*) { return 256U; }        // bytes of one vector repeat
template <typename T> uint32_t GetCacheLineSize(const T*) { return 256U; }
template <typename T> uint32_t GetWorkspaceSize(const T* context) {
    return context ? platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize() : 0;
}
// The regbase (Ascend 950, arch35) chips: never the emulated A2 chip.
template <typename T> bool IsRegbaseSocVersion(const T*) { return false; }

// ---- shapes --------------------------------------------------------------------------------------------------------
using ge::UNKNOWN_DIM;   // GE's -1 (register/op_def_registry.h), one name under `using namespace ge` and Ops::Base both
constexpr int64_t UNKNOWN_RANK_DIM = -2;
inline void SetUnknownRank(gert::Shape& shape) { shape.SetDimNum(0); shape.AppendDim(UNKNOWN_RANK_DIM); }
inline bool IsUnknownRank(const gert::Shape& shape) { return shape.GetDimNum() == 1 && shape.GetDim(0) == UNKNOWN_RANK_DIM; }
inline void SetUnknownShape(int64_t rank, gert::Shape& shape) {
    shape.SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) shape.AppendDim(UNKNOWN_DIM);
}
inline bool IsUnknownShape(const gert::Shape& shape) {
    for (size_t i = 0; i < shape.GetDimNum(); ++i) if (shape.GetDim(i) == UNKNOWN_DIM) return true;
    return false;
}
// a scalar's shape as the one-element shape [1] (tiling code reads dim 0)
inline const gert::Shape& EnsureNotScalar(const gert::Shape& shape) {
    static const gert::Shape one{1};
    return shape.IsScalar() ? one : shape;
}
template <typename T1, typename T2> bool CheckAxisBounds(const T1 dimNum, const T2 axis) {
    const int64_t n = static_cast<int64_t>(dimNum), a = static_cast<int64_t>(axis);
    return a >= -n && a < n;
}

// ---- InferShape ----------------------------------------------------------------------------------------------------
// an elementwise op: every output has the first input's shape
inline ge::graphStatus InferShape4Elewise(gert::InferShapeContext* context) {
    if (context == nullptr || context->GetInputShape(0) == nullptr) return ge::GRAPH_FAILED;
    for (size_t i = 0; i < context->out_.size(); ++i) *context->GetOutputShape(i) = *context->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
}
// numpy broadcasting of two shapes (false when they do not broadcast)
inline bool BroadcastShape(const std::vector<const gert::Shape*>& in, gert::Shape* out) {
    if (out == nullptr) return false;
    size_t rank = 0;
    for (const gert::Shape* s : in) { if (!s) return false; rank = std::max(rank, s->GetDimNum()); }
    gert::Shape result;
    for (size_t d = 0; d < rank; ++d) {
        int64_t dim = 1;
        for (const gert::Shape* s : in) {
            const size_t r = s->GetDimNum();
            if (d + r < rank) continue;
            const int64_t v = s->GetDim(d + r - rank);
            if (v == 1) continue;
            if (dim != 1 && dim != v) return false;
            dim = v;
        }
        result.AppendDim(dim);
    }
    *out = result;
    return true;
}
inline bool BroadcastShape(const gert::Shape* a, const gert::Shape* b, gert::Shape* out) {
    return BroadcastShape(std::vector<const gert::Shape*>{a, b}, out);
}
inline ge::graphStatus InferShape4Broadcast(gert::InferShapeContext* context, size_t inputNum) {
    if (context == nullptr) return ge::GRAPH_FAILED;
    std::vector<const gert::Shape*> in;
    for (size_t i = 0; i < inputNum; ++i) in.push_back(context->GetInputShape(i));
    return BroadcastShape(in, context->GetOutputShape(0)) ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
inline ge::graphStatus InferShape4Broadcast(gert::InferShapeContext* context) {
    return InferShape4Broadcast(context, context ? context->in_.size() : 0);
}
}}  // namespace Ops::Base

// ---- the macros ------------------------------------------------------------------------------------------------------
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
// (`__VA_OPT__(,)`: a call with the op argument alone, as CANN's macros take it: ops-nn conv3d_backprop_input_v2's
// `OP_LOGW("this case may exceed size")` logs that text in the op's place)
#define ASCENDCRAFT_OP_LOG(level, op, ...) ::Ops::Base::Log((level), ::Ops::Base::OpInfoOf(op) __VA_OPT__(,) __VA_ARGS__)
#define OP_LOGD(op, ...) ((void)(op))
#define OP_LOGI(op, ...) ((void)(op))
#define OP_LOGW(op, ...) ASCENDCRAFT_OP_LOG(2, op, __VA_ARGS__)
#define OP_LOGE(op, ...) ASCENDCRAFT_OP_LOG(3, op, __VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(op, ...) ASCENDCRAFT_OP_LOG(3, op, __VA_ARGS__)
// the logging macros under OP_LOGx, which take the op's name as text (ops-nn's error_util.h uses them directly)
#define D_OP_LOGD(opName, ...) ((void)(opName))
#define D_OP_LOGI(opName, ...) ((void)(opName))
#define D_OP_LOGW(opName, ...) ASCENDCRAFT_OP_LOG(2, opName, __VA_ARGS__)
#define D_OP_LOGE(opName, ...) ASCENDCRAFT_OP_LOG(3, opName, __VA_ARGS__)
#define OP_LOGE_IF(condition, return_value, op, ...) \
    do {                                              \
        if (unlikely(condition)) {                    \
            OP_LOGE(op, __VA_ARGS__);                 \
            return return_value;                      \
        }                                             \
    } while (0)
#define OP_LOGI_IF_RETURN(condition, return_value, op, ...) \
    do {                                                     \
        if (unlikely(condition)) return return_value;        \
    } while (0)
#define OP_CHECK_IF(condition, log, return_expr) \
    do {                                         \
        if (unlikely(condition)) {               \
            log;                                 \
            return_expr;                         \
        }                                        \
    } while (0)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                      \
    do {                                                                              \
        if (unlikely((ptr) == nullptr)) {                                             \
            OP_LOGE(((context) == nullptr ? "nil" : (context)->GetNodeName()), "%s is nullptr!", #ptr); \
            return ge::GRAPH_FAILED;                                                  \
        }                                                                             \
    } while (0)
// The error reports of invalid inputs name the op, the parameter and the values (each given as text or a number).
namespace Ops { namespace Base {
inline std::string ReportText(const std::string& s) { return s; }
inline std::string ReportText(const char* s) { return s ? s : ""; }
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
inline std::string ReportText(T v) { return std::to_string(v); }
template <typename... A> inline void ReportInvalid(const char* what, const A&... parts) {
    std::string text;
    for (const std::string& p : {ReportText(parts)...}) text += (text.empty() ? "" : "; ") + p;
    Log(3, "", "%s: %s", what, text.c_str());
}
}}  // namespace Ops::Base
#define ASCENDCRAFT_OP_REPORT(what, ...) ::Ops::Base::ReportInvalid(what, __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(...) ASCENDCRAFT_OP_REPORT("invalid input shape", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_ATTR(...) ASCENDCRAFT_OP_REPORT("invalid attribute", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(...) ASCENDCRAFT_OP_REPORT("invalid attribute size", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT(...) ASCENDCRAFT_OP_REPORT("invalid input", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(...) ASCENDCRAFT_OP_REPORT("invalid input shape size", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(...) ASCENDCRAFT_OP_REPORT("invalid input format", __VA_ARGS__)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(...) ASCENDCRAFT_OP_REPORT("invalid input dtype", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE(...) ASCENDCRAFT_OP_REPORT("invalid shape", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shape", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shapes", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(...) ASCENDCRAFT_OP_REPORT("invalid shape dim", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shape dim", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shape dims", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(...) ASCENDCRAFT_OP_REPORT("invalid shape size", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shape size", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid shape sizes", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT(...) ASCENDCRAFT_OP_REPORT("invalid format", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid format", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid formats", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE(...) ASCENDCRAFT_OP_REPORT("invalid dtype", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid dtype", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid dtypes", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_TENSORNUM(...) ASCENDCRAFT_OP_REPORT("invalid tensor count", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid tensor counts", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE(...) ASCENDCRAFT_OP_REPORT("invalid value", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid value", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid values", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_LISTSIZE(...) ASCENDCRAFT_OP_REPORT("invalid list size", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_LISTSIZE_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid list size", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_STRIDE(...) ASCENDCRAFT_OP_REPORT("invalid stride", __VA_ARGS__)
#define OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(...) ASCENDCRAFT_OP_REPORT("invalid argument", __VA_ARGS__)
