"""The fortieth round's small community op projects (community.py, helper newsrc) run whole on the emulator, their
TilingFunc and then their kernel, against NumPy references of the ops' documented meaning, under community_by_hand.py's
rule (each element within 1e-3 (half) / 1e-4 (float) absolute or relative; integer and boolean outputs equal). The
references are community_by_hand.py's and src_by_hand.py's where the op is the same; the new ones are written here.

Built for A2 (910B): KaranocaVe's PdistGrad; TJ12342's Pdist (the forty-second round: an op project at its
repository's root), on the inputs its five cases keep (case/case<k>/input/input_x.bin, which its gen_data.py drew:
shapes, ranges and p as there) against NumPy's pdist of them. Built for the 310B only (no A2 claim; the same AscendC API): wilburx813's
contest ops, g1050's Addcmul and LessEqual, Ryedii's course lab, saltyfish88's Sinh.

The forty-third round: the official samples' FrameworkLaunch op projects, from the two copies of Ascend/samples in the
corpus (community.OFFICIAL_SAMPLE_COPIES: tjulitianyi1997's of March 2024, Mr-Xiao2021's of CANN 8.0.RC3), on the
shapes of each sample's own AclNNInvocation gen_data.py (smaller where that shape is only large) and against NumPy
restatements of what those scripts compute, in float64; "(samples 2024-03)" and "(samples 8.0.RC3)" in the names.

The forty-fourth round: the two copies' kernel-launch kernels (KERNEL_LAUNCH: each kernel file built alone and run
with the arguments its main.cpp / pybind11.cpp passes, the tiling its gen_data.py or its own host code writes; the
matmuls' TCubeTiling from the sample's GenerateTiling compiled against the emulated host headers), and the seven RC3 op
projects the forty-third round built but did not run (RC3_MORE); both under the sample's own verify_result.py (or
main.cpp's comparison) restated, community_by_hand's rule printed beside it.

    python examples/corpus/newsrc_by_hand.py [--only NAME] [--keep DIR] [--git OWNER/NAME=DIR]
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from community_by_hand import (asinh, asinh_grad, close, div, is_close, layer_norm, log_sum_exp,  # noqa: E402
                               matmul_bias, run_cases, softmax, uniform)
import corpus  # noqa: E402
from hicann_by_hand import MIRRORS, project, run_ops_main, run_or_error  # noqa: E402

from ascendcraft.emu import GM, RunRules, Scalar, Workspace, build, read_sources, run  # noqa: E402
from src_by_hand import add, pdist_grad, sinh  # noqa: E402

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


def sub(rng, shape, dtype):
    "z = x - y, rounded to the type (the samples' SubCustom)."
    x, y = uniform(rng, shape, -4, 4, dtype), uniform(rng, shape, -4, 4, dtype)
    return {"x": x, "y": y}, {}, {"z": (x.astype(np.float64) - y).astype(dtype)}


def leaky_relu(rng, shape, slope):
    x = uniform(rng, shape, -100, 100, np.float32)
    xd = x.astype(np.float64)
    return {"x": x}, {"negative_slope": slope}, {"y": np.where(xd > 0, xd, xd * slope)}


def addcdiv(rng, shape, value):
    "out = x + y / z * value (the contrib AddcdivCustom: half, value an attribute); y, z away from 0."
    x, y, z = (uniform(rng, shape, 1, 100, np.float16) for _ in range(3))
    return {"x": x, "y": y, "z": z}, {"value": value}, {"out": x.astype(np.float64) + y.astype(np.float64) / z * value}


def clip_by_value(rng, shape, dtype):
    x = uniform(rng, shape, 1, 10, dtype)
    lo, hi = uniform(rng, (1,), 1, 3, dtype), uniform(rng, (1,), 4, 10, dtype)
    return {"x": x, "clip_value_min": lo, "clip_value_max": hi}, {}, {"y": np.clip(x.astype(np.float64), lo[0], hi[0])}


FAST_GELU_A = 1.702


def fast_gelu(rng, shape, dtype):
    "x * sigmoid(1.702 x): the samples' FastGelu (its gen_data's x * exp(0.851 (x - |x|)) / (1 + exp(-1.702 |x|)))."
    x = uniform(rng, shape, -10, 10, dtype)
    xd = x.astype(np.float64)
    return {"x": x}, {}, {"y": xd / (1 + np.exp(-FAST_GELU_A * xd))}


def fast_gelu_grad(rng, shape, dtype):
    "dy times the derivative of x * sigmoid(a x): s + a x s (1 - s), s = sigmoid(a x) (its gen_data's closed form)."
    dy, x = uniform(rng, shape, -10, 10, dtype), uniform(rng, shape, -10, 10, dtype)
    xd = x.astype(np.float64)
    sg = 1 / (1 + np.exp(-FAST_GELU_A * xd))
    return {"dy": dy, "x": x}, {}, {"z": dy.astype(np.float64) * (sg + FAST_GELU_A * xd * sg * (1 - sg))}


def mse_loss(rng, shape, dtype):
    p, l = uniform(rng, shape, -10, 10, dtype), uniform(rng, shape, -10, 10, dtype)
    return {"predict": p, "label": l}, {"reduction": "mean"}, {"y": np.array(np.mean((p.astype(np.float64) - l) ** 2))}


def mse_loss_grad(rng, shape, dtype):
    p, l, d = (uniform(rng, shape, -10, 10, dtype) for _ in range(3))
    return ({"predict": p, "label": l, "dout": d}, {"reduction": "mean"},
            {"y": 2.0 / p.size * (p.astype(np.float64) - l) * d})


def instance_norm(rng, shape, eps):
    "The contrib InstanceNorm with data_format ND: over the axes from 2 on, gamma and beta of x's shape; mean, variance kept."
    x, g, b = (uniform(rng, shape, -10, 10, np.float32) for _ in range(3))
    xd = x.astype(np.float64)
    axes = tuple(range(2, len(shape)))
    mean, var = xd.mean(axes, keepdims=True), xd.var(axes, keepdims=True)
    return ({"x": x, "gamma": g, "beta": b}, {"data_format": "ND", "epsilon": eps},
            {"y": g * (xd - mean) / np.sqrt(var + eps) + b, "mean": mean, "variance": var})


def lp_norm_all(rng, shape, p):
    "The contrib LpNormV2 over every axis (axes [], keepdim false): (sum |x|^p)^(1/p), in half."
    x = uniform(rng, shape, 1, 10, np.float16)
    return ({"x": x}, {"p": p, "axes": [], "keepdim": False, "epsilon": 1e-12},
            {"y": np.array(np.sum(np.abs(x.astype(np.float64)) ** p) ** (1 / p))})


def moe_softmax_topk(rng, rows, cols, k):
    "The top k of each row's softmax, largest first, and their indices."
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    e = np.exp(x.astype(np.float64) - x.max(-1, keepdims=True))
    sm = e / e.sum(-1, keepdims=True)
    idx = np.argsort(-sm, -1, kind="stable")[:, :k]
    return {"x": x}, {"k": k}, {"y": np.take_along_axis(sm, idx, -1), "indices": idx.astype(np.int32)}


def pre_layer_norm(rng, shape, eps):
    "LayerNorm over the last axis of x + y (the samples' PreLayerNorm)."
    x, y = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
    g, b = rng.standard_normal(shape[-1]).astype(np.float32), rng.standard_normal(shape[-1]).astype(np.float32)
    a = x.astype(np.float64) + y
    mean, var = a.mean(-1, keepdims=True), a.var(-1, keepdims=True)
    return {"x": x, "y": y, "gamma": g, "beta": b}, {"epsilon": eps}, {"res_out": (a - mean) / np.sqrt(var + eps) * g + b}


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

MARCH, RC3 = "tjulitianyi1997/AscendProjects", "Mr-Xiao2021/ascend_op_learning"
M24, R3 = " (samples 2024-03)", " (samples 8.0.RC3)"
FW = "operator/{}Sample/FrameworkLaunch/{}"
SAMPLES = {
    "AddCustom" + M24: (MARCH, FW.format("AddCustom", "AddCustom"), [
        ("half [8, 2048]", lambda r: add(r, (8, 2048), np.float16))]),
    "AddCustom" + R3: (RC3, FW.format("AddCustom", "AddCustom"), [
        ("half [8, 2048]", lambda r: add(r, (8, 2048), np.float16))]),
    "AddCustom FrameworkLaunchLite" + R3: (RC3, "operator/AddCustomSample/FrameworkLaunchLite/AddCustom", [
        ("half [8, 2048]", lambda r: add(r, (8, 2048), np.float16))]),
    "AddCustom unaligned" + R3: (RC3, "operator_contrib/UnalignAddCustomSample/FrameworkLaunch/AddCustom", [
        ("half [7, 2045]", lambda r: add(r, (7, 2045), np.float16)),
        ("float [3, 1001]", lambda r: add(r, (3, 1001), np.float32))]),
    "SubCustom" + R3: (RC3, FW.format("SubCustom", "SubCustom"), [
        ("half [8, 2048]", lambda r: sub(r, (8, 2048), np.float16))]),
    "LeakyReluCustom" + M24: (MARCH, FW.format("LeakyReluCustom", "LeakyReluCustom"), [
        ("float [8, 200, 1024] slope 0.01", lambda r: leaky_relu(r, (8, 200, 1024), 0.01))]),
    "LeakyReluCustom" + R3: (RC3, FW.format("LeakyReluCustom", "LeakyReluCustom"), [
        ("float [8, 200, 1024] slope 0", lambda r: leaky_relu(r, (8, 200, 1024), 0.0))]),
    "MatmulCustomMultiCore" + M24: (MARCH, FW.format("MatMulCustom", "MatmulCustomMultiCore"), [
        ("[1024, 256] x [256, 640] + bias", lambda r: matmul_bias(r, 1024, 256, 640))]),
    "MatmulCustomSingleCore" + M24: (MARCH, FW.format("MatMulCustom", "MatmulCustomSingleCore"), [
        ("[512, 512] x [512, 1024] + bias", lambda r: matmul_bias(r, 512, 512, 1024))]),
    "MatmulCustomMultiCore" + R3: (RC3, FW.format("MatmulCustom", "MatmulCustomMultiCore"), [
        ("[1024, 256] x [256, 640] + bias", lambda r: matmul_bias(r, 1024, 256, 640))]),
    "MatmulLeakyReluCustom" + R3: (RC3, FW.format("MatmulLeakyReluCustom", "MatmulLeakyReluCustom"), [
        ("[1024, 256] x [256, 640] + bias, alpha 0.001", lambda r: matmul_bias(r, 1024, 256, 640, alpha=0.001))]),
    "AddcdivCustom" + R3: (RC3, "operator_contrib/AddcdivCustomSample/FrameworkLaunch/AddcdivCustom", [
        ("half [1, 96 * 2048] value 1", lambda r: addcdiv(r, (1, 96 * 2048), 1.0))]),
    "Addcmul" + R3: (RC3, "operator_contrib/AddcmulSample/FrameworkLaunch/Addcmul", [
        ("half [133, 4095]", lambda r: addcmul(r, (133, 4095), np.float16)),
        ("float [4, 1024]", lambda r: addcmul(r, (4, 1024), np.float32))]),
    "ClipByValue" + R3: (RC3, "operator_contrib/ClipByValueSample/FrameworkLaunch/ClipByValue", [
        ("half [7, 2045]", lambda r: clip_by_value(r, (7, 2045), np.float16))]),
    "FastGelu" + R3: (RC3, "operator_contrib/FastGeluSample/FrameworkLaunch/FastGelu", [
        ("half [1024]", lambda r: fast_gelu(r, (1024,), np.float16)),
        ("float [4, 999]", lambda r: fast_gelu(r, (4, 999), np.float32))]),
    "FastGeluGrad" + R3: (RC3, "operator_contrib/FastGeluGradSample/FrameworkLaunch/FastGeluGrad", [
        ("half [1024]", lambda r: fast_gelu_grad(r, (1024,), np.float16)),
        ("float [4, 999]", lambda r: fast_gelu_grad(r, (4, 999), np.float32))]),
    "GreaterEqual" + R3: (RC3, "operator_contrib/GreaterEqualSample/FrameworkLaunch/GreaterEqual", [
        ("half [1024]", lambda r: compare(r, (1024,), np.float16, np.greater_equal)),
        ("int32 [3, 333]", lambda r: compare(r, (3, 333), np.int32, np.greater_equal))]),
    "LessEqual" + R3: (RC3, "operator_contrib/LessEqualSample/FrameworkLaunch/LessEqual", [
        ("float [1024, 1024]", lambda r: compare(r, (1024, 1024), np.float32, np.less_equal))]),
    "MseLoss" + R3: (RC3, "operator_contrib/MseLossSample/FrameworkLaunch/MseLoss", [
        ("float [1024, 1024] mean", lambda r: mse_loss(r, (1024, 1024), np.float32))]),
    "MseLossGrad" + R3: (RC3, "operator_contrib/MseLossGradSample/FrameworkLaunch/MseLossGrad", [
        ("float [1024, 1024] mean", lambda r: mse_loss_grad(r, (1024, 1024), np.float32))]),
    "InstanceNorm" + R3: (RC3, "operator_contrib/InstanceNormSample/FrameworkLaunch/InstanceNorm", [
        ("float [8, 3, 1024] ND eps 0", lambda r: instance_norm(r, (8, 3, 1024), 0.0))]),
    "LpNormV2Custom" + R3: (RC3, "operator_contrib/LpNormV2CustomSample/FrameworkLaunch/LpNormV2Custom", [
        ("half [3, 4, 1024] p 3, all axes", lambda r: lp_norm_all(r, (3, 4, 1024), 3.0))]),
    "LayerNormCustom" + R3: (RC3, "operator_contrib/LayerNormCustomSample/FrameworkLaunch/LayerNormCustom", [
        ("float [256, 1024] eps 1e-5", lambda r: layer_norm(r, 256, 1024))]),
    "MoeSoftMaxTopkCustom" + R3: (RC3, "operator_contrib/MoeSoftMaxTopkCustomSample/FrameworkLaunch/MoeSoftMaxTopkCustom", [
        ("float [1024, 16] k 4", lambda r: moe_softmax_topk(r, 1024, 16, 4)),
        ("float [2048, 32] k 6", lambda r: moe_softmax_topk(r, 2048, 32, 6))]),
    "PreLayerNormCustom" + R3: (RC3, "operator_contrib/PreLayerNormCustomSample/FrameworkLaunch/PreLayerNormCustom", [
        ("float [48, 4, 2048] eps 1e-5", lambda r: pre_layer_norm(r, (48, 4, 2048), 1e-5))]),
}
OPS.update(SAMPLES)


# the samples' matmuls take half a and b and give float c
SAMPLE_OUT_DTYPE = {n: "float32" for n in SAMPLES if n.startswith("Matmul")}


def reference_integers(reference: np.ndarray, dtype: str) -> str:
    "An output allocated in its reference's type where that is an integer or bool (MoeSoftMaxTopk's int32 indices beside its float values), else the op's."
    return str(reference.dtype) if reference.dtype.kind in "biu" else dtype


def run_sample(g_, name: str):
    "A sample's cases through run_cases, each output in its reference's integer type where it has one, else the op's (SAMPLE_OUT_DTYPE, or the first input's)."
    yield from run_cases(g_, name, SAMPLES, seed=4300, out_dtype=SAMPLE_OUT_DTYPE, check=close,
                         output_dtype=reference_integers)


# The kernel-launch samples (forty-fourth round): each sample's kernel source (the manifest's kind kernel-file entry)
# built alone and run with the arguments its main.cpp passes (ICPU_RUN_KF / the `_do` launch: block count, buffers,
# the tiling its gen_data.py or host code writes), on its gen_data.py's shape and data ranges, against a NumPy
# restatement of that script's golden (in the script's own dtype steps). Checked by the sample's own
# verify_result.py restated (`loss`: an element fails when it is off by more than `loss` absolutely and relatively,
# the run fails when more than size x loss elements fail both ways; `isclose`: np.isclose(rtol, atol), the run fails
# when more than error_tol of the elements are not close), or by community_by_hand's rule where the sample's folder
# has no verify_result.py; community_by_hand's rule is printed beside it either way.

def samples_loss(loss: float, minimum: float = 10e-10):
    "The 2024 samples' verify_result.py: the element-wise absolute and relative tests in the output's dtype."
    def check(got, want):
        g, w = got.reshape(-1), want.reshape(-1).astype(got.dtype)
        if g.dtype.kind in "biu":
            g, w = g.astype(np.int64), w.astype(np.int64)
        diff = np.abs(g - w)
        atol_ok = np.less_equal(diff, loss)
        rtol_ok = np.less_equal(diff / np.add(np.maximum(np.abs(g), np.abs(w)), minimum), loss)
        bad = (not rtol_ok.all() and not atol_ok.all() and (~rtol_ok).sum() > g.size * loss
               and (~atol_ok).sum() > g.size * loss)
        return not bad, f"loss {loss}: {int((~atol_ok & ~rtol_ok).sum())} of {g.size} outside both"
    return check


def samples_isclose(rtol: float, atol: float, error_tol: float):
    "The 8.0.RC3 samples' verify_result.py: np.isclose in the output's dtype, at most error_tol of the elements not."
    def check(got, want):
        g, w = got.reshape(-1), want.reshape(-1).astype(got.dtype)
        bad = int((~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)).sum())
        return bad / g.size <= error_tol, f"isclose {rtol}/{atol}: {bad} of {g.size} not close (error_tol {error_tol})"
    return check


def samples_equal(got, want):
    "GreaterEqual / LessEqual's verify_result.py: every element of the bool output equal to the golden's."
    bad = int((got.reshape(-1).astype(bool) != want.reshape(-1).astype(bool)).sum())
    return bad == 0, f"equal: {bad} of {got.size} differ"


def samples_equal_values(got, want):
    "The AclNNInvocationNaive main.cpp's std::equal of the half results with its golden values."
    bad = int((got.reshape(-1) != want.reshape(-1).astype(got.dtype)).sum())
    return bad == 0, f"std::equal: {bad} of {want.size} differ"


def ours(got, want):
    "community_by_hand's rule, on the golden in float64"
    return close(got, want.astype(np.float64) if want.dtype.kind == "f" else want)


def kl_add(lo, hi):
    def make(rng):
        x, y = (rng.uniform(lo, hi, [8, 2048]).astype(np.float16) for _ in range(2))
        return [GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out")], {"z": (x + y).astype(np.float16)}
    return make


def kl_add_tile(rng):
    "kernel_invocation/Add_tile/add_custom.py: total 8 blocks x 128 x 8 tiles x 2 buffers, tiling (total, tile_num)"
    n = 8 * 128 * 8 * 2
    x, y = (rng.uniform(-100, 100, [n]).astype(np.float16) for _ in range(2))
    return ([GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out"), Workspace(4096),
             GM("tiling", np.array([n, 8], np.uint32))], {"z": (x + y).astype(np.float16)})


def kl_leakyrelu_tile(rng):
    "kernel_invocation/LeakyReLU/leakyrelu_custom.py: tiling (total, tile_num 8, scalar 0.1 as float32), half x"
    scalar = np.array(0.1, np.float32)
    tiling = np.array([8 * 200 * 1024, 8], np.uint32).tobytes() + scalar.tobytes()
    x = rng.uniform(-100, 100, [8, 200, 1024]).astype(np.float16)
    return ([GM("x", x), GM("y", np.zeros_like(x), "out"), Workspace(4096), GM("tiling", np.frombuffer(tiling, np.uint8))],
            {"y": np.where(x > 0, x, x * scalar).astype(np.float16)})


def kl_add_tiling_value(workspace: bool):
    "AddKernelInvocationTilingNeo: gen_data.py's tiling [16384, 8] passed by value (after a workspace in the 2024 copy)"
    def make(rng):
        x, y = (rng.uniform(1, 100, [8, 2048]).astype(np.float16) for _ in range(2))
        t = np.array([16384, 8], np.uint32).tobytes()
        return ([GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out"), *([Workspace(4096)] if workspace else []), t],
                {"z": (x + y).astype(np.float16)})
    return make


def kl_addcdiv(rng):
    x, y, z = (rng.uniform(1, 100, [8, 2048]).astype(np.float16) for _ in range(3))
    return ([GM("x", x), GM("y", y), GM("z", z), GM("out", np.zeros_like(x), "out")],
            {"out": (x + (y / z) * 1.0).astype(np.float16)})


def kl_leaky_relu(rng):
    "LeakyReluKernelInvocation: float x in [-100, 100], negative_slope 0 (the kernel's NEGATIVESLOPE)"
    x = rng.uniform(-100, 100, [8, 200, 1024]).astype(np.float32)
    return [GM("x", x), GM("y", np.zeros_like(x), "out")], {"y": np.where(x > 0, x, x * np.float32(0)).astype(np.float32)}


def kl_hello(rng):
    return [], {}


def kl_add_length(rng):
    "CppExtensions: add_custom(x, y, z, totalLength) as pybind11.cpp launches it (8 blocks); add_custom_test.py's [8, 2048]"
    x, y = (rng.uniform(0, 1, [8, 2048]).astype(np.float16) for _ in range(2))
    return [GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out"), Scalar(x.size, "uint32_t")], {"z": x + y}


def host_tiling(folder: Path, header: str, call: str, struct: str) -> bytes:
    """The bytes of `struct` as the sample's own host tiling code in `header` fills it (`call`, with `t` the struct),
    compiled with g++ and run: the samples' split tilings are plain C++ in a header main.cpp includes."""
    src = folder / "newsrc_host_tiling.cpp"
    src.write_text(f'#include "{header}"\n#include <cstdio>\n'
                   f"int main() {{ {struct} t{{}}; {call}; fwrite(&t, sizeof t, 1, stdout); return 0; }}\n")
    exe = folder / "newsrc_host_tiling"
    subprocess.run(["g++", "-std=c++17", "-I", str(folder), str(src), "-o", str(exe)], check=True, capture_output=True)
    return subprocess.run([str(exe)], check=True, capture_output=True).stdout


