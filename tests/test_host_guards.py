"""The generated host tiling function refuses shapes the lowering did not prove the kernel for.

The lowering decides integer widths, DataCopy vs DataCopyPad and buffer sizes from the shapes it
analysed, widened to an envelope (notebook 12_lower); the host pass makes the tiling function check
every runtime value against it (notebook 13_passes). Here a shape whose element count does not fit
the proven 32-bit range, and a shape that breaks the alignment a plain DataCopy relied on, are each
refused with a message naming the value, the limit and the fix — on the emulator (the C++ function
itself, through `emu.run`), through the Python API that runs a lowered kernel on new shapes
(`run_kernel`, `trace_kernel`), in the host file compiled on its own, and in the torch binding.
Shapes inside the envelope keep running and stay correct.
"""
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft import emu
from ascendcraft.check import Target, TensorSpec, evaluate_host
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.dsl import DTYPES
from ascendcraft.launch import default_target, host_args, run_kernel, tiling_refusal, trace_kernel
from ascendcraft.npu import cann_project
from ascendcraft.pipeline import Pipeline

ROOT = Path(__file__).resolve().parents[1]
F32 = DTYPES["f32"]
RELU = (ROOT / "examples" / "activation" / "relu.py").read_text()
FULL = (4096, 393216)                       # MultiKernelBench's relu input: 1 610 612 736 elements
HUGE = (3, 10**9)                           # 3e9 elements: past 2**31, where the review saw N wrap to -1294967296
FIX = "re-lower with this shape among the bindings"
needs_cc = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def lowered(source: str, name: str, shapes: list) -> Pipeline:
    pipe = Pipeline(source, name, bindings=[{"x": TensorSpec(s, F32)} for s in shapes])
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    return pipe


@pytest.fixture(scope="module")
def relu_full() -> Pipeline:
    "relu proven for an unaligned CI shape and the full size (DataCopyPad; 32-bit N up to the full size)."
    return lowered(RELU, "relu.py", [(37, 4099), FULL])


@pytest.fixture(scope="module")
def relu_aligned() -> Pipeline:
    "relu proven for one aligned shape only: its copies stay plain DataCopy."
    return lowered(RELU, "relu.py", [(64, 1024)])


def emulated_tiling(pipe: Pipeline, shape: tuple) -> emu.Run:
    "The emulator run of `shape`'s host arguments, with one-element stand-in tensors (the tiling function runs first)."
    target = default_target()
    plan = evaluate_host(pipe.program, {"x": TensorSpec(shape, F32)}, target)
    args = [emu.GM("x", np.zeros(1, np.float32), "in"), emu.GM("y", None, "out", shape=(1,), dtype=np.float32),
            emu.Workspace(), emu.Tiling()]
    return emu.run(pipe["align"].build, args, host_args=host_args(pipe.program, plan, target),
                   ub_bytes=target.ub_bytes, cores=target.cores)


def limit_in(message: str, value: int) -> int:
    "The limit a refusal names for `value` ('... = <value> exceeds <limit>: ...')."
    return int(re.search(rf"= {value} exceeds (\d+):", message)[1])


# ---------------------------------------------------------------------------------------------------------------
# (a) a count past the proven 32-bit range

def test_the_emulator_refuses_a_count_past_the_proven_range(relu_full):
    run = emulated_tiling(relu_full, HUGE)
    assert not run.ok and "host-tiling" in {d.kind for d in run.errors}
    message = tiling_refusal(run)
    assert "tiling field N = 3000000000 exceeds" in message and message.endswith(FIX), message
    assert FULL[0] * FULL[1] <= limit_in(message, 3 * 10**9) < 2**31    # the analysed full size passes, 2**31 cannot
    assert "int32_t" in message                                          # what breaks beyond the limit


