"""Ray is optional: importing AscendCraft and running the local pool never import it, and asking for Ray where it is
missing is a diagnostic that says how to get it."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)


def test_the_package_and_a_local_run_never_import_ray(tmp_path):
    code = f"""
import sys, json
import ascendcraft, ascendcraft.bench, ascendcraft.executor, ascendcraft.cli, ascendcraft.generate
from ascendcraft.bench import run_bench
from ascendcraft.config import load_settings
from ascendcraft.generate import examples_root
rep = run_bench(["relu"], kernels=examples_root(), out={str(tmp_path / 'run')!r}, timing=False, progress=False,
                settings=load_settings().replace(trials=1, ray_address=""))
print(json.dumps({{"status": rep.results[0].status, "ray": sorted(m for m in sys.modules if m == "ray" or m.startswith("ray."))}}))
"""
    p = run(code)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out == {"status": "ok", "ray": []}
    record = json.loads((tmp_path / "run" / "execution.json").read_text())
    assert record["sessions"][0]["executor"] == "local" and record["tasks"]["activation/relu"]["node"] == "local"


def test_missing_ray_is_a_diagnostic_with_the_fix():
    code = """
import sys
sys.modules["ray"] = None          # as if it were not installed
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.executor import RayExecutor
try:
    RayExecutor("127.0.0.1:1").connect()
except AscendCraftError as e:
    print(e.render())
"""
    p = run(code)
    assert p.returncode == 0, p.stderr
    assert "no-ray" in p.stdout and "pip install 'ascendcraft[ray]'" in p.stdout
