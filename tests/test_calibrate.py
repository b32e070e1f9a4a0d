"""`ascendcraft calibrate` end to end against the stand-in device (the same microbenchmark code, the timer injected):
no NPU is used, the run says so, and the profile it writes loads and drives the cost model."""
import io
from contextlib import redirect_stdout

import pytest

from ascendcraft.calibrate import (CUBE_MICROKERNEL, MICROBENCHMARKS, MICROKERNELS, StandInDevice, calibrate, export_microkernel,
                                   microkernel_pipeline, perturbed, run_microbenchmark, run_microkernel)
from ascendcraft.cli import main
from ascendcraft.cost import kernel_time, tiled_trace
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.eager import TensorSpec, eager_time
from ascendcraft.soc import load_soc

BASE = load_soc("Ascend910B2")


def test_the_fixed_set_covers_what_the_issue_asks_for():
    kinds = {b.kind for b in MICROBENCHMARKS}
    assert kinds == {"copy", "launch", "host", "vector", "cube", "eager"}
    copies = [b for b in MICROBENCHMARKS if b.kind == "copy"]
    assert len(copies) >= 6 and all(b.l2 == "flushed" for b in copies)          # bandwidth by size needs HBM, not L2
    assert {b.api for b in MICROBENCHMARKS if b.kind == "vector"} >= {"Add", "Exp", "Div", "Sqrt", "Sigmoid"}
    assert len({b.name for b in MICROBENCHMARKS}) == len(MICROBENCHMARKS)


def test_the_microkernels_cover_the_instruction_classes_and_cancel_the_fixed_costs():
    apis = {k.api for k in MICROKERNELS}
    assert {"Add", "Mul", "Muls", "Exp", "Sqrt", "Div", "Sigmoid", "Tanh"} <= apis
    truth = perturbed(BASE)
    m = run_microkernel("mk-exp", StandInDevice(truth))
    # a dearer launch moves both times alike: the reading is the difference, so it does not change
    slow_launch = run_microkernel("mk-exp", StandInDevice(truth.replace(launch_us=truth.launch_us * 3)))
    assert slow_launch.us[0] > m.us[0] and slow_launch.cycles_per_repeat(BASE) == pytest.approx(m.cycles_per_repeat(BASE))
    assert m.cycles_per_repeat(BASE) == pytest.approx(truth.vector_ops["Exp"], rel=0.02)


def test_each_microbenchmark_runs_on_its_own_through_the_device_layer():
    truth = perturbed(BASE)
    dev = StandInDevice(truth)
    m = run_microbenchmark("copy-64MB", dev)
    assert "NO NPU USED" in m.where
    # the stand-in's timer is the cost model on the truth profile, read the way the benchmark is timed: L2 flushed by
    # writing a buffer larger than it, so the run starts with L2 dirty (its lines are written back as the copy comes in)
    spec = [TensorSpec((16 << 20,))]
    assert m.us == pytest.approx(eager_time(lambda x: x.clone(), spec, truth, l2_state="flushed").device_us)
    assert m.us > eager_time(lambda x: x.clone(), spec, truth).device_us
    host = run_microbenchmark("host-add", dev)
    assert host.us == pytest.approx(truth.op_host_us)
    with pytest.raises(AscendCraftError, match="no microbenchmark named"):
        run_microbenchmark("copy-huge", dev)


@pytest.fixture(scope="module")
def stand_in_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cal") / "mine.toml"
    return calibrate(StandInDevice(perturbed(BASE)), BASE, out=out)