def kl_compare(header: str, ctype: str, np_dtype, n: int, op):
    """GreaterEqual / LessEqual KernelLaunch: main.cpp's `using T`, its length, one block, gen_splitTiling<T>(bytes, 1)
    passed by value; gen_data.py's data (torch.randn for a float type, randint for an integer one)."""
    def make(rng, folder):
        if np.dtype(np_dtype).kind == "f":
            x1, x2 = (rng.standard_normal(n).astype(np_dtype) for _ in range(2))
        else:
            x1, x2 = (rng.integers(-7, 7, n).astype(np_dtype) for _ in range(2))
        t = host_tiling(folder, header, f"gen_splitTiling<{ctype}>({n * np.dtype(np_dtype).itemsize}, 1, &t)",
                        "SplitTilingData")
        return ([GM("x1", x1), GM("x2", x2), GM("y", np.zeros(n, np.int8), "out"), Workspace(4096), t],
                {"y": op(x1, x2).astype(np.int8)})
    return make


def kl_moe(rows, cols, k):
    "MoeSoftMaxTopk KernelLaunch: main.cpp's case (x_shape, y_shape, k), 48 blocks, k passed as a scalar"
    def make(rng):
        ins, _, outs = moe_softmax_topk(rng, rows, cols, k)
        return ([GM("x", ins["x"]), GM("y", np.zeros((rows, k), np.float32), "out"),
                 GM("indices", np.zeros((rows, k), np.int32), "out"), Scalar(k, "uint32_t")],
                {"y": outs["y"].astype(np.float32), "indices": outs["indices"]})
    return make


