// AscendCraft's stand-in for torch_npu, C++ half: the "npu" device of PyTorch (its PrivateUse1 backend, renamed "npu" by
// __init__.py) on this machine, for running PyTorch extensions that launch AscendC kernels on the CPU emulator.
// NOT torch_npu; see README.md beside this file. Written for AscendCraft; no torch_npu code.
//
// An "npu" tensor's bytes are an allocation of the emulated ACL (acl/acl.h aclrtMalloc: pages of their own at a device
// address, an unmapped page after them), so that an extension's kernel launch (asc_host_launch.h) finds each pointer
// argument's allocation and its extent, and the emulator checks the kernel's reads and writes against it as against
// any GM buffer. Fresh memory holds the poison byte 0xA5 (torch.empty's bytes are undefined on the NPU too).
// The host can read that memory, so copies to and from the device, and every other operator (a CPU fallback: inputs
// copied to the CPU, the CPU kernel, results copied back), are the CPU's.
#include <acl/acl.h>

#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/view_native.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstring>

namespace ascendcraft_npu {

constexpr c10::DeviceType kNpu = c10::DeviceType::PrivateUse1;
constexpr unsigned char kFreshByte = 0xA5;

void free_device(void* p) {
    if (p) aclrtFree(p);
}

struct DeviceAllocator final : c10::Allocator {
    c10::DataPtr allocate(size_t bytes) override {
        void* p = nullptr;
        if (bytes) {
            TORCH_CHECK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS && p,
                        "ascendcraft torch_npu stand-in: the emulated aclrtMalloc could not place ", bytes, " bytes");
            std::memset(p, kFreshByte, bytes);
        }
        return {p, p, &free_device, c10::Device(kNpu, 0)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &free_device; }
    void copy_data(void* dest, const void* src, std::size_t count) const override { std::memcpy(dest, src, count); }
};

c10::Allocator* device_allocator() {
    static DeviceAllocator allocator;
    return &allocator;
}

// One device, npu:0, and one stream on it (the emulated launches run to their end before they return).
struct DeviceGuard final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kNpu; }
    c10::Device exchangeDevice(c10::Device) const override { return c10::Device(kNpu, 0); }
    c10::Device getDevice() const override { return c10::Device(kNpu, 0); }
    void setDevice(c10::Device d) const override {
        TORCH_CHECK(d.index() <= 0, "ascendcraft torch_npu stand-in: one device (npu:0), not ", d);
    }
    void uncheckedSetDevice(c10::Device) const noexcept override {}
    c10::Stream getStream(c10::Device d) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, d); }
    c10::Stream getDefaultStream(c10::Device d) const override { return c10::Stream(c10::Stream::DEFAULT, d); }
    c10::Stream exchangeStream(c10::Stream s) const noexcept override { return s; }
    c10::DeviceIndex deviceCount() const noexcept override { return 1; }
    void synchronizeDevice(const c10::DeviceIndex) const override {}
};

// A CPU tensor over an npu tensor's bytes (the same memory, sizes and strides): what the CPU kernels work on.
at::Tensor on_host(const at::Tensor& t) {
    if (t.device().type() != kNpu) return t;
    return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

at::Tensor empty_memory_format(c10::IntArrayRef size, std::optional<at::ScalarType> dtype, std::optional<at::Layout>,
                               std::optional<at::Device>, std::optional<bool>, std::optional<at::MemoryFormat> format) {
    return at::detail::empty_generic(size, device_allocator(), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                     c10::dtype_or_default(dtype), format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride, std::optional<at::ScalarType> dtype,
                         std::optional<at::Layout>, std::optional<at::Device>, std::optional<bool>) {
    return at::detail::empty_strided_generic(size, stride, device_allocator(),
                                             c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::dtype_or_default(dtype));
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
    on_host(dst).copy_(on_host(self), non_blocking);
    return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
    TORCH_CHECK(dst.sizes() == self.sizes(), "ascendcraft torch_npu stand-in: a copy that resizes its npu destination "
                "(", dst.sizes(), " to ", self.sizes(), ") is not emulated");
    return copy_from(self, dst, false);
}

at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
    on_host(self).copy_(on_host(src), non_blocking);
    return self;
}

at::Tensor view(const at::Tensor& self, c10::SymIntArrayRef size) { return at::native::view(self, C10_AS_INTARRAYREF_SLOW(size)); }

at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      std::optional<int64_t> storage_offset) {
    return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

at::Tensor reshape_alias(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride) {
    return at::native::_reshape_alias(self, size, stride);
}

void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) { at::native::cpu_fallback(op, stack); }

}  // namespace ascendcraft_npu

C10_REGISTER_GUARD_IMPL(PrivateUse1, ascendcraft_npu::DeviceGuard);

namespace {
struct RegisterAllocator {
    RegisterAllocator() { c10::SetAllocator(c10::DeviceType::PrivateUse1, ascendcraft_npu::device_allocator()); }
};
const RegisterAllocator register_allocator;
}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("empty.memory_format", TORCH_FN(ascendcraft_npu::empty_memory_format));
    m.impl("empty_strided", TORCH_FN(ascendcraft_npu::empty_strided));
    m.impl("_copy_from", TORCH_FN(ascendcraft_npu::copy_from));
    m.impl("_copy_from_and_resize", TORCH_FN(ascendcraft_npu::copy_from_and_resize));
    m.impl("copy_", TORCH_FN(ascendcraft_npu::copy_));
    m.impl("view", TORCH_FN(ascendcraft_npu::view));
    m.impl("as_strided", TORCH_FN(ascendcraft_npu::as_strided));
    m.impl("_reshape_alias", TORCH_FN(ascendcraft_npu::reshape_alias));
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&ascendcraft_npu::cpu_fallback>());
}
