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
from hicann_by_hand import MIRRORS, compare, project, tensor  # noqa: E402

from ascendcraft.config import load_settings  # noqa: E402
from ascendcraft.opproject import build_project, load_project, run_project  # noqa: E402

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


def attention_reference(q, k, v, scale: float, masked=None):
    """softmax(scale * Q K^T, masked positions out) V in float64, on BNSD arrays (key / value with N / Nkv heads each
    shared by N / Nkv query heads in a row: GQA). `masked` (broadcast to [B, N, Sq, Skv]) is True where the op's
    attention mask says 1: the position takes no part. Returns the output, sum_j p_j |v_j| / sum_j p_j (the magnitude
    the kernel's rounding of the probabilities acts on), and the rows' max and sum of exp(score - max)."""
    g = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    s = scale * np.einsum("bnqd,bnkd->bnqk", q, k)
    if masked is not None: s = np.where(np.broadcast_to(masked, s.shape), -np.inf, s)
    mx = s.max(axis=-1, keepdims=True)
    p = np.exp(s - mx)
    total = p.sum(axis=-1, keepdims=True)
    return p @ v / total, p @ np.abs(v) / total, mx[..., 0], total[..., 0]


def attention_check(got, want, mag, dtype: str) -> tuple[bool, float]:
    """An attention output matches within two ulp of its dtype at the result plus one rounding of the dtype's
    precision at sum p|v| / sum p: the kernel computes the scores and the softmax in float32 and rounds the
    probabilities to the inputs' dtype before the second matmul (each probability within half an ulp of that dtype)."""
    got = _bf(got, dtype).reshape(want.shape)
    mant = {"float16": 10, "bfloat16": 7, "float32": 23}[dtype]
    allowed = 2 * np.exp2(np.floor(np.log2(np.maximum(np.abs(want), 2.0 ** -14))) - mant) + np.exp2(-mant) * mag
    err = np.abs(got - want)
    return bool(np.all(err <= allowed)) and bool(np.isfinite(got).all()), float(np.max(err / allowed))


def _layout(x, layout: str):
    "A BNSD array in the op's layout (BSND, or BSH: N and D merged)."
    if layout == "BNSD": return x
    x = x.transpose(0, 2, 1, 3)
    return x if layout == "BSND" else x.reshape(x.shape[0], x.shape[1], -1)


def in_layout(t, layout: str):
    "A BNSD tensor in the op's layout (a bfloat16 one moved through its bits)."
    if layout == "BNSD": return t
    bits = t.view(torch.int16).numpy() if t.dtype == torch.bfloat16 else t.numpy()
    return torch.from_numpy(np.ascontiguousarray(_layout(bits, layout))).view(t.dtype)


def qkv(rng, b: int, n: int, nkv: int, sq: int, skv: int, d: int, dtype: str):
    "Query (B, N, Sq, D), key and value (B, Nkv, Skv, D), in BNSD, drawn in that order: each (the op's tensor, its values)."
    return tensor(rng, (b, n, sq, d), dtype), tensor(rng, (b, nkv, skv, d), dtype), tensor(rng, (b, nkv, skv, d), dtype)


def _err(r) -> str:
    return '; '.join(d.render().splitlines()[0] for d in r.run.diagnostics if d.severity == 'error')[:400]


FA = "attention/flash_attention_score"
# FlashAttentionScore's OpDef (op_host/flash_attention_score_def.cpp) declares no attribute at the pinned commit; its
# TilingFunc reads them by position, as the op's l0 API hands them over (op_host/op_api/flash_attention_score.cpp,
# OP_ATTR(...)): these names and kinds, in that order
FA_ATTRS = [("scale_value", "float"), ("keep_prob", "float"), ("pre_tockens", "int"), ("next_tockens", "int"),
            ("head_num", "int"), ("input_layout", "str"), ("inner_precise", "int"), ("sparse_mode", "int"),
            ("pse_type", "int"), ("seed", "int"), ("offset", "int"), ("out_dtype", "int"), ("softmax_out_layout", "str")]


