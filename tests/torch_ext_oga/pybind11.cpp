// The binding of tests/torch_ext_oga: the tiling filled in a CPU byte tensor and moved to the npu device, each tensor's
// bytes handed over as `storage().data()`, the launcher called with the stream.
#include <pybind11/pybind11.h>
#include <torch/extension.h>

#include "acl/acl.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"

#include "oga_scale_tiling.h"

extern "C" void oga_scale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *tiling);

namespace oga_scale_ext {

constexpr int32_t kCores = 2;
constexpr int32_t kVectorsPerCore = 2;

at::Tensor run_scale(const at::Tensor &x, double scale)
{
    TORCH_CHECK(x.scalar_type() == at::kFloat && x.is_contiguous(), "x must be contiguous float32");
    const auto n = static_cast<int32_t>(x.numel());
    const int32_t vectors = kCores * kVectorsPerCore;
    TORCH_CHECK(n % (8 * vectors) == 0, "x must hold a multiple of 32 floats");
    at::Tensor y = at::empty_like(x);
    at::Tensor tilingCpu = at::empty({static_cast<long>(sizeof(OgaScaleTiling))}, at::device(at::kCPU).dtype(at::kByte));
    auto *tiling = reinterpret_cast<OgaScaleTiling *>(tilingCpu.data_ptr());
    tiling->n = n;
    tiling->perVector = n / vectors;
    tiling->scale = static_cast<float>(scale);
    tiling->reserved = 0;
    auto tilingNpu = tilingCpu.to(at::kPrivateUse1);
    oga_scale_do(kCores, c10_npu::getCurrentNPUStream().stream(false),
                 static_cast<uint8_t *>(const_cast<void *>(x.storage().data())),
                 static_cast<uint8_t *>(const_cast<void *>(y.storage().data())),
                 static_cast<uint8_t *>(const_cast<void *>(tilingNpu.storage().data())));
    return y;
}

}  // namespace oga_scale_ext

PYBIND11_MODULE(_oga_scale_ext, m)
{
    m.def("run_scale", &oga_scale_ext::run_scale, "y = x * scale on the npu device");
}
