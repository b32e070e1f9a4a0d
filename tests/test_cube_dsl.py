"""The cube unit in the DSL (issue 15, items 1-2): L1/L0 buffers and cube stages parse, pass their static checks or
fail them with a line error (L0 overflow, fractal alignment, wrong format into mmad, a 32-bit transpose), run on the
NumPy interpreter, and lower to AscendC that compiles after every pass and matches the interpreter on the emulator."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.check import TensorSpec, analyze
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.dsl import DTYPES, is_cube, parse
from ascendcraft.interp import interpret

ROOT = Path(__file__).parent.parent
TB = (ROOT / "examples" / "matmul" / "matmul_with_transposed_b.py").read_text()
F32 = DTYPES["f32"]
RNG = np.random.default_rng(15)


def _errors(src, shapes, dtype=F32):
    program = parse(src, "mm.py")
    binding = {k: TensorSpec(v, dtype) for k, v in shapes.items()}
    return [d for d in analyze(program, [binding]).diagnostics if d.is_error]


def test_cube_kernel_parses_and_passes_its_checks():
    program = parse(TB, "mm.py")
    assert is_cube(program)
    assert _errors(TB, {"A": (200, 100), "B": (150, 100)}) == []


@pytest.mark.parametrize("m,n,k", [(200, 150, 100), (16, 16, 8), (129, 7, 67)])
def test_interpreter_runs_the_cube_kernel(m, n, k):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((n, k)).astype(np.float32)
    out = interpret(parse(TB, "mm.py"), {"A": a, "B": b}).outputs["c"]
    np.testing.assert_allclose(out, a @ b.T, rtol=1e-5, atol=1e-4)


def test_l0_overflow_names_the_buffer_line():
    src = TB.replace("TK = 64 ", "TK = 256 ")       # L0A: 128 x 256 fp32 = 128 KB > 64 KB
    errs = _errors(src, {"A": (200, 300), "B": (150, 300)})
    kinds = {d.kind for d in errs}
    assert "l0-overflow" in kinds
    d = next(d for d in errs if d.kind == "l0-overflow")
    assert d.line == src.splitlines().index("    a2 = l0a(f32, TM, TK)") + 1
    assert "65,536" in d.message and d.hint and "^" in d.render()


def test_fractal_alignment_of_k_and_m():
    errs = _errors(TB.replace("TK = 64 ", "TK = 60 "), {"A": (64, 64), "B": (64, 64)})
    assert any(d.kind == "fractal-alignment" and "k = 60" in d.message and "8" in d.message for d in errs)
    errs = _errors(TB.replace("TM = 128 ", "TM = 120 "), {"A": (64, 64), "B": (64, 64)})
    assert any(d.kind == "fractal-alignment" and "m = 120" in d.message for d in errs)
    int8 = TB.replace("f32", "i8").replace("l0c(i8", "l0c(i32").replace("c: out[i8", "c: out[i32").replace("c: gm[i8", "c: gm[i32")
    errs = _errors(int8, {"A": (64, 64), "B": (64, 64)}, DTYPES["i8"])     # TK = 64 is fine for int8 (C0 = 32) ...
    assert not any(d.kind == "fractal-alignment" for d in errs), [d.render() for d in errs]
    errs = _errors(int8.replace("TK = 64 ", "TK = 48 "), {"A": (64, 64), "B": (64, 64)}, DTYPES["i8"])   # ... 48 is not
    assert any(d.kind == "fractal-alignment" and "32" in d.message for d in errs)


def test_wrong_format_into_mmad_and_transposed_fp32():
    src = TB.replace("mmad(c1, a2, b2,", "mmad(c1, a1, b2,")     # the L1 tile (NZ), not L0A's ZZ
    errs = _errors(src, {"A": (64, 64), "B": (64, 64)})
    d = next(d for d in errs if d.kind == "mmad-format")
    assert d.line == next(i for i, l in enumerate(src.splitlines(), 1) if "mmad(c1, a1" in l)
    assert "L0A" in d.message and "load_l0" in d.hint
    src = TB.replace("load_l0(b2, b1)", "load_l0(b2, b1, transpose=True)")
    assert any(d.kind == "cube-format" and "16-bit" in d.message for d in _errors(src, {"A": (64, 64), "B": (64, 64)}))
    src = TB.replace("            load_l0(a2, a1)\n", "").replace("        with fixpipe():", "            load_l0(a2, a1)\n        with fixpipe():")
    assert any(d.kind == "cube-stage" for d in _errors(src, {"A": (64, 64), "B": (64, 64)}))


def test_interpreter_stops_at_a_shape_mismatch():
    src = TB.replace("mmad(c1, a2, b2, m, n, k,", "mmad(c1, a2, b2, m, n, TK,")
    a, b = RNG.standard_normal((40, 70)).astype(np.float32), RNG.standard_normal((30, 70)).astype(np.float32)
    with pytest.raises(AscendCraftError) as e:
        interpret(parse(src, "mm.py"), {"A": a, "B": b})
    assert e.value.kinds == ["mmad-shape"]


def test_pipeline_compiles_every_snapshot_and_matches_on_the_emulator():
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    shapes = {"A": (200, 100), "B": (150, 100)}
    pipe = Pipeline(TB, "matmul_with_transposed_b.py", bindings=[{k: TensorSpec(v, F32) for k, v in shapes.items()}])
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    for api in ("TQue<TPosition::A1", "TQue<TPosition::B1", "TQue<TPosition::A2", "TQue<TPosition::B2",
                "TQue<TPosition::CO1", "Nd2NzParams", "LoadData(", "Mmad(", "Fixpipe<float, float, CFG_ROW_MAJOR>"):
        assert api in kernel, api
    vals = {k: torch.from_numpy(RNG.standard_normal(v).astype(np.float32)) for k, v in shapes.items()}
    r = run_kernel(pipe.steps[-1].build, pipe.program, vals)
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_allclose(r.outputs["c"].numpy(), (vals["A"] @ vals["B"].T).numpy(), rtol=1e-5, atol=1e-4)


def test_a_one_row_edge_tile_is_not_a_gemv():
    "M = 129 leaves a last tile of 1 row: an Mmad with m = 1 would be A2's GEMV (A read as k consecutive elements)."
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    shapes = {"A": (129, 100), "B": (40, 100)}
    pipe = Pipeline(TB, "matmul_with_transposed_b.py", bindings=[{k: TensorSpec(v, F32) for k, v in shapes.items()}])
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    vals = {k: torch.from_numpy(RNG.standard_normal(v).astype(np.float32)) for k, v in shapes.items()}
    r = run_kernel(pipe.steps[-1].build, pipe.program, vals)
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_allclose(r.outputs["c"].numpy(), (vals["A"] @ vals["B"].T).numpy(), rtol=1e-5, atol=1e-4)


# ---- mixed kernels: the cube's block of C handed to the vector core (AIC:AIV = 1:2) ------------------------------
FUSE = ROOT / "examples" / "fuse" / "gemm_add_relu.py"


def test_mixed_kernel_matches_on_the_interpreter_and_the_emulator():
    from ascendcraft.bind import bind
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    from ascendcraft.taskset import get_task
    task = get_task("fuse/gemm_add_relu")
    pipe = Pipeline(FUSE.read_text(), FUSE.name, task=task)
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    for api in ("KERNEL_TYPE_MIX_AIC_1_2", "MatmulType<TPosition::VECCALC", "REGIST_MATMUL_OBJ", "SetTensorB(",
                ".Iterate();", ".GetTensorC(", "GetTaskRation()", "TQue<TPosition::VECIN"):
        assert api in kernel, api
    assert "ASCENDC_CUBE_ONLY" not in kernel      # a mixed kernel's Matmul is the vector cores' client
    bound = bind(pipe.program, task, "small", signed=True)
    ref = bound.reference[0]
    r = run_kernel(pipe.steps[-1].build, pipe.program, bound.values)
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    torch.testing.assert_close(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)
    out = interpret(pipe.program, bound.values).outputs["y"]
    np.testing.assert_allclose(out, ref.numpy(), rtol=1e-5, atol=1e-4)


def test_missing_handover_is_a_line_error():
    src = FUSE.read_text()
    cube = "        with cube():\n            matmul(mm, cblk, x[m0 : m0 + m, 0 : K], w[n0 : n0 + n, 0 : K], transpose_b=True)\n"
    assert cube in src
    src = src.replace(cube, "")                                     # the vector core reads a block nobody handed over
    errs = [d for d in analyze(parse(src, "gemm_add_relu.py")).diagnostics if d.is_error]
    d = next(d for d in errs if d.kind == "missing-handover")
    assert d.line == next(i for i, l in enumerate(src.splitlines(), 1) if "add(yout[r * TN], cblk[r * TN]" in l)
    assert "cblk" in d.message and "matmul(mm, cblk" in d.hint
    late = FUSE.read_text().replace(cube, "").replace("        with copyout():", cube + "        with copyout():")
    errs = [d for d in analyze(parse(late, "gemm_add_relu.py")).diagnostics if d.is_error]
    assert [d.kind for d in errs] == ["missing-handover"], [d.render() for d in errs]   # handed over after it is read
    queue = FUSE.read_text().replace("cblk = ub_buf(f32, TM * TN)", "cblk = ub_in(f32, TM * TN)")
    assert any(d.kind == "cube-format" and "ub_buf" in d.message for d in analyze(parse(queue, "g.py")).diagnostics)


# ---- split-K: matmul(..., atomic=True) adds onto C (IterateAll with enAtomic) ---------------------------------------
LARGE_K = ROOT / "examples" / "matmul" / "matmul_with_large_k_dimension.py"


def test_atomic_matmul_adds_onto_c_in_the_interpreter():
    src = LARGE_K.read_text()
    a = RNG.standard_normal((40, 3000)).astype(np.float32)
    b = RNG.standard_normal((3000, 24)).astype(np.float32)
    out = interpret(parse(src, "lk.py"), {"A": a, "B": b}).outputs["c"]
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)   # the K slices summed in C
    # without zeroing C first the slices add onto the poisoned output: atomic= really accumulates
    unzeroed = src.replace("                dup(zero, 0.0, n)", "                dup(zero, 1.0, n)")
    out = interpret(parse(unzeroed, "lk.py"), {"A": a, "B": b}).outputs["c"]
    np.testing.assert_allclose(out, a.astype(np.float64) @ b + 1.0, rtol=1e-4, atol=1e-3)


def test_atomic_matmul_lowers_to_iterate_all_with_en_atomic_and_not_into_ub():
    from ascendcraft.passes_cube import _matmul
    from ascendcraft.dsl import MatmulCall, walk
    program = parse(LARGE_K.read_text(), "lk.py")
    call = next(s for k in program.kernels.values() for s, _ in walk(k.body) if isinstance(s, MatmulCall))
    assert call.atomic
    fuse = FUSE.read_text().replace("transpose_b=True)", "transpose_b=True, atomic=True)")
    errs = [d for d in analyze(parse(fuse, "g.py")).diagnostics if d.is_error]
    assert [d.kind for d in errs] == ["cube-format"] and "atomic=True" in errs[0].message
    with pytest.raises(AscendCraftError, match="atomic= must be True or False"):
        parse(LARGE_K.read_text().replace("atomic=True", "atomic=1"), "lk.py")


def test_split_k_kernel_lowers_and_matches_on_the_emulator():
    from ascendcraft.bind import bind
    from ascendcraft.launch import run_kernel
    from ascendcraft.pipeline import Pipeline
    from ascendcraft.taskset import get_task
    task = get_task("matmul/matmul_with_large_k_dimension")
    pipe = Pipeline(LARGE_K.read_text(), LARGE_K.name, task=task)
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    kernel = next(v for k, v in pipe.steps[-1].project.files if k.endswith("_kernel.cpp"))
    assert ", 1);  // enAtomic" in kernel and "SyncAll" in kernel
    b = bind(pipe.program, task, trial=0, signed=True)
    run = run_kernel(pipe.steps[-1].build, pipe.program, b.values)
    assert run.ok, "\n".join(map(str, run.run.diagnostics))       # 48 AIVs adding into one C: no cross-core race
    for name, want in zip(b.outputs, b.reference):
        assert torch.allclose(run.outputs[name], want, rtol=1e-4, atol=1e-2), name


LOOP_IN_CUBE = '''from ascendcraft.dsl import *

@host
def mk(a: gm[f16, M, K], b: gm[f16, K, N], c: out[f32, M, N], reps: int):
    launch(mk_kernel, 1, a, b, c, M, N, K, reps)

@kernel
def mk_kernel(a: gm[f16, M, K], b: gm[f16, K, N], c: gm[f32, M, N], M: int, N: int, K: int, reps: int):
    a1 = l1(f16, 32, 32)
    b1 = l1(f16, 32, 32)
    a2 = l0a(f16, 32, 32)
    b2 = l0b(f16, 32, 32)
    c1 = l0c(f32, 32, 32)
    with copyl1():
        load(a1, a[0:32, 0:32])
        load(b1, b[0:32, 0:32])
    with split():
        load_l0(a2, a1)
        load_l0(b2, b1)
    with cube():
        for r in range(reps):
            mmad(c1, a2, b2, 32, 32, 32, init=r == 0)
    with fixpipe():
        store(c[0:32, 0:32], c1)
'''


def test_a_loop_inside_a_cube_stage_is_a_line_error_not_a_dropped_loop():
    # The stage functions are lowered statement by statement: a loop inside one used to vanish from the AscendC
    # (its variable then undeclared). It is refused at its line, with the way to write it.
    errors = _errors(LOOP_IN_CUBE, {"a": (32, 32), "b": (32, 32)}, DTYPES["f16"])
    [e] = [d for d in errors if d.kind == "cube-control"]
    assert e.line == LOOP_IN_CUBE.splitlines().index("        for r in range(reps):") + 1
    assert "with cube()" in e.message and "around the stages" in e.hint
    fixed = LOOP_IN_CUBE.replace("        for r in range(reps):\n            mmad(c1, a2, b2, 32, 32, 32, init=r == 0)",
                                 "        mmad(c1, a2, b2, 32, 32, 32, init=True)")
    assert not [d for d in _errors(fixed, {"a": (32, 32), "b": (32, 32)}, DTYPES["f16"]) if d.kind == "cube-control"]


def test_a_pipeline_without_a_task_names_the_host_tensors_in_init():
    # The square matmul example names its host tensors A, B and its kernel parameters a, b. Lowered without a task
    # (no shapes, no plan), Init() used the kernel names for the entry's GM addresses: 'a' was not declared.
    from ascendcraft.pipeline import Pipeline
    src = (ROOT / "examples" / "matmul" / "square_matrix_multiplication.py").read_text()
    pipe = Pipeline(src, "square_matrix_multiplication.py")
    pipe.run_all()
    assert all(s.ok for s in pipe.steps), pipe.summary()
    kernel = pipe.final[pipe.lowering.names.kernel_file]
    assert "aGm.SetGlobalBuffer((__gm__ float*)(A)" in kernel and "bGm.SetGlobalBuffer((__gm__ float*)(B)" in kernel
