"""Names the public CANN operators of hicann ops-transformer take from CANN's include paths on A2: the SDK's internal
basic-API headers kernel_macros.h and kernel_event.h (its shared common_func.h and the attention kernels include them
by name), and ops-base's log/log.h with the device log's level check (CheckLogLevel, DLOG_*, the module id OP), which
its shared tiling_base.h calls in a tiling header that the kernel's build reads too; AscendC's constants F32_NEG_INF,
DROPOUT_MODE_*, INVALID_TEVENTID and SocVersion::ASCEND910_95."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = """#include "kernel_macros.h"
#include "kernel_event.h"
#include "log/log.h"
#include "tiling/platform/platform_ascendc.h"
#include <alog_pub.h>                 // the device log header by its bare name (ffn_tiling.cpp)

// the SDK's constants of AscendC these kernels name (kernel_utils_constants.h, kernel_tpipe_base.h) and a SoC's older name
static_assert(AscendC::F32_NEG_INF == 0xff800000u && AscendC::F32_INF == 0x7f800000u && AscendC::F32_NAN == 0x7fc00000u, "f32");
static_assert(AscendC::DROPOUT_MODE_BYTE_MISALIGN == 1 && AscendC::DROPOUT_MODE_BIT_MISALIGN == 4, "dropout modes");
static_assert(AscendC::ONE_BYTE_BIT_SIZE == 8, "bits");
static_assert(AscendC::INVALID_TEVENTID == static_cast<AscendC::TEventID>(-1), "no event");
static_assert(platform_ascendc::SocVersion::ASCEND910_95 == platform_ascendc::SocVersion::ASCEND950, "old name");

// a host helper of a tiling header, as ops-transformer's tiling_base.h has one: it compiles in the kernel's unit
inline bool TilingDebugOn() { return CheckLogLevel(static_cast<int32_t>(OP), DLOG_DEBUG) == 1; }
// and the log line its err/ops_err.h writes through (OPS_INNER_ERR_STUB), with and without arguments
inline void TilingDebugLine(const char* op) { OpLogSub(OP, DLOG_DEBUG, op, "tiling %d", 1); OpLogSub(OP, DLOG_INFO, op, "done"); }

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::DataCopy(a, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(a, a, 2.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, a, 64);
}
"""


def test_the_sdk_internal_headers_and_the_log_level_check_compile_in_a_kernel():
    b = build({"twice.cpp": KERNEL})
    assert b.ok, b.log[-2000:]
    x = np.arange(64, dtype=np.float32) - 20
    r = run(b, [GM("x", x), GM("y", np.empty(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
