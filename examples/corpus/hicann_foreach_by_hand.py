"""hicann ops-nn's foreach ops (foreach/foreach_*, A2 kernels) run on the emulator against PyTorch, as
hicann_ops_by_hand.py runs its five (foreach_add_list, foreach_mul_scalar, foreach_norm, foreach_exp,
foreach_addcmul_scalar): each op project materialised and linked at the corpus's pinned commit (hicann_by_hand.project),
its own TilingFunc and kernel run by opproject.run_project, every float dtype column of its definition, and the check
is that script's (CANN's precision rule: |got - want| <= rtol * max(1, |want|), rtol 1/512 half, 1/256 bfloat16,
1/2048 float). The reference of each op is written from its own document (foreach/<op>/docs/aclnnForeach*.md: the
formula and its scalar / scalar-list / tensor-list form), in float64 on the same rounded inputs.

    python examples/corpus/hicann_foreach_by_hand.py [--only NAME ...] [--keep DIR] [--git OWNER/NAME=DIR]

Each op runs on three tensor lists of different sizes, every one with a tensor whose bytes are not a multiple of 32
(SHAPES). The scalar inputs take the dtype column of the op's definition: a "scalar" / "alpha" tensor
(scalar_tensor_dtype_list: the tensors' dtype, float32 for bfloat16), a Scalar() / ScalarList() input float32 (one
value per tensor for a list), the addc*_list / addc*_scalar_list "scalars" tensor the tensors' dtype (one per tensor).
Prints the lines of hicann_ops_by_hand.run_op.
"""
import math
import sys
from pathlib import Path
from unittest import mock

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import hicann_ops_by_hand as by_hand  # noqa: E402
from hicann_by_hand import run_ops_main  # noqa: E402
from hicann_ops_by_hand import NN, U  # noqa: E402

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


def main(argv=None) -> int:
    return run_ops_main(__doc__, OPS, run_op, argv)


if __name__ == "__main__":
    sys.exit(main())
