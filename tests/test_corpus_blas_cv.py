"""The corpus collectors of hicann ops-cv (op projects built for A2, as ops-math's) and hicann ops-blas (its arch22 kernel
files, kind blas-file), and how an ops-blas entry is materialised and built: the kernel's device part with the headers it
reaches at their repository paths, and the launch's kernel as the entry. Small one-commit repositories; no mirror."""
import subprocess

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_blas_cv")


KERNEL = """#include "kernel_operator.h"
#include "common/helper/kernel_utils.h"
#include "cann_ops_blas_common.h"
#include "../sdemo_common.h"
#include "sdemo_tiling.h"
extern "C" __global__ __aicore__ __vector__ void sdemo_kernel(GM_ADDR x, GM_ADDR y) {
#if __DAV_C220_VEC__
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 8);
    yg.SetGlobalBuffer((__gm__ float*)y, 8);
    for (int i = 0; i < 8; ++i) yg.SetValue(i, xg.GetValue(i) * SCALE + BIAS + (float)DEMO_ENUM_TWO + (float)KIND);
#endif
}
void sdemo_kernel_do(GM_ADDR x, GM_ADDR y, uint32_t numBlocks, void* stream) {
    sdemo_kernel<<<numBlocks, nullptr, stream>>>(x, y);
}
"""

BLAS = {
    "blas/demo/arch22/sdemo_kernel.cpp": KERNEL,
    "blas/demo/arch22/sdemo_host.cpp": "// aclblasSdemo: tiling and the launch\n",
    "blas/demo/arch22/sdemo_tiling.h": "#pragma once\nconstexpr float BIAS = 1.0f;\n",
    "blas/demo/sdemo_common.h": "#pragma once\nconstexpr int KIND = 10;\n",
    "blas/demo/arch35/sdemo_kernel.cpp": "// Ascend 950\n",
    "blas/demo/arch35/sdemo_host.cpp": "//\n",
    "blas/common/helper/kernel_utils.h": '#pragma once\n#include "../compute/scale.h"\n',
    "blas/common/compute/scale.h": "#pragma once\nconstexpr float SCALE = 2.0f;\n",
    "blas/common/compute/unused.h": "#pragma once\n#error never included\n",
    "include/cann_ops_blas_common.h": "#pragma once\nenum DemoEnum { DEMO_ENUM_ONE = 1, DEMO_ENUM_TWO = 2 };\n",
    "blas/dot/arch22/cdot_kernel.cpp": "//\n", "blas/dot/arch22/cdot_host.cpp": "//\n",
    "blas/dot/arch22/sdot_kernel.cpp": "//\n", "blas/dot/arch22/sdot_host.cpp": "//\n",
    "blas/gemv/arch22/cgemv_no_trans_kernel.cpp": "//\n", "blas/gemv/arch22/cgemv_do_trans_kernel.cpp": "//\n",
    "blas/gemv/arch22/cgemv_host.cpp": "//\n",
    "blasLt/matmul/arch22/x_kernel.cpp": "// not blas/\n",
}


def test_ops_blas_collects_each_arch22_kernel_file_with_its_host_source(tmp_path):
    got = {e["path"]: e for e in corpus.collect("hicann/ops-blas", git_repo(tmp_path, BLAS)[0])}
    assert sorted(got) == ["blas/demo/arch22/sdemo_kernel.cpp", "blas/dot/arch22/cdot_kernel.cpp",
                           "blas/dot/arch22/sdot_kernel.cpp", "blas/gemv/arch22/cgemv_do_trans_kernel.cpp",
                           "blas/gemv/arch22/cgemv_no_trans_kernel.cpp"]
    assert {e["kind"] for e in got.values()} == {"blas-file"}
    assert {e["source"] for e in got.values()} == {corpus.SOURCES["hicann/ops-blas"]}
    assert got["blas/dot/arch22/sdot_kernel.cpp"]["host"] == "blas/dot/arch22/sdot_host.cpp"     # by its name
    assert got["blas/gemv/arch22/cgemv_do_trans_kernel.cpp"]["host"] == "blas/gemv/arch22/cgemv_host.cpp"   # the only one


def test_an_ops_blas_entry_is_its_device_part_with_the_headers_it_reaches_and_builds(tmp_path):
    gitdir = git_repo(tmp_path / "repo", BLAS)[0]
    entry = next(e for e in corpus.collect("hicann/ops-blas", gitdir) if e["path"].endswith("sdemo_kernel.cpp"))
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    have = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert have == ["blas/ascendcraft_corpus_include_root.h", "blas/common/compute/scale.h", "blas/common/helper/kernel_utils.h",
                    "blas/demo/arch22/sdemo_kernel.cpp", "blas/demo/arch22/sdemo_tiling.h", "blas/demo/sdemo_common.h",
                    "include/ascendcraft_corpus_include_root.h", "include/cann_ops_blas_common.h"]
    text = (dest / entry["path"]).read_text()
    assert "<<<" not in text and text.count("\n") == KERNEL.count("\n")     # the launch is a no-op, lines kept
    out = corpus.try_entry((entry, gitdir, False, False))
    assert out["kernel_ok"], out
    from ascendcraft.emu import GM, build, read_sources, run
    import numpy as np
    b = build(read_sources(dest), "sdemo_kernel")
    x = np.arange(8, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * 2 + 1 + 2 + 10)   # the vector body ran (__DAV_C220_VEC__)


