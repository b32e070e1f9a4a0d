"""The operator suite: the 54 task files, their shapes and semantics traps, and the loader."""
import math
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.shapes import DERIVED_ELEMENTS
from ascendcraft.taskset import PAPER_COUNTS, Task, get_task, load_task_file, load_task_folder, registry

FIXTURES = Path(__file__).parent / "fixtures" / "upstream_tasks"
f32, i64, b8, bf16 = "float32", "int64", "bool", "bfloat16"

# Full shapes, dtypes, init args and output shapes, transcribed from the MultiKernelBench task
# table (shared/research/multikernelbench.md §1, latest upstream) — not computed by the code under test.
ACT = [((4096, 393216), f32)]
EXPECTED = {
    "activation": {
        "elu": (ACT, [1.0], (4096, 393216)), "gelu": (ACT, [], (4096, 393216)),
        "hardsigmoid": (ACT, [], (4096, 393216)), "hardtanh": (ACT, [], (4096, 393216)),
        "leaky_relu": (ACT, [], (4096, 393216)), "log_softmax": (ACT, [], (4096, 393216)),
        "min_gpt_new_gelu": ([((8192, 8192), f32)], [], (8192, 8192)), "relu": (ACT, [], (4096, 393216)),
        "selu": (ACT, [], (4096, 393216)), "sigmoid": (ACT, [], (4096, 393216)),
        "softmax": (ACT, [], (4096, 393216)), "softplus": (ACT, [], (4096, 393216)),
        "softsign": (ACT, [], (4096, 393216)), "swish": (ACT, [], (4096, 393216)), "tanh": (ACT, [], (4096, 393216)),
    },
    "loss": {
        "cosine_similarity_loss": ([((128, 4096), f32)] * 2, [], ()),
        "cross_entropy_loss": ([((32768, 4096), f32), ((32768,), i64)], [], ()),
        "hinge_loss": ([((32768, 32768), f32), ((32768,), f32)], [], ()),
        "huber_loss": ([((32768, 32768), f32)] * 2, [], ()),
        "kl_div_loss": ([((16384, 16384), f32)] * 2, [], ()),
        "mse_loss": ([((32768, 32768), f32)] * 2, [], ()),
        "triplet_margin_loss": ([((32768, 8192), f32)] * 3, [1.0], ()),
    },
    "math": {
        "cumprod": ([((32768, 32768), f32)], [1], (32768, 32768)),
        "cumsum": ([((32768, 32768), f32)], [1], (32768, 32768)),
        "cumsum_exclusive": ([((32768, 32768), f32)], [1], (32768, 32768)),
        "cumsum_reverse": ([((32768, 32768), f32)], [1], (32768, 32768)),
        "masked_cumsum": ([((32768, 32768), f32), ((32768, 32768), b8)], [1], (32768, 32768)),
        "matrix_scalar_multiplication": ([((65536, 16384), f32), (None, "float")], [], (65536, 16384)),
    },
    "normalization": {
        "batch_norm": ([((64, 64, 512, 512), f32)], [64], (64, 64, 512, 512)),
        "frobenius_norm": ([((128, 64, 512, 512), f32)], [], (128, 64, 512, 512)),
        "group_norm": ([((128, 64, 512, 512), f32)], [64, 8], (128, 64, 512, 512)),
        "instance_norm": ([((128, 64, 512, 512), f32)], [64], (128, 64, 512, 512)),
        "l1_norm": ([((32768, 65535), f32)], [], (32768, 65535)),
        "l2_norm": ([((32768, 65535), f32)], [], (32768, 65535)),
        "layer_norm": ([((64, 64, 256, 256), f32)], [(64, 256, 256)], (64, 64, 256, 256)),
        "rms_norm": ([((128, 64, 512, 512), f32)], [64], (128, 64, 512, 512)),
    },
    "optimizer": {
        "adagrad": ([((1024, 4096), f32)] * 3, [], (1024, 4096)),
        "adam": ([((512, 2048), f32)] * 4, [], (512, 2048)),
        "lamb": ([((512, 4096), f32)] * 3, [], (512, 4096)),
        "rmsprop": ([((2048, 2048), f32)] * 3, [], (2048, 2048)),
        "sgd": ([((1024, 4096), f32)] * 3, [], (1024, 4096)),
    },
    "reduce": {
        "max_reduction_over_a_dimension": ([((128, 4096, 4096), f32)], [1], (128, 4096)),
        "mean_reduction_over_a_dimension": ([((128, 4096, 4096), f32)], [1], (128, 4096)),
        "min_reduction_over_a_dimension": ([((128, 4096, 4096), f32)], [1], (128, 4096)),
        "product_reduction_over_a_dimension": ([((128, 4096, 4096), f32)], [1], (128, 4096)),
        "sum_reduction_over_a_dimension": ([((128, 4096, 4096), f32)], [1], (128, 1, 4096)),
    },
    "pooling": {
        "average_pooling_1d": ([((64, 128, 65536), f32)], [8, 1, 4], (64, 128, 65537)),
        "average_pooling_2d": ([((16, 64, 512, 512), f32)], [11], (16, 64, 46, 46)),
        "average_pooling_3d": ([((16, 32, 128, 128, 256), f32)], [3, 2, 1], (16, 32, 64, 64, 128)),
        "max_pooling_1d": ([((64, 192, 2048), f32)], [8, 1, 4, False], (64, 192, 2049)),
        "max_pooling_2d": ([((32, 64, 512, 512), f32)], [4, 1, 1], (32, 64, 511, 511)),
        "max_pooling_3d": ([((16, 32, 128, 128, 128), f32)], [3, 2, 1], (16, 32, 64, 64, 64)),
    },
}
ALL = [(c, t) for c, tasks in EXPECTED.items() for t in tasks]


