"""Floor's count form without a sharedTmpBuffer when the kernel's InitBuffers take the whole UB. On A2 a float Floor is
one Cast with CAST_FLOOR (the devkit's float overload pops no stack buffer), so it runs and rounds toward -inf; a half
Floor casts to float temporaries it pops from the free UB, so with none left it is still `adv-tmp-space`, and so is
Ceil, whose float form pops its temporaries too (ops-math experimental floor's kernel calls Floor so, on float only)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
using T = CTYPE;
constexpr uint32_t N = 200;                      // not a whole repeat: the count form's tail
extern "C" __global__ __aicore__ void round_down(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> rest;
    pipe.InitBuffer(inQ, 1, 1024);
    pipe.InitBuffer(outQ, 1, 1024);
    pipe.InitBuffer(rest, 192 * 1024 - 2048);    // every byte of UB taken, as the floor op's tiling takes it
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, N);
    yg.SetGlobalBuffer((__gm__ T *)y, N);
    LocalTensor<T> a = inQ.AllocTensor<T>();
    DataCopy(a, xg, N);
    inQ.EnQue(a);
    a = inQ.DeQue<T>();
    LocalTensor<T> b = outQ.AllocTensor<T>();
    API(b, a, N);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<T>();
    DataCopy(yg, b, N);
    outQ.FreeTensor(b);
}
'''
N = 200


def _run(tmp_path, ctype, dtype, api):
    src = tmp_path / "round_down.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("API", api))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(7).uniform(-50, 50, N).astype(dtype)
    x[:4] = [-2.0, -1.5, 2.0, 0.75]              # integral, and halves on both sides of zero
    return x, run(b, [GM("x", x), GM("y", np.zeros(N, dtype), "out")], block_dim=1)


def test_float_floor_needs_no_free_ub(tmp_path):
    x, r = _run(tmp_path, "float", np.float32, "Floor")
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.floor(x))
    assert list(r.outputs["y"][:4]) == [-2.0, -2.0, 2.0, 0.0]


@pytest.mark.parametrize("ctype, dtype, api", [("half", np.float16, "Floor"), ("float", np.float32, "Ceil")])
def test_forms_that_pop_temporaries_still_need_free_ub(tmp_path, ctype, dtype, api):
    _, r = _run(tmp_path, ctype, dtype, api)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.severity == "error")
    assert d.kind == "adv-tmp-space" and api in d.message, d.render()