def kl_layer_norm(rows, cols):
    "LayerNorm KernelLaunch: main.cpp's [16384, 1024] float, 48 blocks; gen_data.py's randn x, gamma, beta, eps 1e-5"
    def make(rng):
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        g, b = rng.standard_normal(cols).astype(np.float32), rng.standard_normal(cols).astype(np.float32)
        xd = x.astype(np.float64)
        mean, var = xd.mean(-1, keepdims=True), xd.var(-1, keepdims=True)
        want = ((xd - mean) / np.sqrt(var + 1e-5) * g + b).astype(np.float32)
        return [GM("x", x), GM("gamma", g), GM("beta", b), GM("z", np.zeros_like(x), "out")], {"z": want}
    return make


def kl_scatter_sub(rng):
    """ScatterSub KernelLaunch: gen_data.py's int8 var and updates [3, 4, 24, 24] in [-10, 10), int32 indices [3] in
    [0, 3) (repeats allowed); TensorFlow's ScatterSub: var[indices[i]] -= updates[i], in place (the kernel's var)"""
    var = rng.uniform(-10, 10, [3, 4, 24, 24]).astype(np.int8)
    idx = rng.uniform(0, 3, [3]).astype(np.int32)
    upd = rng.uniform(-10, 10, [3, 4, 24, 24]).astype(np.int8)
    want = var.astype(np.int64)
    for i, j in enumerate(idx):
        want[j] -= upd[i]
    return [GM("var", var, "inout"), GM("indices", idx), GM("updates", upd)], {"var": want.astype(np.int8)}


