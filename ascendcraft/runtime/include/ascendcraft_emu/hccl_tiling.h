// AscendCraft: the two tiling structs of the HCCL high-level API (Mc2InitTiling: 64 bytes that set up the communication
// domain; Mc2CcTiling: 280 bytes per communication task). Both are opaque bytes that the host's Mc2CcTilingConfig
// ::GetTiling fills and the kernel hands to Hccl::Init / SetCcTiling; an op's tiling struct holds them next to its
// TCubeTiling (cann-ops matmul_all_reduce). Written from the public AscendC documentation; no vendor code.
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {
struct Mc2InitTiling { uint8_t reserved[64]; };
struct Mc2CcTiling { uint8_t reserved[280]; };
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::Mc2InitTiling;
using AscendC::tiling::Mc2CcTiling;
namespace optiling {
using Mc2InitTiling = AscendC::tiling::Mc2InitTiling;
using Mc2CcTiling = AscendC::tiling::Mc2CcTiling;
}  // namespace optiling