@pytest.fixture(scope="module")
def suite():
    return registry()


def test_registry_holds_the_52_tasks_of_the_papers_seven_categories_and_mhc(suite):
    by_category = {}
    for task in suite: by_category.setdefault(task.category, []).append(task.id)
    assert {c: sorted(ids) for c, ids in by_category.items() if c != "mhc"} == {c: sorted(t) for c, t in EXPECTED.items()}
    assert {c: len(t) for c, t in EXPECTED.items()} == PAPER_COUNTS
    assert sorted(by_category["mhc"]) == ["mhc_post", "mhc_post_grad"]
    assert len(suite) == 54


def test_registry_filters(suite):
    assert registry(categories=["loss"]).ids == sorted(EXPECTED["loss"])
    assert registry(tasks=["relu", "mhc/mhc_post"]).ids == ["relu", "mhc_post"]
    with pytest.raises(AscendCraftError, match="unknown|no category"):
        registry(categories=["convolution"])
    with pytest.raises(AscendCraftError) as e:
        get_task("softmx")
    assert e.value.kinds == ["unknown-task"] and "softmax" in e.value.diagnostics[0].hint


@pytest.mark.parametrize("category,task_id", ALL)
def test_full_shapes_dtypes_and_init_args(suite, category, task_id):
    task = suite.get(task_id)
    inputs, init, out_shape = EXPECTED[category][task_id]
    assert task.category == category
    specs = task.input_specs("full")
    assert [(s.shape, s.dtype) for s in specs] == inputs
    assert task.init_inputs("full") == init
    (out,) = task.output_specs("full")
    assert (out.shape, out.dtype) == (out_shape, f32)


def test_full_size_specs_cost_nothing(suite):
    started = time.perf_counter()
    for task in suite:
        for value in task.inputs("full", device="meta"):
            if isinstance(value, torch.Tensor): assert value.device.type == "meta"
    # 54 tasks whose full inputs total ~1 TB: only meta tensors can be this fast.
    assert time.perf_counter() - started < 20


