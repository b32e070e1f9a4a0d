"""TilingContext::SetAicpuBlockDim / SetAicpuNumBlocks (the AI CPU blocks a fused op's launch may use beside its AI
cores; hicann ops-transformer's MC2 MoE tilings, moe_distribute_combine, set it for their HCCL part): the emulation runs
no AI CPU part, so the value is kept and read back (0 before). A host program compiled with g++ against the emulation's
headers."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
int main() {
    gert::TilingContext ctx;
    const unsigned before = ctx.GetAicpuBlockDim();
    const int ok = ctx.SetAicpuBlockDim(6) == ge::GRAPH_SUCCESS;
    const unsigned set = ctx.GetAicpuNumBlocks();
    const int ok2 = ctx.SetAicpuNumBlocks(4) == ge::GRAPH_SUCCESS;
    std::printf("%u %d %u %d %u\n", before, ok, set, ok2, ctx.GetAicpuBlockDim());
}
"""


def test_the_aicpu_block_count_a_tiling_sets_reads_back(tmp_path):
    (tmp_path / "p.cpp").write_text(PROGRAM)
    built = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "p.cpp", "-o", "p"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "p")], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1", "6", "1", "4"]
