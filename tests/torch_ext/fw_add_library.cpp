// The TORCH_LIBRARY binding of fw_add.asc's kernels for the npu device (tests/test_torch_npu_standin.py):
// `torch.ops.load_library("libfw_library.so")`, then `torch.ops.fw_library.add(x.npu(), y.npu())`.
#include <torch/extension.h>

namespace fw {
at::Tensor add(const at::Tensor& x, const at::Tensor& y, int64_t mode);
}

TORCH_LIBRARY(fw_library, m)
{
    m.def("add(Tensor x, Tensor y) -> Tensor");
    m.def("add_past_the_end(Tensor x, Tensor y) -> Tensor");
}

TORCH_LIBRARY_IMPL(fw_library, PrivateUse1, m)
{
    m.impl("add", [](const at::Tensor& x, const at::Tensor& y) { return fw::add(x, y, 0); });
    m.impl("add_past_the_end", [](const at::Tensor& x, const at::Tensor& y) { return fw::add(x, y, 1); });
}
