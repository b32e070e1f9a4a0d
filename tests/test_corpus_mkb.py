"""MultiKernelBench's answer format in the corpus harness (examples/corpus/mkb.py): the six source strings an LLM
returns (here inside a markdown fence, as LLM kernel generators publish them), the op project rebuilt from them, and
MKB's own correctness step (its seed, one trial, allclose 1e-4) run on the emulator against a reference Model. The
answer and the reference below are written for this test; one build of each kernel."""
import importlib.util
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "examples" / "corpus"
sys.path.insert(0, str(HERE))
spec = importlib.util.spec_from_file_location("corpus_mkb", HERE / "mkb.py")
mkb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mkb)

PROJECT_JSON = '''[
  {"op": "TwiceAddCustom", "language": "cpp",
   "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}],
   "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
   "attr": [{"name": "bias", "param_type": "optional", "type": "float", "default_value": "0.0"}]}
]'''

HOST_TILING = '''
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TwiceAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, perCore);
  TILING_DATA_FIELD_DEF(float, bias);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TwiceAddCustom, TwiceAddCustomTilingData)
}
'''

HOST_OPERATOR = '''
#include "twice_add_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TwiceAddCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    const float* bias = context->GetAttrs()->GetAttrPointer<float>(0);
    context->SetBlockDim(4);
    tiling.set_perCore(total / 4);
    tiling.set_bias(*bias);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class TwiceAddCustom : public OpDef {
public:
    explicit TwiceAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("bias").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TwiceAddCustom);
}
'''

KERNEL = '''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void twice_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * t.perCore, t.perCore);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * t.perCore, t.perCore);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xGm, t.perCore);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, FACTOR, t.perCore);
    Adds(v, v, t.bias, t.perCore);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, v, t.perCore);
}
'''

PYTHON_BIND = '''
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"
at::Tensor twice_add_impl_npu(const at::Tensor& self, double bias) {
    at::Tensor result = at::empty_like(self);
    EXEC_NPU_CMD(aclnnTwiceAddCustom, self, bias, result);
    return result;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("twice_add_custom", &twice_add_impl_npu, "2 * x + bias");
}
'''

MODEL_NEW = '''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.bias = bias

    def forward(self, x):
        return custom_ops_lib.twice_add_custom(x, self.bias)
'''

REFERENCE = '''
import torch

class Model(torch.nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.bias = bias

    def forward(self, x):
        return 2 * x + self.bias

batch_size = 64
dim = 1024

def get_inputs():
    return [torch.rand(batch_size, dim)]

def get_init_inputs():
    return [0.5]
'''


def answer(factor: str = "2.0f", fence: bool = True) -> str:
    "An answer as an LLM returns it: the six assignments, wrapped in a ```python fence."
    parts = {"project_json_src": PROJECT_JSON, "host_tiling_src": HOST_TILING, "host_operator_src": HOST_OPERATOR,
             "kernel_src": KERNEL.replace("FACTOR", factor), "python_bind_src": PYTHON_BIND, "model_src": MODEL_NEW}
    body = "\n".join(f"{k}={chr(34) * 3}{v}{chr(34) * 3}\n" for k, v in parts.items())
    return f"Here is the kernel.\n```python\n{body}```\nIt doubles x." if fence else body


def test_the_answer_strings_are_read_with_or_without_a_markdown_fence():
    for fenced in (True, False):
        s = mkb.answer_strings(answer(fence=fenced))
        assert set(mkb.FIELDS) <= set(s)
        assert "TwiceAddCustomTilingData" in s["host_tiling_src"]
    with pytest.raises(mkb.AnswerFormatError, match=r"no host_operator_src, kernel_src"):
        mkb.answer_strings("project_json_src = '[]'\nhost_tiling_src = ''\n")
    with pytest.raises(mkb.AnswerFormatError, match=r"line 1"):
        mkb.answer_strings("this is prose, not the answer")


def test_the_project_is_laid_out_from_the_ops_name(tmp_path):
    mkb.write_project(mkb.answer_strings(answer()), tmp_path)
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.*")) == [
        "op_host/twice_add_custom.cpp", "op_host/twice_add_custom_tiling.h", "op_kernel/twice_add_custom.cpp"]
    with pytest.raises(mkb.AnswerFormatError, match="does not name the op"):
        mkb.write_project(dict(mkb.answer_strings(answer()), project_json_src="{}"), tmp_path)


