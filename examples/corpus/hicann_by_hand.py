"""Runs of public Matmul-API op projects built once per core type against NumPy, through their own op_host tiling:
the MatMulV3 / BatchMatMulV3 projects of CANN's ops repository (Hayden727/cann-ops `src/matmul/`, the same family as
hicann ops-nn's matmul/), mixed AIC/AIV kernels whose vector half (the ND -> NZ conversion of an unaligned operand,
under `__DAV_C220_VEC__`) is compiled in a pass of its own; each at the corpus's pinned commit (manifest.json), run from
the mirror, nothing copied; and hicann ops-nn's own MatMulV3 / BatchMatMulV3 / TransposeBatchMatMul projects (their A2
tiling links the Ascend 950 sources too; their TilingParse calls TilingPrepareForOpCache of CANN's closed
libophost_comm_legacy.so, which the emulated host stands in for: ascendcraft_emu/ophost_legacy.h, docs/corpus.md,
thirty-ninth round, opcache).

    python examples/corpus/hicann_by_hand.py [--git Hayden727/cann-ops=DIR] [--only mat_mul_v3] [--keep DIR]
    (--only: mat_mul_v3, batch_mat_mul_v3, ops-nn/mat_mul_v3, ops-nn/batch_mat_mul_v3, ops-nn/transpose_batch_mat_mul,
    ops-nn/quant_batch_matmul_v3, ops-nn/gemm_v3, gemm_v2)

Each project is materialised as `corpus.py run` does it (the op's folder and what its build reaches; the host sources
of the same build target the link misses, `corpus.link_sources`), then `ascendcraft.opproject.run_project` runs its
TilingFunc on the emulated gert::TilingContext for the inputs' shapes and attributes, and the kernel instance of the
tiling key it chose on the emulated cores (the cube half on AIC blocks, the vector half on AIV blocks, handing over with
SyncAll and NotifyEvent / WaitEvent). The inputs are random fp16 / bf16 values; the reference is the product of the same
(rounded) values in float64. A run matches when every element is within `ULPS` units in the last place of the output
dtype at the reference's magnitude, plus the float32 accumulation's own error (K * 2^-24 * sum |a*b|). Prints one line
per run: the shape, the tiling key and block dim the TilingFunc chose, the max abs error and the verdict.
"""
import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.opproject import build_project, load_project, run_project  # noqa: E402

MIRRORS = Path("/work/.mirror")
ULPS = 1            # the output's rounding: within one unit in the last place of the output dtype
_FOLDERS: dict = {}


def project(repo: str, path: str, gitdirs: dict, keep: Path | None):
    """The op project at the corpus's pinned commit, materialised and linked as `corpus.py run` builds it: the folder
    and the settings of its host build (the repository's BUILD_DEFINES)."""
    if (repo, path) in _FOLDERS: return _FOLDERS[(repo, path)]
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == repo and e["path"] == path)
    gitdir = gitdirs.get(repo) or str(MIRRORS / repo.replace("/", "+") / "repo")
    # (an op project at its repository's root has the path "": its kept folder is named by the repository)
    folder = (keep / (path or repo).replace("/", "_")) if keep else Path(tempfile.mkdtemp(prefix="hicann_"))
    # a kept folder from an earlier run starts afresh: materialising over it would link the sources the link missed a
    # second time (op_host/ascendcraft_linked_N.cpp beside the first one: "multiple definition"); the builds are cached
    if keep and folder.exists(): shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus.materialise(entry, gitdir, folder)
    s = load_settings()
    settings = s.replace(cxxflags=f"{s.cxxflags} {corpus.BUILD_DEFINES[repo]}") if repo in corpus.BUILD_DEFINES else s
    b, linked = build_project(load_project(folder), 0, settings=settings), set()
    # the host sources of the op's build target that define what the link misses, until none is new
    b, still = corpus.link_until_settled(entry, gitdir, folder, b, lambda: build_project(load_project(folder), 0, settings=settings),
                                         linked)
    assert b.ok, f"{path}: the project does not build ({still}):\n" + "\n".join(d.render() for d in b.diagnostics)
    _FOLDERS[(repo, path)] = (load_project(folder), settings)
    return _FOLDERS[(repo, path)]


