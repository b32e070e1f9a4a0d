// AscendCraft host side: the names of opbase's element-wise template host tiling (op_common/atvoss/elewise) that
// Ascend 950 tiling headers of the open operator repositories declare members and parameters of. hicann ops-nn
// apply_adam_w_v2's A2 tiling header includes its Ascend 950 one (`ElewiseBaseTiling&` parameters), so an A2 build
// of the op reads this header.
//
// The template's tiling is NOT emulated: `ElewiseBaseTiling` is declared and not defined, so code that constructs one
// or calls its DoTiling (the Ascend 950 tiling functions) does not compile and g++ names the place; the A2 paths only
// name it. The compile info and tiling-data structs are given with opbase's field names and order (source
// compatibility; no vendor code).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "register/tilingdata_base.h"
#include "exe_graph/runtime/tiling_context.h"
#include "op_common/atvoss/elewise/elewise_base_struct.h"

namespace Ops { namespace Base {
using namespace optiling;

constexpr uint64_t OP_KEY_OFFSET = 100000000000000;
constexpr int64_t BITS_NUM = 8;
constexpr int64_t DEFAULT_SCHEMODE = 1;

enum class BITS_SIZE { BITS1_SIZE = 1, BITS8_SIZE = 8, BITS16_SIZE = 16, BITS32_SIZE = 32, BITS64_SIZE = 64 };

// What the template needs of the platform (filled by the op's TilingPrepare).
struct ElewiseCompileInfo {
    uint64_t coreNum = 0;
    uint64_t ubSize = 0;
};
// The older entry's per-key compute description and result.
struct ComputeParams {
    int64_t maxDtypeBits;
    int64_t minDtypeBits;
    std::vector<int64_t> extraSize;
    std::vector<int64_t> bufferDivisor;
};
struct ElewiseTilingParams {
    int64_t coreNum;
    gert::Shape shape;
    int64_t ubSize;
    std::map<uint64_t, ComputeParams> computeMap;
};
struct ElewiseTilingData {
    uint64_t innerKey;
    int64_t dim0;
    int64_t ubFormer;
    int64_t blockFormer;
    int64_t blockNum;
    int64_t coreNum;
    int64_t ubLoopOfFormerBlock;
    int64_t ubLoopOfTailBlock;
    int64_t ubTailOfFormerBlock;
    int64_t ubTailOfTailBlock;
    int64_t elemNum;
};

class ElewiseBaseTiling;   // the template's tiling (not emulated: declared only)

}}  // namespace Ops::Base
