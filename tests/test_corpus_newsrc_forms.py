"""Two collector forms the forty-second round (newsrc) added to the corpus harness, each run through the harness's own
materialise and the emulator's op-project run against NumPy:

- an op project at the repository's root (op_host/ and op_kernel/ at the top: TJ12342/ascend_c_parctice), whose entry's
  path is "" (before: the copy took the tree's paths with their first character cut and found no op);
- cann-ops-adv's layout (yueliang13/cann-ops-adv-vllm): an op folder with its kernel `<op>.cpp` at the top and its host
  sources in ophost/ (the OpDef, the tiling struct, a TilingFunc source that a `*_tiling_register.cc` includes and
  registers with IMPL_OP_OPTILING), the kernel including a shared header of src/utils/inc/kernel (before: no entry).

The op is written for the test: ScaleRows, y = x * factor (a float attribute), in tiles of 64 over 2 blocks."""
import sys
from pathlib import Path

import numpy as np

from _corpus import git_repo, load_corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))

corpus = load_corpus("corpus_newsrc_forms")

TILING_H = r'''#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleRows, ScaleRowsTilingData)
}  // namespace optiling
'''

TILING_FUNC = r'''
namespace optiling {
static ge::graphStatus TilingScaleRows(gert::TilingContext* context)
{
    ScaleRowsTilingData tiling;
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    tiling.set_perCore(total / 2);
    tiling.set_factor(*context->GetAttrs()->GetAttrPointer<float>(0));
    context->SetBlockDim(2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
'''

OPDEF = r'''
namespace ops {
class ScaleRows : public OpDef {
public:
    explicit ScaleRows(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("factor").AttrType(OPTIONAL).Float(2.0f);
        %s
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleRows);
}  // namespace ops
'''

KERNEL = r'''#include "kernel_operator.h"
%s
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * t.perCore, t.perCore);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * t.perCore, t.perCore);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    for (uint32_t i = 0; i < t.perCore / TILE; i++) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        DataCopy(a, xGm[i * TILE], TILE);
        inQ.EnQue(a);
        a = inQ.DeQue<float>();
        LocalTensor<float> b = outQ.AllocTensor<float>();
        Muls(b, a, t.factor, TILE);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.DeQue<float>();
        DataCopy(yGm[i * TILE], b, TILE);
        outQ.FreeTensor(b);
    }
}
'''

ROOT_TREE = {
    "README.md": "ScaleRows\n",
    "CMakeLists.txt": "project(opp)\n",
    "op_host/scale_rows_tiling.h": TILING_H,
    "op_host/scale_rows.cpp": '#include "scale_rows_tiling.h"\n#include "register/op_def_registry.h"\n' + TILING_FUNC
                              + OPDEF % "this->AICore().SetTiling(optiling::TilingScaleRows);",
    "op_kernel/scale_rows.cpp": KERNEL % "constexpr uint32_t TILE = 64;",
    "case/case1/scripts/gen_data.py": "# the op's own case (not part of the op project)\n",
    "build_out/autogen/op_proto.h": "#error a build output, no source\n",
}

OP = "src/transformer/scale_rows"
OPHOST_TREE = {
    f"{OP}/scale_rows.cpp": KERNEL % '#include "tile_size.h"',
    f"{OP}/ophost/scale_rows_def.cpp": '#include "register/op_def_registry.h"\n' + OPDEF % "",
    f"{OP}/ophost/scale_rows_tiling.h": TILING_H,
    f"{OP}/ophost/scale_rows_tiling.cpp": '#include "scale_rows_tiling.h"\n#include "register/op_def_registry.h"\n' + TILING_FUNC,
    f"{OP}/ophost/scale_rows_tiling_register.cc":
        '#include "scale_rows_tiling.cpp"\nnamespace optiling {\nIMPL_OP_OPTILING(ScaleRows).Tiling(TilingScaleRows);\n}\n',
    f"{OP}/ophost/CMakeLists.txt": "target_sources(optiling PRIVATE scale_rows_tiling.cpp scale_rows_tiling_register.cc)\n",
    f"{OP}/test/scale_rows_case.py": "# the op's test on the NPU (not part of the op project)\n",
    "src/utils/inc/kernel/tile_size.h": "#pragma once\nconstexpr uint32_t TILE = 64;\n",
    "src/utils/inc/kernel/unused.h": "#error not included\n",
    "external/torch_copy/op_kernel/x.cpp": "// no op of this repository's\n",
}


def run(folder: Path):
    from ascendcraft.opproject import run_project
    x = np.random.default_rng(42).standard_normal(1024).astype(np.float32)
    r = run_project(folder, {"x": x}, outputs={"y": ((1024,), "float32")}, attrs={"factor": 3.0})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(3.0))


def test_an_op_project_at_the_repository_root_is_collected_copied_and_runs(tmp_path):
    repo = "TJ12342/ascend_c_parctice"
    gitdir, commit = git_repo(tmp_path / "repo", ROOT_TREE)
    (entry,) = corpus.collect(repo, gitdir)
    assert entry["path"] == "" and entry["kind"] == "op-project" and entry["source"].endswith("built for 910B"), entry
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    got = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert got == ["CMakeLists.txt", "op_host/scale_rows.cpp", "op_host/scale_rows_tiling.h", "op_kernel/scale_rows.cpp"]
    run(dest)


def test_an_op_in_cann_ops_adv_layout_is_collected_copied_and_runs(tmp_path):
    repo = "yueliang13/cann-ops-adv-vllm"
    gitdir, commit = git_repo(tmp_path / "repo", OPHOST_TREE)
    (entry,) = corpus.collect(repo, gitdir)
    assert (entry["path"], entry["layout"]) == (OP, "ophost") and entry["source"].endswith("built for 910B"), entry
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    assert (dest / "op_kernel" / "scale_rows.cpp").is_file() and (dest / "op_host" / "scale_rows_tiling_register.cc").is_file()
    assert not (dest / "op_kernel" / "scale_rows_case.py").exists() and not any(dest.rglob("unused.h"))
    assert any(dest.rglob("tile_size.h"))
    run(dest)


def test_a_challenge_op_without_its_unit_test_folders(tmp_path):
    """ghhufue/cann-operator-challenge-august: the op's tests/ut has op_host/ and op_kernel/ folders of unit tests (each
    with .cpp sources), which the op-project rule would take for a project of their own; they are left out."""
    repo = "ghhufue/cann-operator-challenge-august"
    op = "Problem_template/code"
    gitdir, _ = git_repo(tmp_path / "repo", {
        f"{op}/op_host/scale_rows_def.cpp": '#include "register/op_def_registry.h"\n' + OPDEF % "",
        f"{op}/op_kernel/scale_rows.cpp": KERNEL % "constexpr uint32_t TILE = 64;",
        f"{op}/tests/ut/op_host/test_scale_rows_tiling.cpp": "// a unit test\n",
        f"{op}/tests/ut/op_kernel/test_scale_rows.cpp": "// a unit test\n"})
    assert [(e["path"], e["source"].rsplit(", ", 1)[-1]) for e in corpus.collect(repo, gitdir)] == [(op, "built for 910B")]
