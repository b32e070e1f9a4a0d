"""The thirty-eighth round's community op projects (community.py) run whole on the emulator, their TilingFunc and then
their kernel, against NumPy references of the ops' documented meaning (re-expressed here in float64, not copied).

The check is the HPC101 checker's rule (checker/test_op.py of llrnb666-arch/HPC101-AscendC-FusedRMSNorm, restated): an
element passes when its absolute error or its error relative to the reference is within 1e-3 (half) / 1e-4 (float),
and the output matches only when every element passes. Boolean and integer outputs must be equal.

    python examples/corpus/community_by_hand.py [--only NAME] [--keep DIR] [--git OWNER/NAME=DIR]
"""
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from hicann_by_hand import project, run_ops_main, run_or_error  # noqa: E402

HW = "KiaraStark/ascendc-homework"
S3 = "Ascend_S3-main"
TOL = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-4}


def close(got: np.ndarray, want: np.ndarray) -> tuple[bool, str]:
    "Whether `got` passes against the float64 reference `want` (the rule above), and a few words on the worst element."
    if got.shape != want.shape and got.size == want.size: got = got.reshape(want.shape)
    if got.shape != want.shape: return False, f"shape {got.shape}, want {want.shape}"
    if got.dtype.kind in "biu" or want.dtype == np.bool_:
        bad = int((got.astype(np.int64) != want.astype(np.int64)).sum())
        return bad == 0, f"{bad} of {got.size} differ"
    tol = TOL[got.dtype]
    g, w = got.astype(np.float64), want.astype(np.float64)
    err = np.abs(g - w)
    ok = (err <= tol) | (err <= tol * np.maximum(np.abs(w), 1e-12))
    ok &= np.isfinite(g) | ~np.isfinite(w)
    worst = int(np.argmax(np.where(ok, 0, err) if not ok.all() else err))
    return bool(ok.all()), f"{int((~ok).sum())} of {got.size} outside, max abs error {float(err.max()):.3g} " \
                           f"(at {np.unravel_index(worst, w.shape)}: got {g.flat[worst]:.6g}, want {w.flat[worst]:.6g})"


def uniform(rng, shape, lo, hi, dtype):
    return rng.uniform(lo, hi, shape).astype(dtype)


def fused_add_rms_norm(rng, b, h, dtype=np.float16):
    x, r = uniform(rng, (b, h), -1, 1, dtype), uniform(rng, (b, h), -1, 1, dtype)
    w = np.maximum(uniform(rng, (h,), 0, 2, np.float32), 0.01).astype(dtype)
    s = x.astype(np.float64) + r.astype(np.float64)
    y = s / np.sqrt(np.mean(s * s, axis=-1, keepdims=True) + 1e-6) * w.astype(np.float64)
    return {"x": x, "residual": r, "weight": w}, {"eps": 1e-6}, {"y": y, "residual_out": s}


def log_sum_exp(rng, shape, dim, keep, dtype):
    x = uniform(rng, shape, -3, 3, dtype)
    y = np.log(np.sum(np.exp(x.astype(np.float64)), axis=tuple(dim), keepdims=keep))
    return {"x": x}, {"dim": list(dim), "keep_dim": keep}, {"y": y}


def softmax(rng, shape, dim, dtype):
    x = uniform(rng, shape, -4, 4, dtype).astype(np.float64)
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return {"x": x.astype(dtype)}, {"dim": dim}, {"y": e / e.sum(axis=dim, keepdims=True)}


def div(rng, shape, dtype):
    a, b = uniform(rng, shape, -4, 4, dtype), uniform(rng, shape, 0.5, 4, dtype) * rng.choice([-1, 1], shape).astype(dtype)
    return {"x1": a, "x2": b}, {}, {"y": a.astype(np.float64) / b.astype(np.float64)}


def asinh(rng, shape, dtype):
    x = uniform(rng, shape, -5, 5, dtype)
    return {"x": x}, {}, {"y": np.arcsinh(x.astype(np.float64))}


