// AscendCraft host-side emulation of platform_ascendc::PlatformAscendC: the core counts and memory
// sizes of the emulated chip (set by the op-project glue from the SoC profile). Written from the public
// CANN documentation; no vendor code.
#pragma once

#include <cstdint>

#include "register/op_def_registry.h"

// The NPU architecture (the __NPU_ARCH__ number): the emulated chip is an A2, DAV_2201. Op hosts of the newer
// repositories compare it to choose the regbase (Ascend 950, DAV_3510) tiling, or list the chips that share a branch
// (ops-nn ascend_quant_v2: DAV_2201 or DAV_3003).
enum class NpuArch : uint32_t {
    DAV_RESV = 0, DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3003 = 3003, DAV_3102 = 3102,
    DAV_3113 = 3113, DAV_3510 = 3510, DAV_5102 = 5102
};

namespace platform_ascendc {

// FB: the fixpipe buffer, BT: the bias table (ops-nn mat_mul_v3's tiling reads BT's size)
enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, FB, BT, RESERVED };
// the SoCs op_host sources compare against (the emulated platform is an A2, ASCEND910B; ops-nn's tilings also branch
// on the regbase ASCEND950 and others)
enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND310, ASCEND310C, ASCEND610LITE, ASCEND910E,
    ASCEND910_55, ASCEND950, KIRIN9030, KIRINX90, RESERVED_VERSION,
    ASCEND910_95 = ASCEND950   // the SDK keeps the older name of ASCEND950 (ops-transformer rotary_position_embedding)
};

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const gert::PlatformInfoHandle* info) : info_(info ? *info : gert::PlatformInfoHandle()) {}
    uint32_t GetCoreNum() const { return info_.aiv; }
    uint32_t GetCoreNumAic() const { return info_.aic; }
    uint32_t GetCoreNumAiv() const { return info_.aiv; }
    uint32_t GetCoreNumVector() const { return info_.aiv; }
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
    void GetCoreMemSize(CoreMemType t, uint64_t& size) const {
        switch (t) {
        case CoreMemType::UB: size = info_.ub; break;
        case CoreMemType::L1: size = info_.l1; break;
        case CoreMemType::L0_A: size = info_.l0a; break;
        case CoreMemType::L0_B: size = info_.l0b; break;
        case CoreMemType::L0_C: size = info_.l0c; break;
        case CoreMemType::L2: size = info_.l2; break;
        case CoreMemType::FB: size = info_.fb; break;
        case CoreMemType::BT: size = info_.bt; break;
        default: size = 0;
        }
    }
    // the bandwidth of L2 or HBM in bytes per cycle (cann-ops conv3dv2's tiling reads L2's); 0 for the others
    void GetCoreMemBw(CoreMemType t, uint64_t& bw) const { info_.GetLocalMemBw(t, bw); }
    uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024u * 1024u; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        const uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
private:
    gert::PlatformInfoHandle info_;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { static PlatformAscendC p; return &p; }
    // The CPU-debug form that names a SoC ("Ascend910B1"): the emulated chip is the same whatever the name.
    static PlatformAscendC* GetInstance(const char* /*customSocVersion*/) { return GetInstance(); }
};

}  // namespace platform_ascendc
