"""Run every notebook in nbs/ as a test, the way nbdev-test does, so pytest counts them."""
import os
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


@pytest.mark.parametrize("nb", NBS, ids=[p.stem for p in NBS])
def test_notebook(nb):
    ok, _ = nbt.test_nb(nb, skip_flags=SKIP, force_flags=FORCE, basepath=cfg.config_path)
    assert ok, f"{nb.name} failed (the traceback is in the captured stderr)"
