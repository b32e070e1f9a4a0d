"""hicann ops-nn / ops-math MAIN-TREE operators (not experimental/) run on the emulator against PyTorch: each op project
materialised and linked at the corpus's pinned commit as `corpus.py run` builds it (hicann_by_hand.project), its own
TilingFunc and kernel run by opproject.run_project on small cases of the shapes its document allows (irregular ones
included), with the attributes named as its OpDef names them, for every float dtype column of its definition. The
reference is written from the op's own document (docs/aclnn*.md or README.md: formula, attributes, shapes), in
float64 on the same rounded inputs, and the check is the precision rule of hicann_elementwise.py (CANN's:
|got - want| <= rtol * max(1, |want|), rtol 1/512 half, 1/256 bfloat16, 1/2048 float; exact for bool / integer outputs).

    python examples/corpus/hicann_ops_by_hand.py [--only NAME ...] [--keep DIR] [--git OWNER/NAME=DIR]

Prints one line per case: the tiling key and block dim the op's TilingFunc chose, the worst error in units of the
allowed one, and the verdict (match / MISMATCH / ERROR with the emulator's first diagnostic / PROJECT DOES NOT BUILD).
"""
import math
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from hicann_by_hand import project, run_ops_main  # noqa: E402

from ascendcraft.opproject import run_project  # noqa: E402

MATH, NN = "hicann/ops-math", "hicann/ops-nn"
RTOL = {torch.float16: 1 / 512, torch.bfloat16: 1 / 256, torch.float32: 1 / 2048}
TORCH = {"DT_FLOAT": torch.float32, "DT_FLOAT16": torch.float16, "DT_BF16": torch.bfloat16}
F64 = torch.float64
INT8_ULPS = 1   # a quantised (int8) output may differ by one step from the float64 reference's rounding


def U(rng, shape, dt, lo=-3.0, hi=3.0):
    return torch.from_numpy(rng.uniform(lo, hi, shape)).to(dt)


def halves(x, dim=-1):
    return x.chunk(2, dim=dim)


def gelu(x, approximate):
    return torch.nn.functional.gelu(x, approximate=approximate)


# Each op: (repo, path, cases). cases(rng, dt) yields (label, inputs {name: tensor or list}, attrs, want {name: (float64
# or exact tensor, output torch dtype)}). Inputs in the op's dtype dt; the reference sees them as float64.
def squared_relu(rng, dt):
    for shape in ((3, 37, 129), (4103,)):
        x = U(rng, shape, dt)
        yield shape, {"input": x}, {}, {"output": (torch.relu(x.double()) ** 2, dt)}


def heaviside(rng, dt):
    for shape, vshape in (((3, 37, 129), (3, 37, 129)), ((4103,), (4103,)), ((5, 67, 33), (1,))):   # values: one element or input's shape (TilingFunc)
        x = U(rng, shape, dt)
        x[torch.from_numpy(rng.random(shape) < 0.2)] = 0      # the input = 0 case takes the value
        v = U(rng, vshape, dt)
        yield (shape, vshape), {"input": x, "values": v}, {}, {"output": (torch.heaviside(x.double(), v.double()), dt)}


def gelu_mul(rng, dt):
    # the document: at least 2-D, the last dim even and at most 1024, the other dims' product at most 200000
    for shape, approx in (((3, 37, 258), "none"), ((4103, 14), "tanh"), ((5, 2 * 67), "tanh"), ((7, 1024), "none")):
        x = U(rng, shape, dt)
        a, b = halves(x.double())
        yield (shape, approx), {"input": x}, {"approximate": approx}, {"output": (gelu(a, approx) * b, dt)}


def swi_glu(rng, dt):
    for shape, dim in (((3, 37, 258), -1), ((4103 * 2,), -1), ((6, 10, 129), 1), ((4, 2 * 9, 7), -2)):
        x = U(rng, shape, dt)
        a, b = halves(x.double(), dim)
        yield (shape, dim), {"x": x}, {"dim": dim}, {"y": (torch.nn.functional.silu(a) * b, dt)}


def fatrelu_mul(rng, dt):
    # the document: the last dim even and at most 1024, the other dims' product at most 200000; one threshold element
    for shape, th in (((3, 37, 258), 0.01), ((4103, 2), 0.5), ((9, 1022), -0.3)):
        x = U(rng, shape, dt)
        t = torch.tensor([th]).to(dt)
        a, b = halves(x.double())
        # x1 kept where x1 > threshold: the op's own system test's reference is torch.threshold(x1, threshold, 0)
        # (tests/st/aclnnFatreluMul/executor_aclnnFatreluMul.py), as the kernel's CMPMODE::GT; the documents' formula
        # writes x >= threshold, which differs only at x1 == threshold
        a = torch.threshold(a, float(t.double()), 0.0)
        yield (shape, th), {"input": x, "threshold": t}, {}, {"output": (a * b, dt)}


def ge_glu_v2(rng, dt):
    for shape, dim, approx, left in (((3, 37, 258), -1, 1, False), ((4103 * 2,), -1, 0, True),
                                     ((5, 2 * 67), -1, 0, False), ((6, 10, 129), 1, 1, True)):
        x = U(rng, shape, dt)
        a, b = halves(x.double(), dim)
        act = gelu(a if left else b, "tanh" if approx else "none")
        y = act * (b if left else a)
        yield (shape, dim, approx, left), {"x": x}, {"dim": dim, "approximate": approx, "activate_left": left}, \
            {"y": (y, dt), "gelu": (act, dt)}


def glu(rng, dt):
    for shape, dim in (((3, 37, 258), -1), ((4103 * 2,), -1), ((6, 10, 129), 1), ((8, 3, 5), 0)):
        x = U(rng, shape, dt)
        a, b = halves(x.double(), dim)
        yield (shape, dim), {"x": x}, {"dim": dim}, {"y": (a * torch.sigmoid(b), dt)}


def mse_loss_v2(rng, dt):
    for shape, red in (((3, 37, 129), "none"), ((4103,), "mean"), ((5, 67, 33), "sum"), ((2, 3000), "mean")):
        x, t = U(rng, shape, dt), U(rng, shape, dt)
        want = torch.nn.functional.mse_loss(x.double(), t.double(), reduction=red)
        yield (shape, red), {"input": x, "target": t}, {"reduction": red}, {"output": (want, dt)}


def logit(rng, dt):
    for shape, eps in (((3, 37, 129), -1.0), ((4103,), 0.1), ((5, 67, 33), 0.02)):
        lo = 0.02 if eps < 0 else -0.5
        x = U(rng, shape, dt, lo, 1 - lo)
        z = x.double() if eps < 0 else x.double().clamp(eps, 1 - eps)
        yield (shape, eps), {"input": x}, {"eps": eps}, {"output": (torch.log(z / (1 - z)), dt)}


