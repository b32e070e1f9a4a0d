"""The device compiler's core-type macros (`__DAV_C220_VEC__` / `__DAV_VEC__`, `__DAV_C220_CUBE__` / `__DAV_CUBE__`):
CANN compiles an A2 kernel once per core type it runs on, with that pass's macros defined. Kernels put their whole body
under them (hicann ops-blas's arch22 vector kernels: `#if __DAV_C220_VEC__`), and mixed kernels their cube side and
vector side (ops-transformer's flash attention: `#ifdef __DAV_C220_CUBE__`). The emulator defines the macros of a kernel
that runs on one core type in its one build; a mixed kernel that tests them is built per core type, as CANN does: two
halves of one program (`emu.core_type_split`, `emu.aic_renames`), each block running its core's half."""
from pathlib import Path

import numpy as np

from _corpus import load_corpus
from ascendcraft.emu import GM, Scalar, aic_renames, build, core_type_split, find_entries, run
from ascendcraft.emu_kind import kernel_kind

N = 64
RNG = np.random.default_rng(2929)

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
#if defined(__DAV_C220_CUBE__) || defined(__DAV_CUBE__) || !defined(__DAV_VEC__)
    static_assert(false, "a vector-only kernel is compiled in the vector pass only, with both of its macros");
#endif
}
""".replace("N_ELEMS", str(N))

# A kernel of both core types: each half has exactly one pass's macros.
MIXED = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mixed(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
#if defined(__DAV_C220_VEC__) && defined(__DAV_C220_CUBE__)
    static_assert(false, "one translation unit is never both of the device compiler's passes");
#endif
#if !defined(__DAV_C220_VEC__) && !defined(__DAV_C220_CUBE__)
    static_assert(false, "each half is one of them");
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


def test_a_cube_only_kernel_gets_the_cube_macros_and_not_the_vector_ones():
    cube = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void cube_only(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
#if !defined(__DAV_C220_CUBE__) || !defined(__DAV_CUBE__)
    static_assert(false, "an AIC-only kernel is compiled in the cube pass");
#endif
#if defined(__DAV_C220_VEC__) || defined(__DAV_VEC__)
    static_assert(false, "and never in the vector pass");
#endif
    (void)y;
}
"""
    b = build({"k.cpp": cube})
    assert b.ok, b.diagnostics


def test_a_mixed_kernel_is_built_once_per_core_type_each_half_with_its_macros():
    sources = {"k.cpp": MIXED}
    entry = find_entries(sources)[0]
    line = next(i for i, s in enumerate(MIXED.splitlines(), 1) if "__DAV_C220_VEC__" in s)
    assert core_type_split(sources, entry) == ("k.cpp", line)
    b = build(sources)
    assert b.ok, b.diagnostics
    assert not [d for d in b.diagnostics if d.kind == "core-type-macro"]   # no warning: the code under them is built
    assert b.per_core_type == ("k.cpp", line)              # the Build says so, fresh and from the cache
    assert build(sources).per_core_type == ("k.cpp", line) and build({"k.cpp": VECTOR}).per_core_type is None


def test_a_mixed_kernel_that_never_tests_the_macros_builds_once():
    plain = MIXED.split("#if defined")[0] + "    (void)y;\n}\n"
    assert core_type_split({"k.cpp": plain}, find_entries({"k.cpp": plain})[0]) is None
    # nor a kernel of one core type (its one build defines its pass's macros)
    assert core_type_split({"k.cpp": VECTOR}, find_entries({"k.cpp": VECTOR})[0]) is None
    assert build({"k.cpp": plain}).ok


def test_an_error_in_the_cube_pass_only_is_reported_once_at_its_line():
    """The cube half is compiled, so its errors are the kernel's; code both halves compile reports its error once."""
    src = MIXED.replace("    (void)y;\n", "#ifdef __DAV_CUBE__\n    static_assert(sizeof(y) == 1, \"the cube pass\");\n"
                        "#endif\n    int unused_in_both = undefined_name_in_both;\n    (void)y;\n")
    b = build({"k.cpp": src})
    assert not b.ok
    lines = src.splitlines()
    errors = [d for d in b.diagnostics if d.is_error]
    cube = [d for d in errors if "the cube pass" in d.message]
    both = [d for d in errors if "undefined_name_in_both" in d.message]
    assert len(cube) == 1 and "static_assert" in lines[cube[0].line - 1], errors
    assert len(both) == 1 and "unused_in_both" in lines[both[0].line - 1], errors


# The flash-attention style: the cube side and the vector side of a GEMM + ReLU hand-over chosen by the passes' macros
# (the run-time ASCEND_IS_AIC form is tests/emu_kernels/good/cross_mixed.cpp's matmul_relu), and a member function of
# the same name whose body differs by pass, kept out of line: each core runs its own pass's copy.
CROSS = (Path(__file__).parent / "emu_kernels" / "good" / "cross_mixed.cpp").read_text() + """
struct Pass {
    __attribute__((noinline)) static int32_t Id()
    {
#if defined(__DAV_CUBE__)
        return 7;
#elif defined(__DAV_VEC__)
        return 9;
#else
        return -1;
#endif
    }
};

extern "C" __global__ __aicore__ void matmul_relu_by_pass(GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws, uint32_t n,
                                                          uint32_t k, uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MatmulRelu<Bug::None> op;
    op.Init(a, bt, y, ws, n, k, tiles);
#ifdef __DAV_C220_CUBE__
    op.Cube();
#endif
#ifdef __DAV_C220_VEC__
    op.Vector();
#endif
}

extern "C" __global__ __aicore__ void pass_ids(GM_ADDR ids)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    const int32_t g = GetBlockIdx() / GetTaskRation();
    const int32_t row = ASCEND_IS_AIC ? 3 * g : 3 * g + 1 + GetSubBlockIdx();
    out.SetValue(row, Pass::Id());
}
"""


