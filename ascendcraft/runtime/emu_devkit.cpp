// AscendCraft CPU emulation: views of the raw UB pointers that kernels pass to the devkit's implementation functions
// (DuplicateImpl, DataCopy*Impl; devkit_impl.h). Written from the public AscendC documentation; no vendor code.
#include "ascendcraft_emu/devkit_impl.h"
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

Local ub_raw_view(const void* p, const char* api, SrcLoc loc) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    Core& c = core();
    const uint32_t top = g_launch->ub_bytes;
    if (q < c.ub || q >= c.ub + top)
        Report("ub-out-of-range", Op::TBufGet, loc)
            .msg("%s: the __ubuf__ pointer is not inside this core's Unified Buffer (%u bytes)", api, top)
            .hint("pass (__ubuf__ T*)tensor.GetPhyAddr() of a LocalTensor of this core").fail();
    Local t;
    t.addr = const_cast<uint8_t*>(q);
    t.bytes = t.cap = static_cast<uint32_t>(c.ub + top - q);
    return t;
}

}}  // namespace ascendcraft::emu