def cross_v2(rng, dt):
    for shape, dim in (((4, 3, 37), 1), ((37, 5, 3), -1), ((3, 129), 0), ((2, 3, 3, 7), 2)):
        a, b = U(rng, shape, dt), U(rng, shape, dt)
        yield (shape, dim), {"x1": a, "x2": b}, {"dim": dim}, {"y": (torch.linalg.cross(a.double(), b.double(), dim=dim), dt)}


def _specials(rng, shape, dt):
    x = U(rng, shape, dt, -1e3, 1e3)
    r = torch.from_numpy(rng.random(shape))
    x[r < 0.1] = math.inf
    x[(r >= 0.1) & (r < 0.2)] = -math.inf
    x[(r >= 0.2) & (r < 0.3)] = math.nan
    return x


def is_finite(rng, dt):
    for shape in ((3, 37, 129), (4103,)):
        x = _specials(rng, shape, dt)
        yield shape, {"x": x}, {}, {"y": (torch.isfinite(x), torch.bool)}


def is_inf(rng, dt):
    for shape in ((3, 37, 129), (4103,)):
        x = _specials(rng, shape, dt)
        yield shape, {"x": x}, {}, {"y": (torch.isinf(x), torch.bool)}


def pows(rng, dt):
    # the document: exponent an aclScalar (one element); the kernel computes the six exponents aclnnPow sends it
    # (math/pow/op_api/aclnn_pow.cpp CheckSupportPows: 0.5, 2, 3, -0.5, -1, -2), other exponents go to Pow
    for shape, ex in (((3, 37, 129), 0.5), ((4103,), 2.0), ((5, 67, 33), 3.0), ((3, 37, 129), -0.5), ((4103,), -1.0),
                      ((5, 67, 33), -2.0)):
        x, e = U(rng, shape, dt, 0.1, 3.0), torch.tensor([ex]).to(dt)
        yield (shape, ex), {"x1": x, "x2": e}, {}, {"y": (torch.pow(x.double(), e.double()), dt)}


def bessel_i1e(rng, dt):
    for shape in ((3, 37, 129), (4103,)):
        x = U(rng, shape, dt, -20.0, 20.0)
        yield shape, {"x": x}, {}, {"y": (torch.special.i1e(x.double()), dt)}


def mul_addn(rng, dt):
    # the document: x1 N tensors [B, M, 1], x2 N tensors [B, 1, K], K <= 2040, N >= 2
    for b, m, k, n in ((2, 37, 129, 3), (1, 5, 2040, 2), (3, 16, 64, 4), (2, 64, 48, 2)):
        x1 = [U(rng, (b, m, 1), dt) for _ in range(n)]
        x2 = [U(rng, (b, 1, k), dt) for _ in range(n)]
        y = sum(p.double() * q.double() for p, q in zip(x1, x2))
        yield (b, m, k, n), {"x1": x1, "x2": x2}, {"N": n}, {"y": (y, dt)}


def non_finite_check(rng, dt):
    for shapes, bad in ((((3, 37, 129), (4103,)), False), (((3, 37, 129), (4103,), (7, 9)), True), (((100,),), True)):
        xs = [U(rng, s, dt) for s in shapes]
        if bad: xs[-1].view(-1)[len(xs[-1].view(-1)) // 2] = math.inf
        yield (shapes, bad), {"tensor_list": xs}, {}, {"found_flag": (torch.tensor([1.0 if bad else 0.0], dtype=F64), torch.float32)}


def segsum(rng, dt):
    for shape in ((2, 3, 5, 37), (1, 2, 3, 4, 16), (2, 2, 2, 129)):
        x = U(rng, shape, dt, -1.0, 0.2)
        n = shape[-1]
        X = x.double().unsqueeze(-1).expand(*shape, n).clone()           # [..., i, j] = x[..., i]
        keep = torch.tril(torch.ones(n, n, dtype=torch.bool), -1)        # below the diagonal: kept
        X = torch.where(keep, X, torch.zeros_like(X)).cumsum(-2)
        X = X.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), -math.inf)
        yield shape, {"x": x}, {}, {"y": (torch.exp(X), dt)}


def diag_v2(rng, dt):
    for shape, d in (((37, 129), 0), ((129, 37), 5), ((64, 64), -3), ((17, 300), 200)):
        x = U(rng, shape, dt)
        yield (shape, d), {"x": x}, {"diagonal": d}, {"y": (torch.diagonal(x.double(), d).clone(), dt)}


def diag_flat(rng, dt):
    for shape, d in (((37,), 0), ((5, 7), 2), ((129,), -3)):
        x = U(rng, shape, dt)
        yield (shape, d), {"x": x}, {"diagonal": d}, {"y": (torch.diagflat(x.double(), d), dt)}


def transpose_v2(rng, dt):
    # the document allows any perm; the kernel's TilingFunc takes (0, 2, 1), (1, 0, 2) and (0, 2, 1, 3) only (the
    # others it refuses: "Unsupported perm", aclnnPermute sends them to Transpose), (0, 2, 1) with the two last dims
    # (aligned) at most 128 ("Unsupported shape")
    for shape, perm in (((3, 37, 65), (0, 2, 1)), ((37, 5, 129), (1, 0, 2)), ((2, 9, 33, 17), (0, 2, 1, 3)),
                        ((64, 16, 8), (1, 0, 2)), ((2, 100, 7), (0, 2, 1))):
        x = U(rng, shape, dt)
        yield (shape, perm), {"x": x, "perm": torch.tensor(perm, dtype=torch.int32)}, {}, \
            {"y": (x.double().permute(*perm).contiguous(), dt)}


def fill_diagonal_v2(rng, dt):
    for shape, wrap in (((37, 37), False), ((129, 37), True), ((129, 37), False), ((5, 5, 5), False)):
        x = U(rng, shape, dt)
        v = U(rng, (1,), dt)
        y = x.double().clone()
        y.fill_diagonal_(float(v.double()), wrap=wrap)
        yield (shape, wrap), {"x": x, "fill_value": v}, {"wrap": wrap}, {"x": (y, dt)}


def circular_pad(rng, dt):
    # the document: CircularPad2d pads the last two dims of a 3-4-D x (padding: left, right, top, bottom), 3d the last
    # three of a 4-5-D one (+ front, back), each padding below its dim's size; the op's `paddings` input is what
    # aclnnCircularPad2d/3d hands it (op_api/circular_pad_common.h GetPaddingTensor): a (before, after) pair per dim of
    # x, first dim first, zero for the dims not padded
    for shape, pad in (((3, 37, 129), (2, 3, 4, 5)), ((2, 3, 17, 19), (1, 2, 3, 4)), ((3, 5, 7, 9), (2, 2, 1, 1, 1, 1)),
                       ((2, 3, 5, 7, 40), (1, 2, 2, 1, 1, 3)), ((4, 9, 40), (0, 39, 8, 0))):
        x = U(rng, shape, dt)
        y = torch.nn.functional.pad(x.double(), pad, mode="circular")
        n = len(shape)
        pairs = [pad[2 * (n - 1 - k):2 * (n - 1 - k) + 2] if 2 * (n - 1 - k) < len(pad) else (0, 0) for k in range(n)]
        paddings = torch.tensor([v for pr in pairs for v in pr], dtype=torch.int64)
        yield (shape, pad), {"x": x, "paddings": paddings}, {}, {"y": (y, dt)}


