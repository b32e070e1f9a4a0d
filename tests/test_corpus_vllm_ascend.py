"""The corpus collector of vllm-project/vllm-ascend: csrc/ is an op tree in the layout of hicann ops-transformer (its own
CMake project); the ops whose OpDef builds them for A2 are entries, its op generator's template (csrc/scripts/opgen)
and the ops built only for other SoCs are not; an entry's copy has the shared headers its build puts on the include
path (common/include/kernel beside the kernels, common/include, utils/inc, and moe/common for the moe ops only).
Small one-commit repositories; no mirror."""
import subprocess
from pathlib import Path

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_vllm")

REPO = "vllm-project/vllm-ascend"


def test_vllm_ascend_collects_csrc_ops_built_for_a2(tmp_path):
    files = {
        "csrc/moe/demo/op_host/demo_def.cpp": 'this->AICore().AddConfig("ascend910b", config);\n',
        "csrc/moe/demo/op_kernel/demo.cpp": "//\n",
        "csrc/moe/only950/op_host/only950_def.cpp": 'this->AICore().AddConfig("ascend950", config);\n',
        "csrc/moe/only950/op_kernel/only950.cpp": "//\n",
        "csrc/mc2/only_a3/op_host/only_a3_def.cpp": 'this->AICore().AddConfig("ascend910_93", config);\n',
        "csrc/mc2/only_a3/op_kernel/only_a3.cpp": "//\n",
        "csrc/attention/k2q/k2q_hist/op_host/k2q_hist_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/attention/k2q/k2q_hist/op_kernel/k2q_hist.cpp": "//\n",
        "csrc/attention/common/op_kernel/buffer.h": "#pragma once\n",   # shared kernel headers, no op
        "csrc/scripts/opgen/template/add/op_host/add_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/scripts/opgen/template/add/op_kernel/add.cpp": "//\n",
        "csrc/attention/sfa/tests/ut/op_host/sfa_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/attention/sfa/tests/ut/op_kernel/sfa.cpp": "//\n",
        "examples/x/op_host/x_def.cpp": 'AddConfig("ascend910b");\n',    # outside csrc/: not the op tree
        "examples/x/op_kernel/x.cpp": "//\n",
    }
    gitdir, commit = git_repo(tmp_path, files)
    got = {e["path"]: e for e in corpus.collect(REPO, gitdir)}
    assert sorted(got) == ["csrc/attention/k2q/k2q_hist", "csrc/moe/demo"]
    assert all(e["kind"] == "op-project" and e["commit"] == commit and e["source"] == corpus.SOURCES[REPO] for e in got.values())


KERNEL = ('#include "kernel_operator.h"\n#include "util.h"\n#include "log/ops_log.h"\n#include "kernel_utils/block/mm.hpp"\n'
          'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)(UTIL_BLOCK + LOG_LEVEL + MM_TILE); }\n')


