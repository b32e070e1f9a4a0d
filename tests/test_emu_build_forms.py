"""Build forms of the AscendC people actually write that the emulator's one g++ build did not take, each a general rule
(nbs/10_emu.ipynb), each on a small kernel of our own in the style of the public one that showed it.

Mixed kernels whose vector and cube code are chosen by `if ASCEND_IS_AIV` / `if ASCEND_IS_AIC` (flash-linear-attention-
npu's chunk_gated_delta_rule_bwd_dhu on catlass): CANN's device compiler builds such a kernel once per core type, with
`g_coreType` that pass's constant and `ASCEND_IS_AIV` an `if constexpr` condition (the devkit's impl/utils/sys_macros.h),
so a template only the vector pass can instantiate is never instantiated by the cube pass. The emulator's one build reads
the core type at run time; where that build fails, the kernel is built again per core type with those constants
(`emu.core_constant_retry`)."""
import re

import numpy as np

from ascendcraft.emu import GM, Scalar, build, core_type_templates, core_type_tests, find_entries, hoisted_local_constants, run

N = 64   # elements per vector core

# catlass's cross-core barrier flags in miniature: a flag per (mode, core type), mode 1 on the vector cores only; the
# id is a constant expression on g_coreType, as catlass's CrossCoreBarrier reads BarrierFlag<MODE, g_coreType>::ID
MEET = """
#include "kernel_operator.h"
using namespace AscendC;

namespace hand {
template <uint8_t MODE, int32_t CORE_TYPE>
struct MeetFlag {
    static_assert(MODE != MODE, "no meeting flag of this mode on this core type");
};
template <> struct MeetFlag<0, AIV> { static constexpr int32_t id = 3; };
template <> struct MeetFlag<0, AIC> { static constexpr int32_t id = 4; };
template <> struct MeetFlag<1, AIV> { static constexpr int32_t id = 5; };
AIC_MODE_ONE
template <uint8_t MODE>
__aicore__ inline int32_t MeetId()
{
    constexpr int32_t id = MeetFlag<MODE, g_coreType>::id;
    return id;
}

template <typename T>
class CubeSide {
public:
    __aicore__ inline void Init(GM_ADDR ids) { ids_.SetGlobalBuffer((__gm__ int32_t *)ids, 24); }
    __aicore__ inline void Process() { ids_.SetValue(0, MeetId<0>()); }

private:
    GlobalTensor<int32_t> ids_;
};

template <typename T>
class VectorSide {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR ids, TPipe *pipe)
    {
        const int32_t at = GetBlockIdx() * N_ELEMS;
        x_.SetGlobalBuffer((__gm__ T *)x + at, N_ELEMS);
        y_.SetGlobalBuffer((__gm__ T *)y + at, N_ELEMS);
        ids_.SetGlobalBuffer((__gm__ int32_t *)ids, 24);
        pipe->InitBuffer(buf_, N_ELEMS * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        const int32_t id = MeetId<1>();
        LocalTensor<T> a = buf_.Get<T>();
        DataCopy(a, x_, N_ELEMS);
        PipeBarrier<PIPE_ALL>();
        Muls(a, a, static_cast<T>(id), N_ELEMS);
        PipeBarrier<PIPE_ALL>();
        DataCopy(y_, a, N_ELEMS);
        ids_.SetValue(8 * (1 + GetBlockIdx()), id);
    }

private:
    GlobalTensor<T> x_, y_;
    GlobalTensor<int32_t> ids_;
    TBuf<TPosition::VECCALC> buf_;
};

template <typename T>
__aicore__ inline void MeetScaleImpl(GM_ADDR x, GM_ADDR y, GM_ADDR ids)
{
    if ASCEND_IS_AIC {
        CubeSide<T> cube;
        cube.Init(ids);
        cube.Process();
    }
    if ASCEND_IS_AIV {
        TPipe pipe;
        VectorSide<T> vec;
        vec.Init(x, y, ids, &pipe);
        vec.Process();
    }
}
}  // namespace hand

extern "C" __global__ __aicore__ void meet_scale(GM_ADDR x, GM_ADDR y, GM_ADDR ids)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    hand::MeetScaleImpl<float>(x, y, ids);
}
""".replace("N_ELEMS", str(N))
VECTOR_ONLY_FLAG = MEET.replace("AIC_MODE_ONE\n", "")
BOTH_FLAGS = MEET.replace("AIC_MODE_ONE", "template <> struct MeetFlag<1, AIC> { static constexpr int32_t id = 6; };")


