"""The Matmul API names of the asc-devkit API reference that the emulated headers lacked (docs/corpus.md, thirty-ninth
round, mmnames): the host tiling's SetSplitK, EnableL1BankConflictOptimise, BatchMatmulTiling::GetCoreNum and the six
Matmul*GetTmpBufSize(V2) size queries; the kernel side's SetTensorScaleA / SetTensorScaleB (Ascend 950 only: a compile
error naming that rule) and SetAntiQuantScalar / SetAntiQuantVector (not on Atlas A2: on the cube core's Matmul a
run-time error naming the rule, as CANN's asserts; the vector core's Matmul client has no such member, a compile error).
The official headers agree on each kernel (api-oracle check.sh at asc-devkit 0da921b, GET_TILING_DATA written out as a
struct copy): the split-K kernel and the cube-only anti-quantisation ACCEPT, the MX scales (AIC and AIV) and the
anti-quantisation on the vector core REJECT ("has no member named")."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, Tiling, build, run

from test_emu_cube import TCUBE_FIELDS

RNG = np.random.default_rng(39)

HOST = r'''#include <cstdio>
#include <cstdint>
#include "tiling/tiling_api.h"
using namespace matmul_tiling;
static void fp16(MatmulApiTilingBase& t, int m, int n, int k, TPosition aPos = TPosition::GM) {
    t.SetAType(aPos, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
    t.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    t.SetBias(false);
}
static void print(const char* name, const optiling::TCubeTiling& t) {
    std::printf("%s", name);
    for (int i = 0; i < 50; ++i) std::printf(" %d", reinterpret_cast<const int32_t*>(&t)[i]);
    std::printf("\n");
}
int main() {
BODY
}
'''


def host(tmp_path, body: str) -> dict[str, list[int]]:
    "Compile and run a host program against the emulated tiling_api.h; each output line is a name and its integers."
    src = tmp_path / "host.cpp"
    src.write_text(HOST.replace("BODY", body))
    exe = tmp_path / "host"
    cc = subprocess.run(["g++", "-std=c++17", f"-I{INCLUDE_DIR}", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: [int(v) for v in line.split()[1:]] for line in out.splitlines()}


def fields(values: list[int]) -> dict[str, int]:
    return dict(zip(TCUBE_FIELDS, values))


# One core's share of C = A x B: core i takes the (m, n, k) tile of the multi-core split (M first, then N, then K) and
# adds its product into C, which starts at zero (enAtomic: the K shares of one tile add up there).
SPLIT_K_KERNEL = r'''
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void matmul_split_k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    const int mDim = (t.M + t.singleCoreM - 1) / t.singleCoreM, nDim = (t.N + t.singleCoreN - 1) / t.singleCoreN;
    const int idx = GetBlockIdx();
    const int mIdx = idx % mDim, nIdx = (idx / mDim) % nDim, kIdx = idx / (mDim * nDim);
    const int m0 = mIdx * t.singleCoreM, n0 = nIdx * t.singleCoreN, k0 = kIdx * t.singleCoreK;
    if (m0 >= t.M || n0 >= t.N || k0 >= t.Ka) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm[m0 * t.Ka + k0]);
    mm.SetTensorB(bGm[k0 * t.N + n0]);
    const int tailM = t.M - m0 < t.singleCoreM ? t.M - m0 : t.singleCoreM;
    const int tailN = t.N - n0 < t.singleCoreN ? t.N - n0 : t.singleCoreN;
    const int tailK = t.Ka - k0 < t.singleCoreK ? t.Ka - k0 : t.singleCoreK;
    mm.SetTail(tailM, tailN, tailK);
    mm.IterateAll(cGm[m0 * t.N + n0], 1);
    mm.End();
}
'''


def test_set_split_k_is_enable_multi_core_split_k_and_its_k_shares_add_up_to_numpy(tmp_path):
    """SetSplitK(true) is EnableMultiCoreSplitK(true) under its older name: the API reference's split-K case (16 x 16 x
    1024 on 24 cores) takes two cores of K = 512 each, whose products, added into C, are A x B."""
    m, n, k = 16, 16, 1024
    out = host(tmp_path, f'''
    for (int mode = 0; mode < 3; ++mode) {{
        MultiCoreMatmulTiling t;
        t.SetDim(24);
        fp16(t, {m}, {n}, {k});
        if (mode == 1) t.SetSplitK(true);
        if (mode == 2) t.EnableMultiCoreSplitK(true);
        optiling::TCubeTiling d;
        if (t.GetTiling(d) != 0) return 1;
        print(mode == 0 ? "off" : mode == 1 ? "setsplitk" : "enable", d);
    }}''')
    on, off = fields(out["setsplitk"]), fields(out["off"])
    assert out["setsplitk"] == out["enable"]
    assert (on["usedCoreNum"], on["singleCoreK"]) == (2, 512) and (off["usedCoreNum"], off["singleCoreK"]) == (1, 1024)
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    kernel = build({"split_k.cpp": SPLIT_K_KERNEL})
    assert kernel.ok, "\n".join(map(str, kernel.diagnostics))
    tiling = np.array(out["setsplitk"], np.int32).tobytes()
    r = run(kernel, [GM("a", a), GM("b", b), GM("c", np.zeros((m, n), np.float32), "inout"),
                     GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=on["usedCoreNum"])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-3)


def test_tmp_buf_size_queries_keep_the_largest_use_of_each_buffer(tmp_path):
    """The six size queries after GetTiling: L1 and L0C as the tiling uses them (its shareL1Size / shareL0CSize), UB the
    larger of shareUbSize and twice transLength; each the larger of that and what the struct held, so that one struct
    collects several Matmuls (ops-transformer's prompt_flash_attention sizes its two Matmuls' buffers so)."""
    out = host(tmp_path, '''
    MatmulApiTiling small, large;
    fp16(small, 32, 32, 64);
    fp16(large, 128, 256, 512);
    optiling::TCubeTiling s, l;
    if (small.GetTiling(s) != 0 || large.GetTiling(l) != 0) return 1;
    print("small", s);
    print("large", l);
    SysTilingTempBufSize one;
    MatmulGetTmpBufSize(s, one);
    std::printf("one %d %d %d\\n", one.l1Size, one.l0cSize, one.ubSize);
    SysTilingTempBufSize both;
    MatmulGetTmpBufSizeV2(l, both);
    MultiCoreMatmulGetTmpBufSize(s, both);
    std::printf("both %d %d %d\\n", both.l1Size, both.l0cSize, both.ubSize);
    AscendC::tiling::TCubeTiling u = s;
    u.shareUbSize = 1000;
    u.transLength = 700;
    SysTilingTempBufSize ub;
    ub.l1Size = 1 << 30;
    MultiCoreMatmulGetTmpBufSizeV2(u, ub);
    BatchMatmulGetTmpBufSize(u, ub);
    std::printf("ub %d %d %d\\n", ub.l1Size, ub.l0cSize, ub.ubSize);
    u.transLength = 300;
    SysTilingTempBufSize ub2;
    std::printf("ret %d\\n", BatchMatmulGetTmpBufSizeV2(u, ub2));
    std::printf("ub2 %d %d %d\\n", ub2.l1Size, ub2.l0cSize, ub2.ubSize);''')
    s, l = fields(out["small"]), fields(out["large"])

    def l1(t):   # depthA1 base blocks of A and depthB1 of B, fp16, no bias
        return 2 * (t["depthA1"] * t["baseM"] * t["baseK"] + t["depthB1"] * t["baseN"] * t["baseK"])
    assert l1(l) > l1(s) and l["baseM"] * l["baseN"] > s["baseM"] * s["baseN"]
    assert out["one"] == [l1(s), s["baseM"] * s["baseN"] * 4, 0]
    assert out["both"] == [l1(l), l["baseM"] * l["baseN"] * 4, 0]           # the larger of the two Matmuls
    assert out["ub"] == [1 << 30, s["baseM"] * s["baseN"] * 4, 1400]       # 2 x transLength beats shareUbSize
    assert out["ret"] == [0] and out["ub2"][2] == 1000                       # shareUbSize beats 2 x transLength


def bank_conflict_rule(t: dict[str, int], l1: int = 512 * 1024) -> bool:
    """The API reference's rule for fp16 A and B in GM, ND, not transposed, MDL: each operand's step blocks go into L1's
    upper half, and into the lower half too when they are double-buffered (depth / step - 1 odd); a float bias row too."""
    upper, lower = t["baseN"] * 4 * t["isBias"], l1 // 2
    for rows, cols, depth, step in ((t["baseM"], t["baseK"], t["depthA1"], t["stepKa"] * t["stepM"]),
                                    (t["baseK"], t["baseN"], t["depthB1"], t["stepKb"] * t["stepN"])):
        size = rows * cols * 2 * step
        upper += size
        if (depth // step - 1) % 2:
            lower += size
    return upper <= l1 // 2 and lower <= l1


def test_l1_bank_conflict_optimise_answers_by_the_tiling_it_judges(tmp_path):
    """EnableL1BankConflictOptimise after GetTiling: the rule restated in Python gives the same answer for each tiling,
    both answers occur, and it is false for the normal (non-MDL) configuration, for an A in TSCM and before GetTiling.
    The false one: the API reference's NBuffer33 case (A's 2 x 3 and B's 3 base blocks whole in L1, single-buffered)
    on a platform of 320 KB of L1, whose upper half cannot hold them."""
    shapes = [(32, 32, 64, 512, 0), (128, 256, 512, 512, 0), (512, 512, 8192, 512, 0), (128, 30720, 1024, 512, 0),
              (256, 512, 192, 512, 1), (256, 512, 192, 320, 1)]
    body = "".join(f'''
    {{
        PlatformInfo p;
        p.l1Size = {l1} * 1024;
        MultiCoreMatmulTiling t(p);
        t.SetDim(24);
        fp16(t, {m}, {n}, {k});
        if ({nb33}) {{
            t.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
            t.EnableBias(true);
            t.SetMatmulConfigParams(MatmulConfigParams(1, false, ScheduleType::N_BUFFER_33, MatrixTraverse::NOSET, false));
        }}
        optiling::TCubeTiling d;
        if (t.GetTiling(d) != 0) return 1;
        print("t{i}", d);
        std::printf("ok{i} %d\\n", (int)t.EnableL1BankConflictOptimise());
    }}''' for i, (m, n, k, l1, nb33) in enumerate(shapes))
    body += '''
    {
        MatmulApiTiling t;
        fp16(t, 64, 64, 64);
        std::printf("before %d\\n", (int)t.EnableL1BankConflictOptimise());
        optiling::TCubeTiling d;
        if (t.GetTiling(d) != 0) return 1;
        std::printf("mdl %d\\n", (int)t.EnableL1BankConflictOptimise());
        t.SetMatmulConfigParams(0);
        if (t.GetTiling(d) != 0) return 1;
        std::printf("norm %d\\n", (int)t.EnableL1BankConflictOptimise());
        MatmulApiTiling tscm;
        fp16(tscm, 64, 64, 64, TPosition::TSCM);
        if (tscm.GetTiling(d) != 0) return 1;
        std::printf("tscm %d\\n", (int)tscm.EnableL1BankConflictOptimise());
    }'''
    out = host(tmp_path, body)
    answers = [bool(out[f"ok{i}"][0]) for i in range(len(shapes))]
    assert answers == [bank_conflict_rule(fields(out[f"t{i}"]), s[3] * 1024) for i, s in enumerate(shapes)]
    assert answers[-2:] == [True, False], answers
    assert (out["before"], out["mdl"], out["norm"], out["tscm"]) == ([0], [1], [0], [0])


def test_batch_matmul_tiling_get_core_num_counts_the_split(tmp_path):
    "BatchMatmulTiling::GetCoreNum's five counts: the cores used, M and N over the single-core shape, the batch axes 0."
    out = host(tmp_path, '''
    BatchMatmulTiling t;
    fp16(t, 96, 64, 64);
    t.SetFixSplit(32, 32, 32);
    optiling::TCubeTiling d;
    if (t.GetTiling(d) != 0) return 1;
    print("t", d);
    int32_t dim = -1, mDim = -1, nDim = -1, bm = -1, bn = -1;
    t.GetCoreNum(dim, mDim, nDim, bm, bn);
    std::printf("cores %d %d %d %d %d\\n", dim, mDim, nDim, bm, bn);''')
    t = fields(out["t"])
    assert out["cores"] == [t["usedCoreNum"], -(-96 // t["singleCoreM"]), -(-64 // t["singleCoreN"]), 0, 0]
    assert out["cores"][:3] == [1, 1, 1]


MM_KERNEL = r'''
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_names(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(t, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bGm.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cGm.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    TPipe pipe;
    Matmul<AType, AType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    EXTRA
    mm.IterateAll(cGm);
    mm.End();
}
'''


@pytest.mark.parametrize("call", ["mm.SetTensorScaleA(aGm);", "mm.SetTensorScaleB(bGm, true);"])
def test_mx_scales_are_a_compile_error_naming_the_950_rule(call):
    "SetTensorScaleA / B (the MX Matmul, Ascend 950 only): the kernel does not compile, and the error says why."
    b = build({"scale.cpp": MM_KERNEL.replace("EXTRA", call)})
    assert not b.ok
    text = "\n".join(map(str, b.diagnostics))
    api = call.split("(")[0].split(".")[1]
    assert f"Matmul::{api}" in text and "Ascend 950 only" in text and "Atlas A2" in text, text


ANTI_QUANT = ["mm.SetAntiQuantScalar(static_cast<half>(1.0f), static_cast<half>(0.0f));",
              "mm.SetAntiQuantVector(off, scale);"]


def anti_quant_kernel(call: str) -> str:
    setup = ("TBuf<TPosition::VECCALC> qb; pipe.InitBuffer(qb, 256); LocalTensor<half> off = qb.Get<half>(64); "
             "LocalTensor<half> scale = qb.Get<half>(64);\n    " if "Vector" in call else "")
    return MM_KERNEL.replace("EXTRA", setup + call)


@pytest.mark.parametrize("call", ANTI_QUANT)
def test_anti_quant_on_the_vector_cores_matmul_is_a_compile_error(call):
    "The mixed form's Matmul client (no ASCENDC_CUBE_ONLY) has no SetAntiQuantScalar / Vector on A2: the error says so."
    b = build({"antiquant_aiv.cpp": anti_quant_kernel(call).replace("#define ASCENDC_CUBE_ONLY\n", "")})
    assert not b.ok
    text = "\n".join(map(str, b.diagnostics))
    api = call.split("(")[0].split(".")[1]
    assert f"Matmul::{api}" in text and "vector core's Matmul" in text and "Atlas A2" in text, text


@pytest.mark.parametrize("call", ANTI_QUANT)
def test_anti_quant_stops_at_its_line_naming_the_a2_rule(call):
    "SetAntiQuantScalar / Vector compile on the cube core (as CANN's A2 Matmul does) and stop at their line: not on A2."
    source = anti_quant_kernel(call)
    b = build({"antiquant.cpp": source})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    m = n = k = 32
    tiling = np.array([dict(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                            baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, stepKa=1, stepKb=1, dbL0A=2,
                            dbL0B=2, dbL0C=1).get(f, 0) for f in TCUBE_FIELDS], np.int32).tobytes()
    r = run(b, [GM("a", np.ones((m, k), np.float16)), GM("b", np.ones((k, n), np.float16)),
                GM("c", np.zeros((m, n), np.float32), "out"), GM("workspace", np.zeros(16, np.uint8), "workspace"),
                Tiling(tiling)], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    line = next(i for i, s in enumerate(source.splitlines(), 1) if call in s)
    assert not r.ok and errs[0].kind == "matmul-usage" and errs[0].line == line
    assert "not supported on Atlas A2" in errs[0].message and call.split("(")[0].split(".")[1] in errs[0].message
