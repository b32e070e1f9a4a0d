// AscendCraft CPU emulation: the address registers VA0..VA7 of the raw vector intrinsics (raw_vector.h). Each holds
// 8 UB addresses; scatter_vnchwconv reads a register and the next one as its 16 block addresses. Written from the
// public AscendC documentation (asc_set_va_reg, asc_transto5hd); no vendor code.
#include "ascendcraft_emu/raw_vector.h"
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

void va_set(uint8_t reg, const uint64_t* addrs, SrcLoc loc) {
    enter(Op::TransDataTo5HD, loc);
    Core& c = core();
    if (reg > 7)
        Report("va-register", Op::TransDataTo5HD, loc)
            .msg("set_va_reg_sb: address register %u does not exist (VA0 .. VA7)", reg)
            .hint("pass VA0 .. VA7").fail();
    for (int i = 0; i < 8; ++i) c.va_regs[reg][i] = addrs[i];
    c.va_loaded |= static_cast<uint8_t>(1u << reg);
}

void va_pair(uint8_t reg, uint64_t out[16], const char* api, SrcLoc loc) {
    enter(Op::TransDataTo5HD, loc);
    Core& c = core();
    if (reg >= 7)
        Report("va-register", Op::TransDataTo5HD, loc)
            .msg("%s reads 16 addresses from an address register and the next one; VA%u has no next register", api, reg)
            .hint("keep the 16 addresses in VA0/VA1, VA2/VA3, VA4/VA5 or VA6/VA7 and pass the first of the pair").fail();
    for (int r = reg; r <= reg + 1; ++r)
        if (!((c.va_loaded >> r) & 1u))
            Report("va-register", Op::TransDataTo5HD, loc)
                .msg("%s reads address registers VA%u and VA%u, but this block never loaded VA%d", api, reg, reg + 1, r)
                .hint("load both with set_va_reg_sb(VAn, addresses) before the transposition").fail();
    for (int i = 0; i < 8; ++i) { out[i] = c.va_regs[reg][i]; out[8 + i] = c.va_regs[reg + 1][i]; }
}

// The mask register's element count in counter mode (set_vector_mask(0, count) after set_mask_count): what a raw
// vreducev2 in counter mode takes from each repeat (raw_vector_arith.h).
uint64_t mask_counter_value() { return core().counter_value; }

}}  // namespace ascendcraft::emu