ADDN_X, ADDN_Y = 0x100000000, 0x100010000   # where the host's two allocations sit (page-aligned, apart)


def kl_addn(rng):
    """AddN KernelLaunch: main.cpp's ListTensorDesc of x and y ([8, 2048] half each; ptrOffset, two TensorDesc of dim 2,
    index, shape, then the two data addresses), 8 blocks; gen_data.py's uniform(1, 100)"""
    x, y = (rng.uniform(1, 100, [8, 2048]).astype(np.float16) for _ in range(2))
    desc = np.array([(1 + 3 * 2) * 8, 2 | (0 << 32), 8, 2048, 2 | (1 << 32), 8, 2048, ADDN_X, ADDN_Y], np.uint64)
    return ([GM("srcList", desc), GM("z", np.zeros_like(x), "out")], {"z": (x + y).astype(np.float16)},
            [GM("x", x, "in", address=ADDN_X), GM("y", y, "in", address=ADDN_Y)])


def matmul_tiling_bytes(folder: Path, tiling_cpp: str, call: str, g_) -> bytes:
    """The TCubeTiling bytes the sample's own host tiling source (`tiling_cpp`, beside the kernel: GenerateTiling with
    the matmul_tiling API) writes, compiled against the emulated CANN host headers (opproject.host_program) and run;
    `call` is its GenerateTiling call as main.cpp / pybind11.cpp makes it (the 8.0.RC3 ones take the SoC name)."""
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import host_program
    text = (folder / tiling_cpp).read_text()
    decl = "const char *socVersion" if '"' in call else ""
    main = ('#include <cstdio>\n#include <cstdint>\n#include "tiling/tiling_api.h"\n'
            f"extern uint8_t *GenerateTiling({decl});\n"
            "int main() { optiling::TCubeTiling t; uint32_t n = t.GetDataSize(); "
            f"fwrite({call}, 1, n, stdout); return 0; }}\n")
    tmp = Path(tempfile.mkdtemp(prefix="newsrc_kl_"))
    done, exe = host_program({tiling_cpp: text}, "__ascendcraft_newsrc_mm_tiling.cpp", main, tmp,
                             settings=load_settings(), units=[tiling_cpp])
    if done.returncode != 0: raise RuntimeError(f"the host tiling does not compile: {done.stderr[:300]}")
    return subprocess.run([str(exe)], check=True, capture_output=True).stdout


