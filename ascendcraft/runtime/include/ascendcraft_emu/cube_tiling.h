// AscendCraft: TCubeTiling, the matmul tiling a host tiling function fills (matmul_tiling::MultiCoreMatmulTiling
// ::GetTiling) and a kernel's Matmul object reads. One struct serves both sides, as the bytes the host writes are the
// bytes GET_TILING_DATA copies back: 50 int32 fields in AscendC's order, with the host side's set_<field> /
// get_<field> accessors (optiling::TCubeTiling, for TILING_DATA_FIELD_DEF_STRUCT). Written from the public AscendC
// documentation; no vendor code.
#pragma once

#include <cstdint>
#include <cstring>

#define ASCENDCRAFT_TCUBE_FIELDS(X) \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK) \
    X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) \
    X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb) \
    X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) \
    X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) \
    X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) \
    X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)

namespace AscendC {
namespace tiling {
struct TCubeTiling {
#define ASCENDCRAFT_TCUBE_FIELD(name)                      \
    int32_t name = 0;                                     \
    void set_##name(int32_t value) { name = value; }     \
    int32_t get_##name() const { return name; }
    ASCENDCRAFT_TCUBE_FIELDS(ASCENDCRAFT_TCUBE_FIELD)
#undef ASCENDCRAFT_TCUBE_FIELD
    static constexpr uint64_t GetDataSize() { return 50 * sizeof(int32_t); }
    // Host side (optiling::TCubeTiling): the 50 fields' bytes into a buffer (at most `capacity` bytes), as the
    // single-source examples hand them to the kernel.
    void SaveToBuffer(void* dst, uint64_t capacity) const {
        std::memcpy(dst, this, sizeof(*this) < capacity ? sizeof(*this) : static_cast<size_t>(capacity));
    }
};
static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t), "TCubeTiling is 50 int32 fields, as in AscendC");
}  // namespace tiling
}  // namespace AscendC
using AscendC::tiling::TCubeTiling;
namespace optiling {
using TCubeTiling = AscendC::tiling::TCubeTiling;
}  // namespace optiling
