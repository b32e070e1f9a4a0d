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
    aclFloat16 h = aclFloatToFloat16(-2.5f);     // IEEE binary16 bits: 0xC100
    std::printf("%x %g %g\n", (unsigned)h, aclFloat16ToFloat(h), aclFloat16ToFloat(aclFloatToFloat16(1.0f / 3)));
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
    assert got[:10] == ["1", "0", "0", "0", "0", "100000", "100000", "0", "10.5", "0"]
    # aclFloat16 holds binary16 bits; 1/3 comes back rounded to half precision (0.333251953125)
    assert got[10:] == ["c100", "-2.5", "0.333252"]


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


def test_a_host_tcube_tiling_saves_its_fields_to_a_buffer(tmp_path):
    "The asc-devkit Matmul examples' GenerateTiling: optiling::TCubeTiling -> SaveToBuffer -> the kernel's bytes."
    (tmp_path / "tiling.cpp").write_text(r'''
#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    optiling::TCubeTiling t;
    t.set_M(128); t.set_N(256); t.set_mxTypePara(7);
    int32_t buf[52]; for (int i = 0; i < 52; ++i) buf[i] = -1;
    t.SaveToBuffer(buf, t.GetDataSize());
    int32_t part[2] = {-1, -1};
    t.SaveToBuffer(part, 4);                      // at most `capacity` bytes
    std::printf("%d %d %d %d %d %d %d\n", (int)t.GetDataSize(), buf[1], buf[2], buf[49], buf[50], part[0], part[1]);
    return 0;
}
''')
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "tiling.cpp", "-o", "tiling"], cwd=tmp_path, check=True)
    got = subprocess.run([str(tmp_path / "tiling")], capture_output=True, text=True, check=True).stdout.split()
    # 50 int32 fields (200 bytes) in AscendC's order: M second, N third, mxTypePara last; nothing past them is written
    assert got == ["200", "128", "256", "7", "-1", "0", "-1"]


def test_an_example_that_includes_only_asc_printf_builds_and_prints(tmp_path):
    "asc-devkit's hello_world: utils/debug/asc_printf.h instead of kernel_operator.h, a plain printf in the kernel."
    from ascendcraft.emu import run
    src = '''#include "utils/debug/asc_printf.h"
#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
uint32_t Cores() { return platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1")->GetCoreNumAic(); }
bool Same() { return platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1") ==
                     platform_ascendc::PlatformAscendCManager::GetInstance(); }
__global__ __vector__ void hello_world() { printf("Hello World from block %d\\n", (int)AscendC::GetBlockIdx()); }
'''
    b = build({"hello_world.asc": src})
    assert b.ok, b.errors
    r = run(b, [], block_dim=2)
    assert r.ok and "Hello World from block 0" in r.stdout and "Hello World from block 1" in r.stdout, r.stdout
