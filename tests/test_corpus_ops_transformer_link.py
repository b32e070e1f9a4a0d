"""The corpus harness's link step for hicann ops-transformer (examples/corpus/corpus.py, link_candidates /
link_sources): every op's tiling sources there join one tiling object library, to which cmake/obj_func.cmake adds
mc2/common/src and mc2/3rd/ops_legacy/op_tiling, so the stub RuntimeKb::QueryBank that mc2/3rd/mat_mul_v3's tiling calls
is found there when the link names it. Small one-commit repositories; no mirror, no build."""
from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_otr_link")

REPO = "hicann/ops-transformer"
FILES = {
    "mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.cpp":
        "namespace RuntimeKb {\nunsigned QueryBank(const void* src, unsigned long n) { return 1; }\n}\n",
    "mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.h": "#pragma once\n",
    "mc2/3rd/ops_legacy/op_api/op_legacy_api.cpp": "int LegacyApi() { return 0; }\n",
    "mc2/common/src/mc2_log.cpp": "int Mc2Log() { return 0; }\n",
    "mc2/3rd/mm/op_host/mm_def.cpp": 'AddConfig("ascend910b");\n',
    "mc2/3rd/mm/op_host/op_tiling/mm_tiling.cpp": "unsigned f() { return 0; }\n",
    "mc2/3rd/mm/op_kernel/mm.cpp": "//\n",
}


def test_ops_transformer_link_candidates_hold_the_mc2_shared_tiling_sources(tmp_path):
    gitdir, commit = git_repo(tmp_path / "repo", FILES)
    got = corpus.link_candidates(gitdir, commit, "mc2/3rd/mm", REPO)
    assert "mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.cpp" in got and "mc2/common/src/mc2_log.cpp" in got
    assert "mc2/3rd/ops_legacy/op_api/op_legacy_api.cpp" not in got          # aclnn code: never a tiling source
    # another repository keeps ops-nn's default folders: the mc2 ones are not its candidates
    assert "mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.cpp" not in corpus.link_candidates(gitdir, commit, "mc2/3rd/mm",
                                                                                           "hicann/ops-nn")


def test_an_undefined_query_bank_brings_the_stub_that_defines_it(tmp_path):
    gitdir, commit = git_repo(tmp_path / "repo", FILES)
    entry = {"source": "s", "repo": REPO, "commit": commit, "path": "mc2/3rd/mm", "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    log = "mm_tiling.cpp:(.text+0x1): undefined reference to `RuntimeKb::QueryBank(void const*, unsigned long)'\n"
    have: set[str] = set()
    assert corpus.link_sources(entry, gitdir, dest, log, have) == ["mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.cpp"]
    assert (dest / corpus.SIBLINGS / "mc2/3rd/ops_legacy/op_tiling/runtime_kb_api.cpp.inc").is_file()
    assert any("runtime_kb_api.cpp.inc" in p.read_text() for p in (dest / "op_host").glob(f"{corpus.LINKED}_*.cpp"))
