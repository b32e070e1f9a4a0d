"""A mixed kernel that chooses its cube and vector code by the core-type macros is built per core type, two halves
(`emu.core_type_split`); in a build with host files (an op project) each half's object is cached by what it compiles,
as a kernel object built once is (`emu.kernel_object_key`: the driver preprocessed, and the options that change code):
an op project's link tries, link rounds and tiling changes are builds that differ only in host units and include
folders, and each compiled both halves of a heavy cube kernel again (ops-nn mat_mul_v3, about four minutes a half at
load 10). The objects taken from the cache make the same program: each core still runs its own half's code, and a
change to what a half compiles compiles it again."""
import uuid

import numpy as np

from ascendcraft.emu import AIC_SOURCE, GM, KERNEL_MAIN, Tiling, Workspace, build, run

KERNEL = "op_kernel/pass_ids.cpp"
HOST = "op_host/pass_ids_tiling.cpp"

# each half writes its pass's id (out of line, a name both halves define) plus the tiling's offset into its row
KERNEL_TEXT = """#include "kernel_operator.h"
using namespace AscendC;

struct Pass {
    __attribute__((noinline)) static int32_t Id()
    {
#if defined(__DAV_CUBE__)
        return CUBE_ID;
#elif defined(__DAV_VEC__)
        return 9;
#else
        return -1;
#endif
    }
};

extern "C" __global__ __aicore__ void pass_ids(GM_ADDR ids, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> out, t;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    t.SetGlobalBuffer((__gm__ int32_t *)tiling);
    const int32_t g = GetBlockIdx() / GetTaskRation();
    const int32_t row = ASCEND_IS_AIC ? 3 * g : 3 * g + 1 + GetSubBlockIdx();
    out.SetValue(row, Pass::Id() + t.GetValue(0));
}
"""

HOST_TEXT = """#include <cstdint>
#include <cstring>

extern "C" int ascendcraft_tiling(const int64_t* args, int nargs, void* tiling, uint64_t capacity, uint32_t* blockDim,
                                  uint64_t* workspaceBytes)
{
    if (nargs < 1 || capacity < sizeof(int32_t)) return 1;
    const int32_t offset = static_cast<int32_t>(args[0]) * OFFSET_SCALE;
    std::memcpy(tiling, &offset, sizeof(offset));
    *blockDim = 3;
    *workspaceBytes = 0;
    return 0;
}
"""


def tagged(kernel: str) -> str:
    "`kernel` with a constant of its own after its first line (kernel_operator.h), in every half's code"
    first, rest = kernel.split("\n", 1)
    return f'{first}\n[[maybe_unused]] static const char kTestTag[] = "{uuid.uuid4()}";\n{rest}'


def project(cube_id: int = 7, scale: int = 1) -> dict[str, str]:
    """The kernel and its host tiling, each unique (so the machine's cache has never seen either): the kernel by a
    constant of its code, since its objects are keyed by its preprocessed text, which has no comments."""
    return {KERNEL: tagged(KERNEL_TEXT.replace("CUBE_ID", str(cube_id))),
            HOST: f"// {uuid.uuid4()}\n" + HOST_TEXT.replace("OFFSET_SCALE", str(scale))}


def ids(b, offset: int) -> list[int]:
    r = run(b, [GM("ids", np.full(9, -5, np.int32), "out"), Workspace(), Tiling()], host_args=[offset])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    return r.outputs["ids"].tolist()


def test_a_host_change_keeps_both_halves_objects(kernel_unit_compiles):
    sources = project()
    first = build(sources)
    assert first.ok and first.per_core_type, first.diagnostics
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, KERNEL_MAIN]
    assert ids(first, 10) == [17, 19, 19] * 3              # the AIC of each group, then its two AIVs
    # the tiling function changes (another build, another binary): neither half is compiled again
    second = build({**sources, HOST: sources[HOST].replace("* 1;", "* 2;")})
    assert second.ok and second.binary != first.binary and not second.cached, second.diagnostics
    assert len(kernel_unit_compiles) == 2
    assert ids(second, 10) == [27, 29, 29] * 3             # the new tiling, each core its own half's code


