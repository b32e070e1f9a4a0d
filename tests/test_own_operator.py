"""Your own operator, end to end: `ascendcraft new` (and its refusals), task files wherever a task id goes,
`ascendcraft export` and `ascendcraft.use`.

The operator is one the project has never seen: a gated residual RMSNorm written here, in a scratch file,
not in tiny_llama.py or the registry. It goes from that file to a verified kernel and an exported shim
through the CLI and through the workbench, once with the DSL from the local OpenAI-compatible test server
(a scripted reply) and once with a hand-written DSL.
"""
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import torch

import ascendcraft
from ascendcraft.cli import main
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.export import ExportedKernel, SwappedModule, use
from ascendcraft.generate import judge_dsl
from ascendcraft.llm import LLMClient, ReplyCache
from ascendcraft.llm_server import FakeLLMServer
from ascendcraft.new import new_task
from ascendcraft.session import Session
from ascendcraft.taskset import get_task, registry

ROOT = Path(__file__).resolve().parents[1]

# -- the operator nobody has seen: x * sigmoid(gate), then RMSNorm, times a weight ----------------
USER_FILE = '''"""A user's model file (it imports something a task file cannot carry, for a part the operator does not use)."""
import torch
from torch import nn
import json  # used only by save_config, which the operator does not need

EPS = 1e-5


def save_config(cfg, path):
    path.write_text(json.dumps(cfg))


class GatedRMSNorm(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))

    def forward(self, x, gate):
        g = x * torch.sigmoid(gate)
        return g * torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + EPS) * self.weight


def nonzero_rows(x):
    return x[x.sum(-1) > 0]


class RunningScale(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))

    def forward(self, x):
        self.scale.mul_(0.9)
        return x * self.scale


def square_root(x):
    return torch.sqrt(x)


def add_into(x, y):
    x += y
    return x

'''

# The DSL for it, as an expert writes it (and as the scripted model answers): one row per step.
GATED_DSL = '''"""gated_rms_norm: g = x * sigmoid(gate); y = g / sqrt(mean(g ** 2) + eps) * weight, per row."""
from ascendcraft.dsl import *

MAX_D = 4096


@host
def gated_rms_norm(x: gm[f32, B, S, D], gate: gm[f32, B, S, D], weight: gm[f32, D], y: out[f32, x]):
    assert D <= MAX_D, "a row must fit one UB buffer"
    rows = B * S
    per_block = ceil_div(rows, cores())
    blocks = ceil_div(rows, per_block)
    cols = align_up(D, 8)
    launch(gated_kernel, blocks, x, gate, weight, y, rows, D, cols, per_block, 1.0 / D, 1e-5)


@kernel
def gated_kernel(x: gm[f32, R, D], gate: gm[f32, R, D], weight: gm[f32, D], y: gm[f32, R, D], R: int, D: int,
                 cols: int, per_block: int, inv_d: float, eps: float):
    xin = ub_in(f32, cols, bufs=2)
    gin = ub_in(f32, cols, bufs=2)
    win = ub_in(f32, cols, bufs=1)
    yout = ub_out(f32, cols, bufs=2)
    w = ub_buf(f32, cols)
    g = ub_buf(f32, cols)
    sq = ub_buf(f32, cols)
    red = ub_buf(f32, 8)
    with copyin():
        load(win, weight[0:D])
    with compute("weight"):
        copy(w, win, cols)
    r0 = block_idx() * per_block
    r1 = min(r0 + per_block, R)
    for r in range(r0, r1):
        with copyin():
            load(xin, x[r, 0:D])
            load(gin, gate[r, 0:D])
        with compute("norm"):
            sigmoid(g, gin, D)
            mul(g, g, xin, D)
            mul(sq, g, g, D)
            reduce_sum(red, sq, sq, D)
            dup(red, get(red, 0) * inv_d + eps, 8)
            sqrt(red, red, 8)
            scale = 1.0 / get(red, 0)
            muls(yout, g, scale, D)
            mul(yout, yout, w, D)
        with copyout():
            store(y[r, 0:D], yout)
'''


