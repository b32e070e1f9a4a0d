// AscendCraft CPU emulation: PopStackBuffer, the UB that the TPipe's InitBuffer allocations leave free (the advanced
// APIs take their temporaries from it when the kernel passes no sharedTmpBuffer). Written from the public AscendC
// documentation; no vendor code.
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

Local stack_buffer(SrcLoc loc) {
    enter(Op::TBufGet, loc);
    const uint32_t used = (ub_in_use() + 31) / 32 * 32, top = g_launch->ub_bytes;
    if (used >= top)
        Report("ub-overflow", Op::TBufGet, loc)
            .msg("PopStackBuffer: the InitBuffer allocations use all %u bytes of UB (up to offset %u); no free UB is left",
                 top, used)
            .val("ub_used", used).val("ub_bytes", top)
            .hint("leave UB free for the stack buffer, or pass the API a sharedTmpBuffer of your own").fail();
    Local t;
    t.addr = core().ub + used;
    t.bytes = t.cap = top - used;
    return t;
}

}}  // namespace ascendcraft::emu
