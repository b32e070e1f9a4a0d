"""BroadCast's host temporary size (GetBroadCastMaxMinTmpSize, lib/pad/broadcast_tiling.h), as an op's TilingFunc
calls it through tiling/tiling_api.h (the FrameworkLaunch broadcast sample's form, which a community copy of it in the
corpus calls: chiparon/ascendC baseline/7_broadcast_frameworklaunch). The A2 rule: nothing for a copy or a one-element
fill (a block for int8, plus its two half copies); one block for [1, k] -> [m, k]; for [m, 1] -> [m, k] an 8-row brcb
group per block (min one group of a block's elements, max every row's), plus the rows laid out at k rounded up to a block
when k is not whole blocks. A shape it cannot broadcast is an [ERROR] line and leaves the sizes untouched."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/tiling_api.h"
#include "lib/pad/broadcast_tiling.h"
#include <cstdio>
#include <vector>
static void show(std::vector<int64_t> src, std::vector<int64_t> dst, uint32_t typeSize) {
    auto platform = platform_ascendc::PlatformAscendC(nullptr);
    uint32_t mx = 7, mn = 7;
    AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape(src), ge::Shape(dst), typeSize, false, mx, mn);
    std::printf("%u %u\n", mx, mn);
}
int main() {
    show({1}, {64}, 4);            // one element fills the result
    show({1}, {64}, 1);            // int8: two half copies (16 + 64 elements) and a block
    show({1, 64}, {12, 64}, 2);    // axis 0, 64 halves = 4 blocks
    show({12, 1}, {12, 64}, 4);    // axis 1, 64 floats = 8 blocks
    show({12, 1}, {12, 20}, 4);    // axis 1, 20 floats: not whole blocks
    show({12, 1}, {12, 20}, 1);    // int8 axis 1: computed in half (20 -> 32 halves)
    show({3, 2}, {3, 5}, 4);       // an axis neither equal nor 1: refused
    show({1, 20}, {4, 20}, 4);     // axis 0 with a row of 20 floats: refused
}
'''


def test_host_broadcast_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    assert rows[0] == (0, 0)
    assert rows[1] == ((16 + 64) * 2 + 32,) * 2
    assert rows[2] == (32, 32)
    # 8 floats a block: min one 8 x 8 group (256 bytes); max 12 rows rounded up to 16, a block each (512 bytes)
    assert rows[3] == (16 * 8 * 4, 8 * 8 * 4)
    # and the rows at 24 floats: one block's worth of rows (8) at least, all 12 at most
    assert rows[4] == (16 * 8 * 4 + 12 * 24 * 4, 8 * 8 * 4 + 8 * 24 * 4)
    cast = (16 + 240) * 2   # int8 12 x 20: source 12 -> 16 halves, result 240 halves
    assert rows[5] == (16 * 16 * 2 + 12 * 32 * 2 + cast, 16 * 16 * 2 + 16 * 32 * 2 + cast)
    assert rows[6] == (7, 7) and rows[7] == (7, 7)     # refused: the sizes are left as they were
    assert out.stderr.count("[ERROR] GetBroadCastMaxMinTmpSize") == 2
