"""The corpus collector of vllm-project/vllm-ascend: csrc/ is an op tree in the layout of hicann ops-transformer (its own
CMake project); the ops whose OpDef builds them for A2 are entries, its op generator's template (csrc/scripts/opgen)
and the ops built only for other SoCs are not; an entry's copy has the shared headers its build puts on the include
path (common/include/kernel beside the kernels, common/include, utils/inc, and moe/common for the moe ops only).
Small one-commit repositories; no mirror."""
import importlib.util
import subprocess
from pathlib import Path

spec = importlib.util.spec_from_file_location("corpus_vllm", Path(__file__).resolve().parents[1] / "examples" / "corpus" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)

REPO = "vllm-project/vllm-ascend"


def _git_repo(root: Path, files: dict) -> tuple[str, str]:
    "A git repository at root holding `files` ({path: text}) in one commit: (its git dir, the commit)."
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "files"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    return str(root / ".git"), commit


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
    gitdir, commit = _git_repo(tmp_path, files)
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
    gitdir, commit = _git_repo(tmp_path / "repo", files)
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
