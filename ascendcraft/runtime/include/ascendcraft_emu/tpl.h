// AscendCraft: the tiling-template macros of AscendC (ascendc/host_api/tiling/template_argument.h). An operator
// declares its kernel's template parameters once (ASCENDC_TPL_ARGS_DECL: DTYPE / DATATYPE / FORMAT / UINT / BOOL /
// KERNEL_TYPE parameters) and the combinations it builds (ASCENDC_TPL_SEL of ASCENDC_TPL_ARGS_SEL); the host's tiling
// function encodes the combination it chose into the tiling key (GET_TPL_TILING_KEY / ASCENDC_TPL_SEL_PARAM) and the
// launch runs the kernel instance of that key.
//
// Key encoding (as CANN's build decodes it): the declared parameters in order, each in its own bit field from the
// lowest bits up: a DTYPE / DATATYPE / FORMAT / KERNEL_TYPE parameter its value in 8 bits, a UINT parameter the index of
// its value among the declared values in the declared width, a BOOL parameter its value in 1 bit. UINT values are
// declared as a list (ASCENDC_TPL_UI_LIST, v...), as ranges (ASCENDC_TPL_UI_RANGE, n, lo1, hi1, ...) or both
// (ASCENDC_TPL_UI_MIX, n, ranges..., values...).
//
// Host side (no __NPU_ARCH__: op_host code): the macros build the declaration list (GET_TPL_TILING_KEY encodes by it),
// and a generated program of ascendcraft.opproject, which alone also builds the selection lists (ASCENDCRAFT_TPL_LIST),
// lists every selected instance with its key. Kernel side (the emulator's kernel
// build, where kernel_operator.h defines __NPU_ARCH__): the macros declare nothing, and TypeFromId<dtype id>::type
// names the C++ type of a DATATYPE parameter's value. Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstdint>

#include "graph/c_types.h"   // C_DT_* / C_FORMAT_*, which the declarations name (the SDK's host headers bring them)

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

// (an op-project host unit, ASCENDCRAFT_OP_HOST from ascendcraft_emu/op_host.h, and the enumeration program are host
// code even where a header they include brings the kernel's __NPU_ARCH__)
#if defined(__NPU_ARCH__) && !defined(ASCENDCRAFT_OP_HOST) && !defined(ASCENDCRAFT_TPL_LIST)   // ---- kernel side ------
template <int dataTypeId> struct TypeFromId { using type = void; };
#define ASCENDCRAFT_TPL_TYPE(id, t) template <> struct TypeFromId<id> { using type = t; }
ASCENDCRAFT_TPL_TYPE(0, float);
ASCENDCRAFT_TPL_TYPE(1, half);
ASCENDCRAFT_TPL_TYPE(2, int8_t);
ASCENDCRAFT_TPL_TYPE(3, int32_t);
ASCENDCRAFT_TPL_TYPE(4, uint8_t);
ASCENDCRAFT_TPL_TYPE(6, int16_t);
ASCENDCRAFT_TPL_TYPE(7, uint16_t);
ASCENDCRAFT_TPL_TYPE(8, uint32_t);
ASCENDCRAFT_TPL_TYPE(9, int64_t);
ASCENDCRAFT_TPL_TYPE(10, uint64_t);
ASCENDCRAFT_TPL_TYPE(11, double);
ASCENDCRAFT_TPL_TYPE(12, bool);
ASCENDCRAFT_TPL_TYPE(27, bfloat16_t);
#undef ASCENDCRAFT_TPL_TYPE
#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#else   // ---- host side ------------------------------------------------------------------------------------------------
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <vector>

