// AscendCraft CPU emulation runtime: the cube core's buffers (L1, L0A, L0B, L0C) as the queue allocator
// sees them (and the bias table, C2). Kernels never include this header.
#pragma once

#include "internal.h"

namespace ascendcraft { namespace emu {

// Where a TPosition's buffers live: 0 = UB (the vector core), else one of the cube core's buffers.
enum CubeRegion : uint8_t { kRegionUB = 0, kRegionL1 = 1, kRegionL0A = 2, kRegionL0B = 3, kRegionL0C = 4, kRegionBT = 5,
                          kRegionFB = 6 };   // FB: the Fixpipe buffer (C2PIPE2GM)
uint8_t cube_region_of(uint8_t pos);
const char* cube_region_name(uint8_t region);
uint32_t cube_region_bytes(uint8_t region);
uint8_t cube_producer_pipe(uint8_t pos);
uint8_t cube_consumer_pipe(uint8_t pos);
uint64_t cube_round_len(uint8_t region, uint64_t len);
// InitBuffer on a cube position: an `l1-overflow` / `l0-overflow` error when the buffers do not fit.
void cube_check_capacity(uint8_t region, uint32_t used, uint64_t total, int num, uint64_t len, const SrcLoc& loc);
uint8_t* cube_base(uint8_t region);  // this block's buffer, made (filled with the poison byte) on first use
// DataCopy with a cube-core operand (GM -> L1 in the count or burst form).
void cube_data_copy(Dt dt, const Local* dst, const Local* src, void* gm, const CopyShape& shape, SrcLoc loc);

}}  // namespace ascendcraft::emu