def concat_dv2(rng, dt):
    # the document: concat_dim 0 only; the others' shapes equal. aclnnCat launches ConcatDV2 only when every tensor's
    # last dim is a whole number of 32-byte blocks (ops-math conversion/concat_d/op_api/concat_d.cpp,
    # IsSupportConcatDV2; the kernel copies whole blocks), and for 33 to 2048 tensors: the last case is such a list
    # at irregular row counts
    many = tuple((1 + i % 7, 2, 16) for i in range(33))
    for shapes, dim in ((((16, 16), (32, 16)), 0), (((3, 5, 64), (7, 5, 64), (1, 5, 64)), 0), (many, 0)):
        xs = [U(rng, s, dt) for s in shapes]
        yield (shapes, dim), {"x": xs}, {"concat_dim": dim}, {"y": (torch.cat([t.double() for t in xs], dim), dt)}


def gather_elements_v2(rng, dt):
    # the op's dim is aclnnGather's dimFinal, made non-negative before the call (op_api/aclnn_gather.cpp CalGather):
    # its TilingFunc reads the attribute as uint64_t and loops up to it (a negative dim: for ~2^64 steps)
    for shape, ishape, dim in (((37, 129), (37, 60), 1), ((5, 7, 33), (3, 7, 33), 0), ((4, 9, 17), (4, 5, 16), -2)):
        x = U(rng, shape, dt)
        d = dim % len(shape)
        idx = torch.from_numpy(rng.integers(0, shape[d], ishape)).to(torch.int32)
        yield (shape, ishape, dim), {"x": x, "index": idx}, {"dim": d}, {"y": (torch.gather(x.double(), dim, idx.long()), dt)}


def index_fill(rng, dt):
    for shape, ind, dim in (((3, 37, 129), (0, 2), 0), ((37, 129), (5, 0, 128, 77), 1), ((4, 9, 17), (8, 3), -2)):
        x = U(rng, shape, dt)
        v = U(rng, (1,), dt)
        i = torch.tensor(ind, dtype=torch.int32)
        y = x.double().index_fill(dim, i.long(), float(v.double()))
        yield (shape, ind, dim), {"x": x, "indices": i, "value": v}, {"dim": dim}, {"y": (y, dt)}


def scatter_elements_v2(rng, dt):
    for shape, ushape, axis, red in (((37, 129), (37, 60), 1, "none"), ((16, 33), (5, 33), 0, "add"),
                                     ((4, 9, 17), (4, 9, 17), -1, "mul"), ((8, 300), (8, 1), 1, "none")):
        var, upd = U(rng, shape, dt), U(rng, ushape, dt, 0.5, 1.5)
        a = axis % len(shape)
        if red == "none":   # distinct targets along the axis: the result does not depend on the write order
            perm = np.argsort(rng.random(tuple(ushape[:a]) + (shape[a],) + tuple(ushape[a + 1:])), axis=a)
            idx = np.take(perm, np.arange(ushape[a]), axis=a)
        else:
            idx = rng.integers(0, shape[a], ushape)
        idx = torch.from_numpy(np.ascontiguousarray(idx)).to(torch.int64)
        if red == "none": y = var.double().scatter(axis, idx, upd.double())
        else: y = var.double().scatter_reduce(axis, idx, upd.double(), {"add": "sum", "mul": "prod"}[red], include_self=True)
        yield (shape, ushape, axis, red), {"var": var, "indices": idx, "updates": upd}, {"axis": axis, "reduction": red}, \
            {"var": (y, dt)}


def smooth_l1_loss(rng, dt):
    for shape, sigma in (((3, 37, 129), 1.0), ((4103,), 0.5), ((5, 67, 33), 2.0)):
        p, l = U(rng, shape, dt), U(rng, shape, dt)
        z = p.double() - l.double()
        y = torch.where(z.abs() < sigma, 0.5 * z * z / sigma, z.abs() - 0.5 * sigma)
        yield (shape, sigma), {"predict": p, "label": l}, {"sigma": sigma}, {"loss": (y, dt)}


def angle_v2(rng, dt):
    for shape in ((3, 37, 129), (4103,)):
        x = U(rng, shape, dt)
        x[torch.from_numpy(rng.random(shape) < 0.1)] = 0
        yield shape, {"x": x}, {}, {"y": (torch.angle(x.double()), dt)}


def lin_space(rng, dt):
    for start, stop, num in ((-3.0, 5.0, 37), (2.5, -1.25, 4103), (0.0, 1.0, 1), (1.0, 100.0, 129)):
        a, b = torch.tensor([start]).to(dt), torch.tensor([stop]).to(dt)
        n = torch.tensor([num], dtype=torch.int32)
        yield (start, stop, num), {"start": a, "stop": b, "num": n}, {}, \
            {"output": (torch.linspace(float(a.double()), float(b.double()), num, dtype=F64), dt)}


def clipped_swiglu(rng, dt):
    # the document: x merged to [pre, cut] around dim, the first sum(group_index) rows kept, split interleaved (even /
    # odd) or front / back; A clamped above at limit, B to [-limit, limit]; y = A sigmoid(alpha A) (B + bias)
    for shape, dim, inter, alpha, limit, bias, groups in (((37, 258), -1, True, 1.702, 7.0, 1.0, None),
                                                          ((4, 9, 130), -1, False, 1.0, 3.0, 0.5, None),
                                                          ((16, 66), -1, True, 1.702, 7.0, 1.0, (5, 11)),
                                                          ((3, 10, 17), 1, False, 1.702, 2.0, 1.0, None)):
        x = U(rng, shape, dt, -10.0, 10.0)
        d = dim % len(shape)
        pre = int(np.prod(shape[:d]))
        m = x.double().reshape(pre, -1)
        A, B = (m[:, ::2], m[:, 1::2]) if inter else m.chunk(2, dim=1)
        A, B = A.clamp(max=limit), B.clamp(-limit, limit)
        y = A * torch.sigmoid(alpha * A) * (B + bias)
        oshape = list(shape); oshape[d] //= 2
        inputs = {"x": x}
        if groups is not None: inputs["group_index"] = torch.tensor(groups, dtype=torch.int64)
        attrs = {"dim": dim, "alpha": alpha, "limit": limit, "bias": bias, "interleaved": inter}
        yield (shape, dim, inter, groups), inputs, attrs, {"y": (y.reshape(oshape), dt)}


