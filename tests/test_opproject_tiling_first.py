"""run_project runs an op's tiling function before it builds the op's kernel (`tiling_first`: the host side built
with an empty kernel): a tiling that refuses the inputs says so with no kernel build made, and a kernel that CANN
compiles once per tiling key (`#if TILING_KEY_VAR == K`; a tiling-template kernel of more than TPL_ONE_BUILD_MAX
instances) is built for the key its tiling chose and no other. Before, the kernel was built first (for key 0), and a
user whose tiling refused their shapes waited for a kernel build to learn it."""
import shutil
import uuid
from pathlib import Path

import pytest
import torch

from ascendcraft import emu, opproject
from ascendcraft.opproject import TILING_ONLY_ENTRY, load_project, run_project

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "opprojects"

# KeyScaleCustom: y = x * scale over float32, in whole 32-byte units; 8 cores at most. CANN's style of a kernel built
# once per tiling key: key 1 splits the units evenly, key 2 gives the last core the rest.
KEY_TILING_H = """/* Tiling data of KeyScaleCustom. */
#ifndef KEY_SCALE_CUSTOM_TILING_H
#define KEY_SCALE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeyScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, coreLength);
TILING_DATA_FIELD_DEF(uint32_t, lastLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(KeyScaleCustom, KeyScaleTilingData)
}  // namespace optiling
#endif  // KEY_SCALE_CUSTOM_TILING_H
"""

KEY_HOST = """/* KeyScaleCustom: y = x * scale. Key 1: the 32-byte units split evenly over the cores; key 2: the last core takes
 * the units left over. A length that is no whole number of units is refused. */
#include "key_scale_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    KeyScaleTilingData tiling;
    const int64_t total = context->GetInputTensor(0)->GetShapeSize();
    if (total <= 0 || total % 8 != 0) return ge::GRAPH_FAILED;
    const uint32_t units = static_cast<uint32_t>(total / 8);
    const uint32_t cores = units < 8 ? units : 8;
    const uint32_t base = units / cores;
    const uint32_t last = units - base * (cores - 1);
    const float* scale = context->GetAttrs()->GetFloat(0);
    tiling.set_coreLength(base * 8);
    tiling.set_lastLength(last * 8);
    tiling.set_tileLength((last * 8) < 256 ? last * 8 : 256);
    tiling.set_scale(scale ? *scale : 1.0f);
    context->SetBlockDim(cores);
    context->SetTilingKey(last == base ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class KeyScaleCustom : public OpDef {
public:
    explicit KeyScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(KeyScaleCustom);
}  // namespace ops
"""

KEY_KERNEL = """/* KeyScaleCustom kernel, compiled once per tiling key as CANN's build compiles it (TILING_KEY_VAR). */
#include "kernel_operator.h"

using namespace AscendC;

class KernelKeyScale {
public:
    __aicore__ inline KernelKeyScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t offset, uint32_t length, uint32_t tileLength, float scale)
    {
        this->length = length;
        this->tileLength = tileLength;
        this->scale = scale;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, length);
        pipe.InitBuffer(inQueue, 2, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 2, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < length; done += tileLength) {
            const uint32_t n = length - done < tileLength ? length - done : tileLength;
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[done], n);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Muls(yLocal, xLocal, scale, n);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[done], yLocal, n);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t length = 0, tileLength = 0;
    float scale = 0;
};

extern "C" __global__ __aicore__ void key_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelKeyScale op;
    const uint32_t core = GetBlockIdx();
#if TILING_KEY_VAR == 1
    op.Init(x, y, core * tilingData.coreLength, tilingData.coreLength, tilingData.tileLength, tilingData.scale);
#elif TILING_KEY_VAR == 2
    const uint32_t length = core + 1 == GetBlockNum() ? tilingData.lastLength : tilingData.coreLength;
    op.Init(x, y, core * tilingData.coreLength, length, tilingData.tileLength, tilingData.scale);
#endif
    op.Process();
}
"""