def test_the_hardware_verdicts_and_references_go_into_the_manifest_entries():
    listing = 'KERNELBENCH102_OP_KEYS: tuple[str, ...] = (\n    "relu",\n    "gelu",\n)\n'
    assert mkb.passed_on_hardware(listing) == {"relu", "gelu"}
    files = ["output/kernelbench165_txt/relu.txt", "output/kernelbench165_txt/softmax.txt",
             "output/kernelbench165_txt/sub/relu.txt", "vendor/mkb/reference/activation/relu.py",
             mkb.LLM4ASCENDC_GPT5_RUN + "/relu.txt", mkb.LLM4ASCENDC_GPT5_RUN + "/relu_report.json"]
    entry = lambda path, kind: {"repo": "CenZhihan/LLM4AscendC", "commit": "c" * 40, "path": path, "kind": kind}
    got = mkb.llm4ascendc_entries(files, listing, entry)
    assert [(e["path"].rsplit("/", 1)[1], e["hardware"], e.get("reference")) for e in got] == [
        ("relu.txt", "passed", "vendor/mkb/reference/activation/relu.py"), ("softmax.txt", "failed", None),
        ("relu.txt", "unknown", "vendor/mkb/reference/activation/relu.py")]
    assert len({e["source"] for e in got}) == 3 and all(e["kind"] == "mkb-prompt" for e in got)


def test_large_inputs_run_with_a_smaller_batch_and_say_so():
    import torch
    ns = {"torch": torch}
    exec(REFERENCE, ns)
    assert mkb.shrink_batch(ns) == "" and ns["batch_size"] == 64          # 256 KiB: the task's own size
    ns["batch_size"] = 1 << 17                                            # 512 MiB of inputs, as much output
    note = mkb.shrink_batch(ns)
    assert ns["batch_size"] == 1 << 13 and "131072 -> 8192 (inputs and outputs 64 MiB)" in note   # within 64 MiB
    weights = lambda n: (lambda: [torch.rand(ns["batch_size"], 1 << 20), torch.rand(n, 1 << 20)])   # batch rows + weights
    ns["batch_size"], ns["get_inputs"] = 256, weights(32)                  # 1 GiB + 128 MiB of weights
    assert "256 -> 1 (inputs and outputs 132 MiB)" in mkb.shrink_batch(ns)            # over 64 MiB at batch 1: within the full size
    ns["batch_size"], ns["get_inputs"] = 256, weights(80)                  # 320 MiB of weights alone
    assert "256 -> 1 (inputs and outputs 324 MiB)" in mkb.shrink_batch(ns)            # within this machine's budget
    ns["batch_size"] = 256
    with pytest.raises(ValueError, match=r"324 MiB even with 1 of 256 rows \(batch_size\): a run needs about \d+ MiB, "
                                         r"over the memory budget of 1024 MiB"):
        mkb.shrink_batch(ns, budget=1 << 30)                               # a machine with less memory
    assert ns["batch_size"] == 256                                         # left as the task has it
    gemm = lambda: [torch.rand(ns["batch_size"], 4096), torch.rand(4096, 4096)]    # 64 MiB of weights, 16 KiB rows
    ns["batch_size"], ns["get_inputs"] = 8192, gemm
    assert "8192 -> 64 (inputs and outputs 65 MiB)" in mkb.shrink_batch(ns)   # the batch keeps 1 MiB of rows


