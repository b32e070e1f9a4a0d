"""A kernel in a `.cce` file (the device compiler's own suffix: hicann/ascend-transformer-boost writes its pp matmuls,
flash / paged attention and MLA kernels so) has its kernel type decided by its own text, as a `.cpp` kernel has: the
cube or vector work in its body, a KERNEL_TASK_TYPE_DEFAULT there, its cross-core flags. Before, emu_kind read only the
headers a `.cce` kernel included, so a cube kernel whose work is all in its own file was taken for a vector one (no
cube work seen: AIV only) and its launch had no cube blocks."""
from ascendcraft.emu import Entry
from ascendcraft.emu_kind import kernel_kind

# a tiling reader shared by the library's kernels: no work of either core
TILING_H = """
#pragma once
#include "kernel_operator.h"
inline __aicore__ uint32_t ReadTiling(const __gm__ uint8_t *p, uint32_t offset)
{
    return *(const __gm__ uint32_t *)(p + offset);
}
"""

# a cube kernel whose L1 / L0C buffers and Mmad are in its own file
CUBE_CCE = """
#include "tiling.h"
extern "C" __global__ __aicore__ void cube_tile(__gm__ uint8_t *a, __gm__ uint8_t *c, __gm__ uint8_t *tiling)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::A1, 1> inA;
    AscendC::TQue<AscendC::TPosition::CO1, 1> outC;
    pipe.InitBuffer(inA, 1, ReadTiling(tiling, 0));
    pipe.InitBuffer(outC, 1, ReadTiling(tiling, 4));
    TYPE_LINE
    FLAG_LINE
}
"""


def _kind(type_line: str = "", flag_line: str = "", declared: str | None = None):
    cce = CUBE_CCE.replace("TYPE_LINE", type_line).replace("FLAG_LINE", flag_line)
    return kernel_kind({"tiling.h": TILING_H, "cube_tile.cce": cce}, Entry("cube_tile", "cube_tile.cce", 3, ()), declared)


def test_a_cce_kernel_s_own_cube_work_makes_it_a_cube_kernel():
    k = _kind()
    assert (k.name, k.reason) == ("KERNEL_TYPE_AIC_ONLY", "inferred: cube work only")


def test_a_cce_kernel_s_own_task_type_declaration_is_read():
    k = _kind(type_line="KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);")
    assert (k.name, k.reason) == ("KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1)")


def test_a_cce_kernel_s_own_cross_core_flags_count_under_a_declared_type():
    k = _kind(flag_line="AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(1);", declared="KERNEL_TYPE_AIC_ONLY")
    assert k.name == "KERNEL_TYPE_AIC_ONLY" and k.cross
    assert not _kind(declared="KERNEL_TYPE_AIC_ONLY").cross