def flash_attention_score(g, b: int, n: int, nkv: int, sq: int, skv: int, d: int, layout: str, dtype: str,
                          causal: bool, seed: int) -> str:
    """FlashAttentionScore forward (docs/aclnnFlashAttentionScore.md: attention_out = Dropout(Softmax(Mask(scale *
    (pse + Q K^T), atten_mask)), keep_prob) V; here no pse, keep_prob 1, so no dropout). `causal`: the whole [Sq, Skv]
    mask (1 = left out) with sparse_mode 0 and next_tokens 0, which the document asks to agree with it. The op's
    attributes as its l0 API passes them (FA_ATTRS; pse_type 1, as aclnnFlashAttentionScore gives it). softmax_max and
    softmax_sum ([B, N, Sq, 8], "for the backward") are compared too, as the rows' max of the scaled, masked scores and
    their sum of exp(score - max), within 2^-20 of their magnitude (float32, computed from float32 scores)."""
    import dataclasses
    from ascendcraft.opproject import OpAttr
    proj, settings = project(REPO, FA, *g)
    if not proj.op.attrs:
        proj = dataclasses.replace(proj, op=dataclasses.replace(proj.op, attrs=[OpAttr(a, kind) for a, kind in FA_ATTRS]))
    rng = np.random.default_rng(seed)
    (q, qv), (k, kv), (v, vv) = qkv(rng, b, n, nkv, sq, skv, d, dtype)
    scale = 1 / np.sqrt(d)
    lay = lambda t: in_layout(t, layout)
    mask = np.triu(np.ones((sq, skv), bool), 1)
    inputs = {"query": lay(q), "key": lay(k), "value": lay(v)}
    if causal: inputs["atten_mask"] = torch.from_numpy(mask.astype(np.uint8))
    attrs = {"scale_value": float(scale), "keep_prob": 1.0, "pre_tockens": 2147483647,
             "next_tockens": 0 if causal else 2147483647, "head_num": n, "input_layout": layout, "inner_precise": 0,
             "sparse_mode": 0, "pse_type": 1, "seed": 0, "offset": 0, "out_dtype": 0, "softmax_out_layout": ""}
    want, mag, mx, total = attention_reference(qv, kv, vv, scale, mask if causal else None)
    t0 = time.time()
    odt = dtype if dtype == "bfloat16" else np.dtype(dtype)
    out_shape = tuple(lay(q).shape)
    r = run_project(proj, inputs, attrs=attrs, settings=settings,
                    outputs={"softmax_max": ((b, n, sq, 8), np.float32), "softmax_sum": ((b, n, sq, 8), np.float32),
                             "softmax_out": ((1,), odt), "attention_out": (out_shape, odt)})
    name = f"flash_attention_score {dtype} {layout} B{b} N{n}/{nkv} Sq{sq} Skv{skv} D{d}{' causal' if causal else ''}"
    if not r.run.ok: return f"{name}: ERROR ({_err(r)})"
    got = np.asarray(r.outputs["attention_out"])   # (bfloat16: its raw bits, which attention_check reads)
    ok, worst = attention_check(got, _layout(want, layout), _layout(mag, layout), dtype)
    side = []
    for out, ref in (("softmax_max", mx), ("softmax_sum", total)):
        g8 = np.asarray(r.outputs[out], np.float64)
        e = float(np.max(np.abs(g8 - ref[..., None]) / (2.0 ** -20 * np.maximum(np.abs(ref[..., None]), 1.0))))
        side.append(f"{out} {e:.2f}")
        ok &= e <= 1.0
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: worst of allowed "
            f"attention_out {worst:.2f}, {', '.join(side)} {'match' if ok else 'MISMATCH'}")


PFA = "attention/prompt_flash_attention"


