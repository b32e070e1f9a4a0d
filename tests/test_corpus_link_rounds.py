"""The corpus harness's link rounds (corpus.link_until_settled): a source brought in to define what the link missed can
miss symbols of its own, which only the next link names, so the rounds go on until one brings nothing new (ops-nn
fused_quant_mat_mul needed more than the five rounds the harness allowed before: quant_batch_matmul_v3's tiling, then
transpose_batch_mat_mul's, pp_matmul's ...). What no source of the build target defines is named in the error."""
from pathlib import Path

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_link_rounds")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"


def chained_repo(tmp_path, steps: int, last: str):
    """scale_add_custom in a repository laid out as ops-nn's, whose TilingFunc needs Step1(), defined in its category's
    common/op_host/ folder by step1.cpp, which calls Step2() of step2.cpp, ..., up to Step<steps>(), whose body is `last`."""
    files = {f"ops/scale_add_custom/{p.relative_to(EXAMPLE).as_posix()}": p.read_text()
             for p in EXAMPLE.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    host = files["ops/scale_add_custom/op_host/scale_add_custom.cpp"]
    host = host.replace('#include "register/op_def_registry.h"\n', '#include "register/op_def_registry.h"\n'
                        '#include "../../common/op_host/steps.h"\n', 1)
    anchor = "const uint32_t align = ALIGN_BYTES / typeSize;"
    assert host.count(anchor) == 1
    files["ops/scale_add_custom/op_host/scale_add_custom.cpp"] = host.replace(
        anchor, anchor + "\n    if (Ops::Demo::Step1() != 2) return ge::GRAPH_FAILED;")
    files["ops/common/op_host/steps.h"] = "#pragma once\nnamespace Ops {\nnamespace Demo {\n" + "".join(
        f"int Step{i}();\n" for i in range(1, steps + 1)) + "int Missing();\n}\n}\n"
    for i in range(1, steps + 1):
        body = f"return Step{i + 1}();" if i < steps else last
        files[f"ops/common/op_host/step{i}.cpp"] = (f'#include "steps.h"\nnamespace Ops {{\nnamespace Demo {{\n'
                                                    f"int Step{i}() {{ {body} }}\n}}\n}}\n")
    gitdir, commit = git_repo(tmp_path / "repo", files)
    return {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "ops/scale_add_custom",
            "kind": "op-project"}, gitdir


def test_the_link_rounds_go_on_until_nothing_new_is_missing(tmp_path):
    # six sources, each named by the link only after the one before it is in: six rounds, one more than the old cap
    entry, gitdir = chained_repo(tmp_path, 6, "return 2;")
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], (res.get("project_error"), res.get("linked"))
    assert res["linked"] == [f"ops/common/op_host/step{i}.cpp" for i in range(1, 7)]


def test_what_no_source_defines_is_named_with_the_rounds_it_took(tmp_path):
    entry, gitdir = chained_repo(tmp_path, 2, "return Missing();")
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and not res["project_ok"], res
    error = res["project_error"]
    assert "after 2 link rounds, still undefined (defined by no host source of the op's build target): " \
           "Ops::Demo::Missing()" in error, error
    assert res["linked"] == ["ops/common/op_host/step1.cpp", "ops/common/op_host/step2.cpp"]


def test_the_link_candidates_follow_the_dependencies_of_dependencies(tmp_path):
    # ops-nn's build resolves DEPENDENCIES recursively (scripts/util/dependency_parser.py): the op names `middle`,
    # `middle` names `far`, and the op's tiling reaches a function of far's op_host through middle's
    cmake = "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE %s %s)\n"
    files = {
        "ops/a/op_host/CMakeLists.txt": cmake % ("a", "DEPENDENCIES middle"),
        "ops/a/op_host/a_tiling.cpp": "int Middle();\nint A() { return Middle(); }\n",
        "ops/middle/op_host/CMakeLists.txt": cmake % ("middle", "DEPENDENCIES far"),
        "ops/middle/op_host/middle_tiling.cpp": "int Far();\nint Middle() { return Far(); }\n",
        "ops/far/op_host/CMakeLists.txt": cmake % ("far", "DEPENDENCIES a"),   # a cycle back to the op: not followed
        "ops/far/op_host/far_tiling.cpp": "int Far() { return 2; }\n",
        "ops/other/op_host/other_tiling.cpp": "int Far() { return 3; }\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    assert corpus.dependencies(gitdir, commit, "ops/a") == ("ops/middle",)
    assert corpus.dependency_closure(gitdir, commit, "ops/a") == ("ops/middle", "ops/far")
    assert corpus.link_candidates(gitdir, commit, "ops/a", "hicann/ops-nn") == [
        "ops/middle/op_host/middle_tiling.cpp", "ops/far/op_host/far_tiling.cpp"]
