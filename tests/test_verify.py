"""Verification: MultiKernelBench's protocol, the stricter checks, and the cheats they catch."""
import json

import pytest
import torch

from ascendcraft.config import Settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.taskset import get_task, load_task_file, registry
from ascendcraft.verify import POISON, verify

SETTINGS = Settings()  # the defaults: seed 1024, 5 trials, atol = rtol = 1e-4


def float64_candidate(task):
    """A correct candidate through another code path: the reference model recomputed in float64
    (parameters, buffers and floating inputs), its outputs rounded to the reference dtypes."""
    net = task.model("small").double()
    dtypes = [s.torch_dtype for s in task.output_specs("small")]

    def run(inputs):
        wide = [v.double() if isinstance(v, torch.Tensor) and v.is_floating_point() else v for v in inputs]
        with task.sized("small"):
            out = net(*wide)
        outs = list(out) if isinstance(out, tuple) else [out]
        assert all(o.dtype == torch.float64 for o in outs)   # really computed in float64
        cast = [o.to(d) for o, d in zip(outs, dtypes)]
        return tuple(cast) if isinstance(out, tuple) else cast[0]
    return run


@pytest.mark.parametrize("task", registry(), ids=lambda t: t.id)
def test_a_correct_candidate_passes_every_task(task):
    verdict = verify(task, float64_candidate(task), settings=SETTINGS)
    assert (verdict.passed, verdict.kind, verdict.weak) == (True, "pass", []), verdict.summary
    expected_trials = 10 if task.has_signed else 5
    assert len(verdict.trials) == expected_trials and verdict.mkb_passed