def asinh_grad(rng, shape, dtype):
    y, dy = uniform(rng, shape, -3, 3, dtype), uniform(rng, shape, -2, 2, dtype)
    return {"y": y, "dy": dy}, {}, {"z": dy.astype(np.float64) / np.cosh(y.astype(np.float64))}


def is_close(rng, shape, dtype):
    a = uniform(rng, shape, -2, 2, dtype)
    pick = rng.integers(0, 3, shape)   # equal, within the tolerance, far off
    b = np.where(pick == 0, a, np.where(pick == 1, a * (1 + 2e-6), a + 0.5)).astype(dtype)
    want = np.abs(a.astype(np.float64) - b) <= 1e-8 + 1e-5 * np.abs(b.astype(np.float64))
    return {"x1": a, "x2": b}, {"rtol": 1e-5, "atol": 1e-8, "equal_nan": False}, {"y": want}


def replication_pad2d(rng, shape, pads, dtype):
    x = uniform(rng, shape, -3, 3, dtype)
    left, right, top, bottom = pads
    y = np.pad(x.astype(np.float64), [(0, 0)] * (x.ndim - 2) + [(top, bottom), (left, right)], mode="edge")
    return {"x": x, "paddings": np.array(pads, np.int32)}, {}, {"y": y}


def layer_norm(rng, rows, cols):
    x = uniform(rng, (rows, cols), -2, 2, np.float32)
    g, b = uniform(rng, (cols,), 0.5, 1.5, np.float32), uniform(rng, (cols,), -0.5, 0.5, np.float32)
    xd = x.astype(np.float64)
    mean, var = xd.mean(-1, keepdims=True), xd.var(-1, keepdims=True)
    return {"x": x, "gamma": g, "beta": b}, {"epsilon": 1e-5}, {"res_out": (xd - mean) / np.sqrt(var + 1e-5) * g + b}


def nll_loss(rng, n, c):
    x = uniform(rng, (n, c), -3, 0, np.float32)
    t = rng.integers(0, c, n).astype(np.int32)
    w = uniform(rng, (c,), 0.5, 2, np.float32)
    picked = w[t].astype(np.float64)
    y = -np.sum(x[np.arange(n), t] * picked) / np.sum(picked)
    return {"x": x, "target": t, "weight": w}, {"reduction": "mean", "ignore_index": -100}, {"y": np.array(y)}


def pdist(rng, n, m, p, dtype):
    x = uniform(rng, (n, m), -2, 2, dtype).astype(np.float64)
    i, j = np.triu_indices(n, 1)
    d = np.abs(x[i] - x[j])
    y = d.max(-1) if math.isinf(p) else np.sum(d ** p, -1) ** (1 / p)
    return {"x": x.astype(dtype)}, {"p": p}, {"y": y}


def gcd(rng, shape, dtype):
    a = rng.integers(-1000, 1000, shape).astype(dtype)
    b = rng.integers(-1000, 1000, shape).astype(dtype)
    return {"x1": a, "x2": b}, {}, {"y": np.gcd(a.astype(np.int64), b.astype(np.int64))}


def matmul_bias(rng, m, k, n, alpha=None):
    "c = a @ b + bias (a, b half; bias, c float); with alpha, LeakyReLU of it (the samples' MatmulLeakyRelu)."
    a, b = uniform(rng, (m, k), -1, 1, np.float16), uniform(rng, (k, n), -1, 1, np.float16)
    bias = uniform(rng, (n,), -1, 1, np.float32)
    c = a.astype(np.float64) @ b.astype(np.float64) + bias
    if alpha is not None: c = np.where(c >= 0, c, c * alpha)
    return {"a": a, "b": b, "bias": bias}, {}, {"c": c}


CHIPARON = "chiparon/ascendC"


