// AscendCraft's stand-in for torch_npu's torch_npu/csrc/core/npu/NPUStream.h, for PyTorch C++ extensions built and run
// on the CPU emulator (ascendcraft/runtime/torch_npu_standin/README.md). NOT torch_npu: only what an extension that
// launches an AscendC kernel on the current stream uses (`c10_npu::getCurrentNPUStream().stream(false)` handed to
// `kernel<<<blocks, nullptr, stream>>>(...)`). The emulation has one device (npu:0) and one stream, a token of the
// emulated ACL (acl/acl.h): a launch on it runs to its end before the call returns, so every stream is synchronised.
// Written from torch_npu's public documentation of these calls; no torch_npu code.
#pragma once

#include <acl/acl.h>

#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>
#include <c10/core/Stream.h>

#include <ostream>

namespace c10_npu {

namespace ascendcraft_detail {
// The one stream's token: a non-null aclrtStream, as the emulated ACL's stream calls expect.
inline aclrtStream stream_token() { return &ascendcraft_acl_detail::stream_token(); }
}  // namespace ascendcraft_detail

class NPUStream {
public:
    explicit NPUStream(c10::Stream stream) : stream_(stream) {}
    NPUStream() : stream_(c10::Stream::DEFAULT, c10::Device(c10::DeviceType::PrivateUse1, 0)) {}

    // The ACL stream a kernel launch takes. `need_empty` asks torch_npu to drain its task queue first; the emulation
    // has no queue (each launch runs before it returns), so it changes nothing here.
    aclrtStream stream(const bool need_empty = true) const {
        (void)need_empty;
        return ascendcraft_detail::stream_token();
    }
    operator aclrtStream() const { return stream(); }
    operator c10::Stream() const { return stream_; }
    c10::Stream unwrap() const { return stream_; }
    c10::Device device() const { return stream_.device(); }
    c10::DeviceIndex device_index() const { return stream_.device_index(); }
    c10::DeviceType device_type() const { return stream_.device_type(); }
    c10::StreamId id() const { return stream_.id(); }
    bool query() const { return true; }          // the emulated launches have all finished
    void synchronize() const {}                  // likewise
    bool operator==(const NPUStream& other) const noexcept { return stream_ == other.stream_; }
    bool operator!=(const NPUStream& other) const noexcept { return !(*this == other); }

private:
    c10::Stream stream_;
};

inline NPUStream getDefaultNPUStream(c10::DeviceIndex device_index = -1) {
    (void)device_index;   // one device: npu:0
    return NPUStream();
}
inline NPUStream getCurrentNPUStream(c10::DeviceIndex device_index = -1) { return getDefaultNPUStream(device_index); }
inline void setCurrentNPUStream(NPUStream stream) { (void)stream; }   // one stream: it stays current

inline std::ostream& operator<<(std::ostream& out, const NPUStream& s) { return out << s.unwrap(); }

}  // namespace c10_npu