def tensor(rng, shape, dtype: str):
    "Random values of the dtype (torch: numpy has no bfloat16), and the same values as float64."
    t = torch.from_numpy(rng.uniform(-1, 1, shape).astype(np.float32)).to(getattr(torch, dtype))
    return t, t.double().numpy()


def compare(got, want, mag, dtype: str, k: int) -> tuple[bool, float, float]:
    """(match, max abs error, worst error in units of the allowed) of an output against the float64 reference: allowed
    is ULPS ulp of the output dtype at the reference's magnitude plus the float32 accumulation's K * 2^-24 * sum|a*b|."""
    if dtype == "bfloat16": got = torch.from_numpy(got.view(np.int16)).view(torch.bfloat16).double().numpy()
    got = np.asarray(got, np.float64)
    mant = {"float16": 10, "bfloat16": 7, "float32": 23}[dtype]
    ulp = np.exp2(np.floor(np.log2(np.maximum(np.abs(want), 2.0 ** -14))) - mant)
    allowed = ULPS * ulp + k * 2.0 ** -24 * mag
    err = np.abs(got - want)
    worst = float(np.max(err / allowed)) if err.size else 0.0
    return bool(np.all(err <= allowed)) and bool(np.isfinite(got).all()), float(err.max()), worst


def line(name: str, r, ok: bool, err: float, worst: float, extra: str = "") -> str:
    if not r.run.ok:
        # and the op's own error / warning log, which names why its TilingParse / TilingFunc failed (the diagnostic gives only
        # the status it returned)
        logged = [l.strip() for l in (r.run.stderr or "").splitlines() if l.lstrip().startswith(("[ERROR]", "[WARNING]"))][-3:]
        return (f"{name}: ERROR ({'; '.join(d.render().splitlines()[0] for d in r.run.diagnostics[:1])}"
                f"{''.join(f'; {l}' for l in logged)})")
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}{extra}: max abs error {err:.3g} "
            f"({worst:.2f} of allowed) {'match' if ok else 'MISMATCH'}")


def matmul(x1, x2, ta: bool, tb: bool, bias=None):
    "The float64 reference of y = op(x1) @ op(x2) (+ bias), and sum|a*b| for the accumulation's error bound."
    a = np.swapaxes(x1, -1, -2) if ta else x1
    b = np.swapaxes(x2, -1, -2) if tb else x2
    y, mag = a @ b, np.abs(a) @ np.abs(b)
    if bias is not None: y, mag = y + bias, mag + np.abs(bias)
    return y, mag, a.shape[-1]


def matmul_op(g, repo: str, path: str, shape: tuple, dtype: str = "float16", ta: bool = False, tb: bool = False,
              bias: bool = False, seed: int = 1) -> str:
    """A MatMulV3 / BatchMatMulV3 op: y = op(x1) @ op(x2) (+ bias) for shape (batch..., m, k, n); x1 [..., m, k] (or
    [..., k, m] with the first transpose attribute), x2 [..., k, n] (or [..., n, k]); bias [n] of the definition's
    dtype column (fp16 for fp16 inputs, float32 for bf16)."""
    proj, settings = project(repo, path, *g)
    *batch, m, k, n = shape
    rng = np.random.default_rng(seed)
    x1, a = tensor(rng, (*batch, k, m) if ta else (*batch, m, k), dtype)
    x2, b = tensor(rng, (*batch, n, k) if tb else (*batch, k, n), dtype)
    bt, bv = tensor(rng, (n,), dtype if dtype == "float16" else "float32") if bias else (None, None)
    want, mag, kk = matmul(a, b, ta, tb, bv)
    names = [a.name for a in proj.op.attrs]          # transpose_x1 / transpose_x2, or adj_x1 / adj_x2 (BatchMatMulV3)
    attrs = {names[0]: ta, names[1]: tb}
    t0 = time.time()
    r = run_project(proj, {"x1": x1, "x2": x2, "bias": bt}, attrs=attrs,
                    outputs={"y": (tuple(want.shape), dtype if dtype == "bfloat16" else np.dtype(dtype))}, settings=settings)
    ok, err, worst = compare(r.outputs.get("y"), want, mag, dtype, kk) if r.run.ok else (False, 0, 0)
    name = (f"{'ops-nn ' if repo == OPS_NN else ''}{path.rsplit('/', 1)[-1]} {dtype} {'x'.join(map(str, shape))}{' x1^T' if ta else ''}{' x2^T' if tb else ''}"
            f"{' +bias' if bias else ''}")
    return line(name, r, ok, err, worst, f", {time.time() - t0:.0f} s")