namespace ascendcraft { namespace tpl {
// what a parameter is: how it is encoded, and what the kernel's template argument is (a type for DATATYPE)
enum Kind : uint32_t { DTYPE = 0, FORMAT = 1, UINT = 2, BOOL = 3, KERNEL_TYPE = 4, DETERMINISTIC = 5, SHARED_KERNEL_TYPE = 6,
                       DATATYPE = 7, TILING_STRUCT = 8 };
// One value of a declaration or selection list: an integer or enumerator, or a name the header leaves undefined
// (`unparsed`, which the enumeration program substitutes for it; see tpl_instances).
struct Value {
    uint64_t v = 0;
    const char* unparsed = nullptr;
    template <typename T> constexpr Value(T x) : v(static_cast<uint64_t>(x)) {}
    struct Unparsed { const char* name; };
    constexpr Value(Unparsed u) : unparsed(u.name) {}
};
struct Param {
    const char* name;
    Kind kind;
    uint32_t bits;                 // the declared width (UINT), 8 (DTYPE, DATATYPE, FORMAT, KERNEL_TYPE) or 1 (BOOL)
    std::vector<uint64_t> values;  // the values; a UINT declaration's expanded to the list it encodes by index
    bool decl;
    // CANN's build reads these lists as text and leaves out, with an error in its log, a value it cannot read as a
    // number, dtype or format (ops-nn clipped_swiglu_grad selects `TPL_FLOOR`, which nothing defines): so here.
    Param(const char* n, Kind k, uint32_t b, std::initializer_list<Value> v, bool is_decl)
        : name(n), kind(k), bits(b), decl(is_decl) {
        for (const Value& x : v) {
            if (x.unparsed) std::fprintf(stderr, "[ERROR] ASCENDC_TPL %s: can't convert str : [%s], it is invalid value "
                                         "(left out, as CANN's build does)\n", n, x.unparsed);
            else values.push_back(x.v);
        }
        if (kind == UINT) expand();
    }
    // UI_LIST v...; UI_RANGE n lo hi ...; UI_MIX n lo hi ... v...
    void expand() {
        if (values.empty()) return;
        const uint64_t flag = values[0];
        std::vector<uint64_t> out;
        if (flag == ASCENDC_TPL_UI_LIST) {
            out.assign(values.begin() + 1, values.end());
        } else if (values.size() >= 2) {
            const size_t ranges = static_cast<size_t>(values[1]);
            size_t i = 2;
            for (size_t r = 0; r < ranges && i + 1 < values.size(); ++r, i += 2)
                for (uint64_t v = values[i]; v <= values[i + 1]; ++v) out.push_back(v);
            if (flag == ASCENDC_TPL_UI_MIX) out.insert(out.end(), values.begin() + static_cast<long>(i), values.end());
        }
        values = out;
    }
    bool encoded() const { return kind != KERNEL_TYPE && kind != DETERMINISTIC && kind != TILING_STRUCT; }
};
using Decl = std::vector<Param>;
using Sel = std::vector<std::vector<Param>>;
constexpr uint64_t kInvalidKey = 0xFFFFFFFFFFFFFFFFull;
#if defined(ASCENDCRAFT_TPL_LIST)
// The enumeration program finds the lists wherever the header declares them (ops-nn's declare them inside a namespace of
// the op, which CANN's text reading of the lists does not see either).
struct Listed { const Decl* decl = nullptr; const Sel* sel = nullptr; };
inline Listed& listed() { static Listed l; return l; }
inline bool list_decl(const Decl& d) { listed().decl = &d; return true; }
inline bool list_sel(const Sel& s) { listed().sel = &s; return true; }
#endif

// The key of one combination of values, given in the declaration's order (INVALID_TILING_KEY, with a message, when a
// UINT value is not declared, a value does not fit its field or the fields exceed 64 bits).
inline uint64_t encode(const Decl& decl, const std::vector<uint64_t>& args) {
    if (args.size() != decl.size()) {
        std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY has %zu values, ASCENDC_TPL_ARGS_DECL declares %zu parameters\n",
                     args.size(), decl.size());
        return kInvalidKey;
    }
    uint64_t key = 0;
    uint32_t shift = 0;
    for (size_t i = 0; i < decl.size(); ++i) {
        const Param& p = decl[i];
        uint64_t field = args[i];
        if (p.kind == UINT) {
            auto it = std::find(p.values.begin(), p.values.end(), field);
            if (it == p.values.end()) {
                std::fprintf(stderr, "[ERROR] ASCENDC_TPL_UINT %s value %llu is not among the values ASCENDC_TPL_UINT_DECL "
                             "declares\n", p.name, static_cast<unsigned long long>(field));
                return kInvalidKey;
            }
            field = static_cast<uint64_t>(it - p.values.begin());
        }
        if (p.bits < 64 && (field >> p.bits) != 0) {
            std::fprintf(stderr, "[ERROR] ASCENDC_TPL parameter %s: %llu does not fit its %u bits\n", p.name,
                         static_cast<unsigned long long>(field), p.bits);
            return kInvalidKey;
        }
        if (shift + p.bits > 64) {
            std::fprintf(stderr, "[ERROR] the tiling key's fields exceed 64 bits (ASCENDC_TPL_ARGS_DECL)\n");
            return kInvalidKey;
        }
        key |= field << shift;
        shift += p.bits;
    }
    return key;
}
// GET_TPL_TILING_KEY's values, whatever their integer or enum types (a dtype read as ge::DataType, an int64_t mode).
// The documented macro hands them over as one braced list ({__VA_ARGS__}), so a trailing comma is no value (ops-nn
// batch_mat_mul_v3's DoTilingKeyCustom ends its list with `, )`); each converts through this constructor, which is no
// narrowing conversion, so signed and enum values are taken as the emulation took them before.
struct KeyValue {
    template <typename T> KeyValue(T v) : bits(static_cast<uint64_t>(v)) {}
    uint64_t bits;
};
inline uint64_t encode_values(const Decl& decl, std::initializer_list<KeyValue> values) {
    std::vector<uint64_t> args;
    for (const KeyValue& v : values) args.push_back(v.bits);
    return encode(decl, args);
}
// One argument of ASCENDC_TPL_ARGS_SEL: a parameter's selection, or nothing for an empty argument. CANN's build reads
// the selections as text (its template_argument.h's ASCENDC_TPL_PRE pass marks each list, and its build scripts read
// the marked text), where an empty argument adds nothing: ops-nn quant_batch_matmul_v3's A2 kernel-side selections
// write `ASCENDC_TPL_ARGS_SEL(SET_CUBE_ONLY_ATTR_NONE(...), )` with a macro whose expansion ends in its own comma.
struct SelItem {
    std::vector<Param> param;   // one parameter, or none (an empty argument)
    SelItem() = default;
    SelItem(Param p) : param{std::move(p)} {}
};
inline std::vector<Param> args_sel(std::initializer_list<SelItem> items) {
    std::vector<Param> out;
    for (const SelItem& i : items) out.insert(out.end(), i.param.begin(), i.param.end());
    return out;
}
}}  // namespace ascendcraft::tpl

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::DTYPE, 8, {__VA_ARGS__}, true)
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::DATATYPE, 8, {__VA_ARGS__}, true)
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::FORMAT, 8, {__VA_ARGS__}, true)
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::UINT, (bw), {__VA_ARGS__}, true)
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::BOOL, 1, {__VA_ARGS__}, true)
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
    ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::SHARED_KERNEL_TYPE, 8, {__VA_ARGS__}, true)
