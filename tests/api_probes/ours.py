"""Compile API probes against AscendCraft's emulation header with `g++ -fsyntax-only`: each probe's verdict
(accepted or rejected) and its compiler errors. Used by tests/test_api_parity.py, and as a command that
lists the disagreements with the official verdicts:

    python tests/api_probes/ours.py [PROBE_ID_PREFIX ...]

Speed: probes are compiled in batches, one function per probe in one translation unit, and each error is
attributed to a probe by the kernel line it comes from (its own line, or the "required from here" line of a
template instantiation). A batch verdict is trusted only where it cannot be wrong:
- probes the official headers accept are batched together; a batch without any error accepts all of them
  (g++ reports an erroneous template instantiation only once, so a batch with errors is split: the probes
  with errors are compiled alone, the rest again as a batch);
- probes the official headers reject are batched together; a probe with an error of its own is rejected,
  and a probe without one is compiled alone (its error may have been reported for an earlier probe).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from probes import EPILOGUE, HEADER, PROBES, SIGNATURE, Probe  # noqa: E402

INCLUDE = HERE.parents[1] / "ascendcraft" / "runtime" / "include"
BATCH = 48
_ERROR = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: (?:fatal )?error: ")
_FUNCTION = re.compile(r"^(?P<file>[^:\s]+): In (?:member )?function .*\bprobe_(?P<index>\d+)\b")


class Compiler:
    """g++ -fsyntax-only on probe sources. Every probe starts with HEADER's `#include "kernel_operator.h"`; that line
    becomes an include of a one-line prelude header whose precompiled form (built once per folder) g++ loads instead
    of parsing the whole emulation header again: the same declarations, on the same line numbers, about 5x faster
    per translation unit. If the precompiled header cannot be used, g++ reads the prelude's text (same verdicts)."""
    FLAGS = ("-std=c++17", "-fmax-errors=0", "-fno-diagnostics-color")
    INCLUDE_LINE = '#include "kernel_operator.h"\n'
    PRELUDE = "probe_prelude.h"

    def __init__(self, folder: str, cxx: str = "g++"):
        self.folder, self.cxx, self.n = Path(folder), cxx, 0
        self._pch_lock, self._pch_ready = threading.Lock(), False

    def _gcc(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([self.cxx, *self.FLAGS, "-I", str(INCLUDE), *args], cwd=self.folder, capture_output=True,
                              text=True, env=dict(os.environ, LC_ALL="C"))

    def _prelude(self) -> None:
        with self._pch_lock:
            if not self._pch_ready:
                (self.folder / self.PRELUDE).write_text(self.INCLUDE_LINE)
                self._gcc("-x", "c++-header", self.PRELUDE, "-o", self.PRELUDE + ".gch")
                self._pch_ready = True

    def run(self, text: str) -> tuple[str, str]:
        self.n += 1
        name = f"b{self.n}_{os.getpid()}_{id(text)}.cpp"
        if text.startswith(self.INCLUDE_LINE):
            self._prelude()
            text = f'#include "{self.PRELUDE}"\n' + text[len(self.INCLUDE_LINE):]
        (self.folder / name).write_text(text)
        r = self._gcc("-fsyntax-only", name)
        out = r.stderr
        if r.returncode != 0 and "error:" not in out:
            out += "\nerror: g++ failed without a diagnostic"
        return name, out


# A probe compiled alone gives the same output whatever the folder (the PCH is an exact stand-in for the header's text),
# so each probe's lone compile is done once per process: `verdicts` falls back to it for many probes, and
# tests/test_api_parity.py's near-miss and batching tests ask for the same compiles again.
_ALONE: dict[tuple[str, str], tuple[str, str]] = {}     # (compiler, probe source) -> (translation unit's name, g++'s output)


def compile_alone(cc: Compiler, source: str) -> tuple[str, str]:
    "`cc.run(source)`, or its earlier result in this process (same compiler, same source)."
    key = (cc.cxx, source)
    if key not in _ALONE: _ALONE[key] = cc.run(source)
    return _ALONE[key]


def batch_source(probes: list[Probe]) -> tuple[str, list[tuple[int, int]]]:
    "One translation unit with a function per probe, and each probe's line range [first, last]."
    parts, ranges, line = [HEADER], [], HEADER.count("\n") + 1
    for i, p in enumerate(probes):
        text = SIGNATURE.format(name=f"probe_{i}", extra="") + p.body + "    " + p.code + EPILOGUE
        ranges.append((line, line + text.count("\n") - 1))
        line += text.count("\n")
        parts.append(text)
    return "".join(parts), ranges


def attribute(log: str, name: str, ranges: list[tuple[int, int]]) -> tuple[dict[int, list[str]], bool]:
    "Errors of each probe (by index) and whether some error could not be attributed to a probe."
    def at(line: int):
        return next((i for i, (a, b) in enumerate(ranges) if a <= line <= b), None)
    errors, lost, context = {}, False, None
    for text in log.splitlines():
        if " note: " in text:
            continue
        m = _ERROR.match(text)
        if m:
            here = at(int(m["line"])) if m["file"] == name else None
            probe = here if here is not None else context
            if probe is None:
                lost = True
            else:
                errors.setdefault(probe, []).append(text)
            context = None
            continue
        if text.startswith(name + ":"):
            f = _FUNCTION.match(text)
            if f:
                context = int(f["index"])
            elif (n := re.match(rf"{re.escape(name)}:(\d+):", text)):
                context = at(int(n[1]))
    return errors, lost


def verdicts(probes: list[Probe], official: dict[str, bool], jobs: int | None = None, cxx: str = "g++",
             batch: int = BATCH) -> dict[str, tuple[bool, str]]:
    "probe id -> (accepted by our header, its compiler errors)."
    result: dict[str, tuple[bool, str]] = {}
    with tempfile.TemporaryDirectory(prefix="probes-") as folder, ThreadPoolExecutor(jobs or os.cpu_count() or 2) as pool:
        cc = Compiler(folder, cxx)

        def alone(p: Probe):
            _, log = compile_alone(cc, p.source())
            result[p.id] = ("error:" not in log, log)

        def accepted_batch(ps: list[Probe]):
            while ps:
                name, log = cc.run(batch_source(ps)[0])
                if "error:" not in log:
                    for p in ps: result[p.id] = (True, "")
                    return
                errors, lost = attribute(log, name, batch_source(ps)[1])
                if lost or not errors:
                    for p in ps: alone(p)
                    return
                for i in errors: alone(ps[i])
                ps = [p for i, p in enumerate(ps) if i not in errors]

        def rejected_batch(ps: list[Probe]):
            src, ranges = batch_source(ps)
            name, log = cc.run(src)
            errors, _ = attribute(log, name, ranges)
            for i, p in enumerate(ps):
                if i in errors and not p.says:
                    result[p.id] = (False, "\n".join(errors[i]))
                else:
                    alone(p)

        yes = [p for p in probes if official.get(p.id, True)]
        no = [p for p in probes if not official.get(p.id, True)]
        work = [(accepted_batch, yes[k:k + batch]) for k in range(0, len(yes), batch)]
        work += [(rejected_batch, no[k:k + batch]) for k in range(0, len(no), batch)]
        list(pool.map(lambda w: w[0](w[1]), work))
    return result


def main(argv):
    from oracle import read_table
    _, table = read_table()
    probes = [p for p in PROBES if not argv or p.id.startswith(tuple(argv))]
    official = {k: r["official"] == "accept" for k, r in table.items()}
    ours = verdicts(probes, official)
    bad = 0
    for p in probes:
        if p.id not in official:
            print(f"NO VERDICT {p.id}")
            continue
        ok, log = ours[p.id]
        want = official[p.id] and not p.unemulated
        if ok != want:
            bad += 1
            first = next((l for l in log.splitlines() if "error:" in l), "")
            print(f"{'WE ACCEPT' if ok else 'WE REJECT'} {p.id}: {p.code}\n    official: {table[p.id]['official_error']}"
                  f"\n    ours:     {first[:300]}")
    print(f"{bad} disagreements of {len(probes)}")


if __name__ == "__main__":
    main(sys.argv[1:])
