"""hicann ops-nn's foreach ops (foreach/foreach_*, A2 kernels) run on the emulator against PyTorch, as
hicann_ops_by_hand.py runs its five (foreach_add_list, foreach_mul_scalar, foreach_norm, foreach_exp,
foreach_addcmul_scalar): each op project materialised and linked at the corpus's pinned commit (hicann_by_hand.project),
its own TilingFunc and kernel run by opproject.run_project, every float dtype column of its definition, and the check
is that script's (CANN's precision rule: |got - want| <= rtol * max(1, |want|), rtol 1/512 half, 1/256 bfloat16,
1/2048 float). The reference of each op is written from its own document (foreach/<op>/docs/aclnnForeach*.md: the
formula and its scalar / scalar-list / tensor-list form), in float64 on the same rounded inputs.

    python examples/corpus/hicann_foreach_by_hand.py [--integer] [--only NAME ...] [--keep DIR] [--git OWNER/NAME=DIR]

--integer runs the integer / bool dtype columns instead (run_integer_columns, exact references; see INT_FOREACH).

Each op runs on three tensor lists of different sizes, every one with a tensor whose bytes are not a multiple of 32
(SHAPES). The scalar inputs take the dtype column of the op's definition: a "scalar" / "alpha" tensor
(scalar_tensor_dtype_list: the tensors' dtype, float32 for bfloat16), a Scalar() / ScalarList() input float32 (one
value per tensor for a list), the addc*_list / addc*_scalar_list "scalars" tensor the tensors' dtype (one per tensor).
Prints the lines of hicann_ops_by_hand.run_op.
"""
import math
import sys
import time
import zlib
from pathlib import Path
from unittest import mock

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import hicann_ops_by_hand as by_hand  # noqa: E402
from hicann_by_hand import run_ops_main  # noqa: E402
from hicann_by_hand import project  # noqa: E402
from hicann_ops_by_hand import NN, U, _np_dtype  # noqa: E402

from ascendcraft.opproject import run_project  # noqa: E402

# three tensor lists: several sizes, each list with a tail that is not a multiple of 32 bytes
SHAPES = (((3, 37, 129), (4103,)), ((7, 9), (100,), (2, 2, 2), (1000,)), ((64, 129), (5,), (33, 17)))


def _scalar_tensor(values, dt):
    "A 'scalar' / 'alpha' input of scalar_tensor_dtype_list: the tensors' dtype, float32 for bfloat16."
    return torch.tensor(values).to(torch.float32 if dt == torch.bfloat16 else dt)


def _f32(values):
    "A Scalar() / ScalarList() input: float32."
    return torch.tensor(values, dtype=torch.float32)


def _away_from_zero(rng, shape, dt, lo=0.5, hi=3.0):
    "Values of magnitude in [lo, hi) with a random sign (a divisor, a reciprocal's input)."
    sign = torch.from_numpy(np.where(rng.random(shape) < 0.5, -1.0, 1.0))
    return (U(rng, shape, torch.float64, lo, hi) * sign).to(dt)


def unary(fn, lo=-3.0, hi=3.0, make=None):
    "y_i = fn(x_i)."
    def cases(rng, dt):
        for shapes in SHAPES:
            xs = [make(rng, s, dt) if make else U(rng, s, dt, lo, hi) for s in shapes]
            yield shapes, {"x": xs}, {}, {"y": [(fn(t.double()), dt) for t in xs]}
    return cases


def binary_list(fn, make2=None, lo1=-3.0, hi1=3.0, lo2=-3.0, hi2=3.0):
    "y_i = fn(x1_i, x2_i)."
    def cases(rng, dt):
        for shapes in SHAPES:
            x1 = [U(rng, s, dt, lo1, hi1) for s in shapes]
            x2 = [make2(rng, s, dt) if make2 else U(rng, s, dt, lo2, hi2) for s in shapes]
            yield shapes, {"x1": x1, "x2": x2}, {}, {"y": [(fn(a.double(), b.double()), dt) for a, b in zip(x1, x2)]}
    return cases


