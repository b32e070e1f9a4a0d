"""wangdengkai/AscendOpGenAgent's published tasks in the corpus: `archive_tasks/<task>/`, each an LLM agent's AscendC
kernels bound to PyTorch (kernel/*.cpp: the kernels and each one's host launcher `<name>_do(blockDim, stream, ...)`
with `<<<blockDim, nullptr, stream>>>`; kernel/pybind11.cpp: the PYBIND11_MODULE whose function fills a tiling struct
in a CPU byte tensor, moves it with `.to(at::kPrivateUse1)` and calls a launcher on `tensor.storage().data()`),
model.py (the PyTorch reference Model and its input cases, get_input_groups()) and model_new_ascendc.py (ModelNew,
importing the module from kernel/build).

The agent builds a task as its utils/build_ascendc.py does: every kernel/*.cpp but pybind11.cpp into one
ascendc_library, pybind11.cpp into the module named by its PYBIND11_MODULE, put in kernel/build. Here each kernel file
is first compiled alone for the emulator (`kernels`: file -> "ok" or its first error); then the same files are built
into that module by AscendCraft's torch_npu stand-in (torch_npu._ascendcraft.build_extension), and ModelNew runs
against Model in a process of its own with the stand-in on PYTHONPATH (check_task, below), case by case, as
MultiKernelBench's correctness step compares: Model and ModelNew made after torch.manual_seed(1024), the same inputs
to both (ModelNew's moved with .npu()), every output under torch.allclose(atol=1e-4, rtol=1e-4) as float32. The
agent's own criterion (its utils/verification_ascendc.py: for floats, the mean relative error under a threshold of the
dtype, 2^-13 float, 2^-10 half, 2^-7 bfloat16, and the largest under ten times it, errors under a thousandth of the
threshold counting as none; int8 within 1; other integers exact) is reported beside it, as `own`.

A case whose inputs and outputs exceed MAX_CASE_BYTES or whose reference is slower than the emulator can follow is
left out and named (`skipped`); the verdict is over the cases run.
"""
import atexit
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mkb import MKB_ATOL, MKB_RTOL, MKB_SEED
from torch_ext_host import standin_dir, standin_env

MAX_CASE_BYTES = 16 << 20   # a case's inputs and its reference's outputs; larger ones take the emulator minutes each
CASE_TIMEOUT = 1800         # seconds for one task's cases, in the child process
TASK_ROOT = "archive_tasks"
# a task whose own cases are all over MAX_CASE_BYTES runs these instead, of the same kind (dtypes, the shapes' ratios
# kept where the binding's checks allow): task -> (what, the input groups, made with torch's generator seeded 1024)
SMALLER_CASES = {
    "reshape_matmul_rowwise_quant_int8": (
        "(m, n, k) = (256, 2048, 1024) for the task's (4096, 2048, 1024): m is the binding's baseM multiple, n and k kept",
        lambda torch, g: [[torch.rand(256, 2048, dtype=torch.bfloat16, generator=g),
                           torch.rand(1024, 1024, dtype=torch.bfloat16, generator=g)]]),
}


def opgen_entries(files: list[str], entry) -> list[dict]:
    "One entry per task folder that has kernels, a pybind11.cpp and an AscendC ModelNew (the path: its folder)."
    tasks = sorted({f.split("/")[1] for f in files if f.startswith(f"{TASK_ROOT}/") and f.count("/") >= 3
                    and f.endswith("/kernel/pybind11.cpp")})
    return [entry(f"{TASK_ROOT}/{t}", "opgen-task") for t in tasks
            if f"{TASK_ROOT}/{t}/model_new_ascendc.py" in files and f"{TASK_ROOT}/{t}/model.py" in files]