def tiling_program_bytes(folder: Path, program: str, nbytes: int) -> bytes:
    """The first `nbytes` of the input/tiling.bin that the sample's own tiling program (`program`, a main() with the
    matmul_tiling API, run by run.sh before the kernel) writes, compiled against the emulated CANN host headers and run
    in a scratch folder; its `#include "tiling_api.h"` is found as its CMake finds it, through include/tiling/ (a
    one-line header standing in for that include folder)."""
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import host_program
    tmp = Path(tempfile.mkdtemp(prefix="newsrc_kl_"))
    done, exe = host_program({"tiling_api.h": "#include <tiling/tiling_api.h>\n"}, "__ascendcraft_newsrc_tiling_main.cpp",
                             (folder / program).read_text(), tmp, settings=load_settings())
    if done.returncode != 0: raise RuntimeError(f"the tiling program does not compile: {done.stderr[:300]}")
    (tmp / "run" / "input").mkdir(parents=True)
    subprocess.run([str(exe)], cwd=tmp / "run", check=True, capture_output=True)
    return (tmp / "run" / "input" / "tiling.bin").read_bytes()[:nbytes]


def kl_matmul(m: int, k: int, n: int, *, tiling_cpp: str | None, call: str = "GenerateTiling()", bias: bool = False,
              alpha: float | None = None, dist: str = "randint", tiling_program: tuple[str, int] | None = None):
    """The matmul kernel-launch samples: gen_data.py's randint(1, 10) half a [m, k] and b [k, n] (a CppExtensions test's
    torch.rand / randn as `dist` says), float32 bias randint(1, 10) [n] / randn, c = a @ b (+ bias) in float32,
    LeakyReLU(alpha) after it where the sample has one; the tiling from the sample's own GenerateTiling; a 16 MiB
    workspace (the platform's GetLibApiWorkSpaceSize on A2); no tiling argument for the 2023 32 x 32 kernel."""
    def make(rng, folder):
        draw = {"randint": lambda shape: rng.integers(1, 10, shape), "rand": lambda shape: rng.uniform(0, 1, shape),
                "randn": rng.standard_normal}[dist]
        a, b = draw([m, k]).astype(np.float16), draw([k, n]).astype(np.float16)
        c = a.astype(np.float32) @ b.astype(np.float32)
        args = [GM("a", a), GM("b", b)]
        if bias:
            bv = (rng.integers(1, 10, [n]) if dist == "randint" else rng.standard_normal(n)).astype(np.float32)
            c = c + bv
            args.append(GM("bias", bv))
        if alpha is not None:
            c = np.where(c >= 0, c, c * np.float32(alpha))
        args.append(GM("c", np.zeros((m, n), np.float32), "out"))
        if tiling_cpp:
            t = matmul_tiling_bytes(folder, tiling_cpp, call, None)
            args += [Workspace(16 * 1024 * 1024), GM("tiling", np.frombuffer(t, np.uint8))]
        elif tiling_program:   # main.cpp reads that many bytes of the program's file and passes them, no workspace
            args.append(GM("tiling", np.frombuffer(tiling_program_bytes(folder, *tiling_program), np.uint8)))
        return args, {"c": c.astype(np.float32)}
    return make


def kl_pre_layer_norm(case: int | None):
    """PreLayerNorm KernelLaunch: main.cpp's case1 [4980, 4, 2048] (eps 1e-5), 48 blocks, caseNum 1 passed where the
    kernel takes it (the 8.0.RC3 one; `case` None: the 2024 kernel, whose shape is its constants); gen_data.py's randn x,
    y, gamma, beta; LayerNorm of x + y over the last axis"""
    def make(rng):
        ins, _, outs = pre_layer_norm(rng, (4980, 4, 2048), 1e-5)
        args = [GM("x", ins["x"]), GM("y", ins["y"]), GM("gamma", ins["gamma"]), GM("beta", ins["beta"]),
                GM("z", np.zeros_like(ins["x"]), "out")]
        return args + ([Scalar(case, "uint32_t")] if case else []), {"z": outs["res_out"].astype(np.float32)}
    return make