def test_a_vllm_ascend_kernel_finds_the_shared_headers_its_build_sets(tmp_path):
    files = {
        "csrc/common/include/kernel/util.h": "#pragma once\nconstexpr int UTIL_BLOCK = 32;\n",
        "csrc/common/include/kernel/unused.h": "#pragma once\n#error never included\n",
        "csrc/utils/inc/log/ops_log.h": "#pragma once\nconstexpr int LOG_LEVEL = 1;\n",
        "csrc/moe/common/kernel_utils/block/mm.hpp": "#pragma once\nconstexpr int MM_TILE = 16;\n",
        "csrc/moe/demo/op_kernel/demo.cpp": KERNEL,
        "csrc/moe/demo/op_host/demo_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/gmm/demo/op_kernel/demo.cpp": KERNEL,
        "csrc/gmm/demo/op_host/demo_def.cpp": 'AddConfig("ascend910b");\n',
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    copies = {}
    for op in ("csrc/moe/demo", "csrc/gmm/demo"):
        entry = {"source": "s", "repo": REPO, "commit": commit, "path": op, "kind": "op-project"}
        copies[op] = corpus.materialise(entry, gitdir, tmp_path / op.replace("/", "_"))
    moe = copies["csrc/moe/demo"]
    assert (moe / "common_kernel" / "util.h").is_file() and not (moe / "common_kernel" / "unused.h").exists()
    assert (moe / "utils_inc" / "log" / "ops_log.h").is_file()
    assert (moe / "moe_common" / "kernel_utils" / "block" / "mm.hpp").is_file()
    from ascendcraft.emu import build, read_sources
    b = build({k: v for k, v in read_sources(moe).items() if k.startswith(("op_kernel/", "common_kernel/", "utils_inc/", "moe_common/"))}, "demo")
    assert b.ok, b.log[-1500:]
    assert not (copies["csrc/gmm/demo"] / "moe_common").exists()   # moe/common is on the moe ops' path only


def _gitlink(gitdir: str, path: str, sha: str) -> str:
    "Add a submodule's gitlink (mode 160000) at `path` to the repository's HEAD: the new commit."
    root = str(Path(gitdir).parent)
    git = ["git", "-C", root, "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}"], check=True)
    subprocess.run([*git, "commit", "-qm", "submodule"], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


CATLASS_KERNEL = ('#include "kernel_operator.h"\n#include "catlass/catlass.hpp"\n'
                  'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)(CATLASS_TILE + TLA_RANK); }\n')


def test_a_vllm_ascend_op_gets_the_catlass_submodules_headers_at_the_pinned_commit(tmp_path, monkeypatch):
    """csrc/third_party/catlass is a git submodule (hicann/catlass here): an op that includes its headers gets the
    ones it reaches (through the submodule's own relative and root-relative includes) from the submodule's repository
    at the commit the op's tree pins, not at that repository's HEAD; without --git for that repository it is a named
    error."""
    catlass_git, _ = git_repo(tmp_path / "catlass", {
        "include/catlass/catlass.hpp": '#pragma once\n#include "detail/tile.hpp"\n#include "tla/rank.hpp"\n',
        "include/catlass/detail/tile.hpp": "#pragma once\nconstexpr int CATLASS_TILE = 16;\n",
        "include/tla/rank.hpp": "#pragma once\nconstexpr int TLA_RANK = 2;\n",
        "include/catlass/unused.hpp": "#error never included\n",
    })
    pinned = subprocess.run(["git", "--git-dir", catlass_git, "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    # the submodule's repository moves on after the pinned commit: the copy keeps the pinned text
    (tmp_path / "catlass" / "include/catlass/detail/tile.hpp").write_text("#pragma once\n#error a later commit\n")
    subprocess.run(["git", "-C", str(tmp_path / "catlass"), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam",
                    "later"], check=True)
    gitdir, _ = git_repo(tmp_path / "repo", {
        "csrc/moe/demo/op_kernel/demo.cpp": CATLASS_KERNEL,
        "csrc/moe/demo/op_host/demo_def.cpp": 'AddConfig("ascend910b");\n',
    })
    commit = _gitlink(gitdir, "csrc/third_party/catlass", pinned)
    assert corpus.submodule_commit(gitdir, commit, "csrc/third_party/catlass") == pinned
    entry = {"source": "s", "repo": REPO, "commit": commit, "path": "csrc/moe/demo", "kind": "op-project"}
    monkeypatch.setattr(corpus, "GITDIRS", {})
    try:
        corpus.materialise(entry, gitdir, tmp_path / "no_git")
        raise AssertionError("materialise should name the missing --git")
    except RuntimeError as e:
        assert "--git hicann/catlass=" in str(e)
    monkeypatch.setattr(corpus, "GITDIRS", {"hicann/catlass": catlass_git})
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    inc = dest / "catlass_include"
    assert (inc / "catlass/catlass.hpp").is_file() and (inc / "tla/rank.hpp").is_file()
    assert "CATLASS_TILE = 16" in (inc / "catlass/detail/tile.hpp").read_text()
    assert not (inc / "catlass/unused.hpp").exists()
    from ascendcraft.emu import build, read_sources
    b = build({k: v for k, v in read_sources(dest).items() if k.startswith(("op_kernel/", "catlass_include/"))}, "demo")
    assert b.ok, b.log[-1500:]


def test_vllm_ascend_link_candidates_are_its_common_src_and_tiling_base_sources(tmp_path):
    """vllm-ascend's csrc/common/CMakeLists.txt globs src/*.cpp and src/tiling_base/*.cpp into the common object
    library every op's tiling links (Ops::Transformer::OpTiling::EnsureNotScalar): those are link candidates of its
    ops; ops-nn's folders (common/src, common/src/op_host) stay the default of the other repositories."""
    gitdir, commit = git_repo(tmp_path, {
        "csrc/common/src/tiling_base/tiling_util.cpp": "int EnsureNotScalar() { return 1; }\n",
        "csrc/common/src/fallback_comm.cpp": "int Fallback() { return 1; }\n",
        "csrc/common/src/framework/onnx.cpp": "int Onnx() { return 1; }\n",
        "csrc/moe/demo/op_host/demo_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/moe/demo/op_kernel/demo.cpp": "//\n",
    })
    got = corpus.link_candidates(gitdir, commit, "csrc/moe/demo", REPO)
    assert sorted(got) == ["csrc/common/src/fallback_comm.cpp", "csrc/common/src/tiling_base/tiling_util.cpp"]
    assert corpus.link_candidates(gitdir, commit, "csrc/moe/demo", "hicann/ops-nn") == []


def test_an_ops_own_folder_beside_op_host_and_a_sibling_headers_path_down_come_along(tmp_path):
    """dequant_swiglu_quant's op_host names its own tiling_base/ folder (`#include "../tiling_base/tiling_util.h"`):
    that file (and what it includes) goes to the same place in the copy. k2q_csr_hist's host includes another op's
    header by a ../ path, which names a header below its own folder (`#include "arch35/k2q_tiling_arch35.h"`): it
    comes along beside it."""
    gitdir, commit = git_repo(tmp_path, {
        "csrc/moe/dsq/tiling_base/tiling_util.h": '#pragma once\n#include "tiling_more.h"\n',
        "csrc/moe/dsq/tiling_base/tiling_more.h": "#pragma once\nconstexpr int MORE = 3;\n",
        "csrc/moe/dsq/tiling_base/unused.h": "#error never included\n",
        "csrc/moe/dsq/op_host/dsq_tiling.cpp": '#include "../tiling_base/tiling_util.h"\nint f() { return MORE; }\n',
        "csrc/moe/dsq/op_host/dsq_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/moe/dsq/op_kernel/dsq.cpp": "//\n",
        "csrc/att/k2q/common/op_host/k2q_common.h": '#pragma once\n#include "arch35/k2q_tiling_arch35.h"\n',
        "csrc/att/k2q/common/op_host/arch35/k2q_tiling_arch35.h": "#pragma once\nconstexpr int ARCH35 = 1;\n",
        "csrc/att/k2q/hist/op_host/hist_tiling.cpp": '#include "../../common/op_host/k2q_common.h"\nint g() { return ARCH35; }\n',
        "csrc/att/k2q/hist/op_host/hist_def.cpp": 'AddConfig("ascend910b");\n',
        "csrc/att/k2q/hist/op_kernel/hist.cpp": "//\n",
    })
    dsq = corpus.materialise({"source": "s", "repo": REPO, "commit": commit, "path": "csrc/moe/dsq", "kind": "op-project"},
                             gitdir, tmp_path / "dsq")
    assert (dsq / "tiling_base/tiling_util.h").is_file() and (dsq / "tiling_base/tiling_more.h").is_file()
    assert not (dsq / "tiling_base/unused.h").exists()
    hist = corpus.materialise({"source": "s", "repo": REPO, "commit": commit, "path": "csrc/att/k2q/hist", "kind": "op-project"},
                              gitdir, tmp_path / "hist")
    assert (hist / corpus.SIBLINGS / "csrc/att/k2q/common/op_host/arch35/k2q_tiling_arch35.h").is_file()


def test_a_vllm_ascend_copy_has_the_op_host_sources_its_build_compiles():
    """csrc/cmake/obj_func.cmake compiles op_host/*_def*.cpp, *_tiling*.cpp, *fallback*.cpp, *_infershape*.cpp and
    *_aicpu*.cpp; an op's *_proto.cpp (sparse_attn_sharedkv's names an undefined InferDataType function) and other
    sources are in no target, so the copy leaves them out (headers stay)."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        gitdir, commit = git_repo(root / "repo", {
            "csrc/att/sas/op_host/sas_def.cpp": 'AddConfig("ascend910b");\n',
            "csrc/att/sas/op_host/sas_tiling.cpp": "//\n", "csrc/att/sas/op_host/rope_tiling_ab.cpp": "//\n",
            "csrc/att/sas/op_host/sas_infershape.cpp": "//\n", "csrc/att/sas/op_host/sas_proto.cpp": "#error not built\n",
            "csrc/att/sas/op_host/sas_cpu.cpp": "#error not built\n", "csrc/att/sas/op_host/sas_proto.h": "#pragma once\n",
            "csrc/att/sas/op_kernel/sas.cpp": "//\n",
        })
        dest = corpus.materialise({"source": "s", "repo": REPO, "commit": commit, "path": "csrc/att/sas", "kind": "op-project"},
                                  gitdir, root / "copy")
        assert sorted(p.name for p in (dest / "op_host").iterdir()) == [
            "rope_tiling_ab.cpp", "sas_def.cpp", "sas_infershape.cpp", "sas_proto.h", "sas_tiling.cpp"]
