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
