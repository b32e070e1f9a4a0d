"""A mixed kernel that chooses its cube and vector code by the core-type macros is built per core type, two halves
(`emu.core_type_split`); in a build with host files (an op project) each half's object is cached by content, as a
kernel object built once is (`emu.kernel_object_key`): an op project's link tries and tiling changes are builds that
differ only in host units, and each compiled both halves of a heavy cube kernel again (ops-nn mat_mul_v3, about four
minutes a half at load 10). The objects taken from the cache make the same program: each core still runs its own
half's code, and a change to the kernel compiles both halves again."""
import uuid

import numpy as np
import pytest

from ascendcraft import sandbox
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


def project(cube_id: int = 7, scale: int = 1) -> dict[str, str]:
    "The kernel and its host tiling, each with a unique comment (so the machine's cache has never seen either)."
    return {KERNEL: f"// {uuid.uuid4()}\n" + KERNEL_TEXT.replace("CUBE_ID", str(cube_id)),
            HOST: f"// {uuid.uuid4()}\n" + HOST_TEXT.replace("OFFSET_SCALE", str(scale))}


@pytest.fixture
def half_compiles(monkeypatch):
    "The sandboxed g++ runs that compile a half of the kernel (its driver's file), recorded as they happen."
    seen, real = [], sandbox.run
    def recording(argv, **kw):
        if "-c" in argv and (KERNEL_MAIN in argv or AIC_SOURCE in argv):
            seen.append(AIC_SOURCE if AIC_SOURCE in argv else KERNEL_MAIN)
        return real(argv, **kw)
    monkeypatch.setattr(sandbox, "run", recording)
    return seen


def ids(b, offset: int) -> list[int]:
    r = run(b, [GM("ids", np.full(9, -5, np.int32), "out"), Workspace(), Tiling()], host_args=[offset])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    return r.outputs["ids"].tolist()


def test_a_host_change_keeps_both_halves_objects(half_compiles):
    sources = project()
    first = build(sources)
    assert first.ok and first.per_core_type, first.diagnostics
    assert sorted(half_compiles) == [AIC_SOURCE, KERNEL_MAIN]
    assert ids(first, 10) == [17, 19, 19] * 3              # the AIC of each group, then its two AIVs
    # the tiling function changes (another build, another binary): neither half is compiled again
    second = build({**sources, HOST: sources[HOST].replace("* 1;", "* 2;")})
    assert second.ok and second.binary != first.binary and not second.cached, second.diagnostics
    assert len(half_compiles) == 2
    assert ids(second, 10) == [27, 29, 29] * 3             # the new tiling, each core its own half's code


def test_a_kernel_change_compiles_both_halves_again(half_compiles):
    sources = project(cube_id=7)
    assert ids(build(sources), 0) == [7, 9, 9] * 3
    # the cube pass's code changes: both halves have a new key (the kernel's file is in each half's inputs)
    changed = {**sources, KERNEL: sources[KERNEL].replace("return 7;", "return 4;")}
    assert ids(build(changed), 0) == [4, 9, 9] * 3
    assert sorted(half_compiles) == [AIC_SOURCE, AIC_SOURCE, KERNEL_MAIN, KERNEL_MAIN]
