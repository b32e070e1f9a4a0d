"""Every primitive of the DSL (ascendcraft.dsl.PRIMS) means the same thing in the interpreter and in
the AscendC it lowers to. For each one a tiny kernel runs through the NumPy interpreter and, lowered
by the pipeline and compiled against the CPU emulation, on the emulator; both must match an
independent NumPy expectation (and each other). A few extra cases cover the f16, bf16, i64 and bool
element types. One g++ build per case (cached by source hash)."""
import numpy as np
import pytest
import torch

from ascendcraft import emu
from ascendcraft.bind import spec_of_value
from ascendcraft.dsl import PRIMS
from ascendcraft.interp import interpret
from ascendcraft.launch import run_kernel
from ascendcraft.pipeline import Pipeline

RNG = np.random.default_rng(2024)
N = 64   # one 256-byte repeat of f32


def kernel(name: str, inputs: dict, out: str, body: str, bufs: str = "", y: str = "N", tile: str = "N") -> str:
    """A one-block DSL program: load every input (name -> element type; all have N elements) into tile
    t<name>, run `body` in one compute stage and store y[0 : y] from tile `ty` (`tile` elements of type
    `out`). The output has the first input's shape, or `y` elements when `y` is a number."""
    first = next(iter(inputs))
    host = ", ".join(f"{k}: gm[{d}, N]" for k, d in inputs.items())
    params = ", ".join(f"{k}: gm[{d}]" for k, d in inputs.items())
    tiles = "\n".join(f"    t{k} = ub_in({d}, N)" for k, d in inputs.items())
    loads = "\n".join(f"        load(t{k}, {k}[0 : N])" for k in inputs)
    return f'''
@host
def {name}({host}, y: out[{out}, {first if y == "N" else y}]):
    launch({name}_kernel, 1, {", ".join(inputs)}, y, N)

@kernel
def {name}_kernel({params}, y: gm[{out}], N: int):
{tiles}
    ty = ub_out({out}, {tile})
{bufs}
    with copyin():
{loads}
    with compute():
{body}
    with copyout():
        store(y[0 : {y}], ty)
'''


def no_input_load(src: str, name: str, dtype: str) -> str:
    "The program without the load (and tile) of input `name`: an instruction that only writes."
    src = src.replace(f"        load(t{name}, {name}[0 : N])\n", "").replace(f"    t{name} = ub_in({dtype}, N)\n", "")
    return src.replace("    with copyin():\n    with compute():", "    with compute():")   # no load left: no copyin stage


def f32(n=N, lo=-3.0, hi=3.0):
    return torch.from_numpy(RNG.uniform(lo, hi, n).astype(np.float32))


A, B, POS = f32(), f32(), f32(lo=0.25, hi=4.0)
MASK = torch.from_numpy(RNG.random(4 * N) < 0.5)   # 256 bools
ELEMENTWISE = {  # prim -> (body, inputs, NumPy expectation, tolerance)
    "add": ("add(ty, ta, tb, N)", (A, B), lambda a, b: a + b, 0),
    "sub": ("sub(ty, ta, tb, N)", (A, B), lambda a, b: a - b, 0),
    "mul": ("mul(ty, ta, tb, N)", (A, B), lambda a, b: a * b, 0),
    "div": ("div(ty, ta, tb, N)", (A, POS), lambda a, b: a / b, 1e-6),
    "max": ("max(ty, ta, tb, N)", (A, B), np.maximum, 0),
    "min": ("min(ty, ta, tb, N)", (A, B), np.minimum, 0),
    "adds": ("adds(ty, ta, 1.5, N)", (A,), lambda a: a + np.float32(1.5), 0),
    "muls": ("muls(ty, ta, -2.5, N)", (A,), lambda a: a * np.float32(-2.5), 0),
    "maxs": ("maxs(ty, ta, 0.5, N)", (A,), lambda a: np.maximum(a, np.float32(0.5)), 0),
    "mins": ("mins(ty, ta, 0.5, N)", (A,), lambda a: np.minimum(a, np.float32(0.5)), 0),
    "leaky_relu": ("leaky_relu(ty, ta, 0.125, N)", (A,), lambda a: np.where(a >= 0, a, a * np.float32(0.125)), 0),
    "axpy": ("copy(ty, tb, N)\n        axpy(ty, ta, 2.0, N)", (A, B), lambda a, b: b + a * np.float32(2), 1e-6),
    "exp": ("exp(ty, ta, N)", (A,), np.exp, 1e-6),
    "ln": ("ln(ty, ta, N)", (POS,), np.log, 1e-6),
    "abs": ("abs(ty, ta, N)", (A,), np.abs, 0),
    "sqrt": ("sqrt(ty, ta, N)", (POS,), np.sqrt, 1e-6),
    "rsqrt": ("rsqrt(ty, ta, N)", (POS,), lambda a: 1 / np.sqrt(a), 1e-6),
    "reciprocal": ("reciprocal(ty, ta, N)", (POS,), lambda a: 1 / a, 1e-6),
    "relu": ("relu(ty, ta, N)", (A,), lambda a: np.maximum(a, 0), 0),
    "tanh": ("tanh(ty, ta, N)", (A,), np.tanh, 1e-6),
    "sigmoid": ("sigmoid(ty, ta, N)", (A,), lambda a: 1 / (1 + np.exp(-a)), 1e-6),
    "erf": ("erf(ty, ta, N)", (A,), lambda a: np.vectorize(__import__("math").erf)(a.astype(np.float64)), 1e-6),
    "copy": ("copy(ty, ta, N)", (A,), lambda a: a, 0),
}


