// AscendCraft: the tiling-data structs of opbase's element-wise template (op_common/atvoss/elewise), which Ascend 950
// tiling structs of the open operator repositories hold as members. hicann ops-nn apply_adam_w_v2's A2 tiling header
// includes its Ascend 950 one, whose ApplyAdamWV2RegbaseTilingData holds an EleBaseTilingDataV2; the emulator's kernel
// build reads that header for the A2 tiling struct, so the member's type has to be complete.
//
// Only the data layouts are given (field names, types and order as opbase declares them, so that sizes agree); the
// template's tiling and kernels are not emulated (elewise_tiling.h, ../util/). No vendor code.
#pragma once

#include <cstdint>

namespace Ops { namespace Base {

constexpr uint64_t ELEWISE_MAX_SCALAR_BYTES = 16;
constexpr uint64_t EIGHT_BYTES = 8;
constexpr uint64_t SIXTEN_BYTES = 16;   // (sic: the opbase spelling)

// The template's split of a flattened shape: over cores (block), then UB passes within a core, with the tails.
struct EleBaseTilingData {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
    int64_t blockFormer;
    int64_t blockNum;
    int64_t ubLoopOfFormerBlock;
    int64_t ubLoopOfTailBlock;
    int64_t ubTailOfFormerBlock;
    int64_t ubTailOfTailBlock;
    int64_t elemNum;
    uint64_t scheMode;
};
// The short forms: the first three fields, then 0, 8 or 16 bytes of scalar operands.
struct EleBaseTilingData16B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
};
struct EleBaseTilingData24B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
    char scalarData[EIGHT_BYTES];
};
struct EleBaseTilingData32B {
    int64_t dim0;
    int32_t coreNum;
    int32_t ubFormer;
    char scalarData[SIXTEN_BYTES];
};
using EleBaseTilingDataV2 = EleBaseTilingData;

}}  // namespace Ops::Base
