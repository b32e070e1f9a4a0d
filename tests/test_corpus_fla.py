"""The corpus collector of flashserve/flash-linear-attention-npu: its op projects under fla/ops/ascendc/ and
examples/add_example in the layout of hicann ops-transformer, the ones whose OpDef builds them for A2; an entry's copy
has fla/ops/ascendc/common beside the kernels ("kernel_utils/...") and the catlass headers it reaches from
hicann/catlass at the commit the repository's cmake/third_party/catlass.cmake pins (it fetches catlass with
FetchContent, no submodule). Small one-commit repositories; no mirror."""
import subprocess

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_fla")

REPO = "flashserve/flash-linear-attention-npu"


def test_fla_collects_its_op_projects_built_for_a2(tmp_path):
    files = {
        "fla/ops/ascendc/gdn/chunk_gdn_fwd/demo/op_host/demo_def.cpp": 'this->AICore().AddConfig("ascend910b", c);\n',
        "fla/ops/ascendc/gdn/chunk_gdn_fwd/demo/op_kernel/demo.cpp": "//\n",
        "fla/ops/ascendc/kda/only950/op_host/only950_def.cpp": 'this->AICore().AddConfig("ascend950", c);\n',
        "fla/ops/ascendc/kda/only950/op_kernel/only950.cpp": "//\n",
        "examples/add_example/op_host/add_example_def.cpp": 'AddConfig("ascend910b");\n',
        "examples/add_example/op_kernel/add_example.cpp": "//\n",
        # the PyTorch-extension wrappers of the same kernels are not entries
        "examples/fast_kernel_launch_example/csrc/x/op_host/x_def.cpp": 'AddConfig("ascend910b");\n',
        "examples/fast_kernel_launch_example/csrc/x/op_kernel/x.cpp": "//\n",
    }
    gitdir, commit = git_repo(tmp_path, files)
    got = {e["path"]: e for e in corpus.collect(REPO, gitdir)}
    assert sorted(got) == ["examples/add_example", "fla/ops/ascendc/gdn/chunk_gdn_fwd/demo"]
    assert all(e["kind"] == "op-project" and e["commit"] == commit and e["source"] == corpus.SOURCES[REPO]
               for e in got.values())


KERNEL = ('#include "kernel_operator.h"\n#include "kernel_utils/block/mm.hpp"\n'
          'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; static_assert(FLA_MM == CATLASS_TILE); }\n')


def _catlass_cmake(sha: str) -> str:
    return (f'set(CATLASS_VENDOR_GIT_TAG\n    "{sha}"\n    CACHE STRING "Catlass vendor git tag")\n'
            'FetchContent_Declare(catlass_vendor GIT_TAG ${CATLASS_VENDOR_GIT_TAG})\n')


