"""What catlass (hicann/catlass, Huawei's template library of cube kernels) needs of the emulation, each with a kernel of
its own: `if constexpr (g_coreType == ...)` in device code (the device compiler builds one pass per core type; here the
running core takes its branch), and the Fixpipe buffer (TPosition::C2PIPE2GM) as memory of its own, 7 KiB on A2, not
UB (catlass's Arch::Resource takes all of UB with a VECCALC TBuf and all of the Fixpipe buffer beside it). With the
catlass mirror on the machine, also its 00_basic_matmul example, built and run by the corpus harness, against float64."""
from pathlib import Path

import numpy as np
import pytest

from _corpus import load_catlass, load_corpus
from ascendcraft.emu import GM, build, core_type_templates, run

CORE_CONSTEXPR = r'''#include "kernel_operator.h"
template <class T>
__aicore__ inline void AddByCore(AscendC::LocalTensor<T> t, uint32_t n)
{
    if constexpr (g_coreType == AscendC::AIV) {
        AscendC::Adds(t, t, (T)2, n);
    } else {
        AscendC::Adds(t, t, (T)-100, n);
    }
}

extern "C" __global__ __aicore__ void core_constexpr(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AddByCore(t, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 64);
}
'''


def test_if_constexpr_on_the_core_type_is_an_if_the_running_core_takes():
    out = core_type_templates("    if constexpr (g_coreType == AscendC::AIV) {\n    if constexpr (sizeof(T) == 2) {\n")
    assert out == "    if           (g_coreType == AscendC::AIV) {\n    if constexpr (sizeof(T) == 2) {\n"   # same columns
    x = np.arange(64, dtype=np.float32)
    b = build({"core_constexpr.cpp": CORE_CONSTEXPR})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 2)       # a vector kernel: the AIV branch


FIXPIPE_BUFFER = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fixpipe_buffer(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    AscendC::TBuf<AscendC::TPosition::C2PIPE2GM> fb;
    pipe.InitBuffer(ub, 192 * 1024);            // all of an A2's UB
    pipe.InitBuffer(fb, FB_BYTES);              // the Fixpipe buffer: its own memory
    AscendC::LocalTensor<uint8_t> fbTensor = fb.Get<uint8_t>();
    AscendC::LocalTensor<float> t = ub.Get<float>();
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::DataCopy(t[47 * 1024], xg, 64);    // the end of UB is the VECCALC buffer's
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t[47 * 1024], t[47 * 1024], 3.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t[47 * 1024], 64);
    (void)fbTensor;
}
'''


def test_the_fixpipe_buffer_is_memory_of_its_own_beside_a_full_ub():
    x = np.arange(64, dtype=np.float32)
    b = build({"fixpipe_buffer.cpp": FIXPIPE_BUFFER.replace("FB_BYTES", "7 * 1024")})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)   # was: ub-overflow at the Fixpipe buffer's Get
    np.testing.assert_array_equal(r.outputs["y"], x * 3)
    # more than an A2's 7 KiB of Fixpipe buffer: the InitBuffer is an error naming that buffer
    b = build({"fixpipe_buffer.cpp": FIXPIPE_BUFFER.replace("FB_BYTES", "8 * 1024")})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    e = [d for d in r.errors if d.kind == "l0-overflow"]
    assert not r.ok and e and "Fixpipe buffer" in e[0].message and "7168" in e[0].message, r.diagnostics


CATLASS_GIT = Path("/work/.mirror/hicann+catlass/repo")


@pytest.mark.slow
@pytest.mark.skipif(not CATLASS_GIT.is_dir(), reason=f"the hicann/catlass mirror is not at {CATLASS_GIT}")
def test_catlass_basic_matmul_matches_float64():
    corpus = load_corpus("corpus_catlass")
    import json
    entry = next(e for e in json.loads(corpus.MANIFEST.read_text())
                 if e["repo"] == "hicann/catlass" and e["path"] == "examples/00_basic_matmul/basic_matmul.cpp")
    out = corpus.try_entry((entry, str(CATLASS_GIT), True, False))
    assert out["kernel_ok"], out
    assert out["match"] == "pass", out
    assert out["match_detail"].startswith("256x512x1024: 0 of 131072"), out


BLOCK_MAX = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void block_max(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(half));
    AscendC::GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half *)x, 128);
    yg.SetGlobalBuffer((__gm__ half *)y, 16);
    AscendC::LocalTensor<half> src = buf.Get<half>();
    AscendC::LocalTensor<half> dst = src[128];
    AscendC::DataCopy(src, xg, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Duplicate(dst, (half)0, 16);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SetVectorMask<half>((uint64_t)-1, (uint64_t)-1);
    // catlass's flash-attention softmax: the mask a literal 0, not read (isSetMask = false: the mask register's)
    AscendC::BlockReduceMax<half, false>(dst, src, 1, 0, 1, 1, 8);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, dst, 16);
}
'''