#if defined(ASCENDCRAFT_TPL_LIST)
#define ASCENDC_TPL_ARGS_DECL(x, ...) static ::ascendcraft::tpl::Decl g_tilingDeclareParams { __VA_ARGS__ }; \
    static const bool ascendcraftTplDeclListed = ::ascendcraft::tpl::list_decl(g_tilingDeclareParams)
#else
#define ASCENDC_TPL_ARGS_DECL(x, ...) static ::ascendcraft::tpl::Decl g_tilingDeclareParams { __VA_ARGS__ }
#endif
#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::DTYPE, 8, {__VA_ARGS__}, false)
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::DATATYPE, 8, {__VA_ARGS__}, false)
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::FORMAT, 8, {__VA_ARGS__}, false)
#define ASCENDC_TPL_UINT_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::UINT, 0, {__VA_ARGS__}, false)
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::BOOL, 1, {__VA_ARGS__}, false)
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...) ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::TILING_STRUCT, 0, {}, false)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
    ::ascendcraft::tpl::Param("kernel_type", ::ascendcraft::tpl::KERNEL_TYPE, 8, {__VA_ARGS__}, false)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
    ::ascendcraft::tpl::Param("deterministic", ::ascendcraft::tpl::DETERMINISTIC, 1, {__VA_ARGS__}, false)
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
    ::ascendcraft::tpl::Param(#x, ::ascendcraft::tpl::SHARED_KERNEL_TYPE, 8, {__VA_ARGS__}, false)
// ASCENDC_TPL_ARGS_SEL's arguments, each made a SelItem (an empty one too): at most 64 (more: a compile error at
// ASCENDCRAFT_TPL_EACH_ in the header's selection)
#define ASCENDCRAFT_TPL_CAT_(a, b) a##b
#define ASCENDCRAFT_TPL_CAT(a, b) ASCENDCRAFT_TPL_CAT_(a, b)
#define ASCENDCRAFT_TPL_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, \
    _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, \
    _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, n, \
    ...) n