def test_a_task_without_batch_size_shrinks_the_leading_dimension_of_its_inputs():
    "The tensors get_inputs makes with the first input's rows are made with fewer; the reference sees the same inputs."
    import torch
    conv = {"torch": torch}                                                # 1 GiB input, weights of another leading size
    exec("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x, w): return torch.nn.functional.conv1d(x, w)\n"
         "def get_inputs(): return [torch.rand(32, 64, 131072), torch.rand(128, 64, 3)]\n"
         "def get_init_inputs(): return []\n", conv)
    assert "leading dimension 32 -> 1 (inputs and outputs 96 MiB)" in mkb.shrink_batch(conv)
    x, w = conv["get_inputs"]()
    assert x.shape == (1, 64, 131072) and w.shape == (128, 64, 3)
    square = {"torch": torch}                                              # A's rows shrink, B (as many rows) stays
    exec("import torch\nclass Model(torch.nn.Module):\n    def forward(self, a, b): return a @ b\n"
         "def get_inputs(): return [torch.rand(4096, 4096), torch.rand(4096, 4096)]\n"
         "def get_init_inputs(): return []\n", square)
    assert "leading dimension 4096 -> 32" in mkb.shrink_batch(square)
    assert [tuple(t.shape) for t in square["get_inputs"]()] == [(32, 4096), (4096, 4096)]
    loss = {"torch": torch}                                                # a per-sample target vector shrinks too
    exec("import torch\nclass Model(torch.nn.Module):\n"
         "    def forward(self, p, t): return torch.nn.functional.cross_entropy(p, t, reduction='none')\n"
         "def get_inputs(): return [torch.rand(1 << 20, 32), torch.randint(0, 32, (1 << 20,))]\n"
         "def get_init_inputs(): return []\n", loss)
    assert "leading dimension 1048576 -> " in mkb.shrink_batch(loss)
    p, t = loss["get_inputs"]()
    assert p.shape[0] == t.shape[0] < 1 << 20
    tall = {"torch": torch}                                                # 1 MiB in, 1 GiB out: the output counts
    exec("import torch\nclass Model(torch.nn.Module):\n    def forward(self, a): return a @ a.T\n"
         "def get_inputs(): return [torch.rand(16384, 16)]\ndef get_init_inputs(): return []\n", tall)
    assert "leading dimension 16384 -> 2048 (inputs and outputs 16 MiB)" in mkb.shrink_batch(tall)
    sym = {"torch": torch}                                                 # A + A.T: get_inputs refuses fewer rows
    exec("import torch\nclass Model(torch.nn.Module):\n    def forward(self, a, b): return a @ b\n"
         "def get_inputs():\n    a = torch.rand(4096, 4096)\n    return [(a + a.T) / 2, torch.rand(4096, 4096)]\n"
         "def get_init_inputs(): return []\n", sym)
    with pytest.raises(ValueError, match="refuses the task's inputs with 2048 instead of 4096 rows"):
        mkb.shrink_batch(sym)


def test_a_tiling_func_that_reads_no_shape_is_fixed_to_the_tasks_shape():
    reads = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n  auto n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();\n}\n"
    fixed = "namespace optiling {\nstatic ge::graphStatus MyTiling(gert::TilingContext* context) {\n  const uint32_t N = 64; // x: [64, 8]\n  if (N) { context->SetBlockDim(8); }\n  return ge::GRAPH_SUCCESS;\n}\n}\n" \
            "static ge::graphStatus InferShape(gert::InferShapeContext* context) { auto s = context->GetInputShape(0); return 0; }\n" \
            "class Op : public OpDef { Op() { this->AICore().SetTiling(optiling::MyTiling); } };\n"
    assert mkb.tiling_reads_shapes(reads) is True
    assert mkb.tiling_reads_shapes(fixed) is False                          # InferShape's read does not count
    assert mkb.tiling_reads_shapes("int main() {}") is None


@pytest.mark.parametrize("factor, verdict", [("2.0f", "pass"), ("3.0f", "mismatch")])
def test_mkbs_correctness_step_runs_the_answer_against_the_reference(tmp_path, factor, verdict):
    "A right answer passes; a wrong one (3x instead of 2x: the LLM's fault) is a mismatch that names an element."
    from ascendcraft.opproject import load_project
    strings = mkb.answer_strings(answer(factor))
    project = load_project(mkb.write_project(strings, tmp_path))
    got = mkb.match_mkb({"reference": "twice_add.py"}, strings, REFERENCE, project)
    assert got["match"] == verdict, got
    if verdict == "mismatch":
        assert re.match(r"y: \d+ of 65536 elements differ \(first at 0: ", got["match_detail"]), got


