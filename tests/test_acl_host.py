"""The host runtime API of acl/acl.h that single-source kernels' host helpers call (runtime/include/acl/acl.h): over
this machine's memory, with CANN's error codes. The helpers are compiled with the kernel; this runs them."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR, build

HOST = r'''
#include "acl/acl.h"
#include <cstdio>
int main() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    uint32_t n = 0; aclrtGetDeviceCount(&n);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float host[8], back[8];
    for (int i = 0; i < 8; ++i) host[i] = i * 1.5f;
    void* dev = nullptr;
    aclError alloc = aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
    aclError in = aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
    aclError sync = aclrtSynchronizeStream(stream);
    aclError out = aclrtMemcpy(back, sizeof back, dev, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST);
    aclError over = aclrtMemcpy(back, 4, dev, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST);   // more than fits
    aclError other_device = aclrtSetDevice(1);
    std::printf("%u %d %d %d %d %d %d %d %g %lu\n", n, alloc, in, sync, out, over, other_device,
                aclrtFree(dev), back[7], (unsigned long)((uintptr_t)dev % 32));
    aclrtDestroyStream(stream); aclrtResetDevice(0); aclFinalize();
    return 0;
}
'''


def test_acl_host_calls_work_over_host_memory(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    got = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.split()
    # 1 device; allocation, copies and sync succeed; a copy larger than its destination and device 1 are
    # ACL_ERROR_INVALID_PARAM (100000); the data made the round trip; device memory is 32-byte aligned
    assert got == ["1", "0", "0", "0", "0", "100000", "100000", "0", "10.5", "0"]


def test_a_kernel_file_with_acl_host_helpers_builds():
    "An official-example-style file: a host helper using ACL before the kernel, compiled and linked with it."
    # its host code names matmul_tiling's DT_* enumerators: a .asc file gets no op-compiler DT_* macros
    src = '''#include "acl/acl.h"
#include "tiling/tiling_api.h"
#include "kernel_operator.h"
void* AllocHost(size_t bytes) { void* p = nullptr; return aclrtMallocHost(&p, bytes) == ACL_SUCCESS ? p : nullptr; }
int HalfType() { return static_cast<int>(matmul_tiling::DataType::DT_FLOAT16); }
__global__ __aicore__ void fill(GM_ADDR y) {
    AscendC::GlobalTensor<float> ys; ys.SetGlobalBuffer((__gm__ float*)y, 8);
    for (int i = 0; i < 8; ++i) ys.SetValue(i, 1.0f);
}
'''
    b = build({"k.asc": src})
    assert b.ok, b.errors
