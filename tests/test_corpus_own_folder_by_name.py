"""The corpus copy of an op project whose op_host source names the op's own files by a path out of its folder and
back in through the folder's name (ops-transformer incre_flash_attention_tiling_impl.h: `#include
"../../incre_flash_attention/op_kernel/incre_flash_attention_tiling.h"`), and a sibling op's header the same way
(`../../prompt_flash_attention/op_host/...`). The copy sits in a folder of another name, so g++ needs the forward
header an include folder at the includer's depth finds. Small one-commit repository; g++ -fsyntax-only with the
copy's header folders on the quoted-include path, as the emulator's build gives them (emu._include_options)."""
import subprocess

from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_own_folder_by_name")

FILES = {
    "attention/one_op/op_host/one_op_def.cpp": 'AddConfig("ascend910b");\n',
    "attention/one_op/op_host/one_op_tiling.cpp":
        '#include "../../one_op/op_kernel/one_op_tiling.h"\n#include "../../other_op/op_host/other_op_const.h"\n'
        "int Tiling() { OneOpTiling t{OTHER_OP_CONST}; return t.n; }\n",
    "attention/one_op/op_kernel/one_op_tiling.h": "#pragma once\nstruct OneOpTiling { int n; };\n",
    "attention/one_op/op_kernel/one_op.cpp": '#include "one_op_tiling.h"\n',
    "attention/other_op/op_host/other_op_const.h": "#pragma once\n#define OTHER_OP_CONST 3\n",
}


def test_an_op_host_source_finds_its_own_file_named_through_its_folders_name(tmp_path):
    gitdir, commit = git_repo(tmp_path / "repo", FILES)
    entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": "attention/one_op",
             "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    folders = sorted({str(p.parent.relative_to(dest)) for p in dest.rglob("*.h")} - {"."})
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", *(a for d in folders for a in ("-iquote", d)),
                           "op_host/one_op_tiling.cpp"], cwd=dest, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_another_ops_header_finds_the_ops_own_file_named_through_its_folders_name(tmp_path):
    # ops-transformer attention/common/op_host/arch32/fia_tiling_nonquant_mla.h, which fused_infer_attention_score's
    # op_host reaches: `#include "../../../fused_infer_attention_score/op_host/fused_infer_attention_score_tiling.h"`
    files = {**FILES,
             "attention/one_op/op_host/one_op_tiling.cpp": '#include "../../common/op_host/arch/shared.h"\n'
                                                           "int Tiling() { return Shared(); }\n",
             "attention/one_op/op_host/one_op_tiling.h": "#pragma once\nstruct OneOpHost { int n = 4; };\n",
             "attention/common/op_host/arch/shared.h":
                 '#pragma once\n#include "../../../one_op/op_host/one_op_tiling.h"\n'
                 "inline int Shared() { return OneOpHost{}.n; }\n"}
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": "attention/one_op",
             "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    folders = sorted({str(p.parent.relative_to(dest)) for p in dest.rglob("*.h")} - {"."})
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", *(a for d in folders for a in ("-iquote", d)),
                           "op_host/one_op_tiling.cpp"], cwd=dest, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
