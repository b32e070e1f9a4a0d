"""SetAtomicMax / SetAtomicMin / SetAtomicType: while the mode is on, a copy to GM keeps, element by element, the larger
(smaller) of GM's value and the copied one, compared in the atomic type; DisableDmaAtomic / SetAtomicNone end it
(public kernels: cann-ops scatter_max, max_pool3_d_with_argmax_v2). Checked against NumPy for the A2 types
(int8_t, int16_t, half, bfloat16_t, int32_t, float), with several blocks combining into one region, and the run-time
stop on a type A2's atomic unit does not have."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;
using T = CTYPE;
constexpr int32_t N = 128;
extern "C" __global__ __aicore__ void amax(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(T));
    GlobalTensor<T> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * N, N);
    yg.SetGlobalBuffer((__gm__ T *)y, N);
    zg.SetGlobalBuffer((__gm__ T *)z + GetBlockIdx() * N, N);
    LocalTensor<T> a = q.AllocTensor<T>();
    DataCopy(a, xg, N);
    q.EnQue(a);
    a = q.DeQue<T>();
    SETUP
    DataCopy(yg, a, N);            // every block into the same N elements of y
    DisableDmaAtomic();
    DataCopy(zg, a, N);            // a plain copy again: this block's own row of z
    q.FreeTensor(a);
}
'''
N, BLOCKS = 128, 3
TYPES = {"float": np.float32, "half": np.float16, "int32_t": np.int32, "int16_t": np.int16, "int8_t": np.int8}


def _build(tmp_path, ctype, setup):
    src = tmp_path / "amax.cpp"
    src.write_text(KERNEL.replace("CTYPE", ctype).replace("SETUP", setup))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _data(dtype, rng, shape):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _run(b, x, y0, blocks):
    r = run(b, [GM("x", x), GM("y", y0, "inout"), GM("z", np.zeros_like(x), "out")], block_dim=blocks)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["z"][:blocks], x[:blocks])    # after DisableDmaAtomic a copy overwrites
    return r.outputs["y"]


@pytest.mark.parametrize("mode", ["SetAtomicMax", "SetAtomicMin"])
@pytest.mark.parametrize("ctype", list(TYPES))
def test_atomic_max_min_against_numpy(tmp_path, mode, ctype):
    dtype = TYPES[ctype]
    rng = np.random.default_rng(len(ctype) + len(mode))
    x = _data(dtype, rng, (BLOCKS, N))
    y0 = _data(dtype, rng, N)             # what GM holds before: the atomic mode compares with it too
    y0[:4] = x[0, :4]                     # equal values stay
    pick = np.maximum if mode == "SetAtomicMax" else np.minimum
    y = _run(_build(tmp_path, ctype, f"{mode}<T>();"), x, y0, BLOCKS)
    np.testing.assert_array_equal(y, pick(pick(pick(y0, x[0]), x[1]), x[2]))


def test_atomic_max_bfloat16_compares_values_not_bits(tmp_path):
    rng = np.random.default_rng(5)
    f = rng.standard_normal((BLOCKS + 1, N)).astype(np.float32)
    bits = (f.view(np.uint32) >> 16).astype(np.uint16)       # bf16 by truncation: exact values to compare
    x, y0 = bits[:BLOCKS], bits[BLOCKS]
    value = lambda b: (b.astype(np.uint32) << 16).view(np.float32)
    y = _run(_build(tmp_path, "bfloat16_t", "SetAtomicMax<T>();"), x, y0, BLOCKS)
    np.testing.assert_array_equal(value(y), np.max(value(np.vstack([x, y0[None]])), axis=0))


def test_atomic_type_sets_the_comparison_type(tmp_path):
    # SetAtomicMax<int32_t> then SetAtomicType<int16_t>: the 4-byte elements combine as pairs of int16_t
    rng = np.random.default_rng(9)
    x = rng.integers(-2**31, 2**31 - 1, (BLOCKS, N), dtype=np.int64).astype(np.int32)
    y0 = rng.integers(-2**31, 2**31 - 1, N, dtype=np.int64).astype(np.int32)
    y = _run(_build(tmp_path, "int32_t", "SetAtomicMax<T>(); SetAtomicType<int16_t>();"), x, y0, BLOCKS)
    halves = np.max(np.vstack([x, y0[None]]).view(np.int16), axis=0)
    np.testing.assert_array_equal(y.view(np.int16), halves)


def test_atomic_max_on_a_type_without_atomics_stops(tmp_path):
    r = run(_build(tmp_path, "uint32_t", "SetAtomicMax<T>();"),
            [GM("x", np.ones((1, N), np.uint32)), GM("y", np.zeros(N, np.uint32), "inout"),
             GM("z", np.zeros((1, N), np.uint32), "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "unsupported" and "SetAtomicMax" in d.render() and "int8_t, int16_t, half" in d.render(), d.render()


def test_atomic_add_of_any_type_compiles_and_stops_only_when_it_runs(tmp_path):
    # as with the official headers, whose type check is a run-time assert: hicann ops-nn scatter_add_with_sorted
    # instantiates SetAtomicAdd<uint8_t> in a branch its float columns never take
    setup = "if (yg.GetValue(0) == T(7)) { SetAtomicAdd<T>(); }"
    b = _build(tmp_path, "uint8_t", setup)
    x = np.arange(N, dtype=np.uint8).reshape(1, N)
    r = run(b, [GM("x", x), GM("y", np.zeros(N, np.uint8), "inout"), GM("z", np.zeros((1, N), np.uint8), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)          # the branch not taken: a plain copy
    np.testing.assert_array_equal(r.outputs["y"], x[0])
    r = run(b, [GM("x", x), GM("y", np.full(N, 7, np.uint8), "inout"), GM("z", np.zeros((1, N), np.uint8), "out")], block_dim=1)
    assert not r.ok and r.diagnostics[0].kind == "unsupported" and "SetAtomicAdd" in r.diagnostics[0].render()
