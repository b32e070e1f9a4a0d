"""The corpus harness's runs of catlass examples read from their host function (examples/corpus/catlass.py,
catlass_host_run / match_catlass_host): the device buffers of the kernel's Arguments, the host vectors copied into
them and how the host fills them, the golden call and the CompareData call; the grouped goldens against loops written
as examples/common/golden/matmul.hpp writes them; the build's #ifdef branches; every kernel a file launches. Also the
raw `icache_preload` the MLA kernels call (a no-op)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run


from _corpus import load_catlass


GROUPED_HOST = '''
using Options = GroupedGemmOptions;
static void Run(const Options& options)
{
    uint32_t problemCount = options.problemCount;
    uint32_t m = options.problemShape.m();
    uint32_t n = options.problemShape.n();
    uint32_t k = options.problemShape.k();
    size_t lenA = static_cast<size_t>(m) * k;
    size_t lenB = static_cast<size_t>(k) * n * problemCount;
    size_t lenC = static_cast<size_t>(m) * n;
    size_t sizeA = lenA * sizeof(fp16_t);
    size_t sizeB = lenB * sizeof(fp16_t);
    size_t sizeC = lenC * sizeof(fp16_t);
    using LayoutA = layout::RowMajor;
    using LayoutB = layout::ColumnMajor;
    using LayoutC = layout::RowMajor;
    std::vector<fp16_t> hostA(lenA);
    std::vector<fp16_t> hostB(lenB);
    golden::FillRandomData(hostA, -5.0, 5.0);
    golden::FillRandomData(hostB, -5.0, 5.0);
    auto groupList = golden::GenerateGroupList<int64_t>(m, problemCount);
    size_t sizeGroupList = problemCount * sizeof(int64_t);
    uint8_t* deviceGroupList{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceGroupList), sizeGroupList, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(deviceGroupList, sizeGroupList, groupList.data(), sizeGroupList, ACL_MEMCPY_HOST_TO_DEVICE));
    uint8_t* deviceA{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceA), sizeA, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(deviceA, sizeA, hostA.data(), sizeA, ACL_MEMCPY_HOST_TO_DEVICE));
    uint8_t* deviceB{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceB), sizeB, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(deviceB, sizeB, hostB.data(), sizeB, ACL_MEMCPY_HOST_TO_DEVICE));
    uint8_t* deviceC{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceC), sizeC, ACL_MEM_MALLOC_HUGE_FIRST));
    if (options.problemShape.k() > options.problemShape.n()) {
        using MatmulKernel = Gemm::Kernel::GroupedMatmulSliceM<BlockMmad, void, Scheduler30, int64_t>;
        MatmulKernel::Arguments arguments{
            options.problemShape, problemCount, deviceGroupList, deviceA, deviceB, deviceC};
    } else {
        using MatmulKernel = Gemm::Kernel::GroupedMatmulSliceM<BlockMmad, void, Scheduler31, int64_t>;
        MatmulKernel::Arguments arguments{
            options.problemShape, problemCount, deviceGroupList, deviceA, deviceB, deviceC};
    }
    std::vector<fp16_t> hostC(lenC);
    ACL_CHECK(aclrtMemcpy(hostC.data(), sizeC, deviceC, sizeC, ACL_MEMCPY_DEVICE_TO_HOST));
    std::vector<GemmCoord> problemShapeList(problemCount);
    std::vector<LayoutA> layoutAList(problemCount);
    std::vector<LayoutB> layoutBList(problemCount);
    std::vector<LayoutC> layoutCList(problemCount);
    for (uint32_t i = 0; i < problemCount; ++i) {
#ifdef CATLASS_EXPERIMENTAL_GROUPLIST_SEGMENTED
        uint32_t currentM = groupList[i];
#else
        uint32_t currentM = (i == 0) ? groupList[0] : (groupList[i] - groupList[i - 1]);
#endif
        problemShapeList[i] = GemmCoord{currentM, n, k};
    }
    std::vector<float> hostGolden(lenC);
    golden::ComputeGroupedMatmul(
        problemCount, problemShapeList, hostA, layoutAList, hostB, layoutBList, hostGolden, layoutCList);
#ifdef CATLASS_EXPERIMENTAL_GROUPLIST_SEGMENTED
    uint64_t totalM = 0;
    std::vector<uint64_t> errorIndices = golden::CompareData(hostC, hostGolden, k, totalM * n);
#else
    std::vector<uint64_t> errorIndices = golden::CompareData(hostC, hostGolden, k, groupList[problemCount - 1] * n);
#endif
}
'''


def test_a_grouped_host_function_gives_its_buffers_golden_and_compare():
    catlass = load_catlass()
    form = catlass.catlass_host_run("x.cpp", GROUPED_HOST)
    assert [b["name"] for b in form["buffers"]] == ["deviceGroupList", "deviceA", "deviceB", "deviceC"]
    gl, a, _, c = form["buffers"]
    assert gl["grouplist"] == ("m", "problemCount") and gl["types"]["groupList"][0] == "int64"
    assert a["in"] == "hostA" and a["fill"] == ("-5.0", "5.0") and a["types"]["hostA"] == ("float16", "lenA")
    assert c["in"] is None and c["out"] == "hostC"
    assert form["golden"] == "ComputeGroupedMatmul" and form["grouped"]
    assert form["layouts"] == {"A": "RowMajor", "B": "ColumnMajor", "G": "RowMajor"}
    assert form["compare"] == ["k", "groupList[problemCount - 1] * n"]     # the #else branch: the build defines nothing
    src = form["source"]
    assert "uint32_t problemCount, GM_ADDR ascendcraftWorkspaceSize, uint32_t ascendcraftSizeRun)" in src and "Scheduler30" in src and "Scheduler31" not in src
    assert "arguments{problemShape, problemCount, deviceGroupList, deviceA, deviceB, deviceC}" in src
    env = {"m": 64, "n": 32, "k": 16, "problemCount": 3, "groupList": [5, 9, 40]}
    ev = lambda e: catlass._catlass_eval(form["code"], e, env, form["body"], len(form["code"]), form["aliases"])
    assert ev("sizeB") == 16 * 32 * 3 * 2 and ev(form["compare"][1]) == 40 * 32
    # the segmented group list (a -D of the build): not the form the golden here reads, so no run
    assert catlass.catlass_host_run("x.cpp", GROUPED_HOST, "-DCATLASS_EXPERIMENTAL_GROUPLIST_SEGMENTED") is None
    # a host vector changed after it is filled: the kernel's data is not what FillRandomData gave
    assert catlass.catlass_host_run("x.cpp", GROUPED_HOST.replace("    auto groupList", "    hostA[0] = 1;\n    auto groupList")) is None
    # a device buffer the host may point at another one (deviceWA = deviceA): no run
    assert catlass.catlass_host_run("x.cpp", GROUPED_HOST.replace("    if (options", "    deviceB = deviceA;\n    if (options")) is None


def test_the_active_code_follows_the_builds_defines():
    catlass = load_catlass()
    code = "a\n#ifdef X\nb\n#else\nc\n#endif\n#if defined(Y)\nd\n#endif\n#ifndef X\ne\n#endif\n#if V > 1\nf\n#endif\n"
    assert catlass._catlass_active(code, "").split("\n") == ["a", "", "", "", "c", "", "", "", "", "", "e", "", "", "f", "", ""]
    assert catlass._catlass_active(code, "-DX -DY").split("\n")[:9] == ["a", "", "b", "", "", "", "", "d", ""]


def _grouped_loops(name, A, B, S, P, ends, m, n, k, a_col, b_col):
    "The goldens as examples/common/golden/matmul.hpp loops them, written out (small shapes)."
    out, start, oa, ob = [], 0, 0, 0
    at = lambda data, off, i, j, rows, cols, col: data[off + (j * rows + i if col else i * cols + j)]
    for g, end in enumerate(ends):
        size = end - start
        if name == "ComputeGroupedMatmul":
            mg, kg = (size, k) if a_col is False else (m, size)
            for i in range(mg):
                for j in range(n):
                    out.append(sum(float(at(A, oa, i, x, mg, kg, a_col)) * float(at(B, ob, x, j, kg, n, b_col)) for x in range(kg)))
            oa, ob = oa + mg * kg, ob + kg * n
        else:   # ComputeGroupedMatmulSliceKPerTokenDequant
            for i in range(m):
                for j in range(n):
                    acc = sum(int(at(A, 0, i, x, m, k, True)) * int(at(B, 0, x, j, k, n, False)) for x in range(start, end))
                    out.append(acc * float(S[g * n + j]) * float(P[g * m + i]))
        start = end
    return np.array(out)


def test_the_grouped_goldens_match_the_loops():
    catlass = load_catlass()
    rng = np.random.default_rng(1)
    m, n, k, ends = 6, 5, 7, [2, 2, 6]            # an empty group in the middle
    A = rng.uniform(-5, 5, m * k).astype(np.float16)
    B = rng.uniform(-5, 5, 3 * k * n).astype(np.float16)
    got = catlass._catlass_grouped_golden("ComputeGroupedMatmul", {"A": A, "B": B}, {"A": "RowMajor", "B": "ColumnMajor"},
                                         m, n, k, ends, "m")
    np.testing.assert_allclose(got, _grouped_loops("ComputeGroupedMatmul", A, B, None, None, ends, m, n, k, False, True), rtol=1e-12)
    ends = [3, 3, 7]                               # slice K: an m x n result per group, the empty one all zeros
    A8, B8 = rng.integers(-16, 17, m * k).astype(np.int8), rng.integers(-16, 17, k * n).astype(np.int8)
    S, P = rng.uniform(0, 1, 3 * n).astype(np.float32), rng.uniform(0, 1, 3 * m).astype(np.float32)
    got = catlass._catlass_grouped_golden("ComputeGroupedMatmulSliceKPerTokenDequant", {"A": A8, "B": B8, "S": S, "P": P},
                                         {"A": "ColumnMajor", "B": "RowMajor"}, m, n, k, ends, "k")
    np.testing.assert_allclose(got, _grouped_loops("SliceK", A8, B8, S, P, ends, m, n, k, True, False), rtol=1e-12)
    assert not got[m * n:2 * m * n].any()


def test_every_kernel_a_file_launches_is_listed():
    catlass = load_catlass()
    text = ("static void Run() {\n    if (bf16) {\n        K<half><<<8, nullptr, stream>>>(a);\n    } else {\n"
            "        K<bfloat16_t><<<8, nullptr, stream>>>(a);\n    }\n#ifdef SPEC\n    S<<<8, nullptr, stream>>>(a);\n#endif\n"
            "    K<half><<<8, nullptr, stream>>>(b);\n}\n")
    assert catlass.catlass_launched(text) == ["K<half>", "K<bfloat16_t>"]
    assert catlass.catlass_launched(text, "-DSPEC") == ["K<half>", "K<bfloat16_t>", "S"]


ICACHE = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void icache_kernel(GM_ADDR x, GM_ADDR y)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    icache_preload(1);
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 3.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    icache_preload(2);
    AscendC::DataCopy(yg, t, 64);
}
'''


def test_icache_preload_is_a_no_op():
    kb = build({"k.cpp": ICACHE}, "icache_kernel")
    assert kb.ok, kb.diagnostics
    x = np.arange(64, dtype=np.float32)
    r = run(kb, [GM("x", x), GM("y", shape=(64,), dtype=np.float32, role="out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * 3)


PIPE_COPY = r'''#include "kernel_operator.h"
struct Res {
    AscendC::TPipe pipe;
    __aicore__ inline Res() { pipe.Destroy(); }   // as catlass's Arch::Resource: the pipe is destroyed at once
};
template <class... Args> struct Ignore { __aicore__ inline Ignore(Args...) {} };   // takes its arguments by value
extern "C" __global__ __aicore__ void pipe_copy(GM_ADDR x, GM_ADDR y)
{
    Res res;
    Ignore<Res> ignore(res);                         // a copy of the destroyed pipe: inert
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    res.pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(t, t, 1.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, t, 64);
}
'''


def test_a_copy_of_a_destroyed_pipe_is_inert_and_a_copy_of_a_live_one_stops():
    x = np.arange(64, dtype=np.float32)
    kb = build({"k.cpp": PIPE_COPY}, "pipe_copy")
    assert kb.ok, kb.diagnostics
    r = run(kb, [GM("x", x), GM("y", shape=(64,), dtype=np.float32, role="out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x + 1)
    live = PIPE_COPY.replace("Res() { pipe.Destroy(); }", "Res() {}")
    kb = build({"k.cpp": live}, "pipe_copy")
    assert kb.ok, kb.diagnostics
    r = run(kb, [GM("x", x), GM("y", shape=(64,), dtype=np.float32, role="out")], block_dim=1)
    assert not r.ok and any(d.kind == "unsupported" and "a copy of the TPipe" in d.message for d in r.diagnostics)


LAUNCH_HOST = '''
template <class LayoutA, class LayoutB>
CATLASS_GLOBAL __attribute__((aic)) void Small(GemmCoord problemShape, GM_ADDR gmA, LayoutA layoutA, GM_ADDR gmB, LayoutB layoutB, float alpha) {}
using Options = GemvOptions;
using ScalarType = float;
static void Run(const Options& options)
{
    uint32_t m = options.problemShape.m();
    uint32_t n = options.problemShape.n();
    size_t lenA = static_cast<size_t>(m) * n;
    size_t sizeA = lenA * sizeof(float);
    size_t lenY = static_cast<size_t>(m);
    size_t sizeY = lenY * sizeof(float);
    using LayoutA = layout::RowMajor;
    using LayoutB = layout::VectorLayout;
    LayoutA layoutA{m, n};
    LayoutB layoutY{m};
    ScalarType alpha{0};
    FillRandomScalarData(alpha, -1.0f, 1.0f);
    std::vector<float> hostA(lenA);
    std::vector<float> hostY(lenY);
    golden::FillRandomData(hostA, -1.0f, 1.0f);
    golden::FillRandomData(hostY, -1.0f, 1.0f);
    uint8_t* deviceA{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceA), sizeA, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(deviceA, sizeA, hostA.data(), sizeA, ACL_MEMCPY_HOST_TO_DEVICE));
    uint8_t* deviceY{nullptr};
    ACL_CHECK(aclrtMalloc(reinterpret_cast<void**>(&deviceY), sizeY, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtMemcpy(deviceY, sizeY, hostY.data(), sizeY, ACL_MEMCPY_HOST_TO_DEVICE));
    Small<<<aicCoreNum, nullptr, stream>>>(options.problemShape, deviceA, layoutA, deviceY, layoutY, alpha);
    std::vector<float> hostRes(lenY);
    ACL_CHECK(aclrtMemcpy(hostRes.data(), sizeY, deviceY, sizeY, ACL_MEMCPY_DEVICE_TO_HOST));
    std::vector<float> hostGolden(lenY);
    golden::ComputeGemv(options.problemShape, alpha, alpha, hostA, layoutA, hostY, layoutY, hostY, layoutY, hostGolden, layoutY);
    std::vector<uint64_t> errorIndices = golden::CompareData(hostRes, hostGolden, m);
}
'''


def test_a_direct_launch_with_a_random_scalar_and_a_gemv_golden():
    catlass = load_catlass()
    form = catlass.catlass_host_run("x.cpp", LAUNCH_HOST)
    src = form["source"]
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);" in src                  # the launched kernel's attribute
    assert "Small<layout::RowMajor, layout::VectorLayout>(problemShape, deviceA, layoutA, deviceY, layoutY, alpha);" in src
    assert "Catlass::GemvCoord problemShape{m, n};" in src and ", float alpha, GM_ADDR ascendcraftWorkspaceSize" in src
    assert form["scalars"] == {"alpha": ("float", "-1.0f", "1.0f")} and form["options"] == "GemvOptions"
    assert [(b["name"], b["in"], b["out"]) for b in form["buffers"]] == [("deviceA", "hostA", None), ("deviceY", "hostY", "hostRes")]
    assert form["golden"] == "ComputeGemv" and form["layouts"]["G"] == "VectorLayout"
    # a scalar the host changes after drawing it: no run
    assert catlass.catlass_host_run("x.cpp", LAUNCH_HOST.replace("    std::vector<float> hostA(lenA);",
                                                                "    alpha = 2;\n    std::vector<float> hostA(lenA);")) is None


def test_zn_offsets_follow_catlass_layout():
    catlass = load_catlass()
    rows, cols = 32, 48                               # half: C0 = 16 columns, fractals of 16 rows
    flat = np.arange(rows * cols).astype(np.float16)
    got = catlass._catlass_matrix(flat, rows, cols, "zN")
    offset = lambda r, c: (r // 16) * 256 + (c // 16) * (32 * 16) + (r % 16) * 16 + c % 16   # GetOffset of MakeLayout
    want = np.array([[flat[offset(r, c)] for c in range(cols)] for r in range(rows)], np.float64)
    np.testing.assert_array_equal(got, want)


def test_the_branch_the_host_takes_for_the_shape_is_the_one_run():
    catlass = load_catlass()
    code = ("static void Run(const Options& options)\n{\n    uint32_t m = options.problemShape.m();\n"
            "    if (options.problemShape.m() > options.problemShape.n()) {\n        A;\n    } else if (m == 7) {\n        B;\n"
            "    } else {\n        if (flag) {\n            C;\n        }\n        D;\n    }\n}\n")
    body = code.index("{")
    assert catlass._catlass_branch_conditions(code, body, code.index("A;")) == ["(options.problemShape.m() > options.problemShape.n())"]
    assert catlass._catlass_branch_conditions(code, body, code.index("B;")) == ["not (options.problemShape.m() > options.problemShape.n()) and (m == 7)"]
    conds = catlass._catlass_branch_conditions(code, body, code.index("D;"))
    value = lambda c, m, n: catlass._catlass_condition_value(code, c, {"m": m, "n": n, "k": 1}, body, {})
    assert [value(c, 256, 512) for c in conds] == [True] and [value(c, 512, 256) for c in conds] == [False]
    assert value(catlass._catlass_branch_conditions(code, body, code.index("C;"))[1], 1, 2) is None   # `flag`: not decidable
    # the GEMM form: the README's 256 x 512 takes the else branch (m > n is false)
    from test_cube_catlass_forms import GEMM_HOST
    form = catlass.catlass_gemm_run("x.cpp", GEMM_HOST, {"m": 256, "n": 512, "k": 1024})
    assert form["by_shape"] and form["branch_line"] == 19 and "Scheduler31" in form["source"] and "Scheduler30" not in form["source"]


def test_a_readme_shape_beyond_the_budget_is_run_with_fewer_rows():
    """The README's script sets m, n, k once and both the data script and the run take `$m` first: m is cut so that
    m x n x k fits the run's budget, n and k (which carry the example's alignment) stay; anything else is not guessed."""
    catlass = load_catlass()
    readme = "```\nm=860\nk=5712\nn=4535\n\npython3 gen_data.py $m $n $k\n./32_w4a8_matmul $m $n $k $device\n```\n"
    fewer = catlass.catlass_fewer_rows(readme, "32_w4a8_matmul")
    rows = catlass.CATLASS_MAX_PRODUCTS // (4535 * 5712)
    assert f"\nm={rows}\n" in fewer and "\nk=5712\n" in fewer and "\nn=4535\n" in fewer
    assert f"./32_w4a8_matmul {rows} 4535 5712" in catlass.catlass_readme_values(fewer)
    assert catlass.catlass_fewer_rows(readme.replace("gen_data.py $m", "gen_data.py $n"), "32_w4a8_matmul") is None
    assert catlass.catlass_fewer_rows(readme.replace("./32_w4a8_matmul $m", "./32_w4a8_matmul 860"), "32_w4a8_matmul") is None


def test_a_layouts_capacity_is_its_rows_or_columns_times_its_leading_dimension():
    """catlass's RowMajor Capacity() is rows x stride(0) (the cols, or a third constructor argument, 32_w4a8's padded
    `(n + 1) / 2 * 2`); ColumnMajor's is cols x stride(1): the host sizes buffers by them."""
    catlass = load_catlass()
    code = ("static void Run(Options const& options)\n{\n    using LayoutB = layout::RowMajor;\n"
            "    LayoutB layoutB{k, n, (n + 1) / 2 * 2};\n"
            "    layout::ColumnMajor layoutC = layout::ColumnMajor::MakeLayout<half>(m, n);\n    layout::RowMajor layoutA{m, k};\n")
    aliases = catlass._catlass_aliases(code)
    value = lambda e: catlass._catlass_eval(code, e, {"m": 5, "n": 7, "k": 3}, 0, len(code), aliases)
    assert value("layoutB.Capacity() / 2 * sizeof(int8_t)") == 3 * 8 // 2
    assert value("layoutC.Capacity()") == 35 and value("layoutA.Capacity()") == 15