def elementwise_case(prim):
    body, tensors, want, tol = ELEMENTWISE[prim]
    names = "ab"[:len(tensors)]
    src = kernel(prim + "_op", {k: "f32" for k in names}, "f32", "        " + body)
    values = dict(zip(names, tensors))
    return src, values, {"y": want(*(t.numpy() for t in tensors)).astype(np.float32)}, tol


def reduce_case(prim):
    body = f"        dup(ty, 0.0, 8)\n        {prim}(ty, ta, tw, N)"
    src = kernel(prim + "_op", {"a": "f32"}, "f32", body, bufs="    tw = ub_buf(f32, N)", y="8", tile="8")
    a = A.numpy()
    value = {"reduce_sum": a.astype(np.float64).sum(), "reduce_max": a.max(), "reduce_min": a.min()}[prim]
    return src, {"a": A}, {"y": np.array([value] + [0] * 7, np.float32)}, 1e-6


def mask_case(prim):
    "compare/compares write the bit mask; select/selects read one (made by compares)."
    if prim in ("compare", "compares"):
        body = "compare(ty, ta, tb, \"gt\", N)" if prim == "compare" else "compares(ty, ta, 0.0, \"ge\", N)"
        src = kernel(prim + "_op", {"a": "f32", "b": "f32"} if prim == "compare" else {"a": "f32"},
                     "u8", "        " + body, y="8", tile="32")
        bits = A.numpy() > B.numpy() if prim == "compare" else A.numpy() >= 0
        values = {"a": A, "b": B} if prim == "compare" else {"a": A}
        return src, values, {"y": np.packbits(bits, bitorder="little")}, 0
    tail = "select(ty, tm, ta, tb, N)" if prim == "select" else "selects(ty, tm, ta, -1.0, N)"
    body = f"        compares(tm, ta, 0.0, \"lt\", N)\n        {tail}"
    inputs = {"a": "f32", "b": "f32"} if prim == "select" else {"a": "f32"}
    src = kernel(prim + "_op", inputs, "f32", body, bufs="    tm = ub_buf(u8, 32)")
    other = B.numpy() if prim == "select" else np.float32(-1)
    values = {"a": A, "b": B} if prim == "select" else {"a": A}
    return src, values, {"y": np.where(A.numpy() < 0, A.numpy(), other).astype(np.float32)}, 0