def _key_project(folder: Path) -> Path:
    "The KeyScaleCustom project, with a mark of its own in the kernel (a kernel the machine's cache has not seen)."
    files = {"op_host/key_scale_custom_tiling.h": KEY_TILING_H, "op_host/key_scale_custom.cpp": KEY_HOST,
             "op_kernel/key_scale_custom.cpp": f"// {uuid.uuid4()}\n" + KEY_KERNEL}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def builds(monkeypatch):
    """Every build run_project makes or takes from the cache, as (entry, tiling key): opproject's builds and the emulator's
    per-key rebuilds (not run_project's look-up of a kernel build in the cache, `cached_only`, which compiles nothing)."""
    made, real = [], emu.build
    def counting(sources, entry=None, **kw):
        if not kw.get("cached_only"): made.append((entry, kw.get("tiling_key")))
        return real(sources, entry, **kw)
    monkeypatch.setattr(opproject, "build", counting)
    monkeypatch.setattr(emu, "build", counting)
    return made


def _kernel_builds(made):
    return [(e, k) for e, k in made if e != TILING_ONLY_ENTRY]


def test_a_refused_shape_is_said_with_no_kernel_build_and_the_same_words(builds, tmp_path):
    shutil.copytree(EXAMPLES / "leaky_relu_custom", tmp_path / "p", ignore=shutil.ignore_patterns("__pycache__"))
    kernel = tmp_path / "p" / "op_kernel" / "leaky_relu_custom.cpp"
    kernel.write_text(f"// {uuid.uuid4()}\n" + kernel.read_text())
    project = load_project(tmp_path / "p")
    ref = lambda x, negative_slope: torch.nn.functional.leaky_relu(x, negative_slope)
    r = run_project(project, {"x": torch.randn(100)}, attrs={"negative_slope": 0.2}, reference=ref)
    assert not r.run.ok
    [d] = r.run.diagnostics   # the words of tests/test_opproject_tiling_failure.py, at the check that refused
    assert (d.kind, d.file, d.line, d.col) == ("host-tiling", "op_host/leaky_relu_custom.cpp", 16, 53), d.render()
    assert "x DT_FLOAT (100,), negative_slope=0.2" in d.message
    assert builds and not _kernel_builds(builds), builds   # the host side only
    r = run_project(project, {"x": torch.randn(128)}, attrs={"negative_slope": 0.2}, reference=ref)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    assert _kernel_builds(builds) == [("leaky_relu_custom", r.tiling_key)]   # now the kernel, once
    builds.clear()   # the kernel's build in the cache: it runs at once, its own program tiling first
    r = run_project(project, {"x": torch.randn(128)}, attrs={"negative_slope": 0.2}, reference=ref)
    assert r.ok and builds == [], builds


def test_a_kernel_built_per_tiling_key_is_built_for_the_key_its_tiling_chose_only(builds, tmp_path):
    project = load_project(_key_project(tmp_path / "p"))
    for n, key in ((9 * 8, 2), (64 * 8, 1)):   # 9 units over 8 cores: the last takes 2 (key 2); 64: 8 each (key 1)
        builds.clear()
        x = torch.randn(n)
        r = run_project(project, {"x": x}, attrs={"scale": 1.5}, reference=lambda x, scale: x * scale)
        assert r.ok, [d.render() for d in r.run.diagnostics]
        assert r.tiling_key == key
        assert _kernel_builds(builds) == [("key_scale_custom", key)], builds   # never key 0's binary, nor a rebuild
    builds.clear()
    r = run_project(project, {"x": torch.randn(100)}, attrs={"scale": 1.5}, reference=lambda x, scale: x * scale)
    [d] = r.run.diagnostics
    assert (d.kind, d.file) == ("host-tiling", "op_host/key_scale_custom.cpp"), d.render()
    assert "return ge::GRAPH_FAILED" in d.source_line
    assert not _kernel_builds(builds), builds


def test_a_tiling_template_kernel_built_per_key_is_built_for_the_chosen_key(builds, monkeypatch):
    # tpl_scale_custom has 5 instances; over TPL_ONE_BUILD_MAX each is compiled alone, as hicann's large ones are
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 1)
    project = load_project(EXAMPLES / "tpl_scale_custom")
    x = torch.randn(48 * 4 * 64)   # four tiles a core: a key other than 0
    r = run_project(project, {"x": x}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    assert r.tiling_key != 0
    assert _kernel_builds(builds) == [(opproject.TPL_ENTRY, r.tiling_key)], builds
