"""A failed build of a mixed kernel that tests the core type in C++ is built again per core type with constant core
types (`emu.core_constant_retry`), for code only one pass can compile. When the failure is the link alone, missing
symbols that none of the kernel's own objects needs (`nm -uC` of them, `Build.kernel_undefined`: a host unit needs
them), no build of the kernel can supply them, and the retry is skipped (`emu.misses_outside_kernel`): an op project's
link tries that lack a repository's host source compiled both halves of ops-nn mat_mul_v3 again for that, four to six
minutes each at load 10, per try. A kernel's own call to a function one pass defines, in a branch the other pass's
constant drops, is a symbol its object needs: that build is still tried again, and links."""
import uuid

import numpy as np

from ascendcraft.emu import AIC_SOURCE, GM, KERNEL_MAIN, Tiling, Workspace, build, run

KERNEL = "op_kernel/split_ids.cpp"
HOST = "op_host/split_ids_tiling.cpp"

# tests the core type in C++ (ASCEND_IS_AIC), not by the core-type macros: one build, then the retry per core type
ONE_BUILD = """#include "kernel_operator.h"
using namespace AscendC;
[[maybe_unused]] static const char kTestTag[] = "TAG";

extern "C" __global__ __aicore__ void split_ids(GM_ADDR ids, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> out, t;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    t.SetGlobalBuffer((__gm__ int32_t *)tiling);
    const int32_t g = GetBlockIdx() / GetTaskRation();
    int32_t v = 9, row = 3 * g + 1 + GetSubBlockIdx();
    if ASCEND_IS_AIC {
        v = 7;
        row = 3 * g;
    }
    out.SetValue(row, v + t.GetValue(0));
}
"""

# the cube pass defines CubeOnly, the vector pass declares it: its one build (per core type by the macros, the core
# type read at run time) leaves the vector half's call undefined
CUBE_ONLY = ONE_BUILD.replace("""[[maybe_unused]] static const char kTestTag[] = "TAG";
""", """[[maybe_unused]] static const char kTestTag[] = "TAG";
#if defined(__DAV_CUBE__)
__attribute__((noinline)) int32_t CubeOnly() { return 7; }
#else
int32_t CubeOnly();
#endif
""").replace("v = 7;", "v = CubeOnly();")

HOST_TEXT = """#include <cstdint>
#include <cstring>
HELPER
extern "C" int ascendcraft_tiling(const int64_t* args, int nargs, void* tiling, uint64_t capacity, uint32_t* blockDim,
                                  uint64_t* workspaceBytes)
{
    if (nargs < 1 || capacity < sizeof(int32_t)) return 1;
    const int32_t offset = OFFSET;
    std::memcpy(tiling, &offset, sizeof(offset));
    *blockDim = 3;
    *workspaceBytes = 0;
    return 0;
}
"""


def project(kernel: str, helper: str = "", offset: str = "static_cast<int32_t>(args[0])") -> dict[str, str]:
    return {KERNEL: kernel.replace("TAG", str(uuid.uuid4())),
            HOST: f"// {uuid.uuid4()}\n" + HOST_TEXT.replace("HELPER", helper).replace("OFFSET", offset)}


def test_a_link_that_misses_a_host_units_symbol_is_not_built_per_core_type(kernel_unit_compiles):
    compiles = kernel_unit_compiles
    b = build(project(ONE_BUILD, helper="int32_t MissingTilingHelper(int32_t);",
                      offset="MissingTilingHelper(static_cast<int32_t>(args[0]))"))
    assert not b.ok and b.per_core_type is None
    assert [d for d in b.errors if "MissingTilingHelper" in d.message], b.diagnostics
    assert not [d for d in b.diagnostics if d.kind == "core-type-pass"], b.diagnostics
    assert compiles == [KERNEL_MAIN]                 # its one build, no second per core type
    assert b.kernel_undefined is not None and not [s for s in b.kernel_undefined if "MissingTilingHelper" in s]


def test_a_kernels_own_call_in_a_branch_the_constant_drops_is_built_per_core_type(kernel_unit_compiles):
    compiles = kernel_unit_compiles
    b = build(project(CUBE_ONLY))
    assert b.ok, b.diagnostics
    notes = [d for d in b.diagnostics if d.kind == "core-type-pass"]
    assert len(notes) == 1 and "CubeOnly" in notes[0].message, b.diagnostics
    assert sorted(compiles) == [AIC_SOURCE, AIC_SOURCE, KERNEL_MAIN, KERNEL_MAIN]   # the one build, then per core type
    r = run(b, [GM("ids", np.full(9, -5, np.int32), "out"), Workspace(), Tiling()], host_args=[10])
    assert r.ok and r.outputs["ids"].tolist() == [17, 19, 19] * 3, r.diagnostics