@pytest.fixture(scope="module")
def user_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("user") / "my_model.py"
    path.write_text(USER_FILE)
    return path


@pytest.fixture(scope="module")
def task_file(user_file, tmp_path_factory) -> Path:
    made = new_task(user_file, "GatedRMSNorm", ["x=f32[2,12,96]", "gate=f32[2,12,96]"], [96])
    return made.write(tmp_path_factory.mktemp("tasks"))


def run_cli(*argv) -> tuple:
    "(status, stdout, stderr) of `ascendcraft …` in this process."
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


# -- `new`: the task file ----------------------------------------------------------------------------
def test_new_writes_a_standalone_task_with_small_shapes_signed_inputs_and_its_reasons(task_file, user_file):
    text = task_file.read_text()
    assert "import json" not in text and "save_config" not in text          # only what the operator uses
    assert "EPS = 1e-5" in text and "class Model(GatedRMSNorm):" in text
    task = get_task(str(task_file))
    assert (task.id, task.category) == ("gated_rms_norm", "")
    assert [str(s) for s in task.input_specs("full")] == ["x: float32[2, 12, 96]", "gate: float32[2, 12, 96]"]
    small = [s.shape for s in task.input_specs("small")]
    assert small[0] == small[1] and small[0][-1] % 8 != 0 and small[0][-1] < 96   # unaligned rows
    assert task.init_inputs("small") == [small[0][-1]]                            # the hidden size follows the row
    assert task.signed_mode is True and "# Signed inputs: the reference is finite on inputs in [-1, 1)" in text
    assert "# Small size for verification on the CPU emulation: odd sizes" in text
    # the task's reference is the user's operator (its constant weight given random values)
    net = task.model("full")
    assert not torch.equal(net.weight, torch.ones(96))
    namespace = {}
    exec(compile(USER_FILE, str(user_file), "exec"), namespace)
    mine = namespace["GatedRMSNorm"](96)
    mine.load_state_dict(net.state_dict())
    x, gate = task.inputs("full")
    torch.testing.assert_close(mine(x, gate), task.reference([x, gate], "full"))


def test_the_randomised_weight_makes_verification_notice_a_kernel_that_ignores_it(task_file):
    task = get_task(str(task_file))
    assert judge_dsl(task, GATED_DSL)[1] == []
    _, problems = judge_dsl(task, GATED_DSL.replace("            mul(yout, yout, w, D)\n", ""))
    assert problems and "does not match the reference" in problems[0]


def test_a_reference_that_is_not_finite_on_negative_inputs_gets_no_signed_inputs(user_file):
    made = new_task(user_file, "square_root", ["x=f32[3,40]"])
    assert made.task.signed_mode is False
    assert "# Signed inputs: the reference is not finite on inputs in [-1, 1)" in made.text


def test_new_keeps_its_scratch_task_files_in_the_cache_by_content(user_file, tmp_path, monkeypatch):
    "A made task's scratch file lives under the cache, named by its text: making the same task again adds no file."
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(tmp_path / "cache"))
    first = new_task(user_file, "square_root", ["x=f32[3,40]"])
    again = new_task(user_file, "square_root", ["x=f32[3,40]"])
    assert first.task.path == again.task.path and first.task.path.is_relative_to(tmp_path / "cache" / "new")
    assert first.task.path.read_text() == first.text
    files = sorted((tmp_path / "cache" / "new").rglob("*.py"))
    assert first.task.path in files and len(files) <= 2      # the probe text (size not yet decided) and the final one


# -- `new`: one test per refusal, each asserting its message -------------------------------------------------
def refusal(user_file, target, inputs, init=()) -> str:
    with pytest.raises(AscendCraftError) as e:
        new_task(user_file, target, inputs, list(init))
    return e.value.render()