def alpha_list(sign):
    "y_i = x1_i + sign * alpha * x2_i (foreach_sub_list: x1 - alpha x2); alpha of scalar_tensor_dtype_list."
    def cases(rng, dt):
        for shapes, alpha in zip(SHAPES, (1.0, -0.5, 2.5)):
            x1, x2 = [U(rng, s, dt) for s in shapes], [U(rng, s, dt) for s in shapes]
            a = _scalar_tensor([alpha], dt)
            ys = [(p.double() + sign * float(a.double()) * q.double(), dt) for p, q in zip(x1, x2)]
            yield (shapes, alpha), {"x1": x1, "x2": x2, "alpha": a}, {}, {"y": ys}
    return cases


def with_scalar(fn, values=(1.5, -0.3, 3.0), lo=-3.0, hi=3.0, make=None):
    "y_i = fn(x_i, scalar), the scalar one value of scalar_tensor_dtype_list."
    def cases(rng, dt):
        for shapes, v in zip(SHAPES, values):
            xs = [make(rng, s, dt) if make else U(rng, s, dt, lo, hi) for s in shapes]
            s = _scalar_tensor([v], dt)
            yield (shapes, v), {"x": xs, "scalar": s}, {}, {"y": [(fn(t.double(), float(s.double())), dt) for t in xs]}
    return cases


def with_scalar_list(fn, lo=-3.0, hi=3.0, slo=-2.0, shi=2.0, make=None):
    "y_i = fn(x_i, scalars[i]), the scalars a float32 ScalarList, one value per tensor."
    def cases(rng, dt):
        for shapes in SHAPES:
            xs = [make(rng, s, dt) if make else U(rng, s, dt, lo, hi) for s in shapes]
            sc = _f32(np.round(rng.uniform(slo, shi, len(shapes)), 2).tolist())
            ys = [(fn(t.double(), float(v)), dt) for t, v in zip(xs, sc.double())]
            yield (shapes, sc.tolist()), {"x": xs, "scalars": sc}, {}, {"y": ys}
    return cases


def addc(op, form):
    """y_i = x1_i + s * x2_i op x3_i (op * for addcmul, / for addcdiv); s one scalar of scalar_tensor_dtype_list
    (form "scalar"), or one per tensor in a tensor of the tensors' dtype (forms "list" / "scalar_list")."""
    def cases(rng, dt):
        for shapes, v in zip(SHAPES, (0.5, -1.5, 2.0)):
            x1, x2 = [U(rng, s, dt) for s in shapes], [U(rng, s, dt) for s in shapes]
            x3 = [_away_from_zero(rng, s, dt) if op == "div" else U(rng, s, dt) for s in shapes]
            if form == "scalar":
                s = _scalar_tensor([v], dt)
                per = [float(s.double())] * len(shapes)
                inputs = {"x1": x1, "x2": x2, "x3": x3, "scalar": s}
            else:
                s = U(rng, (len(shapes),), dt, -2.0, 2.0)
                per = s.double().tolist()
                inputs = {"x1": x1, "x2": x2, "x3": x3, "scalars": s}
            ys = [(a.double() + k * (b.double() * c.double() if op == "mul" else b.double() / c.double()), dt)
                  for a, b, c, k in zip(x1, x2, x3, per)]
            yield (shapes, [round(k, 3) for k in per]), inputs, {}, {"y": ys}
    return cases


def lerp_list(rng, dt):
    # y_i = x1_i + weight_i * (x2_i - x1_i), weight a tensor list of x's shapes
    for shapes in SHAPES:
        x1, x2, w = ([U(rng, s, dt) for s in shapes] for _ in range(3))
        ys = [(a.double() + c.double() * (b.double() - a.double()), dt) for a, b, c in zip(x1, x2, w)]
        yield shapes, {"x1": x1, "x2": x2, "weight": w}, {}, {"y": ys}


def lerp_scalar(rng, dt):
    # y_i = x1_i + weight * (x2_i - x1_i), weight a float32 Scalar()
    for shapes, wv in zip(SHAPES, (0.25, -0.5, 1.5)):
        x1, x2 = [U(rng, s, dt) for s in shapes], [U(rng, s, dt) for s in shapes]
        ys = [(a.double() + wv * (b.double() - a.double()), dt) for a, b in zip(x1, x2)]
        yield (shapes, wv), {"x1": x1, "x2": x2, "weight": _f32([wv])}, {}, {"y": ys}


