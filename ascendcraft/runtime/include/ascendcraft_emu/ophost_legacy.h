// AscendCraft's stand-in for CANN's closed legacy op-host library (libophost_comm_legacy.so) and for the loader that
// finds it. hicann ops-nn, built as a sub-package (NN_ENABLE_DLOPEN_LEGACY), reaches that library through
// `Ops::NN::LegacyCommonMgr` (its common/inc/legacy_common_manager.h): `GetInstance()` and `GetFunc<FuncType>(name)`,
// which its adapters (common/src/op_host/op_cache_tiling.cpp, runtime_kb_api.cpp, tbe_tiling_api.cpp) call with the
// library's C names ("LegacyTilingParsePrepareForOpCache", "LegacyGenTbeMatmulTiling", ...); a null function makes each
// adapter log a warning and return false. The repository's loader finds the file by CANN's installed layout (dladdr of
// libophost_nn.so, the library beside it); the emulated host links op_host code into the kernel program and has no such
// layout, so the corpus materialises the repository's header as a forwarder to this one (examples/corpus/corpus.py,
// EMULATED_HEADERS): the same class, whose GetFunc answers from the functions below. Written from the public ops-nn
// sources' declarations (names, signatures, what their callers read); no vendor code.
//
// What the library gives, as emulated:
// - LegacyTilingParsePrepareForOpCache(gert::TilingParseContext*) / LegacyTilingPrepareForOpCache(gert::TilingContext*):
//   the op-cache preparation the matmul TilingParse functions call after they fill their compile info (ops-nn
//   mat_mul_v3 / batch_mat_mul_v3 / gemm_v3 / quant_batch_matmul_v3 / transpose_batch_mat_mul). Their callers read
//   nothing back but the result; what the preparation keeps is read only inside the closed library (its GenTiling). The
//   stand-in checks that the context's platform gives every fact the parse functions read from it (the SoC version, the
//   AI core and vector core counts, the L0A / L0B / L0C / L1 / UB / L2 sizes: the facts platform_ascendc answers) and
//   returns true; a context without a platform, or a platform missing one of them, is false with an error naming it.
// - LegacyGenTbeMatmulTiling (Ops::NN::GenTiling): the TBE cube tiling of CANN's closed library. mat_mul_v3's A2 tiling
//   calls it on its "IncreShape" path (GetV2Tiling: fp16 / bf16 ND, x2 transposed, no bias) and converts the tiling it
//   returns whatever the result, so a false here would hand the kernel a default CacheTilingData. Its algorithm is not
//   public: the call is an error that names it (std::runtime_error, as the other context misuses).
// - Every other name (LegacyQueryBank, the tuning bank; LegacyCheckSupportConditionQbmm; LegacyGenWqbmmTiling;
//   LegacyGetTbeTiling ...): nullptr, as dlsym answers for a symbol the library lacks; the adapters then log their
//   warning and return their failure value, as they do without the library (QueryBank's 0xFF: the A2 tiling computes
//   its own).
#pragma once

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "register/op_def_registry.h"

