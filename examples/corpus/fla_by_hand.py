"""flash-linear-attention-npu op projects run on the emulator against their own tests' reference: each op materialised
and linked at the corpus's pinned commit as `corpus.py run` builds it (hicann_by_hand.project), its own TilingFunc and
kernel run by opproject.run_project on cases of its test script, with the attributes its OpDef names. The reference
is the formula of the op's test (re-expressed here, computed in float64 on the same rounded inputs), and the check is
that test's own tolerance (torch.testing.assert_close: |got - want| <= atol + rtol * |want|).

    python examples/corpus/fla_by_hand.py [--only NAME ...] [--keep DIR] [--git OWNER/NAME=DIR]

Ops:
- chunk_local_cumsum (fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_local_cumsum, test/test.py): g of [B, H, T]; within each
  chunk of `chunk_size` steps along T (of each sequence, where cu_seqlens splits T into sequences), the running sum
  (from the chunk's end when `reverse`), times `scale`, in the output dtype `output_dtype` names ("same": g's). The
  varlen cases pass cu_seqlens and the (sequence, block) pairs of blocks of next_pow2(2^17 / chunk_size) steps, as the
  test's prepare_chunk_indices gives them. Tolerances by output dtype: float32 1e-4 / 1e-4, float16 1e-3 / 2e-3,
  bfloat16 2e-2 / 5e-2 (rtol / atol).

- recurrent_gated_delta_rule (fla/ops/ascendc/gdn/recurrent_gdn/recurrent_gated_delta_rule, tests/pta/): decode-time
  gated delta rule over [T, heads, dim] tokens; actual_seq_lengths starts with the tokens before the first sequence
  (left alone), then each sequence's length; per sequence and value head, from the state at ssm_state_indices of its
  first token: S = S * exp(g_t), S += beta_t * (v_t - S k_t) k_t^T, o_t = S (scale * q_t), the state stored back at
  ssm_state_indices[t] (the key head of a value head: h_v // (NV / NK)). The case of test_accuracy.py's main()
  (bs 2, 2 tokens each, NK 4, NV 8, dk = dv = 128, with g; its inputs as make_inputs draws them: float32 state),
  checked by its compare_tensors_by_ratio rule (rtol 0.01, atol 0.004) on out and on the state.

Prints one line per case: the tiling key and block dim the op's TilingFunc chose, the worst error in units of the
allowed one, and the verdict (match / MISMATCH / ERROR with the emulator's first diagnostic). `corpus.py run --match`
calls the same runs for these entries (match_entry).
"""
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402
from hicann_by_hand import project, run_ops_main  # noqa: E402

from ascendcraft.opproject import run_project  # noqa: E402

REPO = "flashserve/flash-linear-attention-npu"
TOL = {torch.float32: (1e-4, 1e-4), torch.float16: (1e-3, 2e-3), torch.bfloat16: (2e-2, 5e-2)}   # (rtol, atol)
NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}


def local_cumsum(g: torch.Tensor, chunk: int, reverse: bool, scale: float, bounds: list[int]) -> torch.Tensor:
    "The chunk-local running sum along the last axis, chunks restarting at each sequence start in `bounds`, in float64."
    x, out = g.double(), torch.zeros(g.shape, dtype=torch.float64)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        for start in range(lo, hi, chunk):
            seg = x[..., start:min(start + chunk, hi)]
            out[..., start:start + seg.shape[-1]] = (seg.flip(-1).cumsum(-1).flip(-1) if reverse else seg.cumsum(-1)) * scale
    return out


