"""GetSelectMaxMinTmpSize / GetSelectWithBytesMaskMaxMinTmpSize (lib/select/selectwithbytesmask_tiling.h,
tiling/tiling_api.h): the host's temporary size for Select with a bytes mask, as the asc-devkit select example calls it."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "lib/select/selectwithbytesmask_tiling.h"
#include "tiling/tiling_api.h"
#include <cstdio>
#define SHOW(S0, S1, M, MT, REUSE) { uint32_t mx = 7, mn = 7; \
    AscendC::GetSelectMaxMinTmpSize(ge::Shape(S0), ge::Shape(S1), 4, ge::Shape(M), MT, REUSE, mx, mn); \
    std::printf("%u %u\n", mx, mn); }
int main() {
    SHOW(std::vector<int64_t>({16, 64}), std::vector<int64_t>({1}), std::vector<int64_t>({16, 64}), 1, false)
    SHOW(std::vector<int64_t>({1}), std::vector<int64_t>({64, 200}), std::vector<int64_t>({64, 224}), 1, false)
    SHOW(std::vector<int64_t>({64, 200}), std::vector<int64_t>({1}), std::vector<int64_t>({64, 224}), 1, true)
    SHOW(std::vector<int64_t>({8, 8}), std::vector<int64_t>({1}), std::vector<int64_t>({8, 8}), 3, false)
    uint32_t a = 0, b = 0;
    AscendC::GetSelectWithBytesMaskMaxMinTmpSize(ge::Shape({16, 64}), ge::Shape({1}), 4, ge::Shape({16, 64}), 1, false, a, b);
    std::printf("%u %u\n", a, b);
    ge::Shape s0({64, 200}), s1({1}), m({64, 224});
    std::printf("%u %u %u %u\n", AscendC::GetSelectWithBytesMaskMaxTmpSize(s0, s1, 4, m, 1, false),
                AscendC::GetSelectWithBytesMaskMinTmpSize(s0, s1, 4, m, 1, false),
                AscendC::GetSelectMaxTmpSize(s0, s1, 4, m, 1, true), AscendC::GetSelectMinTmpSize(s0, s1, 4, m, 1, true));
}
'''


def test_host_select_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    assert rows[0] == (1024 * 2 + 512, 1024 * 2 + 512)          # 1024 elements: two bytes each + 512 reserved
    n = 64 * 200                                               # src0 a scalar: src1's size; the mask's rows differ
    assert rows[1] == (n * 2 + 512 + n, 4096 * 2 + 512 + n)    # the minimum works in 4096-element pieces
    assert rows[2] == (n * 2 + 512, 4096 * 2 + 512)            # isReuseMask: no mask copy
    assert rows[3] == (1024, 1024) and "maskTypeSize is 3" in out.stderr   # at least 1 KB
    assert rows[4] == rows[0]
    # the one-bound forms (sgl-kernel-npu ada_block_sparse_attention): the pair's maximum and minimum
    assert rows[5] == (n * 2 + 512 + n, 4096 * 2 + 512 + n, n * 2 + 512, 4096 * 2 + 512)
