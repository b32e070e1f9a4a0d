"""The host side of Broadcast (lib/pad/broadcast_tiling.h, tiling/broadcast/broadcast_tiling.h, tiling/tiling_api.h):
GetBroadCastMaxMinTmpSize on the emulated Ascend 910B, as an op's TilingFunc calls it (hicann ops-math broadcast_v2).
The expected sizes are worked out here from the API's A2 rule, case by case, not read back from the emulation."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/broadcast/broadcast_tiling.h"
#include "tiling/tiling_api.h"
#include <cstdio>
#include <vector>
static void show(std::vector<int64_t> src, std::vector<int64_t> dst, uint32_t typeSize) {
    auto platform = platform_ascendc::PlatformAscendC(nullptr);
    uint32_t mx = 7, mn = 7;
    AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape(src), ge::Shape(dst), typeSize, false, mx, mn);
    std::printf("%u %u\n", mx, mn);
    std::fflush(stdout);
}
int main() {
    show({16, 1}, {16, 8}, 4);        // axis 1, k one float block
    show({1024, 1}, {1024, 16}, 2);   // the API reference's example: half, k one block
    show({5, 1}, {5, 20}, 2);         // axis 1, k not whole blocks
    show({3, 1}, {3, 40}, 1);         // int8: widened to two bytes
    show({1, 32}, {4, 32}, 4);        // axis 0
    show({8, 8}, {8, 8}, 4);          // nothing to spread
    show({1}, {64}, 1);               // one element, int8
    show({1, 30}, {4, 30}, 4);        // axis 0 with k not whole blocks: refused
    show({2, 1, 1}, {2, 1, 8}, 4);    // three axes: refused
    show({2, 1}, {4, 8}, 4);          // 2 -> 4 is no broadcast: refused
    show({4, 1}, {4, 8}, 8);          // 8-byte elements: refused
}
'''


def a2_rule(src, dst, type_size):
    "The A2 sizes (max, min) in bytes, from the rule of the API's host tiling, written out for each case."
    def up(v, to):
        return -(-v // to) * to
    src_n, dst_n = 1, 1
    for d in src:
        src_n *= d
    for d in dst:
        dst_n *= d
    widen = 0
    if type_size == 1:                      # int8 / uint8 are widened to half first: both tensors, 16-element rounded
        widen = (up(src_n, 16) + up(dst_n, 16)) * 2
        type_size = 2
    if src_n in (dst_n, 1):
        return (widen + 32, widen + 32) if widen else (0, 0)
    m, k = dst
    block = 32 // type_size                 # elements of one 32-byte block
    if src[1] != 1:                         # [1, k] -> [m, k]
        return widen + 32, widen + 32
    lo = block * block * type_size          # the block-broadcast scratch: one block of rows ...
    hi = up(m, 8) * block * type_size       # ... or every row, rounded up to 8
    if k % block:                           # the copy scratch of an unaligned k
        lo += block * up(k, block) * type_size
        hi += m * up(k, block) * type_size
    return hi + widen, lo + widen


def test_broadcast_tmp_sizes_follow_the_a2_rule(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    good = [([16, 1], [16, 8], 4), ([1024, 1], [1024, 16], 2), ([5, 1], [5, 20], 2), ([3, 1], [3, 40], 1),
            ([1, 32], [4, 32], 4), ([8, 8], [8, 8], 4), ([1], [64], 1)]
    assert rows[:len(good)] == [a2_rule(*case) for case in good]
    # spot values by hand: the reference example (16 x 16 halves at least, 1024 rows of a block at most), and a
    # [5, 1] -> [5, 20] half whose k needs the copy scratch (16 rows of 32 elements, or 5 of them)
    assert rows[1] == (1024 * 16 * 2, 16 * 16 * 2)
    assert rows[2] == (8 * 16 * 2 + 5 * 32 * 2, 16 * 16 * 2 + 16 * 32 * 2)
    assert rows[3] == (8 * 16 * 2 + 3 * 48 * 2 + (16 + 128) * 2, 16 * 16 * 2 + 16 * 48 * 2 + (16 + 128) * 2)
    # refused shapes: an error naming the call and the header, the sizes left as they were
    assert rows[len(good):] == [(7, 7)] * 4
    err = out.stderr
    assert err.count("GetBroadCastMaxMinTmpSize (tiling/broadcast/broadcast_tiling.h)") == 4
    assert "whole number of 32-byte blocks" in err and "1 or 2 axes" in err
    assert "cannot broadcast" in err and "typeSize must be 1, 2 or 4" in err
