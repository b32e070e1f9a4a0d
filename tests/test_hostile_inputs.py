"""Hostile inputs that must not take a run down: invalid UTF-8 kernel files, huge or deeply nested DSL, a trace
flood, bad settings values, an unusable cache folder, project file names that leave the project. Each gives one
clear error naming the place or the setting (the LLM trickle test is in test_hostile_results.py)."""
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.bench import plan, run_task
from ascendcraft.config import SettingsError, load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.dsl import parse
from ascendcraft.emu import GM, Scalar, build, trace
from ascendcraft.taskset import registry

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = Path(__file__).parent / "hostile"
RELU = (ROOT / "examples" / "activation" / "relu.py").read_text()


def test_an_invalid_utf8_kernel_file_fails_only_its_task(tmp_path):
    kernels = tmp_path / "kernels"
    (kernels / "activation").mkdir(parents=True)
    (kernels / "activation" / "relu.py").write_bytes(RELU.encode() + b"\n# caf\xe9 \xff\xfe\n")
    (kernels / "activation" / "tanh.py").write_text(RELU.replace("relu", "tanh"))
    specs = plan(list(registry(tasks=["relu", "tanh"])), kernels, tmp_path / "out", size="small", timing=False,
                 source="expert", settings=load_settings(), task_timeout=60)        # planning the run survives it
    assert len(specs) == 2
    bad = next(s for s in specs if s.task == "relu")
    result = run_task(bad)
    assert (result.status, result.detail) == ("dsl-error", "encoding") and "not valid UTF-8" in result.message
    assert "relu.py" in result.message and "byte" in result.message


@pytest.mark.parametrize("statements", [100_000, 1_000_000])
def test_a_huge_dsl_is_rejected_in_linear_time(statements):
    big = RELU + "\n".join(f"C{i} = {i}" for i in range(statements))
    started = time.perf_counter()
    with pytest.raises(AscendCraftError) as err:
        parse(big, "big.py")
    assert err.value.diagnostics[0].kind == "dsl-too-large"
    assert time.perf_counter() - started < 0.5


def test_a_deeply_nested_dsl_is_one_error():
    with pytest.raises(AscendCraftError) as err:
        parse("X = " + "(" * 50_000 + "1" + ")" * 50_000, "deep.py")
    assert err.value.diagnostics[0].kind in ("syntax", "dsl-too-large")


def test_a_trace_flood_hits_the_cap_before_memory_is_spent():
    b = build(HOSTILE / "trace_flood.cpp")
    args = [GM("x", None, "in", shape=(256,), dtype=np.float32), GM("y", None, "out", shape=(256,), dtype=np.float32),
            Scalar(256)]
    with pytest.raises(AscendCraftError) as err:
        trace(b, args, block_dim=1, settings=load_settings().replace(file_limit_mb=2))
    d = err.value.diagnostics[0]
    assert d.kind == "trace-too-large" and d.file == "trace_flood.cpp" and d.line == 17 and "file_limit_mb" in d.message


@pytest.mark.parametrize("name,value", [("atol", float("inf")), ("rtol", float("nan")), ("trials", 0), ("jobs", 0),
                                        ("run_timeout", -1.0), ("soc", "Ascend999"), ("sandbox", "off")])
def test_a_bad_settings_value_is_one_error_naming_it(name, value):
    with pytest.raises(SettingsError, match=f"setting '{name}'"):
        load_settings().replace(**{name: value})


def test_the_cli_reports_a_bad_setting_in_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "ASCENDCRAFT_TRIALS": "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "ascendcraft.cli", "doctor"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [l for l in done.stderr.strip().splitlines() if "setting 'trials'" in l]


def test_an_unusable_cache_folder_is_one_error_naming_cache_dir(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(AscendCraftError) as err:
        build(HOSTILE / "big_file.cpp", settings=load_settings().replace(cache_dir=str(blocker / "cache")))
    d = err.value.diagnostics[0]
    assert d.kind == "cache-dir" and "cache_dir" in d.hint


@pytest.mark.parametrize("name", ["../escape.cpp", "/tmp/abs.cpp", "a/../../b.h"])
def test_project_file_names_cannot_leave_the_project(name, tmp_path):
    b = build({"k.cpp": (HOSTILE / "big_file.cpp").read_text(), name: "int x;"})
    assert not b.ok and b.errors[0].kind == "source-name"