def test_calibrate_finds_the_stand_ins_chip_and_writes_a_profile_the_model_uses(stand_in_run):
    run, truth = stand_in_run, perturbed(BASE)
    mine = load_soc(run.path)
    assert mine.name == "Ascend910B2-standin-calibrated" and mine.origins["vector_cores"] == "Ascend910B2"
    for key in ("hbm_bytes_per_s", "op_host_us", "launch_us"):         # what the stand-in's truth changed
        assert getattr(mine, key) == pytest.approx(getattr(truth, key), rel=0.12), key
        assert "NO NPU USED" in mine.sources[key]
    assert mine.view_host_us == pytest.approx(BASE.view_host_us, rel=0.12)   # and what it left alone
    # the microkernels read each instruction class directly: the truth's dearer Exp and Mul, and Add as it was
    assert {k.kernel.api for k in run.kernels} == {k.api for k in MICROKERNELS} | {"cube"}
    # the cube microkernel reads the M pipe directly: the truth's slower cube (1.25 cycles per fractal)
    assert mine.cube_fractal_cycles == pytest.approx(truth.cube_fractal_cycles, rel=0.02) != BASE.cube_fractal_cycles
    assert "microkernel mk-cube" in mine.sources["cube_fractal_cycles"] and "NO NPU USED" in mine.sources["cube_fractal_cycles"]
    assert "| `cube_fractal_cycles`" in run.distance()
    for api in ("Exp", "Mul", "Add", "Sigmoid"):
        assert mine.vector_ops[api] == pytest.approx(truth.vector_ops[api], rel=0.05), api
        assert f"microkernel mk-{api.lower()}" in mine.sources[f"vector_ops.{api}"] and "NO NPU USED" in mine.sources[f"vector_ops.{api}"]
    assert mine.vector_ops["Exp"] == pytest.approx(1.5 * BASE.vector_ops["Exp"], rel=0.05)
    big = tiled_trace(1 << 24)
    assert kernel_time(big, mine).total_us > kernel_time(big, BASE).total_us  # slower HBM: the model uses the profile
    text = run.distance()
    assert "No NPU was used" in text and "| `hbm_bytes_per_s` |" in text
    before, after = (line for line in text.splitlines() if line.startswith(("| default", "| fitted")))
    assert int(after.split("|")[2].split("/")[0]) > int(before.split("|")[2].split("/")[0])   # fitted is closer


def test_the_command_says_no_npu_was_used(tmp_path, stand_in_run, monkeypatch):
    import ascendcraft.calibrate as cal
    monkeypatch.setattr(cal, "calibrate", lambda device, base, out, **how: stand_in_run)   # the fit itself is tested above
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["calibrate", "--stand-in", "--out", str(tmp_path / "p.toml")]) == 0
    assert buf.getvalue().startswith("NO NPU IS USED") and "No NPU was used" in buf.getvalue()


def test_without_an_npu_and_without_the_stand_in_the_command_says_what_is_missing(capsys):
    assert main(["calibrate"]) == 2
    err = capsys.readouterr().err
    assert "error" in err and ("CANN" in err or "NPU" in err or "torch_npu" in err)


def test_the_cube_microkernel_reads_the_m_pipe_alone():
    truth = perturbed(BASE)
    m = run_microkernel(CUBE_MICROKERNEL, StandInDevice(truth))
    assert m.us[1] > m.us[0]
    assert CUBE_MICROKERNEL.cycles_per_fractal(*m.us, truth) == pytest.approx(truth.cube_fractal_cycles, rel=0.02)
    # a dearer launch and a slower HBM move both builds alike: the reading is the difference
    other = truth.replace(launch_us=truth.launch_us * 3, hbm_bytes_per_s=truth.hbm_bytes_per_s / 2)
    m2 = run_microkernel(CUBE_MICROKERNEL, StandInDevice(other))
    assert m2.us[0] > m.us[0]
    assert CUBE_MICROKERNEL.cycles_per_fractal(*m2.us, other) == pytest.approx(truth.cube_fractal_cycles, rel=0.02)


@pytest.mark.parametrize("mk", [CUBE_MICROKERNEL, MICROKERNELS[0]], ids=lambda k: k.name)
def test_the_microkernels_export_as_cann_projects(tmp_path, mk):
    # as far as the CANN path runs without CANN: the lowered microkernel's project, which an Ascend host builds
    import json
    reps = mk.reps[1]
    pipe = microkernel_pipeline(mk, reps=reps)
    folder = export_microkernel(mk, pipe, tmp_path / mk.entry, soc_version="Ascend910B2")
    manifest = json.loads((folder / "ascendcraft_npu.json").read_text())
    assert manifest["soc_version"] == "Ascend910B2"
    kernel = (folder / f"{mk.entry}_kernel.cpp").read_text()
    assert (folder / "CMakeLists.txt").is_file() and (folder / f"{mk.entry}_host.cpp").is_file()
    if mk is CUBE_MICROKERNEL:
        assert kernel.count("Mmad(") == reps               # the Mmads written out, one per repeat
        assert [t["name"] for t in manifest["inputs"]] == ["a", "b"]
    else:
        assert [t["name"] for t in manifest["inputs"]][0] == "x"