def poisoned_like(t, poison=POISON):
    raw = bytearray(poison * (t.numel() * t.element_size() // len(poison) + 1))[: t.numel() * t.element_size()]
    return torch.frombuffer(raw, dtype=t.dtype).reshape(t.shape).clone()


def test_input_mutation_is_named():
    adam = get_task("adam")
    def sneaky(xs):
        param, grad, m, v = xs
        m.mul_(0.9).add_(grad, alpha=0.1)          # updates its state in place, result is right
        return param - 1e-3 * (m / 0.1) / ((0.001 * grad.pow(2) / 0.001).sqrt() + 1e-8)
    verdict = verify(adam, sneaky, settings=SETTINGS)
    assert (verdict.passed, verdict.kind) == (False, "mutated-input")
    assert "m" in verdict.trials[-1].message.split()[-1]
    zeroing = verify(get_task("relu"), lambda xs: xs[0].zero_(), settings=SETTINGS)
    assert zeroing.kind == "mutated-input" and zeroing.trials[0].message.endswith("x")


def test_unwritten_output_with_any_poison_pattern():
    relu = get_task("relu")
    assert verify(relu, lambda xs: poisoned_like(xs[0]), settings=SETTINGS).kind == "unwritten-output"
    custom = b"\xde\xad\xbe\xef"
    verdict = verify(relu, lambda xs: poisoned_like(xs[0], custom), settings=SETTINGS, poison=custom)
    assert verdict.kind == "unwritten-output" and verdict.settings["poison"] == "deadbeef"
    # the default poison does not recognise another pattern: that output is just a constant
    assert verify(relu, lambda xs: poisoned_like(xs[0], custom), settings=SETTINGS).kind == "constant-output"
    nan = verify(get_task("mse_loss"), lambda xs: torch.tensor(float("nan")), settings=SETTINGS)
    assert nan.kind == "unwritten-output"


def test_a_result_cached_across_calls_fails():
    memo = {}
    def cached(xs):
        if "y" not in memo: memo["y"] = torch.softmax(xs[0], dim=1)
        return memo["y"].clone()
    verdict = verify(get_task("softmax"), cached, settings=SETTINGS)
    assert (verdict.kind, verdict.trials[-1].trial) == ("stale-output", 1)
    assert len(verdict.trials) == 2 and verdict.trials[0].passed


def test_constant_output_on_softmax_is_caught_where_allclose_alone_passes():
    softmax = get_task("softmax")
    (x,) = softmax.inputs("small")
    ref = softmax.reference([x])
    uniform = torch.full_like(ref, 1 / x.shape[1])
    assert torch.allclose(uniform, ref, atol=1e-4, rtol=1e-4)            # the MultiKernelBench free pass
    assert torch.allclose(torch.zeros_like(ref), ref, atol=1e-4, rtol=1e-4)
    verdict = verify(softmax, lambda xs: torch.full_like(xs[0], 1 / xs[0].shape[1]), settings=SETTINGS)
    assert (verdict.passed, verdict.kind) == (False, "constant-output")
    assert verdict.trials[0].outputs[0].blind
    assert verify(softmax, lambda xs: torch.zeros_like(xs[0]), settings=SETTINGS).kind == "constant-output"


def test_blind_trials_need_the_scale_aware_comparison():
    prod = get_task("product_reduction_over_a_dimension")
    def half_zero(xs):
        y = torch.prod(xs[0], dim=1)
        y[:, ::2] = 0
        return y
    (x,) = prod.inputs("small")
    ref = prod.reference([x])
    assert torch.allclose(half_zero([x]), ref, atol=1e-4, rtol=1e-4)      # allclose alone is fooled
    verdict = verify(prod, half_zero, settings=SETTINGS, signed=False)
    assert (verdict.kind, verdict.mkb_passed) == ("mismatch", False)
    assert verdict.trials[0].outputs[0].scale_passed is False and "magnitude" in verdict.trials[0].message
    good = verify(prod, float64_candidate(prod), settings=SETTINGS)
    assert good.passed and any(o.blind and o.scale_passed for t in good.trials for o in t.outputs)
    assert "scale-aware comparison held" in good.summary


def test_shape_dtype_structure_nan_and_error():
    mse = get_task("mse_loss")
    as_vector = lambda xs: torch.mean((xs[0] - xs[1]) ** 2).reshape(1)
    verdict = verify(mse, as_vector, settings=SETTINGS)
    assert verdict.kind == "shape" and "(1,)" in verdict.trials[0].message
    assert verify(mse, lambda xs: torch.mean((xs[0] - xs[1]) ** 2).double(), settings=SETTINGS).kind == "dtype"
    assert verify(mse, lambda xs: (torch.mean((xs[0] - xs[1]) ** 2),), settings=SETTINGS).kind == "structure"
    def some_nan(xs):
        y = torch.relu(xs[0])
        y[3, 5] = float("nan")
        return y
    assert verify(get_task("relu"), some_nan, settings=SETTINGS).kind == "nan"
    err = verify(mse, lambda xs: xs[0] @ xs[1], settings=SETTINGS)
    assert err.kind == "error" and err.trials[0].message.startswith("RuntimeError")


def test_signed_inputs_catch_what_multikernelbench_misses():
    for task_id, wrong in [("relu", lambda xs: xs[0].clone()),
                           ("leaky_relu", lambda xs: torch.relu(xs[0])),
                           ("hardtanh", lambda xs: xs[0].clamp(max=1.0)),
                           ("max_pooling_1d", lambda xs: torch.nn.functional.max_pool1d(
                               torch.nn.functional.pad(xs[0], (4, 4)), 8, 1))]:   # zero padding instead of -inf
        verdict = verify(get_task(task_id), wrong, settings=SETTINGS)
        assert (verdict.kind, verdict.mkb_passed, verdict.trials[-1].check) == ("mismatch", True, "signed"), task_id
        assert "would have accepted" in verdict.summary
    plain = verify(get_task("relu"), lambda xs: xs[0].clone(), settings=SETTINGS, signed=False)
    assert plain.passed and len(plain.trials) == 5


def test_mhc_post_untransposed_h_res_fails():
    task = get_task("mhc_post")
    def untransposed(xs):
        h, X, H_post, H_res = xs
        y = torch.einsum("tij,tjc->tic", H_res, X.float()) + H_post[..., None] * h.float()[:, None]
        return y.bfloat16()
    def transposed(xs):
        h, X, H_post, H_res = xs
        y = torch.bmm(H_res.transpose(1, 2), X.float()) + H_post.unsqueeze(2) * h.float().unsqueeze(1)
        return y.bfloat16()
    bad = verify(task, untransposed, settings=SETTINGS)
    assert (bad.passed, bad.kind) == (False, "mismatch")
    good = verify(task, transposed, settings=SETTINGS)
    assert (good.passed, good.kind) == (True, "pass")
    assert good.trials[0].outputs[0].atol == 1e-2   # bfloat16 output tolerance


def test_mhc_post_grad_checks_every_output():
    task = get_task("mhc_post_grad")
    right = float64_candidate(task)
    def wrong_dh_res(xs):
        dh, dX, dH_post, dH_res = right(xs)
        return dh, dX, dH_post, dH_res.transpose(1, 2).contiguous()
    verdict = verify(task, wrong_dh_res, settings=SETTINGS)
    assert verdict.kind == "mismatch" and verdict.trials[0].message.startswith("dH_res")
    assert [o.kind for o in verdict.trials[0].outputs] == ["pass", "pass", "pass", "mismatch"]


def _task_file(tmp_path, name, forward, extra=""):
    (tmp_path / f"{name}.py").write_text(f'''import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return {forward}

n = 33

def get_inputs():
    return [torch.rand(n, 7)]

def get_init_inputs():
    return []
{extra}''')
    return load_task_file(tmp_path / f"{name}.py")


def test_weak_tasks_are_reported_not_silently_passed(tmp_path):
    constant = _task_file(tmp_path, "ones", "torch.ones_like(x)")
    verdict = verify(constant, lambda xs: torch.ones_like(xs[0]), settings=SETTINGS)
    assert (verdict.passed, verdict.kind) == (True, "weak") and "constant" in verdict.weak[0]
    blind_loss = _task_file(tmp_path, "zero_loss", "(x * 0).sum()")
    verdict = verify(blind_loss, lambda xs: torch.tensor(0.0), settings=SETTINGS)
    assert verdict.kind == "weak" and any("input-independent" in w for w in verdict.weak)
    assert "weak" in verdict.summary


def test_signed_trials_whose_reference_is_not_finite_are_dropped_with_a_note(tmp_path):
    "log of a negative input is NaN in the reference itself: those signed trials say nothing and are dropped."
    log = _task_file(tmp_path, "log", "torch.log(x)")
    verdict = verify(log, lambda xs: torch.log(xs[0]), settings=SETTINGS)
    assert verdict.passed and verdict.settings["dropped"] == SETTINGS.trials
    assert [t.kind for t in verdict.trials if t.check == "signed"] == ["dropped"] * SETTINGS.trials
    assert "dropped" in verdict.summary
    wrong = verify(log, lambda xs: torch.log(xs[0] + 1), settings=SETTINGS)     # the unsigned trials still judge
    assert not wrong.passed and wrong.kind == "mismatch"


def test_a_reference_that_is_nan_on_the_files_own_inputs_is_a_task_file_problem(tmp_path):
    broken = _task_file(tmp_path, "logm", "torch.log(x - 2)")      # NaN on U[0,1) already
    with pytest.raises(AscendCraftError) as e:
        verify(broken, lambda xs: torch.log(xs[0] - 2), settings=SETTINGS)
    assert e.value.kinds == ["reference-nan"] and "property of the task file" in e.value.diagnostics[0].hint


def test_reference_and_candidate_share_nothing():
    relu = get_task("relu")
    seen = []
    def candidate(xs):
        seen.append(xs[0])
        return torch.relu(xs[0])
    caller_state = torch.get_rng_state()
    verify(relu, candidate, settings=SETTINGS.replace(trials=2), signed=False)
    assert torch.equal(torch.get_rng_state(), caller_state)
    expected = relu.input_sets("small", 2)
    assert all(torch.equal(a, b[0]) for a, b in zip(seen, expected))
    assert seen[0].data_ptr() != expected[0][0].data_ptr()


def test_settings_come_from_load_settings(monkeypatch):
    monkeypatch.setenv("ASCENDCRAFT_TRIALS", "3")
    monkeypatch.setenv("ASCENDCRAFT_SEED", "5")
    verdict = verify(get_task("relu"), lambda xs: torch.relu(xs[0]), signed=False)
    assert (len(verdict.trials), verdict.settings["seed"]) == (3, 5)
    assert verify(get_task("relu"), lambda xs: torch.relu(xs[0]), settings=SETTINGS, trials=2, signed=False).settings["trials"] == 2


def test_verdict_json_and_markdown():
    verdict = verify(get_task("sigmoid"), lambda xs: torch.sigmoid(xs[0]) + 2e-4, settings=SETTINGS)
    data = json.loads(verdict.to_json())
    assert data["kind"] == "mismatch" and data["passed"] is False
    record = data["trials"][0]
    assert record["check"] == "mkb" and set(record["inputs"]) == {"x"}
    output = record["outputs"][0]
    assert output["max_abs_err"] == pytest.approx(2e-4, rel=1e-2) and output["kind"] == "mismatch"
    md = verdict._repr_markdown_()
    assert "| mkb | 0 | out |" in md and "sigmoid" in md
