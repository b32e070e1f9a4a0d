"""What the kernel side of public operators takes from CANN's CPU-debug build (ASCENDC_CPU_DEBUG / __CCE_KT_TEST__, which
the emulation defines with the setting cpu_debug; by default it compiles as the NPU build, with neither): the standard headers its kernel_operator.h brings (<iomanip>, <sstream>, <map>, <set>,
<thread>), and the host tiling API read from a kernel-side tiling header (`#include "tiling/tiling_api.h"` for a
TCubeTiling member), after the op compiler's DT_* macros. Kernels written here in those styles; each test failed to
compile before (hicann ops-nn weight_quant_batch_matmul_v2: "'setw' is not a member of 'std'";
weight_quant_batch_matmul_experiment: "expected unqualified-id before numeric constant")."""
import struct

import numpy as np

from ascendcraft.config import load_settings
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
    # with the setting cpu_debug on, the emulation compiles the CPU-debug branch, as CANN's CPU-debug build does
    b = build({"debug_print.cpp": DEBUG_PRINT}, settings=load_settings(cpu_debug=True))
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 9      # setw(9)


def test_by_default_a_kernel_is_compiled_as_the_npu_build_compiles_it():
    # CANN's NPU build defines neither __CCE_KT_TEST__ nor ASCENDC_CPU_DEBUG: the kernel's device branch runs
    b = build({"debug_print.cpp": DEBUG_PRINT})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == -1


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


LAUNCH_WRAPPER = r'''#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 8);
    yg.SetGlobalBuffer((__gm__ float *)y, 8);
    for (int i = 0; i < 8; ++i) yg.SetValue(i, 2 * xg.GetValue(i));
}

// the launch wrapper an op kernel keeps for the NPU build (bisheng compiles the <<<>>> launch; kernels usually guard
// it with #ifndef ASCENDC_CPU_DEBUG, which the NPU build does not define)
void twice_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y)
{
    if (blockDim > 0) twice<<<blockDim, l2ctrl, stream>>>(x, y);
}
'''


def test_the_npu_builds_launch_wrapper_is_left_out_and_the_entry_runs():
    # NPUKernelBench RmsNormGrad / AddLayerNormGrad keep `name_do` with a `<<<...>>>` launch under #ifndef
    # __CCE_KT_TEST__: the NPU build compiles it, g++ cannot parse it, and nothing in the emulation calls it
    b = build({"twice.cpp": LAUNCH_WRAPPER})
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x, "in"), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and list(r.outputs["y"]) == list(2 * x)


def test_a_launch_wrapper_that_also_calls_the_acl_runtime_compiles_and_the_entry_runs():
    """A 2024 Ascend C contest's op kernels follow the launch with `aclrtSynchronizeStream(stream)` in the wrapper (CANN's
    build of their op projects compiled them): the wrapper's ACL calls find ACL's declarations, the entry runs, and a
    wrapper that calls nothing of ACL gets no ACL names."""
    src = LAUNCH_WRAPPER.replace("(x, y);\n}", "(x, y);\n    aclrtSynchronizeStream(stream);\n}")
    assert src.count("aclrtSynchronizeStream") == 1
    b = build({"twice.cpp": src})
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x, "in"), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and list(r.outputs["y"]) == list(2 * x)
    # the kernel's own lines stay where they were: an error in the kernel is reported at its line
    bad = build({"twice.cpp": src.replace("yg.SetValue(i,", "yg.SetValu(i,")})
    assert not bad.ok and bad.errors[0].line == 9, [d.render() for d in bad.diagnostics]
    plain = build({"twice.cpp": LAUNCH_WRAPPER.replace("if (blockDim > 0)", "aclFloat16 h = 0; (void)h;\n    if (blockDim > 0)")})
    assert not plain.ok and "aclFloat16" in plain.errors[0].message, [d.render() for d in plain.diagnostics]


