"""Another op's header that the corpus copies under SIBLINGS can name a third op's header by its path from the
repository's root (hicann ops-nn transpose_batch_mat_mul_tiling.h: `#include
"matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_tiling.h"`, which quant_batch_matmul_v3's build reaches through its
dependency's tiling headers). The repository's build has its root on the include path, as the copy has SIBLINGS: the
header is brought to SIBLINGS/<that path>, with its folder and what it names in turn."""
import subprocess

from _corpus import git_repo, load_corpus

from ascendcraft.opproject import include_dirs

corpus = load_corpus("corpus_sibling_root_paths")


def test_a_copied_headers_path_from_the_repository_root_is_brought_with_its_folder(tmp_path):
    files = {
        "nn/quant_op/op_host/quant_op_def.cpp": 'namespace ops { OP_ADD(QuantOp); }\n',
        "nn/quant_op/op_host/quant_op_tiling.cpp": '#include "../../pair_op/op_host/pair_op_tiling.h"\n',
        "nn/quant_op/op_kernel/quant_op.cpp": "//\n",
        # the sibling: a path from the root, one that is nowhere in the tree (an SDK header), and one beside it
        "nn/pair_op/op_host/pair_op_tiling.h": '#pragma once\n#include "nn/base_op/op_host/base_tiling.h"\n'
                                               '#include "register/op_def_registry.h"\n#include "pair_util.h"\n',
        "nn/pair_op/op_host/pair_util.h": "#pragma once\n",
        "nn/base_op/op_host/base_tiling.h": '#pragma once\n#include "base_util.h"\n#include "nn/deep_op/op_host/deep.h"\n',
        "nn/base_op/op_host/base_util.h": "#pragma once\n",
        "nn/base_op/op_host/base_tiling.cpp": "int unrelated();\n",     # a source: not a header the closure copies
        "nn/deep_op/op_host/deep.h": "#pragma once\n",
        "nn/deep_op/tests/ut/deep_test.h": "#pragma once\n",
    }
    gitdir = git_repo(tmp_path / "repo", files)[0]
    commit = subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "nn/quant_op", "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    got = sorted(p.relative_to(dest / corpus.SIBLINGS).as_posix() for p in (dest / corpus.SIBLINGS).rglob("*.h")
                 if p.name != "ascendcraft_corpus_include_root.h")
    assert got == ["nn/base_op/op_host/base_tiling.h", "nn/base_op/op_host/base_util.h", "nn/deep_op/op_host/deep.h",
                   "nn/pair_op/op_host/pair_op_tiling.h", "nn/pair_op/op_host/pair_util.h"]
    # and SIBLINGS is an include folder of the build, from which the root path resolves to the copied header
    headers = {p.relative_to(dest).as_posix(): "" for p in dest.rglob("*.h")}
    assert corpus.SIBLINGS in include_dirs(headers)