def transpose_batch_matmul_op(g, path: str, shape: tuple, dtype: str = "float16", perm_x1=(0, 1, 2), seed: int = 1) -> str:
    """ops-nn's TransposeBatchMatMul, as its README gives it: x1 (B, M, K), or (M, B, K) with perm_x1 [1, 0, 2] (the
    permutation that makes it (B, M, K)); x2 (B, K, N) (perm_x2 [0, 1, 2]); y = (x1' @ x2) permuted by perm_y [1, 0, 2]:
    (M, B, N). No bias, no scale, batch_split_factor 1."""
    proj, settings = project(OPS_NN, path, *g)
    bb, m, k, n = shape
    rng = np.random.default_rng(seed)
    stored = tuple((bb, m, k)[i] for i in perm_x1)
    x1, a = tensor(rng, stored, dtype)
    x2, b = tensor(rng, (bb, k, n), dtype)
    a = np.transpose(a, np.argsort(perm_x1))
    want, mag, kk = matmul(a, b, False, False)
    want, mag = np.transpose(want, (1, 0, 2)), np.transpose(mag, (1, 0, 2))
    t0 = time.time()
    r = run_project(proj, {"x1": x1, "x2": x2, "bias": None, "scale": None},
                    attrs={"perm_x1": list(perm_x1), "perm_x2": [0, 1, 2], "perm_y": [1, 0, 2]},
                    outputs={"y": (tuple(want.shape), dtype if dtype == "bfloat16" else np.dtype(dtype))}, settings=settings)
    ok, err, worst = compare(r.outputs.get("y"), want, mag, dtype, kk) if r.run.ok else (False, 0, 0)
    name = f"ops-nn transpose_batch_mat_mul {dtype} {'x'.join(map(str, shape))} perm_x1 {list(perm_x1)}"
    return line(name, r, ok, err, worst, f", {time.time() - t0:.0f} s")


def deq_words(scale: np.ndarray, offset: float | None = None) -> np.ndarray:
    """The uint64 quantisation words of float32 scales, as ops-nn's aclnnTransQuantParam makes them
    (quant/trans_quant_param/op_host/op_api/quant_util.cpp): bits 31:0 the float's bits, bit 46 set; an offset rounded
    to an int9 in bits 45:37."""
    words = scale.astype(np.float32).view(np.uint32).astype(np.uint64) | np.uint64(1 << 46)
    if offset is not None:
        words |= np.uint64((int(np.clip(np.round(offset), -256, 255)) & 0x1FF) << 37)
    return words