def test_refuses_a_data_dependent_output_shape(user_file):
    text = refusal(user_file, "nonzero_rows", ["x=f32[6,40]"])
    assert "error[new-data-dependent-shape]: nonzero_rows indexes with a boolean mask, so its output size depends on " \
           "the input values, not only their shapes" in text
    assert "return x[x.sum(-1) > 0]" in text and "hint: a kernel's outputs are sized before it runs" in text
    assert f"{user_file}:{USER_FILE.splitlines().index('    return x[x.sum(-1) > 0]') + 1}:" in text


def test_refuses_in_place_mutation_of_a_parameter(user_file):
    text = refusal(user_file, "RunningScale", ["x=f32[3,4]"])
    assert "error[new-mutates-state]: RunningScale.forward changes its parameter 'scale' in place" in text
    assert "self.scale.mul_(0.9)" in text and "return the new value as an output" in text


def test_refuses_in_place_mutation_of_an_input(user_file):
    text = refusal(user_file, "add_into", ["x=f32[3,40]", "y=f32[3,40]"])
    assert "error[new-mutates-input]: add_into changes its input 'x' in place" in text
    assert "x += y" in text and "compute into a new tensor" in text


def test_refuses_an_unsupported_dtype(user_file):
    text = refusal(user_file, "square_root", ["x=float64[3,40]"])
    assert "error[new-unsupported-dtype]: input 'x' is float64, which AscendCraft's kernels do not handle" in text
    assert "hint: give the operator float32 (`.float()`) inputs" in text


def test_refuses_an_import_a_task_file_cannot_carry(user_file):
    other = user_file.parent / "foreign.py"
    other.write_text("import torch\nimport transformers\n\ndef f(x):\n    return transformers.act(x)\n")
    with pytest.raises(AscendCraftError) as e:
        new_task(other, "f", ["x=f32[3,4]"])
    assert "error[new-foreign-import]: f needs `import transformers`, which a task file cannot import" in e.value.render()


# -- task files wherever a task id goes ---------------------------------------------------------------------
def test_the_registry_and_the_cli_take_a_task_file_where_an_id_goes(task_file, tmp_path):
    assert registry(tasks=[str(task_file)]).ids == ["gated_rms_norm"]
    dsl = tmp_path / "gated.py"
    dsl.write_text(GATED_DSL)
    status, out, err = run_cli("lower", dsl, "--task-file", task_file, "--verify")
    assert status == 0, err
    assert "verify: pass — gated_rms_norm (small): passed 5 MultiKernelBench trial(s) and 5 signed trial(s)" in out


@pytest.mark.slow
def test_bench_runs_a_task_file_like_a_registry_task(task_file, tmp_path, monkeypatch):
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "gated_rms_norm.py").write_text(GATED_DSL)          # a task without a category: <kernels>/<id>.py
    monkeypatch.chdir(task_file.parent)                             # a relative path: the task process runs elsewhere
    status, out, err = run_cli("bench", "--task-file", task_file.name, "--kernels", kernels, "--out", tmp_path / "run",
                               "--jobs", "1", "--quiet")
    assert status == 0, err
    result = json.loads(next((tmp_path / "run").rglob("result.json")).read_text())
    assert (result["task"], result["status"], result["correct"]) == ("gated_rms_norm", "ok", True)
    assert result["timing"]["speedup"] > 0


# -- done when: user file -> verified kernel -> exported shim, CLI and workbench, LLM and hand DSL ----------------
def fenced(code: str) -> str:
    return f"Here is the kernel.\n\n```python\n{code.rstrip()}\n```\n"


def check_export(folder: Path, task_file: Path, generated_test: bool = False):
    "The export folder is complete, its shim swaps the module (and its generated test passes)."
    assert {p.name for p in folder.iterdir()} >= {"ascendcraft_export.json", "task.py", "kernel.py", "kernel", "npu",
                                                  "test_swap.py", "verdict.json", "README.md"}
    assert (folder / "npu" / "CMakeLists.txt").is_file() and (folder / "npu" / "gated_rms_norm_torch.cpp").is_file()
    net = get_task(str(task_file)).model("full")
    x, gate = torch.randn(2, 12, 96), torch.randn(2, 12, 96)
    with torch.no_grad():
        swapped = ascendcraft.use(net, folder)
        torch.testing.assert_close(swapped(x, gate), net(x, gate))
        assert swapped.last_backend == "original"
        emulated = ascendcraft.use(net, folder, backend="emulator")
        torch.testing.assert_close(emulated(x, gate), net(x, gate), atol=1e-4, rtol=1e-4)
        assert emulated.last_backend == "emulator"
    if not generated_test: return
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder / "test_swap.py")],
                         capture_output=True, text=True, cwd=folder, timeout=600,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and "2 passed, 1 skipped" in run.stdout, run.stdout + run.stderr