namespace ascendcraft {
namespace emu {
namespace ophost_legacy {

// The name of the first platform fact the matmul parse functions read that `platform` lacks ("" when it has them all).
inline std::string missing_platform_fact(const gert::PlatformInfoHandle& platform) {
    std::string value;
    if (!platform.GetPlatformRes("version", "SoC_version", value) || value.empty()) return "version/SoC_version";
    if (!platform.GetPlatformRes("SoCInfo", "ai_core_cnt", value) || value.empty() || value == "0")
        return "SoCInfo/ai_core_cnt (the AI core count, GetCoreNumAic)";
    if (!platform.GetPlatformRes("SoCInfo", "vector_core_cnt", value) || value.empty() || value == "0")
        return "SoCInfo/vector_core_cnt (the vector core count, GetCoreNumAiv)";
    const struct { fe::LocalMemType type; const char* name; } sizes[] = {
        {fe::LocalMemType::L0_A, "L0_A"}, {fe::LocalMemType::L0_B, "L0_B"}, {fe::LocalMemType::L0_C, "L0_C"},
        {fe::LocalMemType::L1, "L1"}, {fe::LocalMemType::UB, "UB"}, {fe::LocalMemType::L2, "L2"}};
    for (const auto& s : sizes) {
        uint64_t size = 0;
        platform.GetLocalMemSize(s.type, size);
        if (size == 0) return std::string(s.name) + " size (GetCoreMemSize)";
    }
    return "";
}

inline bool prepare_op_cache(const gert::PlatformInfoHandle* platform, const char* caller) {
    if (platform == nullptr) {
        std::fprintf(stderr, "[ERROR] %s: TilingPrepareForOpCache (the emulated libophost_comm_legacy.so): the context "
                     "has no platform info\n", caller);
        return false;
    }
    const std::string missing = missing_platform_fact(*platform);
    if (!missing.empty()) {
        std::fprintf(stderr, "[ERROR] %s: TilingPrepareForOpCache (the emulated libophost_comm_legacy.so): the "
                     "platform gives no %s\n", caller, missing.c_str());
        return false;
    }
    return true;
}

inline bool parse_prepare_for_op_cache(gert::TilingParseContext* context) {
    return prepare_op_cache(context == nullptr ? nullptr : context->GetPlatformInfo(), "LegacyTilingParsePrepareForOpCache");
}

inline bool tiling_prepare_for_op_cache(gert::TilingContext* context) {
    return prepare_op_cache(context == nullptr ? nullptr : context->GetPlatformInfo(), "LegacyTilingPrepareForOpCache");
}

// A function of the closed library whose result its caller reads but whose algorithm is not public: calling it is an
// error naming it, whatever signature the adapter asks for.
template <typename F> struct Unknowable;
template <typename R, typename... A> struct Unknowable<R (*)(A...)> {
    static R gen_tbe_matmul_tiling(A...) {
        throw std::runtime_error(
            "ascendcraft: Ops::NN::GenTiling (LegacyGenTbeMatmulTiling of CANN's closed libophost_comm_legacy.so, the "
            "TBE cube tiling) is not emulated: its algorithm is not public, and its caller uses the tiling it fills "
            "(in ops-nn, e.g. mat_mul_v3's GetV2Tiling on the A2 IncreShape path: fp16 / bf16 ND, x2 transposed, no "
            "bias; quant_batch_matmul_v3's A2 tiling outside its basic-block range). Run the op with a shape or layout "
            "its own tiling covers without the TBE tiling");
    }
};

}  // namespace ophost_legacy
}  // namespace emu
}  // namespace ascendcraft

namespace Ops {
namespace NN {
// ops-nn's loader of CANN's legacy library (common/inc/legacy_common_manager.h), its public interface: GetInstance and
// GetFunc. Stateless here: the emulated library is the functions above, linked into the program.
class LegacyCommonMgr {
public:
    LegacyCommonMgr() = default;
    LegacyCommonMgr(const LegacyCommonMgr&) = delete;
    LegacyCommonMgr& operator=(const LegacyCommonMgr&) = delete;

    static const LegacyCommonMgr& GetInstance() {
        static const LegacyCommonMgr instance;
        return instance;
    }

    // The library's function `symbolName` as FuncType, or nullptr where dlsym would find none (the header above).
    template <typename FuncType> FuncType GetFunc(const char* symbolName) const {
        namespace legacy = ascendcraft::emu::ophost_legacy;
        if (symbolName == nullptr) return nullptr;
        if constexpr (std::is_same<FuncType, bool (*)(gert::TilingParseContext*)>::value) {
            if (std::strcmp(symbolName, "LegacyTilingParsePrepareForOpCache") == 0) return &legacy::parse_prepare_for_op_cache;
        }
        if constexpr (std::is_same<FuncType, bool (*)(gert::TilingContext*)>::value) {
            if (std::strcmp(symbolName, "LegacyTilingPrepareForOpCache") == 0) return &legacy::tiling_prepare_for_op_cache;
        }
        if constexpr (std::is_pointer<FuncType>::value && std::is_function<std::remove_pointer_t<FuncType>>::value) {
            if (std::strcmp(symbolName, "LegacyGenTbeMatmulTiling") == 0) return &legacy::Unknowable<FuncType>::gen_tbe_matmul_tiling;
        }
        return nullptr;
    }
};
}  // namespace NN
}  // namespace Ops