def block_pairs(bounds: list[int], block: int) -> torch.Tensor:
    "(sequence, block) of each block of `block` steps of each sequence, flattened (the test's chunk indices)."
    pairs = [(s, b) for s, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])) for b in range(-(-(hi - lo) // block))]
    return torch.tensor(pairs, dtype=torch.int64).reshape(-1)


def chunk_local_cumsum():
    """The cases of test/test.py's main() at its own shapes: every output dtype for a float32 / float16 input of
    (2, 3, 129), forward and reversed-with-scale (9, 2, 128) per dtype, the long float16 row (1, 1, 8192), and the
    varlen forward / reversed cases (1, 8, 3580)."""
    for dt, spec in ((torch.float32, "float32"), (torch.float32, "float16"), (torch.float32, "bfloat16"),
                     (torch.float16, "float32"), (torch.float16, "same"), (torch.bfloat16, "same")):
        yield (2, 3, 129), 64, False, 1.0, None, dt, spec
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        yield (9, 2, 128), 64, False, 1.0, None, dt, "same"
        yield (9, 2, 128), 64, True, 0.25, None, dt, "same"
    yield (1, 1, 8192), 64, False, 1.0, None, torch.float16, "same"
    yield (1, 8, 3580), 64, False, 1.0, [0, 3580], torch.float32, "float32"
    yield (1, 8, 3580), 64, True, -0.5, [0, 1024, 2048, 3580], torch.bfloat16, "float32"


def run_chunk_local_cumsum(g_, name: str):
    proj, settings = project(REPO, "fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_local_cumsum", *g_)
    rng = np.random.default_rng(11)
    for shape, chunk, reverse, scale, seqs, dt, spec in chunk_local_cumsum():
        out_dt = dt if spec == "same" else getattr(torch, spec)
        g = torch.from_numpy(rng.standard_normal(shape).astype(np.float32)).to(dt)
        bounds = seqs or [0, shape[-1]]
        want = local_cumsum(g, chunk, reverse, scale, bounds)
        inputs = {"g": g, "cu_seqlens": None, "chunk_indices_out": None}
        if seqs is not None:
            inputs["cu_seqlens"] = torch.tensor(seqs, dtype=torch.int64)
            inputs["chunk_indices_out"] = block_pairs(seqs, 1 << ((1 << 17) // chunk - 1).bit_length())
        attrs = {"chunk_size": chunk, "reverse": reverse, "scale": scale, "head_first": True, "output_dtype": spec}
        rtol, atol = TOL[out_dt]
        label = f"{name} {NAMES[dt]}->{NAMES[out_dt]} {shape} chunk={chunk} reverse={reverse} scale={scale} seqs={seqs}"
        t0 = time.perf_counter()
        try:
            r = run_project(proj, inputs, attrs=attrs, outputs={"out": (shape, NAMES[out_dt])}, settings=settings)
        except Exception as e:   # the tiling refused the case, the kernel did not build: the line says why
            yield f"{label}: ERROR {type(e).__name__}: {str(e)[:300]}"
            continue
        if not r.run.ok:
            yield f"{label}: ERROR {r.run.diagnostics[0].render()[:300] if r.run.diagnostics else r.run}"
            continue
        got = r.outputs["out"]
        got = torch.from_numpy(got.view(np.int16)).view(torch.bfloat16) if out_dt == torch.bfloat16 else torch.from_numpy(got)
        # the reference rounded to the output dtype, as the test's reference_impl returns it
        ref = want.float().to(out_dt).double()
        worst = float(((got.double() - ref).abs() / (atol + rtol * ref.abs())).max())
        verdict = "match" if worst <= 1 else "MISMATCH"
        yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, worst {worst:.3g} of allowed, "
               f"{time.perf_counter() - t0:.1f} s: {verdict}")


def gated_delta_rule(q, k, v, state, beta, scale, seq_lengths, state_idx, g):
    "The recurrence in float64: (out [T, NV, dv], state [slots, NV, dv, dk]); tokens before the first sequence stay 0."
    T, NK, _ = q.shape
    NV, dv = v.shape[1], v.shape[2]
    out, S_all = torch.zeros(T, NV, dv, dtype=torch.float64), state.double().clone()
    qs, kd, vd, bd = q.double() * scale, k.double(), v.double(), beta.double()
    start = int(seq_lengths[0])
    for length in seq_lengths[1:].tolist():
        for hv in range(NV):
            hk = hv // (NV // NK)
            S = S_all[int(state_idx[start]), hv].clone()
            for t in range(start, start + length):
                S = S * torch.exp(g[t, hv].double())
                S = S + torch.outer(bd[t, hv] * (vd[t, hv] - S @ kd[t, hk]), kd[t, hk])
                out[t, hv] = S @ qs[t, hk]
                S_all[int(state_idx[t]), hv] = S
        start += length
    return out, S_all


def run_recurrent_gated_delta_rule(g_, name: str):
    proj, settings = project(REPO, "fla/ops/ascendc/gdn/recurrent_gdn/recurrent_gated_delta_rule", *g_)
    # its tiling reads a temporary after its lifetime: RecurrentGatedDeltaRuleTilingProcessor keeps a reference member
    # bound to BuildProcessorContext()'s result (op_host/recurrent_gated_delta_rule_tiling.cpp, AnalyzeShapes and
    # CalUbSize), undefined behaviour that crashes here at -O1 (the dead temporary's stack slot reused). Built with
    # g++'s -fstack-reuse=none, the temporary's storage keeps its values, as the op's own build evidently had them.
    settings = settings.replace(cxxflags=f"{settings.cxxflags} -fstack-reuse=none")
    torch.manual_seed(42)
    rtol, atol = 0.01, 0.004
    for bs, mtp, nk, nv, dk, dv in ((2, 2, 4, 8, 128, 128),):
        seq_lengths = torch.cat([torch.tensor([1], dtype=torch.int32), torch.full((bs,), mtp, dtype=torch.int32)])
        t = int(seq_lengths.sum())
        state = torch.rand((t, nv, dv, dk), dtype=torch.float32)
        q = torch.nn.functional.normalize(torch.rand((t, nk, dk), dtype=torch.bfloat16), p=2, dim=-1)
        k = torch.nn.functional.normalize(torch.rand((t, nk, dk), dtype=torch.bfloat16), p=2, dim=-1)
        v = torch.rand((t, nv, dv), dtype=torch.bfloat16)
        beta = torch.rand((t, nv), dtype=torch.bfloat16)
        gate = -torch.rand((t, nv), dtype=torch.float32)
        idx = torch.arange(t, dtype=torch.int32)
        scale = dk ** -0.5
        want_out, want_state = gated_delta_rule(q, k, v, state, beta, scale, seq_lengths, idx, gate)
        label = f"{name} bs={bs} mtp={mtp} nk={nk} nv={nv} dk={dk} dv={dv} g"
        t0 = time.perf_counter()
        inputs = {"query": q, "key": k, "value": v, "beta": beta, "state": state.clone(), "actual_seq_lengths": seq_lengths,
                  "ssm_state_indices": idx, "g": gate, "gk": None, "num_accepted_tokens": None}
        try:
            r = run_project(proj, inputs, attrs={"scale_value": scale}, settings=settings,
                            outputs={"out": ((t, nv, dv), "bfloat16"), "state": (tuple(state.shape), "float32")})
        except Exception as e:
            yield f"{label}: ERROR {type(e).__name__}: {str(e)[:300]}"
            continue
        if not r.run.ok:
            yield f"{label}: ERROR {r.run.diagnostics[0].render()[:300] if r.run.diagnostics else r.run}"
            continue
        got_out = torch.from_numpy(r.outputs["out"].view(np.int16)).view(torch.bfloat16).double()
        got_out[:int(seq_lengths[0])] = 0      # as the test does: the tokens before the first sequence are not compared
        got_state = torch.from_numpy(np.asarray(r.outputs["state"], np.float32)).double()
        worst = max(float(((got - want).abs() / (atol + rtol * want.abs())).max())
                    for got, want in ((got_out, want_out.to(torch.bfloat16).double()),
                                      (got_state, want_state.to(torch.bfloat16).double())))
        yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, worst {worst:.3g} of allowed, "
               f"{time.perf_counter() - t0:.1f} s: {'match' if worst <= 1 else 'MISMATCH'}")


OPS = {"chunk_local_cumsum": run_chunk_local_cumsum, "recurrent_gated_delta_rule": run_recurrent_gated_delta_rule}


# the entry (its path in the repository) each op runs for, as `corpus.py run --match` asks (match_entry)
ENTRIES = {"fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_local_cumsum": "chunk_local_cumsum",
           "fla/ops/ascendc/gdn/recurrent_gdn/recurrent_gated_delta_rule": "recurrent_gated_delta_rule"}


def match_entry(entry: dict, gitdir: str, gitdirs: dict | None = None) -> dict:
    """The entry's runs (OPS) as corpus results: match "pass" when every case matches, "mismatch" when one does not,
    "run-error" when one stops (its line says why); {} for an entry with no run here."""
    name = ENTRIES.get(entry["path"])
    if name is None: return {}
    lines = list(run_op(({**(gitdirs or {}), REPO: gitdir}, None), name))
    bad = [l for l in lines if l.endswith("MISMATCH")]
    stopped = [l for l in lines if ": ERROR " in l]
    verdict = "run-error" if stopped else "mismatch" if bad else "pass"
    return {"match": verdict, "match_detail": "; ".join(stopped or bad or [f"{len(lines)} case(s) match"])[:300]}


def run_op(g_, name: str):
    gitdirs = g_[0]
    corpus.GITDIRS.update(gitdirs)
    yield from OPS[name](g_, name)


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_op))