# name -> (repository, op folder, [(case label, inputs builder)])
OPS = {
    "FusedAddRmsNorm": ("llrnb666-arch/HPC101-AscendC-FusedRMSNorm", "src/ascendc", [
        ("32 x 4096", lambda r: fused_add_rms_norm(r, 32, 4096)),
        ("7 x 3037 (unaligned)", lambda r: fused_add_rms_norm(r, 7, 3037))]),
    "LogSumExp (homework 3)": (HW, "3_LogSumExp/LogSumExp", [
        ("float [4, 37, 50] dim 1", lambda r: log_sum_exp(r, (4, 37, 50), (1,), False, np.float32)),
        ("half [6, 64] dim -1 keep", lambda r: log_sum_exp(r, (6, 64), (-1,), True, np.float16))]),
    "LogSumExp (S3)": (HW, f"{S3}/09LogSumExp", [
        ("float [4, 37, 50] dim 1", lambda r: log_sum_exp(r, (4, 37, 50), (1,), False, np.float32))]),
    "Softmax (S3)": (HW, f"{S3}/01Softmax", [
        # rows of whole 32-byte blocks: its DataCopy of a row is not padded (a row of 100 floats is cut to 96 on the
        # NPU, and here, with the copy-misaligned warning), and its tiling takes the dim as the last one
        ("float [8, 128] dim -1", lambda r: softmax(r, (8, 128), -1, np.float32)),
        ("half [3, 17, 64] dim -1", lambda r: softmax(r, (3, 17, 64), -1, np.float16))]),
    "Div (S3)": (HW, f"{S3}/02Div", [
        ("float [5, 333]", lambda r: div(r, (5, 333), np.float32)),
        ("half [1000]", lambda r: div(r, (1000,), np.float16))]),
    "Asinh (S3)": (HW, f"{S3}/04Asinh", [
        ("float [4, 515]", lambda r: asinh(r, (4, 515), np.float32)),
        ("half [2048]", lambda r: asinh(r, (2048,), np.float16))]),
    "AsinhGrad (S3)": (HW, f"{S3}/05AsinhGrad", [
        ("float [3, 700]", lambda r: asinh_grad(r, (3, 700), np.float32)),
        ("half [999]", lambda r: asinh_grad(r, (999,), np.float16))]),
    "IsClose (S3)": (HW, f"{S3}/08IsClose", [
        ("float [6, 250]", lambda r: is_close(r, (6, 250), np.float32))]),
    "ReplicationPad2d (S3)": (HW, f"{S3}/10ReplicationPad2d", [
        ("float [2, 3, 10, 12] pads (2, 3, 1, 4)", lambda r: replication_pad2d(r, (2, 3, 10, 12), (2, 3, 1, 4), np.float32)),
        ("half [1, 4, 7, 9] pads (1, 1, 2, 2)", lambda r: replication_pad2d(r, (1, 4, 7, 9), (1, 1, 2, 2), np.float16))]),
    "LayerNormCustom": (HW, "LayerNormCustomSample/FrameworkLaunch/LayerNormCustom", [
        ("float [16, 256]", lambda r: layer_norm(r, 16, 256))]),
    "NLLLoss (S3 perf)": (HW, "ascendc-competition-s3-master/perf/nll_loss/nll_loss", [
        ("float [64, 40] mean", lambda r: nll_loss(r, 64, 40))]),
    "Pdist (sunkafei)": ("sunkafei/ascend-operator-challenge2", "Pdist", [
        ("float [20, 33] p 2", lambda r: pdist(r, 20, 33, 2.0, np.float32)),
        ("half [9, 64] p 1", lambda r: pdist(r, 9, 64, 1.0, np.float16))]),
    "MatmulCustomMultiCore (chiparon baseline)": (CHIPARON, "baseline/10_matmul_frameworklaunch/MatmulCustomMultiCore", [
        ("256 x 128 x 320", lambda r: matmul_bias(r, 256, 128, 320))]),
    "MatmulCustomMultiCore (chiparon optimi-v1)": (CHIPARON, "optimi-v1/10_matmul_frameworklaunch/MatmulCustomMultiCore", [
        ("256 x 128 x 320", lambda r: matmul_bias(r, 256, 128, 320))]),
    "MatmulLeakyReluCustom (chiparon baseline)": (CHIPARON, "baseline/12_matmulleakyrelu_frameworklaunch/MatmulLeakyReluCustom", [
        ("256 x 128 x 320", lambda r: matmul_bias(r, 256, 128, 320, alpha=0.001))]),
    "MatmulLeakyReluCustom (chiparon optimi-v1)": (CHIPARON, "optimi-v1/12_matmulleakyrelu_frameworklaunch/MatmulLeakyReluCustom", [
        ("256 x 128 x 320", lambda r: matmul_bias(r, 256, 128, 320, alpha=0.001))]),
    "Gcd (sunkafei)": ("sunkafei/ascend-operator-challenge-final", "Gcd", [
        # 1536 elements: 48 cores x 32; a size that leaves a core with nothing (1200: cores 38-47) makes its
        # GCDKernalFast loop run from 0 to R - L underflowed, writing past y, on the NPU as here (gm-out-of-bounds)
        ("int32 [4, 384]", lambda r: gcd(r, (4, 384), np.int32))]),
}


