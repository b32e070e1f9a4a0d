"""DataCopy with DataCopyEnhancedParams (BlockMode, DeqScale, pad_t) on Ascend 910B (A2).

The enhanced fields act only on the L0C (CO1) <-> UB (CO2) path of the Atlas inference products' AI Core (310P). On A2
that path does not exist (L0C is in the cube core, UB in the vector cores) and AscendC's A2 build reports it as not
supported; every other path is the plain DataCopy with the same DataCopyParams. So: GM -> UB, UB -> UB and UB -> GM
with enhanced fields set are checked against a NumPy model of the bursts, and L0C -> UB / UB -> L0C must stop with a
named `unsupported` diagnostic at the call (ops-nn transpose_batch_mat_mul's l0c_to_ub, cann-ops bidirection_lstm)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void enhanced(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), b = a[1024];
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 1024);
    yg.SetGlobalBuffer((__gm__ float *)y, 512);
    Duplicate(a, -1.0f, 2048);
    PipeBarrier<PIPE_V>();
    // every enhanced field set: on these paths AscendC ignores them
    DataCopyEnhancedParams e(BlockMode::BLOCK_MODE_MATRIX, DeqScale::DEQ16, 0x3f800000ULL, 2, true, pad_t::PAD_NONE, 7);
    e.deqTensorAddr = 64;
    SetFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(0);
    DataCopy(a, xg, DataCopyParams(4, 3, 2, 1), e);                 // GM -> UB: 4 bursts of 24 floats
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    DataCopy(b, a, DataCopyParams(3, 2, 2, 1), DataCopyEnhancedParams());  // UB -> UB
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy<float>(yg, b, DataCopyParams(2, 32, 0, 0), e);         // UB -> GM
}
'''


def bursts(dst, src, count, length, src_gap, dst_gap, unit):
    "The DataCopyParams model: `count` bursts of `length` x 32 bytes, gaps in 32-byte blocks (unit = elements per block)."
    for i in range(count):
        s, d = i * (length + src_gap) * unit, i * (length + dst_gap) * unit
        dst[d:d + length * unit] = src[s:s + length * unit]


def test_enhanced_params_are_the_plain_copy_on_gm_and_ub_paths():
    x = np.random.default_rng(3).standard_normal(1024).astype(np.float32)
    r = run(build({"enhanced.cpp": KERNEL}), [GM("x", x), GM("y", np.zeros(512, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    ub = np.full(4096, -1.0, np.float32)
    bursts(ub, x, 4, 3, 2, 1, 8)
    b = ub[1024:]
    bursts(b, ub, 3, 2, 2, 1, 8)
    np.testing.assert_array_equal(r.outputs["y"], b[:512])


L0C_KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void l0c_ub(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::CO1> c1;
    TBuf<TPosition::CO2> c2;
    pipe.InitBuffer(c1, 1024 * sizeof(float));
    pipe.InitBuffer(c2, 1024 * sizeof(float));
    LocalTensor<float> l0c = c1.Get<float>();
    LocalTensor<float> ub = c2.Get<float>();
    DataCopyEnhancedParams e;
    e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy<float>(COPY_CALL, DataCopyParams(1, 1, 0, 0), e);
}
'''


@pytest.mark.parametrize("call, direction", [("ub, l0c", "from L0C (CO1) to UB"), ("l0c, ub", "from UB to L0C (CO1)")])
def test_l0c_ub_copies_stop_as_unsupported_on_a2(call, direction):
    src = L0C_KERNEL.replace("COPY_CALL", call)
    r = run(build({"l0c_ub.cpp": src}), [GM("x", np.zeros(8, np.float32)), GM("y", np.zeros(8, np.float32), "out")],
            block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "unsupported", "\n".join(d.render() for d in r.diagnostics)
    assert direction in errs[0].message and "310P" in errs[0].message and "A2" in errs[0].message
    assert f"DataCopy<float>({call}" in errs[0].source_line


def test_two_type_form_keeps_the_declared_pairs():
    "int32_t -> half from L0C is declared (and stops at run time); float -> int32_t is not an AscendC overload."
    ok = L0C_KERNEL.replace("LocalTensor<float> ub = c2.Get<float>()", "LocalTensor<half> ub = c2.Get<half>()").replace(
        "LocalTensor<float> l0c = c1.Get<float>()", "LocalTensor<int32_t> l0c = c1.Get<int32_t>()").replace(
        "DataCopy<float>(COPY_CALL", "DataCopy(ub, l0c")
    r = run(build({"pair_ok.cpp": ok}), [GM("x", np.zeros(8, np.float32)), GM("y", np.zeros(8, np.float32), "out")],
            block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "unsupported" and "from L0C (CO1) to UB" in errs[0].message
    bad = ok.replace("LocalTensor<half> ub = c2.Get<half>()", "LocalTensor<float> ub = c2.Get<float>()")
    b = build({"pair_bad.cpp": bad})
    assert not b.ok and any("no matching function for call to 'DataCopy" in d.message for d in b.errors), b.errors