def test_a_kernel_change_compiles_the_half_it_changes(kernel_unit_compiles):
    sources = project(cube_id=7)
    assert ids(build(sources), 0) == [7, 9, 9] * 3
    # the cube pass's code changes: the cube half's text changes, the vector half's does not (the line is in a branch
    # on __DAV_CUBE__, which the vector pass's preprocessing leaves out), so only the cube half is compiled again
    changed = {**sources, KERNEL: sources[KERNEL].replace("return 7;", "return 4;")}
    assert ids(build(changed), 0) == [4, 9, 9] * 3
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, AIC_SOURCE, KERNEL_MAIN]
    # code both passes compile changes: both halves again
    both = {**changed, KERNEL: changed[KERNEL].replace("Pass::Id() + t.GetValue(0)", "Pass::Id() + 2 * t.GetValue(0)")}
    assert ids(build(both), 3) == [10, 15, 15] * 3
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, AIC_SOURCE, AIC_SOURCE, KERNEL_MAIN, KERNEL_MAIN]


HEADER = "op_kernel/inc/pass_ids.h"


def with_header(sources: dict[str, str], vec_id: int = 9) -> dict[str, str]:
    "The kernel with its vector pass's id taken from a header of its own folder (`op_kernel/inc`, on `-iquote`)."
    kernel = sources[KERNEL].replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "pass_ids.h"')
    return {**sources, KERNEL: kernel.replace("return 9;", "return VEC_ID;"),
            HEADER: f"// {uuid.uuid4()}\n#pragma once\n#define VEC_ID {vec_id}\n"}


def test_a_round_that_adds_include_folders_keeps_both_halves(kernel_unit_compiles):
    """A link round brings repository sources in folders of their own into the project (corpus.link_until_settled):
    every unit's `-iquote` list grows, and what each half compiles does not change, so neither is compiled again (the
    objects are keyed by the preprocessed driver, `emu.kernel_object_key`); a change to a header the kernel includes
    changes the text of the half that reads it, and compiles that half again."""
    sources = with_header(project())
    first = build(sources)
    assert first.ok and first.per_core_type, first.diagnostics
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, KERNEL_MAIN]
    assert ids(first, 0) == [7, 9, 9] * 3
    more = {**sources, "op_host/common/inc/shapes.h": "#pragma once\nconstexpr int kUnusedShape = 3;\n",
            "op_kernel/common/arch/unused.h": "#pragma once\n"}
    second = build(more)
    assert second.ok and not second.cached and "op_host/common/inc" in second.command, second.diagnostics
    assert len(kernel_unit_compiles) == 2                          # the folders alone: neither half again
    assert ids(second, 0) == [7, 9, 9] * 3
    third = build({**more, HEADER: more[HEADER].replace("VEC_ID 9", "VEC_ID 5")})
    assert third.ok, third.diagnostics
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, KERNEL_MAIN, KERNEL_MAIN]   # VEC_ID is in the vector half's code only
    assert ids(third, 0) == [7, 5, 5] * 3


ONE_PIECE = """#include "kernel_operator.h"
#include "pass_ids.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pass_ids(GM_ADDR ids, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> out, t;
    out.SetGlobalBuffer((__gm__ int32_t *)ids);
    t.SetGlobalBuffer((__gm__ int32_t *)tiling);
    out.SetValue(GetBlockIdx(), VEC_ID + t.GetValue(0));
}
"""


def test_a_round_that_adds_include_folders_keeps_the_one_piece_kernel(kernel_unit_compiles):
    "The same for a kernel built in one piece with its host tiling: its object is kept across a round's new folders."
    sources = {**project(), KERNEL: tagged(ONE_PIECE),
               HEADER: f"// {uuid.uuid4()}\n#pragma once\n#define VEC_ID 9\n"}
    first = build(sources)
    assert first.ok and not first.per_core_type, first.diagnostics
    assert kernel_unit_compiles == [KERNEL_MAIN]
    second = build({**sources, "op_host/common/inc/shapes.h": "#pragma once\n"})
    assert second.ok and not second.cached, second.diagnostics
    assert kernel_unit_compiles == [KERNEL_MAIN]
    r = run(second, [GM("ids", np.full(3, -5, np.int32), "out"), Workspace(), Tiling()], host_args=[10])
    assert r.ok and r.outputs["ids"].tolist() == [19, 19, 19], r.diagnostics
    third = build({**sources, HEADER: sources[HEADER].replace("VEC_ID 9", "VEC_ID 4")})
    assert third.ok and kernel_unit_compiles == [KERNEL_MAIN, KERNEL_MAIN], third.diagnostics