def materialise_task(entry: dict, gitdir: str, dest: Path, git, show) -> Path:
    "The task folder at the entry's commit under dest (model.py, model_new_ascendc.py, kernel/)."
    folder = entry["path"]
    for f in git(gitdir, "ls-tree", "-r", "--name-only", entry["commit"], "--", folder + "/").splitlines():
        rel = posixpath.relpath(f, folder)
        if not (rel in ("model.py", "model_new_ascendc.py") or rel.startswith("kernel/")): continue
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(show(gitdir, entry["commit"], f))
    return dest


def module_name(pybind_text: str) -> str | None:
    m = re.search(r"PYBIND11_MODULE\s*\(\s*(\w+)\s*,", pybind_text)
    return m.group(1) if m else None


def kernel_files(kernel_dir: Path) -> list[Path]:
    "The files the agent's build puts in its ascendc_library: kernel/*.cpp but pybind11.cpp."
    return sorted(p for p in kernel_dir.glob("*.cpp") if p.name != "pybind11.cpp")


def compile_kernels(kernel_dir: Path, settings) -> dict[str, str]:
    "Each kernel file compiled alone for the emulator (its `__global__` kernel the entry): file -> 'ok' or the error."
    from ascendcraft.emu import build, read_sources
    import importlib.util
    spec = importlib.util.spec_from_file_location("standin_ascendcraft", standin_dir() / "torch_npu" / "_ascendcraft.py")
    standin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(standin)
    headers = {k: v for k, v in read_sources(kernel_dir).items() if k.endswith((".h", ".hpp"))}
    out = {}
    for f in kernel_files(kernel_dir):
        text = f.read_text(errors="replace")
        device = standin.kernel_source(text)
        names = re.findall(r"\b__global__\b[^;{(]*?\b(\w+)\s*\(", device or "")
        if not names:
            out[f.name] = "no __global__ kernel"
            continue
        kb = build({**headers, f.name: device}, names[-1], settings=settings)
        out[f.name] = "ok" if kb.ok else (kb.errors[0].message if kb.errors else kb.log.strip()[-200:])[:200]
    return out


def _env() -> dict:
    "The stand-in's environment, with the project and this folder importable (the agent's scripts import both)."
    import ascendcraft
    repo = str(Path(ascendcraft.__file__).resolve().parent.parent)
    return standin_env(repo, str(Path(__file__).resolve().parent))


def build_task(task_dir: Path) -> Path:
    "The task's module in kernel/build, as utils/build_ascendc.py makes it, built by the torch_npu stand-in."
    kernel_dir = task_dir / "kernel"
    name = module_name((kernel_dir / "pybind11.cpp").read_text(errors="replace"))
    if name is None: raise ValueError(f"{kernel_dir / 'pybind11.cpp'}: no PYBIND11_MODULE(name, m)")
    sources = [str(p) for p in kernel_files(kernel_dir)] + [str(kernel_dir / "pybind11.cpp")]
    made = subprocess.run([sys.executable, "-m", "torch_npu._ascendcraft_build", "build-ext", "--name", name, *sources,
                           "-o", str(kernel_dir / "build")], cwd=task_dir, env=_env(), capture_output=True, text=True,
                          timeout=3600)
    if made.returncode != 0:
        said = re.findall(r"^build failed: .*$", made.stderr, re.M)
        raise RuntimeError((said[-1] if said else made.stderr.strip()[-300:]))
    return kernel_dir / "build"


def try_task(entry: dict, gitdir: str, match: bool, git, show) -> dict:
    """The entry's kernels compiled alone (kernel_ok: all of them), then (project_ok) its extension built by the
    stand-in and, with match, ModelNew against Model case by case (match: pass when every case run passes MKB's
    allclose)."""
    from ascendcraft.config import load_settings
    out = dict(entry)
    with tempfile.TemporaryDirectory() as tmp:
        task_dir = materialise_task(entry, gitdir, Path(tmp) / posixpath.basename(entry["path"]), git, show)
        kernels = compile_kernels(task_dir / "kernel", load_settings())
        bad = {k: v for k, v in kernels.items() if v != "ok"}
        out.update(kernels=kernels, kernel_ok=not bad,
                   kernel_error=next((f"{k}: {v}" for k, v in bad.items()), "")[:300])
        try:
            build_task(task_dir)
            out.update(project_ok=True, project_error="")
        except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            out.update(project_ok=False, project_error=f"torch extension: {e}"[:300])
            return out
        if match: out.update(match_task(task_dir, entry.get("cases")))
    return out


