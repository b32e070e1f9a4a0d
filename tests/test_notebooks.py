"""Run every notebook in nbs/ as a test, the way nbdev-test does, so pytest counts them."""
import os
import tempfile
from pathlib import Path

import pytest
import nbdev.test as nbt  # not `from nbdev.test import test_nb`: pytest would collect it
from nbdev.config import get_config

ROOT = Path(__file__).resolve().parents[1]
cfg = get_config(path=ROOT)
NBS = sorted(p for p in Path(cfg.nbs_path).rglob("*.ipynb")
             if not any(part.startswith(("_", ".")) for part in p.relative_to(cfg.nbs_path).parts))
SKIP = cfg.tst_flags.split()
FORCE = os.environ.get("NBDEV_FLAGS", "").split()


@pytest.fixture
def notebook_tmp(tmp_path, monkeypatch) -> Path:
    """The temporary folder of the notebook's run: its demos' `tempfile.mkdtemp()` folders (own-operator-*,
    ascendcraft-llm-*, the CLI demos' runs: about thirty a run, most never removed, since a notebook reads as a
    tutorial) and the processes it starts (TMPDIR) put their files in the test's tmp_path, which pytest removes when the
    test passes, instead of in /tmp. The sandbox gives its commands their own TMPDIR whatever this one is."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("nb", NBS, ids=[p.stem for p in NBS])
def test_notebook(nb, notebook_tmp):
    ok, _ = nbt.test_nb(nb, skip_flags=SKIP, force_flags=FORCE, basepath=cfg.config_path)
    assert ok, f"{nb.name} failed (the traceback is in the captured stderr)"
    assert tempfile.gettempdir() == str(notebook_tmp)          # the run's temporary files were all under tmp_path