def test_trace_kernel_raises_the_refusal_with_its_reason(relu_full):
    with pytest.raises(AscendCraftError) as e:
        trace_kernel(relu_full["align"].build, relu_full.program, {"x": TensorSpec(HUGE, F32)})
    d = e.value.diagnostics[0]
    assert d.kind == "host-refused" and d.file == "relu_host.cpp"
    assert "x=[3, 1000000000]" in d.message and "tiling field N = 3000000000 exceeds" in d.message and FIX in d.message
    assert "bindings" in d.hint


def test_the_analysed_shapes_and_the_ones_between_still_run(relu_full):
    trace = trace_kernel(relu_full["align"].build, relu_full.program, {"x": TensorSpec(FULL, F32)})
    assert trace.gm_bytes() == 2 * FULL[0] * FULL[1] * 4
    for shape in [(37, 4099), (5, 3), (300, 1001)]:
        x = torch.randn(*shape)
        r = run_kernel(relu_full["align"].build, relu_full.program, {"x": x})
        assert r.ok and torch.equal(r.outputs["y"], torch.relu(x)), shape


# ---------------------------------------------------------------------------------------------------------------
# (b) an unaligned shape where the align pass kept plain DataCopy

def test_an_aligned_lowering_keeps_datacopy_and_the_host_checks_its_alignment(relu_aligned):
    kernel, host = relu_aligned.final["relu_kernel.cpp"], relu_aligned.final["relu_host.cpp"]
    assert "DataCopyPad" not in kernel and kernel.count("DataCopy(") == 2
    assert re.search(r"if \(N % 8 != 0\) return Refused\(", host)


def test_the_emulator_refuses_an_unaligned_shape(relu_aligned):
    run = emulated_tiling(relu_aligned, (1, 65))
    assert not run.ok
    message = tiling_refusal(run)
    assert "tiling field N = 65 is not a multiple of 8" in message and "DataCopy" in message and message.endswith(FIX)


def test_run_kernel_raises_for_an_unaligned_shape_and_runs_aligned_ones(relu_aligned):
    build, program = relu_aligned["align"].build, relu_aligned.program
    with pytest.raises(AscendCraftError) as e:
        run_kernel(build, program, {"x": torch.randn(1, 65)})
    d = e.value.diagnostics[0]
    assert d.kind == "host-refused" and "tiling field N = 65 is not a multiple of 8" in d.message and FIX in d.message
    for shape in [(2, 1024), (3, 1000), (1, 8)]:         # other shapes whose copies stay aligned: run, and right
        x = torch.randn(*shape)
        r = run_kernel(build, program, {"x": x})
        assert r.ok and torch.equal(r.outputs["y"], torch.relu(x)), shape


def test_following_the_message_fixes_it():
    pipe = lowered(RELU, "relu.py", [(64, 1024), (1, 65)])
    assert "DataCopyPad" in pipe.final["relu_kernel.cpp"] and "% 8 != 0" not in pipe.final["relu_host.cpp"]
    x = torch.randn(1, 65)
    r = run_kernel(pipe["align"].build, pipe.program, {"x": x})
    assert r.ok and torch.equal(r.outputs["y"], torch.relu(x))


# ---------------------------------------------------------------------------------------------------------------
# (c) UB: buffer sizes that follow the shape, against the ubBytes the launcher passes

def test_buffers_that_grow_with_the_shape_are_checked_against_ub_bytes():
    source = (ROOT / "examples" / "activation" / "log_softmax.py").read_text()
    pipe = lowered(source, "log_softmax.py", [(4, 16), (4, 4096)])   # tile = min(6144, align_up(C, 8))
    assert "ubNeeded > ubBytes" in pipe.final["log_softmax_host.cpp"]
    build, program = pipe["align"].build, pipe.program
    small = Target("small-ub", default_target().cores, 64 * 1024)
    x = torch.randn(4, 16)
    r = run_kernel(build, program, {"x": x}, target=small)          # 16-element tiles fit 64 KB
    assert r.ok and torch.allclose(r.outputs["y"], torch.log_softmax(x, 1), atol=1e-5)
    with pytest.raises(AscendCraftError) as e:                       # 4096-element tiles do not
        run_kernel(build, program, {"x": torch.randn(4, 4096)}, target=small)
    message = e.value.diagnostics[0].message
    need = int(re.search(r"UB bytes the kernel's buffers take = (\d+) exceeds 65536", message)[1])
    assert need > 64 * 1024 and "InitBuffer" in message and FIX in message