def other_case(prim):
    a = A.numpy()
    if prim == "dup":
        src = no_input_load(kernel("dup_op", {"a": "f32"}, "f32", "        dup(ty, 3.25, N)"), "a", "f32")
        return src, {"a": A}, {"y": np.full(N, 3.25, np.float32)}, 0
    if prim == "iota":
        src = no_input_load(kernel("iota_op", {"a": "i32"}, "i32", "        iota(ty, 5, N)"), "a", "i32")
        return src, {"a": torch.zeros(N, dtype=torch.int32)}, {"y": 5 + np.arange(N, dtype=np.int32)}, 0
    if prim == "cast":
        src = kernel("cast_op", {"a": "f32"}, "f16", "        cast(ty, ta, N, round=\"rint\")")
        return src, {"a": A * 100}, {"y": (a * 100).astype(np.float16)}, 0
    if prim == "gather":
        offsets = torch.from_numpy((np.arange(N)[::-1] * 4).astype(np.int32).copy())   # byte offsets: reversed
        src = kernel("gather_op", {"a": "f32", "o": "i32"}, "f32", "        gather(ty, ta, to, N)")
        return src, {"a": A, "o": offsets}, {"y": a[::-1].copy()}, 0
    if prim == "fold_add":   # 4 rows of 64 folded onto one
        x = f32(4 * N)
        src = kernel("fold_op", {"a": "f32"}, "f32", "        dup(ty, 1.0, 64)\n        fold_add(ty, ta, N)", y="64", tile="64")
        want = np.float32(1) + x.numpy().reshape(4, N).sum(0, dtype=np.float64)
        return src, {"a": x}, {"y": want.astype(np.float32)}, 1e-5
    if prim == "row_sum":    # 8 rows of 64: one sum each
        x = f32(8 * N)
        src = kernel("rowsum_op", {"a": "f32"}, "f32", "        row_sum(ty, ta, 8)", y="8", tile="8")
        return src, {"a": x}, {"y": x.numpy().reshape(8, N).sum(1, dtype=np.float64).astype(np.float32)}, 1e-5
    raise KeyError(prim)


def case(prim):
    if prim in ELEMENTWISE: return elementwise_case(prim)
    if prim.startswith("reduce_"): return reduce_case(prim)
    if prim in ("compare", "compares", "select", "selects"): return mask_case(prim)
    return other_case(prim)


H = torch.cat([A, B]).half()            # 128 halves: one 256-byte repeat
DTYPE_CASES = {  # name -> () -> (source, inputs, expected outputs, tolerance)
    "f16-add": lambda: (kernel("add16", {"a": "f16", "b": "f16"}, "f16", "        add(ty, ta, tb, N)"),
                        {"a": H, "b": H.flip(0)}, {"y": (H.float() + H.flip(0).float()).half().numpy()}, 0),
    "bf16-cast": lambda: (kernel("bfcast", {"a": "bf16"}, "f32", "        cast(ty, ta, N)"),
                          {"a": H.bfloat16()}, {"y": H.bfloat16().float().numpy()}, 0),
    "i64-cast": lambda: (kernel("i64cast", {"a": "f32"}, "i64", "        cast(ty, ta, N, round=\"floor\")"),
                         {"a": A * 1000}, {"y": np.floor(A.numpy() * 1000).astype(np.int64)}, 0),
    "bool-cast": lambda: (kernel("boolcast", {"a": "bool"}, "f16", "        cast(ty, ta, N)"),
                          {"a": MASK}, {"y": MASK.numpy().astype(np.float16)}, 0),
}


def lowered_run(src: str, values: dict) -> dict:
    "Lower `src` with the pipeline (shapes from `values`), compile it on the CPU emulation and run it."
    pipe = Pipeline(src, "prim.py", bindings=[{k: spec_of_value(v) for k, v in values.items()}], compile=False)
    pipe.run_all()
    assert pipe.final is not None, pipe.summary() + "\n" + "\n".join(str(d) for s in pipe.steps for d in s.diagnostics)
    build = emu.build(pipe.final.as_dict(), entry=pipe.lowering.names.entry)
    assert build.ok, "\n".join(map(str, build.diagnostics))
    run = run_kernel(build, pipe.program, values)
    assert run.ok, "\n".join(map(str, run.run.diagnostics))
    return {k: v.float().numpy() if v.dtype == torch.bfloat16 else v.numpy() for k, v in run.outputs.items()}


def check(src, values, want, tol):
    interp = {k: v.float().numpy() if v.dtype == torch.bfloat16 else v.numpy() for k, v in interpret(src, values).torch().items()}
    got = lowered_run(src, values)
    for name, w in want.items():
        for who, out in (("interpreter", interp[name]), ("emulator", got[name])):
            assert out.dtype == w.dtype and out.shape == w.shape, (who, out.dtype, out.shape)
            np.testing.assert_allclose(out.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol, err_msg=who)
        np.testing.assert_allclose(got[name].astype(np.float64), interp[name].astype(np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("prim", list(PRIMS))
def test_interpreter_and_lowered_kernel_agree_with_numpy(prim):
    check(*case(prim))


@pytest.mark.parametrize("name", list(DTYPE_CASES))
def test_element_types_agree(name):
    check(*DTYPE_CASES[name]())


def test_every_primitive_has_a_case():
    for prim in PRIMS:
        src, values, want, _ = case(prim)
        assert f"{prim}(" in src and want, prim
