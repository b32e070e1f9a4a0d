"""APIs that public Matmul-API kernels need around their matmuls (the cann-ops upsample family builds source
coordinates with ArithProgression before it hands them to the cube), each checked against NumPy and as a priced
instruction in the trace."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, op_names, run, trace

GOOD = Path(__file__).parent / "emu_kernels" / "good"


@pytest.fixture(scope="module")
def arith():
    b = build(GOOD / "arith_progression.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _args(first, diff, n):
    outs = [GM(name, np.full(1024, -7, dt), "out") for name, dt in (("of", np.float32), ("oh", np.float16), ("oi", np.int32))]
    return outs + [Scalar(first, "float"), Scalar(diff, "float"), Scalar(n, "int32_t")]


@pytest.mark.parametrize("first,diff,n", [(0.5, 1.0, 1024), (-3.25, 0.75, 200), (7.0, 0.0, 33)])
def test_arith_progression_values(arith, first, diff, n):
    r = run(arith, _args(first, diff, n), block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    i = np.arange(n)
    want = np.float32(first) + i.astype(np.float32) * np.float32(diff)
    np.testing.assert_allclose(r.outputs["of"][:n], want, rtol=1e-6, atol=1e-6)
    # half: exact where first + i * diff is a half-representable small value; rounded like half arithmetic elsewhere
    np.testing.assert_allclose(r.outputs["oh"][:n].astype(np.float32), want, rtol=2e-3, atol=2e-3 * max(1, abs(first)))
    np.testing.assert_array_equal(r.outputs["oi"][:n], -5 + 3 * i)


def test_arith_progression_is_vector_work_in_the_trace(arith):
    t = trace(arith, _args(0.0, 2.0, 512), block_dim=1)
    names = op_names()
    used = {names[o] for o in np.unique(t.records["op"])}
    assert {"CreateVecIndex", "Muls", "Adds"} <= used


MATMUL_LOCAL_WORKSPACE = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
static_assert(AscendC::TOTAL_UB_SIZE == 192 * 1024, "910B UB");
extern "C" __global__ __aicore__ void ws_kernel(GM_ADDR out)
{
    TPipe pipe;
    TBuf<> tmpMMFormatUb;                              // as the Matmul samples reserve the API's local workspace
    pipe.InitBuffer(tmpMMFormatUb, AscendC::TOTAL_VEC_LOCAL_SIZE);
    LocalTensor<uint8_t> ws = tmpMMFormatUb.Get<uint8_t>(AscendC::TOTAL_VEC_LOCAL_SIZE);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, static_cast<int32_t>(ws.GetSize()));
}
'''


def test_total_vec_local_size_is_the_910b_value_and_fits_the_ub():
    # TOTAL_VEC_LOCAL_SIZE (184 KB on the 910B) is what a Matmul sample gives the API as its local workspace
    b = build({"ws.cpp": MATMUL_LOCAL_WORKSPACE}, "ws_kernel")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("out", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert r.outputs["out"][0] == 184 * 1024


# ---- SetDeqScale: the factor of Cast int32_t -> half (the norm kernels' float -> int8 rounding goes through it) -------
DEQ = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void deq(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(int32_t) + 128 * sizeof(half));
    GlobalTensor<int32_t> xg;
    GlobalTensor<half> yg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 128);
    yg.SetGlobalBuffer((__gm__ half *)y, 128);
    LocalTensor<int32_t> a = buf.Get<int32_t>();
    LocalTensor<half> h = buf.Get<half>()[256];
    DataCopy(a, xg, 128);
    PipeBarrier<PIPE_ALL>();
    SET_SCALE
    Cast(h, a, RoundMode::CAST_TRUNC, 128);      // the round mode does not apply: times the factor, to nearest
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, h, 128);
}
'''


def test_set_deq_scale_scales_cast_int32_to_half_and_is_required():
    x = np.random.default_rng(6).integers(-3000, 3000, 128).astype(np.int32)
    args = lambda: [GM("x", x), GM("y", np.zeros(128, np.float16), "out")]
    r = run(build({"deq.cpp": DEQ.replace("SET_SCALE", "SetDeqScale((half)0.25f);")}), args(), block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], (x.astype(np.float64) * 0.25).astype(np.float16))
    # without SetDeqScale the factor is whatever the register holds: stopped at the Cast
    bad = run(build({"deq.cpp": DEQ.replace("SET_SCALE", "")}), args(), block_dim=1)
    assert not bad.ok and bad.errors[0].kind == "unsupported" and "SetDeqScale" in bad.errors[0].message
    assert "Cast(h, a" in bad.errors[0].source_line


# ---- RepeatReduceSum (the norm kernels' older WholeReduceSum spelling) and the device compiler's scalar min/max ------
REPEAT_SUM = r'''#include "kernel_operator.h"
using namespace AscendC;
namespace lib {   // a library's own two-parameter min (catlass's tla::min): it wins where both are visible
template <class T, class U> constexpr auto min(T const& t, U const& u) { return t < u ? t : u; }
inline uint32_t Smaller(const uint32_t& a, const uint32_t& b) { return min(a, b); }
}
extern "C" __global__ __aicore__ void repeat_sum(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 128 * sizeof(float) + 32);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 128);
    yg.SetGlobalBuffer((__gm__ float *)y, 8);
    LocalTensor<float> a = buf.Get<float>(), s = a[128];
    DataCopy(a, xg, 128);
    Duplicate(s, -1.0f, 8);
    PipeBarrier<PIPE_ALL>();
    const uint32_t lanes = min(40u, lib::Smaller(rows * 64, 1000));   // unqualified: the device's builtin
    RepeatReduceSum<float, true>(s, a, max(1, (int32_t)rows), lanes, 0, 1, 1, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, s, 8);
}
'''


def test_repeat_reduce_sum_sums_the_masked_lanes_of_each_repeat_and_min_max_are_builtins():
    x = np.random.default_rng(7).uniform(-1, 1, 128).astype(np.float32)
    r = run(build({"repeat_sum.cpp": REPEAT_SUM}), [GM("x", x), GM("y", np.zeros(8, np.float32), "out"), Scalar(2, "uint32_t")],
            block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    np.testing.assert_allclose(y[:2], [x[:40].sum(), x[64:104].sum()], rtol=1e-5)
    np.testing.assert_array_equal(y[2:], -1.0)


# ---- the device's built-in block_idx / block_num and AscendC's block-size constants -------------------------------------
BUILTINS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void builtins(GM_ADDR y)
{
    GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 64);
    const int64_t at = block_idx * ONE_BLK_FLOAT_NUM;           // the built-in variable and the constant (8)
    yg.SetValue(at, block_num * 100 + ONE_BLK_HALF_NUM);          // 16
    int32_t block_idx = 7;                                         // a kernel's own variable hides the built-in
    yg.SetValue(at + 1, block_idx + ONE_REPEAT_FLOAT_SIZE + ONE_REPEAT_HALF_SIZE);
    yg.SetValue(at + 2, AlignUp(100, 32) * 10 + DivCeil(100, 32));   // AscendC's helpers, unqualified
}
'''


def test_block_idx_block_num_builtins_and_block_size_constants():
    r = run(build({"builtins.cpp": BUILTINS}), [GM("y", np.zeros(64, np.int32), "out")], block_dim=3)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"].reshape(8, 8)
    np.testing.assert_array_equal(y[:3, 0], [316, 316, 316])
    np.testing.assert_array_equal(y[:3, 1], [7 + 64 + 128] * 3)
    np.testing.assert_array_equal(y[:3, 2], [1284] * 3)
