"""The Matmul-API part of the conformance corpus: which public kernels that use the Matmul high-level API compile on
the emulator, why the others do not, and a few of them run against a reference.

    # the mirrors as the search tool's `fetch` leaves them (/work/.mirror/<owner>+<name>/repo), or --git OWNER/NAME=DIR
    python examples/corpus/matmul_api.py [--jobs 2] [--match] [--only GMM/]

An entry belongs to the subset when one of its files includes lib/matmul_intf.h or declares a Matmul object
(`Matmul<`, `MatmulImpl<`, `REGIST_MATMUL_OBJ`). Compiling reuses corpus.try_entry (the kernel alone, then the whole
project with its TilingFunc); --match runs the entries of REFERENCES on the emulator and compares them with PyTorch,
and runs each NPUKernelBench entry that builds against its task's own validation (Model, smallest test case, precision
rule: npukb.match_npukb).
"""
import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402
import npukb  # noqa: E402

USES_MATMUL = re.compile(rb"matmul_intf\.h|REGIST_MATMUL_OBJ|Matmul<|MatmulImpl<")
MIRRORS = Path("/work/.mirror")


def gitdir(repo: str, given: dict) -> str:
    return given.get(repo) or str(MIRRORS / repo.replace("/", "+") / "repo")


def known_gitdirs(manifest: list[dict], given: dict) -> dict[str, str]:
    """Every repository of the manifest (or given) whose git dir is here, given or mirrored: what corpus.GITDIRS holds,
    so that an op's submodule (corpus.SUBMODULES, vllm-ascend's catlass) is read from its own repository's git dir, as
    `corpus.py run --git` gives it."""
    return {r: gitdir(r, given) for r in sorted({e["repo"] for e in manifest} | set(given)) if Path(gitdir(r, given)).exists()}


def uses_matmul_api(entry: dict, git: str) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        corpus.materialise(entry, git, Path(tmp))
        return any(USES_MATMUL.search(p.read_bytes()) for p in Path(tmp).rglob("*") if p.is_file())


def choose(chosen: list[dict], given: dict, cache: Path | None) -> list[dict]:
    """The entries of chosen that use the Matmul API and whose git dir is here. Deciding materialises each entry (about
    14 minutes over the whole manifest), so with a cache file the choice is read from it when it was made for the same
    entries (their repository, commit and path) and the same git dirs here, and made and written there otherwise."""
    here = sorted({e["repo"] for e in chosen if Path(gitdir(e["repo"], given)).exists()})
    ident = lambda e: [e["repo"], e.get("commit"), e["path"]]
    key = hashlib.sha256(json.dumps([[ident(e) for e in chosen], here]).encode()).hexdigest()
    if cache and cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("chosen_from") == key:
            picked = {tuple(k) for k in saved["entries"]}
            return [e for e in chosen if tuple(ident(e)) in picked]
        print(f"{cache}: made for other entries than these; choosing again", flush=True)
    subset = [e for e in chosen if Path(gitdir(e["repo"], given)).exists() and uses_matmul_api(e, gitdir(e["repo"], given))]
    if cache:
        cache.write_text(json.dumps({"chosen_from": key,
                                     "entries": [ident(e) for e in subset]}, indent=0) + "\n")
    return subset


# ---- references: inputs and the PyTorch result, for entries whose op a few lines of torch describe ----------------
def _mkb_matmul_add(rng):
    import torch
    a, b, bias = (torch.from_numpy(rng.standard_normal(s).astype(np.float32)) for s in ((64, 96), (96, 80), (80,)))
    return {"a": a, "b": b, "bias": bias}, {}, lambda a, b, bias: a @ b + bias, 1e-4, 1e-3


def _cann_matmul_leakyrelu(rng):
    # its TilingFunc fixes M, N, K = 1024, 640, 256 and alpha = 0.001; signed inputs so that both branches count
    import torch
    a = torch.from_numpy(rng.integers(-9, 10, (1024, 256)).astype(np.float16))
    b = torch.from_numpy(rng.integers(-9, 10, (256, 640)).astype(np.float16))
    bias = torch.from_numpy(rng.integers(-9, 10, (640,)).astype(np.float32))

    def ref(a, b, bias):
        c = a.float() @ b.float() + bias
        return torch.where(c >= 0, c, c * np.float32(0.001))
    return {"a": a, "b": b, "bias": bias}, {}, ref, 1e-5, 1e-3