def test_mhc_full_specs_and_hidden_sizes(suite):
    post, grad = suite.get("mhc_post"), suite.get("mhc_post_grad")
    assert [(s.name, s.shape, s.dtype) for s in post.input_specs("full")] == [
        ("h", (4096, 2560), bf16), ("X", (4096, 4, 2560), bf16), ("H_post", (4096, 4), f32), ("H_res", (4096, 4, 4), f32)]
    assert [(s.name, s.shape, s.dtype) for s in post.output_specs("full")] == [("Y", (4096, 4, 2560), bf16)]
    assert [(s.name, s.shape, s.dtype) for s in grad.output_specs("full")] == [
        ("dh", (4096, 2560), bf16), ("dX", (4096, 4, 2560), bf16), ("dH_post", (4096, 4), f32), ("dH_res", (4096, 4, 4), f32)]
    assert grad.forward_params == ["G", "X", "h", "H_post", "H_res"]
    for hidden in post.module.HIDDEN_SIZES:
        assert post.input_specs({"hidden": hidden})[1].shape == (4096, 4, hidden)
    assert set(post.module.HIDDEN_SIZES) == {1280, 2560, 7168}


def test_small_variants_are_small_fast_and_keep_traps(suite):
    for task in suite:
        assert task.has_small, task.id
        specs = task.input_specs("small")
        assert max(s.numel for s in specs if s.is_tensor) <= 300_000, task.id
        started = time.process_time()   # CPU time: robust to other jobs on a shared machine
        task.reference(task.inputs("small"), "small")
        assert time.process_time() - started < 1.0, task.id   # typically a few milliseconds
        if task.category == "mhc":
            assert specs[0].shape[0] % 48 != 0  # tokens do not split evenly over 48 cores
            continue
        for s in specs:
            if s.is_tensor and s.shape:
                row_bytes = s.shape[-1] * torch.empty((), dtype=s.torch_dtype).element_size()
                assert row_bytes % 32 != 0, f"{task.id}: {s} has 32-byte aligned rows"
        # full and small agree on rank and dtypes: the small variant is the same task
        full = task.input_specs("full")
        assert [(len(s.shape or ()), s.dtype) for s in specs] == [(len(s.shape or ()), s.dtype) for s in full]


def test_small_traps_that_need_big_rows(suite):
    ub_bytes = 192 * 1024
    for task_id in ("softmax", "log_softmax", "l1_norm", "l2_norm"):
        (x,) = suite.get(task_id).input_specs("small")
        assert x.shape[-1] % 2 == 1 and x.shape[-1] * 4 > ub_bytes, task_id
    softmax = suite.get("softmax")
    assert float(softmax.reference(softmax.inputs("small")).max()) < 1e-4  # the all-zero free pass survives
    prod = suite.get("product_reduction_over_a_dimension")
    assert float(prod.reference(prod.inputs("small")).abs().max()) < 1e-4


def test_small_overrides_never_leak(suite):
    task = suite.get("hinge_loss")
    before = (task.module.batch_size, task.module.input_shape)
    task.inputs("small")
    with pytest.raises(RuntimeError):
        with task.sized("small"):
            assert task.module.batch_size == 389
            raise RuntimeError("boom")
    assert (task.module.batch_size, task.module.input_shape) == before


def test_seeding_follows_multikernelbench(suite):
    task = suite.get("masked_cumsum")
    caller_state = torch.get_rng_state()
    sets = [task.inputs("small", trial=k) for k in range(3)]
    assert torch.equal(torch.get_rng_state(), caller_state)
    with task.sized("small"):
        torch.manual_seed(1024)
        by_hand = [task.module.get_inputs() for _ in range(3)]
    for mine, theirs in zip(sets, by_hand):
        assert all(torch.equal(a, b) for a, b in zip(mine, theirs))
    assert not torch.equal(sets[0][0], sets[1][0]) and not torch.equal(sets[1][0], sets[2][0])
    assert all(torch.equal(a, b) for a, b in zip(task.inputs("small", trial=2), sets[2]))
    assert not torch.equal(task.inputs("small", seed=7)[0], sets[0][0])
    assert torch.equal(task.input_sets("small", 3)[1][0], sets[1][0])


def test_binding_names(suite):
    bn = suite.get("batch_norm")
    assert bn.init_params == ["num_features"] and bn.forward_params == ["x"]
    assert bn.state_names == ["bn_weight", "bn_bias", "bn_running_mean", "bn_running_var", "bn_num_batches_tracked"]
    adam = suite.get("adam")
    assert adam.forward_params == ["param", "grad", "m", "v"]
    assert adam.init_params == ["beta1", "beta2", "lr", "eps", "step"] and adam.state_names == []
    assert suite.get("matrix_scalar_multiplication").input_specs("small")[1].value == 3.14