# ---- the thirty-first round's ops (norms, quantisation, loss gradients, foreach, softmax): each document's formula ----
def _rms(x, dims):
    return torch.rsqrt((x * x).mean(dim=dims, keepdim=True) + 1e-6)


def _norm_dims(x, gamma):
    return tuple(range(x.dim() - gamma.dim(), x.dim()))


def rms_norm(rng, dt):
    # y = x / Rms(x) * gamma, Rms over the dims of gamma (the last ones); rstd: x's shape with those dims 1. Columns:
    # (x, gamma) = (fp16, fp32), (bf16, fp32), (fp16, fp16), (fp32, fp32), (bf16, bf16)
    for shape, gshape, same in (((3, 37, 129), (129,), False), ((5, 8192), (8192,), False), ((64, 128), (128,), True),
                                ((2, 3, 4, 40), (4, 40), True), ((7, 20000), (20000,), False)):
        gdt = dt if same or dt == torch.float32 else torch.float32
        x, g = U(rng, shape, dt), U(rng, gshape, gdt, 0.5, 1.5)
        r = _rms(x.double(), _norm_dims(x, g))
        yield (shape, gshape, str(gdt)[6:]), {"x": x, "gamma": g}, {"epsilon": 1e-6}, \
            {"y": (x.double() * r * g.double(), dt), "rstd": (r, torch.float32)}


def _add_rms_y(xr, r, g, dt):
    """AddRmsNorm's y on A2 as the op's own golden computes it (ops-nn norm/add_rms_norm/tests/assets/golden.py,
    add_rms_golden_v1, taken for Ascend910B / Ascend910_93): x / Rms(x) rounded to the input dtype before the gamma
    product for bfloat16 and float16 (bfloat16: that product in float32, then rounded; float16: in half), unrounded
    for float32. add_rms_norm_cast's y1 is this y cast to float32 (the golden's `_post_action` 'cast')."""
    t = xr * r
    return (t if dt == torch.float32 else t.to(dt).double()) * g.double()


def add_rms_norm(rng, dt):
    # x = x1 + x2 (an output too); y = x / Rms(x) * gamma, the normalised x rounded as the op's golden rounds it
    for shape in ((3, 37, 129), (5, 8192), (64, 128), (2, 17000)):
        x1, x2, g = U(rng, shape, dt), U(rng, shape, dt), U(rng, shape[-1:], dt, 0.5, 1.5)
        x = x1.double() + x2.double()
        xr = x.to(dt).double()      # the sum as the kernel keeps it before the norm (the output x is that value)
        r = _rms(xr, (-1,))
        yield shape, {"x1": x1, "x2": x2, "gamma": g}, {"epsilon": 1e-6}, \
            {"y": (_add_rms_y(xr, r, g, dt), dt), "rstd": (r, torch.float32), "x": (x, dt)}


def inplace_add_rms_norm(rng, dt):
    # AddRmsNorm in place: x1 takes y, x2 takes x1 + x2
    for shape in ((3, 37, 129), (5, 8192), (64, 128)):
        x1, x2, g = U(rng, shape, dt), U(rng, shape, dt), U(rng, shape[-1:], dt, 0.5, 1.5)
        xr = (x1.double() + x2.double()).to(dt).double()
        r = _rms(xr, (-1,))
        yield shape, {"x1": x1, "x2": x2, "gamma": g}, {"epsilon": 1e-6}, \
            {"x1": (_add_rms_y(xr, r, g, dt), dt), "rstd": (r, torch.float32), "x2": (xr, dt)}


def add_rms_norm_cast(rng, dt):
    # AddRmsNorm whose y is given twice: y2 in the input dtype, y1 that y2 in float32
    for shape in ((3, 37, 129), (5, 8192), (64, 128)):
        x1, x2, g = U(rng, shape, dt), U(rng, shape, dt), U(rng, shape[-1:], dt, 0.5, 1.5)
        xr = (x1.double() + x2.double()).to(dt).double()
        r = _rms(xr, (-1,))
        y = _add_rms_y(xr, r, g, dt)
        # y1 is y2 cast to float32 (the op's golden: y_fp32 = y.type(torch.float32), y already in the input dtype)
        yield shape, {"x1": x1, "x2": x2, "gamma": g}, {"epsilon": 1e-6}, \
            {"y1": (y.to(dt).double(), torch.float32), "y2": (y, dt), "rstd": (r, torch.float32), "x": (xr, dt)}


def gemma_rms_norm(rng, dt):
    # y = x / Rms(x) * (1 + gamma)
    for shape in ((3, 37, 129), (5, 8192), (64, 128), (2, 17000)):
        x, g = U(rng, shape, dt), U(rng, shape[-1:], dt, -0.5, 0.5)
        r = _rms(x.double(), (-1,))
        yield shape, {"x": x, "gamma": g}, {"epsilon": 1e-6}, \
            {"y": (x.double() * r * (1 + g.double()), dt), "rstd": (r, torch.float32)}


def _layer_norm(x, dims, eps):
    mean = x.mean(dim=dims, keepdim=True)
    rstd = torch.rsqrt(((x - mean) ** 2).mean(dim=dims, keepdim=True) + eps)
    return (x - mean) * rstd, mean, rstd


def add_layer_norm(rng, dt):
    # x = x1 + x2 + bias; y = (x - E(x)) * rstd * gamma + beta; mean / rstd: x's shape with the last dim 1
    for shape, bias, extra in (((3, 37, 129), True, True), ((5, 8192), False, True), ((64, 128), True, False),
                               ((2, 17000), False, False)):
        x1, x2 = U(rng, shape, dt), U(rng, shape, dt)
        g, b = U(rng, shape[-1:], dt, 0.5, 1.5), U(rng, shape[-1:], dt)
        bb = U(rng, shape[-1:], dt) if bias else None
        x = x1.double() + x2.double() + (bb.double() if bias else 0)
        n, mean, rstd = _layer_norm(x, (-1,), 1e-5)
        # the output x is written only with additional_output (without it, given its buffer and not checked)
        want = {"y": (n * g.double() + b.double(), dt), "mean": (mean, torch.float32), "rstd": (rstd, torch.float32),
                "x": (x, dt) if extra else (x, dt, "unchecked")}
        yield (shape, bias, extra), {"x1": x1, "x2": x2, "gamma": g, "beta": b, "bias": bb}, \
            {"epsilon": 1e-5, "additional_output": extra}, want


