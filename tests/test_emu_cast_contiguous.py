"""The emulator's typed loops for contiguous float casts and Axpy (counter mode) against its lane-by-lane path (level 0,
full mask) and NumPy's model of each conversion: bf16 <-> float, half <-> float to nearest-even, float y + x * k.
The inputs hold the values where a conversion can go wrong: ties, NaN, infinities, signed zeros, subnormals, the
largest finite values and what overflows them."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

GOOD = Path(__file__).parent / "emu_kernels" / "good"
N = 512


def bf16_bits_nearest(x: np.ndarray) -> np.ndarray:
    "float32 -> bfloat16 bits, round-to-nearest-even; a NaN stays a (quiet) NaN."
    u = x.view(np.uint32).astype(np.uint64)
    nearest = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(x)
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), nearest)


def specials() -> np.ndarray:
    rng = np.random.default_rng(11)
    tie_bf = np.array([0x3F808000, 0x3F818000, 0xBF808000, 0x3F80C000, 0x7F7FFFFF, 0x00000001, 0x80000001,
                       0x007FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000], np.uint32).view(np.float32)
    step = np.float32(2.0 ** -11)
    tie_h = np.array([1 + step, 1 + 3 * step, -(1 + step), 65504.0, 65519.0, 65520.0, -65520.0, 6e-8, 3e-8, -0.0, 2.0 ** -24,
                      2.0 ** -25], np.float32)
    x = np.concatenate([tie_bf, tie_h, (rng.standard_normal(N - 24) * 10.0 ** rng.integers(-6, 6, N - 24)).astype(np.float32)])
    return x[:N]


@pytest.fixture(scope="module")
def casts():
    xf = specials()
    rng = np.random.default_rng(12)
    xb = rng.integers(0, 1 << 16, N, dtype=np.uint16)
    xb[:4] = [0x7F80, 0xFF80, 0x7FC1, 0x8000]                # inf, -inf, a NaN, -0
    xh = rng.standard_normal(N).astype(np.float16)
    xh[:4] = [np.inf, -np.inf, np.nan, -0.0]
    yf = rng.standard_normal(N).astype(np.float32)
    outs = [GM("fb", np.empty(2 * N, np.uint16), "out"), GM("bf", np.empty(2 * N, np.float32), "out"),
            GM("hf", np.empty(2 * N, np.float32), "out"), GM("fh", np.empty(2 * N, np.float16), "out"),
            GM("ax", np.empty(2 * N, np.float32), "out")]
    r = run(build(GOOD / "api_cast_contiguous.cpp"), [GM("xf", xf), GM("xb", xb), GM("xh", xh), GM("yf", yf), *outs],
            block_dim=1)
    assert r.ok, r.diagnostics
    return xf, xb, xh, yf, r.outputs


def halves(out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return out[:N], out[N:]


def test_float_to_bfloat16(casts):
    xf, _, _, _, out = casts
    counter, level0 = halves(out["fb"])
    np.testing.assert_array_equal(counter, level0)
    np.testing.assert_array_equal(counter, bf16_bits_nearest(xf))


def test_bfloat16_and_half_to_float(casts):
    _, xb, xh, _, out = casts
    bits = xb.astype(np.uint32) << 16
    signalling = ((bits & 0x7F800000) == 0x7F800000) & ((bits & 0x007FFFFF) != 0)
    quieted = np.where(signalling, bits | 0x00400000, bits)          # a NaN comes out quiet, its payload kept
    assert signalling.sum() > 0
    for got, want in ((out["bf"], quieted.view(np.float32)), (out["hf"], xh.astype(np.float32))):
        counter, level0 = halves(got)
        np.testing.assert_array_equal(counter.view(np.uint32), level0.view(np.uint32))
        np.testing.assert_array_equal(counter.view(np.uint32), want.view(np.uint32))


def test_float_to_half(casts):
    xf, _, _, _, out = casts
    counter, level0 = halves(out["fh"])
    np.testing.assert_array_equal(counter.view(np.uint16), level0.view(np.uint16))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(counter, xf.astype(np.float16))


def test_axpy_float(casts):
    xf, _, _, yf, out = casts
    counter, level0 = halves(out["ax"])
    np.testing.assert_array_equal(counter.view(np.uint32), level0.view(np.uint32))
    with np.errstate(over="ignore", invalid="ignore"):
        want = yf + xf * np.float32(0.37)
    np.testing.assert_array_equal(counter, want)