def quant_batch_matmul_op(g, shape: tuple, out: str = "float16", per_channel: bool = True, bias: bool = False,
                          tb: bool = False, pertoken: bool = False, offset: float | None = None, seed: int = 1) -> str:
    """ops-nn's QuantBatchMatmulV3 on A2 (README: out = (x1 @ x2 + bias) * scale + offset; with pertoken_scale,
    x1 @ x2 * scale * pertoken): x1 int8 (M, K), x2 int8 (K, N) (or (N, K) with transpose_x2), scale (N,) per channel or
    (1,) per tensor. fp16 / int8 out: scale the uint64 words of aclnnTransQuantParam (`deq_words`), bias int32, which the
    Fixpipe applies keeping the float's (1, 8, 10) bits; bf16 out: a bfloat16 scale (a float32 one with pertoken),
    applied in the vector unit. The reference is exact integer products in int64, then the documented formula in
    float64; it matches when fp16 / bf16 are within one ulp plus the float32 product's rounding, int8 within 1."""
    proj, settings = project(OPS_NN, "matmul/quant_batch_matmul_v3", *g)
    m, k, n = shape
    rng = np.random.default_rng(seed)
    x1 = rng.integers(-128, 128, (m, k), dtype=np.int8)
    x2 = rng.integers(-128, 128, (n, k) if tb else (k, n), dtype=np.int8)
    acc = x1.astype(np.int64) @ (x2.T if tb else x2).astype(np.int64)
    bt = rng.integers(-5000, 5000, (n,), dtype=np.int32) if bias else None
    if bias: acc = acc + bt
    # scales that bring |acc| (up to about 128 * 128 * K / 4 for random values) to the order of 10
    s = (rng.uniform(0.5, 1.5, (n if per_channel else 1,)) * 10.0 / (128.0 * 128.0 * np.sqrt(k) / 3)).astype(np.float32)
    pt = rng.uniform(0.5, 1.5, (m,)).astype(np.float32) if pertoken else None
    if out == "bfloat16":
        scale_t = torch.from_numpy(s) if pertoken else torch.from_numpy(s).to(torch.bfloat16)
        sv = scale_t.double().numpy()
        want = acc * sv * (pt[:, None] if pertoken else 1.0)
        mag = np.abs(want)
    else:
        scale_t = deq_words(s, offset)
        sv = (s.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)   # the Fixpipe's M1
        want, mag = acc * sv, np.abs(acc * sv)
    inputs = {"x1": x1, "x2": x2, "scale": scale_t, "offset": None, "bias": bt,
              "pertoken_scale": pt}
    ge_out = {"float16": 1, "int8": 2, "bfloat16": 27}[out]
    t0 = time.time()
    r = run_project(proj, inputs, attrs={"dtype": ge_out, "transpose_x1": False, "transpose_x2": tb, "group_size": 0},
                    outputs={"y": ((m, n), out if out == "bfloat16" else np.dtype(out))}, settings=settings)
    if not r.run.ok:
        ok, err, worst = False, 0, 0
    elif out == "int8":
        q = np.clip(np.round(want), -256, 255) + (np.clip(np.round(offset), -256, 255) if offset is not None else 0)
        want = np.clip(q, -128, 127)
        got = np.asarray(r.outputs["y"], np.float64)
        err = float(np.abs(got - want).max()); worst = err          # allowed: 1 (the float32 product's rounding at .5)
        ok = err <= 1
    else:
        # one ulp of the output and two float32 roundings (the product, and pertoken's): 2 * 2^-24 of the magnitude
        ok, err, worst = compare(r.outputs["y"], want, mag, out, 2)
    name = (f"ops-nn quant_batch_matmul_v3 int8 -> {out} {m}x{k}x{n}{' x2^T' if tb else ''} "
            f"{'per-channel' if per_channel else 'per-tensor'} scale{' +bias int32' if bias else ''}"
            f"{' +pertoken' if pertoken else ''}{f' offset {offset:g}' if offset is not None else ''}")
    return line(name, r, ok, err, worst, f", {time.time() - t0:.0f} s")