def layer_norm_v4(rng, dt):
    # the normalised dims are the last len(normalized_shape) ones; gamma / beta of that shape (float32 columns: the
    # first column of each x dtype); mean / rstd: x's shape with those dims 1
    for shape, k in (((3, 37, 129), 1), ((5, 8192), 1), ((4, 6, 40), 2), ((2, 17000), 1), ((300, 64), 1)):
        x = U(rng, shape, dt)
        ns = shape[-k:]
        g, b = U(rng, ns, torch.float32, 0.5, 1.5), U(rng, ns, torch.float32)
        n, mean, rstd = _layer_norm(x.double(), tuple(range(-k, 0)), 1e-5)
        yield (shape, k), {"x": x, "normalized_shape": torch.tensor(ns, dtype=torch.int32), "gamma": g, "beta": b}, \
            {"epsilon": 1e-5}, {"y": (n * g.double() + b.double(), dt), "mean": (mean, torch.float32),
                                "rstd": (rstd, torch.float32)}


def deep_norm(rng, dt):
    # x' = alpha * x + gx; y = (x' - mean) * rstd * gamma + beta
    for shape, alpha in (((3, 37, 129), 0.3), ((5, 8192), 1.7), ((64, 128), 0.3), ((2, 17000), 0.8)):
        x, gx = U(rng, shape, dt), U(rng, shape, dt)
        g, b = U(rng, shape[-1:], dt, 0.5, 1.5), U(rng, shape[-1:], dt)
        n, mean, rstd = _layer_norm(alpha * x.double() + gx.double(), (-1,), 1e-6)
        yield (shape, alpha), {"x": x, "gx": gx, "beta": b, "gamma": g}, {"alpha": alpha, "epsilon": 1e-6}, \
            {"mean": (mean, torch.float32), "rstd": (rstd, torch.float32), "y": (n * g.double() + b.double(), dt)}


def dynamic_quant(rng, dt):
    # input = x * smooth_scales (when given); scale = row_max(|input|) / 127; y = round(input / scale) in int8
    for shape, smooth in (((3, 37, 129), False), ((5, 8192), True), ((64, 128), True), ((2, 20000), False)):
        x = U(rng, shape, dt)
        s = U(rng, shape[-1:], dt, 0.5, 1.5) if smooth else None
        inp = x.double() * (s.double() if smooth else 1)
        scale = inp.abs().amax(dim=-1, keepdim=True) / 127
        y = torch.round(inp / scale).clamp(-128, 127).to(torch.int8)
        yield (shape, smooth), {"x": x, "smooth_scales": s, "group_index": None}, {"dst_type": 2}, \
            {"y": (y, torch.int8), "scale": (scale.squeeze(-1), torch.float32)}


def ascend_quant_v2(rng, dt):
    # y = round(x * scale + offset) in int8 (sqrt_mode false, round_mode "round"); scale / offset along `axis`
    for shape, axis, per in (((3, 37, 129), -1, True), ((4103,), -1, False), ((5, 67, 33), -1, True), ((64, 256), -2, True)):
        x = U(rng, shape, dt, -30.0, 30.0)
        n = shape[axis] if per else 1
        sc, of = U(rng, (n,), dt, 0.5, 4.0), U(rng, (n,), dt, -5.0, 5.0)
        view = [1] * len(shape)
        view[axis] = n
        y = torch.round(x.double() * sc.double().reshape(view) + of.double().reshape(view)).clamp(-128, 127)
        yield (shape, axis, per), {"x": x, "scale": sc, "offset": of}, \
            {"sqrt_mode": False, "round_mode": "round", "dst_type": 2, "axis": axis}, {"y": (y.to(torch.int8), torch.int8)}


def mse_loss_grad_v2(rng, dt):
    # grad * (x - y) * 2 / x.numel() for mean, without the division for sum / none
    for shape, red in (((3, 37, 129), "mean"), ((4103,), "sum"), ((5, 67, 33), "none"), ((2, 3000), "mean")):
        p, l, d = U(rng, shape, dt), U(rng, shape, dt), U(rng, shape, dt)
        y = d.double() * (p.double() - l.double()) * 2 / (p.numel() if red == "mean" else 1)
        yield (shape, red), {"predict": p, "label": l, "dout": d}, {"reduction": red}, {"y": (y, dt)}


def logit_grad(rng, dt):
    # dx = dy / (x (1 - x)); 0 outside [eps, 1 - eps] when eps >= 0, NaN outside [0, 1] when eps < 0
    for shape, eps in (((3, 37, 129), -1.0), ((4103,), 0.1), ((5, 67, 33), 0.02)):
        lo = 0.02 if eps < 0 else -0.2
        x, dy = U(rng, shape, dt, lo, 1 - lo), U(rng, shape, dt)
        xd = x.double()
        dx = dy.double() / (xd * (1 - xd))
        if eps >= 0: dx = torch.where((xd < eps) | (xd > 1 - eps), torch.zeros_like(dx), dx)
        yield (shape, eps), {"x": x, "dy": dy}, {"eps": eps}, {"dx": (dx, dt)}


def swi_glu_grad(rng, dt):
    # y = silu(a) * b for x = [a, b] split in halves along dim: x_grad = [dy b silu'(a), dy silu(a)]
    for shape, dim in (((3, 37, 258), -1), ((4103 * 2,), -1), ((6, 10, 129), 1), ((4, 2 * 9, 7), -2)):
        x = U(rng, shape, dt)
        a, b = halves(x.double(), dim)
        d = dim % len(shape)
        oshape = list(shape); oshape[d] //= 2
        dy = U(rng, oshape, dt)
        sg = torch.sigmoid(a)
        ga = dy.double() * b * sg * (1 + a * (1 - sg))
        gb = dy.double() * a * sg
        yield (shape, dim), {"y_grad": dy, "x": x}, {"dim": dim}, {"x_grad": (torch.cat([ga, gb], dim=d), dt)}


def modulate(rng, dt):
    # y = x * (1 + scale) + shift, x (B, L, D), scale / shift (B, 1, D) or (B, D), each optional
    for (bb, ll, dd), sshape, which in (((2, 37, 129), "b1d", "both"), ((3, 64, 128), "bd", "both"),
                                        ((1, 300, 40), "b1d", "scale"), ((4, 5, 1000), "bd", "shift")):
        x = U(rng, (bb, ll, dd), dt)
        shp = (bb, 1, dd) if sshape == "b1d" else (bb, dd)
        sc = U(rng, shp, dt, -0.5, 0.5) if which in ("both", "scale") else None
        sh = U(rng, shp, dt) if which in ("both", "shift") else None
        y = x.double()
        if sc is not None: y = y * (1 + sc.double().reshape(bb, 1, dd))
        if sh is not None: y = y + sh.double().reshape(bb, 1, dd)
        # the op's own system test's reference (tests/st/aclnnModulate/executor_aclnnModulate.py): `self * (1 +
        # scale) + shift` in PyTorch on the tensors as given, each step rounded to their dtype (as the float16 kernel
        # computes; the bfloat16 one computes in float32, as the exact reference)
        own = x
        if sc is not None: own = own * (1 + sc.reshape(bb, 1, dd))
        if sh is not None: own = own + sh.reshape(bb, 1, dd)
        yield ((bb, ll, dd), sshape, which), {"x": x, "scale": sc, "shift": sh}, {}, {"y": (y, dt, own.double())}


