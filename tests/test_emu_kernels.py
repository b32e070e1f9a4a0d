"""Kernels written in the style of the official AscendC samples compile unmodified against the
emulation headers and match NumPy. The good kernels live in tests/emu_kernels/good/; each case
here builds one, runs it and checks every output against a NumPy reference computed independently.
The same cases run again under ASan + UBSan in test_emu_rules.py."""
import math
import struct

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, Tiling, Workspace, build, run

KERNELS = __import__("pathlib").Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(20240611)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    "float32 -> bfloat16 bit patterns, round to nearest even (independent of the emulator)."
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def case_add_custom():
    x, y = (RNG.standard_normal(8 * 2048).astype(np.float16) for _ in range(2))
    args = [GM("x", x), GM("y", y), GM("z", np.empty_like(x), "out")]
    want = {"z": (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)}  # one rounding to half per Add
    return "add_custom.cpp", args, dict(block_dim=8), want, 0


def case_softmax_rows():
    x = (RNG.standard_normal((16, 256)) * 3).astype(np.float32)
    e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
    want = {"y": (e / e.sum(1, keepdims=True)).astype(np.float32)}
    return "softmax_rows.cpp", [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(16, "uint32_t")], dict(block_dim=4), want, 1e-6


def case_sum_syncall():
    x = RNG.standard_normal(4 * 256).astype(np.float32)
    args = [GM("x", x), GM("y", np.empty(8, np.float32), "out"), Workspace(4 * 32), Scalar(x.size, "uint32_t")]
    want = {"y": np.array([x.astype(np.float64).sum()] + [0] * 7, np.float32)}
    return "sum_syncall.cpp", args, dict(block_dim=4), want, 1e-5


def case_pad_rows():
    x = RNG.standard_normal((6, 13)).astype(np.float32)
    return "pad_rows.cpp", [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(6, "uint32_t")], dict(block_dim=1), {"y": x * np.float32(3)}, 0


def case_square_fp16():
    x = RNG.standard_normal(2 * 4 * 512).astype(np.float16)
    want = {"y": (x.astype(np.float32) * x.astype(np.float32) + np.float32(1)).astype(np.float16)}
    return "square_fp16.cpp", [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(x.size, "uint32_t")], dict(block_dim=2), want, 0


def case_bf16_strided():
    xb = bf16_bits(RNG.standard_normal((8, 64)).astype(np.float32))
    want = {"y": bf16_bits(bf16_value(xb[::2]) * np.float32(2))}
    return "bf16_strided.cpp", [GM("x", xb), GM("y", np.empty((4, 64), np.uint16), "out")], dict(block_dim=1), want, 0


def case_level0_select():
    x, y = (RNG.standard_normal(512).astype(np.float32) for _ in range(2))
    z = np.zeros(512, np.float32)
    lanes = (np.arange(512) % 64) < 32                 # mask = 32 of 64 lanes in each of 8 repeats
    z[lanes] = (x + y)[lanes]
    sel = np.where(z > 0, z, np.float32(-1)).astype(np.float32)
    args = [GM("x", x), GM("y", y), GM("sel", np.empty(512, np.float32), "out"), GM("sums", np.empty(8, np.float32), "out")]
    return "level0_select.cpp", args, dict(block_dim=1), {"sel": sel, "sums": sel.reshape(8, 64).sum(1, dtype=np.float64)}, 1e-5


def case_msopgen_host_tiling():
    x, y = (RNG.standard_normal(8 * 512).astype(np.float32) for _ in range(2))
    args = [GM("x", x), GM("y", y), GM("z", np.empty_like(x), "out"), Workspace(), Tiling()]
    return "msopgen_add", args, dict(host_args=[x.size]), {"z": x + y}, 0


