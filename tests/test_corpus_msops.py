"""MindSpore's ms_custom_ops as a corpus source (round 41, newsrc): its OpDefs' chips (ascend310p is a group of its
own), and the kernels' shared folder ops/ascendc/aclnn_src/op_kernel_common on their include path, as its CMake sets it
(`-I${CMAKE_SOURCE_DIR}/op_kernel_common`), with the .cce sources and .inc fragments they include copied along."""
import sys
from pathlib import Path

from _corpus import git_repo, load_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
from community import community_entries  # noqa: E402

corpus = load_corpus("corpus_msops")
MS = "mindspore-ai/ms_custom_ops"
ROOT = "ops/ascendc/aclnn_src"


def test_op_projects_built_for_the_310p_are_grouped_apart():
    files = [f"{ROOT}/a/op_host/a_def.cpp", f"{ROOT}/a/op_kernel/a.cpp", f"{ROOT}/b/op_host/b_def.cpp", f"{ROOT}/b/op_kernel/b.cpp"]
    texts = {files[0]: b'this->AICore().AddConfig("ascend910b");', files[2]: b'this->AICore().AddConfig("ascend310p");'}
    entry = lambda path, kind: {"source": "S", "repo": MS, "commit": "c", "path": path, "kind": kind}
    got = community_entries(MS, files, lambda p: texts[p], entry)
    assert [(e["path"], e["source"]) for e in got] == [(f"{ROOT}/a", "S, built for 910B"), (f"{ROOT}/b", "S, built for 310P")]


def test_kernels_find_the_shared_cce_sources_and_their_fragments(tmp_path):
    files = {
        f"{ROOT}/op_kernel_common/asd/common/include/twice.h":
            '#pragma once\n#include "kernel_operator.h"\n#include "parts/factor.inc"\n',
        f"{ROOT}/op_kernel_common/asd/common/include/parts/factor.inc": "constexpr float FACTOR = 2.0f;\n",
        f"{ROOT}/op_kernel_common/asd/demo/scale.cce":
            '#include "../common/include/twice.h"\n'
            '__aicore__ inline void Scale(AscendC::LocalTensor<float> t, int n) { AscendC::Muls(t, t, FACTOR, n); }\n',
        f"{ROOT}/op_kernel_common/asd/other/unused.cce": "#error not included\n",
        f"{ROOT}/demo/op_kernel/demo.cpp":
            '#include "kernel_operator.h"\n#include "asd/demo/scale.cce"\n'
            'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; }\n',
        f"{ROOT}/demo/op_host/demo_def.cpp": '// this->AICore().AddConfig("ascend910b");\n',
    }
    _, commit = git_repo(tmp_path, files)
    entry = {"source": "s", "repo": MS, "commit": commit, "path": f"{ROOT}/demo", "kind": "op-project"}
    dest = corpus.materialise(entry, str(tmp_path / ".git"), tmp_path / "copy")
    shared = dest / "op_kernel_common" / "asd"
    assert (shared / "demo" / "scale.cce").is_file() and (shared / "common" / "include" / "parts" / "factor.inc").is_file()
    assert not (shared / "other" / "unused.cce").exists()
    from ascendcraft.emu import build, read_sources
    b = build({k: v for k, v in read_sources(dest).items() if k.startswith(("op_kernel/", "op_kernel_common/"))}, "demo")
    assert b.ok, b.log[-1500:]
