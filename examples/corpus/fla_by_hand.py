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

- chunk_bwd_dqkwg (fla/ops/ascendc/gdn/chunk_gdn_bwd/chunk_bwd_dqkwg, tests/): the GDN backward's dq, dk, dw, dg of
  each chunk (cube matmuls handed to vector stages through GM). Two cases of its tests/cases.py on pta.py's inputs; the
  reference is its tests' CPU reference file itself (tests/chunk_bwd_dqkwg_cpu.py at the pinned commit, executed with
  stand-ins for its torch_npu / ct imports), and the check the op's ATK standard, the double benchmark (each output's
  max / mean relative and rms error against the float64 run at most 5 / 1.5 / 1.5 times the same-precision run's).

- chunk_scaled_dot_kkt (fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_scaled_dot_kkt, test/test.py, which runs
  torch_custom/fla_npu/test/test_npu_chunk_scaled_dot_kkt.py): every case of that precision test, fixed length and
  its varlen splits, with the test file's own inputs, reference and check, executed from the pinned commit.

Prints one line per case: the tiling key and block dim the op's TilingFunc chose, the worst error in units of the
allowed one, and the verdict (match / MISMATCH / ERROR with the emulator's first diagnostic). `corpus.py run --match`
calls the same runs for these entries (match_entry).
"""
import contextlib
import io
import json
import sys
import time
import types
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402
from hicann_by_hand import MIRRORS, project, run_ops_main, run_or_error  # noqa: E402


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
        r, failed = run_or_error(label, proj, inputs, attrs=attrs, outputs={"out": (shape, NAMES[out_dt])},
                                 settings=settings)
        if failed:
            yield failed
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
        r, failed = run_or_error(label, proj, inputs, attrs={"scale_value": scale}, settings=settings,
                                 outputs={"out": ((t, nv, dv), "bfloat16"), "state": (tuple(state.shape), "float32")})
        if failed:
            yield failed
            continue
        got_out = torch.from_numpy(r.outputs["out"].view(np.int16)).view(torch.bfloat16).double()
        got_out[:int(seq_lengths[0])] = 0      # as the test does: the tokens before the first sequence are not compared
        got_state = torch.from_numpy(np.asarray(r.outputs["state"], np.float32)).double()
        worst = max(float(((got - want).abs() / (atol + rtol * want.abs())).max())
                    for got, want in ((got_out, want_out.to(torch.bfloat16).double()),
                                      (got_state, want_state.to(torch.bfloat16).double())))
        yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, worst {worst:.3g} of allowed, "
               f"{time.perf_counter() - t0:.1f} s: {'match' if worst <= 1 else 'MISMATCH'}")


DQKWG = "fla/ops/ascendc/gdn/chunk_gdn_bwd/chunk_bwd_dqkwg"
# ATK's "cv_fused_double_benchmark" standard (tests/ATK/aclnn_chunk_bwd_dqkwg.yaml's `standard`), with the thresholds
# the repository's ATK generators give it (tests/atk/chunk_kda_fwd/gen_chunk_kda_fwd.py, L1_STANDARD): each of the
# kernel's errors against the float64 benchmark at most this many times the same-precision CPU reference's. As CANN's
# precision standard has it (cann/cannbot-skills, ops-precision-standard), the relative errors are over the elements
# whose golden value is outside the small-value domain of the output dtype, where a relative error means nothing
# (|golden| < 2^-11 half, 2^-8 bfloat16, 2^-14 float); the rms error is over every element.
DOUBLE_BENCHMARK = {"max relative": 5.0, "mean relative": 1.5, "rms": 1.5}
SMALL_VALUE = {torch.float16: 2 ** -11, torch.bfloat16: 2 ** -8, torch.float32: 2 ** -14}


def test_module(g_, path: str, stand_ins: dict[str, dict]) -> dict:
    """The namespace of a Python file of the op's tests at the corpus's pinned commit, executed as it is, with stand-in
    modules (name -> its attributes, all None) for the NPU-side imports it names but whose code the CPU reference does
    not call (torch_npu, its test harness's `ct`, fla_npu's op bindings)."""
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO and e["path"] == DQKWG)
    gitdir = g_[0].get(REPO) or str(MIRRORS / REPO.replace("/", "+") / "repo")
    text = corpus.show(gitdir, entry["commit"], path).decode()
    saved = {n: sys.modules.get(n) for n in stand_ins}
    for n, attrs in stand_ins.items():
        sys.modules[n] = types.ModuleType(n)
        for a in attrs: setattr(sys.modules[n], a, None)
    try:
        module = types.ModuleType(f"fla_test_{Path(path).stem}")   # registered: its dataclasses look their module up
        sys.modules[module.__name__] = module
        exec(compile(text, f"{REPO}@{entry['commit'][:7]}:{path}", "exec"), module.__dict__)
    finally:
        for n, m in saved.items():
            if m is None: sys.modules.pop(n, None)
            else: sys.modules[n] = m
    return module.__dict__


def error_metrics(got: torch.Tensor, golden: torch.Tensor, small: float) -> dict:
    """Max and mean relative error (|got - golden| / (|golden| + 1e-7)) where |golden| >= `small`, and the root mean
    square error over all elements, in float64."""
    got, golden = got.double(), golden.double()
    rel = ((got - golden).abs() / (golden.abs() + 1e-7))[golden.abs() >= small]
    return {"max relative": float(rel.max()) if rel.numel() else 0.0, "mean relative": float(rel.mean()) if rel.numel() else 0.0,
            "rms": float((got - golden).square().mean().sqrt())}


def chunk_bwd_dqkwg_cases():
    """Cases of its tests/cases.py (B, HV, HK, T, chunk_size, dtype, g dtype, scale, cu_seqlens, K, V), as pta.py
    runs them: case_13 (half, fixed length) and case_25 (bfloat16, varlen, two value heads per key head, V 256)."""
    yield "case_13", (1, 4, 4, 1024, 64, torch.float16, torch.float16, 0.088, None, 128, 128)
    yield "case_25", (1, 16, 8, 1024, 64, torch.bfloat16, torch.float32, 0.088, [0, 57, 143, 187, 197, 227], 128, 256)


def run_chunk_bwd_dqkwg(g_, name: str):
    """chunk_bwd_dqkwg (GDN backward: dq, dk, dw, dg of a chunk; cube and vector) through its TilingFunc and kernel, on
    pta.py's inputs for the case (q, k, w [B, HK, T, K], v, do, dv [B, HV, T, V] normal; g [B, HV, T] negative and
    decreasing along T; h, dh [B, HV, chunks, K, V] normal; w and g_gamma absent, as pta.py calls the op), against its
    tests' CPU reference tests/chunk_bwd_dqkwg_cpu.py run as it is: its float64 `benchmark` is the golden, its
    same-precision run the yardstick of DOUBLE_BENCHMARK."""
    proj, settings = project(REPO, DQKWG, *g_)
    # catlass's BlockMmadTla (block_mmad_pingpong_tla.hpp at the pinned 41bf90d, and at its HEAD) fills l0CEventList
    # only without ENABLE_UNIT_FLAG, yet with it waits and sets MTE1_M on l0CEventList[l0CListId]: a read of an
    # indeterminate member, which case_25's configuration reaches (SetFlag<MTE1_M>(-666884680) here). Its SetFlag and
    # WaitFlag are back to back on the same value, so any id in range behaves alike; g++'s -ftrivial-auto-var-init=zero
    # makes the kernel's stack objects start at zero, the id 0. The emulator's builds are otherwise unchanged.
    settings = settings.replace(cxxflags=f"{settings.cxxflags} -ftrivial-auto-var-init=zero")
    ref = test_module(g_, f"{DQKWG}/tests/chunk_bwd_dqkwg_cpu.py", {"torch_npu": (), "ct": ("single",)})
    for case, (B, HV, HK, T, chunk, dt, gt, scale, seqs, K, V) in chunk_bwd_dqkwg_cases():
        torch.manual_seed(0)
        T = seqs[-1] if seqs else T
        indices = ref["prepare_chunk_indices"](seqs, chunk) if seqs else None
        nt = len(indices) // 2 if seqs else -(-T // chunk)
        q, k = torch.randn(B, HK, T, K).to(dt), torch.randn(B, HK, T, K).to(dt)
        v = torch.randn(B, HV, T, V).to(dt)
        g = -torch.sort(torch.rand(B * T * HV) * 10, descending=False)[0].reshape((B, HV, T)).to(gt)
        do, dv, w = torch.randn(B, HV, T, V).to(dt), torch.randn(B, HV, T, V).to(dt), torch.randn(B, HK, T, K).to(dt)
        h, dh = torch.randn(B, HV, nt, K, V).to(dt), torch.randn(B, HV, nt, K, V).to(dt)
        label = f"{name} {case} {NAMES[dt]} g {NAMES[gt]} B={B} HV={HV} HK={HK} T={T} K={K} V={V} chunk={chunk} seqs={seqs}"
        t0 = time.perf_counter()
        inputs = {"q": q, "k": k, "v": v, "g": g, "h": h, "dox": do, "dh": dh, "dv": dv, "w": None, "g_gamma": None,
                  "cu_seqlens": torch.tensor(seqs, dtype=torch.int64) if seqs else None,
                  "chunk_indices": torch.tensor(indices, dtype=torch.int64) if seqs else None}
        shapes = {"dq": ((B, HK, T, K), NAMES[dt]), "dk": ((B, HK, T, K), NAMES[dt]), "dw": ((B, HV, T, K), NAMES[dt]),
                  "dg": ((B, HV, T), NAMES[gt])}
        r, failed = run_or_error(label, proj, inputs, attrs={"scale": scale, "chunk_size": chunk}, outputs=shapes,
                                 settings=settings)
        if failed:
            yield failed
            continue
        # the reference's layout: [B, T, H, ...] (h: [B, chunks, H, K, V]), as pta.py transposes them
        bt = lambda x: torch.transpose(x, 1, 2)
        args = [bt(x) for x in (q, k, v, do, h, dh, w, g, dv)]
        cu = torch.tensor(seqs) if seqs else None
        with contextlib.redirect_stdout(io.StringIO()):   # its varlen loop prints each sequence's bounds
            low = [bt(x) for x in ref["chunk_bwd_dqkwg_cpu"](*args, scale, cu, chunk)]
            gold = [bt(x) for x in ref["chunk_bwd_dqkwg_cpu"](*args, scale, cu, chunk, benchmark=True)]
        worst, parts = 0.0, []
        for out, lo, go in zip(("dq", "dk", "dw", "dg"), low, gold):
            raw = r.outputs[out]
            got = torch.from_numpy(raw.view(np.int16)).view(torch.bfloat16) if shapes[out][1] == "bfloat16" else torch.from_numpy(raw)
            small = SMALL_VALUE[gt if out == "dg" else dt]
            mine, yard = error_metrics(got, go, small), error_metrics(lo, go, small)
            ratio = max(mine[m] / max(yard[m], 1e-12) / limit for m, limit in DOUBLE_BENCHMARK.items())
            worst = max(worst, ratio)
            parts.append(f"{out} {ratio:.2g}")
        yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, worst {worst:.3g} of allowed ({', '.join(parts)}), "
               f"{time.perf_counter() - t0:.1f} s: {'match' if worst <= 1 else 'MISMATCH'}")


KKT = "fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_scaled_dot_kkt"


def run_chunk_scaled_dot_kkt(g_, name: str):
    """chunk_scaled_dot_kkt (A = strictly lower part of (k k^T) * exp(g_i - g_j) * beta_i per chunk; a cube product
    and vector gating) through its TilingFunc and kernel on every case of its precision test
    (torch_custom/fla_npu/test/test_npu_chunk_scaled_dot_kkt.py, which its test/test.py runs), fixed length and the
    varlen splits the test makes, the test's inputs, reference and check (max and mean absolute error, zeros above the
    diagonal and past a chunk's end), all taken from the test file itself."""
    proj, settings = project(REPO, KKT, *g_)
    t = test_module(g_, "torch_custom/fla_npu/test/test_npu_chunk_scaled_dot_kkt.py",
                    {"fla_npu": (), "fla_npu.ops": (), "fla_npu.ops.ascendc": ("chunk_scaled_dot_kkt",)})
    for idx, case in enumerate(t["CASES"]):
        k, g, beta = t["make_inputs"](case, 2026 + idx)   # main()'s seeds: --seed 2026 plus the case's index
        runs = [("fixed", (None, None))] + list(t["iter_varlen_metadata"](case))
        for kind, (cu, chunks) in runs:
            label = (f"{name} B={case.B} Hk={case.Hk} Hv={case.Hv} T={case.T} K={case.K} BT={case.BT} "
                     f"{NAMES[case.dtype]} {kind}{f' cu={cu}' if cu else ''}")
            t0 = time.perf_counter()
            inputs = {"k": k, "g": g, "beta": beta,
                      "cu_seqlens": torch.tensor(cu, dtype=torch.int64) if cu else None,
                      "chunk_indices": torch.tensor(chunks, dtype=torch.int64) if cu else None}
            r, failed = run_or_error(label, proj, inputs, attrs={"chunk_size": case.BT}, settings=settings,
                                     outputs={"A": ((case.B, case.Hv, case.T, case.BT), "float32")})
            if failed:
                yield failed
                continue
            out = torch.from_numpy(np.asarray(r.outputs["A"], np.float32))
            golden = t["chunk_scaled_dot_kkt_reference"](k, g, beta, case.BT, cu, chunks)
            diff = (out - golden).abs()
            max_abs, mean_abs = diff.max().item(), diff.mean().item()
            max_zero = t["_check_zero_regions"](out, case, cu, chunks)
            ok = max_abs <= t["MAX_ABS_TOL"] and mean_abs <= t["MEAN_ABS_TOL"] and max_zero <= t["ZERO_TOL"]
            yield (f"{label}: key {r.tiling_key}, block_dim {r.block_dim}, max_abs {max_abs:.2e} mean_abs "
                   f"{mean_abs:.2e} max_zero {max_zero:.1e}, {time.perf_counter() - t0:.1f} s: "
                   f"{'match' if ok else 'MISMATCH'}")


OPS = {"chunk_local_cumsum": run_chunk_local_cumsum, "recurrent_gated_delta_rule": run_recurrent_gated_delta_rule,
       "chunk_bwd_dqkwg": run_chunk_bwd_dqkwg, "chunk_scaled_dot_kkt": run_chunk_scaled_dot_kkt}


# the entry (its path in the repository) each op runs for, as `corpus.py run --match` asks (match_entry)
ENTRIES = {"fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_local_cumsum": "chunk_local_cumsum",
           "fla/ops/ascendc/gdn/recurrent_gdn/recurrent_gated_delta_rule": "recurrent_gated_delta_rule",
           DQKWG: "chunk_bwd_dqkwg", KKT: "chunk_scaled_dot_kkt"}


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