def test_block_reduce_with_a_literal_zero_mask_takes_the_scalar_mask_form():
    x = np.random.default_rng(3).uniform(-4, 4, 128).astype(np.float16)
    b = build({"block_max.cpp": BLOCK_MAX})
    assert b.ok, "\n".join(d.render() for d in b.errors)   # was: call of overloaded 'BlockReduceMax<half, false>' is ambiguous
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"][:8], x.reshape(8, 16).max(axis=1))


SYNC_ADDR_HOST = r'''
#include "acl/acl.h"
#include <cstdio>
int main() {
    uint64_t addr = 0;
    aclError ok = aclrtGetHardwareSyncAddr(reinterpret_cast<void**>(&addr));
    std::printf("%d %d %d\n", ok, addr != 0, aclrtGetHardwareSyncAddr(nullptr));
    return 0;
}
'''


def test_the_hardware_sync_address_is_given_and_not_zero(tmp_path):
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    (tmp_path / "host.cpp").write_text(SYNC_ADDR_HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert got == ["0", "1", "100000"]     # ACL_SUCCESS, an address (catlass takes 0 as none), a null out-pointer refused


MACRO_GLOBAL = r'''#include "kernel_operator.h"
#define TOY_GLOBAL __global__ __aicore__
#define TOY_SCALE(x) ((x) * 2)
extern "C" TOY_GLOBAL void macro_global(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, (float)TOY_SCALE(3), 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 64);
}
'''


def test_an_entry_marked_by_a_macro_for_global_is_found_and_runs():
    from ascendcraft.emu import find_entries
    assert [e.name for e in find_entries({"k.cpp": MACRO_GLOBAL})] == ["macro_global"]   # was: none (catlass's CATLASS_GLOBAL)
    assert find_entries({"k.cpp": MACRO_GLOBAL.replace("TOY_GLOBAL void", "void")}) == []   # a plain function is no entry
    x = np.arange(64, dtype=np.float32)
    b = build({"k.cpp": MACRO_GLOBAL})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x * 6)


CTOR_TEMPLATE = r'''#include "kernel_operator.h"
template <class T>
struct ToyConv {
    __aicore__ inline ToyConv() {}
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline ToyConv() {}      // catlass's ConvBias: a constructor template on the core type beside the plain one
    __aicore__ inline T Scale() const { return (T)5; }
};

extern "C" __global__ __aicore__ void ctor_template(GM_ADDR x, GM_ADDR y)
{
    ToyConv<float> conv;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, conv.Scale(), 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 64);
}
'''


def test_a_constructor_template_on_the_core_type_compiles_and_the_plain_constructor_runs():
    x = np.arange(64, dtype=np.float32)
    b = build({"ctor_template.cpp": CTOR_TEMPLATE})
    assert b.ok, "\n".join(d.render() for d in b.errors)   # was: "returning a value from a constructor" (a dispatcher)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x * 5)


ATTRIBUTE_PRIMARY = r'''#include "kernel_operator.h"
struct ToyFp8 {
    struct Params { GM_ADDR x; GM_ADDR y; };
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ __attribute__((always_inline)) void operator()(Params const &params);   // catlass's FP8Matmul

    template <>
    __aicore__ void operator()<AscendC::AIV>(Params const &params)
    {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64 * sizeof(float));
        AscendC::GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer((__gm__ float *)params.x, 64);
        yg.SetGlobalBuffer((__gm__ float *)params.y, 64);
        AscendC::LocalTensor<float> t = buf.Get<float>();
        AscendC::DataCopy(t, xg, 64);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(t, t, 7.0f, 64);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yg, t, 64);
    }

    template <>
    __aicore__ void operator()<AscendC::AIC>(Params const &params) {}
};

extern "C" __global__ __aicore__ void attribute_primary(GM_ADDR x, GM_ADDR y)
{
    ToyFp8 op;
    op(ToyFp8::Params{x, y});
}
'''