def _cann_complex_mat_mul(rng):
    # complex64 batches, z = x @ y + bias; irregular M, K and N (its TilingFunc pads them to 64)
    import torch
    def c(*shape): return torch.from_numpy((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64))
    x, y, bias = c(2, 40, 72), c(2, 72, 56), c(2, 40, 56)
    return {"x": x, "y": y, "bias": bias}, {}, lambda x, y, bias: x @ y + bias, 1e-4, 1e-3


def _cann_matmul_api_constant(rng):
    # its TilingFunc fixes M, N, K = 1024, 640, 256 over SetDim(2) and launches one MIX group (1 AIC + 2 AIVs): both AIVs'
    # halves of C must be there (it has no ASCENDC_CUBE_ONLY, so its Matmul is the AIVs' client, as in CANN)
    import torch
    a = torch.from_numpy(rng.integers(-9, 10, (1024, 256)).astype(np.float16))
    b = torch.from_numpy(rng.integers(-9, 10, (256, 640)).astype(np.float16))
    bias = torch.from_numpy(rng.integers(-9, 10, (640,)).astype(np.float32))
    return {"a": a, "b": b, "bias": bias}, {}, lambda a, b, bias: a.float() @ b.float() + bias, 1e-5, 1e-3


def _cann_inplace_fused_matmul_softmax_grad(rng):
    # its example's gen_data.py: softmax's backward through gradOutput @ values^T, written over softmaxOutput (the op has
    # no outputs: the inputs are read back, the other two unchanged); its verify_result.py's tolerance, 4e-4
    import torch
    s, g, v = (torch.from_numpy(rng.standard_normal(shape).astype(np.float32)) for shape in ((12, 20000), (12, 128), (20000, 128)))

    def ref(softmaxOutput, gradOutput, values):
        grad = gradOutput @ values.T
        return (grad - (softmaxOutput * grad).sum(-1, keepdim=True)) * softmaxOutput, gradOutput, values
    return {"softmaxOutput": s, "gradOutput": g, "values": v}, {}, ref, 4e-4, 4e-4


def _cann_flash_attention_score_with_large_head_dim(rng):
    # its example (one head of dim 576: head_num 1, as its main.cpp passes it; inputs uniform in [1, 10), scale 0.0625),
    # with S1 = 128 queries and S2 = 1,152 keys instead of 2,048 each (its TilingFunc takes only S2 > 1,024);
    # softmax_max / softmax_sum are the scaled scores' row max and the row sum of exp(score - max), each repeated over
    # the last axis's 8 lanes (InferShape: B x 1 x S1 x 8); its verify_result.py's tolerance for attention_out, 1e-3
    import torch
    q, k, v = (torch.from_numpy(rng.uniform(1, 10, (1, s, 576)).astype(np.float16)) for s in (128, 1152, 1152))

    def ref(query, key, value, scale_value, head_num):
        scores = (query.float() @ key.float().transpose(1, 2)) * scale_value
        top = scores.amax(-1, keepdim=True)
        e = torch.exp(scores - top)
        total = e.sum(-1, keepdim=True)
        lanes = lambda t: t.unsqueeze(1).expand(-1, -1, -1, 8).contiguous()
        return lanes(top), lanes(total), ((e / total) @ value.float()).half()
    return {"query": q, "key": k, "value": v}, {"scale_value": 0.0625, "head_num": 1}, ref, 1e-3, 1e-3


def _lstm(x, w_in, w_hidden, b, h, c, gate_order, forget_bias):
    """The LSTM cell over x's time steps as cann-ops' DynamicRNN st cases describe it: gates = x_t @ w_in + h @ w_hidden
    + b, split in gate_order (ijfo or ifjo), f shifted by forget_bias; c = f c + i j, h = o tanh(c). Each output (y =
    output_h, output_c, i, j, f, o, tanhc) stacked over the steps, in float16."""
    import torch
    steps = {k: [] for k in ("output_h", "output_c", "i", "j", "f", "o", "tanhc")}
    for step in range(x.shape[0]):
        gates = x[step].float() @ w_in.float() + h @ w_hidden.float() + (0 if b is None else b.float())
        i, j, f, o = gates.chunk(4, 1) if gate_order == "ijfo" else [gates.chunk(4, 1)[k] for k in (0, 2, 1, 3)]
        i, j, f, o = torch.sigmoid(i), torch.tanh(j), torch.sigmoid(f + forget_bias), torch.sigmoid(o)
        c = f * c + i * j
        h = o * torch.tanh(c)
        for k, v in zip(steps, (h, c, i, j, f, o, torch.tanh(c))): steps[k].append(v)
    out = {k: torch.stack(v).half() for k, v in steps.items()}
    return {"y": out["output_h"], **out}


