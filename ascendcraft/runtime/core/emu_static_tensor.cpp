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
    // The API reference (LocalTensor constructor) asks for a 32-byte aligned start address and says nothing of the
    // length; CANN's CPU-debug build asserts both, the NPU checks neither when the tensor is made. What the chip refuses
    // is a vector or DMA instruction on a misaligned UB address, and that is checked where an instruction takes the
    // tensor (check_local); a scalar GetValue / SetValue needs no alignment. So both are warnings here, once per line:
    // ops-math arg_max_with_value's SMALL_LAST path, run on the 910B, makes a 40-byte static tensor at 64 KB.
    if (addr % 32 != 0 && first_report_at("static-tensor-address", loc))
        Report("ub-misaligned", Op::TBufGet, loc)
            .msg("%s at address %llu of %s, not a multiple of 32 bytes: the API reference asks for a 32-byte aligned "
                 "address (CANN's CPU-debug build stops here); the NPU does not check it when the tensor is made, but "
                 "every vector or DMA instruction on it stops", api, static_cast<unsigned long long>(addr), memory)
            .val("address", static_cast<int64_t>(addr))
            .hint("place the tensor at a multiple of 32 bytes").warn();
    if (bytes % 32 != 0 && first_report_at("static-tensor-length", loc))
        Report("ub-misaligned", Op::TBufGet, loc)
            .msg("%s: a tensor of %llu elements is %llu bytes, not whole 32-byte blocks: CANN's CPU-debug build stops "
                 "here; the NPU does not check the length, and neither does the emulator past this note", api,
                 static_cast<unsigned long long>(count), static_cast<unsigned long long>(bytes))
            .val("bytes", static_cast<int64_t>(bytes))
            .hint("round the element count up to whole 32-byte blocks to build under CANN's CPU debug as well").warn();
    if (addr + bytes > cap)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("%s: %llu bytes at address %llu end past the %llu bytes of %s on Ascend 910B", api, static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(addr), static_cast<unsigned long long>(cap), memory)
            .val("bytes_needed", static_cast<int64_t>(addr + bytes)).val("available", static_cast<int64_t>(cap))
            .hint("all tensors of one memory together must fit in %llu bytes: shrink the tiles", static_cast<unsigned long long>(cap))
            .fail();
    Local t;
    t.addr = (region ? cube_base(region) : c.ub) + addr;
    t.bytes = static_cast<uint32_t>(bytes);
    // an instruction that reaches into the rest of the tensor's last 32-byte block is a warning (extent_beyond), as for
    // a TBuf, whose InitBuffer length AscendC rounds up to 32 bytes
    t.cap = static_cast<uint32_t>(std::min<uint64_t>((bytes + 31) / 32 * 32, cap - addr));
    t.pos = pos;
    t.slot = kStaticTensorSlot;
    if (!region) c.ub_high = std::max<uint32_t>(c.ub_high, static_cast<uint32_t>(addr + bytes));
    return t;
}

Local local_logic_pos(const Local& d, bool pending, uint32_t offset, uint8_t pos, SrcLoc loc, SrcLoc init) {
    enter(Op::TBufGet, loc);
    const char* api = "LocalTensor::address_.logicPos";
    if (pos == static_cast<uint8_t>(AscendC::TPosition::GM) || pos >= static_cast<uint8_t>(AscendC::TPosition::MAX))
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("%s = %u: a LocalTensor's position is a local memory's (not GM, below TPosition::MAX)", api, static_cast<unsigned>(pos))
            .hint("name the memory by its TPosition: VECIN / VECCALC (UB), A1 / B1 (L1), A2 (L0A), B2 (L0B), CO1 (L0C)").fail();
    const uint8_t region = cube_region_of(pos);
    if (!pending) {   // a placed tensor: the position is renamed, the memory stays
        if (d.addr && region != cube_region_of(d.pos))
            Report("ub-out-of-range", Op::TBufGet, loc)
                .msg("%s moves a tensor of %s to a position of %s: the emulation does not move a placed tensor to another memory",
                     api, cube_region_name(cube_region_of(d.pos)), cube_region_name(region))
                .hint("make the tensor for that memory (InitBuffer(offset, size) then address_.logicPos, or a TBuf of that position)").fail();
        Local t = d;
        t.pos = pos;
        return t;
    }
    // InitBuffer(offset, size) placed now, with AscendC's checks: a size > 0, a 32-byte aligned offset, an end inside the
    // memory, reported at the InitBuffer call (its arguments); the memory is the one the write names
    if (init.file) loc = init;
    const uint64_t cap = region ? cube_region_bytes(region) : g_launch->ub_bytes;
    const char* memory = region ? cube_region_name(region) : "UB";
    if (d.bytes == 0)
        Report("ub-out-of-range", Op::TBufGet, loc).msg("LocalTensor::InitBuffer with a size of 0 elements")
            .hint("give InitBuffer the number of elements of the tensor (> 0)").fail();
    if (offset % 32 != 0)
        Report("ub-misaligned", Op::TBufGet, loc)
            .msg("LocalTensor::InitBuffer at byte offset %u: on Ascend 910B the offset is a multiple of 32 bytes", offset)
            .val("offset", static_cast<int64_t>(offset)).hint("align the offset to 32 bytes").fail();
    if (static_cast<uint64_t>(offset) + d.bytes > cap)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("LocalTensor::InitBuffer: %u bytes at byte offset %u, placed in %s by address_.logicPos, end past its %llu "
                 "bytes on Ascend 910B", d.bytes, offset, memory, static_cast<unsigned long long>(cap))
            .val("bytes_needed", static_cast<int64_t>(offset) + d.bytes).val("available", static_cast<int64_t>(cap))
            .hint("keep offset + size * sizeof(T) within %llu bytes", static_cast<unsigned long long>(cap)).fail();
    Local t;
    t.addr = (region ? cube_base(region) : core().ub) + offset;
    t.bytes = t.cap = d.bytes;
    t.pos = pos;
    t.slot = kStaticTensorSlot;
    if (!region) core().ub_high = std::max<uint32_t>(core().ub_high, offset + d.bytes);
    return t;
}

uint32_t local_memory_offset(const Local& d) {
    const uint8_t region = cube_region_of(d.pos);
    const uint8_t* base = region ? cube_base(region) : core().ub;
    return static_cast<uint32_t>(d.addr - base);
}

}}  // namespace ascendcraft::emu