def test_prompt_source_is_an_upstream_file_with_the_same_reference(suite, tmp_path):
    for task_id in ("cumprod", "hinge_loss", "mhc_post"):
        task = suite.get(task_id)
        text = task.prompt_source
        for name in ("SMALL", "SIGNED", "OUTPUT_NAMES", "get_signed_inputs"):
            assert name not in text, (task_id, name)
        path = tmp_path / f"{task_id}.py"
        path.write_text(text)
        plain = load_task_file(path)
        small = task.small_overrides
        assert [s.shape for s in plain.input_specs(small)] == [s.shape for s in task.input_specs("small")]
        ref_a = task.reference(task.inputs("small"))
        ref_b = plain.reference(plain.inputs(small), small)
        assert torch.equal(ref_a, ref_b)


# ---- semantics traps, each against an independent NumPy / float64 computation -------------------

def _np(t): return t.detach().double().numpy()


def test_hinge_targets_broadcast_along_the_last_dimension(suite):
    task = suite.get("hinge_loss")
    p, t = task.inputs("small", signed=True)
    ref = task.reference([p, t])
    by_column = np.maximum(0, 1 - _np(p) * _np(t)[None, :]).mean()
    by_row = np.maximum(0, 1 - _np(p) * _np(t)[:, None]).mean()
    # a kernel that broadcast the targets along rows would miss the 1e-4 tolerance
    assert ref.shape == () and abs(float(ref) - by_column) < 1e-5 and abs(by_column - by_row) > 2e-4


def test_losses_return_0_dim_tensors(suite):
    for task in registry(categories=["loss"]):
        assert task.reference(task.inputs("small")).shape == (), task.id
        assert task.output_specs("small")[0].shape == ()


def test_cross_entropy_int64_targets(suite):
    task = suite.get("cross_entropy_loss")
    logits, targets = task.inputs("small")
    assert targets.dtype == torch.int64 and targets.min() >= 0 and targets.max() < logits.shape[1]
    z = _np(logits)
    lse = np.log(np.exp(z - z.max(1, keepdims=True)).sum(1)) + z.max(1)
    expected = (lse - z[np.arange(len(z)), targets.numpy()]).mean()
    assert abs(float(task.reference([logits, targets])) - expected) < 1e-5


def test_kl_div_inputs_are_probability_rows(suite):
    task = suite.get("kl_div_loss")
    p, t = task.inputs("small")
    assert torch.allclose(p.sum(-1), torch.ones(p.shape[0])) and torch.allclose(t.sum(-1), torch.ones(t.shape[0]))
    expected = (_np(t) * (np.log(_np(t)) - np.log(_np(p)))).sum() / p.shape[0]
    assert abs(float(task.reference([p, t])) - expected) < 1e-6
    assert not task.has_signed


def test_huber_mse_triplet_scale_the_first_input(suite):
    for task_id in ("huber_loss", "mse_loss", "triplet_margin_loss"):
        sets = suite.get(task_id).input_sets("small", 5)
        firsts = [float(first.max()) for first, *_ in sets]   # rand * one random scale per set
        others = [float(rest[0].max()) for _, *rest in sets]  # plain rand: max close to 1
        assert min(firsts) < 0.9 and len(set(firsts)) == 5 and min(others) > 0.99, task_id
    a, p, n = suite.get("triplet_margin_loss").inputs("small", signed=True)
    d = lambda u, v: np.sqrt(((_np(u) - _np(v) + 1e-6) ** 2).sum(1))
    expected = np.maximum(d(a, p) - d(a, n) + 1.0, 0).mean()
    assert abs(float(suite.get("triplet_margin_loss").reference([a, p, n])) - expected) < 1e-5


