"""API parity: our emulation header accepts exactly what CANN's official headers accept.

Every probe in tests/api_probes/probes.py (one-line AscendC usages and the near-misses an LLM writes) is
compiled against `ascendcraft/runtime/include` with g++ and must get the official verdict recorded in
tests/api_probes/official_verdicts.csv (made with the asc-devkit oracle; CI needs only the table). The
documented exceptions, which the table's `emulator` column names:
- `run-time error <kind>`: the official headers accept the call and AscendC checks it at run time; we accept it
  too, and running it must stop with that diagnostic at the probe's line;
- `not emulated`: a real AscendC API the CPU emulation does not provide; we reject it at compile time.
"""
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, parse_compiler_output, run

PROBE_DIR = Path(__file__).parent / "api_probes"
sys.path.insert(0, str(PROBE_DIR))
from oracle import emulator_column, prelude_hash, read_table  # noqa: E402
from ours import Compiler, compile_alone, verdicts  # noqa: E402
from probes import BODY, CUBE_PRELUDE, HEADER, NOT_PROBED, PROBES, RUN_ARGS, SIGNATURE  # noqa: E402

META, TABLE = read_table()
OFFICIAL = {k: r["official"] == "accept" for k, r in TABLE.items()}


def test_the_table_has_a_current_official_verdict_for_every_probe():
    assert len(PROBES) >= 400 and len({p.id for p in PROBES}) == len(PROBES)
    assert META["asc-devkit commit"] and META["prelude sha256"] == prelude_hash() \
        and META["cube prelude sha256"] == prelude_hash(CUBE_PRELUDE), \
        "the probe prelude changed: re-run tests/api_probes/oracle.py --all --oracle <api-oracle>"
    missing = [p.id for p in PROBES if p.id not in TABLE]
    assert not missing, f"no official verdict for {missing}: run tests/api_probes/oracle.py --oracle <api-oracle>"
    stale = [p.id for p in PROBES if TABLE[p.id]["code"] != p.code]
    assert not stale, f"probes changed since their verdict: {stale}: run tests/api_probes/oracle.py --oracle <api-oracle>"
    unsynced = [p.id for p in PROBES if TABLE[p.id]["emulator"] != emulator_column(p)]
    assert not unsynced, f"the emulator column is out of date for {unsynced}: run tests/api_probes/oracle.py --sync"
    assert set(TABLE) == {p.id for p in PROBES}, "the table has rows of deleted probes: run oracle.py --sync"


def api_names() -> set[str]:
    "The AscendC API names our header declares: functions, methods, API macros (not the emulation's own helpers)."
    names = set()
    for f in sorted((INCLUDE_DIR / "ascendcraft_emu").glob("*.h")):
        if f.name in ("internal.h", "race.h", "driver.h"): continue          # the runtime library's own headers
        if f.name in ("ops_base.h", "ops_base_types.h"): continue  # CANN opbase's op_host helpers, not AscendC: tests/test_opproject_tpl.py
        text = re.sub(r"namespace (\w+_detail) \{.*?\}\s*// namespace \1\b", "", f.read_text(), flags=re.S)  # helpers
        text = re.sub(r"namespace ascendcraft \{ namespace \w+ \{.*?\}\}", "", text, flags=re.S)   # ascendcraft::emu, ::tpl, ...
        names |= set(re.findall(r"^(?:template\s*<[^\n]*>\s*)?inline\s+[^\n(]*?\b(\w+)\s*\(", text, re.M))
        names |= set(re.findall(r"^ASCENDCRAFT_EMU_\w+\((\w+)", text, re.M))          # macro-generated API families
        # methods (a `return` statement's call is none: dlog_library.h's `return AlogCheckDebugLevel(...)`)
        names |= set(re.findall(r"^\s+(?:template <[^\n]*> )?(?:(?!return\b)[\w:<>\*&]+ )+([A-Z]\w*)\(", text, re.M))
        names |= set(re.findall(r"^#define ([A-Z][A-Z_]{3,})\(", text, re.M))
    return {n for n in names if not n.startswith("ASCENDCRAFT") and n not in ("API", "LocalTensor", "GlobalTensor")}


def test_every_api_of_the_header_has_probes():
    "The probe set grows with the API: each name the header declares is used by some probe (or NOT_PROBED says why)."
    names = api_names()
    assert {"Add", "DataCopyPad", "GetPosition", "SetL2CacheHint", "pipe_barrier", "GET_TILING_DATA"} <= names
    used = " ".join(p.code for p in PROBES)
    missing = sorted(n for n in names - set(NOT_PROBED) if not re.search(rf"\b{n}\b", used))
    assert not missing, (f"APIs without a probe: {missing}; add probes to tests/api_probes/probes.py and record their "
                         "official verdicts (tests/api_probes/oracle.py), see the README section on API parity")


def test_exceptions_are_only_calls_the_official_headers_accept():
    wrong = [p.id for p in PROBES if (p.runtime or p.unemulated) and not OFFICIAL[p.id]]
    assert not wrong, f"marked as run-time checked or not emulated, but the official headers reject them: {wrong}"
    assert not [p.id for p in PROBES if p.runtime and p.unemulated]