#define ASCENDCRAFT_TPL_COUNT(...) ASCENDCRAFT_TPL_COUNT_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, \
    53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, \
    24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, )
#define ASCENDCRAFT_TPL_EACH(...) ASCENDCRAFT_TPL_CAT(ASCENDCRAFT_TPL_EACH_, ASCENDCRAFT_TPL_COUNT(__VA_ARGS__))(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_1(a) ::ascendcraft::tpl::SelItem(a)
#define ASCENDCRAFT_TPL_EACH_2(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_1(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_3(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_2(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_4(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_3(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_5(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_4(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_6(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_5(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_7(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_6(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_8(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_7(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_9(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_8(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_10(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_9(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_11(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_10(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_12(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_11(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_13(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_12(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_14(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_13(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_15(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_14(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_16(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_15(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_17(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_16(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_18(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_17(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_19(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_18(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_20(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_19(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_21(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_20(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_22(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_21(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_23(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_22(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_24(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_23(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_25(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_24(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_26(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_25(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_27(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_26(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_28(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_27(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_29(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_28(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_30(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_29(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_31(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_30(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_32(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_31(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_33(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_32(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_34(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_33(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_35(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_34(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_36(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_35(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_37(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_36(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_38(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_37(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_39(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_38(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_40(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_39(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_41(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_40(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_42(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_41(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_43(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_42(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_44(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_43(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_45(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_44(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_46(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_45(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_47(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_46(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_48(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_47(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_49(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_48(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_50(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_49(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_51(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_50(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_52(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_51(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_53(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_52(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_54(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_53(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_55(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_54(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_56(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_55(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_57(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_56(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_58(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_57(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_59(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_58(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_60(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_59(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_61(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_60(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_62(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_61(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_63(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_62(__VA_ARGS__)
#define ASCENDCRAFT_TPL_EACH_64(a, ...) ::ascendcraft::tpl::SelItem(a), ASCENDCRAFT_TPL_EACH_63(__VA_ARGS__)
#define ASCENDC_TPL_ARGS_SEL(...) ::ascendcraft::tpl::args_sel({ ASCENDCRAFT_TPL_EACH(__VA_ARGS__) })
// The selection is read by ascendcraft.opproject's enumeration program only (ASCENDCRAFT_TPL_LIST); in an op's host
// sources it declares nothing, as in CANN's host build (its template_argument.h keeps it only under ASCENDC_DEBUG).
#if defined(ASCENDCRAFT_TPL_LIST)
#define ASCENDC_TPL_SEL(...) static ::ascendcraft::tpl::Sel g_tilingSelectParams { __VA_ARGS__ }; \
    static const bool ascendcraftTplSelListed = ::ascendcraft::tpl::list_sel(g_tilingSelectParams)
#else
#define ASCENDC_TPL_SEL(...)
#endif

#define GET_TPL_TILING_KEY(...) ::ascendcraft::tpl::encode_values(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                        \
    do {                                                           \
        const uint64_t ascendcraftTplKey = GET_TPL_TILING_KEY(__VA_ARGS__); \
        (context)->SetTilingKey(ascendcraftTplKey);                \
    } while (0)
#endif
