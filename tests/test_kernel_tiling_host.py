"""kernel_tiling/kernel_tiling.h in op_host code: CANN generates it with the tiling structs alone (namespace
AscendC::tiling), so host code that includes it (hicann ops-nn mat_mul_v3's arch35 mat_mul_tiling_data.h) is still host
code: the device compiler's __CCE_AICORE__ and __NPU_ARCH__ stay undefined there, and a header that picks its includes
by them takes its host branch. A kernel that includes the file still gets the tiling macros."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR, build

HOST_PROGRAM = r"""
#include <cstdio>
#include "ascendcraft_emu/op_host.h"
#include "kernel_tiling/kernel_tiling.h"
// as ops-nn's fused_mat_mul_tiling_key_public.h chooses between its kernel-side and its repository-root include
#if defined(__CCE_AICORE__)
#include "device_only/no_such_header.h"
#endif
int main() {
    AscendC::tiling::TCubeTiling t;
    t.set_baseM(128);
#if defined(__NPU_ARCH__)
    std::printf("device %d", t.get_baseM());
#else
    std::printf("host %d", t.get_baseM());
#endif
    return 0;
}
"""

KERNEL = r"""
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_operator.h"
struct T { uint32_t n; };
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(T);
    GET_TILING_DATA(td, tiling);
#if __CCE_AICORE__ == 220
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, td.n);
#endif
}
"""


def test_kernel_tiling_h_in_host_code_leaves_the_device_macros_undefined(tmp_path):
    (tmp_path / "t.cpp").write_text(HOST_PROGRAM)
    c = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "t.cpp", "-o", "t"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout
    assert out == "host 128"


def test_a_kernel_including_kernel_tiling_h_first_still_gets_the_tiling_macros(tmp_path):
    (tmp_path / "k.cpp").write_text(KERNEL)
    b = build(tmp_path / "k.cpp")
    assert b.ok, "\n".join(map(str, b.diagnostics))