def foreach_add_list(rng, dt):
    # y_i = x1_i + alpha * x2_i (alpha float32 for bfloat16 x, else x's dtype)
    for shapes, alpha in ((((3, 37, 129), (4103,)), 1.0), (((7, 9), (100,), (2, 2, 2)), -0.5), (((64, 128),), 2.5)):
        x1, x2 = [U(rng, s, dt) for s in shapes], [U(rng, s, dt) for s in shapes]
        a = torch.tensor([alpha]).to(torch.float32 if dt == torch.bfloat16 else dt)
        ys = [(p.double() + float(a.double()) * q.double(), dt) for p, q in zip(x1, x2)]
        yield (shapes, alpha), {"x1": x1, "x2": x2, "alpha": a}, {}, {"y": ys}


def foreach_mul_scalar(rng, dt):
    # y_i = x_i * scalar (the scalar float32 for bfloat16 x, else x's dtype)
    for shapes, sc in ((((3, 37, 129), (4103,)), 1.5), (((7, 9), (100,), (2, 2, 2)), -0.3), (((64, 128),), 3.0)):
        xs = [U(rng, s, dt) for s in shapes]
        s = torch.tensor([sc]).to(torch.float32 if dt == torch.bfloat16 else dt)
        yield (shapes, sc), {"x": xs, "scalar": s}, {}, {"y": [(t.double() * float(s.double()), dt) for t in xs]}


def foreach_norm(rng, dt):
    # y_i = ||x_i||_p (p a float32 scalar: 2, 1, inf)
    for shapes, p in ((((3, 37, 129), (4103,)), 2.0), (((7, 9), (100,), (2, 2, 2)), 1.0), (((64, 128),), math.inf)):
        xs = [U(rng, s, dt) for s in shapes]
        s = torch.tensor([p], dtype=torch.float32)
        ys = [(torch.linalg.vector_norm(t.double().reshape(-1), p).reshape(1), dt) for t in xs]
        yield (shapes, p), {"x": xs, "scalar": s}, {}, {"y": ys}


def scaled_masked_softmax_v2(rng, dt):
    # y = softmax(x * scale with the masked (true) positions filled with -10000) over the last dim; x (B, N, S, D),
    # mask broadcast over B / N (or x's shape); fixed_triu_mask: the mask is the upper triangle, not read
    for shape, mshape, scale, triu in (((2, 3, 16, 64), (1, 1, 16, 64), 1.0, False), ((1, 2, 37, 129), (1, 2, 37, 129), 0.5, False),
                                       ((2, 1, 64, 64), (2, 1, 64, 64), 2.0, True), ((1, 1, 8, 1000), (1, 1, 8, 1000), 1.0, False)):
        x = U(rng, shape, dt)
        m = torch.from_numpy(rng.random(mshape) < 0.3)
        if triu: m = torch.triu(torch.ones(shape[-2:], dtype=torch.bool), 1).expand(mshape).clone()
        z = (x.double() * scale).masked_fill(m.expand(shape), -10000.0)
        yield (shape, mshape, scale, triu), {"x": x, "mask": m}, {"scale": scale, "fixed_triu_mask": triu}, \
            {"y": (torch.softmax(z, -1), dt)}


def cross_entropy_loss(rng, dt):
    # log_prob = log_softmax(input); loss = -sum_n w[t_n] log_prob[n, t_n] / sum_n w[t_n] for mean (ignore_index rows
    # left out), the sum for sum, per row for none
    for (n, c), red, ign in (((37, 129), "mean", -100), ((8, 1000), "sum", 3), ((64, 40), "none", -100), ((5, 5000), "mean", -100)):
        x = U(rng, (n, c), dt)
        t = torch.from_numpy(rng.integers(0, c, n)).to(torch.int64)
        if ign >= 0: t[::3] = ign
        w = U(rng, (c,), torch.float32, 0.5, 1.5)
        lp = torch.log_softmax(x.double(), -1)
        keep = t != ign
        tt = torch.where(keep, t, torch.zeros_like(t))
        wt = w.double()[tt] * keep
        per = -lp.gather(1, tt[:, None])[:, 0] * wt
        loss = per if red == "none" else per.sum() / (wt.sum() if red == "mean" else 1)
        yield ((n, c), red, ign), {"input": x, "target": t, "weight": w}, \
            {"reduction": red, "ignore_index": ign, "label_smoothing": 0.0, "lse_square_scale_for_zloss": 0.0,
             "return_zloss": False}, {"loss": (loss.reshape(-1) if red == "none" else loss.reshape(1), dt),
                                      "log_prob": (lp, dt),   # (the z-loss outputs: written only with return_zloss)
                                      "zloss": (loss.reshape(-1) if red == "none" else loss.reshape(1), dt, "unchecked"),
                                      "lse_for_zloss": (torch.zeros(n, dtype=F64), dt, "unchecked")}


def foreach_exp(rng, dt):
    for shapes in (((3, 37, 129), (4103,)), ((7, 9), (100,), (2, 2, 2)), ((64, 128),)):
        xs = [U(rng, s, dt) for s in shapes]
        yield shapes, {"x": xs}, {}, {"y": [(torch.exp(t.double()), dt) for t in xs]}


def foreach_addcmul_scalar(rng, dt):
    # y_i = x1_i + scalar * x2_i * x3_i (the scalar float32 for bfloat16 x, else x's dtype)
    for shapes, sc in ((((3, 37, 129), (4103,)), 0.5), (((7, 9), (100,), (2, 2, 2)), -1.5), (((64, 128),), 2.0)):
        x1, x2, x3 = ([U(rng, s, dt) for s in shapes] for _ in range(3))
        s = torch.tensor([sc]).to(torch.float32 if dt == torch.bfloat16 else dt)
        ys = [(a.double() + float(s.double()) * b.double() * c.double(), dt) for a, b, c in zip(x1, x2, x3)]
        yield (shapes, sc), {"x1": x1, "x2": x2, "x3": x3, "scalar": s}, {}, {"y": ys}


def rms_norm_quant(rng, dt):
    # quant_in = x / Rms(x) * gamma + beta; y = round(quant_in / scale + offset) in int8; scale / offset one element
    for shape, eps in (((3, 37, 129), 1e-6), ((5, 8192), 0.1), ((64, 128), 1e-6), ((2, 3, 40), 1e-6)):
        x, g, b = U(rng, shape, dt), U(rng, shape[-1:], dt, 0.5, 1.5), U(rng, shape[-1:], dt, -0.5, 0.5)
        sc = torch.tensor([0.02]).to(dt)
        of = torch.tensor([3], dtype=torch.int8)
        q = x.double() * torch.rsqrt((x.double() ** 2).mean(-1, keepdim=True) + eps) * g.double() + b.double()
        y = torch.round(q / sc.double() + 3).clamp(-128, 127).to(torch.int8)
        yield (shape, eps), {"x": x, "gamma": g, "beta": b, "scale": sc, "offset": of}, \
            {"epsilon": eps, "high_precision_mode": False, "gemma_mode": False, "dst_type": 2}, {"y": (y, torch.int8)}


