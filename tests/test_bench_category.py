"""examples/bench_category.ipynb runs end to end, as a user runs it: in a fresh Jupyter kernel, from examples/.

The notebook benchmarks the optimizer category (5 tasks) into `<tempdir>/ascendcraft-bench-optimizer`. The kernel
gets its own TMPDIR, so the run starts from an empty folder (nothing resumed from an earlier run on this machine)
and leaves nothing behind; the notebook itself is run unchanged.
"""
from pathlib import Path

import json

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "bench_category.ipynb"
OPTIMIZER = ["adagrad", "adam", "lamb", "rmsprop", "sgd"]


def outputs_text(cell) -> str:
    "Everything a cell showed: streams, text/plain and text/markdown."
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream": parts.append(out.get("text", ""))
        data = out.get("data", {})
        parts += [data.get("text/markdown", ""), data.get("text/plain", "")]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tmpdir")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    mp = pytest.MonkeyPatch()
    mp.setenv("TMPDIR", str(tmp))                      # the kernel's tempfile.gettempdir()
    try:
        NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    finally:
        mp.undo()
    return nb, tmp / "ascendcraft-bench-optimizer"


def test_notebook_shows_the_category_table(executed):
    nb, out = executed
    code = [c for c in nb.cells if c.cell_type == "code"]
    shown = "\n".join(outputs_text(c) for c in code)
    assert "| optimizer | 5 | 100.0% (5) | 100.0% (5) |" in shown
    assert "modelled on the Ascend910B2 profile" in shown
    for task in OPTIMIZER: assert f"| {task} | optimizer |" in shown
    assert "'timeline.svg'" in shown and "'verdict.json'" in shown and "# adam: speed-up" in shown


def test_notebook_run_folder_holds_the_category(executed):
    nb, out = executed
    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("optimizer/*/result.json")}
    assert sorted(results) == OPTIMIZER
    assert all(r["status"] == "ok" and r["timing"]["kind"] == "modelled" for r in results.values())
    assert (out / "summary.md").is_file() and (out / "tasks.md").is_file()