def run_attention_out(name: str, proj, inputs: dict, attrs: dict, shape: tuple, want, mag, layout: str, dtype: str,
                      settings, extra_outputs: dict | None = None) -> str:
    """Run an attention op project whose output `attention_out` (of `shape`, in `dtype`; `extra_outputs` the others,
    not compared) is compared with the reference `want` (BNSD; `mag` its magnitude for the rule) laid out as `layout`:
    the case's line."""
    t0 = time.time()
    odt = dtype if dtype == "bfloat16" else np.dtype(dtype)
    r = run_project(proj, inputs, attrs=attrs, outputs={"attention_out": (shape, odt), **(extra_outputs or {})},
                    settings=settings)
    if not r.run.ok: return f"{name}: ERROR ({_err(r)})"
    got = np.asarray(r.outputs["attention_out"])   # (bfloat16: its raw bits, which attention_check reads)
    ok, worst = attention_check(got, _layout(want, layout), _layout(mag, layout), dtype)
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: worst {worst:.2f} of "
            f"allowed {'match' if ok else 'MISMATCH'}")


def prompt_flash_attention(g, b: int, n: int, nkv: int, sq: int, skv: int, d: int, layout: str, dtype: str,
                           mask: str, seed: int) -> str:
    """PromptFlashAttention (docs/aclnnPromptFlashAttentionV3.md: Attention(Q, K, V) = Softmax(scale * Q K^T) V, an
    attention mask's 1 taking a position out). `mask`: "none" (sparse_mode 0, no mask), "full" (sparse_mode 0 with the
    whole [Sq, Skv] causal mask, next_tokens 0 as the document asks the mask and the tokens to agree) or "rightdown"
    (sparse_mode 3: the document's optimised 2048 x 2048 mask, the causal triangle anchored at the bottom right).
    The project is linked on the host side alone and the run builds the instance of the key its tiling chose
    (`project_host_linked`): its whole-project build compiles every instance of its tiling-template kernel, which
    went past the 600 s build timeout at load 17 (forty-fifth round)."""
    proj, settings = project_host_linked(REPO, PFA, *g)
    rng = np.random.default_rng(seed)
    (q, qv), (k, kv), (v, vv) = qkv(rng, b, n, nkv, sq, skv, d, dtype)
    scale = 1 / np.sqrt(d)
    lay = lambda t: in_layout(t, layout)
    causal = np.triu(np.ones((sq, skv), bool), 1 + (skv - sq if mask == "rightdown" else 0))
    inputs = {"query": lay(q), "key": lay(k), "value": lay(v)}
    attrs = {"num_heads": n, "scale_value": float(scale), "input_layout": layout, "num_key_value_heads": nkv,
             "pre_tokens": 2147483647, "next_tokens": 2147483647 if mask == "none" else 0,
             "sparse_mode": 3 if mask == "rightdown" else 0}
    if mask == "full": inputs["atten_mask"] = torch.from_numpy(causal.astype(np.uint8))
    if mask == "rightdown": inputs["atten_mask"] = torch.from_numpy(np.triu(np.ones((2048, 2048), np.uint8), 1))
    want, mag, _, _ = attention_reference(qv, kv, vv, scale, causal if mask != "none" else None)
    name = f"prompt_flash_attention {dtype} {layout} B{b} N{n}/{nkv} Sq{sq} Skv{skv} D{d} mask {mask}"
    return run_attention_out(name, proj, inputs, attrs, tuple(lay(q).shape), want, mag, layout, dtype, settings)


FIA = "attention/fused_infer_attention_score"
_HOST_LINKED: dict = {}