def _run(b):
    x = np.linspace(-4, 4, 2 * N, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(2 * N, np.float32), "out"), GM("ids", np.full(24, -1, np.int32), "inout")],
            block_dim=1)
    assert r.ok, r.diagnostics
    return x, r


def test_a_template_only_the_vector_pass_instantiates_builds_per_core_type_and_runs():
    """The one build instantiates MeetFlag<1, AIC> from the vector side (its static_assert); CANN's cube pass never
    does. The kernel is built again per core type, with each pass's core type a constant, and each core runs its own."""
    sources = {"meet.cpp": VECTOR_ONLY_FLAG}
    first_test = next(i for i, s in enumerate(VECTOR_ONLY_FLAG.splitlines(), 1) if "g_coreType" in s)
    assert core_type_tests(sources, find_entries(sources)[0]) == ("meet.cpp", first_test)
    b = build(sources)
    assert b.ok, b.diagnostics
    assert b.per_core_type == ("meet.cpp", first_test)
    notes = [d for d in b.diagnostics if d.kind == "core-type-pass"]
    assert len(notes) == 1 and notes[0].line == first_test and "static assertion failed" in notes[0].message, b.diagnostics
    assert b.remake["core_constants"]          # a build for another tiling key is made the same way
    x, r = _run(b)
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(5))
    assert r.outputs["ids"][[0, 8, 16]].tolist() == [4, 5, 5]   # the AIC's mode-0 flag, each AIV's mode-1 flag
    again = build(sources)                     # from the cache: the same result, with its note
    assert again.ok and again.per_core_type == b.per_core_type
    assert [d.kind for d in again.diagnostics if d.kind == "core-type-pass"] == ["core-type-pass"]


def test_a_mixed_kernel_whose_one_build_compiles_is_not_built_twice():
    """No cost for kernels that build today: with a mode-1 flag for both core types the one build compiles, is the
    result (no note, not per core type), and each core still reads its own core type at run time."""
    b = build({"meet.cpp": BOTH_FLAGS})
    assert b.ok, b.diagnostics
    assert b.per_core_type is None and not [d for d in b.diagnostics if d.kind == "core-type-pass"]
    assert "core_constants" not in b.remake
    x, r = _run(b)
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(5))
    assert r.outputs["ids"][[0, 8, 16]].tolist() == [4, 5, 5]


def test_an_error_of_the_kernel_itself_is_reported_once_by_the_per_core_type_build():
    """A mistake the device compiler rejects too (a name declared nowhere, in the vector side) fails both builds: the
    result is the per-core-type build's, its error once at its line, with the note quoting the first build's error."""
    src = VECTOR_ONLY_FLAG.replace("        const int32_t id = MeetId<1>();",
                                   "        const int32_t id = MeetId<1>() + undeclared_offset;")
    b = build({"meet.cpp": src})
    assert not b.ok
    errors = [d for d in b.diagnostics if d.is_error]
    assert len(errors) == 1 and "undeclared_offset" in errors[0].message, errors
    assert "undeclared_offset" in src.splitlines()[errors[0].line - 1]
    notes = [d for d in b.diagnostics if d.kind == "core-type-pass"]
    assert len(notes) == 1 and notes[0].severity == "note", b.diagnostics


