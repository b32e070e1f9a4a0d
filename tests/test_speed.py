"""Speed work (issue 17): caches and fast paths keep their results identical to the slow paths."""
import pickle

from ascendcraft.bench import eager_cost
from ascendcraft.config import load_settings
from ascendcraft.eager import eager_time
from ascendcraft.soc import load_soc
from ascendcraft.taskset import get_task


def test_eager_cost_is_cached_per_task_and_identical(tmp_path):
    "The second call reads the cached model; it equals a fresh eager_time at the full shapes."
    settings = load_settings().replace(cache_dir=str(tmp_path))
    soc, task = load_soc("Ascend910B2"), get_task("relu")
    first = eager_cost(task, soc, settings)
    files = list((tmp_path / "eager").rglob("*.pickle"))
    assert len(files) == 1
    fresh = eager_time(task.model("full", device="meta"), task.inputs("full", device="meta"), soc)
    again = eager_cost(task, soc, settings)
    assert again.total_us == first.total_us == fresh.total_us
    assert [o.name for o in again.ops] == [o.name for o in fresh.ops]
    # a corrupt cache entry is recomputed, not trusted
    files[0].write_bytes(b"not a pickle")
    assert eager_cost(task, soc, settings).total_us == fresh.total_us
    assert pickle.loads(files[0].read_bytes()).total_us == fresh.total_us


import numpy as np
import pytest
import torch

from ascendcraft import verify as V


def _cases():
    g = torch.Generator().manual_seed(0)
    ref = torch.randn(5, 13, generator=g)
    yield "pass", ref, ref + 1e-6
    yield "mismatch", ref, torch.where(torch.arange(65).reshape(5, 13) == 40, ref + 1, ref)
    yield "two-worst", ref, ref + torch.tensor([0.0, 0.5] * 32 + [0.5]).reshape(5, 13)
    yield "nan", ref, torch.where(torch.arange(65).reshape(5, 13) == 9, torch.tensor(float("nan")), ref)
    yield "constant", ref, torch.full_like(ref, 0.25)
    tiny = ref * 1e-6
    yield "blind-wrong", tiny, tiny * 3
    yield "blind-right", tiny, tiny.clone()
    yield "const-ref", torch.full((4, 9), 2.0), torch.full((4, 9), 2.0)
    inf = ref.clone(); inf[2, 3] = float("inf")
    yield "inf-equal", inf, inf.clone()
    other = inf.clone(); other[2, 3] = 1.0
    yield "inf-missed", inf, other
    yield "half", ref.half(), (ref + 1e-3).half()
    yield "bf16", ref.bfloat16(), (ref * 1.5).bfloat16()
    yield "scalar", torch.tensor(3.0), torch.tensor(3.5)


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_chunked_comparison_matches_the_whole_tensor_one(monkeypatch, chunk):
    "Every verdict, error figure and message of the chunked comparison equals the float64 whole-tensor comparison."
    monkeypatch.setattr(V, "COMPARE_CHUNK", chunk)
    for name, ref, out in _cases():
        tol = V.Tolerance(1e-4, 1e-4)
        new = V.compare_output(name, ref, out, tol)
        check = V.OutputCheck(name, "pass", tuple(ref.shape), str(ref.dtype).removeprefix("torch."), tol.atol, tol.rtol)
        old = V._compare_float(check, ref.double(), out.double())
        assert (new.kind, new.message, new.blind, new.scale_passed, new.ref_constant) == \
               (old.kind, old.message, old.blind, old.scale_passed, old.ref_constant), name
        for a, b in ((new.max_abs_err, old.max_abs_err), (new.max_rel_err, old.max_rel_err)):
            assert (a is None and b is None) or a == pytest.approx(b, rel=1e-12, nan_ok=True), name
    kinds = {n: V.compare_output(n, r, o, V.Tolerance(1e-4, 1e-4)).kind for n, r, o in _cases()}
    assert kinds["mismatch"] == "mismatch" and kinds["nan"] == "nan" and kinds["constant"] == "constant-output"
    assert kinds["blind-wrong"] == "mismatch" and kinds["pass"] == kinds["blind-right"] == kinds["inf-equal"] == "pass"