def pow_scalar_and_tensor(rng, dt):
    # y_i = scalar ^ x_i, the scalar a float32 Scalar() (the base), x the exponents. The definition's first input is the
    # scalar, float32 in every float column, so run_op calls this once (dt float32): each case names x's dtype itself
    for xdt in (torch.float16, torch.float32, torch.bfloat16):
        for shapes, base in zip(SHAPES, (2.0, 0.5, 3.0)):
            xs = [U(rng, s, xdt, -2.0, 2.0) for s in shapes]
            yield (f"x {str(xdt).removeprefix('torch.')}", shapes, base), {"scalar": _f32([base]), "x": xs}, {}, \
                {"y": [(base ** t.double(), xdt) for t in xs]}


ROUND = {1: torch.round,                                   # half to even
         2: torch.floor, 3: torch.ceil,
         4: lambda t: torch.sign(t) * torch.floor(t.abs() + 0.5),   # half away from zero
         5: torch.trunc}


def round_off_number(rng, dt):
    # y_i = round(x_i, roundMode), roundMode an int8 tensor of one element (1 half-even, 2 floor, 3 ceil, 4 half away
    # from zero, 5 toward zero); values with halves among them
    for shapes, mode in zip(SHAPES, (1, 4, 2)):
        xs = [(torch.from_numpy(rng.integers(-40, 40, s)) / 4.0).to(dt) for s in shapes]
        yield (shapes, mode), {"x": xs, "roundMode": torch.tensor([mode], dtype=torch.int8)}, {}, \
            {"y": [(ROUND[mode](t.double()), dt) for t in xs]}
    for mode in (3, 5):
        xs = [U(rng, s, dt) for s in SHAPES[0]]
        yield (SHAPES[0], mode), {"x": xs, "roundMode": torch.tensor([mode], dtype=torch.int8)}, {}, \
            {"y": [(ROUND[mode](t.double()), dt) for t in xs]}


