"""Forms of wangdengkai/AscendOpGenAgent's published tasks (examples/corpus/opgenagent.py), each with a kernel of our own
in the same style (tests/torch_ext_oga): a kernel header that defines K_MAX_SHAPE_DIM (0) before it includes
kernel_operator.h, as AscendC's guide shows for shrinking ShapeInfo: the emulation's K_MAX_SHAPE_DIM is that macro
(8 unless the kernel defines it), so the kernel's file compiles on the host side too, where the torch_npu stand-in
compiles its `_do` launcher; and the task's whole path: kernel file plus pybind11.cpp built by the stand-in, the tiling
moved with `.to(at::kPrivateUse1)`, run from Python and compared with torch. Also the corpus harness's verdicts
for the tasks (opgenagent.verdict, own_criterion, opgen_entries)."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ascendcraft

STANDIN = Path(ascendcraft.__file__).parent / "runtime" / "torch_npu_standin"
EXT = Path(__file__).parent / "torch_ext_oga"
REPO = Path(ascendcraft.__file__).parent.parent
sys.path.insert(0, str(REPO / "examples" / "corpus"))
import opgenagent  # noqa: E402 - the corpus harness of these tasks


def test_k_max_shape_dim_is_a_macro_the_kernel_may_set(tmp_path):
    "A kernel that defines K_MAX_SHAPE_DIM before kernel_operator.h compiles and sees its own value; else it is 8."
    from ascendcraft.config import load_settings
    from ascendcraft.emu import INCLUDE_DIR
    cxx = load_settings().cxx
    src = tmp_path / "k.cpp"
    for defined, want in (("#define K_MAX_SHAPE_DIM 0\n", 0), ("", 8)):
        src.write_text(defined + '#include "kernel_operator.h"\n'
                       f"static_assert(K_MAX_SHAPE_DIM == {want}, \"K_MAX_SHAPE_DIM\");\n"
                       "AscendC::ShapeInfo info;\n"
                       "static_assert(sizeof(info.shape) == 8 * sizeof(uint32_t), \"the emulator's ShapeInfo layout\");\n")
        made = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", f"-I{INCLUDE_DIR}", str(src)], capture_output=True,
                              text=True)
        assert made.returncode == 0, made.stderr[-2000:]


def test_shape_info_keeps_its_dimensions_when_the_kernel_shrinks_the_macro(tmp_path):
    "GetShapeSize over a SetShapeInfo'd tensor is the same whatever K_MAX_SHAPE_DIM the kernel set."
    import numpy as np
    from ascendcraft.emu import GM, build, run
    src = textwrap.dedent("""
        #define K_MAX_SHAPE_DIM 0
        #include "kernel_operator.h"
        extern "C" __global__ __aicore__ void shape_size(GM_ADDR out)
        {
            AscendC::TPipe pipe;
            AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            AscendC::LocalTensor<float> t = buf.Get<float>();
            const uint32_t shape[3] = {2, 3, 4};
            t.SetShapeInfo(AscendC::ShapeInfo(3, shape));
            AscendC::GlobalTensor<int32_t> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 8);
            g.SetValue(0, static_cast<int32_t>(AscendC::GetShapeSize(t.GetShapeInfo())));
            g.SetValue(1, K_MAX_SHAPE_DIM);
            AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                               AscendC::DcciDst::CACHELINE_OUT>(g);
        }
    """)
    kb = build({"shape_size.cpp": src}, "shape_size")
    assert kb.ok, kb.log[-2000:]
    r = run(kb, [GM("out", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, [d.message for d in r.errors]
    assert int(r.outputs["out"][0]) == 24


KSPLIT = r'''#include "kernel_operator.h"
using namespace AscendC;
// c [16, 32] = a [16, 64] x b [64, 32] in two k steps of 32, as an agent's MatmulKernel splits a k-tile batch held in L1:
// a and b in L1 as Nz, each step's block of a to L0A and of b to L0B by LoadData 3D from an offset into the batch, b's
// feature map declared as wide as the whole batch (l1W = `stride`, K when right) though the block reads only its part.
extern "C" __global__ __aicore__ void ksplit_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t stride)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr uint32_t M = 16, N = 32, K = 64, BK = 32, C0 = 16;
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, M * K * sizeof(half));
    pipe.InitBuffer(qb1, 1, K * N * sizeof(half));
    pipe.InitBuffer(qa2, 1, M * BK * sizeof(half));
    pipe.InitBuffer(qb2, 1, BK * N * sizeof(half));
    pipe.InitBuffer(qc, 1, M * N * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    LocalTensor<half> a1 = qa1.AllocTensor<half>();
    LocalTensor<half> b1 = qb1.AllocTensor<half>();
    Nd2NzParams pa;
    pa.ndNum = 1; pa.nValue = M; pa.dValue = K; pa.srcNdMatrixStride = 0; pa.srcDValue = K;
    pa.dstNzC0Stride = M; pa.dstNzNStride = 1; pa.dstNzMatrixStride = 0;
    DataCopy(a1, aGm, pa);
    Nd2NzParams pb;
    pb.ndNum = 1; pb.nValue = K; pb.dValue = N; pb.srcNdMatrixStride = 0; pb.srcDValue = N;
    pb.dstNzC0Stride = K; pb.dstNzNStride = 1; pb.dstNzMatrixStride = 0;
    DataCopy(b1, bGm, pb);
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    a1 = qa1.DeQue<half>();
    b1 = qb1.DeQue<half>();
    LocalTensor<float> c1 = qc.AllocTensor<float>();
    for (uint32_t i = 0; i < K / BK; ++i) {
        LocalTensor<half> a2 = qa2.AllocTensor<half>();
        LoadData3DParamsV2<half> la;
        la.l1H = 1; la.l1W = M; la.channelSize = BK; la.kExtension = BK; la.mExtension = M;
        la.strideH = 1; la.strideW = 1; la.filterH = 1; la.filterW = 1; la.dilationFilterH = 1; la.dilationFilterW = 1;
        LoadData(a2, a1[i * M * BK], la);
        qa2.EnQue(a2);
        LocalTensor<half> b2 = qb2.AllocTensor<half>();
        LoadData3DParamsV2<half> lb;
        lb.l1H = 1; lb.l1W = stride; lb.channelSize = N; lb.kExtension = N; lb.mExtension = BK;
        lb.strideH = 1; lb.strideW = 1; lb.filterH = 1; lb.filterW = 1; lb.dilationFilterH = 1; lb.dilationFilterW = 1;
        LoadData(b2, b1[i * BK * C0], lb);
        qb2.EnQue(b2);
        a2 = qa2.DeQue<half>();
        b2 = qb2.DeQue<half>();
        MmadParams mp;
        mp.m = M; mp.n = N; mp.k = BK; mp.cmatrixInitVal = i == 0;
        Mmad(c1, a2, b2, mp);
        qa2.FreeTensor(a2);
        qb2.FreeTensor(b2);
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    qc.EnQue(c1);
    c1 = qc.DeQue<float>();
    FixpipeParamsV220 fp;
    fp.nSize = N; fp.mSize = M; fp.srcStride = M; fp.dstStride = N; fp.ndNum = 1; fp.srcNdStride = 0; fp.dstNdStride = 0;
    Fixpipe(cGm, c1, fp);
    qc.FreeTensor(c1);
}
'''


def _ksplit(tmp_path, stride):
    import numpy as np
    from ascendcraft.emu import GM, Scalar, build, run
    src = tmp_path / "ksplit.cpp"
    src.write_text(KSPLIT)
    kb = build(src, entry="ksplit_matmul")
    assert kb.ok, kb.log[-2000:]
    rng = np.random.default_rng(7)
    a = rng.integers(-3, 4, (16, 64)).astype(np.float16)
    b = rng.integers(-3, 4, (64, 32)).astype(np.float16)
    r = run(kb, [GM("a", a), GM("b", b), GM("c", np.empty((16, 32), np.float32), "out"), Scalar(stride, "uint32_t")],
            block_dim=1)
    return r, a.astype(np.float64) @ b.astype(np.float64)


def test_load3d_block_of_a_wider_feature_map_reads_only_its_part(tmp_path):
    """The second step's b block starts 32 rows into b's L1 batch with l1W = 64: its reads end at the buffer's end, though
    the 64-wide map from that start would not fit; the product is a x b (AscendOpGenAgent matmul_tile.h's
    LoadNzL1ToZnL0B was stopped as l1-overflow)."""
    import numpy as np
    r, want = _ksplit(tmp_path, 64)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["c"], want)


def test_load3d_that_reads_past_its_buffer_still_stops(tmp_path):
    "With l1W = 80 the block's second channel group lies past b's L1 buffer: l1-overflow, naming the operand."
    r, _ = _ksplit(tmp_path, 80)
    assert not r.ok
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "l1-overflow" and "src operand" in err.message, err.render()


DUP_ROWS = r'''#include "kernel_operator.h"
// y = 2 x (+ the writer's GetBlockIdx() when `mark`), rows of 8 floats shared out over `workers` = the launch's blocks
// while a MIX 1:2 launch has twice as many vector cores: the second half of the AIVs repeats rows the first half writes,
// as AscendOpGenAgent's avg_pool3_d kernels do (workerCount = blockDim, workerId = GetBlockIdx()).
extern "C" __global__ __aicore__ void dup_rows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t workers, uint32_t mark)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 8 * sizeof(float));
        AscendC::LocalTensor<float> t = buf.Get<float>();
        AscendC::GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer((__gm__ float *)x, rows * 8);
        yg.SetGlobalBuffer((__gm__ float *)y, rows * 8);
        for (uint32_t r = AscendC::GetBlockIdx(); r < rows; r += workers) {
            AscendC::DataCopy(t, xg[r * 8], 8);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
            AscendC::Muls(t, t, 2.0f, 8);
            if (mark) AscendC::Adds(t, t, static_cast<float>(AscendC::GetBlockIdx()), 8);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
            AscendC::DataCopy(yg[r * 8], t, 8);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
    }
}
'''


def _dup_rows(tmp_path, mark):
    import numpy as np
    from ascendcraft.emu import GM, Scalar, build, run
    src = tmp_path / "dup_rows.cpp"
    src.write_text(DUP_ROWS)
    kb = build(src, entry="dup_rows")
    assert kb.ok, kb.log[-2000:]
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    r = run(kb, [GM("x", x), GM("y", np.empty((8, 8), np.float32), "out"), Scalar(8, "uint32_t"), Scalar(2, "uint32_t"),
                 Scalar(mark, "uint32_t")], block_dim=2)
    return r, x


def test_vector_cores_of_two_groups_writing_the_same_values_is_no_overlap(tmp_path):
    """AIV 2 (group 1) repeats rows 2, 4, 6 that AIV 0 (group 0) writes, with the same values: whichever lands last the
    NPU holds them, so it runs and is right, as between the blocks of a vector-only launch."""
    import numpy as np
    r, x = _dup_rows(tmp_path, 0)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)


def test_vector_cores_of_two_groups_writing_different_values_still_overlap(tmp_path):
    r, _ = _dup_rows(tmp_path, 1)
    assert not r.ok
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "cross-core-overlap" and "'y'" in err.message, err.render()


@pytest.mark.slow   # builds the extension: g++ on torch's headers, minutes on a cold cache
def test_agent_style_extension_builds_and_matches_torch(tmp_path):
    "The kernel file (kernel + `_do` launcher) and pybind11.cpp built by the stand-in, run from Python: y == x * 1.5."
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(STANDIN), str(REPO), os.environ.get("PYTHONPATH", "")]))
    made = subprocess.run([sys.executable, "-m", "torch_npu._ascendcraft_build", "build-ext", "--name", "_oga_scale_ext",
                           str(EXT / "oga_scale.cpp"), str(EXT / "pybind11.cpp"), "-o", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800)
    assert made.returncode == 0, made.stdout + made.stderr[-3000:]
    (tmp_path / "run.py").write_text(textwrap.dedent("""
        import sys, torch, torch_npu
        sys.path.insert(0, ".")
        import _oga_scale_ext
        x = torch.arange(256, dtype=torch.float32) - 100.0
        y = _oga_scale_ext.run_scale(x.npu(), 1.5).cpu()
        assert torch.equal(y, x * 1.5), (y - x * 1.5).abs().max()
        print("ok", y[:4].tolist(), y[-4:].tolist())
    """))
    ran = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr[-3000:]
    assert "ok [-150.0, -148.5, -147.0, -145.5] [228.0, 229.5, 231.0, 232.5]" in ran.stdout
    assert "oga_scale_custom<<<2>>> ran on the emulator" in ran.stderr


def test_npu_dynamic_quant_is_the_documented_per_token_int8_quantisation(tmp_path):
    "The stand-in's torch_npu.npu_dynamic_quant (a reference op the tasks' Models call): scale = max|row| / 127."
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(STANDIN), str(REPO), os.environ.get("PYTHONPATH", "")]))
    (tmp_path / "q.py").write_text(textwrap.dedent("""
        import torch, torch_npu
        x = torch.tensor([[1.0, -2.0, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0], [3.0, 1.0, -1.0, 2.0]]).npu()
        y, scale = torch_npu.npu_dynamic_quant(x)
        assert y.is_npu and y.dtype == torch.int8 and scale.dtype == torch.float32 and scale.shape == (3,)
        print(y.cpu().tolist(), [round(v * 127, 4) for v in scale.cpu().tolist()])
        y2, _ = torch_npu.npu_dynamic_quant(x, smooth_scales=torch.tensor([2.0, 1.0, 1.0, 1.0]).npu())
        print(y2.cpu().tolist()[0])
        try:
            torch_npu.npu_dynamic_quant(x, group_index=torch.tensor([1]))
        except NotImplementedError as e:
            print("refused:", e)
    """))
    ran = subprocess.run([sys.executable, "q.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.splitlines()
    # row 0: 1 / (2 / 127) = 63.5 -> 64 (ties to even), -127, 31.75 -> 32, 0; an all-zero row quantises to zeros
    assert lines[0] == "[[64, -127, 32, 0], [0, 0, 0, 0], [127, 42, -42, 85]] [2.0, 0.0, 3.0]"
    assert lines[1] == "[127, -127, 32, 0]"          # smoothed row [2, -2, 0.5, 0]: max 2
    assert lines[2].startswith("refused: torch_npu stand-in: npu_dynamic_quant with group_index")


# ---- the corpus harness's verdicts (examples/corpus/opgenagent.py) ------------------------------------------------------
def test_entries_are_the_task_folders_with_kernels_binding_and_models():
    files = ["archive_tasks/a/kernel/pybind11.cpp", "archive_tasks/a/kernel/a.cpp", "archive_tasks/a/model.py",
             "archive_tasks/a/model_new_ascendc.py", "archive_tasks/b/model.py", "archive_tasks/b/model_new_tilelang.py",
             "archive_tasks/c/kernel/pybind11.cpp", "archive_tasks/c/model.py"]
    got = opgenagent.opgen_entries(files, lambda path, kind: (path, kind))
    assert got == [("archive_tasks/a", "opgen-task")]


def test_own_criterion_is_the_agents_relative_error_rule():
    import torch
    want = torch.linspace(1, 2, 1000, dtype=torch.float32)
    assert opgenagent.own_criterion(want * (1 + 2 ** -15), want)           # well under 2^-13 relative
    assert not opgenagent.own_criterion(want * (1 + 2 ** -12), want)       # over it everywhere
    assert not opgenagent.own_criterion(want.half(), want.half() * 2)
    assert opgenagent.own_criterion(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([2, 2], dtype=torch.int8))
    assert not opgenagent.own_criterion(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([2, 2], dtype=torch.int32))
    assert not opgenagent.own_criterion(torch.tensor([float("nan")]), torch.tensor([1.0]))


def test_verdicts_of_the_cases():
    ok = dict(case=0, status="pass", mkb=True, own=True, detail="ok")
    off = dict(case=1, status="fail", mkb=False, own=True, detail="output 0 off")
    err = dict(case=2, status="error", mkb=False, own=False, detail="RuntimeError: the kernel 'k' stopped")
    big = dict(case=3, status="skipped", mkb=False, own=False, detail="over the size limit")
    launch = "ascendcraft: k<<<4>>> ran on the emulator (0.1 s)\n"
    assert opgenagent.verdict([ok], 0, launch)["match"] == "pass"
    v = opgenagent.verdict([ok, off], 0, launch * 2)
    assert v["match"] == "mismatch" and "1/2 cases pass MKB's allclose, 2/2 the agent's own" in v["match_detail"]
    assert opgenagent.verdict([ok, err], 0, launch)["match"] == "run-error"
    assert "skipped cases [3]" in opgenagent.verdict([ok, big], 0, launch)["match_detail"]
    assert opgenagent.verdict([big], 0, "")["match"] == "too-large"
    refused = dict(case=4, status="no-reference", mkb=False, own=False,
                   detail="the reference Model raises RuntimeError: index -3 is out of bounds")
    v = opgenagent.verdict([ok, refused], 0, launch)
    assert v["match"] == "pass" and "no reference for cases [4] (their own Model raises: RuntimeError" in v["match_detail"]
    assert opgenagent.verdict([refused], 0, "")["match"] == "no-reference"
    assert opgenagent.verdict([ok], 0, "")["match"] == "no-reference"   # a pass without a launch is no pass
    assert opgenagent.verdict([], 1, "Traceback\nImportError: x")["match"] == "run-error"
