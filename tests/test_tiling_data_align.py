"""BEGIN_TILING_DATA_DEF structs are padded as the Ascend C project framework pads them: each field at a multiple of its
own size, the struct as a whole to 8 bytes, so a nested struct field starts 8-byte aligned (the AscendC docs'
TilingData结构定义 and 限制TilingData结构大小). CANN's op hosts check it: cann-ops MatMulV3's tiling fails with
"tiling data size[260] is not aligned to 8" when its MatmulTilingData (a TCubeTiling, two 5 x uint32 structs, a uint32
struct and 4 x uint32) is not padded."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''
#include <cstddef>
#include <cstdio>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(Unaligned)            // the docs' counter-example: 10 bytes of padding, 24 in all
  TILING_DATA_FIELD_DEF(uint8_t, formerNum);
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);
  TILING_DATA_FIELD_DEF(uint8_t, tailNum);
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);
  TILING_DATA_FIELD_DEF(uint32_t, alignNum);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Reordered)            // the docs' better order: 2 bytes of padding, 16 in all
  TILING_DATA_FIELD_DEF(uint8_t, formerNum);
  TILING_DATA_FIELD_DEF(uint8_t, tailNum);
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);
  TILING_DATA_FIELD_DEF(uint32_t, alignNum);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Flag)
  TILING_DATA_FIELD_DEF(uint32_t, flag);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Five)
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 5, v);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Outer)                // MatmulTilingData's shape: 200 + 24 + 24 + 8 + 16
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
  TILING_DATA_FIELD_DEF_STRUCT(Five, a);
  TILING_DATA_FIELD_DEF_STRUCT(Five, b);
  TILING_DATA_FIELD_DEF_STRUCT(Flag, c);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, tail);
END_TILING_DATA_DEF;
}
int main() {
    optiling::Unaligned u; optiling::Reordered r; optiling::Outer o;
    std::printf("%zu %zu %zu %zu %zu %zu %zu %zu\n", u.GetDataSize(), r.GetDataSize(), o.GetDataSize(),
                offsetof(optiling::Unaligned, tailLength), offsetof(optiling::Outer, b), offsetof(optiling::Outer, c),
                offsetof(optiling::Outer, tail), o.GetDataSize() % 8);
    return 0;
}
'''


def test_tiling_structs_are_padded_to_8_bytes(tmp_path):
    (tmp_path / "t.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path, check=True)
    got = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout.split()
    # Unaligned 24 (3 + 3 + 4 bytes of padding), Reordered 16; Outer: b at 224, c at 248, tail at 256, 272 bytes
    assert got == ["24", "16", "272", "12", "224", "248", "256", "0"]


def test_a_kernel_reads_a_padded_nested_struct_where_the_host_wrote_it(tmp_path):
    "The op-project path: the host's set_ values come back in the kernel through GET_TILING_DATA, nested struct too."
    import numpy as np
    from ascendcraft.opproject import run_project
    host = tmp_path / "op_host"
    kern = tmp_path / "op_kernel"
    host.mkdir(), kern.mkdir()
    (host / "pad_probe_tiling.h").write_text('''#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ProbeInner)
  TILING_DATA_FIELD_DEF(uint32_t, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ProbeInnerOp, ProbeInner)
BEGIN_TILING_DATA_DEF(ProbeTiling)
  TILING_DATA_FIELD_DEF(uint32_t, count);
  TILING_DATA_FIELD_DEF_STRUCT(ProbeInner, inner);
  TILING_DATA_FIELD_DEF(uint32_t, shift);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PadProbe, ProbeTiling)
}
''')
    (host / "pad_probe.cpp").write_text('''#include "pad_probe_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    ProbeTiling t;
    t.set_count(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    t.inner.set_scale(3);
    t.set_shift(100);
    if (t.GetDataSize() % 8 != 0) return ge::GRAPH_FAILED;   // as CANN's matmul hosts check
    context->SetBlockDim(1);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class PadProbe : public OpDef {
public:
    explicit PadProbe(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PadProbe);
}
''')
    (kern / "pad_probe.cpp").write_text('''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void pad_probe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<int32_t> xs, ys;
    xs.SetGlobalBuffer((__gm__ int32_t*)x, t.count);
    ys.SetGlobalBuffer((__gm__ int32_t*)y, t.count);
    for (uint32_t i = 0; i < t.count; ++i) ys.SetValue(i, xs.GetValue(i) * (int32_t)t.inner.scale + (int32_t)t.shift);
}
''')
    x = np.arange(8, dtype=np.int32)
    r = run_project(tmp_path, {"x": x}, outputs={"y": ((8,), np.int32)})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    assert r.outputs["y"].tolist() == (x * 3 + 100).tolist()