def test_ops_cv_collects_the_ops_built_for_a2_with_its_shared_headers(tmp_path):
    files = {
        "image/resize/op_host/resize_def.cpp": 'this->AICore().AddConfig("ascend910b", config);\n',
        "image/resize/op_kernel/resize.cpp": "//\n",
        "image/aipp/op_host/aipp_def.cpp": 'this->AICore().AddConfig("ascend950", config);\n',
        "image/aipp/op_kernel/aipp.cpp": "//\n",
        "experimental/objdetect/iou/op_host/iou_def.cpp": 'AddConfig("ascend910b");\n',
        "experimental/objdetect/iou/op_kernel/iou.cpp": "//\n",
        "scripts/opgen/template/add/op_host/add_def.cpp": 'AddConfig("ascend910b");\n',
        "scripts/opgen/template/add/op_kernel/add.cpp": "//\n",
    }
    got = {e["path"]: e["source"] for e in corpus.collect("hicann/ops-cv", git_repo(tmp_path, files)[0])}
    assert got == {"experimental/objdetect/iou": "hicann ops-cv (A2 ops), experimental", "image/resize": "hicann ops-cv (A2 ops)"}
    assert ("common/inc", "common_inc") in corpus.COMMON_INCLUDES["hicann/ops-cv"]


def test_an_ops_blas_entrys_host_tiling_compiles_against_the_emulated_acl_or_names_its_error(tmp_path):
    host = ('#include "acl/acl.h"\n#include "common/helper/kernel_utils.h"\n'
            'int aclblasSdemo(float* x) { aclrtContext c; if (aclrtGetCurrentContext(&c) != ACL_SUCCESS) return 1;\n'
            '  void* d; aclrtMalloc(&d, 32, ACL_MEM_MALLOC_HUGE_FIRST); return (int)SCALE + (x == nullptr); }\n')
    files = dict(BLAS, **{"blas/demo/arch22/sdemo_host.cpp": host})
    gitdir = git_repo(tmp_path / "ok", files)[0]
    entry = next(e for e in corpus.collect("hicann/ops-blas", gitdir) if e["path"].endswith("sdemo_kernel.cpp"))
    from ascendcraft.config import load_settings
    assert corpus.blas_host_check(entry, gitdir, load_settings()) == {"host_ok": True, "host_error": ""}
    files["blas/demo/arch22/sdemo_host.cpp"] = host.replace("aclrtGetCurrentContext", "aclrtNoSuchCall")
    gitdir = git_repo(tmp_path / "bad", files)[0]
    entry = next(e for e in corpus.collect("hicann/ops-blas", gitdir) if e["path"].endswith("sdemo_kernel.cpp"))
    got = corpus.blas_host_check(entry, gitdir, load_settings())
    assert not got["host_ok"] and got["host_error"].startswith("blas/demo/arch22/sdemo_host.cpp: ") \
        and "aclrtNoSuchCall" in got["host_error"]


def test_an_ops_cv_op_tiled_by_another_ops_source_gets_that_source_and_its_struct(tmp_path):
    """ops-cv builds every op's tiling into one library: upsample_nearest2d_grad has only its definition, and another op's
    tiling source registers its tiling (IMPL_OP_OPTILING(UpsampleNearest2dGrad)) with the struct in its header. The
    entry's copy gets that source (linked as an op_host source) and its folder's header; an op of another repository
    (ops-math: no shared target) does not."""
    tiling_h = ('#pragma once\n#include "register/tilingdata_base.h"\nnamespace optiling {\n'
                'BEGIN_TILING_DATA_DEF(SharedGradTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n'
                'REGISTER_TILING_DATA_CLASS(OwnerGrad, SharedGradTilingData);\nREGISTER_TILING_DATA_CLASS(BorrowGrad, SharedGradTilingData);\n}\n')
    files = {
        "image/borrow_grad/op_host/borrow_grad_def.cpp": 'namespace ops { class BorrowGrad : public OpDef {}; OP_ADD(BorrowGrad); }\n',
        "image/borrow_grad/op_kernel/borrow_grad.cpp": "//\n",
        "image/owner_grad/op_host/owner_grad_def.cpp": 'namespace ops { OP_ADD(OwnerGrad); }\n',
        "image/owner_grad/op_host/owner_grad_tiling.h": tiling_h,
        "image/owner_grad/op_host/owner_grad_tiling.cpp": '#include "owner_grad_tiling.h"\nIMPL_OP_OPTILING(OwnerGrad);\n'
                                                          'IMPL_OP_OPTILING(BorrowGrad);\n',
        "image/owner_grad/op_host/op_api/owner.cpp": "IMPL_OP_OPTILING(BorrowGrad);  // aclnn code: never linked\n",
        "image/owner_grad/op_kernel/owner_grad.cpp": "//\n",
    }
    gitdir = git_repo(tmp_path / "repo", files)[0]
    commit = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    entry = {"source": "s", "repo": "hicann/ops-cv", "commit": commit, "path": "image/borrow_grad", "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    linked = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file() and corpus.SIBLINGS in p.parts)
    assert linked == [f"{corpus.SIBLINGS}/image/owner_grad/op_host/owner_grad_tiling.cpp.inc",
                      f"{corpus.SIBLINGS}/image/owner_grad/op_host/owner_grad_tiling.h"]
    assert any("owner_grad_tiling.cpp.inc" in p.read_text() for p in (dest / "op_host").glob("*.cpp"))
    other = corpus.materialise(dict(entry, repo="hicann/ops-math"), gitdir, tmp_path / "math")
    assert not (other / corpus.SIBLINGS).exists()
