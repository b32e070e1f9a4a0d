"""Record the official verdict of every API probe: compile each probe kernel against CANN's open-source
headers (asc-devkit) with the api-oracle and write `official_verdicts.csv` next to this file.

A development tool: it needs a set-up api-oracle (see its README: fetch cannmirror/asc-devkit, then
`tools/setup_asc.sh <git dir> <commit>`), which CI does not have. CI reads only the CSV. Each oracle compiler runs under a memory cap (--memory-gb) and a time
limit: running out of either stops with an error that names the probe, never a 'reject' verdict.

    python tests/api_probes/oracle.py --oracle /path/to/api-oracle            # probes without a verdict
    python tests/api_probes/oracle.py --oracle /path/to/api-oracle --all      # every probe again
    python tests/api_probes/oracle.py --sync      # only the `emulator` column (after editing RUN_TIME / UNEMULATED)
    python tests/api_probes/oracle.py --oracle ... --kernels ~/.cache/ascendcraft/emu/builds   # whole kernels
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from probes import CUBE_PRELUDE, PRELUDE, PROBES, Probe  # noqa: E402

CSV_PATH = HERE / "official_verdicts.csv"
FIELDS = ["id", "official", "emulator", "official_error", "code"]


def emulator_column(p: Probe) -> str:
    "What the emulator does where it deliberately differs from the official compile-time verdict ('' = the same)."
    if p.runtime: return f"accepts; run-time error {p.runtime}"
    if p.unemulated: return f"rejects: not emulated ({p.unemulated})"
    return ""


def prelude_hash(prelude: str = PRELUDE) -> str:
    "The verdicts hold for this prelude (the kernel around each probe line)."
    return hashlib.sha256(prelude.encode()).hexdigest()[:16]


def read_table(path: Path = CSV_PATH) -> tuple[dict[str, str], dict[str, dict]]:
    "(metadata from the leading `# key: value` lines, rows by probe id)."
    meta, lines = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            meta[key.strip()] = value.strip()
        else:
            lines.append(line)
    return meta, {r["id"]: r for r in csv.DictReader(lines)}


def write_table(meta: dict[str, str], rows: dict[str, dict], path: Path = CSV_PATH):
    order = {p.id: i for i, p in enumerate(PROBES)}
    with path.open("w", newline="") as f:
        for key, value in meta.items():
            f.write(f"# {key}: {value}\n")
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        w.writeheader()
        by_id = {p.id: p for p in PROBES}
        for r in sorted(rows.values(), key=lambda r: order.get(r["id"], len(order))):
            w.writerow({**{k: r.get(k, "") for k in FIELDS}, "emulator": emulator_column(by_id[r["id"]])})


def first_error(text: str, folder: str) -> str:
    "The oracle's first error line, without paths (file:line:col prefixes and the temporary folder)."
    m = re.search(r"error: (?:\S+:\d+:\d+: )?(?:fatal )?error: (.*)", text)
    msg = m[1] if m else text.strip().splitlines()[-1]
    if msg.startswith("static assertion failed"):  # the devkit's own wording stays in the devkit
        msg = "static assertion failed"
    return msg.replace(folder, "").strip()[:240]


MEMORY_GB = 6          # address space of one oracle compiler: the devkit headers need 1-2 GB; one probe once took 20
TIMEOUT_S = 600        # (a template the official headers instantiate without end), so every oracle run is capped


OUT_OF_MEMORY = ("out of memory", "memory exhausted", "cannot allocate memory", "pch allocation failure")


def capped(memory_gb: float):
    "A preexec_fn that caps the address space of the oracle's shell and its compilers at `memory_gb`."
    import resource
    limit = int(memory_gb * 2**30)
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run_oracle(oracle: Path, src: Path, env: dict, memory_gb: float = MEMORY_GB) -> subprocess.CompletedProcess:
    "check.sh on `src` under the memory cap and TIMEOUT_S; running out of either is an error that names the file."
    try:
        proc = subprocess.run(["bash", str(oracle / "check.sh"), str(src)], capture_output=True, text=True, env=env,
                              preexec_fn=capped(memory_gb), timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"the oracle took over {TIMEOUT_S} s on {src.name}: record its verdict by hand") from None
    said = (proc.stdout + proc.stderr).lower()
    if proc.returncode not in (0, 1) or any(m in said for m in OUT_OF_MEMORY):
        raise RuntimeError(f"the oracle failed on {src.name} (memory capped at {memory_gb} GB: --memory-gb raises it):\n"
                           f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc


def check(oracle: Path, probe: Probe, folder: str, memory_gb: float = MEMORY_GB) -> tuple[str, str]:
    src = Path(folder) / (re.sub(r"[^\w.]", "_", probe.id) + ".cpp")
    src.write_text(probe.source())
    env = dict(os.environ, ORACLE_PCH="1", LC_ALL="C", ORACLE_CORE=probe.core)
    proc = run_oracle(oracle, src, env, memory_gb)
    if proc.returncode == 0: return "accept", ""
    return "reject", first_error(proc.stdout, str(src))


def compare_kernels(oracle: Path, paths: list[Path], jobs: int):
    "Official and our verdict of whole kernel files (distinct contents only); prints the disagreements."
    import hashlib
    files, seen = [], set()
    for path in paths:
        for f in sorted(path.rglob("*_kernel.cpp")) if path.is_dir() else [path]:
            digest = hashlib.sha256(f.read_bytes()).hexdigest()
            if digest not in seen: seen.add(digest); files.append(f)
    include = HERE.parents[1] / "ascendcraft" / "runtime" / "include"

    def both(f: Path):
        official = run_oracle(oracle, f, dict(os.environ, ORACLE_PCH="1", LC_ALL="C"))
        ours = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(include), "-iquote", str(f.parent), str(f)],
                              capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        return f, official.returncode == 0, ours.returncode == 0, official.stdout
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(both, files))
    differ = [r for r in results if r[1] != r[2]]
    for f, off, ours, log in differ:
        print(f"official {'accepts' if off else 'rejects'}, we {'accept' if ours else 'reject'}: {f}\n{log}")
    print(f"{len(results)} distinct kernels: {sum(r[1] for r in results)} accepted officially, "
          f"{sum(r[2] for r in results)} by our header, {len(differ)} disagreements")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", type=Path, default=Path(os.environ.get("ASCENDCRAFT_API_ORACLE", "")),
                    help="the api-oracle folder (with asc/ set up)")
    ap.add_argument("--all", action="store_true", help="re-check every probe, not only new or changed ones")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--memory-gb", type=float, default=MEMORY_GB, help="address-space cap of each oracle compiler")
    ap.add_argument("--sync", action="store_true", help="rewrite the emulator column only (no oracle needed)")
    ap.add_argument("--kernels", nargs="+", type=Path, metavar="FILE_OR_DIR",
                    help="instead: compare whole kernel files (*_kernel.cpp under a folder) between the oracle and our header")
    args = ap.parse_args(argv)
    if args.kernels:
        return compare_kernels(args.oracle, args.kernels, args.jobs)
    if args.sync:
        meta, rows = read_table()
        known = {p.id for p in PROBES}
        write_table(meta, {k: v for k, v in rows.items() if k in known})
        missing = known - set(rows)
        print(f"emulator column rewritten; {len(missing)} probes have no official verdict yet" + (": run with --oracle" if missing else ""))
        return
    commit_file = args.oracle / "asc" / "DEVKIT_COMMIT"
    if not commit_file.exists():
        sys.exit(f"{commit_file} not found: set up the api-oracle first (its README), then pass --oracle")
    commit = commit_file.read_text().strip()
    meta, rows = read_table() if CSV_PATH.exists() else ({}, {})
    if meta.get("asc-devkit commit", commit) != commit or meta.get("prelude sha256", prelude_hash()) != prelude_hash() \
            or meta.get("cube prelude sha256", prelude_hash(CUBE_PRELUDE)) != prelude_hash(CUBE_PRELUDE):
        print("the devkit or the probe prelude changed: re-checking every probe")
        args.all = True
    known = {p.id for p in PROBES}
    rows = {k: v for k, v in rows.items() if k in known}
    todo = [p for p in PROBES if args.all or p.id not in rows or rows[p.id]["code"] != p.code]
    print(f"{len(todo)} of {len(PROBES)} probes to check")
    with tempfile.TemporaryDirectory(prefix="probes-") as folder, ThreadPoolExecutor(args.jobs) as pool:
        for p, (verdict, err) in zip(todo, pool.map(lambda p: check(args.oracle, p, folder, args.memory_gb), todo)):
            rows[p.id] = dict(id=p.id, official=verdict, official_error=err, code=p.code)
    meta = {"asc-devkit commit": commit, "prelude sha256": prelude_hash(), "cube prelude sha256": prelude_hash(CUBE_PRELUDE),
            "checked with": "api-oracle check.sh (g++ -fsyntax-only, __NPU_ARCH__ 2201; AIV core, cube probes AIC)",
            "regenerate": "python tests/api_probes/oracle.py --oracle <api-oracle folder>"}
    write_table(meta, rows)
    n = sum(r["official"] == "accept" for r in rows.values())
    print(f"wrote {CSV_PATH.name}: {len(rows)} probes, {n} accepted, {len(rows) - n} rejected")


if __name__ == "__main__":
    main()
