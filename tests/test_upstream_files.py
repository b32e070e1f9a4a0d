"""Upstream MultiKernelBench's own task files, unmodified (a pinned copy in tests/upstream_mkb/, MIT): every file of
`reference/` loads or gets its per-task reason, in one run, and the shapes derived for verification are the ones
recorded in `derived.json` (ranks kept, within the budget).

Shapes are derived (and recorded) for the categories the benchmark runs: the paper's seven, broadcast, index,
resize and fuse (184 files). Deriving them for the big `arch` networks takes minutes each on meta tensors, so
for the other categories the record holds only how each file loads. `python tests/test_upstream_files.py
--write` rewrites the record.
"""
import json
import sys
import time
from pathlib import Path

import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.shapes import DERIVED_ELEMENTS, size_choice
from ascendcraft.taskset import PAPER_COUNTS, load_task_folder

ROOT = Path(__file__).resolve().parent / "upstream_mkb"
REFERENCE = ROOT / "reference"
RECORD = ROOT / "derived.json"
RUN_HERE = (*PAPER_COUNTS, "broadcast", "index", "resize", "fuse")   # re-derived by the always-on test
LOAD_REASONS = {"task-missing-dependency", "task-syntax", "task-load-error", "not-a-task"}


def derived(task) -> dict:
    "What the derivation gives for one task: the size's origin and shapes, or the reason there is none."
    try:
        c = size_choice(task, "small")
    except AscendCraftError as e:
        d = e.diagnostics[0]
        return {"reason": d.kind, "message": d.message.split(";")[0][:200]}
    except Exception as e:                       # the file itself fails when its inputs are drawn (e.g. missing data)
        return {"reason": "task-file-error", "message": f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"}
    return {"kind": c.kind, "factor": c.factor, "inputs": c.inputs, "outputs": c.outputs, "largest": c.largest}


def record(categories=None) -> dict:
    "File key -> {'load': ok | diagnostic kind, …derived (RUN_HERE categories)} for the pinned copy."
    suite = load_task_folder(REFERENCE, categories)
    out = {f"{Path(d.file).parent.name}/{Path(d.file).stem}": {"load": d.kind, "message": d.message} for d in suite.skipped}
    for t in suite:
        out[t.key] = {"load": "ok", **(derived(t) if t.category in RUN_HERE else {})}
    return dict(sorted(out.items()))


@pytest.fixture(scope="module")
def saved() -> dict:
    return json.loads(RECORD.read_text())


def test_every_upstream_file_loads_or_has_a_reason_in_one_run(saved):
    files = sorted(REFERENCE.glob("*/*.py"))
    t0 = time.perf_counter()
    suite = load_task_folder(REFERENCE)
    assert time.perf_counter() - t0 < 60
    assert len(suite) + len(suite.skipped) == len(files) == 401
    assert {d.kind for d in suite.skipped} <= LOAD_REASONS
    for d in suite.skipped:
        assert d.message and d.hint, d
    missing = {Path(d.file).stem: d.message for d in suite.skipped if d.kind == "task-missing-dependency"}
    assert len(missing) == 15 and {m.split("'")[1] for m in missing.values()} == {"einops", "torch_npu"}
    loaded = {t.key for t in suite}
    assert {k for k, v in saved.items() if v["load"] == "ok"} == loaded
    assert set(saved) == {f"{p.parent.name}/{p.stem}" for p in files}


def test_the_papers_seven_categories_derive_small_shapes_that_keep_their_structure():
    suite = load_task_folder(REFERENCE, list(PAPER_COUNTS))
    assert len(suite) == 52 and not suite.skipped
    for t in suite:
        full_in, small_in = t.input_specs("full"), t.input_specs("small")
        full_out, small_out = t.output_specs("full"), t.output_specs("small")
        for f, s in zip([*full_in, *full_out], [*small_in, *small_out]):
            assert f.dtype == s.dtype and (f.shape is None) == (s.shape is None), (t.key, f, s)
            if f.is_tensor:
                assert len(f.shape) == len(s.shape), (t.key, f, s)
                assert s.numel <= DERIVED_ELEMENTS, (t.key, s)
                assert all(y > 1 for x, y in zip(f.shape, s.shape) if x > 1), (t.key, f, s)   # no axis collapsed
        assert t.init_inputs("full") == t.init_inputs("small") or t.category == "normalization", t.key


def test_derived_shapes_match_the_record(saved):
    now = record(list(RUN_HERE))
    assert len(now) == 184
    for key, value in now.items():
        assert saved[key] == value, key
    reasons = {v.get("reason") for v in now.values()} - {None}
    assert reasons <= {"no-derived-size"}, reasons            # every file either derives or says why not


if __name__ == "__main__" and "--write" in sys.argv:
    RECORD.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {RECORD}")