def test_scans(suite):
    (x,) = suite.get("cumsum_exclusive").inputs("small", signed=True)
    expected = np.concatenate([np.zeros((x.shape[0], 1)), np.cumsum(_np(x), 1)[:, :-1]], 1)
    got = suite.get("cumsum_exclusive").reference([x])
    assert got.shape == x.shape and np.abs(_np(got) - expected).max() < 1e-4 and float(got[:, 0].abs().max()) == 0
    got = suite.get("cumsum_reverse").reference([x])
    assert np.abs(_np(got) - np.cumsum(_np(x)[:, ::-1], 1)[:, ::-1]).max() < 1e-4
    task = suite.get("masked_cumsum")
    x, mask = task.inputs("small")
    assert mask.dtype == torch.bool and 0.3 < float(mask.float().mean()) < 0.7
    assert np.abs(_np(task.reference([x, mask])) - np.cumsum(_np(x) * mask.numpy(), 1)).max() < 1e-3
    (x,) = suite.get("cumprod").inputs("small", signed=True)
    assert float(x.abs().min()) >= 0.9 and float(x.abs().max()) < 1.1 and float((x < 0).float().mean()) > 0.3
    got = suite.get("cumprod").reference([x])
    assert float(got[:, -1].abs().min()) > 1e-8  # informative to the last column


def test_l1_norm_divides_by_the_mean(suite):
    task = suite.get("l1_norm")
    (x,) = task.inputs("small", signed=True)
    expected = _np(x) / np.abs(_np(x)).mean(1, keepdims=True)
    assert np.abs(_np(task.reference([x])) - expected).max() < 1e-4


def test_rms_norm_reduces_the_channel_axis(suite):
    task = suite.get("rms_norm")
    (x,) = task.inputs("small")
    expected = _np(x) / np.sqrt((_np(x) ** 2).mean(1, keepdims=True) + 1e-5)
    assert np.abs(_np(task.reference([x])) - expected).max() < 1e-5


def test_batch_norm_uses_batch_statistics(suite):
    task = suite.get("batch_norm")
    (x,) = task.inputs("small", signed=True)
    a = _np(x)
    expected = (a - a.mean((0, 2, 3), keepdims=True)) / np.sqrt(a.var((0, 2, 3), keepdims=True) + 1e-5)
    assert np.abs(_np(task.reference([x])) - expected).max() < 1e-4
    assert task.model().training


def test_lamb_uses_global_norms(suite):
    task = suite.get("lamb")
    param, m, v = task.inputs("small", signed=True)
    assert float(v.min()) >= 1e-3
    r = _np(m) / (np.sqrt(_np(v)) + 1e-6)
    trust = np.linalg.norm(_np(param)) / (np.linalg.norm(r) + 1e-6)
    assert np.abs(_np(task.reference([param, m, v])) - (_np(param) - 1e-3 * trust * r)).max() < 1e-5


def test_optimizer_signed_draws_keep_state_valid(suite):
    for task in registry(categories=["optimizer"]):
        values = task.inputs("small", signed=True)
        assert all(torch.isfinite(task.reference(values)).all() for _ in [0]), task.id
        assert float(values[0].min()) < 0, task.id


def _windows_1d(x, k, s, p, pad_value):
    padded = np.pad(x, [(0, 0), (0, 0), (p, p)], constant_values=pad_value)
    n = (padded.shape[-1] - k) // s + 1
    return np.stack([padded[..., i * s:i * s + k] for i in range(n)], -2)


def test_average_pooling_counts_the_padding(suite):
    task = suite.get("average_pooling_1d")
    (x,) = task.inputs("small")
    expected = _windows_1d(_np(x), 8, 1, 4, 0.0).sum(-1) / 8
    got = task.reference([x])
    assert got.shape[-1] == x.shape[-1] + 1 and np.abs(_np(got) - expected).max() < 1e-5


def test_max_pooling_pads_with_minus_infinity(suite):
    task = suite.get("max_pooling_1d")
    (x,) = task.inputs("small", signed=True)
    expected = _windows_1d(_np(x), 8, 1, 4, -np.inf).max(-1)
    zero_padded = _windows_1d(_np(x), 8, 1, 4, 0.0).max(-1)
    got = _np(task.reference([x]))
    assert np.abs(got - expected).max() == 0 and np.abs(got - zero_padded).max() > 0


def test_hardtanh_signed_draw_reaches_both_clamps(suite):
    task = suite.get("hardtanh")
    (x,) = task.inputs("small", signed=True)
    y = task.reference([x])
    assert float(y.min()) == -1.0 and float(y.max()) == 1.0