def gemm_v3_op(g, shape: tuple, dtype: str = "float16", c_dtype: str = "float32", alpha: float = 1.0, beta: float = 1.0,
               ta: bool = False, tb: bool = False, seed: int = 1) -> str:
    """ops-nn's GemmV3 on A2 (README: y = alpha * (a @ b) + beta * c): a (M, K) (or (K, M) with transpose_a), b (K, N)
    (or (N, K)), c (M, N) of the definition's column for the inputs' dtype (float32 with y float32, or the inputs'
    dtype for y), enable_hf32 false. Matches within one ulp of y plus the float32 accumulation's bound and the three
    float32 roundings of the scaling and the sum."""
    proj, settings = project(OPS_NN, "matmul/gemm_v3", *g)
    m, k, n = shape
    rng = np.random.default_rng(seed)
    a_t, a = tensor(rng, (k, m) if ta else (m, k), dtype)
    b_t, b = tensor(rng, (n, k) if tb else (k, n), dtype)
    c_t, c = tensor(rng, (m, n), c_dtype)
    prod, mag, kk = matmul(a, b, ta, tb)
    want = alpha * prod + beta * c
    mag = abs(alpha) * mag + abs(beta) * np.abs(c)
    t0 = time.time()
    r = run_project(proj, {"a": a_t, "b": b_t, "c": c_t},
                    attrs={"alpha": alpha, "beta": beta, "transpose_a": ta, "transpose_b": tb, "enable_hf32": False},
                    outputs={"y": ((m, n), c_dtype if c_dtype == "bfloat16" else np.dtype(c_dtype))}, settings=settings)
    ok, err, worst = compare(r.outputs.get("y"), want, mag, c_dtype, kk + 3) if r.run.ok else (False, 0, 0)
    name = (f"ops-nn gemm_v3 {dtype} c {c_dtype} {m}x{k}x{n}{' a^T' if ta else ''}{' b^T' if tb else ''} "
            f"alpha {alpha:g} beta {beta:g}")
    return line(name, r, ok, err, worst, f", {time.time() - t0:.0f} s")


def gemm_v2_op(g, shape: tuple, dtype: str = "float16", alpha: float = 1.0, beta: float = 1.0, seed: int = 1) -> str:
    """cann-ops's GemmV2 (its doc/GemmV2.md: out = alpha * (A @ B) + beta * C; a, b (M, K), (K, N) float16 / bfloat16,
    alpha and beta one element of the same dtype, c (M, N) float32, and the output c, the same name as the input: GE
    gives it c's buffer). Matches within one ulp of float32 plus the float32 accumulation's bound and the roundings of
    the scaling and the sum. (Its A2 kernel reads neither alpha nor beta: it adds A @ B to c atomically, `Process(0, 1)`;
    alpha = beta = 1 is where that and the document agree.)"""
    proj, settings = project(CANN_OPS, "src/matmul/gemm_v2", *g)
    m, k, n = shape
    rng = np.random.default_rng(seed)
    a_t, a = tensor(rng, (m, k), dtype)
    b_t, b = tensor(rng, (k, n), dtype)
    c_t, c = tensor(rng, (m, n), "float32")
    al_t, be_t = (torch.tensor([v], dtype=getattr(torch, dtype)) for v in (alpha, beta))
    al, be = float(al_t.double()[0]), float(be_t.double()[0])
    prod, mag, kk = matmul(a, b, False, False)
    want = al * prod + be * c
    mag = abs(al) * mag + abs(be) * np.abs(c)
    t0 = time.time()
    r = run_project(proj, {"a": a_t, "b": b_t, "alpha": al_t, "beta": be_t, "c": c_t},
                    attrs={"transpose_a": False, "transpose_b": False},
                    outputs={"c": ((m, n), np.dtype("float32"))}, settings=settings)
    ok, err, worst = compare(r.outputs.get("c"), want, mag, "float32", kk + 3) if r.run.ok else (False, 0, 0)
    name = f"gemm_v2 {dtype} {m}x{k}x{n} alpha {alpha:g} beta {beta:g}"
    return line(name, r, ok, err, worst, f", {time.time() - t0:.0f} s")


CANN_OPS = "Hayden727/cann-ops"
OPS_NN = "hicann/ops-nn"