def project_host_linked(repo: str, path: str, gitdirs: dict, keep: Path | None):
    """The op project at the corpus's pinned commit, materialised as `corpus.py run` does, its link rounds run on the
    host side alone (`build_project(tiling_only=)`: the tiling program with an empty kernel) instead of the whole
    kernel: fused_infer_attention_score's tiling-template kernel compiles every instance in a project build (past the
    600 s build timeout), where a run builds the instance of the key its tiling chose (`run_project`)."""
    if (repo, path) in _HOST_LINKED: return _HOST_LINKED[(repo, path)]
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == repo and e["path"] == path)
    gitdir = gitdirs.get(repo) or str(MIRRORS / repo.replace("/", "+") / "repo")
    folder = (keep / path.replace("/", "_")) if keep else Path(tempfile.mkdtemp(prefix="fia_"))
    if keep and folder.exists(): shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    corpus.materialise(entry, gitdir, folder)
    s = load_settings()
    settings = s.replace(cxxflags=f"{s.cxxflags} {corpus.BUILD_DEFINES[repo]}") if repo in corpus.BUILD_DEFINES else s
    op = load_project(folder).op
    host = lambda: build_project(load_project(folder), 0, settings=settings,
                                 tiling_only=len(op.inputs) + len(op.outputs) + 2)
    b, still = corpus.link_until_settled(entry, gitdir, folder, host(), host, set())
    assert b.ok, f"{path}: the host side does not build ({still}):\n" + "\n".join(d.render() for d in b.diagnostics)
    _HOST_LINKED[(repo, path)] = (load_project(folder), settings)
    return _HOST_LINKED[(repo, path)]


def fused_infer_attention_score(g, b: int, n: int, nkv: int, sq: int, skv: int, d: int, layout: str, dtype: str,
                                mask: str, seed: int) -> str:
    """FusedInferAttentionScore (docs/aclnnFusedInferAttentionScoreV4.md: Attention(Q, K, V) = Softmax(scale * Q K^T) V,
    the prefill (PromptFlashAttention) and decode (IncreFlashAttention) cases in one op; key and value are tensor lists
    of one tensor; softmax_lse_flag false, so softmax_lse is the {1} tensor the document names). `mask`: "none", or
    "rightdown" (sparse_mode 3: the document's 2048 x 2048 mask, the causal triangle anchored at the bottom right)."""
    proj, settings = project_host_linked(REPO, FIA, *g)
    rng = np.random.default_rng(seed)
    (q, qv), (k, kv), (v, vv) = qkv(rng, b, n, nkv, sq, skv, d, dtype)
    scale = 1 / np.sqrt(d)
    lay = lambda t: in_layout(t, layout)
    causal = np.triu(np.ones((sq, skv), bool), 1 + skv - sq)
    inputs = {"query": lay(q), "key": [lay(k)], "value": [lay(v)]}
    attrs = {"num_heads": n, "scale": float(scale), "input_layout": layout, "num_key_value_heads": nkv,
             "pre_tokens": 2147483647, "next_tokens": 2147483647 if mask == "none" else 0,
             "sparse_mode": 3 if mask == "rightdown" else 0}
    if mask == "rightdown": inputs["atten_mask"] = torch.from_numpy(np.triu(np.ones((2048, 2048), np.uint8), 1))
    want, mag, _, _ = attention_reference(qv, kv, vv, scale, causal if mask != "none" else None)
    name = f"fused_infer_attention_score {dtype} {layout} B{b} N{n}/{nkv} Sq{sq} Skv{skv} D{d} mask {mask}"
    return run_attention_out(name, proj, inputs, attrs, tuple(lay(q).shape), want, mag, layout, dtype, settings,
                             extra_outputs={"softmax_lse": ((1,), np.float32)})


IFA = "attention/incre_flash_attention"


