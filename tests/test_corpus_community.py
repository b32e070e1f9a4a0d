"""The thirty-eighth round's community-source collector (examples/corpus/community.py): op projects found at any depth
(both op_host/ and op_kernel/ sources), build outputs and Jupyter autosaves left out, each op grouped by the chip its
OpDef names, and an .asc file with several kernels launched from elsewhere given the one to link."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
from community import community_entries  # noqa: E402

HOST_910B = b'this->AICore().AddConfig("ascend310p").AddConfig("ascend910b");'
HOST_310B = b'this->AICore().AddConfig("ascend310b");'


def entry(path, kind):
    return {"source": "S", "repo": "r", "commit": "c", "path": path, "kind": kind}


def test_op_projects_by_chip_without_build_outputs():
    files = ["hw/A/op_host/a.cpp", "hw/A/op_kernel/a.cpp",
             "hw/A/op_host/.ipynb_checkpoints/a-checkpoint.cpp",       # an autosave beside the real one: not a source
             "B/op_host/b.cpp", "B/op_kernel/b.cpp",
             "C/op_kernel/c.cpp",                                       # no host: not an op project
             "D/build_out/op_host/d.cpp", "D/build_out/op_kernel/d.cpp"]   # build outputs
    texts = {"hw/A/op_host/a.cpp": HOST_910B, "B/op_host/b.cpp": HOST_310B}
    got = community_entries("KiaraStark/ascendc-homework", files, lambda p: texts[p], entry)
    assert [(e["path"], e["source"]) for e in got] == [("B", "S, built for 310B"), ("hw/A", "S, built for 910B")]
    assert {e["kind"] for e in got} == {"op-project"}


def test_asc_file_with_several_kernels_links_the_first():
    one = b'__global__ __vector__ void only_kernel(GM_ADDR x) {}'
    several = b'__global__ __vector__ void first_k(GM_ADDR x) {}\n__global__ __vector__ void second_k(GM_ADDR y) {}'
    launched = several + b'\nvoid host() { second_k<<<1, nullptr, s>>>(x); }'
    texts = {"op_kernel/one.asc": one, "op_kernel/two.asc": several, "x/op_kernel/three.asc": launched}
    got = community_entries("yjb767868009/ascendc_uniprefill", sorted(texts) + ["op_extension/ops.cpp"],
                            lambda p: texts[p], entry)
    by_path = {e["path"]: e for e in got}
    assert set(by_path) == set(texts)
    assert "kernel" not in by_path["op_kernel/one.asc"]          # one kernel: the corpus's own pick
    assert by_path["op_kernel/two.asc"]["kernel"] == "first_k"
    assert "kernel" not in by_path["x/op_kernel/three.asc"]      # its own launch names the kernel


def test_optim_agent_kernels_once_each_without_backups():
    "ascendc-optim-agent: each distinct *_kernel.asc (the op's and its rounds' copies), no .bak or notebook autosave."
    base, changed = b"__global__ __aicore__ void Op_kernel(GM_ADDR x) {}", b"__global__ __aicore__ void Op_kernel(GM_ADDR y) {}"
    texts = {"Op/op_kernel/Op_kernel.asc": base, "log/Op/round_000/op_kernel/Op_kernel.asc": base,
             "log/Op/round_001/code_snapshot/Op_kernel.asc": changed, "Op/op_kernel/Op_kernel.asc.bak": changed,
             "log/Op/round_001/code_snapshot/.ipynb_checkpoints/Op_kernel-checkpoint.asc": changed,
             "Op/op_host/Op.asc": b"int main() {}"}
    got = community_entries("Lulili520/ascendc-optim-agent", sorted(texts), lambda p: texts[p], entry)
    assert [e["path"] for e in got] == ["Op/op_kernel/Op_kernel.asc", "log/Op/round_001/code_snapshot/Op_kernel.asc"]
    assert {(e["kind"], e["hardware"]) for e in got} == {("asc-file", "ran")}