def _mhc_post_by_loops(h, X, H_post, H_res):
    h, X, H_post, H_res = map(_np, (h, X, H_post, H_res))
    T, n, C = X.shape
    Y = np.empty((T, n, C))
    for j in range(n):
        Y[:, j, :] = H_post[:, j, None] * h
        for i in range(n):
            Y[:, j, :] += H_res[:, i, j, None] * X[:, i, :]
    return Y


def test_mhc_post_routes_through_the_transposed_h_res(suite):
    task = suite.get("mhc_post")
    h, X, H_post, H_res = task.inputs("small")
    assert not torch.allclose(H_res, H_res.transpose(1, 2))                # not symmetric
    assert float((H_res.sum(-1) - 1).abs().max()) > 0.1                     # not doubly stochastic
    Y = task.reference([h, X, H_post, H_res])
    assert Y.dtype == torch.bfloat16 and Y.shape == X.shape
    expected = torch.from_numpy(_mhc_post_by_loops(h, X, H_post, H_res)).bfloat16()
    assert torch.allclose(Y.double(), expected.double(), atol=1e-2, rtol=1e-2)
    untransposed = torch.einsum("tij,tjc->tic", H_res, X.float()) + H_post[..., None] * h.float()[:, None]
    assert not torch.allclose(Y.double(), untransposed.bfloat16().double(), atol=1e-2, rtol=1e-2)


def test_mhc_post_grad_agrees_with_autograd(suite):
    post, grad = suite.get("mhc_post"), suite.get("mhc_post_grad")
    G, X, h, H_post, H_res = (v.double() for v in grad.inputs("small"))
    leaves = [t.clone().requires_grad_() for t in (h, X, H_post, H_res)]
    Y = post.model()(*leaves)
    assert Y.dtype == torch.float64
    Y.backward(G)
    dh, dX, dH_post, dH_res = grad.model()(G, X, h, H_post, H_res)
    for mine, auto in zip((dh, dX, dH_post, dH_res), leaves):
        assert torch.allclose(mine, auto.grad, atol=1e-10, rtol=1e-10)
    outs = grad.reference(grad.inputs("small"))
    assert [o.dtype for o in outs] == [torch.bfloat16, torch.bfloat16, torch.float32, torch.float32]


# ---- the loader --------------------------------------------------------------------------------

def test_loader_reads_the_upstream_layout():
    folder = load_task_folder(FIXTURES)
    assert [(t.category, t.id) for t in folder] == [
        ("activation", "leaky_relu"), ("loss", "mse_loss"), ("math", "masked_cumsum"), ("pooling", "max_pooling_2d")]
    assert [(Path(d.file).name, d.kind, d.severity) for d in folder.skipped] == [("make_report.py", "not-a-task", "note")]
    pool = folder.get("max_pooling_2d")
    assert pool.init_params == ["kernel_size", "stride", "padding", "dilation"]
    # effective window 3 * (2 - 1) + 1 = 4: (32 + 2 * 1 - 4) // 2 + 1 = 16
    assert pool.output_specs("full")[0].shape == (4, 8, 16, 16)
    mse = folder.get("loss/mse_loss")
    assert not mse.has_small and mse.has_signed and mse.tolerance is None
    assert mse.reference(mse.inputs("small")).shape == ()       # no SMALL: its own shapes
    x, mask = folder.get("masked_cumsum").inputs()
    assert mask.dtype == torch.bool and x.shape == (32, 500)
    assert folder.get("masked_cumsum").prompt_source == (FIXTURES / "math" / "masked_cumsum.py").read_text()


def test_loader_reads_a_flat_folder(tmp_path):
    for src in FIXTURES.glob("*/*.py"):
        (tmp_path / src.name).write_text(src.read_text())
    folder = load_task_folder(tmp_path)
    assert sorted(folder.ids) == ["leaky_relu", "masked_cumsum", "max_pooling_2d", "mse_loss"]
    assert {t.category for t in folder} == {""}
    assert [d.kind for d in folder.skipped] == ["not-a-task"]