def test_an_agents_asc_kernels_are_listed_with_their_hardware_verdicts(tmp_path):
    "cannbot's layout: operators/<op>/ascendc/src/<op>_host.asc includes the kernel .asc; the README says what is unverified."
    import subprocess
    spec = importlib.util.spec_from_file_location("corpus_for_cannbot", HERE / "corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    files = {"operators/README.md": "| **relu** | COMPLETE | 2 us |\n| **scan** | PARTIAL | TRUE_DEVICE (unverified) |\n",
             "operators/relu/ascendc/src/relu_host.asc": '#include "acl/acl.h"\n#include "relu_kernel.asc"\nint main() {}\n',
             "operators/relu/ascendc/src/relu_kernel.asc": "// kernel\n",
             "operators/scan/ascendc/src/scan_host.asc": '#include "scan_v2.asc"\n',
             "operators/scan/ascendc/src/scan_v2.asc": "// kernel\n",
             "operators/mul/ascendc/src/mul_host.asc": '#include "missing_kernel.asc"\n'}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    git = lambda *a: subprocess.run(["git", "-C", str(tmp_path), *a], check=True, capture_output=True)
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    got = corpus.collect("BobbyWeng/cannbot-ascendc-vs-pypto", str(tmp_path / ".git"))
    assert [(e["path"], e["kind"], e["hardware"]) for e in got] == [
        ("operators/relu/ascendc/src/relu_kernel.asc", "asc-file", "passed"),
        ("operators/scan/ascendc/src/scan_v2.asc", "asc-file", "unverified")]
    assert got[0]["source"] != got[1]["source"]


def test_a_bool_mask_goes_to_the_kernel_as_the_byte_type_its_input_is_defined_with():
    import torch
    from ascendcraft.opproject import OpDefinition, OpParam
    op = OpDefinition("MaskedCumsumCustom", "op_host/x.cpp", 1, [OpParam("x", dtypes=["DT_FLOAT"]),
                      OpParam("mask", dtypes=["DT_UINT8"]), OpParam("keep", dtypes=["DT_BOOL"])], [OpParam("y")], [])
    x, mask = torch.rand(4), torch.tensor([True, False, True, True])
    got = mkb.bytes_for_bools(op, [x, mask, mask])
    assert got[0] is x and got[2] is mask                    # floats, and a bool the definition takes as bool, unchanged
    assert got[1].dtype == torch.uint8 and got[1].tolist() == [1, 0, 1, 1]


def test_a_constant_set_to_the_tasks_batch_fixes_the_answer_to_its_shape():
    kernel = "// x: [N=32, C=8]\nclass K {\n  void Process() {\n    constexpr int N = 32;\n    constexpr int ALIGN = 32;\n  }\n};\n"
    assert mkb.batch_constant(kernel, 32) == "N = 32"
    assert mkb.batch_constant(kernel, 16) is None                          # another batch: not this task's
    assert mkb.batch_constant("static constexpr uint32_t BATCH = 128u;", 128) == "BATCH = 128"
    assert mkb.batch_constant("#define BATCH_SIZE 64\n", 64) == "BATCH_SIZE = 64"
    assert mkb.batch_constant("const uint32_t TILE = 32; // N = 32 in a comment", 32) is None


def test_a_runs_memory_is_estimated_on_meta_tensors_and_the_budget_comes_from_the_machine():
    "Inputs twice, the reference's own peak beside them, outputs four times over (GM file, comparison), the overhead."
    import os
    import torch
    from ascendcraft.bench import VERIFY_OVERHEAD_MB
    from ascendcraft.config import load_settings
    ns = {"torch": torch}
    exec(REFERENCE, ns)
    ns["batch_size"], ns["dim"] = 1 << 14, 1 << 10                         # 64 MiB in, 64 MiB out
    mib = 1 << 20
    # 2 * x + bias: the reference's peak is 2 * x and the sum (128 MiB); the outputs' four copies weigh more
    assert mkb.run_memory(ns) == 2 * 64 * mib + max(64 * mib + 128 * mib, 64 * mib + 4 * 64 * mib) + (VERIFY_OVERHEAD_MB << 20)
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert abs(mkb.memory_budget(load_settings(verify_memory_mb=0)) - 0.75 * ram) < mib
    assert mkb.memory_budget(load_settings(verify_memory_mb=3000)) == 3000 * mib


FIXED_TILING = """
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TwiceAddCustomTilingData tiling;
    const float* bias = context->GetAttrs()->GetAttrPointer<float>(0);
    context->SetBlockDim(4);
    tiling.set_perCore(64 * 1024 / 4);   // x: [64, 1024], the task's one shape
    tiling.set_bias(*bias);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
"""

