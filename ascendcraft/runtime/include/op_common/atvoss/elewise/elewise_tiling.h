// AscendCraft host side: the names of opbase's element-wise template host tiling (op_common/atvoss/elewise) that
// Ascend 950 tiling headers of the open operator repositories declare members and parameters of. hicann ops-nn
// apply_adam_w_v2's A2 tiling header includes its Ascend 950 one (`ElewiseBaseTiling&` parameters), so an A2 build
// of the op reads this header.
//
// The template's tiling is NOT emulated: `ElewiseBaseTiling` compiles, and its DoTiling (what the Ascend 950 tiling
// functions call) stops the run with an error naming it, so an op_host source of Ascend 950 links beside the A2 one as
// in CANN's build; the DAG's operations (declared only) still stop the build where they are written. The compile info and tiling-data structs are given with opbase's field names and order (source
// compatibility; no vendor code).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
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

// The template's tiling, not emulated: an Ascend 950 tiling source that runs it compiles and links (CANN's build links
// every op_host source, and an A2 TilingFunc may call the Ascend 950 one on a branch A2 never takes: apply_adam_w_v2's
// `compileInfo->isRegbase`), and a run that reaches DoTiling stops there with an error naming it (no silent no-op).
class ElewiseBaseTiling {
public:
    explicit ElewiseBaseTiling(gert::TilingContext* context) : context_(context) {}
    template <typename Dag, typename... A> ge::graphStatus DoTiling(A&&...) {
        throw std::runtime_error(
            "ascendcraft: Ops::Base::ElewiseBaseTiling::DoTiling (opbase's element-wise template host tiling, "
            "op_common/atvoss/elewise) is not emulated: it tiles for Ascend 950's register-based vector unit; an A2 "
            "TilingFunc does not reach it");
    }
private:
    gert::TilingContext* context_;
};

}}  // namespace Ops::Base