def test_each_load_is_a_fresh_module_outside_sys_modules():
    before = set(sys.modules)
    a = load_task_file(FIXTURES / "activation" / "leaky_relu.py")
    b = load_task_file(FIXTURES / "activation" / "leaky_relu.py")
    assert a.module is not b.module and a.module.Model is not b.module.Model
    a.module.dim = 7
    assert b.module.dim == 1000
    assert not [name for name in set(sys.modules) - before if "leaky" in name or "task" in name]


def test_small_without_small_derives_shapes_that_keep_the_structure(tmp_path):
    "An upstream-style file (no SMALL) gets a derived small size: its constants scaled, ranks and small ints kept."
    text = (FIXTURES / "activation" / "leaky_relu.py").read_text().replace("batch_size = 16", "batch_size = 40000")
    (tmp_path / "big.py").write_text(text)
    task = load_task_file(tmp_path / "big.py")
    assert not task.has_small
    small = task.input_specs("small")[0]
    assert len(small.shape) == 2 and small.numel <= DERIVED_ELEMENTS
    assert small.shape[0] < 40000 and task.inputs("small")[0].shape == small.shape
    assert task.input_specs("full")[0].shape == (40000, 1000)    # the file's own size is untouched
    assert task.inputs({"batch_size": 2})[0].shape == (2, 1000)


def test_loader_diagnostics_point_at_the_problem(tmp_path):
    good = (FIXTURES / "activation" / "leaky_relu.py").read_text()
    cases = {
        "signed_missing.py": (good + "SIGNED = 'draw_signed'\n", "task-signed"),
        "tolerance.py": (good + "TOLERANCE = {'abs': 1}\n", "task-tolerance"),
        "names.py": (good + "OUTPUT_NAMES = 'y'\n", "task-output-names"),
    }
    for name, (text, kind) in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(AscendCraftError) as e:
            load_task_file(tmp_path / name)
        assert e.value.kinds == [kind] and e.value.diagnostics[0].line == len(text.splitlines()), name
    with pytest.raises(AscendCraftError) as e:
        load_task_file(tmp_path / "missing.py")
    assert e.value.kinds == ["task-not-found"]
    with pytest.raises(AscendCraftError) as e:
        load_task_folder(tmp_path / "nowhere")
    assert e.value.kinds == ["task-folder"]


def test_output_specs_come_back_from_the_spec_cache_keyed_by_the_task_text(tmp_path, monkeypatch):
    "The meta run of a reference imports torch._dynamo (1.6-1.8 s a process): its specs are cached by the file's text and size."
    import ascendcraft.taskset as ts
    monkeypatch.setenv("ASCENDCRAFT_CACHE_DIR", str(tmp_path / "cache"))
    source = (FIXTURES / "activation" / "leaky_relu.py").read_text()
    (tmp_path / "a").mkdir()
    path = tmp_path / "a" / "leaky_relu.py"
    path.write_text(source)
    task = load_task_file(path)
    computed = ts._meta_output_specs(task, "full")
    assert task.output_specs("full") == computed
    assert len(list((tmp_path / "cache" / "specs").rglob("*.json"))) == 1
    runs = []
    real = ts._meta_output_specs
    monkeypatch.setattr(ts, "_meta_output_specs", lambda t, size: runs.append(size) or real(t, size))
    assert load_task_file(path).output_specs("full") == computed and runs == []          # read back, not run again
    assert task.output_specs({"batch_size": 3}) == real(task, {"batch_size": 3}) and len(runs) == 1   # other shapes: run
    n = computed[0].shape[0]
    path.write_text(source.replace(f"batch_size = {n}", f"batch_size = {n + 1}"))    # a changed file is run again
    changed = load_task_file(path).output_specs("full")
    assert len(runs) == 2 and changed[0].shape == (n + 1, *computed[0].shape[1:])


def test_hinge_losss_signed_set_is_its_draw_scaled_in_place():
    "hinge_loss's signed predictions are the ordinary draw's p * 4 - 2, bit for bit (computed in place), targets unchanged."
    hinge, = registry(tasks=["hinge_loss"])
    plain, signed = hinge.inputs("small", 0, 2, False), hinge.inputs("small", 0, 2, True)
    assert torch.equal(signed[0], plain[0] * 4 - 2) and torch.equal(signed[1], plain[1])
    assert float(signed[0].min()) < -1.9 and float(signed[0].max()) > 1.9
