"""The host temporary sizes of Gelu (GetGeluMin/Max/MaxMinTmpSize), Silu / Swish (GetSiluTmpSize, GetSwishTmpSize) and
ClampMax / ClampMin / Clamp (GetClampMaxMinTmpSize, GetClampTmpBufferFactorSize), through tiling/tiling_api.h as the
asc-devkit gelu, swish and clampmin examples' host programs call them. The rules: Gelu keeps three float buffers (one
256-byte repeat each at least, the whole input in float at most, half and float alike); Silu and Swish need none;
Clamp keeps one mask byte per element (one repeat's: 64 for float, 128 for half, at least)."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    ge::Shape s1024(std::vector<int64_t>({8, 128})), s10(std::vector<int64_t>({10}));
    uint32_t mx = 7, mn = 7;
    std::printf("%u %u\n", AscendC::GetGeluMinTmpSize(s1024, 4), AscendC::GetGeluMaxTmpSize(s1024, 2));
    AscendC::GetGeluMaxMinTmpSize(s10, 2, mx, mn);
    std::printf("%u %u\n", mx, mn);
    mx = mn = 7;
    AscendC::GetSwishTmpSize(s1024, 4, false, mx, mn);
    std::printf("%u %u\n", mx, mn);
    mx = mn = 7;
    AscendC::GetSiluTmpSize(s1024, 2, true, mx, mn);
    std::printf("%u %u\n", mx, mn);
    AscendC::GetClampMaxMinTmpSize(s1024, 4, false, mx, mn);
    std::printf("%u %u\n", mx, mn);
    AscendC::GetClampMaxMinTmpSize(s10, 2, false, mx, mn);
    std::printf("%u %u\n", mx, mn);
    uint32_t live = 7, extra = 7;
    AscendC::GetClampTmpBufferFactorSize(4, live, extra);
    std::printf("%u %u\n", live, extra);
}
'''


def test_host_gelu_swish_clamp_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    assert rows[0] == (3 * 256, 3 * 1024 * 4)     # Gelu: min three repeats; max three float copies of the input
    assert rows[1] == (3 * 256, 3 * 256)          # a small input: the maximum is never below the minimum
    assert rows[2] == (0, 0)                      # Swish: no temporary buffer
    assert rows[3] == (0, 0)                      # Silu: none either
    assert rows[4] == (1024, 64)                  # Clamp float: a mask byte per element, 64 at least
    assert rows[5] == (128, 128)                  # Clamp half: 128 at least
    assert rows[6] == (1, 0)