# ---------------------------------------------------------------------------------------------------------------
# The C++ on its own: the review's reproduction, and the torch binding on an NPU

HOST_MAIN = """#include <cstdio>
#include <cstdlib>
#include "relu_host.cpp"
int main(int argc, char** argv)
{
    TensorShape x;
    x.rank = 2; x.dims[0] = std::atoll(argv[1]); x.dims[1] = std::atoll(argv[2]); x.numel = x.dims[0] * x.dims[1];
    TensorShape y; ReluTilingData t{}; uint32_t blockDim = 0; uint64_t workspace = 0; char reason[REASON_BYTES] = {};
    const char* error = ReluTiling(x, 48, 196352, &y, &t, &blockDim, &workspace, reason);
    std::printf("%s|N=%d blockDim=%u\\n", error ? error : "none", t.N, blockDim);
}
"""


@needs_cc
def test_the_host_file_compiled_alone_refuses_what_the_review_saw_wrap(relu_full, relu_aligned, tmp_path):
    for label, pipe in (("full", relu_full), ("aligned", relu_aligned)):
        folder = tmp_path / label
        folder.mkdir()
        for name in ("relu_host.cpp", "relu_tiling.h"): (folder / name).write_text(pipe.final[name])
        (folder / "main.cpp").write_text(HOST_MAIN)
        subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "main.cpp", "-o", "tiling"], cwd=folder, check=True)
    def tiling(label, *dims): return subprocess.run([str(tmp_path / label / "tiling"), *map(str, dims)],
                                                    capture_output=True, text=True, check=True).stdout.strip()
    assert tiling("full", *HUGE).startswith("tiling field N = 3000000000 exceeds")      # was: err=none N=-1294967296
    assert tiling("full", *FULL) == "none|N=1610612736 blockDim=48"
    assert tiling("aligned", 1, 65).startswith("tiling field N = 65 is not a multiple of 8")
    assert tiling("aligned", 64, 1024) == "none|N=65536 blockDim=8"


BINDING_MAIN = """#include "relu_torch.cpp"
#include <cstdio>
extern "C" uint32_t aclrtlaunch_relu_custom(uint32_t, aclrtStream, void*, void*, void*, void*) { std::printf("launched\\n"); return 0; }
int main()
{
    const at::TensorOptions npu(c10::Device(c10::DeviceType::PrivateUse1, 0));
    for (int64_t columns : {1024, 65}) {
        at::Tensor x = at::empty({1, columns}, npu.dtype(at::kFloat));
        try { ReluCall(x, 48, 196352); }
        catch (const std::exception& e) { std::printf("refused: %s\\n", e.what()); }
    }
}
"""