KI = "cplusplus/level1_single_api/4_op_dev/6_ascendc_custom_op/kernel_invocation/"
KLS = "operator/{}Sample/KernelLaunch/{}"
# name: (repo, path, kernel, block_dim, make(rng) -> (args, golden), the sample's rule (None: none in its folder))
KERNEL_LAUNCH = {
    "Add kernel_invocation" + M24: (MARCH, KI + "Add/add_custom.cpp", "add_custom", 8, kl_add(-100, 100), None),
    "Add kernel_invocation" + R3: (RC3, KI + "Add/add_custom.cpp", "add_custom", 8, kl_add(-100, 100), None),
    "Add_tile kernel_invocation" + M24: (MARCH, KI + "Add_tile/add_custom.cpp", "add_custom", 8, kl_add_tile, None),
    "Add_tile kernel_invocation" + R3: (RC3, KI + "Add_tile/add_custom.cpp", "add_custom", 8, kl_add_tile, None),
    "LeakyReLU kernel_invocation" + M24: (MARCH, KI + "LeakyReLU/leakyrelu_custom.cpp", "leakyrelu_custom", 8,
                                          kl_leakyrelu_tile, None),
    "LeakyReLU kernel_invocation" + R3: (RC3, KI + "LeakyReLU/leakyrelu_custom.cpp", "leakyrelu_custom", 8,
                                         kl_leakyrelu_tile, None),
    "AddKernelInvocation" + M24: (MARCH, KLS.format("AddCustom", "AddKernelInvocation/add_custom.cpp"), "add_custom", 8,
                                  kl_add(1, 100), samples_loss(1e-3)),
    "AddKernelInvocationNeo" + R3: (RC3, KLS.format("AddCustom", "AddKernelInvocationNeo/add_custom.cpp"), "add_custom",
                                    8, kl_add(1, 100), samples_isclose(1e-3, 1e-5, 1e-3)),
    "AddKernelInvocationTilingNeo" + M24: (MARCH, KLS.format("AddCustom", "AddKernelInvocationTilingNeo/add_custom.cpp"),
                                           "add_custom", 8, kl_add_tiling_value(True), samples_loss(1e-3)),
    "AddKernelInvocationTilingNeo" + R3: (RC3, KLS.format("AddCustom", "AddKernelInvocationTilingNeo/add_custom.cpp"),
                                          "add_custom", 8, kl_add_tiling_value(False), samples_isclose(1e-3, 1e-5, 1e-3)),
    "AddcdivKernelInvocation" + M24: (MARCH, KLS.format("AddcdivCustom", "AddcdivKernelInvocation/addcdiv_custom.cpp"),
                                      "addcdiv_custom", 8, kl_addcdiv, samples_loss(1e-3)),
    "AddcdivKernelInvocation" + R3: (RC3, "operator_contrib/AddcdivCustomSample/KernelLaunch/AddcdivKernelInvocation/"
                                     "addcdiv_custom.cpp", "addcdiv_custom", 8, kl_addcdiv, samples_loss(1e-3)),
    "LeakyReluKernelInvocation" + M24: (MARCH, KLS.format("LeakyReluCustom", "LeakyReluKernelInvocation/leakyrelu.cpp"),
                                        "leaky_relu_custom", 8, kl_leaky_relu, samples_loss(1e-4)),
    "HelloWorld" + M24: (MARCH, "operator/HelloWorldSample/hello_world.cpp", "hello_world", 8, kl_hello, None),
    "HelloWorld" + R3: (RC3, "operator/HelloWorldSample/hello_world.cpp", "hello_world", 8, kl_hello, None),
    "CppExtensions add_custom" + M24: (MARCH, KLS.format("AddCustom", "CppExtensions/add_custom.cpp"), "add_custom", 8,
                                       kl_add_length, None),
    "CppExtensions add_custom" + R3: (RC3, KLS.format("AddCustom", "CppExtensions/add_custom.cpp"), "add_custom", 8,
                                      kl_add_length, None),
    "GreaterEqualKernelInvocation" + R3: (RC3, "operator_contrib/GreaterEqualSample/KernelLaunch/"
                                          "GreaterEqualKernelInvocation/greater_equal.cpp", "greater_equal", 1,
                                          kl_compare("greater_equal_tiling.h", "uint16_t", np.float16, 1024,
                                                     np.greater_equal), samples_equal),
    "LessEqualKernelInvocation" + R3: (RC3, "operator_contrib/LessEqualSample/KernelLaunch/LessEqualKernelInvocation/"
                                       "less_equal.cpp", "less_equal", 1,
                                       kl_compare("less_equal_tiling.h", "int8_t", np.int8, 16, np.less_equal),
                                       samples_equal),
    "MoeSoftMaxTopk KernelLaunch case1" + M24: (MARCH, KLS.format("MoeSoftMaxTopkCustom", "moe_soft_max_topk.cpp"),
                                                "moe_soft_max_topk", 48, kl_moe(1024, 16, 4), samples_loss(1e-4)),
    "MoeSoftMaxTopk KernelLaunch case2" + M24: (MARCH, KLS.format("MoeSoftMaxTopkCustom", "moe_soft_max_topk.cpp"),
                                                "moe_soft_max_topk", 48, kl_moe(2048, 32, 6), samples_loss(1e-4)),
    "MoeSoftMaxTopk KernelLaunch case1" + R3: (RC3, "operator_contrib/MoeSoftMaxTopkCustomSample/KernelLaunch/"
                                               "MoeSoftMaxTopkKernelInvocation/moe_soft_max_topk.cpp", "moe_soft_max_topk",
                                               48, kl_moe(1024, 16, 4), samples_loss(1e-4)),
    "MoeSoftMaxTopk KernelLaunch case2" + R3: (RC3, "operator_contrib/MoeSoftMaxTopkCustomSample/KernelLaunch/"
                                               "MoeSoftMaxTopkKernelInvocation/moe_soft_max_topk.cpp", "moe_soft_max_topk",
                                               48, kl_moe(2048, 32, 6), samples_loss(1e-4)),
    "ScatterSubKernelInvocation" + R3: (RC3, "operator_contrib/ScatterSubSample/KernelLaunch/ScatterSubKernelInvocation/"
                                        "scatter_sub.cpp", "scatter_sub", 1, kl_scatter_sub, samples_loss(1e-3)),
    "AddN KernelLaunch" + R3: (RC3, "operator/AddNCustomSample/KernelLaunch/addn_custom.cpp", "addn_custom", 8, kl_addn,
                               samples_isclose(1e-3, 1e-5, 1e-3)),
    "LayerNorm KernelLaunch" + M24: (MARCH, KLS.format("LayerNormCustom", "layer_norm_custom.cpp"), "layer_norm_custom",
                                     48, kl_layer_norm(16384, 1024), samples_loss(1e-4)),
    "LayerNormKernelInvocation" + R3: (RC3, "operator_contrib/LayerNormCustomSample/KernelLaunch/"
                                       "LayerNormKernelInvocation/layer_norm_custom.cpp", "layer_norm_custom", 48,
                                       kl_layer_norm(16384, 1024), samples_loss(1e-4)),
    "MatMul kernel_invocation" + R3: (RC3, KI + "MatMul/matmul_custom.cpp", "matmul_custom", 1,
                                      kl_matmul(32, 32, 32, tiling_cpp=None), None),
    "MatMulInvocation" + M24: (MARCH, KLS.format("MatMulCustom", "MatMulInvocation/matmul_custom.cpp"), "matmul_custom", 1,
                               kl_matmul(512, 512, 1024, tiling_cpp=None,
                                         tiling_program=("custom_tiling/main.cpp", 48 * 4)), None),
    "MatMulInvocationNeo" + M24: (MARCH, KLS.format("MatMulCustom", "MatMulInvocationNeo/matmul_custom.cpp"),
                                  "matmul_custom", 1,
                                  kl_matmul(512, 512, 1024, tiling_cpp="matmul_custom_tiling.cpp"), samples_loss(1e-3)),
    "MatmulInvocationNeo" + R3: (RC3, KLS.format("MatmulCustom", "MatmulInvocationNeo/matmul_custom.cpp"),
                                 "matmul_custom", 1,
                                 kl_matmul(512, 512, 1024, tiling_cpp="matmul_custom_tiling.cpp",
                                           call='GenerateTiling("Ascend910B1")'), samples_isclose(1e-6, 1e-9, 1e-4)),
    "MatMulLeakyRelu CppExtensions" + M24: (MARCH, KLS.format("MatMulLeakyReluCustom", "CppExtensions/"
                                            "matmul_leakyrelu_custom.cpp"), "matmul_leakyrelu_custom", 1,
                                            kl_matmul(1024, 256, 640, tiling_cpp="matmul_leakyrelu_custom_tiling.cpp",
                                                      bias=True, alpha=0.001, dist="randn"), None),
    "MatmulLeakyRelu CppExtensions" + R3: (RC3, KLS.format("MatmulLeakyReluCustom", "CppExtensions/"
                                           "matmul_leakyrelu_custom.cpp"), "matmul_leakyrelu_custom", 1,
                                           kl_matmul(1024, 256, 640, tiling_cpp="matmul_leakyrelu_custom_tiling.cpp",
                                                     bias=True, alpha=0.001, dist="rand"), None),
    "MatmulLeakyReluInvocation" + R3: (RC3, KLS.format("MatmulLeakyReluCustom", "MatmulLeakyReluInvocation/"
                                       "matmul_leakyrelu_custom.cpp"), "matmul_leakyrelu_custom", 1,
                                       kl_matmul(1024, 256, 640, tiling_cpp="matmul_leakyrelu_custom_tiling.cpp",
                                                 call='GenerateTiling("Ascend910B1")', bias=True, alpha=0.001),
                                       samples_isclose(1e-6, 1e-9, 1e-4)),
    "MatmulLeakyReluInvocationAsync" + R3: (RC3, KLS.format("MatmulLeakyReluCustom", "MatmulLeakyReluInvocationAsync/"
                                            "matmul_leakyrelu_custom.cpp"), "matmul_leakyrelu_custom", 1,
                                            kl_matmul(1024, 256, 640, tiling_cpp="matmul_leakyrelu_custom_tiling.cpp",
                                                      call='GenerateTiling("Ascend910B1")', bias=True, alpha=0.001),
                                            samples_isclose(1e-6, 1e-9, 1e-4)),
    "PreLayerNorm KernelLaunch case1" + M24: (MARCH, KLS.format("PreLayerNorm", "PreLayerNormInvocation/"
                                              "pre_layer_norm_custom.cpp"), "pre_layer_norm_custom", 48,
                                              kl_pre_layer_norm(None), samples_loss(1e-4)),
    "PreLayerNorm KernelLaunch case1" + R3: (RC3, "operator_contrib/PreLayerNormCustomSample/KernelLaunch/"
                                             "PreLayerNormKernelInvocation/pre_layer_norm_custom.cpp",
                                             "pre_layer_norm_custom", 48, kl_pre_layer_norm(1), samples_loss(1e-4)),
}
OPS.update(KERNEL_LAUNCH)


