"""Golden files of generated AscendC: any change to what the passes print shows up as a diff here.

Regenerate after an intended change with `python -m pytest tests/test_golden.py --update-golden`
and review the diff in git.
"""
import difflib
from pathlib import Path

import pytest

from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
CASES = ["activation/relu", "activation/softmax", "loss/mse_loss", "pooling/max_pooling_2d"]


@pytest.mark.parametrize("case", CASES, ids=[c.split("/")[1] for c in CASES])
def test_generated_code_matches_golden(case, request):
    path = ROOT / "examples" / f"{case}.py"
    pipe = Pipeline(path.read_text(), path.name, task=get_task(path.stem), compile=False)
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    folder = GOLDEN / path.stem
    if request.config.getoption("--update-golden"):
        pipe.final.write(folder)
        return
    problems = []
    for name, text in pipe.final.files:
        want = (folder / name).read_text() if (folder / name).exists() else ""
        if text != want:
            problems.append("".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                         f"golden/{name}", f"generated/{name}")))
    assert not problems, "generated code differs from tests/golden (rerun with --update-golden if intended):\n" + "\n".join(problems)