# The runs: each picks shapes that take a different tiling key (the TilingFunc decides; the line prints its key).
RUNS = {
    "mat_mul_v3": [
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/mat_mul_v3", (100, 200, 300), seed=2),   # unaligned: vector ND2NZ
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/mat_mul_v3", (256, 256, 512)),           # aligned: cube only
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/mat_mul_v3", (96, 200, 160), ta=True, tb=True, bias=True, seed=3),
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/mat_mul_v3", (64, 8192, 64), "bfloat16", seed=4),  # long K
    ],
    "batch_mat_mul_v3": [
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/batch_mat_mul_v3", (3, 100, 72, 200), seed=5),     # unaligned
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/batch_mat_mul_v3", (4, 64, 128, 256), tb=True, seed=6),
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/batch_mat_mul_v3", (64, 32, 64, 48), seed=7),   # many small
        lambda g: matmul_op(g, CANN_OPS, "src/matmul/batch_mat_mul_v3", (2, 128, 256, 96), "bfloat16", ta=True, seed=8),
    ],
    # hicann ops-nn's own projects (their A2 TilingFunc: TilingRegistry's templates; the Ascend 950 tiling is linked
    # in, not taken on the emulated 910B)
    "ops-nn/mat_mul_v3": [
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (100, 200, 300), seed=2),   # unaligned
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (256, 256, 512)),           # aligned
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (96, 200, 160), ta=True, tb=True, bias=True, seed=3),
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (64, 8192, 64), "bfloat16", seed=4),  # long K
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (130, 96, 72), "bfloat16", tb=True, bias=True, seed=9),
        # (thirty-ninth round) x1^T alone, unaligned; x2^T without bias at M > 128; M = 1 in bf16; and the A2 tiling's
        # IncreShape path (M <= 128, K 256-byte aligned, x2^T, no bias), whose tiling comes from CANN's closed GenTiling:
        # an ERROR naming it (ascendcraft_emu/ophost_legacy.h)
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (48, 100, 33), ta=True, seed=14),
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (200, 256, 96), tb=True, seed=15),
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (1, 64, 1000), "bfloat16", seed=16),
        lambda g: matmul_op(g, OPS_NN, "matmul/mat_mul_v3", (64, 256, 128), tb=True, seed=17),
    ],
    "ops-nn/transpose_batch_mat_mul": [
        lambda g: transpose_batch_matmul_op(g, "matmul/transpose_batch_mat_mul", (4, 64, 128, 256), seed=10),
        lambda g: transpose_batch_matmul_op(g, "matmul/transpose_batch_mat_mul", (3, 32, 512, 128), perm_x1=(1, 0, 2), seed=11),
        lambda g: transpose_batch_matmul_op(g, "matmul/transpose_batch_mat_mul", (2, 100, 72, 200), seed=12),   # unaligned
        lambda g: transpose_batch_matmul_op(g, "matmul/transpose_batch_mat_mul", (4, 64, 128, 256), "bfloat16", seed=13),
    ],
    # (fortieth round) int8 x int8 with the A2 columns' scales: uint64 words (fp16 / int8 out, the Fixpipe's
    # quantisation) or bfloat16 / float32 (bf16 out, the vector unit's)
    "ops-nn/quant_batch_matmul_v3": [
        lambda g: quant_batch_matmul_op(g, (128, 256, 192), "float16", seed=20),
        lambda g: quant_batch_matmul_op(g, (100, 200, 72), "float16", per_channel=False, bias=True, tb=True, seed=21),
        lambda g: quant_batch_matmul_op(g, (64, 512, 128), "int8", seed=22),
        lambda g: quant_batch_matmul_op(g, (48, 96, 80), "int8", per_channel=False, bias=True, offset=3, seed=23),
        lambda g: quant_batch_matmul_op(g, (96, 256, 160), "bfloat16", seed=24),
        lambda g: quant_batch_matmul_op(g, (64, 128, 256), "bfloat16", pertoken=True, tb=True, seed=25),
        # the A2 tiling's basic-block path, the one that needs no TBE tiling (GenTiling, closed; every case above takes
        # it): M <= 16, 13000 <= K <= 18944, N >= 1500, int8 -> fp16 / bf16 (CheckInBasicBenefitsRange)
        lambda g: quant_batch_matmul_op(g, (16, 13056, 1536), "float16", seed=30),
        lambda g: quant_batch_matmul_op(g, (16, 13056, 1536), "bfloat16", seed=31),
    ],
    # (fortieth round) y = alpha * (a @ b) + beta * c in the A2 columns: c and y float32, or the inputs' dtype
    "ops-nn/gemm_v3": [
        lambda g: gemm_v3_op(g, (128, 256, 96), "float16", "float32", alpha=1.5, beta=0.5, seed=26),
        lambda g: gemm_v3_op(g, (100, 200, 72), "bfloat16", "float32", seed=27),                      # unaligned
        lambda g: gemm_v3_op(g, (64, 128, 256), "float16", "float16", alpha=0.5, beta=2.0, tb=True, seed=28),
        lambda g: gemm_v3_op(g, (96, 64, 130), "bfloat16", "bfloat16", ta=True, seed=29),
    ],
    # (forty-fifth round) the document's formula at alpha = beta = 1; an unaligned shape takes tiling key
    # 10000000000000000000, which the kernel has no branch for (it tests ...0001 alone): an ERROR naming the key
    "gemm_v2": [
        lambda g: gemm_v2_op(g, (128, 256, 96), "float16", seed=32),
        lambda g: gemm_v2_op(g, (64, 128, 256), "bfloat16", seed=34),
        lambda g: gemm_v2_op(g, (100, 200, 72), "bfloat16", seed=33),                                # unaligned
    ],
    "ops-nn/batch_mat_mul_v3": [
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (3, 100, 72, 200), seed=5),     # unaligned
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (4, 64, 128, 256), tb=True, seed=6),
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (64, 32, 64, 48), seed=7),   # many small
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (2, 128, 256, 96), "bfloat16", ta=True, seed=8),
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (2, 48, 80, 33), bias=True, seed=18),   # (39th round)
        lambda g: matmul_op(g, OPS_NN, "matmul/batch_mat_mul_v3", (5, 17, 40, 24), "bfloat16", tb=True, seed=19),
    ],
}


