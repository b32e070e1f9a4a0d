"""matmul_tiling::half on the host: CANN's matmul tiling header names it double outside a device compile, so op_host
code under `using namespace matmul_tiling;` that sizes buffers with sizeof(half) compiles and gets 8, as on CANN
(ops-transformer grouped_matmul_swiglu_quant's tiling). A kernel that includes the same header keeps AscendC's half."""
import subprocess
from pathlib import Path

import ascendcraft
from ascendcraft.emu import build

INCLUDE = Path(ascendcraft.__file__).parent / "runtime" / "include"

HOST = '''#include "tiling/tiling_api.h"
namespace optiling {
inline unsigned long WorkspaceBytes(unsigned long rows, unsigned long n)
{
    using namespace matmul_tiling;
    return 2 * rows * n * sizeof(half);
}
}
static_assert(sizeof(matmul_tiling::half) == 8, "CANN's host half is double");
int main() { return optiling::WorkspaceBytes(3, 5) == 240 ? 0 : 1; }
'''

KERNEL = '''#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;
using namespace matmul_tiling;
static_assert(sizeof(half) == 2, "the kernel's half");
extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }
'''


def test_host_code_sizes_with_matmul_tiling_half(tmp_path):
    src = tmp_path / "host.cpp"
    src.write_text(HOST)
    r = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE), "-include", "ascendcraft_emu/op_host.h", str(src),
                        "-fsyntax-only"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def test_a_kernel_that_includes_the_tiling_header_keeps_its_half():
    b = build({"k.cpp": KERNEL})
    assert b.ok, "\n".join(map(str, b.diagnostics))
