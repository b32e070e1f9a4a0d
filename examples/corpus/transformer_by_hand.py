"""hicann ops-transformer's production vector ops run against PyTorch on the emulator, through their own op_host
tiling: the rotary position embedding (RotaryPositionEmbedding, modes 0 = half and 1 = interleave, the A2 ones; and
ApplyRotaryPosEmb, query and key rotated in place) at the
corpus's pinned commit, materialised and linked as `corpus.py run` builds the project (hicann_by_hand.project), nothing
copied. The reference is the formula of the op's own document (docs/aclnnRotaryPositionEmbedding.md):

    half:        x_rotate = cat(-x[..., D/2:], x[..., :D/2]);      y = x * cos + x_rotate * sin
    interleave:  x_rotate = (-x[..., 1::2], x[..., ::2]) interleaved; y = x * cos + x_rotate * sin

with cos / sin in the shapes the document allows on A2 (interleave: 1S1D for BSND, 11SD for BNSD, S11D for SBND;
its TilingFunc refuses a full-shape cos there, as documented), computed in float64 from the same (rounded) inputs; a run matches within two units in the last place of the output dtype
at the larger of |x * cos| + |x_rotate * sin| and the result (the kernel rounds intermediate products to its dtype or
computes in float32).

    python examples/corpus/transformer_by_hand.py [--git hicann/ops-transformer=DIR] [--keep DIR]
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


RUNS = [
    lambda g: rope(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 0, 1),        # BSND, cos per position
    lambda g: rope(g, (2, 4, 16, 128), (2, 1, 16, 128), "float32", 0, 2),    # BNSD, cos per (batch, position)
    lambda g: rope(g, (1, 3, 5, 96), (1, 3, 1, 96), "bfloat16", 0, 3),       # odd sizes
    lambda g: rope(g, (2, 8, 4, 64), (1, 8, 1, 64), "float16", 1, 4),        # interleave
    lambda g: rope(g, (2, 4, 8, 32), (1, 1, 8, 32), "float32", 1, 5),        # interleave, BNSD (cos 11SD)
    lambda g: rope(g, (6, 2, 3, 48), (6, 1, 1, 48), "bfloat16", 1, 6),       # interleave, SBND (cos S11D)
    lambda g: apply_rope(g, 2, 5, 4, 1, "float16", 7),                         # query and key in place
    lambda g: apply_rope(g, 1, 3, 8, 2, "bfloat16", 8),
    lambda g: apply_rope(g, 3, 2, 2, 2, "float32", 9),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--keep", type=Path, default=None, help="materialise the project here (kept after the run)")
    a = ap.parse_args(argv)
    g = (dict(x.split("=", 1) for x in a.git), a.keep)
    bad = 0
    for fn in RUNS:
        out = fn(g)
        bad += "MISMATCH" in out or "ERROR" in out
        print(out, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
