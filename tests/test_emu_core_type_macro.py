"""The device compiler's core-type macro (`__DAV_C220_VEC__` / `__DAV_C220_CUBE__`): CANN compiles an A2 kernel once per
core type it runs on, with that core's macro defined, and kernels put their whole body under it (hicann ops-blas's
arch22 vector kernels: `#if __DAV_C220_VEC__`). The emulator defines the macro of a kernel that runs on one core type,
so that body is compiled and runs; a mixed kernel gets neither (one translation unit cannot be both passes)."""
import numpy as np

from ascendcraft.emu import GM, build, run

N = 64

# A vector-only kernel whose work is under the vector pass's macro, and a marker of the branch taken: without the macro
# it would compile to an empty body and leave y as it was.
VECTOR = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ __vector__ void scale_vec(GM_ADDR x, GM_ADDR y) {
#if __DAV_C220_VEC__
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * N_ELEMS * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, N_ELEMS);
    yg.SetGlobalBuffer((__gm__ float*)y, N_ELEMS);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[N_ELEMS];
    DataCopy(a, xg, N_ELEMS);
    PipeBarrier<PIPE_ALL>();
    Muls(b, a, 3.0f, N_ELEMS);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, b, N_ELEMS);
#endif
#ifdef __DAV_C220_CUBE__
    static_assert(false, "a vector-only kernel is never compiled for the cube core");
#endif
}
""".replace("N_ELEMS", str(N))

# A kernel of both core types (it names the cube's buffers and the vector's): neither macro.
MIXED = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mixed(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
#if defined(__DAV_C220_VEC__) || defined(__DAV_C220_CUBE__)
    static_assert(false, "one translation unit is not both of the device compiler's passes");
#endif
    (void)y;
}
"""


def test_a_vector_only_kernels_body_under_the_vector_macro_is_compiled_and_runs():
    b = build({"k.cpp": VECTOR})
    assert b.ok, b.diagnostics
    x = np.arange(N, dtype=np.float32) - 7.5
    r = run(b, [GM("x", x), GM("y", np.full(N, -1.0, np.float32), "inout")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(3.0))


def test_an_aiv_only_kernel_by_its_declared_type_gets_the_vector_macro():
    declared = VECTOR.replace("__vector__ ", "").replace("#if __DAV_C220_VEC__",
                                                         "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n#if __DAV_C220_VEC__")
    b = build({"k.cpp": declared})
    assert b.ok, b.diagnostics
    x = np.linspace(-2, 2, N, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(N, np.float32), "out")], block_dim=2)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(3.0))


def test_a_cube_only_kernel_gets_the_cube_macro_and_not_the_vector_one():
    cube = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void cube_only(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
#ifndef __DAV_C220_CUBE__
    static_assert(false, "an AIC-only kernel is compiled in the cube pass");
#endif
#ifdef __DAV_C220_VEC__
    static_assert(false, "and never in the vector pass");
#endif
    (void)y;
}
"""
    b = build({"k.cpp": cube})
    assert b.ok, b.diagnostics


def test_a_mixed_kernel_gets_neither_macro():
    b = build({"k.cpp": MIXED})
    assert b.ok, b.diagnostics


def test_a_vector_attribute_makes_the_kernel_vector_only_even_where_its_headers_hold_cube_code():
    """hicann ops-blas cscal: `__global__ __aicore__ __vector__ void cscal(...)`, whose shared headers also name the cube's
    buffers (a template it never instantiates): the attribute decides, so the kernel is AIV-only, its body under
    `#ifdef __DAV_C220_VEC__` is compiled, and it runs on one vector core per block."""
    cube_helper = "template <class T> struct L1Copy { TQue<TPosition::A1, 1> q; };\n"
    src = VECTOR.replace("using namespace AscendC;\n", "using namespace AscendC;\n" + cube_helper)
    b = build({"k.cpp": src})
    assert b.ok, b.diagnostics
    x = np.arange(N, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(N, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(3.0))


def test_a_mixed_kernel_that_chooses_code_by_the_macros_builds_with_a_warning_at_the_line():
    """ops-transformer flash_attention_score keeps its cube side under `#ifdef __DAV_C220_CUBE__`: the emulator's one
    build compiles neither side's macro code, and says so at the first such line (a warning: the kernel still builds);
    a kernel of one core type (its macro defined) and a mixed kernel without such lines get no warning."""
    b = build({"k.cpp": MIXED})
    warns = [d for d in b.diagnostics if d.kind == "core-type-macro"]
    line = next(i for i, s in enumerate(MIXED.splitlines(), 1) if "__DAV_C220_VEC__" in s)
    assert b.ok and len(warns) == 1 and not warns[0].is_error and warns[0].line == line, b.diagnostics
    assert "neither __DAV_C220_CUBE__ nor __DAV_C220_VEC__" in warns[0].message and "ASCEND_IS_AIC" in warns[0].hint
    assert "#if defined(__DAV_C220_VEC__)" in warns[0].render()
    # the macro test in a header the kernel includes is found there
    header = "#pragma once\n#ifdef __DAV_C220_CUBE__\nconstexpr int SIDE = 1;\n#else\nconstexpr int SIDE = 2;\n#endif\n"
    plain = MIXED.replace("#if defined(__DAV_C220_VEC__) || defined(__DAV_C220_CUBE__)\n"
                          "    static_assert(false, \"one translation unit is not both of the device compiler's passes\");\n"
                          "#endif\n", "    static_assert(SIDE == 2);\n").replace('using namespace AscendC;',
                                                                              '#include "side.h"\nusing namespace AscendC;')
    b = build({"k.cpp": plain, "side.h": header})
    warns = [d for d in b.diagnostics if d.kind == "core-type-macro"]
    assert b.ok and [(w.file, w.line) for w in warns] == [("side.h", 2)], b.diagnostics
    # no warning without such a line, nor for a kernel of one core type
    b = build({"k.cpp": plain, "side.h": "#pragma once\nconstexpr int SIDE = 2;\n"})
    assert b.ok and not [d for d in b.diagnostics if d.kind == "core-type-macro"], b.diagnostics
    b = build({"k.cpp": VECTOR})
    assert b.ok and not [d for d in b.diagnostics if d.kind == "core-type-macro"], b.diagnostics


def test_the_corpus_marks_such_a_compile_partial():
    "The conformance corpus records where a kernel's compile left core-type code out (`partial`), so its figures can say so."
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("corpus_partial", Path(__file__).resolve().parents[1] / "examples" / "corpus" / "corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    line = next(i for i, s in enumerate(MIXED.splitlines(), 1) if "__DAV_C220_VEC__" in s)
    assert corpus.partial_build(build({"k.cpp": MIXED})) == {"partial": f"k.cpp:{line}"}
    assert corpus.partial_build(build({"k.cpp": VECTOR})) == {}