def run_or_error(label: str, *args, **kwargs):
    """`run_project(*args, **kwargs)` for one case of a by-hand script: (the run, None), or (None, the case's ERROR line)
    when the tiling refused the case, the kernel did not build or the run stopped (its first error, at its line)."""
    try:
        r = run_project(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the line says why, whatever it is
        return None, f"{label}: ERROR {type(e).__name__}: {str(e)[:300]}"
    if not r.run.ok:
        first = next((d for d in r.run.diagnostics if d.severity == "error"), None)
        return None, f"{label}: ERROR {first.render()[:300] if first else r.run}"
    return r, None


def run_ops_main(doc: str, ops, run_op, argv=None) -> int:
    """The command line of the by-hand scripts that run ops by name (hicann_elementwise.py, hicann_ops_by_hand.py):
    `--only NAME` (repeated; default every op of `ops`), `--keep DIR`, `--git OWNER/NAME=GITDIR`. Prints each case's
    line as `run_op((gitdirs, keep), name)` gives it; exit status 1 when any line is not a match."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--keep", type=Path, default=None)
    a = ap.parse_args(argv)
    g = (dict(x.split("=", 1) for x in a.git), a.keep)
    bad = 0
    for name in a.only or ops:
        for text in run_op(g, name):
            bad += "match" not in text or "MISMATCH" in text
            print(text, flush=True)
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", action="append", default=[], help="only these ops (repeat)")
    ap.add_argument("--keep", type=Path, default=None, help="materialise the projects here (kept after the run)")
    a = ap.parse_args(argv)
    g = (dict(x.split("=", 1) for x in a.git), a.keep)
    bad = 0
    for op, runs in RUNS.items():
        if a.only and op not in a.only: continue
        for fn in runs:
            out = fn(g)
            bad += "match" not in out or "MISMATCH" in out
            print(out, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