def case_msopgen_tiling_bytes():
    x, y = (RNG.standard_normal(4 * 256).astype(np.float32) for _ in range(2))
    args = [GM("x", x), GM("y", y), GM("z", np.empty_like(x), "out"), Workspace(0), Tiling(struct.pack("<II", x.size, 2))]
    return "msopgen_add", args, dict(block_dim=4), {"z": x + y}, 0


def case_axpy_tiling_gm():
    x, y = (RNG.standard_normal(2048).astype(np.float32) for _ in range(2))
    args = [GM("x", x), GM("y", y, "inout"), Tiling(struct.pack("<IIf", x.size, 256, 0.75))]
    return "axpy_tiling_gm.cpp", args, dict(block_dim=2), {"y": y + np.float32(0.75) * x}, 1e-6


def case_leaky_relu_scalars():
    x = RNG.standard_normal(4096).astype(np.float32)
    args = [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(x.size, "uint32_t"), Scalar(0.2, "float"), Scalar(512, "int32_t")]
    return "leaky_relu_scalars.cpp", args, dict(block_dim=4), {"y": np.where(x >= 0, x, x * np.float32(0.2))}, 0


def case_gather_activations():
    x = RNG.standard_normal(256).astype(np.float32)
    r = x[::-1].astype(np.float64)
    erf = np.array([math.erf(v) for v in r])
    want = {"y": np.concatenate([r, np.tanh(r), 1 / (1 + np.exp(-r)), erf]).astype(np.float32)}
    return "gather_activations.cpp", [GM("x", x), GM("y", np.empty(1024, np.float32), "out")], dict(block_dim=1), want, 1e-6


CASES = [case_add_custom, case_softmax_rows, case_sum_syncall, case_pad_rows, case_square_fp16, case_bf16_strided,
         case_level0_select, case_msopgen_host_tiling, case_msopgen_tiling_bytes, case_axpy_tiling_gm,
         case_leaky_relu_scalars, case_gather_activations]


def check_outputs(result, want: dict, rtol: float):
    assert result.ok, "\n\n".join(map(str, result.diagnostics))
    for name, expected in want.items():
        got = result.outputs[name]
        assert got.shape == np.asarray(expected).shape, name
        if rtol == 0:
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            np.testing.assert_allclose(got.astype(np.float64), np.asarray(expected, np.float64), rtol=rtol, atol=rtol, err_msg=name)


@pytest.mark.parametrize("case", CASES, ids=[c.__name__[5:] for c in CASES])
def test_good_kernel(case):
    source, args, launch, want, rtol = case()
    b = build(KERNELS / source)
    assert b.ok, "\n\n".join(map(str, b.diagnostics))
    assert not b.diagnostics, "a kernel in the samples' style compiles without warnings"
    check_outputs(run(b, args, **launch), want, rtol)


def test_inputs_are_untouched_and_unwritten_outputs_keep_the_poison():
    # add_custom with block_dim=4 computes only the first half of z: the rest must still be poison.
    x, y = (RNG.standard_normal(8 * 2048).astype(np.float16) for _ in range(2))
    x0, y0 = x.copy(), y.copy()
    r = run(build(KERNELS / "add_custom.cpp"), [GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out")], block_dim=4, poison=0x5A)
    assert r.ok
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(y, y0)
    tail = r.outputs["z"][4 * 2048:].view(np.uint8)
    assert (tail == 0x5A).all()
    np.testing.assert_array_equal(r.outputs["z"][:4 * 2048], (x[:8192].astype(np.float32) + y[:8192].astype(np.float32)).astype(np.float16))
    assert r.ub_bytes_used == [3 * 2 * 256] * 4 and r.block_dim == 4


def test_host_tiling_chooses_block_dim_and_workspace():
    source, args, launch, want, _ = case_msopgen_host_tiling()
    r = run(build(KERNELS / source), args, **launch)
    assert r.ok and r.block_dim == 8
    assert r.outputs["workspace"].shape == (1024,)                     # the size the host function asked for
    assert (r.outputs["workspace"] == 0xA5).all()                      # poisoned, never zeroed