def test_a_core_typed_primary_with_an_attribute_is_dispatched():
    x = np.arange(64, dtype=np.float32)
    b = build({"attribute_primary.cpp": ATTRIBUTE_PRIMARY})
    assert b.ok, "\n".join(d.render() for d in b.errors)   # was: explicit specialization in non-namespace scope
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 7)    # the vector core's version


def test_a_template_kernel_launched_with_deduced_arguments_takes_the_host_aliases():
    catlass = load_catlass()
    text = ("template <class LayoutA, class LayoutB>\nCATLASS_GLOBAL __attribute__((aic)) void Small(GM_ADDR a, LayoutA la,"
            " GM_ADDR b, LayoutB lb) {}\nstatic void Run() {\n    using LayoutA = layout::RowMajor;\n"
            "    using LayoutB = layout::ColumnMajor;\n    Small<<<24, nullptr, stream>>>(a, la, b, lb);\n}\n")
    assert catlass.catlass_deduced_entry(text, "Small") == "Small<layout::RowMajor, layout::ColumnMajor>"
    assert catlass.catlass_deduced_entry(text.replace("    using LayoutB = layout::ColumnMajor;\n", ""), "Small") == "Small"
    assert catlass.catlass_deduced_entry(text, "Small<float>") == "Small<float>"


GEMM_HOST = '''
using namespace Catlass;
static void Run(const Options& options)
{
    uint32_t m = options.problemShape.m();
    std::vector<fp16_t> hostA(lenA);
    std::vector<fp16_t> hostB(lenB);
    std::vector<fp16_t> hostC(lenC);
    using LayoutA = layout::RowMajor;
    using LayoutB = layout::ColumnMajor;
    using LayoutC = layout::RowMajor;
    static const uint32_t COMPUTE_LENGTH = 48 * 1024 / sizeof(half);
    const uint32_t align = 256;
    if (m > n) {
        using MatmulKernel = Gemm::Kernel::PaddingMatmul<COMPUTE_LENGTH, Scheduler30>;
        MatmulKernel::Arguments arguments{options.problemShape, align, sizeof(float), deviceA, deviceB, deviceC};
    } else {
        using MatmulKernel = Gemm::Kernel::PaddingMatmul<COMPUTE_LENGTH, Scheduler31>;
        MatmulKernel::Arguments arguments{options.problemShape, align, sizeof(float), deviceA, deviceB, deviceC};
    }
    golden::ComputeMatmulElemWiseRelu(options.problemShape, hostA, layoutA, hostB, layoutB, hostGolden, layoutC);
}
'''


def test_a_catlass_gemm_run_takes_the_scope_of_its_arguments_statement():
    catlass = load_catlass()
    form = catlass.catlass_gemm_run("x.cpp", GEMM_HOST)
    assert form["types"] == {"A": "float16", "B": "float16", "C": "float16"}           # from the host vectors (fp16_t)
    assert form["layouts"] == {"A": "RowMajor", "B": "ColumnMajor", "C": "RowMajor"}
    assert form["golden"] == "ComputeMatmulElemWiseRelu" and form["branch_line"] == 16  # the first branch's kernel
    src = form["source"]
    assert "Scheduler30" in src and "Scheduler31" not in src                            # that branch's alias only
    assert "static const uint32_t COMPUTE_LENGTH = 48 * 1024 / sizeof(half);" in src
    assert "const uint32_t align = 256;" in src and "options" not in src.split("{", 1)[1]
    assert "arguments{problemShape, align, sizeof(float), deviceA, deviceB, deviceC}" in src
    # a value the run cannot make (it reads the options): no run derived
    assert catlass.catlass_gemm_run("x.cpp", GEMM_HOST.replace("const uint32_t align = 256;",
                                                              "const uint32_t align = options.align;")) is None
    # another golden than the product (and its activations): no run derived
    assert catlass.catlass_gemm_run("x.cpp", GEMM_HOST.replace("ComputeMatmulElemWiseRelu", "ComputeMatmulBias")) is None
    relu = catlass.catlass_golden("ComputeMatmulElemWiseRelu", np.array([-2.0, 3.0]))
    np.testing.assert_array_equal(relu, [0.0, 3.0])
    ok, _ = catlass.catlass_compare(np.array([100.0, 1.0]), np.array([100.3, 1.0]), 1024)   # 0.3 <= 100.3 / 256
    bad, detail = catlass.catlass_compare(np.array([100.0, 1.0]), np.array([100.5, 1.0]), 1024)
    assert ok and not bad and detail.startswith("1 of 2")


