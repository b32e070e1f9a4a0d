// AscendCraft CPU emulation runtime: views of the raw pointers that the device compiler's cube intrinsics take
// (raw_cube.h): an address in L1, L0A, L0B or L0C as a static tensor from there to the buffer's end. Written from the
// public AscendC documentation; no vendor code.
// cube_raw_view is declared in raw_cube.h, which stands on the whole kernel API: the runtime's sources are built together
// (a unity build), where that header cannot come in, so this file defines it on cube.h alone.
#include "ascendcraft_emu/cube_internal.h"
#include "ascendcraft_emu/cube.h"

namespace ascendcraft { namespace emu {

Local cube_raw_view(const void* p, AscendC::TPosition pos, const char* api, SrcLoc loc) {
    const uint8_t region = cube_region_of(static_cast<uint8_t>(pos));
    const uint32_t size = cube_region_bytes(region);
    uint8_t* base = cube_base(region);
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    // on the NPU a __cbuf__ / __ca__ / __cb__ / __cc__ pointer is the offset in that buffer; here that offset of this
    // core's buffer (no host pointer is that small), or a place in it already (a LocalTensor's GetPhyAddr())
    uint8_t* q = a < size ? base + a : static_cast<uint8_t*>(const_cast<void*>(p));
    static const char* qualifier[] = {"__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__", "", ""};
    if (q < base || q >= base + size)
        Report("cube-raw-address", Op::DataCopy, loc)
            .msg("%s: the pointer is neither an address in %s (below %u) nor inside this core's %s", api,
                 cube_region_name(region), size, cube_region_name(region))
            .val("address", static_cast<int64_t>(a))
            .hint("pass an address below %u (`(%s T*)((uintptr_t)offset)`) or the GetPhyAddr() of a LocalTensor on TPosition::%s",
                  size, qualifier[region], position_name(static_cast<uint8_t>(pos)))
            .fail();
    Local t;
    t.addr = q;
    t.bytes = t.cap = static_cast<uint32_t>(base + size - q);
    t.pos = static_cast<uint8_t>(pos);
    t.slot = kStaticTensorSlot;
    return t;
}

}}  // namespace ascendcraft::emu