REFUSING_TILING = """
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TwiceAddCustomTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (total != 64 * 1024) { return ge::GRAPH_FAILED; }   // written for x: [64, 1024] only
    const float* bias = context->GetAttrs()->GetAttrPointer<float>(0);
    context->SetBlockDim(4);
    tiling.set_perCore(total / 4);
    tiling.set_bias(*bias);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
"""


@pytest.mark.parametrize("tiling, why", [(FIXED_TILING, "its TilingFunc reads no input shape"),
                                         (REFUSING_TILING, "its TilingFunc refuses the smaller batch")])
def test_an_answer_fixed_to_the_tasks_shape_runs_there_when_the_budget_holds_it(tmp_path, tiling, why):
    """The task (512 KiB of inputs and outputs) is over a 128 KiB limit, so it would run with a smaller batch; an answer
    written for its one shape runs at that shape instead, and passes; over the memory budget it is not run (tiling-fixed)."""
    from ascendcraft.opproject import load_project
    text = answer()
    start = HOST_OPERATOR.index("static ge::graphStatus TilingFunc")
    fixed = HOST_OPERATOR[:start] + tiling.lstrip() + HOST_OPERATOR[HOST_OPERATOR.index("}\n}\nnamespace ops") + 2:]
    strings = dict(mkb.answer_strings(text), host_operator_src=fixed)
    assert mkb.tiling_reads_shapes(fixed) is (tiling is REFUSING_TILING)
    project = load_project(mkb.write_project(strings, tmp_path))
    got = mkb.match_mkb({"reference": "twice_add.py"}, strings, REFERENCE, project, limit=128 << 10)
    assert got["match"] == "pass" and f"at the task's own shape ({why}" in got["match_detail"], got
    # a budget that holds the smaller batch's run (1 GiB of overhead and under 1 MiB of tensors) but not the task's
    small = mkb.match_mkb({"reference": "twice_add.py"}, strings, REFERENCE, project, limit=128 << 10, budget=(1 << 30) + (1 << 20))
    if tiling is FIXED_TILING:   # known before any run: not run at all
        assert small["match"] == "tiling-fixed" and re.search(
            rf"\({why}\); at the task's own shape a run needs about 1026 MiB, over the memory budget of 1025 MiB", small["match_detail"]), small
    else:                        # the smaller batch's run is refused, then the task's own shape is over the budget
        assert small["match"] == "tiling-fixed" and "refuses the smaller batch" in small["match_detail"], small


def test_an_answer_that_sets_the_tasks_batch_in_a_constant_runs_at_the_tasks_shape(tmp_path):
    from ascendcraft.opproject import load_project
    strings = mkb.answer_strings(answer())
    strings["kernel_src"] = strings["kernel_src"].replace("    GET_TILING_DATA", "    constexpr int BATCH = 64;   // x: [64, 1024]\n    GET_TILING_DATA")
    project = load_project(mkb.write_project(strings, tmp_path))
    got = mkb.match_mkb({"reference": "twice_add.py"}, strings, REFERENCE, project, limit=128 << 10)
    assert got["match"] == "pass" and "at the task's own shape (the answer sets BATCH = 64, the task's batch" in got["match_detail"], got
    plain = mkb.match_mkb({"reference": "twice_add.py"}, mkb.answer_strings(answer()), REFERENCE,
                          load_project(mkb.write_project(mkb.answer_strings(answer()), tmp_path / "plain")), limit=128 << 10)
    assert plain["match"] == "pass" and "batch_size 64 -> 32" in plain["match_detail"], plain   # reads its shape: smaller