def test_an_fla_op_gets_catlass_at_the_commit_its_cmake_pins(tmp_path, monkeypatch):
    catlass_git, _ = git_repo(tmp_path / "catlass", {
        "include/catlass/catlass.hpp": '#pragma once\n#include "detail/tile.hpp"\n',
        "include/catlass/detail/tile.hpp": "#pragma once\nconstexpr int CATLASS_TILE = 16;\n",
        "include/catlass/unused.hpp": "#error never included\n",
    })
    pinned = subprocess.run(["git", "--git-dir", catlass_git, "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    (tmp_path / "catlass" / "include/catlass/detail/tile.hpp").write_text("#pragma once\n#error a later commit\n")
    subprocess.run(["git", "-C", str(tmp_path / "catlass"), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam",
                    "later"], check=True)
    gitdir, commit = git_repo(tmp_path / "repo", {
        "cmake/third_party/catlass.cmake": _catlass_cmake(pinned),
        "fla/ops/ascendc/common/kernel_utils/block/mm.hpp":
            '#pragma once\n#include "catlass/catlass.hpp"\nconstexpr int FLA_MM = 16;\n',
        "fla/ops/ascendc/kda/demo/op_kernel/demo.cpp": KERNEL,
        "fla/ops/ascendc/kda/demo/op_host/demo_def.cpp": 'AddConfig("ascend910b");\n',
    })
    assert corpus.fetched_commit(REPO, gitdir, commit, "third_party/catlass") == pinned
    entry = {"source": "s", "repo": REPO, "commit": commit, "path": "fla/ops/ascendc/kda/demo", "kind": "op-project"}
    monkeypatch.setattr(corpus, "GITDIRS", {})
    try:
        corpus.materialise(entry, gitdir, tmp_path / "no_git")
        raise AssertionError("materialise should name the missing --git")
    except RuntimeError as e:
        assert "--git hicann/catlass=" in str(e)
    monkeypatch.setattr(corpus, "GITDIRS", {"hicann/catlass": catlass_git})
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    assert (dest / "common_kernel/kernel_utils/block/mm.hpp").is_file()
    inc = dest / "catlass_include"
    assert "CATLASS_TILE = 16" in (inc / "catlass/detail/tile.hpp").read_text()
    assert not (inc / "catlass/unused.hpp").exists()
    from ascendcraft.emu import build, read_sources
    b = build({k: v for k, v in read_sources(dest).items() if k.startswith(("op_kernel/", "catlass_include/", "common_kernel/"))},
              "demo")
    assert b.ok, b.log[-1500:]


def test_a_cmake_pin_that_is_no_commit_is_a_named_error(tmp_path):
    gitdir, commit = git_repo(tmp_path, {"cmake/third_party/catlass.cmake": _catlass_cmake("master")})
    try:
        corpus.fetched_commit(REPO, gitdir, commit, "third_party/catlass")
        raise AssertionError("a pin that is a branch name should be an error")
    except RuntimeError as e:
        assert "cmake/third_party/catlass.cmake" in str(e) and "CATLASS_VENDOR_GIT_TAG" in str(e)
    assert corpus.fetched_commit("other/repo", gitdir, commit, "third_party/catlass") is None


def test_match_takes_the_verdict_of_every_case_of_the_by_hand_runs(monkeypatch):
    """`corpus.py run --match` hands an fla entry to fla_by_hand.match_entry: pass when every case's line matches,
    mismatch when one does not, run-error when one stops (its line kept), nothing for an entry with no run."""
    import sys
    from _corpus import CORPUS_DIR
    if str(CORPUS_DIR) not in sys.path: sys.path.insert(0, str(CORPUS_DIR))
    import fla_by_hand
    path = "fla/ops/ascendc/gdn/chunk_gdn_fwd/chunk_local_cumsum"
    assert fla_by_hand.ENTRIES[path] in fla_by_hand.OPS
    entry = {"repo": REPO, "path": path}
    for lines, verdict in ((["a: key 0, worst 0.1 of allowed: match", "b: worst 0.9 of allowed: match"], "pass"),
                           (["a: match", "b: worst 3 of allowed: MISMATCH"], "mismatch"),
                           (["a: match", "b: ERROR op_host/x.cpp:3: error[crash]: the kernel crashed"], "run-error")):
        seen = {}
        def fake(g_, name, lines=lines):
            seen["gitdirs"] = g_[0]
            yield from lines
        monkeypatch.setitem(fla_by_hand.OPS, fla_by_hand.ENTRIES[path], fake)
        got = fla_by_hand.match_entry(entry, "/git/fla", {"hicann/catlass": "/git/catlass"})
        assert got["match"] == verdict, (lines, got)
        assert seen["gitdirs"] == {"hicann/catlass": "/git/catlass", REPO: "/git/fla"}
        if verdict != "pass": assert lines[1] in got["match_detail"]
    assert fla_by_hand.match_entry({"repo": REPO, "path": "fla/ops/ascendc/kda/chunk_kda_fwd"}, "/git/fla") == {}