def test_a_mixed_kernel_that_never_tests_the_core_type_in_cpp_gets_no_second_build():
    """A failing mixed kernel that chooses its sides by other means is built once: a per-core-type build would read it
    the same way, so its error stands as g++ gave it."""
    plain = VECTOR_ONLY_FLAG.replace("if ASCEND_IS_AIC {", "if (GetBlockIdx() < 0) {").replace(
        "if ASCEND_IS_AIV {", "if (GetBlockIdx() >= 0) {").replace(
        "constexpr int32_t id = MeetFlag<MODE, g_coreType>::id;", "constexpr int32_t id = MeetFlag<MODE, AIV>::id;")
    assert core_type_tests({"k.cpp": plain}, find_entries({"k.cpp": plain})[0]) is None
    assert build({"k.cpp": plain}).ok
    broken = plain.replace("        const int32_t id = MeetId<1>();", "        const int32_t id = MeetId<1>() + undeclared_offset;")
    b = build({"k.cpp": broken})
    assert not b.ok and b.per_core_type is None
    assert not [d for d in b.diagnostics if d.kind == "core-type-pass"]
    assert [d for d in b.diagnostics if d.is_error and "undeclared_offset" in d.message]


def test_a_pass_with_a_constant_core_type_keeps_its_constant_expressions():
    text = ("template <uint8_t M> int32_t Id() { constexpr int32_t id = Flag<M, g_coreType>::id; return id; }\n"
            "void F() { if constexpr (g_coreType == AscendC::AIV) { G(); } }\n")
    assert core_type_templates(text, constant_core=True) == text
    rewritten = core_type_templates(text)
    assert "constexpr int32_t id" not in rewritten and "if constexpr" not in rewritten
    assert rewritten.count("\n") == text.count("\n")


# g++ 12 crashes ("internal compiler error: Segmentation fault") on a function-local `static constexpr` object of a
# class template's member function passed to a reference template parameter: catlass v1.4.0's CopyL1ToL0A<..., float,
# zN> (`static constexpr AscendC::IsResetLoad3dConfig config = {false, false}; AscendC::LoadData<Element, config>(...)`,
# ATB's moe_gate_corr) and vLLM's hc_pre. The build moves such a local to namespace scope (`emu.hoisted_local_constants`).
TILE = """
#include "kernel_operator.h"
using namespace AscendC;

namespace tile {
struct FillConfig {
    bool negate;
    int32_t bias;
};

template <typename T, const FillConfig &CONFIG>
__aicore__ inline void FillFrom(GlobalTensor<T> &dst, GlobalTensor<T> &src, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        T v = src.GetValue(i) + static_cast<T>(CONFIG.bias);
        dst.SetValue(i, CONFIG.negate ? -v : v);
    }
}

template <class ArchTag, class Element>
struct CopyTile;

template <class ArchTag>
struct CopyTile<ArchTag, float> {
    __aicore__ inline void operator()(GlobalTensor<float> &dst, GlobalTensor<float> &src, uint32_t n)
    {
        static constexpr FillConfig config = {true, 2};
        FillFrom<float, config>(dst, src, n);
    }
};
}  // namespace tile

extern "C" __global__ __aicore__ void copy_tile(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    tile::CopyTile<int, float>{}(yg, xg, n);
}
"""

# the catlass form itself, on the emulated LoadData (compiled only: the crash was g++'s front end)
LOAD3D = """
#include "kernel_operator.h"

namespace gemm { namespace tile {
template <class ArchTag, class Element>
struct CopyL1ToL0Left;

template <class ArchTag>
struct CopyL1ToL0Left<ArchTag, float> {
    __aicore__ inline void operator()(AscendC::LocalTensor<float> const &dst, AscendC::LocalTensor<float> const &src,
                                      uint16_t m, uint16_t k)
    {
        constexpr uint8_t PAD_LIST[4] = {0, 0, 0, 0};
        AscendC::SetFmatrix(1, m, PAD_LIST, AscendC::FmatrixMode::FMATRIX_LEFT);
        static constexpr AscendC::IsResetLoad3dConfig config = {false, false};
        AscendC::LoadData3DParamsV2<float> params;
        params.kExtension = k;
        params.mExtension = m;
        params.channelSize = k;
        AscendC::LoadData<float, config>(dst, src, params);
    }
};
}}  // namespace gemm::tile

extern "C" __global__ __aicore__ void load_left(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A1> l1;
    AscendC::TBuf<AscendC::TPosition::A2> l0a;
    pipe.InitBuffer(l1, 16 * 16 * sizeof(float));
    pipe.InitBuffer(l0a, 16 * 16 * sizeof(float));
    gemm::tile::CopyL1ToL0Left<int, float>{}(l0a.Get<float>(), l1.Get<float>(), 16, 16);
    (void)x;
}
"""


