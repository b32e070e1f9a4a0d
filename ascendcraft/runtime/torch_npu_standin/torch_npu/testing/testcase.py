"""AscendCraft's stand-in for torch_npu.testing.testcase: TestCase, run_tests and assertRtolEqual as torch_npu documents
and uses them in its custom-op tests. Written from that behaviour; no torch_npu code.
"""
# assertRtolEqual(x, y, prec=1e-4, prec16=1e-3): tensors are compared on the CPU as NumPy arrays of one shape and one
# dtype; an element is off when its absolute error is above the precision (prec16 for float16, prec otherwise) and so
# is its relative error (error / (max(|x|, |y|) + a small floor)); the check fails when more than a `precision`
# fraction of the elements is off in both senses. Booleans must be equal.
import numbers
import random
import sys
import unittest
from collections.abc import Sequence

import numpy as np
import torch

SEED = 666   # torch_npu's TestCase seeds every test with this by default


def run_tests():
    "Run the calling script's TestCase classes (unittest's command line: exit status 0 when every test passes)."
    unittest.main(module="__main__", argv=sys.argv)


class TestCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        torch.manual_seed(SEED)
        random.seed(SEED)
        np.random.seed(SEED)

    def assertRtolEqual(self, x, y, prec=1.e-4, prec16=1.e-3, auto_trans_dtype=False, message=None):
        if isinstance(x, Sequence) and isinstance(y, Sequence) and not isinstance(x, str):
            for a, b in zip(x, y):
                self.assertRtolEqual(a, b, prec, prec16, auto_trans_dtype, message)
            return
        if isinstance(x, torch.Tensor) and isinstance(y, Sequence):
            y = torch.as_tensor(y, dtype=x.dtype)
        elif isinstance(y, torch.Tensor) and isinstance(x, Sequence):
            x = torch.as_tensor(x, dtype=y.dtype)
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) and auto_trans_dtype:
            x = x.to(y.dtype)
        x, y = (v.detach().cpu().numpy() if isinstance(v, torch.Tensor) else np.asarray(v) for v in (x, y))
        note = f": {message}" if message else ""
        if x.shape != y.shape:
            self.fail(f"shape error: {x.shape} against {y.shape}{note}")
        if x.dtype != y.dtype:
            self.fail(f"dtype error: {x.dtype} against {y.dtype}{note}")
        if x.dtype == np.bool_:
            if not np.array_equal(x, y):
                self.fail(f"result error: {int(np.sum(x != y))} of {x.size} booleans differ{note}")
            return
        if x.dtype == np.float16:
            precision, floor = prec16, 6e-8
        elif x.dtype in (np.float32, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64):
            precision, floor = prec, 1e-9
        else:
            self.fail(f"dtype error: {x.dtype} is not one assertRtolEqual compares{note}")
        a, b = x.astype(np.float64), y.astype(np.float64)
        error = np.abs(b - a)
        off_abs = ~(error <= precision)
        off_rel = ~(error / (np.maximum(np.abs(a), np.abs(b)) + floor) <= precision)
        allowed = x.size * precision
        if off_abs.sum() > allowed and off_rel.sum() > allowed:
            worst = np.unravel_index(np.nanargmax(np.where(np.isnan(error), np.inf, error)), error.shape) if x.size else ()
            self.fail(f"result error: {int((off_abs & off_rel).sum())} of {x.size} elements off by more than {precision} "
                      f"(first worst at {tuple(int(i) for i in worst)}: {a[worst]} against {b[worst]}){note}")

    def assertEqual(self, x, y, prec=None, message=""):
        "Tensors: the same size and a largest absolute difference of at most `prec` (1e-5); anything else: unittest's."
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            self.assertEqual(tuple(x.size()), tuple(y.size()), message=message)
            if x.numel():
                worst = (x.detach().cpu().double() - y.detach().cpu().double()).abs().max().item()
                self.assertLessEqual(worst, 1e-5 if prec is None else prec, message or None)
            return
        if isinstance(x, numbers.Number) and isinstance(y, numbers.Number) and prec is not None:
            self.assertLessEqual(abs(x - y), prec, message or None)
            return
        super().assertEqual(x, y, message or None)
