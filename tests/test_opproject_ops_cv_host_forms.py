"""Host-side forms hicann ops-cv's op_host sources use: InitValue with typed initial values (ScalarType / ScalarVar, one
per dtype column: grid_sampler2_d_grad), recorded on the output, and TilingContext::SetLocalMemorySize /
GetLocalMemorySize (its Ascend 950 tilings, which the A2 build links too: three_interpolate_backward), which reads back
what was set and 0 before, gert::Tensor::GetFormat and TilingContext::SetNeedAtomic / NeedAtomic (grid_sampler2_d_grad's tiling). A host program compiled with g++ against the emulation's headers."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
namespace ops {
class InitCustom : public OpDef {
public:
    explicit InitCustom(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        OpParamDef& y = this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).InitValue({{ScalarType::FLOAT32, 0}, {ScalarType::FLOAT16, 1.5}});
        std::printf("%zu %d %g %d %g ", y.init_values_.size(), (int)y.init_values_[0].scalar_type,
                    y.init_values_[0].scalar_num.value_f32, (int)y.init_values_[1].scalar_type,
                    y.init_values_[1].scalar_num.value_f32);   // (before the next Output: the outputs' vector may grow)
        OpParamDef& z = this->Output("z").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND}).InitValue({ScalarType::INT32, -3});
        std::printf("%zu %d %lld ", z.init_values_.size(), (int)z.init_values_[0].scalar_type,
                    (long long)z.init_values_[0].scalar_num.value_i64);
    }
};
}  // namespace ops
int main() {
    ops::InitCustom op("InitCustom");
    gert::TilingContext ctx;
    const unsigned before = ctx.GetLocalMemorySize();
    const int ok = ctx.SetLocalMemorySize(128 * 1024) == ge::GRAPH_SUCCESS && !ctx.NeedAtomic()
                   && ctx.SetNeedAtomic(true) == ge::GRAPH_SUCCESS && ctx.NeedAtomic();
    gert::Tensor t;
    t.desc_.format_ = ge::FORMAT_NCHW;
    std::printf("%u %d %u %d %d\n", before, ok, ctx.GetLocalMemorySize(),
                ops::ScalarVar(ops::ScalarType::FLOAT16, 1.5) == ops::ScalarVar(ops::ScalarType::FLOAT16, 1.5f),
                t.GetFormat().GetStorageFormat() == ge::FORMAT_NCHW && t.GetFormat().GetOriginFormat() == ge::FORMAT_NCHW);
}
"""


def test_typed_init_values_are_recorded_and_local_memory_size_reads_back(tmp_path):
    (tmp_path / "p.cpp").write_text(PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "p.cpp", "-o", "p"], cwd=tmp_path, check=True)
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    # y: two values (FLOAT32 0, FLOAT16 1.5); z: one (INT32 -3); local memory 0, set, 131072; ScalarVar equality;
    # a tensor's formats (its description's)
    assert out == ["2", "8", "0", "9", "1.5", "1", "3", "-3", "0", "1", "131072", "1", "1"]
