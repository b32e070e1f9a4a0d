"""Host-side forms sgl-kernel-npu's attention op projects use (ada_block_sparse_attention's tiling): gert::Tensor::GetShape,
both shapes at once (`actualSeqLenTensor->GetShape().GetStorageShape()`), and the one-bound Select temporary sizes (in
tests/test_emu_select_tiling.py). A host program compiled with g++ against the emulation's headers."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::Tensor t;
    t.shape_.MutableOriginShape() = gert::Shape({4, 6});
    t.shape_.MutableStorageShape() = gert::Shape({4, 8});
    const gert::Tensor* p = &t;
    auto& shape = p->GetShape().GetStorageShape();
    std::printf("%zu %lld %lld %lld\n", shape.GetDimNum(), (long long)shape.GetDim(1),
                (long long)p->GetShape().GetOriginShape().GetDim(1), (long long)p->GetShapeSize());
}
"""


def test_a_tensors_get_shape_gives_both_shapes(tmp_path):
    (tmp_path / "host.cpp").write_text(PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["2", "8", "6", "24"]


FORMATS = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::Tensor t;
    t.desc_.format_ = ge::FORMAT_NCHW;
    const gert::Tensor* p = &t;
    std::printf("%d %d %d\n", p->GetOriginFormat() == ge::FORMAT_NCHW, p->GetStorageFormat() == ge::FORMAT_NCHW,
                p->GetFormat().GetOriginFormat() == p->GetOriginFormat());
}
"""


def test_a_tensor_gives_its_origin_and_storage_format_each_by_itself(tmp_path):
    """cann-ops grid_sample's tiling reads an input tensor's `GetOriginFormat()` (gert::Tensor has both formats' getters
    besides GetFormat()); the emulated tensors keep one format for both."""
    (tmp_path / "host.cpp").write_text(FORMATS)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "1", "1"]