def incre_flash_attention(g, b: int, n: int, nkv: int, skv: int, d: int, layout: str, dtype: str, mask: bool,
                          lengths: list | None, seed: int) -> str:
    """IncreFlashAttention (docs/aclnnIncreFlashAttentionV4.md: one query token, Softmax(scale * Q K^T) V over the KV
    cache; key and value are tensor lists of one tensor). `mask`: a random (B, 1, 1, Skv) mask of the document's shapes
    (1 = left out; never a whole row); `lengths`: actual_seq_lengths, the KV length of each batch (the rest ignored)."""
    proj, settings = project(REPO, IFA, *g)
    rng = np.random.default_rng(seed)
    (q, qv), (k, kv), (v, vv) = qkv(rng, b, n, nkv, 1, skv, d, dtype)
    scale = 1 / np.sqrt(d)
    lay = lambda t: in_layout(t, layout)
    given = rng.random((b, 1, 1, skv)) < 0.3       # the mask input (1: left out), never the first position
    given[..., 0] = False
    masked = given if mask else np.zeros_like(given)
    if lengths is not None:                         # past a batch's actual length: not part of its cache
        masked = masked | (np.arange(skv)[None, None, None, :] >= np.array(lengths)[:, None, None, None])
    inputs = {"query": lay(q), "key": [lay(k)], "value": [lay(v)]}
    if mask: inputs["atten_mask"] = torch.from_numpy(given.astype(np.uint8))
    if lengths is not None: inputs["actual_seq_lengths"] = torch.tensor(lengths, dtype=torch.int64)
    attrs = {"num_heads": n, "scale_value": float(scale), "input_layout": layout, "num_key_value_heads": nkv}
    want, mag, _, _ = attention_reference(qv, kv, vv, scale, masked)
    name = (f"incre_flash_attention {dtype} {layout} B{b} N{n}/{nkv} Skv{skv} D{d}{' mask' if mask else ''}"
            f"{f' actual_seq_lengths {lengths}' if lengths else ''}")
    return run_attention_out(name, proj, inputs, attrs, tuple(lay(q).shape), want, mag, layout, dtype, settings)


GMM = "gmm/grouped_matmul"


def grouped_matmul(g, m: int, k: int, n: int, groups: list, list_type: int, dtype: str, bias: bool, seed: int) -> str:
    """GroupedMatmul, the non-quantised case of its README (gmm/grouped_matmul/README.md: y_i = x_i x weight_i + bias_i),
    group_type 0 (the m axis split) with single tensors (split_item 3: x [M, K], weight [g, K, N], y [M, N]). `groups`
    are the rows of each group; group_list gives them as the README's group_list_type says: 0 cumulative ends, 1
    counts. Rows past the groups' sum are not the op's (the README: the sum is at most M) and are not compared. Float64
    reference from the rounded inputs; a row matches within one ulp of the output dtype plus the float32
    accumulation's K * 2^-24 * sum|x * w| (hicann_by_hand.compare); the bias (float16 for float16, float32 for
    bfloat16 and float32, as the README's table has it) is added to the float32 accumulator."""
    proj, settings = project(REPO, GMM, *g)
    rng = np.random.default_rng(seed)
    x, xv = tensor(rng, (m, k), dtype)
    w, wv = tensor(rng, (len(groups), k, n), dtype)
    bdt = "float16" if dtype == "float16" else "float32"
    b, bv = tensor(rng, (len(groups), n), bdt) if bias else (None, np.zeros((len(groups), n)))
    ends = np.cumsum(groups)
    glist = torch.tensor(ends if list_type == 0 else groups, dtype=torch.int64)
    want, mag = np.zeros((m, n)), np.zeros((m, n))
    for i, (lo, hi) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
        want[lo:hi] = xv[lo:hi] @ wv[i] + bv[i]
        mag[lo:hi] = np.abs(xv[lo:hi]) @ np.abs(wv[i]) + np.abs(bv[i])
    t0 = time.time()
    odt = dtype if dtype == "bfloat16" else np.dtype(dtype)
    # the quantisation lists are empty tensor lists, as aclnnGroupedMatmul hands over an absent list (DYNAMIC inputs)
    r = run_project(proj, {"x": [x], "weight": [w], "bias": [b] if bias else [], "scale": [], "offset": [],
                           "antiquant_scale": [], "antiquant_offset": [], "group_list": glist},
                    attrs={"split_item": 3, "group_type": 0, "group_list_type": list_type},
                    outputs={"y": [((m, n), odt)]}, settings=settings)
    name = (f"grouped_matmul {dtype} x[{m}, {k}] weight[{len(groups)}, {k}, {n}] groups {groups} "
            f"group_list_type {list_type}{' bias' if bias else ''}")
    if not r.run.ok:
        return f"{name}: ERROR ({'; '.join(d.render().splitlines()[0] for d in r.run.diagnostics if d.severity == 'error')[:400]})"
    rows = int(ends[-1])
    got = np.asarray(r.outputs["y"][0])
    ok, err, worst = compare(got[:rows], want[:rows], mag[:rows], dtype, k)
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: max abs error {err:.3g} "
            f"({worst:.2f} of allowed) {'match' if ok else 'MISMATCH'}")