@pytest.fixture(scope="module")
def ours():
    return verdicts(PROBES, OFFICIAL)


def test_our_header_gives_the_official_verdict(ours):
    "Every probe: the official accept/reject, except the documented `not emulated` ones (which we reject)."
    bad = []
    for p in PROBES:
        ok, log = ours[p.id]
        want = OFFICIAL[p.id] and not p.unemulated
        if ok and p.unemulated:
            bad.append(f"accepted {p.id}: {p.code}  marked not emulated: the emulation provides it now, so delete its "
                       "UNEMULATED entry in tests/api_probes/probes.py and run tests/api_probes/oracle.py --sync")
        elif ok != want:
            first = next((line for line in log.splitlines() if "error:" in line), "")
            bad.append(f"{'accepted' if ok else 'rejected'} {p.id}: {p.code}  official: {TABLE[p.id]['official']}"
                       f" {TABLE[p.id]['official_error']}  ours: {first[:200]}")
    assert not bad, f"{len(bad)} disagreements with the official headers:\n" + "\n".join(bad)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    "g++ -fsyntax-only with the emulation header precompiled once (tests/api_probes/ours.py)."
    return Compiler(str(tmp_path_factory.mktemp("near-miss")))


@pytest.mark.parametrize("probe", [p for p in PROBES if p.says], ids=lambda p: p.id)
def test_near_miss_errors_name_the_official_signature(probe, compiler):
    "The emulator's diagnostic for a near-miss (message and hint) names what AscendC declares."
    assert not OFFICIAL[probe.id]
    name, log = compile_alone(compiler, probe.source())     # `ours` compiled each near-miss alone already: its output
    errors = [d for d in parse_compiler_output(log, {name: probe.source()}, root=str(compiler.folder)) if d.is_error]
    assert errors and errors[0].line == probe.line, errors
    assert probe.says in errors[0].message + "\n" + errors[0].hint, errors[0].render()


def run_time_kernel(probes) -> tuple[str, dict[str, int]]:
    "One kernel with every run-time probe (of one core) as a case of a switch on `which`, and the line of each probe."
    text = HEADER + SIGNATURE.format(name="probe", extra=", int32_t which") + probes[0].body + "    switch (which) {\n"
    where = {}
    for i, p in enumerate(probes):
        where[p.id] = text.count("\n") + 1
        text += f"    case {i}: {{ {p.code} }} break;\n"
    free = "    qa1.FreeTensor(a1); qb1.FreeTensor(b1); qa2.FreeTensor(a2); qb2.FreeTensor(b2); qc1.FreeTensor(c1);\n"
    return text + "    default: break;\n    }\n" + (free if probes[0].core == "aic" else "") + "}\n", where


RUN_TIME = {core: [p for p in PROBES if p.runtime and p.core == core] for core in ("aiv", "aic")}


@pytest.fixture(scope="module")
def run_time_builds(tmp_path_factory):
    out = {}
    for core, probes in RUN_TIME.items():
        src, where = run_time_kernel(probes)
        path = tmp_path_factory.mktemp("runtime") / f"probes_{core}.cpp"
        path.write_text(src)
        b = build(path)
        assert b.ok, "\n".join(map(str, b.diagnostics))
        out[core] = (b, where)
    return out


@pytest.mark.parametrize("core,index", [(c, i) for c, ps in RUN_TIME.items() for i in range(len(ps))],
                         ids=[p.id for ps in RUN_TIME.values() for p in ps])
def test_run_time_checked_calls_stop_at_their_line(run_time_builds, core, index):
    b, where = run_time_builds[core]
    p = RUN_TIME[core][index]
    args = [GM(name, np.zeros(n, dtype)) for name, dtype, n in RUN_ARGS] + [index]
    r = run(b, args, block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == p.runtime and errs[0].line == where[p.id], (p.id, errs or r.diagnostics)
    assert "Ascend 910B" in errs[0].message and errs[0].hint, errs[0]


@pytest.mark.parametrize("core", list(RUN_TIME))
def test_the_run_time_kernel_runs_clean_without_a_probe(run_time_builds, core):
    "The prelude itself is a correct kernel: only the probe's call stops a run."
    b, _ = run_time_builds[core]
    r = run(b, [GM(name, np.zeros(n, dtype)) for name, dtype, n in RUN_ARGS] + [-1], block_dim=1)
    assert r.ok, r.diagnostics


def test_batched_verdicts_equal_one_probe_per_translation_unit():
    "The batching shortcut (one function per probe) gives the same verdicts as compiling each probe alone."
    sample = [p for p in PROBES if p.id.split(".")[0] in ("Exp", "Cast", "DataCopyExtParams", "TQue")]
    batched = verdicts(sample, OFFICIAL)
    alone = verdicts(sample, OFFICIAL, batch=1)
    assert {k: v[0] for k, v in batched.items()} == {k: v[0] for k, v in alone.items()}
    assert len(sample) > 40 and any(v[0] for v in alone.values()) and not all(v[0] for v in alone.values())