@pytest.mark.slow
def test_cli_user_file_to_exported_shim_with_the_llm_server(user_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli("new", user_file, "GatedRMSNorm", "--input", "x=f32[2,12,96]", "--input", "gate=f32[2,12,96]",
                               "--init", "96")
    assert status == 0, err
    task_file = tmp_path / "gated_rms_norm.py"
    assert f"task file written to {task_file}" in out
    # the usual cache folder (warm emulator builds; a symlinked one is not followed inside the build sandbox), and a
    # model name of this run's own, so no reply cached by an earlier run answers in the server's place
    model = f"scripted-{uuid.uuid4().hex[:12]}"
    with FakeLLMServer([fenced(GATED_DSL)], models=(model,)) as srv:
        status, out, err = run_cli("generate", "--task-file", task_file, "--base-url", srv.base_url, "--model", model,
                                   "--out", tmp_path / "gen")
        assert status == 0, err
        prompt = srv.chat_requests[0].body["messages"][1]["content"]
    assert len(srv.chat_requests) == 1 and "expert DSL kernels of the most similar operators" in prompt and "Expert kernel `rms_norm`" in prompt
    dsl = tmp_path / "gen" / "gated_rms_norm.py"
    assert dsl.read_text().strip() == GATED_DSL.strip()
    status, out, err = run_cli("export", dsl, "--task-file", task_file, "--out", tmp_path / "export", "--time")
    assert status == 0, err
    assert "verify: pass" in out and "modelled on Ascend910B2" in out
    assert 'ascendcraft.use(module, "' in out
    check_export(tmp_path / "export", task_file, generated_test=True)


@pytest.mark.slow
def test_workbench_user_file_to_exported_shim_with_a_hand_written_dsl_and_with_the_llm(task_file, tmp_path):
    from ascendcraft.workbench import Workbench
    # hand-written DSL: typed into the workbench's editor
    wb = Workbench(Session(str(task_file)), background=False)
    assert wb.session.dsl == ""                                           # no expert kernel for the user's operator
    wb.dsl_editor.value = GATED_DSL
    wb.buttons["run_all"].click()
    assert [s.status for s in wb.session.steps] == ["ok"] * 5
    wb.export_folder.value = str(tmp_path / "hand")
    wb.buttons["export_kernel"].click()
    assert wb.session.verdict.passed and "kernel exported to" in wb.export_view.value
    check_export(tmp_path / "hand", task_file)
    # the LLM writes it: the scripted server answers stage 1 (first a wrong kernel, then the right one)
    settings = load_settings(llm_base_url="", llm_model="scripted", llm_max_rounds=3)
    with FakeLLMServer([fenced(GATED_DSL.replace("mul(g, g, xin, D)", "add(g, g, xin, D)")), fenced(GATED_DSL)]) as srv:
        settings = settings.replace(llm_base_url=srv.base_url)
        llm = LLMClient(settings, cache=ReplyCache(tmp_path / "replies"))
        wb = Workbench(Session(str(task_file), settings=settings, llm=llm), background=False)
        wb.buttons["ask_dsl"].click()
        assert len(srv.chat_requests) == 2
    assert wb.session.generation.ok and wb.session.generation.rounds == 2 and not wb.session.generation.pass_at_1
    assert wb.dsl_editor.value.strip() == GATED_DSL.strip()
    wb.export_folder.value = str(tmp_path / "llm")
    wb.buttons["export_kernel"].click()
    assert "kernel exported to" in wb.export_view.value, wb.runner.error.value
    assert json.loads((tmp_path / "llm" / "ascendcraft_export.json").read_text())["op"] == "gated_rms_norm"


# -- the shim on the NPU path, with a stand-in for the built torch_npu extension ----------------------------
class StandInKernel:
    "What npu.load_kernel returns, minus the device: records the named values, computes with torch."
    def __init__(self): self.calls = []

    def __call__(self, **values):
        self.calls.append(values)
        g = values["x"] * torch.sigmoid(values["gate"])
        return g * torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + 1e-5) * values["weight"]


