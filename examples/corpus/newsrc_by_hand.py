"""The fortieth round's small community op projects (community.py, helper newsrc) run whole on the emulator, their
TilingFunc and then their kernel, against NumPy references of the ops' documented meaning, under community_by_hand.py's
rule (each element within 1e-3 (half) / 1e-4 (float) absolute or relative; integer and boolean outputs equal). The
references are community_by_hand.py's and src_by_hand.py's where the op is the same; the new ones are written here.

Built for A2 (910B): KaranocaVe's PdistGrad; TJ12342's Pdist (the forty-second round: an op project at its
repository's root), on the inputs its five cases keep (case/case<k>/input/input_x.bin, which its gen_data.py drew:
shapes, ranges and p as there) against NumPy's pdist of them. Built for the 310B only (no A2 claim; the same AscendC API): wilburx813's
contest ops, g1050's Addcmul and LessEqual, Ryedii's course lab, saltyfish88's Sinh.

    python examples/corpus/newsrc_by_hand.py [--only NAME] [--keep DIR] [--git OWNER/NAME=DIR]
"""
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from community_by_hand import (asinh, asinh_grad, close, div, is_close, log_sum_exp, run_cases, softmax,  # noqa: E402
                               uniform)
from hicann_by_hand import MIRRORS, run_ops_main  # noqa: E402
from src_by_hand import pdist_grad, sinh  # noqa: E402

WILBUR, G1050, RYEDII = "wilburx813/ascend_op", "g1050/ascend_c_op", "Ryedii/lab5"


def compare(rng, shape, dtype, op):
    "x1 op x2 as bool; a third of the pairs equal, so that the boundary is tried."
    a = uniform(rng, shape, -3, 3, dtype) if np.dtype(dtype).kind == "f" else rng.integers(-50, 50, shape).astype(dtype)
    b = np.where(rng.integers(0, 3, shape) == 0, a,
                 uniform(rng, shape, -3, 3, dtype) if np.dtype(dtype).kind == "f" else rng.integers(-50, 50, shape))
    b = b.astype(dtype)
    return {"x1": a, "x2": b}, {}, {"y": op(a, b)}


def addcmul(rng, shape, dtype):
    """torch.addcmul: input_data + value * x1 * x2, value a one-element tensor; in the order its kernel's Mul, Muls and
    Add run for half and float, each product and the sum rounded to the tensors' type (in half that is up to two ulp
    from the exact value)."""
    d, x1, x2 = (uniform(rng, shape, -2, 2, dtype) for _ in range(3))
    value = np.array([0.75], dtype)
    step = lambda v: v.astype(dtype).astype(np.float64)
    want = step(d.astype(np.float64) + step(step(x1.astype(np.float64) * x2) * 0.75))
    return {"input_data": d, "x1": x1, "x2": x2, "value": value}, {}, {"y": want}


def softplus(rng, shape):
    x = uniform(rng, shape, -6, 6, np.float16)
    return {"x": x}, {}, {"z": np.log1p(np.exp(x.astype(np.float64)))}


def l1_elementwise(rng, shape):
    "The lab's L1lossCustom writes |x - y| per element (its kernel: Sub, then Abs; no reduction)."
    x, y = uniform(rng, shape, -4, 4, np.float16), uniform(rng, shape, -4, 4, np.float16)
    return {"x": x, "y": y}, {}, {"z": np.abs((x.astype(np.float64) - y).astype(np.float16).astype(np.float64))}


def karanoca_pdist_grad(rng, n, m, p):
    ins, attrs, out = pdist_grad(rng, n, m, p)
    return ({"grad": ins["grad"], "input": ins["input"], "pdist": ins["pdist_output"]}, attrs, {"out": out["result"]})


TJ = "TJ12342/ascend_c_parctice"


def tj_case(k: int, shape: tuple, dtype, p: float):
    """TJ12342's Pdist case k: the input its case folder keeps (drawn by its gen_data.py), the reference NumPy's pdist of
    it in float64 (torch.nn.functional.pdist, the case's golden)."""
    def make(_rng):
        raw = subprocess.run(["git", "--git-dir", str(MIRRORS / TJ.replace("/", "+") / "repo"), "show",
                              f"HEAD:case/case{k}/input/input_x.bin"], capture_output=True, check=True).stdout
        x = np.frombuffer(raw, dtype).reshape(shape).astype(np.float64)
        i, j = np.triu_indices(shape[0], 1)
        return {"x": x.astype(dtype)}, {"p": p}, {"y": np.sum(np.abs(x[i] - x[j]) ** p, -1) ** (1 / p)}
    return make


def named(case, **renames):
    "A reference case with its outputs renamed: `new=old` (the same op, another project's output name)."
    ins, attrs, outs = case
    return ins, attrs, {new: outs[old] for new, old in renames.items()}


