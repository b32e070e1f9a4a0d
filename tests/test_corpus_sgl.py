"""The corpus collector of sgl-project/sgl-kernel-npu: the kernel sources of its csrc/CMakeLists.txt's ascendc_library
targets (kind kernel-file: kernels the host code launches by name, no launch in the file), with each target's include
folders and definitions as its options' defaults build them, and the attentions op projects; how a kernel-file entry is
materialised (the files it reaches at their repository paths) and built. A small one-commit repository; no mirror."""
from pathlib import Path

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_sgl")


CMAKE = """# the kernels
string(TOLOWER "${SOC_VERSION}" _soc)
if(NOT DEFINED SGL_KERNEL_ENABLE_A3_ONLY_OPS)
    if(_soc MATCHES "^ascend950")
        set(SGL_KERNEL_ENABLE_A3_ONLY_OPS OFF)
    else()
        set(SGL_KERNEL_ENABLE_A3_ONLY_OPS ON)
    endif()
endif()
if(SGL_KERNEL_ENABLE_A3_ONLY_OPS)
    add_compile_definitions(SGL_KERNEL_ENABLE_A3_ONLY_OPS)
endif()
set(NO_WORKSPACE_KERNEL_SRCS
    ${PROJECT_OP_SRC_BASE}/scale/op_kernel/scale_kernel.cpp
)
if(SGL_KERNEL_ENABLE_A3_ONLY_OPS)
    list(APPEND NO_WORKSPACE_KERNEL_SRCS ${PROJECT_OP_SRC_BASE}/a3/op_kernel/a3_kernel.cpp)
endif()
if(BUILD_CATLASS_MODULE AND SGL_KERNEL_ENABLE_A3_ONLY_OPS)
    list(APPEND NO_WORKSPACE_KERNEL_SRCS ${PROJECT_OP_SRC_BASE}/catlass/op_kernel/mm_kernel.cpp)
endif()
ascendc_library(no_workspace_kernel STATIC ${NO_WORKSPACE_KERNEL_SRCS})
ascendc_include_directories(no_workspace_kernel PRIVATE
    ${PROJECT_OP_SRC_BASE}/utils/kernel
)
if(SGL_KERNEL_ENABLE_A3_ONLY_OPS)
    ascendc_library(pto_kernel STATIC ${PROJECT_OP_SRC_BASE}/pto/op_kernel/pto_kernel.cpp)
    ascendc_include_directories(pto_kernel PRIVATE ${PROJECT_SOURCE_DIR}/third_party/pto-isa/include ${ASCEND_INCLUDE_DIR})
endif()
ascendc_library(workspace_kernel STATIC ${PROJECT_OP_SRC_BASE}/ws/op_kernel/ws_kernel.cpp)
ascendc_compile_definitions(workspace_kernel PRIVATE
    -DHAVE_WORKSPACE
    -DHAVE_TILING
)
"""

SCALE = """#include "kernel_operator.h"
#include "../op_host/scale_tiling.h"
#include "scale_math.h"
#include "scale_impl.cpp"
extern "C" __global__ __aicore__ void scale_half(GM_ADDR x, GM_ADDR y) { Run<half>(x, y); }
extern "C" __global__ __aicore__ void scale_float(GM_ADDR x, GM_ADDR y) { Run<float>(x, y); }
"""

IMPL = """#pragma once
#if defined(SGL_KERNEL_ENABLE_A3_ONLY_OPS)
template <typename T> __aicore__ inline void Run(GM_ADDR x, GM_ADDR y) {
    AscendC::GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)x, N);
    yg.SetGlobalBuffer((__gm__ T*)y, N);
    for (int i = 0; i < N; ++i) yg.SetValue(i, (T)((float)xg.GetValue(i) * Twice(1.0f)));
}
#endif
#if __CCE_AICORE__ == 310
#include "arch35/scale_950.h"
#endif
"""

SGL = {
    "csrc/CMakeLists.txt": CMAKE,
    "csrc/scale/op_kernel/scale_kernel.cpp": SCALE,
    "csrc/scale/op_kernel/scale_impl.cpp": IMPL,
    "csrc/scale/op_kernel/arch35/scale_950.h": "#error Ascend 950 only\n",
    "csrc/scale/op_host/scale_tiling.h": "#pragma once\nconstexpr int N = 8;\n",
    "csrc/scale/op_host/scale.cpp": "// the torch binding: EXEC_KERNEL_CMD(scale_half, ...)\n",
    "csrc/utils/kernel/scale_math.h": "#pragma once\n__aicore__ inline float Twice(float v) { return 2.0f * v; }\n",
    "csrc/utils/kernel/unused.h": "#error never included\n",
    "csrc/a3/op_kernel/a3_kernel.cpp": "//\n",
    "csrc/catlass/op_kernel/mm_kernel.cpp": "//\n",
    "csrc/pto/op_kernel/pto_kernel.cpp": "#include <pto/pto-inst.hpp>\n",
    "csrc/ws/op_kernel/ws_kernel.cpp": "//\n",
    "csrc/attentions/csrc/ops/fa/op_host/fa_def.cpp": 'this->AICore().AddConfig("ascend910b");\n',
    "csrc/attentions/csrc/ops/fa/op_kernel/fa.cpp": "//\n",
    "csrc/attentions/csrc/ops/fa950/op_host/fa950_def.cpp": 'this->AICore().AddConfig("ascend950");\n',
    "csrc/attentions/csrc/ops/fa950/op_kernel/fa950.cpp": "//\n",
    "csrc/deepep/ops/op_host/dispatch.cpp": 'this->AICore().AddConfig("ascend910b");\n',
    "csrc/deepep/ops/op_kernel/dispatch.cpp": "//\n",
}