def non_finite_check_and_unscale(rng, dt):
    # in place: scaled_grads_i *= inv_scale; found_inf = 1.0 when any element of any tensor is inf or NaN, else kept
    for shapes, special in zip(SHAPES, (None, math.inf, math.nan)):
        xs = [U(rng, s, dt) for s in shapes]
        if special is not None: xs[-1].view(-1)[len(xs[-1].view(-1)) // 2] = special
        inv = _f32([0.125])
        found = _f32([0.0])
        ys = [(t.double() * 0.125, dt) for t in xs]
        want_found = torch.tensor([1.0 if special is not None else 0.0], dtype=torch.float64)
        yield (shapes, special), {"scaled_grads": xs, "found_inf": found, "inv_scale": inv}, {}, \
            {"scaled_grads": ys, "found_inf": (want_found, torch.float32)}


def zero_inplace(rng, dt):
    # in place: x_i = 0
    for shapes in SHAPES:
        xs = [U(rng, s, dt) for s in shapes]
        yield shapes, {"x": xs}, {}, {"x": [(torch.zeros(t.shape, dtype=torch.float64), dt) for t in xs]}


def _sign_mix(rng, shape, dt):
    "Values with zeros among them (sign's third case)."
    t = U(rng, shape, dt)
    t[torch.from_numpy(rng.random(shape) < 0.1)] = 0
    return t


def _positive(rng, shape, dt):
    return U(rng, shape, dt, 0.1, 4.0)


FOREACH = {
    # unary y_i = f(x_i)
    "foreach_abs": unary(torch.abs),
    "foreach_acos": unary(torch.acos, -0.99, 0.99),
    "foreach_asin": unary(torch.asin, -0.99, 0.99),
    "foreach_atan": unary(torch.atan, -5.0, 5.0),
    "foreach_copy": unary(lambda t: t),
    "foreach_cos": unary(torch.cos),
    "foreach_cosh": unary(torch.cosh),
    "foreach_erf": unary(torch.erf),
    "foreach_erfc": unary(torch.erfc),
    "foreach_expm1": unary(torch.expm1),
    "foreach_log": unary(torch.log, make=_positive),
    "foreach_log10": unary(torch.log10, make=_positive),
    "foreach_log1p": unary(torch.log1p, -0.9, 3.0),
    "foreach_log2": unary(torch.log2, make=_positive),
    "foreach_neg": unary(torch.neg),
    "foreach_reciprocal": unary(torch.reciprocal, make=_away_from_zero),
    "foreach_sigmoid": unary(torch.sigmoid, -6.0, 6.0),
    "foreach_sign": unary(torch.sign, make=_sign_mix),
    "foreach_sin": unary(torch.sin),
    "foreach_sinh": unary(torch.sinh),
    "foreach_sqrt": unary(torch.sqrt, 0.0, 4.0),
    "foreach_tan": unary(torch.tan, -1.2, 1.2),
    "foreach_tanh": unary(torch.tanh),
    # tensor lists y_i = f(x1_i, x2_i)
    "foreach_sub_list": alpha_list(-1.0),
    "foreach_mul_list": binary_list(torch.mul),
    "foreach_div_list": binary_list(torch.div, make2=_away_from_zero),
    "foreach_maximum_list": binary_list(torch.maximum),
    "foreach_minimum_list": binary_list(torch.minimum),
    "foreach_pow_list": binary_list(torch.pow, lo1=0.5, hi1=2.0, lo2=-2.0, hi2=2.0),
    # one scalar y_i = f(x_i, scalar)
    "foreach_add_scalar": with_scalar(lambda t, s: t + s),
    "foreach_sub_scalar": with_scalar(lambda t, s: t - s),
    "foreach_div_scalar": with_scalar(lambda t, s: t / s, values=(1.5, -0.3, 7.0)),
    "foreach_maximum_scalar": with_scalar(torch.clamp_min),
    "foreach_minimum_scalar": with_scalar(torch.clamp_max),
    "foreach_pow_scalar": with_scalar(torch.pow, values=(2.0, -0.5, 1.5), make=_positive),
    "foreach_pow_scalar_and_tensor": pow_scalar_and_tensor,
    # a scalar per tensor y_i = f(x_i, scalars[i])
    "foreach_add_scalar_list": with_scalar_list(lambda t, s: t + s),
    "foreach_sub_scalar_list": with_scalar_list(lambda t, s: t - s),
    "foreach_mul_scalar_list": with_scalar_list(lambda t, s: t * s),
    "foreach_div_scalar_list": with_scalar_list(lambda t, s: t / s, slo=0.5, shi=3.0),
    "foreach_maximum_scalar_list": with_scalar_list(torch.clamp_min),
    "foreach_minimum_scalar_list": with_scalar_list(torch.clamp_max),
    "foreach_pow_scalar_list": with_scalar_list(torch.pow, slo=-2.0, shi=2.0, make=_positive),
    # addcmul / addcdiv y_i = x1_i + s_i * (x2_i op x3_i)
    "foreach_addcmul_list": addc("mul", "list"),
    "foreach_addcmul_scalar_list": addc("mul", "scalar_list"),
    "foreach_addcdiv_scalar": addc("div", "scalar"),
    "foreach_addcdiv_list": addc("div", "list"),
    "foreach_addcdiv_scalar_list": addc("div", "scalar_list"),
    "foreach_lerp_list": lerp_list,
    "foreach_lerp_scalar": lerp_scalar,
    "foreach_round_off_number": round_off_number,
    "foreach_non_finite_check_and_unscale": non_finite_check_and_unscale,
    "foreach_zero_inplace": zero_inplace,
}
OPS = {name: (NN, f"foreach/{name}", cases) for name, cases in FOREACH.items()}


def run_op(g, name: str) -> list[str]:
    "hicann_ops_by_hand.run_op on one of this script's ops (its table holds the five it runs itself)."
    with mock.patch.dict(by_hand.OPS, {name: OPS[name]}):
        return by_hand.run_op(g, name)

# ---------------------------------------------------------------------------------------------------------------------
# The integer (and bool) dtype columns. run_op above runs the float ones (hicann_ops_by_hand.run_op loops over float
# dtypes); run_integer_columns runs every other column of the op's definition whose first input is an integer or bool
# dtype, each input in that column's dtype (the loaded definition's DataType lists: a "scalar" / "alpha" tensor of
# scalar_tensor_dtype_list is INT32 there, a ScalarList of scalar_dtype_list INT64), and checks exactly.
#
# Integer rules. Only foreach_neg's document states one: the result wraps at the output dtype's width, as
# torch._foreach_neg does (INT8 -128 -> -128, UINT8 1 -> 255); int_neg's "edges" case runs those values. The other
# documents are silent on overflow, division and rounding of integers, so their cases keep every result inside the
# dtype's range (where wrap and saturate agree) and the reference is the exact integer result; foreach_mul_list adds
# products over the whole range, whose wrap its kernel's byte packing makes (int_mul_list). expm1 of an integer
# column: its document lists INT16 / INT8 / UINT8 outputs and says nothing of how the float result becomes an integer;
# the kernel computes in float (INT16) or half (INT8 / UINT8) and casts back with CAST_RINT
# (foreach_utils/op_kernel/foreach_implict_output.h:68 and :78), which the A2 Cast documents as round to nearest, ties to
# even: the reference is torch.round of the float64 expm1 (no input of -4..4 lands near a tie).
INT_TORCH = {"DT_INT8": torch.int8, "DT_UINT8": torch.uint8, "DT_INT16": torch.int16, "DT_UINT16": torch.uint16,
             "DT_INT32": torch.int32, "DT_UINT32": torch.uint32, "DT_INT64": torch.int64, "DT_BOOL": torch.bool}
NEG_EDGES = {torch.int8: (-128, 127, -1, 0, 1), torch.uint8: (0, 1, 255, 128, 127), torch.int16: (-32768, 32767, -1, 0, 1),
             torch.int32: (-2 ** 31, 2 ** 31 - 1, -1, 0, 1)}


def _ints(rng, shape, dt, lo, hi):
    "Integers in [lo, hi] of the dtype."
    return torch.from_numpy(rng.integers(lo, hi + 1, shape)).to(dt)


def _range(dt, lo, hi):
    "[lo, hi] clipped to the dtype's range (uint8: non-negative)."
    info = torch.iinfo(dt)
    return max(lo, info.min), min(hi, info.max)


def _wrap(t: torch.Tensor, dt) -> torch.Tensor:
    "An int64 result reduced modulo 2^bits into the dtype (two's complement wrap)."
    return t.to(torch.int64).to(dt)


def int_unary(fn, lo=-50, hi=50):
    "y_i = fn(x_i) on integers."
    def cases(rng, col):
        dt = col["x"]
        a, b = _range(dt, lo, hi)
        for shapes in SHAPES:
            xs = [_ints(rng, s, dt, a, b) for s in shapes]
            yield shapes, {"x": xs}, {}, {"y": [(fn(t.to(torch.int64)), dt) for t in xs]}
    return cases


def int_neg(rng, col):
    dt = col["x"]
    yield from int_unary(torch.neg, -100, 100)(rng, col)
    # the document's wrap: every edge value in each tensor of one list
    xs = [torch.tensor(NEG_EDGES[dt] * (n // 5 + 1), dtype=dt)[:n] for n in (37, 4103, 5)]
    yield "edges", {"x": xs}, {}, {"y": [(_wrap(-t.to(torch.int64), dt), dt) for t in xs]}


def int_rounded(fn):
    "y_i = fn(x_i) computed in float and rounded half to even (expm1, exp: the kernel's CAST_RINT back to x's dtype)."
    def cases(rng, col):
        dt = col["x"]
        for shapes in SHAPES:
            xs = [_ints(rng, s, dt, *_range(dt, -4, 4)) for s in shapes]
            yield shapes, {"x": xs}, {}, {"y": [(torch.round(fn(t.double())).to(torch.int64), dt) for t in xs]}
    return cases


def int_binary(fn, lo1=-100, hi1=100, lo2=-100, hi2=100):
    "y_i = fn(x1_i, x2_i) on integers."
    def cases(rng, col):
        dt = col["x1"]
        for shapes in SHAPES:
            x1 = [_ints(rng, s, dt, *_range(dt, lo1, hi1)) for s in shapes]
            x2 = [_ints(rng, s, dt, *_range(dt, lo2, hi2)) for s in shapes]
            ys = [(fn(a.to(torch.int64), b.to(torch.int64)), dt) for a, b in zip(x1, x2)]
            yield shapes, {"x1": x1, "x2": x2}, {}, {"y": ys}
    return cases


def int_alpha_list(sign):
    """y_i = x1_i + sign * alpha * x2_i (sub_list: x1 - alpha x2), alpha a one-element tensor of the column's alpha
    dtype; uint8 keeps the result in 0..255 (x1 in 120..255, x2 in 0..60, alpha 0..2)."""
    def cases(rng, col):
        dt = col["x1"]
        for shapes, alpha in zip(SHAPES, (1, 2, -1 if dt != torch.uint8 else 0)):
            if dt == torch.uint8:
                x1, x2 = [_ints(rng, s, dt, 120, 255 if sign < 0 else 130) for s in shapes], [_ints(rng, s, dt, 0, 60) for s in shapes]
            else:
                x1, x2 = ([_ints(rng, s, dt, *_range(dt, -40, 40)) for s in shapes] for _ in range(2))
            ys = [(a.to(torch.int64) + sign * alpha * b.to(torch.int64), dt) for a, b in zip(x1, x2)]
            yield (shapes, alpha), {"x1": x1, "x2": x2, "alpha": torch.tensor([alpha], dtype=col["alpha"])}, {}, \
                {"y": ys}
    return cases


def int_mul_list(rng, col):
    dt = col["x1"]
    lo, hi = (0, 15) if dt == torch.uint8 else (-11, 11)
    yield from int_binary(torch.mul, lo, hi, lo, hi)(rng, col)
    # products over the dtype's whole range: the INT8 / UINT8 kernel multiplies the bytes packed two to an int16
    # (foreach_mul_list_small_int.h:185-207), keeping the low byte of each product, so it wraps; the reference wraps
    info = torch.iinfo(dt)
    x1, x2 = ([_ints(rng, s, dt, info.min, info.max) for s in SHAPES[1]] for _ in range(2))
    yield "overflow", {"x1": x1, "x2": x2}, {}, {"y": [(a.to(torch.int64) * b.to(torch.int64), dt) for a, b in zip(x1, x2)]}
    # at most 64 elements in all: an INT8 list takes its own kernel (tiling key 17, ForeachMulListTinyScalar)
    x1, x2 = ([_ints(rng, s, dt, info.min, info.max) for s in ((5,), (7, 3), (30,))] for _ in range(2))
    yield "tiny", {"x1": x1, "x2": x2}, {}, {"y": [(a.to(torch.int64) * b.to(torch.int64), dt) for a, b in zip(x1, x2)]}


def int_with_scalar(fn, values=(3, -7, 0), lo=-100, hi=100):
    "y_i = fn(x_i, scalar), the scalar a one-element tensor of the column's scalar dtype (uint8: its absolute value)."
    def cases(rng, col):
        dt = col["x"]
        for shapes, v in zip(SHAPES, values):
            if dt == torch.uint8: v = abs(v)
            xs = [_ints(rng, s, dt, *_range(dt, lo, hi)) for s in shapes]
            ys = [(fn(t.to(torch.int64), v), dt) for t in xs]
            yield (shapes, v), {"x": xs, "scalar": torch.tensor([v], dtype=col["scalar"])}, {}, {"y": ys}
    return cases


def int_with_scalar_list(fn, slo=-9, shi=9, lo=-100, hi=100):
    "y_i = fn(x_i, scalars[i]), the scalars a list of the column's scalar dtype, one per tensor."
    def cases(rng, col):
        dt = col["x"]
        for shapes in SHAPES:
            xs = [_ints(rng, s, dt, lo, hi) for s in shapes]
            sc = torch.from_numpy(rng.integers(slo, shi + 1, len(shapes))).to(col["scalars"])
            ys = [(fn(t.to(torch.int64), int(v)), dt) for t, v in zip(xs, sc)]
            yield (shapes, sc.tolist()), {"x": xs, "scalars": sc}, {}, {"y": ys}
    return cases


def int_pow_scalar_and_tensor(rng, col):
    # y_i = scalar ^ x_i on integers, the exponents x non-negative
    dt = col["x"]
    for shapes, base in zip(SHAPES, (2, -3, 5)):
        xs = [_ints(rng, s, dt, 0, 9) for s in shapes]
        yield (shapes, base), {"scalar": torch.tensor([base], dtype=col["scalar"]), "x": xs}, {}, \
            {"y": [(torch.pow(torch.tensor(base, dtype=torch.int64), t.to(torch.int64)), dt) for t in xs]}


def int_addcmul(form):
    """y_i = x1_i + s_i * x2_i * x3_i on integers; s one value per tensor (form "list": a "scalars" tensor of the
    column's dtype) or one for all (form "scalar": a one-element "scalar" tensor)."""
    def cases(rng, col):
        dt = col["x1"]
        for shapes in SHAPES:
            x1, x2, x3 = ([_ints(rng, s, dt, -30, 30) for s in shapes] for _ in range(3))
            if form == "list":
                s = torch.from_numpy(rng.integers(-5, 6, len(shapes))).to(col["scalars"])
                per, extra = [int(k) for k in s], {"scalars": s}
            else:
                s = torch.from_numpy(rng.integers(-5, 6, 1)).to(col["scalar"])
                per, extra = [int(s[0])] * len(shapes), {"scalar": s}
            ys = [(a.to(torch.int64) + k * b.to(torch.int64) * c.to(torch.int64), dt) for a, b, c, k in zip(x1, x2, x3, per)]
            yield (shapes, per), {"x1": x1, "x2": x2, "x3": x3, **extra}, {}, {"y": ys}
    return cases


def int_round_off_number(rng, col):
    # an integer rounds to itself in every mode
    dt = col["x"]
    for shapes, mode in zip(SHAPES, (1, 4, 2)):
        xs = [_ints(rng, s, dt, -1000, 1000) for s in shapes]
        yield (shapes, mode), {"x": xs, "roundMode": torch.tensor([mode], dtype=col["roundMode"])}, {}, \
            {"y": [(t.to(torch.int64), dt) for t in xs]}


def int_zero_inplace(rng, col):
    dt = col["x"]
    for shapes in SHAPES:
        xs = [_ints(rng, s, dt, -1000, 1000) for s in shapes]
        yield shapes, {"x": xs}, {}, {"x": [(torch.zeros(t.shape, dtype=torch.int64), dt) for t in xs]}


def int_copy(rng, col):
    # y_i = x_i over the dtype's whole range (bool: random truth values)
    dt = col["x"]
    for shapes in SHAPES:
        if dt == torch.bool:
            xs = [torch.from_numpy(rng.random(s) < 0.5) for s in shapes]
        else:
            info = torch.iinfo(dt)
            xs = [torch.from_numpy(rng.integers(info.min, info.max, s, endpoint=True, dtype=np.int64)).to(dt)
                  for s in shapes]
        yield shapes, {"x": xs}, {}, {"y": [(t.to(torch.int64), dt) for t in xs]}


INT_FOREACH = {
    "foreach_copy": int_copy,
    "foreach_expm1": int_rounded(torch.expm1),
    "foreach_neg": int_neg,
    "foreach_sign": int_unary(torch.sign),
    "foreach_sub_list": int_alpha_list(-1),
    "foreach_mul_list": int_mul_list,
    "foreach_maximum_list": int_binary(torch.maximum),
    "foreach_minimum_list": int_binary(torch.minimum),
    "foreach_pow_list": int_binary(torch.pow, -6, 6, 0, 7),
    "foreach_add_scalar": int_with_scalar(lambda t, s: t + s),
    "foreach_sub_scalar": int_with_scalar(lambda t, s: t - s),
    "foreach_maximum_scalar": int_with_scalar(torch.clamp_min),
    "foreach_minimum_scalar": int_with_scalar(torch.clamp_max),
    "foreach_pow_scalar": int_with_scalar(torch.pow, values=(2, 3, 0), lo=-30, hi=30),
    "foreach_pow_scalar_and_tensor": int_pow_scalar_and_tensor,
    "foreach_add_scalar_list": int_with_scalar_list(lambda t, s: t + s),
    "foreach_sub_scalar_list": int_with_scalar_list(lambda t, s: t - s),
    "foreach_mul_scalar_list": int_with_scalar_list(lambda t, s: t * s),
    "foreach_maximum_scalar_list": int_with_scalar_list(torch.clamp_min),
    "foreach_minimum_scalar_list": int_with_scalar_list(torch.clamp_max),
    "foreach_pow_scalar_list": int_with_scalar_list(torch.pow, slo=0, shi=4, lo=-20, hi=20),
    "foreach_addcmul_list": int_addcmul("list"),
    "foreach_addcmul_scalar_list": int_addcmul("list"),
    "foreach_round_off_number": int_round_off_number,
    "foreach_zero_inplace": int_zero_inplace,
    # four of the five foreach ops hicann_ops_by_hand.py runs in their float columns (foreach_norm has no integer x)
    "foreach_add_list": int_alpha_list(1),
    "foreach_mul_scalar": int_with_scalar(lambda t, s: t * s, values=(3, -7, 0), lo=-1000, hi=1000),
    "foreach_exp": int_rounded(torch.exp),
    "foreach_addcmul_scalar": int_addcmul("scalar"),
}


def _exact(got, w: torch.Tensor, dt) -> tuple[int, int, str]:
    "(elements that differ, elements, the first difference) of an output against the int64 / bool reference."
    exp = w.to(dt)   # an int64 reference wraps into the dtype (only foreach_neg's edges leave its range)
    got = torch.as_tensor(np.asarray(got)).reshape(exp.shape)
    diff = got.to(torch.int64) != exp.to(torch.int64)
    if not diff.any(): return 0, w.numel(), ""
    i = int(diff.reshape(-1).nonzero()[0])
    return int(diff.sum()), w.numel(), f"at {i}: got {int(got.reshape(-1)[i])}, want {int(exp.reshape(-1)[i])}"


def run_integer_columns(g, name: str) -> list[str]:
    "Each integer / bool column of the op's definition (its first input's dtype) on INT_FOREACH[name]'s cases, exactly."
    try:
        proj, settings = project(NN, f"foreach/{name}", *g)
    except AssertionError as e:
        return [f"{name}: PROJECT DOES NOT BUILD ({str(e).splitlines()[-1][:200]})"]
    params = [p for p in proj.op.inputs if p.dtypes]
    lines = []
    for c, dtname in enumerate(params[0].dtypes):
        if dtname not in INT_TORCH: continue
        col = {p.name: INT_TORCH.get(p.dtypes[min(c, len(p.dtypes) - 1)]) for p in params}
        rng = np.random.default_rng(zlib.crc32(f"{name} {dtname}".encode()))
        # the column named by its tensors' dtype (foreach_pow_scalar_and_tensor's first input is the INT64 scalar)
        shown = next((p.dtypes[min(c, len(p.dtypes) - 1)] for p in proj.op.outputs if p.dtypes), dtname)
        for label, inputs, attrs, want in INT_FOREACH[name](rng, col):
            tag = f"{name} {shown.removeprefix('DT_').lower()} {label}"
            outs = {k: [(tuple(w.shape), _np_dtype(odt)) for w, odt in v] for k, v in want.items()}
            t0 = time.time()
            try:
                r = run_project(proj, inputs, attrs=attrs, outputs=outs, settings=settings)
            except Exception as e:  # a harness-side refusal (no column of these dtypes, a wrong input name)
                lines.append(f"{tag}: ERROR (harness) {type(e).__name__}: {str(e).splitlines()[0][:300]}")
                continue
            if not r.run.ok:
                errs = [d for d in r.run.diagnostics if d.severity == "error"] or r.run.diagnostics
                lines.append(f"{tag}: ERROR {errs[0].render().splitlines()[0][:300] if errs else r.run}")
                continue
            verdicts = []
            for k, v in want.items():
                checks = [_exact(got, w, odt) for got, (w, odt) in zip(r.outputs[k], v)]
                bad, n = sum(x[0] for x in checks), sum(x[1] for x in checks)
                first = next((x[2] for x in checks if x[2]), "")
                verdicts.append("match" if bad == 0 else f"MISMATCH {k} ({bad} of {n}, first {first})")
            lines.append(f"{tag}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s: "
                         + "; ".join(verdicts))
    return lines or [f"{name}: no integer dtype column"]



def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--integer" in argv:   # the integer / bool columns of the ops that have them
        argv.remove("--integer")
        return run_ops_main(__doc__, INT_FOREACH, run_integer_columns, argv)
    return run_ops_main(__doc__, OPS, run_op, argv)


if __name__ == "__main__":
    sys.exit(main())