OPS = {
    "PdistGrad (KaranocaVe)": ("KaranocaVe/AscendC-CI", "demo/pdist_grad", [
        ("float [8, 16] p 2", lambda r: karanoca_pdist_grad(r, 8, 16, 2.0)),
        ("float [6, 40] p 2", lambda r: karanoca_pdist_grad(r, 6, 40, 2.0))]),
    "Pdist (TJ12342)": (TJ, "", [
        ("case1 half [16, 2] p 2", tj_case(1, (16, 2), np.float16, 2.0)),
        ("case2 float [64, 64] p 3", tj_case(2, (64, 64), np.float32, 3.0)),
        ("case3 float [224, 224] p 4", tj_case(3, (224, 224), np.float32, 4.0)),
        ("case4 half [63, 69] p 5", tj_case(4, (63, 69), np.float16, 5.0)),
        ("case5 float [63, 73] p 5", tj_case(5, (63, 73), np.float32, 5.0))]),
    "LogSumExp (wilburx813)": (WILBUR, "LogSumExp", [
        # the last dim only (its kernel: "TODO: dim = -1 by default"); another dim copies past its tile (ub-out-of-range)
        ("float [5, 64] dim -1", lambda r: log_sum_exp(r, (5, 64), (-1,), False, np.float32)),
        ("half [6, 64] dim -1 keep", lambda r: log_sum_exp(r, (6, 64), (-1,), True, np.float16))]),
    "Softmax (wilburx813)": (WILBUR, "Softmax", [
        ("float [8, 128] dim -1", lambda r: softmax(r, (8, 128), -1, np.float32)),
        ("half [3, 17, 64] dim -1", lambda r: softmax(r, (3, 17, 64), -1, np.float16))]),
    "Div (wilburx813)": (WILBUR, "Div", [
        ("float [5, 333]", lambda r: div(r, (5, 333), np.float32)),
        ("half [1000]", lambda r: div(r, (1000,), np.float16))]),
    "Asinh (wilburx813)": (WILBUR, "Asinh", [
        # float only: its tiling's fixed 992-block tiles take 248 KB of UB in half (the 310B's 256 KB; A2 has 192 KB)
        ("float [4, 515]", lambda r: asinh(r, (4, 515), np.float32))]),
    "AsinhGrad (wilburx813)": (WILBUR, "AsinhGrad", [
        ("float [3, 700]", lambda r: asinh_grad(r, (3, 700), np.float32)),
        ("half [999]", lambda r: asinh_grad(r, (999,), np.float16))]),
    "IsClose (wilburx813)": (WILBUR, "IsClose", [
        ("float [6, 250]", lambda r: is_close(r, (6, 250), np.float32))]),
    # ReplicationPad2d is left out: its TilingFunc reads the paddings input's values (GetInputTensor(1)->GetData) but
    # its OpDef does not make that input ValueDepend, so the tiling gets no data (a null read, SIGSEGV, here as in a
    # CANN build): the op's own
    "NotEqual (wilburx813)": (WILBUR, "NotEqual", [
        ("float [4, 300]", lambda r: compare(r, (4, 300), np.float32, np.not_equal)),
        ("int32 [1000]", lambda r: compare(r, (1000,), np.int32, np.not_equal)),
        ("half [2, 512]", lambda r: compare(r, (2, 512), np.float16, np.not_equal))]),
    "Addcmul (g1050)": (G1050, "Addcmul", [
        ("half [8, 2048]", lambda r: addcmul(r, (8, 2048), np.float16)),
        ("float [4, 1024]", lambda r: addcmul(r, (4, 1024), np.float32))]),
    "LessEqual (g1050)": (G1050, "LessEqual", [
        ("half [8, 2048]", lambda r: compare(r, (8, 2048), np.float16, np.less_equal)),
        ("float [4, 1024]", lambda r: compare(r, (4, 1024), np.float32, np.less_equal))]),
    "SoftplusCustom (Ryedii)": (RYEDII, "softplus/SoftplusCustom", [
        ("half [8, 2048]", lambda r: softplus(r, (8, 2048)))]),
    "L1lossCustom (Ryedii)": (RYEDII, "l1loss/L1lossCustom", [
        ("half [8, 2048]", lambda r: l1_elementwise(r, (8, 2048)))]),
    "SinhCustom (saltyfish88)": ("saltyfish88/ascend-c", "SinhCustom/SinhCustom", [
        ("half [8, 2048]", lambda r: named(sinh(r, (8, 2048), np.float16), y="z"))]),
    # wybxw's Expand is left out: its kernel asks for a fixed 240 KB of UB (UB_BYTES, the 310B's), more than A2's 192 KB
}


def run_op(g_, name: str):
    # the caller allocates the outputs with the reference's shapes, a bool reference as bool
    yield from run_cases(g_, name, OPS, seed=4200, out_dtype={}, check=close)


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_op))