def test_a_bfloat16_output_is_asked_of_run_project_as_bfloat16_and_read_back_from_its_bits(monkeypatch):
    """run_project takes a bfloat16 output as (shape, "bfloat16") (DT_BF16; numpy has none) and returns its raw bits; a
    uint16 spec would ask for DT_UINT16, a column a bf16-only op definition does not have (EvoKernel's GroupedGEMM)."""
    import types
    import numpy as np
    import torch
    import ascendcraft.opproject as opproject
    from ascendcraft.opproject import OpDefinition, OpParam
    op = OpDefinition("BfTwiceCustom", "op_host/x.cpp", 1, [OpParam("x", dtypes=["DT_BF16"])], [OpParam("y", dtypes=["DT_BF16"])], [])
    project = types.SimpleNamespace(op=op, sources={})
    reference = ("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x): return x * 2\n"
                 "def get_inputs(): return [torch.rand(8).to(torch.bfloat16)]\ndef get_init_inputs(): return []\n")
    strings = {"host_operator_src": "", "kernel_src": "",
               "python_bind_src": "at::Tensor f(const at::Tensor& x) {\n  at::Tensor y = at::empty_like(x);\n"
                                  "  EXEC_NPU_CMD(aclnnBfTwiceCustom, x, y);\n  return y;\n}\n"
                                  "PYBIND11_MODULE(m, m) { m.def(\"bf_twice\", &f, \"\"); }\n",
               "model_src": "import torch, custom_ops_lib\nclass ModelNew(torch.nn.Module):\n"
                            "    def forward(self, x): return custom_ops_lib.bf_twice(x)\n"}
    asked = {}

    def fake_run(project, inputs, *, outputs=None, **kw):
        asked.update(outputs)
        y = (inputs["x"] * 2).view(torch.int16).numpy().view(np.uint16)
        return types.SimpleNamespace(run=types.SimpleNamespace(ok=True, diagnostics=[]), outputs={"y": y}, tiling_key=0)
    monkeypatch.setattr(opproject, "run_project", fake_run)
    got = mkb.match_mkb({}, strings, reference, project)
    assert asked == {"y": ((8,), "bfloat16")}
    assert got["match"] == "pass", got


def test_a_reference_that_refuses_the_smaller_batch_runs_at_the_tasks_own_shape(monkeypatch):
    """A get_inputs part that does not follow the batch (a permutation of the leading dimension made by randperm, which
    the batch's shrinking leaves alone) indexes past the smaller input: the meta device checks no index, so the shrunk
    batch is chosen, then the reference itself refuses it (EvoKernel's UnPermute: IndexError). The task then runs at
    its own shape, and says why."""
    import types
    import numpy as np
    import torch
    import ascendcraft.opproject as opproject
    from ascendcraft.opproject import OpDefinition, OpParam
    op = OpDefinition("GatherCustom", "op_host/x.cpp", 1, [OpParam("x", dtypes=["DT_FLOAT"]), OpParam("idx", dtypes=["DT_INT64"])],
                      [OpParam("y", dtypes=["DT_FLOAT"])], [])
    project = types.SimpleNamespace(op=op, sources={})
    reference = ("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x, idx): return x[idx] * 2\n"
                 "def get_inputs(): return [torch.rand(1024, 64), torch.randperm(1024)[:512]]\n"
                 "def get_init_inputs(): return []\n")
    strings = {"host_operator_src": "", "kernel_src": "",
               "python_bind_src": "at::Tensor f(const at::Tensor& x, const at::Tensor& idx) {\n"
                                  "  at::Tensor y = at::empty({idx.size(0), x.size(1)}, x.options());\n"
                                  "  EXEC_NPU_CMD(aclnnGatherCustom, x, idx, y);\n  return y;\n}\n"
                                  "PYBIND11_MODULE(m, m) { m.def(\"gather2\", &f, \"\"); }\n",
               "model_src": "import torch, custom_ops_lib\nclass ModelNew(torch.nn.Module):\n"
                            "    def forward(self, x, idx): return custom_ops_lib.gather2(x, idx)\n"}
    seen = []

    def fake_run(project, inputs, *, outputs=None, **kw):
        seen.append(tuple(inputs["x"].shape))
        y = (inputs["x"][inputs["idx"]] * 2).numpy()
        return types.SimpleNamespace(run=types.SimpleNamespace(ok=True, diagnostics=[]), outputs={"y": y}, tiling_key=0)
    monkeypatch.setattr(opproject, "run_project", fake_run)
    got = mkb.match_mkb({}, strings, reference, project, limit=128 << 10)
    assert got["match"] == "pass" and seen == [(1024, 64)], (got, seen)
    assert "at the task's own shape (its reference refuses the smaller batch: IndexError" in got["match_detail"], got
