// AscendCraft host side: the names of the reduce template's host tiling (CANN opbase, op_common/atvoss/reduce) that op_host
// code of the open operator repositories declares members and parameters of. hicann ops-transformer
// rotary_position_embedding_grad's tiling header (which the emulator's kernel build reads for its tiling structs) holds
// a ReduceOpCompileInfo and a ReduceTilingKey and names ReduceOpInputParam; its own code fills the compile info
// (the platform queries are in ascendcraft_emu/ops_base.h).
//
// The template's tiling itself (Tiling4ReduceOp: shapes and axes to the reduce kernels' tiling data and key, used by the
// Ascend 950 regbase kernels) is NOT emulated: a call writes an error that names it and returns GRAPH_FAILED, so the
// op's tiling function fails with that message. The names and fields follow opbase's public declarations (for source
// compatibility) and the operator sources' use of them; no vendor code.
#pragma once

#include <cstdint>
#include <vector>

#include "ascendcraft_emu/ops_base.h"

namespace Ops { namespace Base {

constexpr uint64_t WORKSPACE_SIZE = 16 * 1024 * 1024;   // the template's fixed workspace (bytes)
constexpr uint64_t BASIC_BLOCK = 64 * 1024UL;            // its UB blocks (bytes): basic, post-reduce, cache
constexpr uint64_t POST_BUF_SIZE = 8 * 1024UL;
constexpr uint64_t CACHE_BUF_SIZE = 16 * 1024UL;

// What the template needs of the platform, filled by the op (TilingPrepare4ReduceOp in rotary_position_embedding_grad).
struct ReduceOpCompileInfo {
    uint64_t vectorCoreNum = 0;
    uint64_t ubSize = 0;
    uint64_t cacheLineSize = 0;
    uint64_t ubBlockSize = 0;
    uint64_t vRegSize = 0;
};
// One reduction's input: its dtype (and the dtype it computes in), shape and reduced axes.
struct ReduceOpInputParam {
    uint32_t reservedSize = 0;
    uint32_t reservedNode = 0;
    ge::DataType inputDtype = ge::DT_UNDEFINED;
    ge::DataType promoteDtpye = ge::DT_UNDEFINED;   // (sic: the opbase spelling)
    std::vector<int64_t> axes;
    std::vector<int64_t> shape;
};
// The template's key: which axis pattern, and the loop counts of its kernel.
struct ReduceTilingKey {
    uint32_t patternID = 0;
    uint32_t loopARCount = 0;
    uint32_t loopInnerARCount = 0;
};
struct ReduceOpTilingData;   // the template kernels' tiling data (not emulated)

template <class OpDag = void>
ge::graphStatus Tiling4ReduceOp(gert::TilingContext* context, ReduceOpInputParam& opInput, ReduceTilingKey& key,
                                const ReduceOpCompileInfo* compileInfo = nullptr, ReduceOpTilingData* tilingData = nullptr) {
    (void)opInput; (void)key; (void)compileInfo; (void)tilingData;
    Log(3, OpInfoOf(context), "Ops::Base::Tiling4ReduceOp (the reduce template's host tiling of CANN opbase, "
        "op_common/atvoss/reduce) is not emulated by AscendCraft: tile the reduction in the op's own tiling function");
    return ge::GRAPH_FAILED;
}

}}  // namespace Ops::Base