# The seven 8.0.RC3 op projects that built without a run in the forty-third round, each on its own AclNNInvocation
# script's case (gen_data.py, or the values main.cpp fills in where the sample has no script) against a NumPy
# restatement of its golden, checked by its own verify_result.py's rule (or main.cpp's comparison) restated:
# make(rng) -> (inputs, attrs, golden outputs, the outputs to allocate, inputs written in place), rule.

def scatter_max(rng):
    "gen_data.py: half var [256] in [-10, 10), int32 indices [5] in [0, 200), half updates [5]; tf.scatter_max, in place"
    var = rng.uniform(-10, 10, [256]).astype(np.float16)
    idx = rng.uniform(0, 200, [5]).astype(np.int32)
    upd = rng.uniform(-10, 10, [5]).astype(np.float16)
    want = var.copy()
    for i, j in enumerate(idx):
        want[j] = max(want[j], upd[i])
    return {"var": var, "indices": idx, "updates": upd}, {}, {"var": want}, {}, ("var",)


def scatter_sub_project(rng):
    args, golden = kl_scatter_sub(rng)
    return ({"var": args[0].array, "indices": args[1].array, "updates": args[2].array}, {}, golden, {}, ("var",))


def cross_int8(rng):
    """gen_data.py: int8 x1 [4, 3, 6, 5, 7, 8, 3], x2 [1, 3, 1, 1, 1, 1, 1] (its uniform(-1e9, 1e9) cast to int8: any
    int8; drawn so here), torch.cross with no dim: the first axis of size 3 (axis 1), x2 broadcast; int8 wraps"""
    x1 = rng.integers(-128, 128, [4, 3, 6, 5, 7, 8, 3]).astype(np.int8)
    x2 = rng.integers(-128, 128, [1, 3, 1, 1, 1, 1, 1]).astype(np.int8)
    a, b = x1.astype(np.int64), np.broadcast_to(x2, x1.shape).astype(np.int64)
    y = np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1], a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                  a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)
    y = ((y + 128) % 256 - 128).astype(np.int8)
    return {"x1": x1, "x2": x2}, {}, {"y": y}, {"y": (y.shape, "int8")}, ()


def spence_half(rng):
    "gen_data.py: half x [4095] in [0, 10); tf.math.special.spence in float32 (Cephes'; scipy's is the same), to half"
    from scipy.special import spence
    x = rng.uniform(0.0, 10.0, [4095]).astype(np.float16)
    y = spence(x.astype(np.float32)).astype(np.float32).astype(np.float16)
    return {"x": x}, {}, {"y": y}, {"y": (y.shape, "float16")}, ()


def addn_project(rng):
    "gen_data.py: two half [8, 2048] in [1, 100) as the dynamic input srcList; their sum in half"
    x, y = (rng.uniform(1, 100, [8, 2048]).astype(np.float16) for _ in range(2))
    return {"srcList": [x, y]}, {}, {"dst": (x + y).astype(np.float16)}, {"dst": ((8, 2048), "float16")}, ()


def broadcast_project(rng):
    "AclNNInvocationNaive/main.cpp: x [16, 1] = 0..15 half, axis 1, num 3, dim 16, bufferMode 1; y [16, 3], y[i] = i // 3"
    x = np.arange(16, dtype=np.float16).reshape(16, 1)
    attrs = {"bufferMode": 1, "dim": 16, "isReuseSource": 0, "axis": 1, "num": 3}
    return {"x": x}, attrs, {"y": np.repeat(x, 3, axis=1)}, {"y": ((16, 3), "float16")}, ()


def reduce_project(rng):
    "AclNNInvocationNaive/main.cpp: x = 4096 ones in half, z [32]; z[0] is the sum, 4096 (main.cpp compares z[0] alone)"
    x = np.ones(4096, np.float16)
    return {"x": x}, {}, {"z": np.array([4096.0], np.float16)}, {"z": ((32,), "float16")}, ()


