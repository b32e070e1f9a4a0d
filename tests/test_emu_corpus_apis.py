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