def test_each_core_runs_its_own_passs_code_of_a_name_both_halves_define():
    b = build({"cross.cpp": CROSS}, entry="pass_ids")
    assert b.ok, b.diagnostics
    r = run(b, [GM("ids", np.full(9, -5, np.int32), "out")], block_dim=3)
    assert r.ok, r.diagnostics
    assert r.outputs["ids"].tolist() == [7, 9, 9] * 3   # the AIC of each group, then its two AIVs


def test_a_gemm_whose_cube_and_vector_sides_are_chosen_by_the_macros_matches_numpy():
    """The hand-over's flags, the workspace and the race checks are the runtime's: one state for both halves."""
    groups, tiles, n, k = 2, 3, 32, 64
    m = groups * tiles * 16
    a = RNG.standard_normal((m, k)).astype(np.float16)
    bt = RNG.standard_normal((n, k)).astype(np.float16)
    ref = np.maximum(a.astype(np.float64) @ bt.astype(np.float64).T, 0)
    b = build({"cross.cpp": CROSS}, entry="matmul_relu_by_pass")
    assert b.ok, b.diagnostics
    args = [GM("a", a), GM("bt", bt), GM("y", np.empty((m, n), np.float32), "out"),
            GM("ws", np.empty(groups * 2 * 16 * n, np.float32), "workspace"),
            Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")]
    r = run(b, args, block_dim=groups)
    assert r.ok, r.diagnostics
    assert not r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], ref, rtol=1e-5, atol=1e-4)


def test_the_cube_halfs_functions_strong_data_and_vtables_are_renamed_its_shared_data_not():
    """`aic_renames` reads `readelf -gsW` of the cube half's object: its COMDAT groups, then its symbols."""
    readelf = """
COMDAT group section [    1] `.group' [_ZN4ImplC5Ev] contains 1 sections:
   [Index]    Name
   [   57]   .text._ZN4ImplC2Ev

COMDAT group section [    2] `.group' [_ZN4Pass2IdEv] contains 1 sections:
   [Index]    Name
   [   58]   .text._ZN4Pass2IdEv

COMDAT group section [    3] `.group' [_ZZN10ascendcraft3emu2wsEvE1p] contains 2 sections:
   [Index]    Name
   [   59]   .tbss._ZZN10ascendcraft3emu2wsEvE1p
   [   60]   .text._ZTW1p

Symbol table '.symtab' contains 12 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
     4: 0000000000000000     0 SECTION LOCAL  DEFAULT   57 .text._ZN4ImplC2Ev
     5: 0000000000000000     0 NOTYPE  LOCAL  DEFAULT    1 _ZN4ImplC5Ev
     6: 0000000000000000    20 FUNC    LOCAL  DEFAULT   61 local_helper
     7: 0000000000000000    11 FUNC    GLOBAL DEFAULT    2 entry
     8: 0000000000000000    11 FUNC    WEAK   DEFAULT   57 _ZN4ImplC2Ev
     9: 0000000000000000    11 FUNC    WEAK   DEFAULT   57 _ZN4ImplC1Ev
    10: 0000000000000000    11 FUNC    WEAK   DEFAULT   58 _ZN4Pass2IdEv
    11: 0000000000000000     4 OBJECT  GLOBAL DEFAULT    3 g_counter
    12: 0000000000000000    24 OBJECT  WEAK   DEFAULT   62 _ZTV4Impl
    13: 0000000000000000     8 TLS     UNIQUE DEFAULT   59 _ZZN10ascendcraft3emu2wsEvE1p
    14: 0000000000000000     9 FUNC    WEAK   HIDDEN    60 _ZTW1p
    15: 0000000000000000    16 OBJECT  WEAK   DEFAULT   63 _ZTI2Ex
    16: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND _ZN10ascendcraft3emu9kernel_onEv
"""
    renamed = dict(aic_renames(readelf))
    # the kernel's functions (with the C5 alias of their constructor's group), its strong global, a virtual table
    assert sorted(renamed) == sorted(["entry", "_ZN4ImplC1Ev", "_ZN4ImplC2Ev", "_ZN4ImplC5Ev", "_ZN4Pass2IdEv",
                                      "g_counter", "_ZTV4Impl"])
    assert all(b == a + "__ascendcraft_aic" for a, b in renamed.items())
    # kept: a function-local static of an emulation header and what its group holds (the thread-local wrapper), type
    # information, local symbols, and what the runtime library defines


def test_the_corpus_records_a_kernel_built_per_core_type():
    "The conformance corpus says where a kernel was built per core type (`per_core_type`), so its figures can say so."
    corpus = load_corpus("corpus_split")
    line = next(i for i, s in enumerate(MIXED.splitlines(), 1) if "__DAV_C220_VEC__" in s)
    assert corpus.per_core_type(build({"k.cpp": MIXED})) == {"per_core_type": f"k.cpp:{line}"}
    assert corpus.per_core_type(build({"k.cpp": VECTOR})) == {}