def _cann_dynamic_rnn(rng):
    # its tests/st case (batch 16, input 16, hidden 16, float16, time-major, no sequence lengths, peepholes or mask) over
    # 3 time steps instead of 1, so that each step reads the one before; w is [w_in; w_hidden] stacked
    import torch
    t, batch, size, hidden = 3, 16, 16, 16
    u = lambda *shape: torch.from_numpy(rng.uniform(-1, 1, shape).astype(np.float16))
    inputs = {"x": u(t, batch, size), "w": u(size + hidden, 4 * hidden), "b": u(4 * hidden),
              "init_h": u(1, batch, hidden), "init_c": u(1, batch, hidden)}
    attrs = {"gate_order": "ijfo", "forget_bias": 0.0, "cell_clip": -1.0, "direction": "UNIDIRECTIONAL",
             "time_major": True}

    def ref(x, w, b, init_h, init_c, gate_order, forget_bias, **_):
        return _lstm(x, w[:size], w[size:], b, init_h[0].float(), init_c[0].float(), gate_order, forget_bias)
    return inputs, attrs, ref, 1e-3, 1e-3


def _cann_dynamic_rnnv2(rng):
    # its tests/st case (x, weight_input and weight_hidden only: no bias, zero initial h and c; batch 16, input 16,
    # hidden 16, float16, gate_order ijfo) over 3 time steps instead of 1
    import torch
    t, batch, size, hidden = 3, 16, 16, 16
    u = lambda *shape: torch.from_numpy(rng.uniform(-1, 1, shape).astype(np.float16))
    inputs = {"x": u(t, batch, size), "weight_input": u(size, 4 * hidden), "weight_hidden": u(hidden, 4 * hidden)}
    attrs = {"gate_order": "ijfo", "time_major": True, "activation": "tanh", "recurrent_activation": "sigmoid"}

    def ref(x, weight_input, weight_hidden, gate_order, **_):
        zero = torch.zeros(batch, hidden)
        return _lstm(x, weight_input, weight_hidden, None, zero, zero, gate_order, 0.0)
    return inputs, attrs, ref, 1e-3, 1e-3


REFERENCES = {
    ("wzzll123/MultiKernelBench", "prompts/ascendc_new_model_matmul_add.py"): _mkb_matmul_add,
    ("Hayden727/cann-ops", "src/math/matmul_leakyrelu"): _cann_matmul_leakyrelu,
    ("Hayden727/cann-ops", "src/matmul/complex_mat_mul"): _cann_complex_mat_mul,
    ("Hayden727/cann-ops", "src/math/matmul_api_constant"): _cann_matmul_api_constant,
    ("Hayden727/cann-ops", "src/math/inplace_fused_matmul_softmax_grad"): _cann_inplace_fused_matmul_softmax_grad,
    ("Hayden727/cann-ops", "src/math/flash_attention_score_with_large_head_dim"):
        _cann_flash_attention_score_with_large_head_dim,
    ("Hayden727/cann-ops", "src/rnn/dynamic_rnn"): _cann_dynamic_rnn,
    ("Hayden727/cann-ops", "src/rnn/dynamic_rnnv2"): _cann_dynamic_rnnv2,
}


def match(entry: dict, git: str) -> dict:
    "Run one REFERENCES entry as a whole op project on the emulator and compare it with its reference."
    from ascendcraft.opproject import run_project
    make = REFERENCES[(entry["repo"], entry["path"])]
    inputs, attrs, ref, rtol, atol = make(np.random.default_rng(0))
    with tempfile.TemporaryDirectory() as tmp:
        folder = corpus.materialise(entry, git, Path(tmp))
        r = run_project(folder, inputs, attrs=attrs, reference=ref, rtol=rtol, atol=atol)
    errs = [str(d).splitlines()[0] for d in r.run.diagnostics if d.is_error][:1]
    return {"path": entry["path"], "ok": bool(r.ok), "detail": "; ".join(errs) or str(r.mismatches)[:200]}