GEMM = Path(__file__).parent / "emu_kernels" / "good" / "cube_gemm.cpp"
FIXPIPE = "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
FIXPIPE_TWICE_ATOMIC = ("        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
                        "        SetAtomicAdd<OT>();                          // the second write adds to the first\n"
                        "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
                        "        SetAtomicNone();\n")


@pytest.mark.parametrize("entry,out", [("gemm_f16_bt_f32", np.float32), ("gemm_f16", np.float16)])
def test_fixpipe_to_gm_under_set_atomic_add_accumulates(entry, out, tmp_path):
    src = GEMM.read_text()
    assert src.count(FIXPIPE) == 1
    (tmp_path / "gemm.cpp").write_text(src.replace(FIXPIPE, FIXPIPE_TWICE_ATOMIC))
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(5)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    b_in = np.ascontiguousarray(bm.T) if entry == "gemm_f16_bt_f32" else bm
    from ascendcraft.emu import Scalar

    def c_of(path):
        b = build(path, entry=entry)
        assert b.ok, "\n".join(d.render() for d in b.errors)
        r = run(b, [GM("a", a), GM("b", b_in), GM("c", np.zeros((m, n), out), "out"), Scalar(m, "uint32_t"),
                    Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
        assert r.ok, "\n".join(d.render() for d in r.diagnostics)
        return r.outputs["c"]

    once = c_of(GEMM)                      # what one Fixpipe writes: C = A @ B in the output dtype
    exact = a.astype(np.float64) @ bm.astype(np.float64)
    scale = np.abs(a.astype(np.float64)) @ np.abs(bm.astype(np.float64))
    # the float32 accumulation's bound, and the output dtype's rounding (one ulp at the result)
    allowed = k * 2.0 ** -24 * scale + np.abs(exact) * float(np.finfo(out).eps)
    assert np.all(np.abs(once.astype(np.float64) - exact) <= allowed)
    twice = c_of(tmp_path / "gemm.cpp")
    # the second write adds to the first, exactly: x + x = 2x in the output dtype (was: the second Fixpipe overwrote,
    # C = A @ B once; catlass's single-core split-K kept only its last K slice). Compared with the emulator's own one
    # Fixpipe, not with numpy's float32 matmul, whose BLAS sums in an order of its own
    np.testing.assert_array_equal(twice, (2 * once.astype(np.float64)).astype(out))


def test_a_batched_catlass_gemm_passes_its_batch_count():
    catlass = load_catlass()
    host = (GEMM_HOST.replace("options.problemShape, align, sizeof(float), deviceA", "batchCount, options.problemShape, deviceA")
            .replace("ComputeMatmulElemWiseRelu(options.problemShape", "ComputeBatchedMatmul(batchCount, options.problemShape"))
    form = catlass.catlass_gemm_run("x.cpp", host)
    assert form["batched"] and form["golden"] == "ComputeBatchedMatmul"
    assert "uint32_t k, uint32_t batchCount)" in form["source"]
    assert "arguments{batchCount, problemShape, deviceA, deviceB, deviceC}" in form["source"]
    # a batch count without the batched golden (or the reverse): no run derived
    assert catlass.catlass_gemm_run("x.cpp", host.replace("ComputeBatchedMatmul(batchCount, ", "ComputeMatmul(")) is None


def test_the_pre_quantisation_names_compile_and_fixpipe_with_one_is_a_named_error(tmp_path):
    # sgl-kernel-npu's attention templates name QuantMode_t::QF322F16_PRE / QF322BF16_PRE in constant tables built for
    # A2 (the device compiler's enum has them); the emulated Fixpipe does not make that conversion: an error at the call
    src = GEMM.read_text()
    old = "        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;"
    assert src.count(old) == 1
    (tmp_path / "gemm.cpp").write_text(src.replace(old, old.replace("F322F16;", "QF322F16_PRE;")))
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(5)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    from ascendcraft.emu import Scalar
    b = build(tmp_path / "gemm.cpp", entry="gemm_f16")
    assert b.ok, "\n".join(d.render() for d in b.errors)
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float16), "out"), Scalar(m, "uint32_t"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errs[0].kind == "fixpipe-quant" and "quantPre = 11" in errs[0].message, r.diagnostics
    assert errs[0].file == "gemm.cpp" and errs[0].line