def apply_adam_w_v2(rng, dt):
    # the document's AdamW (README.md / docs/aclnnApplyAdamWV2.md), in place on var, m and v; amsgrad false
    # (max_grad_norm not given); step one element, float32 or int64 (the two A2 column families). t is step + 1: the
    # document calls `step` t, but the op's own system test (tests/st/aclnnApplyAdamWV2/executor_aclnnApplyAdamWV2.py:
    # "the interface adds 1 to step inside") and both kernels (the A2 one and arch35's DAG, OpStepAddOne) use step + 1:
    #   g = -grad if maximize; m = beta1 m + (1 - beta1) g; v = beta2 v + (1 - beta2) g^2
    #   var = var - lr * m / (1 - beta1^t) / (sqrt(v / (1 - beta2^t)) + eps) - lr * weight_decay * var (the input var)
    for shape, step, maximize, lr, wd in (((3, 37, 129), torch.tensor([3.0]), False, 0.01, 0.01),
                                          ((4103,), torch.tensor([7], dtype=torch.int64), True, 0.05, 0.1),
                                          ((64, 128), torch.tensor([1], dtype=torch.int64), False, 0.001, 0.0)):
        b1, b2, eps = 0.9, 0.999, 1e-8
        var, m, grad = U(rng, shape, dt), U(rng, shape, dt, -1.0, 1.0), U(rng, shape, dt)
        v = U(rng, shape, dt, 0.0, 1.0)   # the document: v is not negative
        t = float(step[0]) + 1
        g = -grad.double() if maximize else grad.double()
        m2 = b1 * m.double() + (1 - b1) * g
        v2 = b2 * v.double() + (1 - b2) * g * g
        var2 = var.double() - lr * (m2 / (1 - b1 ** t)) / (torch.sqrt(v2 / (1 - b2 ** t)) + eps) - lr * wd * var.double()
        yield (shape, f"step {step.dtype} {t - 1:g}"), \
            {"var": var, "m": m, "v": v, "grad": grad, "step": step, "max_grad_norm": None}, \
            {"lr": lr, "beta1": b1, "beta2": b2, "weight_decay": wd, "eps": eps, "amsgrad": False, "maximize": maximize}, \
            {"var": (var2, dt), "m": (m2, dt), "v": (v2, dt)}