def match_task(task_dir: Path, cases: list[int] | None = None) -> dict:
    "ModelNew against Model over the task's cases (check_task in a child process with the stand-in): the verdict."
    cmd = [sys.executable, str(Path(__file__).resolve()), "check", str(task_dir)]
    if cases: cmd += ["--cases", ",".join(map(str, cases))]
    try:
        ran = subprocess.run(cmd, cwd=task_dir, env=_env(), capture_output=True, text=True, timeout=CASE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return dict(match="timeout", match_detail=f"the cases took over {CASE_TIMEOUT} s")
    rows = [json.loads(l[len("OGA "):]) for l in ran.stdout.splitlines() if l.startswith("OGA ")]
    return verdict(rows, ran.returncode, ran.stderr)


def verdict(rows: list[dict], returncode: int, stderr: str) -> dict:
    "The task's verdict from check_task's rows (one per case)."
    launches = len(re.findall(r"^ascendcraft: .*<<<\d+>>> ran on the emulator", stderr, re.M))
    ran = [r for r in rows if r["status"] not in ("skipped", "no-reference")]
    skipped = [r["case"] for r in rows if r["status"] == "skipped"]
    refused = [r for r in rows if r["status"] == "no-reference"]
    detail = dict(cases=rows, launches=launches)
    note = f"; skipped cases {skipped} (over {MAX_CASE_BYTES >> 20} MiB of inputs and outputs)" if skipped else ""
    if refused:
        note += (f"; no reference for cases {[r['case'] for r in refused]} (their own Model raises: "
                 f"{refused[0]['detail'].removeprefix('the reference Model raises ')})")
    if not rows:
        tail = [l for l in stderr.splitlines() if l.strip()][-1:] or ["no output"]
        return dict(match="run-error", match_detail=f"check_task stopped (exit {returncode}): {tail[0]}"[:300], **detail)
    errors = [r for r in ran if r["status"] == "error"]
    if errors:
        return dict(match="run-error", match_detail=f"case {errors[0]['case']}: {errors[0]['detail']}"[:300] + note, **detail)
    if not ran:
        return dict(match="too-large" if skipped else "no-reference", match_detail="no case run" + note, **detail)
    if not launches: return dict(match="no-reference", match_detail="ModelNew launched no kernel", **detail)
    failed = [r for r in ran if not r["mkb"]]
    own = sum(r["own"] for r in ran)
    summary = f"{len(ran) - len(failed)}/{len(ran)} cases pass MKB's allclose, {own}/{len(ran)} the agent's own criterion"
    if any("own_init" in r for r in ran):
        summary += (f" ({next(r['own_init'] for r in ran if 'own_init' in r)}; against that reference "
                    f"{sum(bool(r.get('mkb_agent_init')) for r in ran)}/{len(ran)} pass MKB's allclose)")
    if any("smaller" in r for r in ran): summary += f"; at smaller shapes: {next(r['smaller'] for r in ran if 'smaller' in r)}"
    if failed:
        return dict(match="mismatch", match_detail=f"{summary}; first failing case {failed[0]['case']}: "
                                                   f"{failed[0]['detail']}"[:300] + note, **detail)
    return dict(match="pass", match_detail=f"{summary}; {launches} launches on the emulator{note}"[:300], **detail)


# ---- the check, in a process of its own with the torch_npu stand-in --------------------------------------------------
def own_criterion(got, want) -> bool:
    """The agent's published criterion for one output (utils/verification_ascendc.py, restated): NaN and infinity where
    the reference has them; floats by mean and largest relative error against a threshold of the dtype; int8 and int16
    within 1; other integers exactly."""
    import torch
    if got.shape != want.shape: return False
    if not (want.is_floating_point() or got.is_floating_point()):
        slack = 1 if want.dtype in (torch.int8, torch.int16) and got.dtype == want.dtype else 0
        return bool(((got.to(torch.int64) - want.to(torch.int64)).abs() <= slack).all())
    threshold = {torch.float16: 2.0 ** -10, torch.bfloat16: 2.0 ** -7, torch.float32: 2.0 ** -13,
                 torch.float64: 2.0 ** -30}.get(want.dtype, 2.0 ** -13)
    g, w = got.to(torch.float64), want.to(torch.float64)
    if not torch.equal(torch.isnan(g), torch.isnan(w)) or not torch.equal(torch.isinf(g), torch.isinf(w)): return False
    if torch.isinf(w).any() and not torch.equal(torch.sign(g[torch.isinf(w)]), torch.sign(w[torch.isinf(w)])): return False
    keep = ~(torch.isnan(g) | torch.isinf(g))
    g, w = g[keep], w[keep]
    if g.numel() == 0: return True
    diff = (g - w).abs()
    rel = torch.where(diff < threshold * 1e-3, torch.zeros_like(diff), diff / (w.abs() + 1e-7))
    return float(rel.mean()) < threshold and float(rel.max()) < 10 * threshold


def _flat(value) -> list:
    if isinstance(value, (list, tuple)): return [t for v in value for t in _flat(v)]
    return [value]


def _mapped(value, f):
    "value with f applied to each tensor in it (lists and tuples followed, as the agent's verification moves inputs)."
    if isinstance(value, (list, tuple)): return type(value)(_mapped(v, f) for v in value)
    return f(value) if hasattr(value, "is_floating_point") else value


def _nbytes(values) -> int:
    import torch
    return sum(t.numel() * t.element_size() for t in _flat(values) if isinstance(t, torch.Tensor))


def check_task(task_dir: Path, cases: set[int] | None = None) -> None:
    "Print one `OGA {json}` line per case: status (pass / fail / error / skipped / no-reference), mkb, own, detail."
    import importlib.util
    import torch
    import torch_npu  # noqa: F401 - the stand-in: the npu device
    sys.path[:0] = [str(task_dir), str(task_dir.parent)]   # the agent runs with archive_tasks/ on PYTHONPATH too
    # the agent works on a task in its workdir's current_task/ (evaluate_ascendc.sh's default task), and some archived
    # ModelNew still import by that name (avg_pool3_d: `from current_task.model import ...`): the name is given too
    alias = Path(tempfile.mkdtemp(prefix="oga-alias-"))
    atexit.register(shutil.rmtree, alias, True)
    (alias / "current_task").symlink_to(task_dir, target_is_directory=True)
    sys.path.append(str(alias))

    def load(name):
        spec = importlib.util.spec_from_file_location(f"oga_{name}", task_dir / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    ref, new = load("model"), load("model_new_ascendc")
    groups = ref.get_input_groups() if hasattr(ref, "get_input_groups") else [ref.get_inputs()]
    smaller = None
    if task_dir.name in SMALLER_CASES and all(_nbytes(g) > MAX_CASE_BYTES // 2 for g in groups):
        what, make = SMALLER_CASES[task_dir.name]
        smaller = what
        groups = make(torch, torch.Generator().manual_seed(MKB_SEED))
    init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
    # the agent's verification builds both models with ModelNew's module's get_init_inputs() when it has one (a kernel
    # that hard-codes a parameter gets a reference built with the kernel's value); MKB's protocol takes the task's
    own_init = new.get_init_inputs() if hasattr(new, "get_init_inputs") else init
    for i, inputs in enumerate(groups):
        if cases is not None and i not in cases: continue
        tensors = [t for t in _flat(inputs) if isinstance(t, torch.Tensor)]
        row = dict(case=i, shapes=[list(t.shape) for t in tensors],
                   dtypes=sorted({str(t.dtype).removeprefix("torch.") for t in tensors}))
        if smaller: row["smaller"] = smaller
        try:
            torch.manual_seed(MKB_SEED)
            model = ref.Model(*init)
            want = _flat(model(*_mapped(list(inputs), lambda t: t.clone())))
        except Exception as e:  # noqa: BLE001 - the task's own reference refuses its case: no verdict there
            print("OGA " + json.dumps(dict(row, status="no-reference", mkb=False, own=False,
                                           detail=f"the reference Model raises {type(e).__name__}: {e}"[:300])), flush=True)
            continue
        try:
            if _nbytes(inputs) + _nbytes(want) > MAX_CASE_BYTES:
                print("OGA " + json.dumps(dict(row, status="skipped", mkb=False, own=False, detail="over the size limit")), flush=True)
                continue
            torch.manual_seed(MKB_SEED)
            model_new = new.ModelNew(*init)
            got = _flat(model_new(*_mapped(list(inputs), lambda t: t.npu())))
        except Exception as e:  # noqa: BLE001 - whatever stopped the case is its verdict
            print("OGA " + json.dumps(dict(row, status="error", mkb=False, own=False,
                                           detail=f"{type(e).__name__}: {e}"[:300])), flush=True)
            continue
        want_own = want
        if own_init != init:
            torch.manual_seed(MKB_SEED)
            want_own = _flat(ref.Model(*own_init)(*_mapped(list(inputs), lambda t: t.clone())))
            row["own_init"] = f"ModelNew's module sets the models' init inputs to {own_init!r}, the task's are {init!r}"
        mkb, own, detail = True, True, "ok"
        if len(got) != len(want):
            mkb = own = False
            detail = f"{len(got)} outputs, the reference {len(want)}"
        for k, (g, w, w_own) in enumerate(zip(got, want, want_own)):
            g = g.cpu() if isinstance(g, torch.Tensor) else g
            if not isinstance(w, torch.Tensor) or not isinstance(g, torch.Tensor) or g.shape != w.shape:
                mkb = own = False
                detail = f"output {k}: shape {getattr(g, 'shape', None)} vs {getattr(w, 'shape', None)}"
                break
            own = own and own_criterion(g, w_own)
            if own_init != init:
                row["mkb_agent_init"] = row.get("mkb_agent_init", True) and bool(
                    torch.allclose(w_own.float(), g.float(), atol=MKB_ATOL, rtol=MKB_RTOL, equal_nan=True))
            gf, wf = g.float(), w.float()
            if not torch.allclose(wf, gf, atol=MKB_ATOL, rtol=MKB_RTOL, equal_nan=True) and mkb:
                mkb = False
                bad = ~torch.isclose(wf, gf, atol=MKB_ATOL, rtol=MKB_RTOL, equal_nan=True)
                j = int(bad.reshape(-1).nonzero()[0])
                detail = (f"output {k} ({w.dtype}): {int(bad.sum())}/{bad.numel()} elements off, first at {j}: "
                          f"{float(gf.reshape(-1)[j])} vs {float(wf.reshape(-1)[j])}")
        print("OGA " + json.dumps(dict(row, status="pass" if mkb else "fail", mkb=mkb, own=own, detail=detail)), flush=True)


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description="AscendOpGenAgent tasks on the emulator (see the module docstring)")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="ModelNew against Model, case by case (run with the torch_npu stand-in on PYTHONPATH)")
    c.add_argument("task_dir")
    c.add_argument("--cases", help="comma-separated case numbers (default: all)")
    b = sub.add_parser("build", help="build a task folder's extension into its kernel/build")
    b.add_argument("task_dir")
    args = parser.parse_args(argv)
    if args.command == "check":
        check_task(Path(args.task_dir).resolve(), {int(x) for x in args.cases.split(",")} if args.cases else None)
    else:
        print(build_task(Path(args.task_dir).resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