OUT_DTYPE = {n: "float32" for n in OPS if n.startswith("Matmul")}   # half a and b, float c


def bool_or(reference: np.ndarray, dtype: str) -> str:
    "An output's dtype: bool for a bool reference, else the op's `dtype`."
    return "bool" if reference.dtype == np.bool_ else dtype


def run_cases(g_, name: str, ops: dict, *, seed: int, out_dtype: dict[str, str], check, unchecked=(),
              written_inputs=(), output_dtype=bool_or):
    """Each case of `ops[name]` (label, make(rng) -> inputs, attrs, reference outputs) run whole through the project's
    own TilingFunc, one line a case; `check(got, want)` -> (ok, text); the outputs in `unchecked` are not compared.
    src_by_hand.py and newsrc_by_hand.py run their ops through this too. `written_inputs`: inputs the kernel updates in
    place (run_project). `output_dtype(reference, dtype)`: the type an output is allocated in, `dtype` the op's."""
    repo, path, cases = ops[name]
    try:
        proj, settings = project(repo, path, *g_)
    except Exception as e:  # noqa: BLE001 - the line says why
        yield f"{name}: ERROR the project does not build: {str(e)[:300]}"
        return
    for i, (label, make) in enumerate(cases):
        inputs, attrs, want = make(np.random.default_rng(seed + i))
        # the caller allocates the outputs, as the ops' aclnn test programs do (shape of the reference, a scalar as [1];
        # dtype the first input's, bool for a bool reference): their InferShape is msopgen's copy of the input's shape
        dtype = out_dtype.get(name, str(next(iter(inputs.values())).dtype))
        outputs = {k: (v.shape or (1,), output_dtype(v, dtype)) for k, v in want.items()}
        r, failed = run_or_error(f"{name} {label}", proj, inputs, attrs=attrs, outputs=outputs, settings=settings,
                                 written_inputs=written_inputs)
        if failed:
            yield failed
            continue
        verdicts = {k: check(r.outputs[k], v) for k, v in want.items() if k not in unchecked}
        ok = all(v[0] for v in verdicts.values())
        yield (f"{name} {label}: key {r.tiling_key}, block_dim {r.block_dim}, "
               + "; ".join(f"{k} {v[1]}" for k, v in verdicts.items()) + f": {'match' if ok else 'MISMATCH'}")


# inputs a kernel uses as scratch in GM: KiaraStark's two LogSumExp kernels reduce over a middle dim by storing partial
# results back into x between passes (`DataCopy(xGm[j], zLocal, ...)`, log_sum_exp.cpp:326 / 327 and 396 / 397), which on
# the NPU overwrites the caller's tensor; the caller hands x over as a tensor the op may write (run_project's
# written_inputs), as it would have to on the chip. The reference is computed from the inputs before the run.
WRITTEN_INPUTS = {"LogSumExp (homework 3)": ("x",), "LogSumExp (S3)": ("x",)}


def run_op(g_, name: str):
    yield from run_cases(g_, name, OPS, seed=1000, out_dtype=OUT_DTYPE, check=close,
                         written_inputs=WRITTEN_INPUTS.get(name, ()))


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_op))