CONTRIB = "operator_contrib/{0}Sample/FrameworkLaunch/{0}"
RC3_MORE = {
    "ScatterMax" + R3: (RC3, CONTRIB.format("ScatterMax"), "half var [256], 5 updates", scatter_max, samples_loss(1e-3)),
    "ScatterSub" + R3: (RC3, CONTRIB.format("ScatterSub"), "int8 var [3, 4, 24, 24], 3 indices", scatter_sub_project,
                        samples_loss(1e-3)),
    "Cross" + R3: (RC3, CONTRIB.format("Cross"), "int8 [4, 3, 6, 5, 7, 8, 3] x [1, 3, 1, 1, 1, 1, 1]", cross_int8,
                   samples_loss(1e-3)),
    "Spence" + R3: (RC3, CONTRIB.format("Spence"), "half [4095] in [0, 10)", spence_half, samples_loss(1e-3)),
    "AddNCustom" + R3: (RC3, "operator/AddNCustomSample/FrameworkLaunch/AddNCustom", "half 2 x [8, 2048]", addn_project,
                        samples_isclose(1e-3, 1e-5, 1e-3)),
    "BroadcastCustom" + R3: (RC3, "operator/BroadcastCustomSample/FrameworkLaunch/BroadcastCustom",
                             "half [16, 1] -> [16, 3]", broadcast_project, samples_equal_values),
    "ReduceCustom" + R3: (RC3, "operator/ReduceSample/FrameworkLaunch/ReduceCustom", "half [4096] ones",
                          reduce_project, samples_equal_values),
}
OPS.update(RC3_MORE)


def run_rc3_more(g_, name: str):
    repo, path, label, make, rule = RC3_MORE[name]
    try:
        proj, settings = project(repo, path, *g_)
    except Exception as e:  # noqa: BLE001 - the line says why
        yield f"{name}: ERROR the project does not build: {str(e)[:300]}"
        return
    inputs, attrs, golden, outputs, written = make(np.random.default_rng(4410))
    r, failed = run_or_error(f"{name} {label}", proj, inputs, attrs=attrs, outputs=outputs, settings=settings,
                             written_inputs=written)
    if failed:
        yield failed
        return
    parts, ok = [], True
    for k, want in golden.items():
        got = r.outputs.get(k) if k in r.outputs else r.run.outputs[k]
        got = got.reshape(-1)[:want.size].reshape(want.shape)    # Reduce: z[0] alone, as its main.cpp compares
        theirs, ttext = rule(got, want)
        _, text = ours(got, want)
        ok &= theirs
        parts.append(f"{k}: the sample's rule {'passes' if theirs else 'FAILS'} ({ttext}); ours: {text}")
    yield (f"{name} {label}: key {r.tiling_key}, block_dim {r.block_dim}: {'match' if ok else 'MISMATCH'}; "
           + "; ".join(parts))


def kernel_file(repo: str, path: str, kernel: str, gitdirs: dict, keep):
    "A kernel-file entry materialised as the corpus does it and built alone for `kernel`: the build and the folder."
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == repo and e["path"] == path)
    gitdir = gitdirs.get(repo) or str(MIRRORS / repo.replace("/", "+") / "repo")
    dest = (keep / path.replace("/", "_")) if keep else Path(tempfile.mkdtemp(prefix="newsrc_kl_"))
    folder = corpus.materialise(entry, gitdir, dest)
    return build(read_sources(folder), kernel), folder


def run_kernel_launch(g_, name: str):
    repo, path, kernel, block_dim, make, rule = KERNEL_LAUNCH[name]
    b, folder = kernel_file(repo, path, kernel, *g_)
    if not b.ok:
        yield f"{name}: ERROR the kernel does not build: {' | '.join(d.render() for d in b.errors)[:400]}"
        return
    rng = np.random.default_rng(4400)
    # make(rng) or make(rng, folder) (a host tiling compiled from the sample's header); (args, golden[, gm_extra])
    here = folder / Path(path).parent
    if make.__code__.co_argcount == 2:   # its host tiling source beside it too (not part of the kernel's materialising)
        entry = next(e for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == repo and e["path"] == path)
        gitdir = g_[0].get(repo) or str(MIRRORS / repo.replace("/", "+") / "repo")
        names = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", entry["commit"],
                                f"{Path(path).parent}/"], check=True, capture_output=True, text=True).stdout.split()
        for f in names:
            if (f.endswith("_tiling.cpp") or "/custom_tiling/" in f) and not (folder / f).exists():
                (folder / f).parent.mkdir(parents=True, exist_ok=True)
                (folder / f).write_bytes(corpus.show(gitdir, entry["commit"], f))
    try:
        made = make(rng, here) if make.__code__.co_argcount == 2 else make(rng)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        yield f"{name}: ERROR its host tiling: {str(e)[:300]}"
        return
    args, golden, extra = (*made, None) if len(made) == 2 else made
    # as run_project runs an op project's kernel (a raw __gm__ store and an operand past its UB buffer inside the UB
    # are CANN's and reported as warnings; the output is compared either way)
    r = run(b, args, block_dim=block_dim, gm_extra=extra, rules=RunRules(raw_gm_writes="warning", ub_overrun="warning"))
    if not r.ok:
        yield f"{name}: ERROR {' | '.join(d.render() for d in r.diagnostics if d.is_error)[:600]}"
        return
    warned = sorted({d.kind for d in r.diagnostics if d.severity == "warning"})
    if not golden:   # HelloWorld: the kernel's printf lines, one per block
        lines = [l for l in r.stdout.split("\n") if l.strip()]
        yield f"{name}: ran, {len(lines)} printed line(s): {lines[:1]} (no output to compare: match by its printout)"
        return
    parts, ok = [], True
    for k, want in golden.items():
        mine, text = ours(r.outputs[k], want)
        if rule is not None:
            theirs, ttext = rule(r.outputs[k], want)
            ok &= theirs
            parts.append(f"{k}: the sample's rule {'passes' if theirs else 'FAILS'} ({ttext}); ours: {text}")
        else:
            ok &= mine
            parts.append(f"{k}: no rule in the sample's folder; ours {'passes' if mine else 'FAILS'}: {text}")
    yield (f"{name} (block_dim {block_dim}): {'match' if ok else 'MISMATCH'}; " + "; ".join(parts)
           + (f" (warnings: {', '.join(warned)})" if warned else ""))


def run_op(g_, name: str):
    if name in RC3_MORE:
        yield from run_rc3_more(g_, name)
        return
    if name in KERNEL_LAUNCH:
        yield from run_kernel_launch(g_, name)
        return
    if name in SAMPLES:
        yield from run_sample(g_, name)
        return
    # the caller allocates the outputs with the reference's shapes, a bool reference as bool
    yield from run_cases(g_, name, OPS, seed=4200, out_dtype={}, check=close)


if __name__ == "__main__":
    raise SystemExit(run_ops_main(__doc__, list(OPS), run_op))
