"""The integer columns of examples/corpus/hicann_foreach_by_hand.py (--integer): the exact check and the references
whose integer rule the op's document or kernel fixes (foreach_neg wraps at the output's width, its document's examples;
foreach_mul_list's INT8 / UINT8 products wrap; expm1's integer result rounds half to even, the kernel's CAST_RINT).
No emulator run: the corpus run is `python examples/corpus/hicann_foreach_by_hand.py --integer`."""
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
import hicann_foreach_by_hand as fe  # noqa: E402


def test_neg_edges_wrap_as_the_document_says():
    cases = list(fe.int_neg(np.random.default_rng(0), {"x": torch.int8}))
    label, inputs, _, want = cases[-1]
    assert label == "edges"
    x, (y, dt) = inputs["x"][0], want["y"][0]
    got = {int(a): int(b) for a, b in zip(x, y.to(dt))}
    assert got[-128] == -128 and got[127] == -127 and got[1] == -1
    label, inputs, _, want = list(fe.int_neg(np.random.default_rng(0), {"x": torch.uint8}))[-1]
    assert {int(a): int(b) for a, b in zip(inputs["x"][0], want["y"][0][0].to(torch.uint8))}[1] == 255


def test_the_exact_check_counts_every_differing_element_and_names_the_first():
    want = torch.tensor([1, 2, 300], dtype=torch.int64)         # 300 wraps to 44 in uint8
    assert fe._exact(np.array([1, 2, 44], np.uint8), want, torch.uint8) == (0, 3, "")
    bad, n, first = fe._exact(np.array([1, 3, 255], np.uint8), want, torch.uint8)
    assert (bad, n) == (2, 3) and first == "at 1: got 3, want 2"


def test_mul_list_overflow_reference_wraps_and_expm1_rounds_half_to_even():
    cases = {c[0]: c for c in fe.int_mul_list(np.random.default_rng(1), {"x1": torch.int8})}
    _, inputs, _, want = cases["overflow"]
    a, b = inputs["x1"][0].to(torch.int64), inputs["x2"][0].to(torch.int64)
    assert ((a * b) != (a * b).to(torch.int8)).any()            # the case does overflow
    assert torch.equal(want["y"][0][0].to(torch.int8), (a * b).to(torch.int8))
    assert sum(t.numel() for t in cases["tiny"][1]["x1"]) <= 64   # tiling key 17's limit
    _, inputs, _, want = next(fe.int_rounded(torch.expm1)(np.random.default_rng(2), {"x": torch.int16}))
    x, y = inputs["x"][0].reshape(-1), want["y"][0][0].reshape(-1)
    assert {int(a): int(b) for a, b in zip(x, y)}[4] == 54 and {int(a): int(b) for a, b in zip(x, y)}[-1] == -1
