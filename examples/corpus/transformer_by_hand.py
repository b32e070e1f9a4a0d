"""hicann ops-transformer's production vector ops run against PyTorch on the emulator, through their own op_host
tiling: the rotary position embedding (RotaryPositionEmbedding, modes 0 = half and 1 = interleave, the A2 ones;
ApplyRotaryPosEmb, query and key rotated in place; and RotaryPositionEmbeddingGrad, see rope_grad) at the corpus's pinned
commit, materialised and linked as `corpus.py run` builds the project (hicann_by_hand.project), nothing
copied. The reference is the formula of the op's own document (docs/aclnnRotaryPositionEmbedding.md):

    half:        x_rotate = cat(-x[..., D/2:], x[..., :D/2]);      y = x * cos + x_rotate * sin
    interleave:  x_rotate = (-x[..., 1::2], x[..., ::2]) interleaved; y = x * cos + x_rotate * sin

with cos / sin in the shapes the document allows on A2 (interleave: 1S1D for BSND, 11SD for BNSD, S11D for SBND;
its TilingFunc refuses a full-shape cos there, as documented), computed in float64 from the same (rounded) inputs; a run matches within two units in the last place of the output dtype
at the larger of |x * cos| + |x_rotate * sin| and the result (the kernel rounds intermediate products to its dtype or
computes in float32).

    python examples/corpus/transformer_by_hand.py [--git hicann/ops-transformer=DIR] [--keep DIR] [--op rope_grad]
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from hicann_by_hand import project, tensor  # noqa: E402

from ascendcraft.opproject import run_project  # noqa: E402

REPO = "hicann/ops-transformer"
ROPE = "posembedding/rotary_position_embedding"


def rotate(x: np.ndarray, mode: int) -> np.ndarray:
    if mode == 0:
        h = x.shape[-1] // 2
        return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)
    out = np.empty_like(x)                          # interleave: pairs (x0, x1) -> (-x1, x0)
    out[..., ::2], out[..., 1::2] = -x[..., 1::2], x[..., ::2]
    return out


def rope(g, shape: tuple, cos_shape: tuple, dtype: str, mode: int, seed: int) -> str:
    proj, settings = project(REPO, ROPE, *g)
    rng = np.random.default_rng(seed)
    x, xv = tensor(rng, shape, dtype)
    cos, cv = tensor(rng, cos_shape, dtype)
    sin, sv = tensor(rng, cos_shape, dtype)
    rot = rotate(xv, mode)
    want = xv * cv + rot * sv
    mag = np.maximum(np.abs(xv * cv) + np.abs(rot * sv), np.abs(want))
    t0 = time.time()
    r = run_project(proj, {"x": x, "cos": cos, "sin": sin}, attrs={"mode": mode},
                    outputs={"y": (shape, dtype if dtype == "bfloat16" else np.dtype(dtype))}, settings=settings)
    name = f"rotary_position_embedding mode {mode} {dtype} x{list(shape)} cos{list(cos_shape)}"
    if not r.run.ok:
        return f"{name}: ERROR ({'; '.join(d.render().splitlines()[0] for d in r.run.diagnostics if d.severity == 'error')[:400]})"
    got = r.outputs["y"]
    if dtype == "bfloat16": got = torch.from_numpy(got.view(np.int16)).view(torch.bfloat16).double().numpy()
    got = np.asarray(got, np.float64)
    mant = {"float16": 10, "bfloat16": 7, "float32": 23}[dtype]
    allowed = 2 * np.exp2(np.floor(np.log2(np.maximum(mag, 2.0 ** -14))) - mant)
    err = np.abs(got - want)
    ok = bool(np.all(err <= allowed))
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: max abs error "
            f"{err.max():.3g} ({float(np.max(err / allowed)):.2f} of allowed) {'match' if ok else 'MISMATCH'}")


APPLY = "posembedding/apply_rotary_pos_emb"


def apply_rope(g, b: int, s: int, qn: int, kn: int, dtype: str, seed: int) -> str:
    """ApplyRotaryPosEmb (docs/aclnnApplyRotaryPosEmb.md): query and key rotated in place (the outputs are the inputs'
    buffers), half mode, layout BSND (the only one the document supports), D = 128, cos / sin of shape (B, S, 1, D)."""
    proj, settings = project(REPO, APPLY, *g)
    rng = np.random.default_rng(seed)
    q, qv = tensor(rng, (b, s, qn, 128), dtype)
    k, kv = tensor(rng, (b, s, kn, 128), dtype)
    cos, cv = tensor(rng, (b, s, 1, 128), dtype)
    sin, sv = tensor(rng, (b, s, 1, 128), dtype)
    t0 = time.time()
    odt = dtype if dtype == "bfloat16" else np.dtype(dtype)
    r = run_project(proj, {"query": q, "key": k, "cos": cos, "sin": sin}, attrs={"layout": 1},
                    outputs={"query": (q.shape, odt), "key": (k.shape, odt)}, settings=settings)
    name = f"apply_rotary_pos_emb {dtype} q{[b, s, qn, 128]} k{[b, s, kn, 128]}"
    if not r.run.ok:
        return f"{name}: ERROR ({'; '.join(d.render().splitlines()[0] for d in r.run.diagnostics if d.severity == 'error')[:400]})"
    mant = {"float16": 10, "bfloat16": 7, "float32": 23}[dtype]
    worst, ok = 0.0, True
    for out, xv in (("query", qv), ("key", kv)):
        rot = rotate(xv, 0)
        want = xv * cv + rot * sv
        mag = np.maximum(np.abs(xv * cv) + np.abs(rot * sv), np.abs(want))
        got = r.outputs[out]
        if dtype == "bfloat16": got = torch.from_numpy(np.asarray(got).view(np.int16)).view(torch.bfloat16).double().numpy()
        got = np.asarray(got, np.float64).reshape(want.shape)
        allowed = 2 * np.exp2(np.floor(np.log2(np.maximum(mag, 2.0 ** -14))) - mant)
        err = np.abs(got - want)
        ok &= bool(np.all(err <= allowed))
        worst = max(worst, float(np.max(err / allowed)))
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: worst {worst:.2f} of "
            f"allowed {'match' if ok else 'MISMATCH'}")


GRAD = "posembedding/rotary_position_embedding_grad"


def _bf(got, dtype: str) -> np.ndarray:
    if dtype == "bfloat16": got = torch.from_numpy(np.asarray(got).view(np.int16)).view(torch.bfloat16).double().numpy()
    return np.asarray(got, np.float64)


def rope_grad(g, shape: tuple, cos_shape: tuple, dtype: str, mode: int, seed: int) -> str:
    """RotaryPositionEmbeddingGrad (docs/aclnnRotaryPositionEmbeddingGrad.md; it includes lib/matmul_intf.h, so it is in
    the Matmul-API subset): the gradient of the forward y = x * cos + rotate(x) * sin, with x given, so that dcos and
    dsin are computed too. Written from that forward, which the document's formulas say out:

        dx   = dy * cos + rotate^T(dy * sin)   (half: cat(cos1 dy1 + sin2 dy2, cos2 dy2 - sin1 dy1); interleave alike)
        dcos = sum(dy * x, dims)               dsin = sum(dy * rotate(x), dims)

    dims: the axes along which cos / sin broadcast to dy's shape. Float64 from the (rounded) inputs; a run matches
    when every element is within two units in the last place of the output dtype at the larger of the terms' sum of
    magnitudes and the result, plus for dcos / dsin the float32 accumulation's n * 2^-24 * sum|products| (n summands;
    the kernel computes half and bfloat16 in float32)."""
    proj, settings = project(REPO, GRAD, *g)
    rng = np.random.default_rng(seed)
    dy, dyv = tensor(rng, shape, dtype)
    cos, cv = tensor(rng, cos_shape, dtype)
    sin, sv = tensor(rng, cos_shape, dtype)
    x, xv = tensor(rng, shape, dtype)
    cb, sb = np.broadcast_to(cv, shape), np.broadcast_to(sv, shape)
    # rotate^T, the adjoint of rotate: half cat(v2, -v1); interleave (v0, v1) -> (v1, -v0)
    ds = dyv * sb
    rot_t = -rotate(ds, mode)
    dx = dyv * cb + rot_t
    dx_mag = np.abs(dyv * cb) + np.abs(rot_t)
    dims = tuple(i for i, (a, b) in enumerate(zip(cos_shape, shape)) if a == 1 and b > 1)
    n = int(np.prod([shape[i] for i in dims])) if dims else 1
    pc, ps = dyv * xv, dyv * rotate(xv, mode)
    dcos, dsin = pc.sum(axis=dims, keepdims=True), ps.sum(axis=dims, keepdims=True)
    dcos_mag, dsin_mag = np.abs(pc).sum(axis=dims, keepdims=True), np.abs(ps).sum(axis=dims, keepdims=True)
    t0 = time.time()
    odt = dtype if dtype == "bfloat16" else np.dtype(dtype)
    r = run_project(proj, {"dy": dy, "cos": cos, "sin": sin, "x": x}, attrs={"mode": mode},
                    outputs={"dx": (shape, odt), "dcos": (cos_shape, odt), "dsin": (cos_shape, odt)}, settings=settings)
    name = f"rotary_position_embedding_grad mode {mode} {dtype} dy{list(shape)} cos{list(cos_shape)}"
    if not r.run.ok:
        return f"{name}: ERROR ({'; '.join(d.render().splitlines()[0] for d in r.run.diagnostics if d.severity == 'error')[:400]})"
    mant = {"float16": 10, "bfloat16": 7, "float32": 23}[dtype]
    ulp = lambda m: np.exp2(np.floor(np.log2(np.maximum(m, 2.0 ** -14))) - mant)
    worst, ok = {}, True
    for out, want, mag, acc in (("dx", dx, dx_mag, 0.0), ("dcos", dcos, dcos_mag, n * 2.0 ** -24 * dcos_mag),
                                ("dsin", dsin, dsin_mag, n * 2.0 ** -24 * dsin_mag)):
        got = _bf(r.outputs[out], dtype).reshape(want.shape)
        allowed = 2 * ulp(np.maximum(mag if out == "dx" else np.abs(want), np.abs(want))) + acc
        err = np.abs(got - want)
        ok &= bool(np.all(err <= allowed)) and bool(np.isfinite(got).all())
        worst[out] = float(np.max(err / allowed))
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: worst of allowed "
            + ", ".join(f"{k} {v:.2f}" for k, v in worst.items()) + f" {'match' if ok else 'MISMATCH'}")


RUNS = [
    ("rope", lambda g: rope(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 0, 1)),  # BSND, cos per position
    ("rope", lambda g: rope(g, (2, 4, 16, 128), (2, 1, 16, 128), "float32", 0, 2)),  # BNSD, cos per (batch, position)
    ("rope", lambda g: rope(g, (1, 3, 5, 96), (1, 3, 1, 96), "bfloat16", 0, 3)),  # odd sizes
    ("rope", lambda g: rope(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 1, 4)),  # interleave
    ("rope", lambda g: rope(g, (2, 4, 8, 32), (1, 1, 8, 32), "float32", 1, 5)),  # interleave, BNSD (cos 11SD)
    ("rope", lambda g: rope(g, (6, 2, 3, 48), (6, 1, 1, 48), "bfloat16", 1, 6)),  # interleave, SBND (cos S11D)
    ("apply_rope", lambda g: apply_rope(g, 2, 5, 4, 1, "float16", 7)),  # query and key in place
    ("apply_rope", lambda g: apply_rope(g, 1, 3, 8, 2, "bfloat16", 8)),
    ("apply_rope", lambda g: apply_rope(g, 3, 2, 2, 2, "float32", 9)),
    # RotaryPositionEmbeddingGrad, dcos / dsin summed over the axes cos broadcasts along
    ("rope_grad", lambda g: rope_grad(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 0, 10)),     # BSND, 1S1D: sum B, N
    ("rope_grad", lambda g: rope_grad(g, (2, 4, 16, 128), (2, 1, 16, 128), "float32", 0, 11)),  # BNSD, B1SD: sum N
    ("rope_grad", lambda g: rope_grad(g, (1, 3, 5, 96), (1, 3, 5, 96), "bfloat16", 0, 12)),     # full shape: no sum
    ("rope_grad", lambda g: rope_grad(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 1, 13)),     # interleave
    ("rope_grad", lambda g: rope_grad(g, (2, 4, 8, 32), (1, 1, 8, 32), "float32", 1, 14)),     # interleave, 11SD
    ("rope_grad", lambda g: rope_grad(g, (6, 2, 3, 48), (6, 1, 1, 48), "bfloat16", 1, 15)),    # interleave, S11D
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--keep", type=Path, default=None, help="materialise the project here (kept after the run)")
    ap.add_argument("--op", action="append", choices=sorted({op for op, _ in RUNS}),
                    help="only this op's cases (repeat for several): rope, apply_rope, rope_grad; default all")
    a = ap.parse_args(argv)
    g = (dict(x.split("=", 1) for x in a.git), a.keep)
    bad = 0
    for op, fn in RUNS:
        if a.op and op not in a.op: continue
        out = fn(g)
        bad += "MISMATCH" in out or "ERROR" in out
        print(out, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
