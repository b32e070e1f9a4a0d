"""Conformance corpus: public AscendC kernels, stored as a manifest (repository, commit, path), never as copies.

    # 1. bring a repository onto the machine (the search tool's fetch, or git clone), then list its kernels:
    python examples/corpus/corpus.py collect weich97/NPUKernelBench /path/to/its/git/dir
    # 2. compile (and link) every kernel of the manifest on the emulator; a table by source:
    python examples/corpus/corpus.py run --git weich97/NPUKernelBench=/path/to/its/git/dir [--jobs 2] [--limit N]

Sources so far:
- weich97/NPUKernelBench `tasks/level*/**/answer/0/`: the golden answers of NPUKernelBench, msopgen-style op projects
  (op_host/ + op_kernel/) that pass on real Ascend hardware. Each is tried two ways: the kernel alone (op_kernel with
  the op's tiling header, the DTYPE_<NAME> macros of the first dtype column) and the whole project (with op_host's
  TilingFunc compiled against the emulated gert::TilingContext; ascendcraft.opproject).
"""
import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).parent
MANIFEST = HERE / "manifest.json"


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True, text=True, check=True).stdout


def collect(repo: str, gitdir: str) -> list[dict]:
    "Manifest entries for one repository at its HEAD."
    commit = git(gitdir, "rev-parse", "HEAD").strip()
    files = git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines()
    entries = []
    if repo == "weich97/NPUKernelBench":
        roots = sorted({f.split("/op_kernel/")[0] for f in files if "/answer/0/op_kernel/" in f and f.endswith(".cpp")})
        for root in roots:
            entries.append({"source": "NPUKernelBench golden answers", "repo": repo, "commit": commit, "path": root,
                            "kind": "op-project"})
    return entries


def materialise(entry: dict, gitdir: str, dest: Path) -> Path:
    "Write the entry's files (op_host/, op_kernel/) from git into dest."
    files = git(gitdir, "ls-tree", "-r", "--name-only", entry["commit"], "--", entry["path"] + "/").splitlines()
    for f in files:
        rel = f[len(entry["path"]) + 1:]
        if not rel.startswith(("op_host/", "op_kernel/")): continue
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(subprocess.run(["git", "--git-dir", gitdir, "show", f"{entry['commit']}:{f}"],
                                       capture_output=True, check=True).stdout)
    return dest


def first_error(build) -> str:
    errs = [d for d in build.diagnostics if d.is_error]
    return (errs[0].message if errs else "")[:200]


def try_entry(args: tuple) -> dict:
    "Compile the entry's kernel alone, then the whole project; the outcome of each (never raises)."
    try:
        return _try_entry(*args)
    except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
        return dict(args[0], kernel_ok=False, project_ok=False, error=f"{type(e).__name__}: {e}"[:300])


def _try_entry(entry: dict, gitdir: str) -> dict:
    from ascendcraft.emu import build
    from ascendcraft.opproject import build_project, dtype_macros, load_project
    from ascendcraft.config import load_settings
    out = dict(entry)
    with tempfile.TemporaryDirectory() as tmp:
        folder = materialise(entry, gitdir, Path(tmp))
        try:
            project = load_project(folder)
        except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
            out.update(kernel_ok=False, project_ok=False, error=f"load: {e}"[:200])
            return out
        settings = load_settings()
        try:
            macros = " ".join(f"-D{k}={v}" for k, v in dtype_macros(project.op, 0).items())
        except Exception as e:  # noqa: BLE001 - a dtype outside the emulated subset
            out.update(kernel_ok=False, project_ok=False, error=f"dtype: {e}"[:300])
            return out
        macros += f" -DASCENDCRAFT_OP_TYPE={project.op.type}"
        kernel_sources = {k: v for k, v in project.sources.items() if k.startswith("op_kernel/") or k.endswith(".h")}
        kb = build(kernel_sources, project.entry, settings=settings.replace(cxxflags=f"{settings.cxxflags} {macros}"))
        out.update(kernel_ok=kb.ok, kernel_error=first_error(kb))
        try:
            pb = build_project(project, 0)
            out.update(project_ok=pb.ok, project_error=first_error(pb))
        except Exception as e:  # noqa: BLE001
            out.update(project_ok=False, project_error=str(e)[:200])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("repo")
    c.add_argument("gitdir")
    r = sub.add_parser("run")
    r.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--out", type=Path, default=HERE / "results.json")
    a = ap.parse_args(argv)
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else []
    if a.cmd == "collect":
        manifest = [e for e in manifest if e["repo"] != a.repo] + collect(a.repo, a.gitdir)
        MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
        print(f"{len(manifest)} entries in {MANIFEST}")
        return 0
    gitdirs = dict(g.split("=", 1) for g in a.git)
    todo = [(e, gitdirs[e["repo"]]) for e in manifest if e["repo"] in gitdirs][: a.limit]
    t0 = time.time()
    with ProcessPoolExecutor(a.jobs) as pool:
        results = list(pool.map(try_entry, todo))
    a.out.write_text(json.dumps(results, indent=1) + "\n")
    by = {}
    for res in results: by.setdefault(res["source"], []).append(res)
    print("| source | kernels | kernel compiles + links | project (with TilingFunc) compiles + links |")
    print("|---|---|---|---|")
    for src, rs in by.items():
        k = sum(r.get("kernel_ok", False) for r in rs)
        p = sum(r.get("project_ok", False) for r in rs)
        print(f"| {src} | {len(rs)} | {k} ({100 * k / len(rs):.0f} %) | {p} ({100 * p / len(rs):.0f} %) |")
    print(f"\n{len(results)} kernels in {time.time() - t0:.0f} s; details in {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