def dynamic_block_quant(rng, dt):
    # the document (README.md, docs/aclnnDynamicBlockQuant.md) on A2: x 2-D, row_block_size 1, col_block_size 128,
    # dst_type 2 (int8), round_mode rint; per block: scale = max|x| / 127 (min_scale 0: 1/min_scale is no bound; 0.001
    # is below every block's max / 127 here, so either reading of the documents' min(...) leaves the scale as is),
    # y = rint(x / scale); scale's shape [M, ceil(N / 128)]
    for shape, min_scale in (((37, 256), 0.0), ((5, 200), 0.0), ((16, 1000), 0.001)):
        x = U(rng, shape, dt)
        xd = x.double()
        cols = -(-shape[1] // 128)
        pad = torch.nn.functional.pad(xd.abs(), (0, cols * 128 - shape[1]))
        scale = pad.reshape(shape[0], cols, 128).amax(-1) / 127
        assert min_scale == 0 or bool((scale > min_scale).all())
        per = scale.repeat_interleave(128, dim=1)[:, :shape[1]]
        y = torch.round(xd / per).clamp(-128, 127).to(torch.int8)
        yield (shape, min_scale), {"x": x}, \
            {"min_scale": min_scale, "round_mode": "rint", "dst_type": 2, "row_block_size": 1, "col_block_size": 128}, \
            {"y": (y, torch.int8), "scale": (scale, torch.float32)}


OPS = {
    "squared_relu": (NN, "activation/squared_relu", squared_relu),
    "heaviside": (NN, "activation/heaviside", heaviside),
    "gelu_mul": (NN, "activation/gelu_mul", gelu_mul),
    "swi_glu": (NN, "activation/swi_glu", swi_glu),
    "fatrelu_mul": (NN, "activation/fatrelu_mul", fatrelu_mul),
    "ge_glu_v2": (NN, "activation/ge_glu_v2", ge_glu_v2),
    "glu": (NN, "activation/glu", glu),
    "clipped_swiglu": (NN, "activation/clipped_swiglu", clipped_swiglu),
    "mse_loss_v2": (NN, "loss/mse_loss_v2", mse_loss_v2),
    "logit": (NN, "loss/logit", logit),
    "cross_v2": (NN, "loss/cross_v2", cross_v2),
    "is_finite": (MATH, "math/is_finite", is_finite),
    "is_inf": (MATH, "math/is_inf", is_inf),
    "pows": (MATH, "math/pows", pows),
    "bessel_i1e": (MATH, "math/bessel_i1e", bessel_i1e),
    "mul_addn": (MATH, "math/mul_addn", mul_addn),
    "non_finite_check": (MATH, "math/non_finite_check", non_finite_check),
    "segsum": (MATH, "math/segsum", segsum),
    "diag_v2": (MATH, "conversion/diag_v2", diag_v2),
    "diag_flat": (MATH, "conversion/diag_flat", diag_flat),
    "transpose_v2": (MATH, "conversion/transpose_v2", transpose_v2),
    "fill_diagonal_v2": (MATH, "conversion/fill_diagonal_v2", fill_diagonal_v2),
    "circular_pad": (MATH, "conversion/circular_pad", circular_pad),
    "concat_dv2": (MATH, "conversion/concat_dv2", concat_dv2),
    "gather_elements_v2": (NN, "index/gather_elements_v2", gather_elements_v2),
    "index_fill": (NN, "index/index_fill", index_fill),
    "smooth_l1_loss": (NN, "loss/smooth_l1_loss", smooth_l1_loss),
    "angle_v2": (MATH, "math/angle_v2", angle_v2),
    "lin_space": (MATH, "math/lin_space", lin_space),
    "scatter_elements_v2": (NN, "index/scatter_elements_v2", scatter_elements_v2),
    "rms_norm": (NN, "norm/rms_norm", rms_norm),
    "add_rms_norm": (NN, "norm/add_rms_norm", add_rms_norm),
    "inplace_add_rms_norm": (NN, "norm/inplace_add_rms_norm", inplace_add_rms_norm),
    "add_rms_norm_cast": (NN, "norm/add_rms_norm_cast", add_rms_norm_cast),
    "gemma_rms_norm": (NN, "norm/gemma_rms_norm", gemma_rms_norm),
    "add_layer_norm": (NN, "norm/add_layer_norm", add_layer_norm),
    "layer_norm_v4": (NN, "norm/layer_norm_v4", layer_norm_v4),
    "deep_norm": (NN, "norm/deep_norm", deep_norm),
    "dynamic_quant": (NN, "quant/dynamic_quant", dynamic_quant),
    "ascend_quant_v2": (NN, "quant/ascend_quant_v2", ascend_quant_v2),
    "mse_loss_grad_v2": (NN, "loss/mse_loss_grad_v2", mse_loss_grad_v2),
    "logit_grad": (NN, "loss/logit_grad", logit_grad),
    "swi_glu_grad": (NN, "activation/swi_glu_grad", swi_glu_grad),
    "modulate": (NN, "vfusion/modulate", modulate),
    "foreach_add_list": (NN, "foreach/foreach_add_list", foreach_add_list),
    "foreach_mul_scalar": (NN, "foreach/foreach_mul_scalar", foreach_mul_scalar),
    "foreach_norm": (NN, "foreach/foreach_norm", foreach_norm),
    "scaled_masked_softmax_v2": (NN, "vfusion/scaled_masked_softmax_v2", scaled_masked_softmax_v2),
    "cross_entropy_loss": (NN, "loss/cross_entropy_loss", cross_entropy_loss),
    "foreach_exp": (NN, "foreach/foreach_exp", foreach_exp),
    "foreach_addcmul_scalar": (NN, "foreach/foreach_addcmul_scalar", foreach_addcmul_scalar),
    "rms_norm_quant": (NN, "norm/rms_norm_quant", rms_norm_quant),
    "apply_adam_w_v2": (NN, "optim/apply_adam_w_v2", apply_adam_w_v2),
    "dynamic_block_quant": (NN, "quant/dynamic_block_quant", dynamic_block_quant),
}


def _np_dtype(dt):
    return "bfloat16" if dt == torch.bfloat16 else np.dtype(str(dt).removeprefix("torch."))


def _as_torch(a, dt) -> torch.Tensor:
    if dt == torch.bfloat16: return torch.from_numpy(np.ascontiguousarray(np.asarray(a)).view(np.int16)).view(torch.bfloat16)
    return torch.as_tensor(np.asarray(a))


def check(got, want, dt, alt=None) -> tuple[int, int, float]:
    """(elements outside the rule, elements, worst error in units of the allowed one). `alt`: the op's own test's
    reference where it computes otherwise than the exact formula (in the tensors' dtype); an element within the rule of
    either matches."""
    got = _as_torch(got, dt).reshape(want.shape)
    if dt == torch.int8:   # a quantised output: the float32 rounding of x / scale may fall on the other side of .5
        diff = (got.to(torch.int64) - want.to(torch.int64)).abs()
        return int((diff > INT8_ULPS).sum()), want.numel(), float(diff.max()) / INT8_ULPS if want.numel() else 0.0
    if dt not in RTOL:
        bad = int((got.to(want.dtype) != want).sum())
        return bad, want.numel(), float(bad > 0)
    g = got.double()

    def err_of(w):
        same = (g == w) | (torch.isnan(g) & torch.isnan(w))  # equal infinities (and NaN where NaN is due) match
        err = torch.where(same, torch.zeros_like(g), (g - w).abs())
        return torch.where(torch.isnan(err), torch.full_like(err, math.inf), err) / (RTOL[dt] * torch.clamp(w.abs(), min=1.0))
    # against the reference rounded to the output's dtype, or the exact one: a float32 result a hair past a rounding
    # tie of the output dtype rounds to the other neighbour (one bfloat16 ulp, more than 1/256 below |want| 2)
    units = torch.minimum(err_of(want.to(dt).double()), err_of(want.double()))
    if alt is not None: units = torch.minimum(units, err_of(alt.to(dt).double()))
    return int((units > 1).sum()), want.numel(), float(units.max()) if want.numel() else 0.0


def run_op(g, name: str) -> list[str]:
    repo, path, cases = OPS[name]
    try:
        proj, settings = project(repo, path, *g)
    except AssertionError as e:
        return [f"{name}: PROJECT DOES NOT BUILD ({str(e).splitlines()[-1][:200]})"]
    first = proj.op.inputs[0]
    lines = []
    for dtname in dict.fromkeys(first.dtypes):
        if dtname not in TORCH: continue
        dt = TORCH[dtname]
        rng = np.random.default_rng(zlib.crc32(f"{name} {dtname}".encode()))
        for label, inputs, attrs, want in cases(rng, dt):
            tag = f"{name} {str(dt).removeprefix('torch.')} {label} {attrs or ''}".rstrip()
            # a tensor-list (DYNAMIC) output: a list of (reference, dtype), checked element by element
            outs = {k: [(tuple(w.shape), _np_dtype(odt)) for w, odt in v] if isinstance(v, list) else
                    (tuple(v[0].shape), _np_dtype(v[1])) for k, v in want.items()}
            want = {k: v for k, v in want.items() if not (isinstance(v, tuple) and v[2:] == ("unchecked",))}
            t0 = time.time()
            try:
                r = run_project(proj, inputs, attrs=attrs, outputs=outs, settings=settings)
            except Exception as e:  # a harness-side refusal (a wrong input name, an unsupported attribute)
                lines.append(f"{tag}: ERROR (harness) {type(e).__name__}: {str(e).splitlines()[0][:300]}")
                continue
            if not r.run.ok:
                errs = [d for d in r.run.diagnostics if d.severity == "error"] or r.run.diagnostics
                why = [x for x in (r.run.stderr or "").splitlines() if "ERROR" in x or "ascendcraft:" in x][:2]
                lines.append(f"{tag}: ERROR {errs[0].render().splitlines()[0][:300] if errs else r.run}"
                             + "".join(f"\n    {x.strip()[:300]}" for x in why))
                continue
            verdicts = []
            for k, v in want.items():
                got = list(r.outputs[k]) if isinstance(v, list) else [r.outputs[k]]
                checks = [check(g_, w[0], w[1], *w[2:]) for g_, w in zip(got, v if isinstance(v, list) else [v])]
                bad, n, worst = sum(c[0] for c in checks), sum(c[1] for c in checks), max(c[2] for c in checks)
                verdicts.append(("match" if bad == 0 else f"MISMATCH {k} ({bad} of {n})") + f" (worst {worst:.2f})")
            lines.append(f"{tag}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: " + "; ".join(verdicts))
    return lines or [f"{name}: no float dtype column"]


def main(argv=None) -> int:
    return run_ops_main(__doc__, OPS, run_op, argv)


if __name__ == "__main__":
    sys.exit(main())
