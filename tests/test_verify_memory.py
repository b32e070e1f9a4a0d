"""What a verification holds in memory (issue 17: full shapes by default where they fit). One input set is drawn, moved
once into files that both poison runs link as their GM (no copy per run), the candidate runs on it, then the reference
runs on the same tensors (no clone); nothing of a trial outlives it. Small shapes, behaviour only: which file a GM
input is, which storage the reference sees, and the peak of a mid-size case against the tensors it must hold."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.config import Settings
from ascendcraft.emu import GM, SharedInputs, build, run
from ascendcraft.bench import EmulatedKernel
from ascendcraft.taskset import get_task, load_task_file, registry
from ascendcraft.verify import fingerprint, verify

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = Settings()

ADD_ONE = (Path(__file__).parent / "emu_kernels" / "misc" / "add_one.cpp").read_text()


def test_a_shared_input_is_linked_into_each_run_not_written():
    b = build({"k.cpp": ADD_ONE})
    assert b.ok, b.diagnostics
    shared = SharedInputs()
    x = shared.share(np.arange(512, dtype=np.float32))
    args = [GM("x", x), GM("y", None, "out", shape=(512,), dtype=np.float32), 64]
    from ascendcraft.emu import Scalar
    args[2] = Scalar(64)
    first = run(b, args, block_dim=8, inputs=shared)
    second = run(b, args, block_dim=8, inputs=shared, poison=0xFF)
    assert first.ok and second.ok
    assert shared.linked == 2                     # both runs took the set's file as their GM input
    np.testing.assert_array_equal(first.outputs["y"], x + 1)
    np.testing.assert_array_equal(second.outputs["y"], x + 1)
    path, _ = shared.files[x.ctypes.data]
    assert os.stat(path).st_nlink == 1            # the run folders' links are gone with the runs
    # an array the set does not hold is written as before
    other = np.arange(512, dtype=np.float32) * 2
    third = run(b, [GM("x", other), args[1], args[2]], block_dim=8, inputs=shared)
    assert third.ok and shared.linked == 2
    np.testing.assert_array_equal(third.outputs["y"], other + 1)
    shared.close()
    assert not path.exists()


TASK = textwrap.dedent('''
    import torch
    import torch.nn as nn
    SEEN = []

    class Model(nn.Module):
        """Doubles x in place (as an optimizer updates its state) and returns it."""
        def forward(self, x):
            SEEN.append(x.data_ptr())
            return x.mul_(2.0)

    n = 4096
    def get_inputs():
        return [torch.rand(n)]

    def get_init_inputs():
        return []
    ''')


@pytest.fixture()
def inplace_task(tmp_path):
    path = tmp_path / "misc" / "double_in_place.py"
    path.parent.mkdir()
    path.write_text(TASK)
    return load_task_file(path)


def test_the_reference_runs_on_the_candidates_own_inputs(inplace_task):
    seen = []
    def candidate(xs):
        seen.append(xs[0].data_ptr())
        return xs[0] * 2.0
    verdict = verify(inplace_task, candidate, settings=SETTINGS, trials=2, signed=False)
    assert verdict.passed, verdict.summary
    real = [p for p in inplace_task.module.SEEN if p]  # (0: a run on meta tensors, when the task's shapes were read)
    assert seen == real                               # the same storage: no clone of the set for the reference


def test_an_output_aliasing_an_input_is_not_changed_by_the_reference(inplace_task):
    # returns its input unchanged: the reference's in-place update must not turn it into the right answer
    verdict = verify(inplace_task, lambda xs: xs[0], settings=SETTINGS, trials=1, signed=False)
    assert (verdict.passed, verdict.kind) == (False, "mismatch")


def test_a_mutating_candidate_leaves_the_reference_a_fresh_draw():
    relu = get_task("relu")
    expected = torch.relu(relu.inputs("small", SETTINGS.seed, 0)[0])
    def zeroing(xs):
        xs[0].zero_()
        return xs[0].clone()
    verdict = verify(relu, zeroing, settings=SETTINGS, trials=1, signed=False)
    assert verdict.kind == "mutated-input"
    # the record's fingerprints are the set as drawn: the one the reference was run on again
    assert verdict.trials[0].inputs["x"] != ""
    assert float(expected.sum()) > 0


PEAK = textwrap.dedent('''
    import json, resource, sys, torch
    from ascendcraft.config import Settings
    from ascendcraft.taskset import get_task
    from ascendcraft.verify import verify
    torch.set_num_threads(1)
    relu = get_task("relu")
    size = {"batch_size": 256, "dim": 1 << 18}         # 64 M floats, 256 MiB a tensor
    verify(relu, lambda xs: torch.relu(xs[0]), settings=Settings(), trials=1, signed=False)   # warm at small shapes
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    v = verify(relu, lambda xs: torch.relu(xs[0]), size=size, settings=Settings(), trials=1, signed=True)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"passed": v.passed, "trials": len(v.trials), "growth": after - before}))
    ''')


def test_a_trial_holds_the_set_and_both_outputs_only():
    """Peak RSS growth of a plain and a signed trial at 64 M floats against one tensor (256 MiB): the input, the
    candidate's output and the reference's output are 3, and the chunked comparison's float64 chunks about 100 MiB
    more whatever the size; a clone of the set for the reference, the previous trial's set or reference still alive at
    the next draw, or the signed transform's temporaries would each add a whole tensor."""
    out = subprocess.run([sys.executable, "-c", PEAK], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["passed"] and got["trials"] == 2
    tensor = 256 * (1 << 18) * 4
    assert got["growth"] < 3.8 * tensor, got["growth"] / tensor


def test_the_estimate_counts_what_a_verification_holds():
    "Meta-tensor estimates (nothing allocated): relu holds its set and two outputs; mse's reference holds (a - b) and its square."
    from ascendcraft.bench import VERIFY_OVERHEAD_MB, verification_memory
    relu = verification_memory(get_task("relu"), SETTINGS)
    one = 4096 * 393216 * 4
    assert (relu.inputs, relu.outputs, relu.reference, relu.draw) == (one, one, one, one)
    assert relu.peak == 3 * one + (VERIFY_OVERHEAD_MB << 20)
    mse = verification_memory(get_task("mse_loss"), SETTINGS)
    assert mse.reference == mse.inputs and mse.outputs == 4


class QuietProgress:
    "A progress display that shows nothing (bench.execute's scheduling tests)."
    def started(self, name): pass
    def finished(self, result, seconds): pass


def spec_like(size: str):
    "A task spec for the scheduling tests (16 GB verification budget); tests replace its task, folder and memory."
    import dataclasses
    from ascendcraft import bench
    settings = dataclasses.asdict(Settings(verify_memory_mb=16_000))
    settings.pop("sources")
    return bench.TaskSpec("t", "c", "f", None, None, "/nonexistent", size, False, "expert", settings, "", 60.0)


def test_full_shape_tasks_start_only_while_their_memory_fits(monkeypatch):
    "Three 10 GB full-shape tasks and two small ones on 2 jobs with a 16 GB budget: never two large ones at once."
    import dataclasses
    from ascendcraft import bench
    running, peaks = [], []

    class Proc:
        def __init__(self): self.polls = 0
        def poll(self):
            self.polls += 1
            return 0 if self.polls > 3 else None

    def launch(spec, server=None, threads=0):
        assert server is None
        running.append(spec)
        peaks.append(sum(s.memory_mb for s in running))
        return bench._Job(spec, Proc(), 0.0, float("inf"), None)

    def finish(job, timed_out):
        running.remove(job.spec)
        return job.spec.task

    base = spec_like("full")
    specs = [dataclasses.replace(base, task=f"big{i}", folder=f"/x/big{i}", memory_mb=10_000.0) for i in range(3)]
    specs += [dataclasses.replace(base, task=f"small{i}", folder=f"/x/small{i}", size="small") for i in range(2)]
    monkeypatch.setattr(bench, "_launch", launch)
    monkeypatch.setattr(bench, "_finish", finish)
    monkeypatch.setattr(bench, "_fork_server", lambda specs: None)   # no task process is started: no server for them
    got = bench.execute(specs, 2, QuietProgress(), poll=0)
    assert got == [s.task for s in specs]                       # every task ran, results in order
    assert max(peaks) <= 16_000                                 # two 10 GB verifications never side by side
    assert len(peaks) == 5


def test_the_largest_verifications_start_first(monkeypatch):
    "Small tasks listed before full-shape ones on 2 jobs: the full-shape ones start first, largest first; results in order."
    import dataclasses
    from ascendcraft import bench
    started = []

    class Done:
        def poll(self): return 0

    def launch(spec, server=None, threads=0):
        started.append(spec.task)
        return bench._Job(spec, Done(), 0.0, float("inf"), None)

    base = spec_like("small")
    specs = [dataclasses.replace(base, task=f"small{i}", folder=f"/x/small{i}") for i in range(2)]
    specs += [dataclasses.replace(base, task=name, folder=f"/x/{name}", size="full", memory_mb=mb)
              for name, mb in (("mid", 3_000.0), ("big", 9_000.0))]
    monkeypatch.setattr(bench, "_launch", launch)
    monkeypatch.setattr(bench, "_finish", lambda job, timed_out: job.spec.task)
    monkeypatch.setattr(bench, "_fork_server", lambda specs: None)
    assert bench.execute(specs, 2, QuietProgress(), poll=0) == [s.task for s in specs]
    assert started == ["big", "mid", "small0", "small1"]

def test_the_next_input_set_writes_the_files_of_the_last_one_nothing_maps():
    shared = SharedInputs()
    x = shared.share(np.arange(1024, dtype=np.float32))
    keep = shared.share(np.arange(256, dtype=np.int32))       # a second array, still alive below
    path_x, _ = shared.files[x.ctypes.data]
    path_keep, _ = shared.files[keep.ctypes.data]
    gone = shared.share(np.ones(64, dtype=np.float64))         # a size the next set does not have
    path_gone, _ = shared.files[gone.ctypes.data]
    del x, gone
    shared.recycle([4096, 1024])          # the next set: one 4096-byte and one 1024-byte tensor
    assert not path_gone.exists()         # a file of no wanted size goes at once
    y = shared.share(np.arange(1024, dtype=np.float32)[::-1].copy())
    assert shared.files[y.ctypes.data][0] == path_x and shared.reused == 1      # written again, not made anew
    np.testing.assert_array_equal(y, np.arange(1024, dtype=np.float32)[::-1])
    z = shared.share(np.full(256, 7, dtype=np.int32))          # the 1024-byte file is still mapped by `keep`
    assert shared.files[z.ctypes.data][0] != path_keep and shared.reused == 1
    np.testing.assert_array_equal(keep, np.arange(256, dtype=np.int32))       # its values did not change
    e = shared.empty((8,), np.float32)                          # no spare of this size: a new file, all zeros
    assert not e.any()
    shared.drop_spare()
    assert not path_keep.exists()         # unlinked; `keep` still maps its pages
    np.testing.assert_array_equal(keep, np.arange(256, dtype=np.int32))
    shared.close()
    assert not path_x.exists()


def test_a_reused_file_handed_out_empty_reads_zeros():
    shared = SharedInputs()
    x = shared.share(np.full(512, 3.0, dtype=np.float32))
    path, _ = shared.files[x.ctypes.data]
    del x
    shared.recycle([2048])
    e = shared.empty((512,), np.float32)
    assert shared.files[e.ctypes.data][0] == path and not e.any()
    shared.close()


def test_a_full_shape_verification_keeps_one_set_of_output_files_only_within_its_estimated_peak():
    from ascendcraft.bench import VerifyMemory, output_keep_mb
    G = 2 ** 30
    pool = VerifyMemory(inputs=2 * G, largest_input=2 * G, outputs=2 * G, reference=2 * G, draw=2 * G, elements=1)
    assert output_keep_mb(pool) == 2048                 # draw + last set + kept outputs = 6 GiB = the two-run term
    heavy_draw = VerifyMemory(inputs=4 * G, largest_input=4 * G, outputs=4 * G, reference=4 * G, draw=16 * G, elements=1)
    assert output_keep_mb(heavy_draw) == 0              # 16 + 4 + 4 GiB would pass the 16 GiB estimate
    reduction = VerifyMemory(inputs=8 * G, largest_input=8 * G, outputs=0, reference=0, draw=8 * G, elements=1)
    assert output_keep_mb(reduction) == 0


class _SetFiles(EmulatedKernel):
    "EmulatedKernel's input-set handling (`drawing`, `share_inputs`) around a torch candidate: no build, no run."
    DRAW_LEAST = 0                         # every tensor the draw makes (small shapes)

    def __init__(self, fn):
        self.fn, self.settings, self.shared, self.drawn, self._drawing, self.in_files = fn, SETTINGS, None, 0, False, []
        self.filled, self.fill_note, self._uniform = 0, None, False

    def __call__(self, inputs):
        self.in_files.append([self.shared.file_of(v.numpy()) is not None for v in inputs if isinstance(v, torch.Tensor)])
        return self.fn(*inputs)


@pytest.mark.parametrize("name", [t.id for t in registry(None, None)])
def test_a_set_drawn_into_its_files_is_the_set_drawn_without_them(name):
    """Every task's sets, plain and signed, drawn with every new tensor made in the set's files: the same bits, shapes,
    strides; a task whose draw calls torch.rand has those tensors filled by the exact uniform fill (`draws`)."""
    task = get_task(name)
    for signed in ([False, True] if task.has_signed else [False]):
        plain = [[fingerprint(v) for v in s] for s in task.iter_input_sets("small", 2, SETTINGS.seed, signed=signed)]
        kernel, sets, placed = _SetFiles(None), task.iter_input_sets("small", 2, SETTINGS.seed, signed=signed), []
        for _ in plain:
            with kernel.drawing(): s = next(sets)
            placed.append([fingerprint(v) for v in s])
            kernel.share_inputs(s)
            del s
        assert placed == plain
        assert kernel.drawn > 0
        assert kernel.fill_note is None
        assert (kernel.filled > 0) == ("torch.rand(" in Path(task.path).read_text()), (kernel.filled, kernel.draws_text())


def test_verify_draws_each_set_into_the_files_the_runs_link():
    """triplet_margin_loss (its anchor is `torch.rand(...) * scale`: the uniform draw is an intermediate): the candidate
    sees every input in a file of the set, nothing is copied there, the second set writes the first set's files again,
    and the verdict and the trials' input fingerprints are those of a plain candidate's."""
    task = get_task("triplet_margin_loss")
    fn = torch.nn.TripletMarginLoss(margin=1.0)
    kernel = _SetFiles(fn)
    got = verify(task, kernel, settings=SETTINGS, trials=2, signed=True)
    plain = verify(task, lambda xs: fn(*xs), settings=SETTINGS, trials=2, signed=True)
    assert got.passed and plain.passed, got.summary
    assert [r.inputs for r in got.trials] == [r.inputs for r in plain.trials] and len(got.trials) == 4
    assert kernel.in_files == [[True] * 3] * 4
    assert kernel.drawn == 4 * 5                     # per set: the scale, three uniform draws and the product
    assert kernel.shared.reused >= 3 * 3             # sets 2-4: the last set's files, not new ones
    assert kernel.shared.linked == 0                 # (no run links them here)
    files = [path for path, _ in kernel.shared.files.values()]
    assert files and all(p.exists() for p in files)
    kernel.release_inputs()                          # the verification is over: its last set's files go (judge, sizecheck)
    assert kernel.shared is None and not any(p.exists() for p in files)


def test_a_draw_makes_a_tensor_in_its_own_memory_when_the_files_have_no_room(monkeypatch):
    """A full tmpfs raises SIGBUS on the next page written (hinge_loss's signed draw holds three 4 GiB tensors; the
    2 MiB-page mount is half the machine's memory): `array` refuses a new file that would leave less than `room` free,
    the draw then makes that tensor in its own memory, and `share_inputs` moves it as before."""
    shared = SharedInputs()
    assert shared.array((1024,), np.float32, room=1 << 62) is None          # no file system keeps that much free
    x = shared.array((1024,), np.float32)
    path = shared.files[x.ctypes.data][0]
    del x
    y = shared.array((1024,), np.float32, room=1 << 62)                    # a spare file of its size needs no room
    assert y is not None and shared.files[y.ctypes.data][0] == path
    shared.close()
    task = get_task("triplet_margin_loss")
    plain = [fingerprint(v) for v in task.inputs("small", SETTINGS.seed, 0)]
    monkeypatch.setattr(SharedInputs, "array", lambda self, shape, dtype, room=0: None)
    kernel = _SetFiles(None)
    with kernel.drawing(): s = next(task.iter_input_sets("small", 1, SETTINGS.seed))
    assert kernel.drawn == 0 and [fingerprint(v) for v in s] == plain
    kernel.share_inputs(s)
    assert all(kernel.shared.file_of(v.numpy()) is not None for v in s)    # moved (copied) into the set's files
