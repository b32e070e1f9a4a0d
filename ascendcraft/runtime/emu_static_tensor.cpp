// AscendCraft CPU emulation: LocalTensors of static Tensor programming (static_tensor.h): a position, a byte address
// and an element count, checked as AscendC checks them. Written from the public AscendC documentation; no vendor code.
#include "ascendcraft_emu/static_tensor.h"
#include "ascendcraft_emu/cube_internal.h"
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

Local local_at(uint8_t pos, uint64_t addr, uint64_t count, uint32_t elem_bits, const char* api, SrcLoc loc) {
    enter(Op::TBufGet, loc);
    Core& c = core();
    const uint8_t region = cube_region_of(pos);
    const uint64_t cap = region ? cube_region_bytes(region) : g_launch->ub_bytes;
    const char* memory = region ? cube_region_name(region) : "UB";
    const uint64_t bytes = count * elem_bits / 8;
    if (count == 0)
        Report("ub-out-of-range", Op::TBufGet, loc).msg("%s with a tile of 0 elements (Ascend 910B: a static tensor has at least one element)", api)
            .hint("give the number of elements of the tensor (> 0)").fail();
    if (bytes % 32 != 0)
        Report("ub-misaligned", Op::TBufGet, loc)
            .msg("%s: a tensor of %llu elements is %llu bytes; on Ascend 910B a static tensor is a whole number of 32-byte blocks", api,
                 static_cast<unsigned long long>(count), static_cast<unsigned long long>(bytes))
            .val("bytes", static_cast<int64_t>(bytes))
            .hint("round the element count up so that the tensor is a whole number of 32-byte blocks").fail();
    if (addr + bytes > cap)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("%s: %llu bytes at address %llu end past the %llu bytes of %s on Ascend 910B", api, static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(addr), static_cast<unsigned long long>(cap), memory)
            .val("bytes_needed", static_cast<int64_t>(addr + bytes)).val("available", static_cast<int64_t>(cap))
            .hint("all tensors of one memory together must fit in %llu bytes: shrink the tiles", static_cast<unsigned long long>(cap))
            .fail();
    Local t;
    t.addr = (region ? cube_base(region) : c.ub) + addr;
    t.bytes = t.cap = static_cast<uint32_t>(bytes);
    t.pos = pos;
    t.slot = kStaticTensorSlot;
    if (!region) c.ub_high = std::max<uint32_t>(c.ub_high, static_cast<uint32_t>(addr + bytes));
    return t;
}

}}  // namespace ascendcraft::emu