def test_sgl_collects_the_kernel_files_of_the_default_build_with_their_targets_folders_and_definitions(tmp_path):
    got = {e["path"]: e for e in corpus.collect("sgl-project/sgl-kernel-npu", git_repo(tmp_path, SGL)[0])}
    assert sorted(got) == ["csrc/a3/op_kernel/a3_kernel.cpp", "csrc/attentions/csrc/ops/fa",
                           "csrc/scale/op_kernel/scale_kernel.cpp", "csrc/ws/op_kernel/ws_kernel.cpp"]
    scale = got["csrc/scale/op_kernel/scale_kernel.cpp"]
    assert (scale["kind"], scale["target"], scale["include"], scale["defines"]) == \
        ("kernel-file", "no_workspace_kernel", ["csrc/utils/kernel"], "-DSGL_KERNEL_ENABLE_A3_ONLY_OPS")
    assert got["csrc/ws/op_kernel/ws_kernel.cpp"]["defines"] == "-DSGL_KERNEL_ENABLE_A3_ONLY_OPS -DHAVE_WORKSPACE -DHAVE_TILING"
    fa = got["csrc/attentions/csrc/ops/fa"]
    assert (fa["kind"], fa["source"]) == ("op-project", corpus.SGL_ATTENTIONS_SOURCE)
    assert "kernel-file" in corpus.KERNEL_ALONE_KINDS


def test_cmake_conditions_follow_the_options():
    cond = corpus._cmake_condition
    assert cond("SGL_KERNEL_ENABLE_A3_ONLY_OPS", {"SGL_KERNEL_ENABLE_A3_ONLY_OPS": True})
    assert not cond("BUILD_CATLASS_MODULE AND SGL_KERNEL_ENABLE_A3_ONLY_OPS", {"SGL_KERNEL_ENABLE_A3_ONLY_OPS": True})
    assert cond("NOT (A OR B)", {"A": False, "B": False}) and not cond("NOT DEFINED A", {"A": False})
    assert not cond('_soc MATCHES "^ascend950"', {})


def test_a_kernel_file_entry_is_its_file_with_what_it_reaches_and_builds_its_first_kernel(tmp_path):
    gitdir = git_repo(tmp_path / "repo", SGL)[0]
    entry = next(e for e in corpus.collect("sgl-project/sgl-kernel-npu", gitdir) if e["path"].endswith("scale_kernel.cpp"))
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    have = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert have == ["csrc/scale/op_host/scale_tiling.h", "csrc/scale/op_kernel/scale_impl.cpp",
                    "csrc/scale/op_kernel/scale_kernel.cpp", "csrc/utils/kernel/ascendcraft_corpus_include_root.h",
                    "csrc/utils/kernel/scale_math.h"]   # never the arch35 header, nor what nothing includes
    from ascendcraft.emu import GM, build, read_sources, run
    assert corpus.kernel_file_entry(read_sources(dest), entry["path"]) == "scale_half"
    out = corpus.try_entry((entry, gitdir, False, True))
    assert out["kernel_ok"] and "project_ok" not in out, out
    import numpy as np
    from ascendcraft.config import load_settings
    s = load_settings()
    b = build(read_sources(dest), "scale_float", settings=s.replace(cxxflags=s.cxxflags + " " + entry["defines"]))
    assert b.ok, b.diagnostics
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)   # the target's definition chose the body


def test_an_include_found_beside_the_ops_own_file_does_not_bring_the_shared_header_of_that_name(tmp_path):
    # ada_block_sparse_attention's op_host/data_copy_transpose_tiling.h includes "data_copy_transpose_tiling_def.h", which
    # is beside it (the compiler's first place for a quoted include) and also in utils/inc/tiling/ under another guard:
    # only the op's own copy is taken (with both, the kernel build saw the tiling struct twice); a shared header no own
    # file has beside it still comes along
    root = corpus.SGL_ATTENTIONS
    files = dict(SGL, **{
        f"{root}/fa/op_host/fa_tiling.h": '#pragma once\n#include "tt_def.h"\n#include "log/ops_log.h"\n',
        f"{root}/fa/op_host/tt_def.h": "#pragma once\n// the op's own copy\n",
        f"{root}/utils/inc/tiling/tt_def.h": "#pragma once\n// the shared copy\n",
        f"{root}/utils/inc/log/ops_log.h": "#pragma once\n",
    })
    gitdir = git_repo(tmp_path / "repo", files)[0]
    entry = next(e for e in corpus.collect("sgl-project/sgl-kernel-npu", gitdir) if e["path"].endswith("/fa"))
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    have = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.h"))
    assert "common_inc/log/ops_log.h" in have and "op_host/tt_def.h" in have
    assert not any(h.endswith("tiling/tt_def.h") for h in have), have


def test_match_entry_reports_each_entrys_runs_as_a_corpus_result(monkeypatch):
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import sgl_by_hand

    def stops(gitdir):
        raise AssertionError("k.cpp:3: error[gm-out-of-bounds]: ...")
    monkeypatch.setattr(sgl_by_hand, "RUNNERS", {"a.cpp": (lambda g: "a: exact", lambda g: "a fp16: ok"),
                                                 "b.cpp": (lambda g: "b: exact", lambda g: "b fp16: MISMATCH"),
                                                 "c.cpp": (stops,)})
    m = lambda path: sgl_by_hand.match_entry({"path": path}, "<git dir>")
    assert m("a.cpp") == {"match": "pass", "match_detail": "a: exact; a fp16: ok"}
    assert m("b.cpp") == {"match": "mismatch", "match_detail": "b fp16: MISMATCH"}
    assert m("c.cpp")["match"] == "run-error" and "gm-out-of-bounds" in m("c.cpp")["match_detail"]
    assert m("d.cpp") == {}                      # no run for this entry: outside the run / match columns
