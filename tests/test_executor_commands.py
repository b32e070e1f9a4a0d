"""`calibrate` and `tune` take `--ray [ADDRESS]` and route their work through `executor_for`: every microbenchmark
and every tuning variant is one `Executor.map` item (here a local pool that notes the calls, so no Ray is needed),
with the same results as without the flag."""
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from _cache import share_builds
import ascendcraft.executor as ex
from ascendcraft.calibrate import (MICROBENCHMARKS, MICROKERNELS, NpuOnWorker, StandInDevice, calibrate, identify,
                                   measure_item, measure_kernel_item, perturbed)
from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.generate import evaluate_variant, examples_root
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.soc import load_soc

EXPERT = (examples_root() / "activation" / "leaky_relu.py").read_text()
BIGGER_TILES = re.sub(r"^TILE = 8192 .*$", "TILE = 10240  # fewer, larger tiles", EXPERT, flags=re.M)


class Noting(ex.LocalPool):
    "The local pool, noting every map call (function, item count, resources declared) and whether it was closed."
    def __init__(self, calls):
        super().__init__(1)
        self.calls = calls

    def map(self, fn, items, *, needs=None, labels=None):
        self.calls.append((fn, len(items), needs))
        return super().map(fn, items, needs=needs, labels=labels)

    def close(self): self.calls.append("closed")


@pytest.fixture
def routed(monkeypatch):
    "executor_for replaced by one that records the address it was asked for and hands out a noting local pool."
    seen = {"addresses": [], "calls": []}
    def executor_for(settings=None, jobs=None, ray=None):
        seen["addresses"].append(settings.ray_address)
        return Noting(seen["calls"])
    monkeypatch.setattr(ex, "executor_for", executor_for)
    return seen


def without_date(text: str) -> str: return re.sub(r"\d{4}-\d{2}-\d{2}", "DATE", text)


def test_calibrate_ray_routes_every_microbenchmark_through_the_executor(routed, tmp_path, capsys):
    assert main(["calibrate", "--stand-in", "--out", str(tmp_path / "local.toml")]) == 0
    assert main(["calibrate", "--stand-in", "--ray", "10.1.2.3:6379", "--out", str(tmp_path / "ray.toml")]) == 0
    assert routed["addresses"] == ["", "10.1.2.3:6379"]
    # both runs mapped all microbenchmarks in one call and all microkernels in another, on one CPU each (a stand-in
    # needs no NPU)
    assert routed["calls"] == [(measure_item, len(MICROBENCHMARKS), ex.CPU_TASK),
                               (measure_kernel_item, len(MICROKERNELS) + 1, ex.CPU_TASK), "closed"] * 2
    assert without_date((tmp_path / "ray.toml").read_text()) == without_date((tmp_path / "local.toml").read_text())


def test_tune_ray_verifies_each_variant_through_the_executor(routed, tmp_path, monkeypatch, capsys):
    cache = share_builds(tmp_path / "cache")
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(cache))
    with FakeLLMServer([f"Bigger tiles.\n\n```python\n{BIGGER_TILES}```\n"]) as srv:
        status = main(["tune", "leaky_relu", "--base-url", srv.base_url, "--model", "scripted", "--rounds", "1",
                       "--ray", "10.1.2.3:6379"])
    printed = capsys.readouterr().out
    assert status == 0 and routed["addresses"] == ["10.1.2.3:6379"]
    assert routed["calls"] == [(evaluate_variant, 1, ex.CPU_TASK), "closed"]     # v1 went through the executor
    assert re.search(r"^\| 1 \| v1( \*\*best\*\*)? \| llm \| yes \| [\d,.]+ \| [\d.]+x( level)? \|", printed, re.M), printed


class StandInNpu(StandInDevice):
    "A stand-in that claims to be an NPU (the timer is still the cost model)."
    is_npu = True


@dataclass(frozen=True)
class FakeNpuOnWorker(NpuOnWorker):
    "An NPU named by the driver and opened 'on the worker' as the NPU-claiming stand-in."
    def open(self): return StandInNpu(perturbed(load_soc("Ascend910B2")))


def test_a_real_device_declares_the_npu_resource_and_is_opened_where_it_runs():
    calls = []
    base = load_soc("Ascend910B2")
    run = calibrate(FakeNpuOnWorker("npu:3"), base, executor=Noting(calls))
    # one task reads the device's name and chip on a worker, then every microbenchmark and microkernel runs there:
    # NPU each time
    assert calls == [(identify, 1, ex.NPU_TASK), (measure_item, len(MICROBENCHMARKS), ex.NPU_TASK),
                     (measure_kernel_item, len(MICROKERNELS) + 1, ex.NPU_TASK)]
    assert run.is_npu and run.fitted.name == "Ascend910B2-standin-calibrated"
    local = calibrate(StandInNpu(perturbed(base)), base)
    assert run.text == local.text and [m.us for m in run.measured] == [m.us for m in local.measured]