def test_a_local_constant_passed_as_a_reference_template_argument_builds_and_keeps_its_value():
    b = build({"tile.cpp": TILE})
    assert b.ok, b.diagnostics
    x = np.linspace(-3, 3, 40, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(40, np.float32), "out"), Scalar(40, "uint32_t")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], -(x + np.float32(2)))


def test_catlass_s_load3d_config_local_compiles():
    b = build({"load.cpp": LOAD3D}, check_only=True)
    assert b.ok, b.diagnostics


def test_only_a_function_local_literal_constant_named_as_a_template_argument_is_moved():
    moved = hoisted_local_constants(TILE)
    assert moved.count("\n") == TILE.count("\n")
    lines = moved.splitlines()
    at = next(i for i, s in enumerate(TILE.splitlines()) if "static constexpr FillConfig config" in s)
    hoisted = re.search(r"static constexpr FillConfig (ascendcraft_hoisted_config_\w+) = \{true, 2\}; template <class ArchTag>$",
                        lines[at - 4])
    assert hoisted, lines[at - 4]
    assert lines[at].strip() == f"static constexpr const FillConfig &config = {hoisted[1]};"
    left_alone = [
        # a class's static member (not function-local)
        "template <class A> struct S { static constexpr Cfg config = {true, true}; void f() { g<config>(); } };\n",
        # an initializer naming something of the function's scope
        "template <class A> struct S { void f() { static constexpr Cfg config = {A::value, true}; g<config>(); } };\n",
        # a type that is a template parameter
        "template <class C> struct S { void f() { static constexpr C config = {true, true}; g<config>(); } };\n",
        # never a template argument
        "template <class A> struct S { void f() { static constexpr Cfg config = {true, true}; g(config); } };\n",
    ]
    for text in left_alone:
        assert hoisted_local_constants(text) == text, text


# A local under an `#if` of the function body that is off for this build (asc-devkit's select example: a
# `static constexpr AscendC::BinaryConfig config = {1};` passed as `Select<..., config>` only where __NPU_ARCH__ is
# 3510). Moved out of its block it was compiled for A2 too, where its type does not exist.
ARCH_ONLY = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T, const int &SCALE>
__aicore__ inline T Scaled(T v) { return v * SCALE; }

template <typename T>
__global__ __aicore__ void scale_by(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x, 8);
    yg.SetGlobalBuffer((__gm__ T *)y, 8);
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
    static constexpr AscendC::ConfigOnlyOnAnotherChip config = {1};
    for (int i = 0; i < 8; ++i) yg.SetValue(i, Scaled<T, config>(xg.GetValue(i)));
#else
    static constexpr int twice = 2;
    for (int i = 0; i < 8; ++i) yg.SetValue(i, Scaled<T, twice>(xg.GetValue(i)));
#endif
}
"""


def test_a_local_constant_under_an_if_of_the_body_stays_in_its_block():
    moved = hoisted_local_constants(ARCH_ONLY)
    assert "ConfigOnlyOnAnotherChip ascendcraft_hoisted" not in moved
    assert "static constexpr AscendC::ConfigOnlyOnAnotherChip config = {1};" in moved
    b = build({"scale.cpp": ARCH_ONLY}, "scale_by<float>")
    assert b.ok, b.diagnostics
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
