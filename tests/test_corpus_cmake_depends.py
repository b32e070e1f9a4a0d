"""The corpus harness reads an op's dependencies in ops-transformer's CMake form: `set(<op>_depends a/b c/d CACHE INTERNAL
"...")` (or `... PARENT_SCOPE)`) in the op's op_host/CMakeLists.txt names other folders by their path from the top of the
build (hicann ops-transformer mla_prolog_v2: `attention/mla_prolog`, whose op_host defines the TilingMlaProlog its
tiling calls). The build adds those folders to the op's (cmake/func.cmake, op_add_depend_directory), so their host
sources are candidates for the op's link, as `add_modules_sources(... DEPENDENCIES ...)` ones are (corpus.dependencies)."""
from pathlib import Path

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_cmake_depends")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"


def test_the_depends_variable_names_folders_by_their_path(tmp_path):
    files = {
        # CACHE INTERNAL with a quoted description: the list ends at the keyword
        "attn/b/op_host/CMakeLists.txt": 'if (BUILD_OPEN_PROJECT)\n    set(b_depends attn/a attn/common CACHE INTERNAL '
                                         '"Dependencies for b")\nendif()\n',
        "attn/b/op_host/b_tiling.cpp": "int A();\nint B() { return A(); }\n",
        "attn/a/op_host/a_tiling.cpp": "int A() { return 2; }\n",
        "attn/common/op_kernel/common.h": "#pragma once\n",
        # PARENT_SCOPE, a folder that does not exist (skipped), another op's variable (not this op's)
        "mc2/c/op_host/CMakeLists.txt": "set(c_depends mc2/gone attn/b PARENT_SCOPE)\nset(d_depends attn/a PARENT_SCOPE)\n",
        "mc2/c/op_host/c_tiling.cpp": "int C() { return 1; }\n",
        # a build tree below the root (vllm-ascend's csrc/): the path is taken from the nearest folder above that has it
        "csrc/x/op_host/CMakeLists.txt": "set(x_depends y\n    PARENT_SCOPE)\n",
        "csrc/y/op_host/y_tiling.cpp": "int Y() { return 3; }\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    assert corpus.dependencies(gitdir, commit, "attn/b") == ("attn/a", "attn/common")
    assert corpus.dependencies(gitdir, commit, "mc2/c") == ("attn/b",)
    assert corpus.dependency_closure(gitdir, commit, "mc2/c") == ("attn/b", "attn/a", "attn/common")
    assert corpus.dependencies(gitdir, commit, "csrc/x") == ("csrc/y",)
    assert corpus.link_candidates(gitdir, commit, "attn/b", "hicann/ops-transformer") == ["attn/a/op_host/a_tiling.cpp"]


def test_an_op_links_the_tiling_its_depends_folder_defines(tmp_path):
    # scale_add_custom laid out as an ops-transformer op whose TilingFunc calls a function of another op's op_host,
    # named only by `set(scale_add_custom_depends ...)`: the link finds it there and the project builds
    files = {f"attention/scale_add_custom/{p.relative_to(EXAMPLE).as_posix()}": p.read_text()
             for p in EXAMPLE.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    host = files["attention/scale_add_custom/op_host/scale_add_custom.cpp"]
    anchor = "const uint32_t align = ALIGN_BYTES / typeSize;"
    assert host.count(anchor) == 1
    host = host.replace('#include "register/op_def_registry.h"\n',
                        '#include "register/op_def_registry.h"\nnamespace Ops { namespace Demo { int BaseTiling(); } }\n', 1)
    files["attention/scale_add_custom/op_host/scale_add_custom.cpp"] = host.replace(
        anchor, anchor + "\n    if (Ops::Demo::BaseTiling() != 2) return ge::GRAPH_FAILED;")
    files["attention/scale_add_custom/op_host/CMakeLists.txt"] = (
        "add_op_to_compiled_list()\nif (BUILD_OPEN_PROJECT)\n    set(scale_add_custom_depends attention/base_op "
        'CACHE INTERNAL "Dependencies for scale_add_custom")\nendif()\n')
    files["attention/base_op/op_host/base_op_tiling.cpp"] = "namespace Ops {\nnamespace Demo {\nint BaseTiling() { return 2; }\n}\n}\n"
    files["attention/other_op/op_host/other_tiling.cpp"] = "namespace Ops {\nnamespace Demo {\nint BaseTiling() { return 3; }\n}\n}\n"
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": "attention/scale_add_custom",
             "kind": "op-project"}
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], (res.get("project_error"), res.get("linked"))
    assert res["linked"] == ["attention/base_op/op_host/base_op_tiling.cpp"]