UT_TEMPLATE_ENTRY = r'''#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Negate(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, 8);
    yg.SetGlobalBuffer((__gm__ T *)y, 8);
    for (int i = 0; i < 8; ++i) yg.SetValue(i, -xg.GetValue(i));
}

#ifdef __CCE_KT_TEST__
template <uint32_t schMode>
#else
extern "C"
#endif
__global__ __aicore__ void negate(GM_ADDR x, GM_ADDR y)
{
#ifdef __CCE_KT_TEST__
    // the kernel test binary instantiates every dtype and picks one by schMode
    if constexpr (schMode == 0) {
        Negate<float>(x, y);
    }
#else
    Negate<DTYPE_X>(x, y);
#endif
}
'''


def test_an_entry_that_is_a_template_only_in_the_cpu_debug_build_is_the_npu_builds_plain_entry():
    # hicann ops-nn experimental hinge_loss / nll_loss_grad: `template <uint32_t schMode>` under __CCE_KT_TEST__,
    # `extern "C"` with the op's DTYPE_<NAME> otherwise; the entry the NPU build compiles is the plain one
    settings = load_settings()
    b = build({"negate.cpp": UT_TEMPLATE_ENTRY}, settings=settings.replace(cxxflags=f"{settings.cxxflags} -DDTYPE_X=float"))
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x, "in"), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and list(r.outputs["y"]) == list(-x)


COPY_TILING = r'''#include "kernel_operator.h"
using namespace AscendC;

struct Inner {
    int32_t a;
    int32_t b;
};
struct Outer {
    int32_t n;
    int32_t pad;
    Inner inner;
};

extern "C" __global__ __aicore__ void copy_tiling(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    // CANN's generated kernel header: a copy on the stack of the tiling in GM, and of a member of the struct
    // GET_TILING_DATA_PTR_WITH_STRUCT gave (hicann ops-nn fused_linear_cross_entropy_loss_grad's TCubeTiling members)
    COPY_TILING_WITH_STRUCT(Outer, tiling, whole);
    GET_TILING_DATA_PTR_WITH_STRUCT(Outer, tdp, tiling);
    COPY_TILING_WITH_STRUCT(Inner, &tdp->inner, inner);
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    yg.SetValue(0, whole->n);
    yg.SetValue(1, whole->inner.b);
    yg.SetValue(2, inner->a);
    yg.SetValue(3, inner->b);
}
'''


def test_copy_tiling_with_struct_copies_the_tiling_or_a_member_of_it():
    # the NPU branch of fused_linear_cross_entropy_loss_grad (its CPU-debug branch defines the macro itself)
    b = build({"copy_tiling.cpp": COPY_TILING})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out"), GM("workspace", np.zeros(8, np.uint8), "workspace"),
                Tiling(struct.pack("<4i", 7, 0, 11, 13))], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    assert list(r.outputs["y"][:4]) == [7, 13, 11, 13]


MM_CONFIG = r'''#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mm_config(GM_ADDR y)
{
    // hicann ops-nn mat_mul_v3's deterministic split-K kernel, its NPU branch: every parameter struct, shape first
    constexpr MatmulShapeParams shapeParams = {0, 0, 0, 128, 128, 64};
    constexpr MatmulQuantParams quantParams = {false, false};
    constexpr MatmulBatchParams batchParams = {false, BatchMode::NONE};
    constexpr MatmulFuncParams funcParams{false, false, false, false, 2, IterateOrder::UNDEF,
                                          ScheduleType::INNER_PRODUCT, true, true};
    constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shapeParams, quantParams, batchParams,
                                                                           funcParams);
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    yg.SetValue(0, static_cast<int32_t>(cfg.basicM));
    yg.SetValue(1, static_cast<int32_t>(cfg.basicK));
}
'''


def test_a_matmul_config_from_the_shape_and_the_other_parameter_structs():
    b = build({"mm_config.cpp": MM_CONFIG})
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok and list(r.outputs["y"][:2]) == [128, 64]