def entry_line(r: dict) -> str:
    """One finished entry: its kernel and project verdicts, seconds, and the first error's class of the step that failed
    (the kernel's; else the project's)."""
    project = ("ok  " if r.get("project_ok") else "FAIL") if "project_ok" in r else "–   "
    why = "" if r.get("kernel_ok") else "  " + corpus.reason(r)
    if r.get("kernel_ok") and r.get("project_ok") is False:
        why = "  project: " + corpus.reason({"kernel_error": r.get("project_error") or r.get("error") or "no error text"})
    return (f"{'ok  ' if r.get('kernel_ok') else 'FAIL'} kernel, {project} project  {r.get('seconds', 0):6.0f} s  "
            f"{r['repo']}:{r['path']}{why}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--entry-seconds", type=float, default=corpus.ENTRY_SECONDS, metavar="SECONDS",
                    help=f"wall-time cap of one entry (default {corpus.ENTRY_SECONDS:g}; 0: none), as corpus.py run's")
    ap.add_argument("--match", action="store_true", help="also run the entries that have a reference here")
    ap.add_argument("--only", metavar="REGEX", help="only the entries whose repository:path matches (e.g. GMM/)")
    ap.add_argument("--subset", type=Path, metavar="FILE",
                    help="the chosen entries, read from FILE when it was written for this manifest and --only, "
                         "else chosen (minutes) and written there")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "matmul_api_results.json")
    a = ap.parse_args(argv)
    if a.entry_seconds < 0: ap.error(f"--entry-seconds {a.entry_seconds:g}: give a wall time in seconds, or 0 for none")
    given = dict(g.split("=", 1) for g in a.git)
    manifest = json.loads(corpus.MANIFEST.read_text())
    corpus.GITDIRS.update(known_gitdirs(manifest, given))
    # --only first: deciding membership materialises each entry (minutes over the whole manifest)
    chosen = [e for e in manifest if not a.only or re.search(a.only, f"{e['repo']}:{e['path']}")]
    subset = choose(chosen, given, a.subset)
    print(f"{len(subset)} Matmul-API entries", flush=True)
    t0 = time.time()
    # with --match, NPUKernelBench entries also run against their task's own reference (npukb.match_npukb)
    done = {}
    # one line per entry as it finishes, and each result in <out>.jsonl, as corpus.py run writes them
    for i, r in corpus.run_logged([(e, gitdir(e["repo"], given), a.match, True) for e in subset], a.jobs,
                                  a.entry_seconds, a.out.with_suffix(".jsonl")):
        done[i] = r
        print(entry_line(r), flush=True)
    results = [done[i] for i in sorted(done)]
    results = [corpus.classify(r) for r in results]
    by = Counter(r["source"] for r in results)
    ok = Counter(r["source"] for r in results if r.get("kernel_ok"))
    proj = Counter(r["source"] for r in results if r.get("project_ok"))
    print("| source | Matmul-API entries | kernel compiles + links | project (with TilingFunc) builds |")
    print("|---|---:|---:|---:|")
    for src, n in by.items(): print(f"| {src} | {n} | {ok[src]} | {proj[src]} |")
    print(f"| all | {len(results)} | {sum(ok.values())} | {sum(proj.values())} |")
    print(f"\n{len(results)} entries in {time.time() - t0:.0f} s")
    reasons = Counter(corpus.reason(r) for r in results if not r.get("kernel_ok"))
    print("\nWhy kernels did not compile (most common first):")
    for why, n in reasons.most_common(): print(f"  {n:4d}  {why}")
    matches = []
    if a.match:
        print("\nRun against a reference:")
        for e in subset:
            if (e["repo"], e["path"]) in REFERENCES:
                m = match(e, gitdir(e["repo"], given))
                matches.append(m)
                print(f"  {'match' if m['ok'] else 'MISMATCH'}  {e['repo']}:{e['path']}  {'' if m['ok'] else m['detail']}")
        for r in results:   # the entries run under their own task's validation (Model, test case, precision rule)
            if r.get("match") in ("pass", "mismatch", "run-error", "golden-fault"):
                matches.append({"path": r["path"], "ok": r["match"] == "pass", "detail": r.get("match_detail", ""),
                                "golden_fault": r["match"] == "golden-fault"})
                word = {"pass": "match", "golden-fault": "golden-fault"}.get(r["match"], r["match"].upper())
                print(f"  {word}  {r['repo']}:{r['path']}  {'' if r['match'] == 'pass' else r.get('match_detail', '')[:160]}")
        ran = [m for m in matches if not m.get("golden_fault")]
        print(f"\n{sum(m['ok'] for m in ran)} of {len(ran)} entries run against a reference match"
              f"{f' ({len(matches) - len(ran)} golden faults apart)' if len(ran) < len(matches) else ''}; "
              f"{sum(r.get('match') == 'no-reference' for r in results)} built but have no usable reference")
    a.out.write_text(json.dumps({"compile": results, "match": matches}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