@needs_cc
def test_the_torch_binding_raises_instead_of_launching(relu_aligned, tmp_path):
    from test_npu import launch_header, standin_headers            # the stand-in torch / torch_npu / ACL headers
    folder = cann_project(relu_aligned.final, relu_aligned.lowering, target=default_target()).write(tmp_path / "project")
    (folder / "aclrtlaunch_relu_custom.h").write_text(launch_header(relu_aligned))
    (folder / "driver.cpp").write_text(BINDING_MAIN)
    include = standin_headers(tmp_path / "standin")
    subprocess.run(["g++", "-std=c++17", "-I", str(include), "-I", str(folder), "driver.cpp", "-o", "driver"],
                   cwd=folder, check=True)
    out = subprocess.run(["./driver"], cwd=folder, capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "launched"                                     # 1 x 1024: aligned, as proven
    assert out[1].startswith("refused: relu: tiling field N = 65 is not a multiple of 8") and out[1].endswith(FIX)
    assert len(out) == 2                                            # and nothing was launched for it


# ---------------------------------------------------------------------------------------------------------------
# Every example still accepts the shapes it was lowered for, the full benchmark sizes included (which the
# lowering tests never execute): all 54 host files compiled into one program and called with each binding.

@needs_cc
def test_every_example_accepts_the_shapes_it_was_lowered_for(tmp_path):
    from ascendcraft.bind import shape_bindings
    from ascendcraft.generate import expert_path
    from ascendcraft.taskset import get_task, registry
    target = default_target()
    examples = sorted(p for p in map(expert_path, registry()) if p.exists())
    includes, calls, expected = [], [], []
    for i, path in enumerate(examples):
        task = get_task(path.stem)
        pipe = Pipeline(path.read_text(), path.name, task=task, compile=False)
        pipe.run_all()
        assert pipe.final is not None, pipe.summary()
        names = pipe.lowering.names
        folder = tmp_path / f"case{i}"
        folder.mkdir()
        for name in (names.host_file, names.tiling_file): (folder / name).write_text(pipe.final[name])
        includes += [f"namespace case{i} {{", f"#define ascendcraft_tiling ascendcraft_tiling_{i}",
                     f'#include "case{i}/{names.host_file}"', "#undef ascendcraft_tiling", "}"]
        for binding in shape_bindings(pipe.program, task):
            plan = evaluate_host(pipe.program, binding, target)
            args = host_args(pipe.program, plan, target)
            calls.append(f"    {{ const int64_t a[] = {{{', '.join(f'{v}LL' for v in args)}}}; uint32_t b = 0; uint64_t w = 0;\n"
                         f"      const int rc = case{i}::ascendcraft_tiling_{i}(a, {len(args)}, tiling, sizeof(tiling), &b, &w);\n"
                         f'      std::printf("{path.stem} %d %u\\n", rc, b); }}')
            expected.append(f"{path.stem} 0 {plan.blocks}")
    assert len(examples) >= 54 and len(expected) == 2 * len(examples)        # the CI shapes and the full ones
    main = ["#include <cmath>", "#include <cstdint>", "#include <cstdio>", "#include <cstring>", *includes, "",
            "alignas(8) static unsigned char tiling[64 * 1024];", "int main()", "{", *calls, "}", ""]
    (tmp_path / "main.cpp").write_text("\n".join(main))
    subprocess.run(["g++", "-std=c++17", "-O0", "main.cpp", "-o", "hosts"], cwd=tmp_path, check=True, capture_output=True)
    run = subprocess.run(["./hosts"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == expected, run.stderr                # rc 0 (accepted) and the DSL's block count


# ---------------------------------------------------------------------------------------------------------------
# Inside the envelope the kernel is right: odd shapes on the kernels lowered for the task's shapes (no re-lowering)

ODD = [("relu", (1, 5)), ("relu", (3, 48 * 8 + 3)), ("softmax", (5, 9001)), ("cumsum", (130, 67)),
       ("max_reduction_over_a_dimension", (3, 20, 129))]


@pytest.mark.parametrize("task_id,shape", ODD, ids=[f"{t}-{'x'.join(map(str, s))}" for t, s in ODD])
def test_a_task_kernel_runs_odd_shapes_it_accepts_correctly(task_id, shape):
    from ascendcraft.bind import bind
    from ascendcraft.generate import expert_path
    from ascendcraft.taskset import get_task
    task = get_task(task_id)
    path = expert_path(task)
    pipe = Pipeline(path.read_text(), path.name, task=task)
    pipe.run_all()
    assert pipe.final is not None, pipe.summary()
    values = bind(pipe.program, task, trial=0, signed=True).values
    values["x"] = torch.randn(*shape, generator=torch.Generator().manual_seed(3))
    run = run_kernel(pipe["align"].build, pipe.program, values)       # every one of these is inside the envelope
    assert run.ok, "\n".join(map(str, run.run.diagnostics))
    model = task.model("small")
    with torch.no_grad():
        want = model(*[values[n] for n in task.forward_params])
    assert torch.allclose(next(iter(run.outputs.values())), want, atol=1e-4, rtol=1e-4)
