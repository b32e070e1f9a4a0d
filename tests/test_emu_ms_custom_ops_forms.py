"""Forms MindSpore's ms_custom_ops op projects use that the emulator lacked (round 41, newsrc):

- `#include "ascendc/basic_api/kernel_operator.h"`: the kernel API under the path a CANN install also gives it.
- `ValueDepend(OPTIONAL, DependScope::TILING)` in the OpDef (the two-argument form: the values serve the tiling only),
  and `ASC_CPU_LOG_ERROR` / `_WARNING` / `_INFO` / `_DEBUG` from utils/log/asc_cpu_log.h in the TilingFunc.
- a kernel that writes one of its inputs in place (a KV cache; MindSpore's `rw_write` arguments): run_project's
  `written_inputs` gives that input the in-out role; without it the write stays a `gm-write-input` error.

The op here is written for the test: StashRows copies the rows of `x` into `cache` from the row `start` names (one
int64 the tiling reads), in place, then copies the whole cache to `y`.
"""
import numpy as np
import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import run_project

TILING_H = r'''#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(StashRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cacheRows);
TILING_DATA_FIELD_DEF(uint32_t, width);
TILING_DATA_FIELD_DEF(uint32_t, start);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(StashRows, StashRowsTilingData)
}  // namespace optiling
'''

HOST = r'''#include "stash_rows_tiling.h"
#include "register/op_def_registry.h"
#include "utils/log/asc_cpu_log.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto x = context->GetInputShape(0)->GetOriginShape();
    auto cache = context->GetInputShape(1)->GetOriginShape();
    auto start = context->GetInputTensor(2);
    if (start == nullptr || start->GetData<int64_t>() == nullptr) {
        ASC_CPU_LOG_ERROR("start has no data");
        return ge::GRAPH_FAILED;
    }
    int64_t first = start->GetData<int64_t>()[0];
    ASC_CPU_LOG_INFO("start row %ld", first);
    if (first < 0 || first + x.GetDim(0) > cache.GetDim(0)) {
        ASC_CPU_LOG_ERROR("rows %ld..%ld are outside the cache's %ld rows", first, first + x.GetDim(0), cache.GetDim(0));
        return ge::GRAPH_FAILED;
    }
    StashRowsTilingData tiling;
    tiling.set_rows(x.GetDim(0));
    tiling.set_cacheRows(cache.GetDim(0));
    tiling.set_width(x.GetDim(1));
    tiling.set_start(static_cast<uint32_t>(first));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class StashRows : public OpDef {
public:
    explicit StashRows(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("start").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND})
            .ValueDepend(Option::OPTIONAL, DependScope::TILING);
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StashRows);
}  // namespace ops
'''

KERNEL = r'''#include "ascendc/basic_api/kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void stash_rows(GM_ADDR x, GM_ADDR cache, GM_ADDR start, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> xGm, cacheGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, t.rows * t.width);
    cacheGm.SetGlobalBuffer((__gm__ float *)cache, t.cacheRows * t.width);
    yGm.SetGlobalBuffer((__gm__ float *)y, t.cacheRows * t.width);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.cacheRows * t.width * sizeof(float));
    LocalTensor<float> rows = buf.Get<float>();
    DataCopy(rows, xGm, t.rows * t.width);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(cacheGm[t.start * t.width], rows, t.rows * t.width);     // the cache, in place
    PipeBarrier<PIPE_ALL>();
    DataCopy(rows, cacheGm, t.cacheRows * t.width);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm, rows, t.cacheRows * t.width);
}
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stash_rows")
    (folder / "op_host").mkdir()
    (folder / "op_kernel").mkdir()
    (folder / "op_host" / "stash_rows_tiling.h").write_text(TILING_H)
    (folder / "op_host" / "stash_rows.cpp").write_text(HOST)
    (folder / "op_kernel" / "stash_rows.cpp").write_text(KERNEL)
    return folder


def inputs(first: int):
    rng = np.random.default_rng(41)
    return {"x": rng.standard_normal((3, 16)).astype(np.float32),
            "cache": rng.standard_normal((8, 16)).astype(np.float32), "start": np.array([first], np.int64)}


def test_an_input_written_in_place_runs_with_written_inputs_and_matches(project):
    given = inputs(4)
    want = given["cache"].copy()
    want[4:7] = given["x"]
    r = run_project(project, given, outputs={"y": ((8, 16), "float32")}, written_inputs=("cache",))
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_the_same_write_without_written_inputs_is_gm_write_input(project):
    r = run_project(project, inputs(4), outputs={"y": ((8, 16), "float32")})
    assert not r.run.ok and "gm-write-input" in [d.kind for d in r.run.errors]


def test_written_inputs_naming_no_input_is_refused(project):
    with pytest.raises(AscendCraftError, match="written_inputs names kv"):
        run_project(project, inputs(4), outputs={"y": ((8, 16), "float32")}, written_inputs=("kv",))


def test_the_tiling_reads_the_value_and_its_log_error_says_why_it_failed(project):
    r = run_project(project, inputs(6), outputs={"y": ((8, 16), "float32")}, written_inputs=("cache",))
    assert not r.run.ok and [d.kind for d in r.run.errors] == ["host-tiling"]
    printed = r.run.errors[0].hint      # what the tiling function printed comes with the error
    assert "[ERROR]" in printed and "TilingFunc: rows 6..9 are outside the cache's 8 rows" in printed
    assert "start row" not in printed   # ASC_CPU_LOG_INFO is dropped, as at CANN's default log level


# The ATB-style shared kernel headers ms_custom_ops's unpad_fa_npd builds on name the SDK's internal headers by the
# folders CANN's kernel include path has had them in (impl/, tikcfw/), and its entry reads the FFTS base register
# with the device compiler's get_ffts_base_addr() to hand it to set_ffts_base_addr.
OLD_PATHS_KERNEL = r'''#include "tikcfw/kernel_operator.h"
#include "impl/kernel_macros.h"
#include "impl/kernel_event.h"

extern "C" __global__ __aicore__ void double_rows(GM_ADDR x, GM_ADDR y)
{
    int64_t ffts = get_ffts_base_addr();
    set_ffts_base_addr(ffts);
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 128);
    yGm.SetGlobalBuffer((__gm__ float *)y, 128);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(t, t, t, 128);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, 128);
}
'''


def test_the_sdk_headers_under_their_old_folders_and_the_ffts_register_read(tmp_path):
    from ascendcraft.emu import GM, build, run
    src = tmp_path / "double_rows.cpp"
    src.write_text(OLD_PATHS_KERNEL)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.linspace(-3, 3, 128).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
