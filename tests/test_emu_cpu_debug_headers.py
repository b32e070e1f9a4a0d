"""What the kernel side of public operators takes from CANN's CPU-debug build (ASCENDC_CPU_DEBUG / __CCE_KT_TEST__, which
the emulation defines): the standard headers its kernel_operator.h brings (<iomanip>, <sstream>, <map>, <set>,
<thread>), and the host tiling API read from a kernel-side tiling header (`#include "tiling/tiling_api.h"` for a
TCubeTiling member), after the op compiler's DT_* macros. Kernels written here in those styles; each test failed to
compile before (hicann ops-nn weight_quant_batch_matmul_v2: "'setw' is not a member of 'std'";
weight_quant_batch_matmul_experiment: "expected unqualified-id before numeric constant")."""
import struct

import numpy as np

from ascendcraft.emu import GM, Tiling, build, run

DEBUG_PRINT = r'''#include "kernel_operator.h"
using namespace AscendC;

#if defined(__CCE_KT_TEST__)
// a CPU-debug helper of the kernel's own: it formats a value as the CPU build's tensor dumps do
inline int FormattedWidth(float v)
{
    std::ostringstream text;
    text << std::setw(9) << std::setprecision(3) << v;
    std::map<int, int> widths;
    std::set<int> seen{static_cast<int>(text.str().size())};
    widths[0] = *seen.begin();
    return widths[0];
}
#endif

extern "C" __global__ __aicore__ void debug_print(GM_ADDR y)
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
#if defined(__CCE_KT_TEST__)
    yg.SetValue(0, FormattedWidth(2.5f));
#else
    yg.SetValue(0, -1);
#endif
}
'''


def test_a_cpu_debug_helper_uses_the_standard_headers_the_cpu_build_brings():
    b = build({"debug_print.cpp": DEBUG_PRINT})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 9      # setw(9): the emulation compiles the CPU-debug branch


KERNEL_TILING_H = r'''#pragma once
#include "tiling/tiling_api.h"   // TCubeTiling, and with it the host tiling API

namespace Wq {
#pragma pack(push, 8)
struct WqTilingData {
    int32_t groups;
    int32_t pad;
    TCubeTiling mm;
};
#pragma pack(pop)
}  // namespace Wq
'''

KERNEL = r'''#include "kernel_operator.h"
#include "wq_tiling_data.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void wq_custom(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(Wq::WqTilingData, t, tiling);
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    yg.SetValue(0, t.groups * 2);
#if ORIG_DTYPE_Y == DT_INT32   // the op compiler's dtype macro, compared with kernel_type.h's DT_* numbers
    yg.SetValue(1, 1);
#endif
}
'''


def test_a_kernel_side_tiling_header_includes_the_tiling_api_after_the_dtype_macros():
    from ascendcraft.config import load_settings
    settings = load_settings()
    flags = f"{settings.cxxflags} -DDTYPE_Y=int32_t -DORIG_DTYPE_Y=DT_INT32"
    b = build({"op_kernel/wq_tiling_data.h": KERNEL_TILING_H, "op_kernel/wq_custom.cpp": KERNEL}, "wq_custom",
              settings=settings.replace(cxxflags=flags))
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out"), GM("workspace", np.zeros(8, np.uint8), "workspace"),
                Tiling(struct.pack("<ii", 21, 0) + bytes(4096))], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    assert list(r.outputs["y"][:2]) == [42, 1]
