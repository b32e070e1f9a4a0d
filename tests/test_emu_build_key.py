"""The build cache's key holds the include folders a build's command gives g++ (emu._include_options), not only the
sources and flags: a tree whose include-path rules differ (an older one, which left a folder off, or a newer one) never
gets another tree's cached result for the same sources, flags and entry."""
import uuid

from ascendcraft import emu
from ascendcraft.emu import build

SOURCES = {
    "keyed.cpp": """#include "kernel_operator.h"
#include "keyed_scale.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void keyed(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    g.SetValue(0, KEYED_SCALE);
}
""",
    # found through `-iquote inc`, the folder of the project's headers
    "inc/keyed_scale.h": "#pragma once\nconstexpr int32_t KEYED_SCALE = 23;\n",
}


def test_the_include_folders_are_part_of_the_build_key(monkeypatch):
    # sources of this run's own (a comment), so that no earlier run's cache entry answers for either variant
    sources = {**SOURCES, "inc/keyed_scale.h": SOURCES["inc/keyed_scale.h"] + f"// {uuid.uuid4()}\n"}
    first = build(sources, check_only=True)
    assert first.ok, first.diagnostics
    assert "-iquote" in first.command and "inc" in first.command
    assert not first.cached and build(sources, check_only=True).cached   # the same rules: served from the cache
    # another tree's rules (here: the header folders left off): a key of its own, so g++ runs and misses the header
    monkeypatch.setattr(emu, "_include_options", lambda sources, compiled, cxx: [])
    other = build(sources, check_only=True)
    assert not other.cached and not other.ok and other.folder != first.folder
    assert any("keyed_scale.h" in d.message for d in other.errors), other.diagnostics
    monkeypatch.undo()
    back = build(sources, check_only=True)                              # and the first rules find their own entry again
    assert back.cached and back.ok and back.folder == first.folder