GMM_SWIGLU = "gmm/grouped_matmul_swiglu_quant"


def grouped_matmul_swiglu_quant(g, m: int, k: int, n: int, groups: list, scale_dtype: str, seed: int) -> str:
    """GroupedMatmulSwigluQuant (gmm/grouped_matmul_swiglu_quant/README.md, its formula): per group i (group_list the
    cumulative token ends), C_i = (X_i . W_i) * x_scale_i * w_scale_i (int8 x, int8 weight, the int32 product scaled per
    token and per channel), C_act, gate = split(C_i) (the first and the second N/2 columns), S_i = Swish(C_act) * gate,
    Swish(x) = x / (1 + e^-x); symmetric quantisation per row: Q_scale = max|S| / 127, Q = round(S / Q_scale) (int8).
    The weight is given in the FRACTAL_NZ layout its A2 columns declare (storage [E, N/32, K/16, 16, 32]); weight_scale
    in `scale_dtype` (float32 / bfloat16, the definition's columns 0 and 1). Rows past the groups' sum are not the op's
    (the README: not written) and are not compared. Float64 reference from the exact integer product; a match is
    Q_scale within 2^-18 relative and each Q within 1 of the reference (S / Q_scale is rounded to an integer in float32
    arithmetic: a value within a few ulp of a half-integer may round either way)."""
    proj, settings = project(REPO, GMM_SWIGLU, *g)
    rng = np.random.default_rng(seed)
    e = len(groups)
    xv = rng.integers(-128, 128, (m, k)).astype(np.int64)
    wv = rng.integers(-128, 128, (e, k, n)).astype(np.int64)
    ws = torch.from_numpy(rng.uniform(0.001, 0.01, (e, n)).astype(np.float32)).to(getattr(torch, scale_dtype))
    xs = torch.from_numpy(rng.uniform(0.001, 0.01, m).astype(np.float32))
    wsv, xsv = ws.double().numpy(), xs.double().numpy()
    nz = torch.from_numpy(wv.astype(np.int8)).reshape(e, k // 16, 16, n // 32, 32).permute(0, 3, 1, 2, 4).contiguous()
    ends = np.cumsum(groups)
    rows = int(ends[-1])
    q_want, s_want = np.zeros((m, n // 2)), np.zeros(m)
    for i, (lo, hi) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
        c = (xv[lo:hi] @ wv[i]).astype(np.float64) * xsv[lo:hi, None] * wsv[i][None, :]
        act, gate = c[:, :n // 2], c[:, n // 2:]
        sw = act / (1 + np.exp(-act)) * gate
        s_want[lo:hi] = np.abs(sw).max(axis=1) / 127
        q_want[lo:hi] = np.round(sw / s_want[lo:hi, None])
    t0 = time.time()
    r = run_project(proj, {"x": torch.from_numpy(xv.astype(np.int8)), "weight": nz, "weight_scale": ws, "x_scale": xs,
                           "group_list": torch.tensor(ends, dtype=torch.int64)},
                    attrs={"is_enable_weight_assistance_matrix": False, "dequant_mode": 0},
                    outputs={"y": ((m, n // 2), np.int8), "y_scale": ((m,), np.float32)}, settings=settings)
    name = f"grouped_matmul_swiglu_quant x[{m}, {k}] weight[{e}, {k}, {n}] NZ groups {groups} weight_scale {scale_dtype}"
    if not r.run.ok: return f"{name}: ERROR ({_err(r)})"
    q = np.asarray(r.outputs["y"])[:rows].astype(np.int64)
    sc = np.asarray(r.outputs["y_scale"])[:rows].astype(np.float64)
    s_rel = float(np.max(np.abs(sc - s_want[:rows]) / s_want[:rows])) if rows else 0.0
    q_err = int(np.max(np.abs(q - q_want[:rows]))) if rows else 0
    off = int(np.count_nonzero(q != q_want[:rows]))
    ok = s_rel <= 2.0 ** -18 and q_err <= 1
    # the run's warnings, by place (its Quant() DeQues quantScaleOutQueue once per row after one EnQue: run_project's
    # CHIP rules carry that out as the NPU's depth-1 queue does, RunRules.extra_deque, and say where)
    warned = sorted({f"{d.kind} at {Path(d.file or '?').name}:{d.line}" for d in r.run.diagnostics if d.severity == "warning"})
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: y_scale max rel error "
            f"{s_rel:.3g}, y max error {q_err} ({off} of {q.size} off by one) {'match' if ok else 'MISMATCH'}"
            + (f"; warnings: {', '.join(warned)}" if warned else ""))


GMM_ADD = "gmm/grouped_matmul_add"


def grouped_matmul_add(g, k_groups: list, m: int, n: int, dtype: str, seed: int) -> str:
    """GroupedMatmulAdd (gmm/grouped_matmul_add/README.md: y_i = x_i x weight_i + y_i, the K axis grouped, y updated in
    place), as its example calls it: transpose_x true (x stored [K, M]), weight [K, N], group_type 2, group_list the
    cumulative K ends; y [g * M, N] float32. Float64 reference from the rounded inputs; a match is within one float32
    ulp plus the accumulation's K_i * 2^-24 * (|x_i|^T |w_i| + |y_i|) (hicann_by_hand.compare)."""
    proj, settings = project(REPO, GMM_ADD, *g)
    rng = np.random.default_rng(seed)
    k = int(sum(k_groups))
    x, xv = tensor(rng, (k, m), dtype)
    w, wv = tensor(rng, (k, n), dtype)
    y, yv = tensor(rng, (len(k_groups) * m, n), "float32")
    ends = np.cumsum(k_groups)
    want, mag = yv.copy(), np.abs(yv).copy()
    for i, (lo, hi) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
        want[i * m:(i + 1) * m] += xv[lo:hi].T @ wv[lo:hi]
        mag[i * m:(i + 1) * m] += np.abs(xv[lo:hi]).T @ np.abs(wv[lo:hi])
    t0 = time.time()
    r = run_project(proj, {"x": x, "weight": w, "group_list": torch.tensor(ends, dtype=torch.int64), "y": y},
                    attrs={"transpose_x": True, "transpose_weight": False, "group_type": 2}, settings=settings,
                    outputs={"y": ((len(k_groups) * m, n), np.float32)})
    name = f"grouped_matmul_add {dtype} x[{k}, {m}] weight[{k}, {n}] K groups {k_groups}"
    if not r.run.ok: return f"{name}: ERROR ({_err(r)})"
    ok, err, worst = compare(np.asarray(r.outputs["y"]), want, mag, "float32", max(k_groups))
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: max abs error {err:.3g} "
            f"({worst:.2f} of allowed) {'match' if ok else 'MISMATCH'}")


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
    # GroupedMatmul, m split: cumulative group_list with a bias; counts with an empty group; float32
    ("gmm", lambda g: grouped_matmul(g, 40, 64, 48, [10, 15, 15], 0, "float16", True, 16)),
    ("gmm", lambda g: grouped_matmul(g, 32, 96, 32, [7, 0, 20], 1, "bfloat16", False, 17)),
    ("gmm", lambda g: grouped_matmul(g, 24, 32, 64, [16, 8], 1, "float32", True, 18)),
    # GroupedMatmulSwigluQuant: int8, NZ weight; float32 weight_scale with an empty group; bfloat16 weight_scale
    ("gmm_swiglu_quant", lambda g: grouped_matmul_swiglu_quant(g, 24, 64, 128, [8, 0, 12], "float32", 32)),
    ("gmm_swiglu_quant", lambda g: grouped_matmul_swiglu_quant(g, 32, 128, 256, [16, 16], "bfloat16", 33)),
    # GroupedMatmulAdd: K split in groups, y accumulated in place
    ("gmm_add", lambda g: grouped_matmul_add(g, [32, 64], 32, 48, "float16", 28)),
    ("gmm_add", lambda g: grouped_matmul_add(g, [16, 0, 48], 16, 32, "bfloat16", 29)),
    # FlashAttentionScore forward: no mask; the causal mask; GQA in BSND
    ("fa", lambda g: flash_attention_score(g, 1, 2, 2, 32, 32, 64, "BNSD", "float16", False, 25)),
    ("fa", lambda g: flash_attention_score(g, 1, 2, 2, 48, 48, 64, "BNSD", "float16", True, 26)),
    ("fa", lambda g: flash_attention_score(g, 2, 4, 2, 24, 40, 64, "BSND", "float16", False, 27)),
    ("fa", lambda g: flash_attention_score(g, 1, 4, 1, 40, 40, 64, "BSH", "bfloat16", True, 31)),   # MQA, causal
    # PromptFlashAttention: no mask; the whole causal mask; GQA with the right-down causal mask (sparse_mode 3)
    ("pfa", lambda g: prompt_flash_attention(g, 1, 2, 2, 32, 32, 64, "BNSD", "float16", "none", 19)),
    ("pfa", lambda g: prompt_flash_attention(g, 1, 2, 2, 48, 48, 64, "BNSD", "float16", "full", 20)),
    ("pfa", lambda g: prompt_flash_attention(g, 2, 4, 2, 16, 40, 32, "BSH", "float16", "rightdown", 21)),
    # IncreFlashAttention: one query token; GQA with a mask; actual_seq_lengths
    ("ifa", lambda g: incre_flash_attention(g, 2, 4, 4, 64, 64, "BNSD", "float16", False, None, 22)),
    ("ifa", lambda g: incre_flash_attention(g, 2, 8, 2, 100, 64, "BNSD", "float16", True, None, 23)),
    ("ifa", lambda g: incre_flash_attention(g, 2, 4, 4, 80, 64, "BSH", "float16", False, [37, 80], 24)),
    # FusedInferAttentionScore (prefill): no mask; GQA with the right-down causal mask (sparse_mode 3)
    ("fia", lambda g: fused_infer_attention_score(g, 1, 2, 2, 32, 32, 64, "BNSD", "float16", "none", 32)),
    ("fia", lambda g: fused_infer_attention_score(g, 2, 4, 2, 16, 40, 32, "BSH", "float16", "rightdown", 33)),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--keep", type=Path, default=None, help="materialise the project here (kept after the run)")
    ap.add_argument("--op", action="append", choices=sorted({op for op, _ in RUNS}),
                    help="only this op's cases (repeat for several): rope, apply_rope, rope_grad, gmm, gmm_add, fa, pfa, ifa, fia; default all")
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