def test_the_npu_path_binds_the_users_own_weights_by_name(task_file, tmp_path, monkeypatch):
    session = Session(str(task_file), GATED_DSL)
    from ascendcraft.export import export_kernel
    folder = export_kernel(session, tmp_path / "export")
    stand_in = StandInKernel()
    import ascendcraft.npu as npu
    monkeypatch.setattr(npu, "load_kernel", lambda path, env=None, **kw: stand_in if Path(path) == folder.resolve() / "npu" else None)
    net = get_task(str(task_file)).model("full")
    with torch.no_grad(): net.weight.copy_(torch.linspace(0.5, 2.0, 96))     # "trained" weights
    swapped = use(net, folder, backend="npu")
    x, gate = torch.randn(2, 12, 96), torch.randn(2, 12, 96)
    with torch.no_grad():
        torch.testing.assert_close(swapped(x, gate), net(x, gate))
    assert swapped.last_backend == "npu"
    call = stand_in.calls[0]
    assert set(call) == {"x", "gate", "weight"} and torch.equal(call["weight"], net.weight)
    assert dict(swapped.state_dict()) .keys() == {"original.weight"}
    with pytest.raises(AscendCraftError, match="backend must be one of auto, npu, emulator, original"):
        use(net, folder, backend="gpu")
    with pytest.raises(AscendCraftError, match="is not an AscendCraft export"):
        use(net, tmp_path)


def test_export_refuses_a_kernel_that_fails_verification(task_file, tmp_path):
    from ascendcraft.export import export_kernel
    session = Session(str(task_file), GATED_DSL.replace("            mul(yout, yout, w, D)\n", ""))
    with pytest.raises(AscendCraftError, match=r"export-unverified|failed verification"):
        export_kernel(session, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()


def test_one_task_commands_take_the_task_by_position_or_by_task_file(task_file):
    from ascendcraft.cli import _chosen_task, build_parser
    parse = build_parser().parse_args
    assert _chosen_task(parse(["tune", "--task-file", str(task_file)])) == task_file
    assert _chosen_task(parse(["tune", str(task_file)])) == str(task_file)
    assert _chosen_task(parse(["workbench"])) == "softmax"
    assert parse(["generate", "--task-file", "a.py", "--task", "relu"]).tasks == ["a.py", "relu"]
    assert parse(["lower", "k.py", "--task-file", "a.py"]).task == "a.py"
    with pytest.raises(AscendCraftError, match="both a task"):
        _chosen_task(parse(["tune", "relu", "--task-file", str(task_file)]))
    with pytest.raises(AscendCraftError, match="no task given"):
        _chosen_task(parse(["tune"]))


def test_the_workbench_server_gets_the_task_file_as_an_absolute_path(task_file, monkeypatch):
    "The Voila page runs in a folder of its own, so a relative task path is made absolute before it is handed over."
    import ascendcraft.workbench as wb
    seen = {}

    class Stop(Exception): pass

    def page(task, settings, folder, *args, **kwargs):
        seen["task"], seen["folder"] = task, folder
        assert folder.is_dir()
        raise Stop
    monkeypatch.setattr(wb, "workbench_page", page)
    monkeypatch.chdir(task_file.parent)
    with pytest.raises(Stop):
        wb.launch_workbench(task_file.name, port=0, block=False)
    assert seen["task"] == str(task_file.resolve())
    assert not seen["folder"].exists()            # a launch that fails removes its /tmp/ascendcraft-workbench-* folder
