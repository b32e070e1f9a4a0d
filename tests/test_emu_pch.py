"""The precompiled kernel_operator.h of kernel builds (10_emu, "What a build costs"): a kernel compiled against it
gives the same outputs and the same diagnostics (line, column, caret, origin, chain) as one that parses the headers,
the kernel's own later includes of the headers are no-ops as before, and g++'s refusal of a .gch is not a diagnostic.
The plain builds add `-I <the headers' folder>` again, an option that gets no precompiled header: same program.
An op project's -D and -iquote flags, and a per-key build's TILING_KEY_VAR, read the same .gch as any build."""
import shlex
import subprocess
import time

import numpy as np
import pytest

from ascendcraft import emu
from ascendcraft.config import load_settings
from ascendcraft.emu import (GM, INCLUDE_DIR, KERNEL_COMPILE_FLAGS, PCH_PRELUDE, build, pch_applies, pch_rejections,
                             precompiled_header, run, with_prelude)
from ascendcraft.seal import seal_file

KERNELS = __import__("pathlib").Path(__file__).parent / "emu_kernels" / "good"
PLAIN = f" -I {INCLUDE_DIR}"     # the headers' folder again: the same program, and no precompiled header

ADD = (KERNELS / "add_custom.cpp").read_text()


def fresh(sources):
    "The sources with a last line of their own, so that they are compiled now (a cached build may predate the PCH)."
    return {n: t + (f"\n// test_emu_pch {time.time_ns()}\n" if n.endswith(".cpp") else "") for n, t in sources.items()}


def pair(sources, sanitize=False, flags=""):
    "The build with the precompiled header and the one without."
    sources, s = fresh(sources), load_settings()
    s = s.replace(cxxflags=s.cxxflags + flags)
    return (build(sources, sanitize=sanitize, settings=s),
            build(sources, sanitize=sanitize, settings=s.replace(cxxflags=s.cxxflags + PLAIN)))


def same_diagnostics(a, b):
    assert [(d.render(), d.context) for d in a.diagnostics] == [(d.render(), d.context) for d in b.diagnostics]


def add_args():
    rng = np.random.default_rng(7)
    x, y = (rng.standard_normal(8 * 2048).astype(np.float16) for _ in range(2))
    return x, y, [GM("x", x), GM("y", y), GM("z", np.empty_like(x), "out")]


def test_with_prelude_swaps_only_a_leading_include_on_its_own_line():
    p = "/c/emu/pch-x-sealed/" + PCH_PRELUDE
    api = '#include "ascendcraft_emu/kernel_api.h"'
    text = f'// c\n/* a\n   b */\n\n{api}\nint x;\n'
    assert with_prelude(text, p) == f'// c\n/* a\n   b */\n\n#include "{p}"\nint x;\n'
    assert with_prelude("  #  include <ascendcraft_emu/kernel_api.h>  \nint x;", p) == f'#include "{p}"\nint x;'
    for first in (f'#define ASCENDC_CUBE_ONLY\n{api}\n',                             # a macro the header may test
                  f'#include "my_first.h"\n{api}\n',                                # something else first
                  f'{api} /* a comment\n that goes on */\n',                        # the line holds more than the include
                  f'// continued \\\n{api}\n',                                      # part of the comment above it
                  '#include "kernel_operator.h"\n',                                 # the prelude would leave out build_macros.h
                  '#include "ascendcraft_emu/kernel_api.hpp"\n', ""):
        assert with_prelude(first, p) is None, first
    assert pch_applies(["-std=c++17", "-DX=1"]) and pch_applies(["-iquote", "inc"]) and pch_applies(["-O1", "-g"])
    assert not pch_applies(["-O1", "-I", "inc"]) and not pch_applies(["-O1", "-include", "x.h"])
    assert emu.pch_flags(["-O1", "-D", "X=1", "-UY", "-iquote", "op_kernel", "-g", "-DZ"]) == ["-O1", "-g"]


def test_a_project_folder_is_searched_for_angle_includes_only_where_it_shadows_nothing():
    # emu.angle_include_dirs: a folder holding the header a file names by angle brackets, when neither the SDK nor the
    # compiler has it; never one that also holds a header named like a system one (the SDK's headers, and the
    # precompiled header made of them, include those), nor for a name the SDK has, nor for a commented-out include
    uses = "#include <lock.h>\n#include <vector>\n"
    assert emu.angle_include_dirs({"a/lock.h": "", "main.cpp": uses}) == ["a"]
    assert emu.angle_include_dirs({"x/y/lock.h": "", "main.cpp": "#include <y/lock.h>\n"}) == ["x"]
    assert emu.angle_include_dirs({"a/lock.h": "", "a/math.h": "", "main.cpp": uses}) == []
    assert emu.angle_include_dirs({"b/kernel_operator.h": "", "main.cpp": "#include <kernel_operator.h>\n"}) == []
    assert emu.angle_include_dirs({"a/lock.h": "", "main.cpp": "// #include <lock.h>\n"}) == []


def test_a_kernel_builds_against_the_precompiled_header_with_the_same_outputs():
    fast, plain = pair({"add_custom.cpp": ADD})
    assert fast.ok and plain.ok and fast.pch and not plain.pch, (fast.diagnostics, plain.diagnostics)
    assert fast.log == plain.log == "" and "-Winvalid-pch" in fast.command
    x, y, args = add_args()
    want = (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)
    for b in (fast, plain):
        np.testing.assert_array_equal(run(b, args, block_dim=8).outputs["z"], want)
    again = build(fast.sources)                                              # a cache hit remembers it
    assert again.cached and again.pch and again.binary == fast.binary


def test_the_kernels_own_includes_of_the_headers_are_no_ops_after_it():
    # #pragma once across the .gch: a second kernel_operator.h (either spelling) or an ascendcraft_emu header again
    src = ADD.replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include <kernel_operator.h>\n'
                      '#include "ascendcraft_emu/tensor.h"\n#include "ascendcraft_emu/base.h"', 1)
    fast, plain = pair({"op_kernel/add_custom.cpp": src, "op_kernel/helpers.h": '#pragma once\n#include "kernel_operator.h"\n'})
    assert fast.ok and plain.ok and fast.pch, fast.diagnostics
    same_diagnostics(fast, plain)


@pytest.mark.parametrize("edit", [
    # a compile error in the kernel, a bad call into a header template (notes, instantiation chain), a syntax error
    lambda t: t.replace("pipe.InitBuffer(inQueueX", "pipe.InitBufer(inQueueX", 1),
    lambda t: t.replace("Add(zLocal, xLocal, yLocal,", "Add(zLocal, xLocal, 3.0f,", 1),
    lambda t: t.replace("TPipe pipe;", "TPipe pipe", 1),
], ids=["unknown-member", "header-template", "syntax"])
def test_a_failing_kernel_gives_the_same_diagnostics(edit):
    src = edit(ADD)
    assert src != ADD
    fast, plain = pair({"add_custom.cpp": src})
    assert not fast.ok and not plain.ok and fast.pch
    assert fast.errors and all(d.line for d in fast.errors if d.file == "add_custom.cpp")
    same_diagnostics(fast, plain)


def test_a_macro_defined_before_the_include_means_the_same_as_before():
    # the driver includes kernel_operator.h before the kernel: a kernel's own #define before its include did not
    # reach the header before the precompiled header either; its builds stay the same
    src = "#define ASCENDC_CUBE_ONLY\n" + ADD.replace("KernelAdd op;", "KernelAdd op; undeclared_call();", 1)
    fast, plain = pair({"add_custom.cpp": src})
    assert not fast.ok and fast.pch
    same_diagnostics(fast, plain)


def test_warnings_with_wall_are_the_same():
    src = ADD.replace("KernelAdd op;", "KernelAdd op; int unused = 3;", 1)
    fast, plain = pair({"add_custom.cpp": src}, flags=" -Wall")
    assert fast.ok and plain.ok and [d.kind for d in fast.diagnostics] == ["compile-warning"]
    same_diagnostics(fast, plain)


def test_the_sanitizer_build_has_its_own_precompiled_header():
    fast, plain = pair({"add_custom.cpp": ADD}, sanitize=True)
    assert fast.ok and plain.ok and fast.sanitize and fast.pch and not plain.pch, fast.diagnostics
    assert precompiled_header(flags=shlex.split(load_settings().cxxflags)) != \
        precompiled_header(flags=shlex.split(load_settings().cxxflags) + list(emu.SANITIZE_FLAGS))
    x, y, args = add_args()
    np.testing.assert_array_equal(run(fast, args, block_dim=8).outputs["z"], run(plain, args, block_dim=8).outputs["z"])


def test_a_refused_precompiled_header_is_no_diagnostic(tmp_path):
    # g++ refuses a .gch made with other flags and reads the header's text: the warning it gives is taken out
    flags = shlex.split(load_settings().cxxflags)
    prelude = precompiled_header(flags=flags)
    assert prelude is not None
    (tmp_path / "k.cpp").write_text(f'// k\n#include "{prelude}"\nint f() {{ return missing; }}\n')
    other = [f for f in flags if not f.startswith("-O")] + ["-O0"]
    out = subprocess.run(["g++", *other, *KERNEL_COMPILE_FLAGS, *emu.PCH_WARNING_FLAGS, "-I", str(INCLUDE_DIR), "-c",
                          "k.cpp", "-o", "k.o"], cwd=tmp_path, capture_output=True, text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    log, rejected = pch_rejections(out.stderr)
    assert len(rejected) == 1 and "not used because" in rejected[0] and "[-Winvalid-pch]" in rejected[0]
    assert "invalid-pch" not in log and "k.cpp:3:18: error: 'missing' was not declared" in log
    assert "|" in log                                                     # the error's own source echo stays


def test_an_altered_gch_fails_its_seal(tmp_path):
    cache, folder = tmp_path / "cache", tmp_path / "pch-k-sealed"
    cache.mkdir(); folder.mkdir()
    (folder / PCH_PRELUDE).write_text(emu.PCH_PRELUDE_TEXT)
    gch = folder / (PCH_PRELUDE + ".gch")
    gch.write_bytes(b"gpch" + bytes(100))
    assert not emu._pch_sealed(folder, cache, "k")
    seal_file(gch, cache, "k")
    assert emu._pch_sealed(folder, cache, "k") and not emu._pch_sealed(folder, cache, "other")
    gch.write_bytes(b"gpch" + bytes(99) + b"!")                         # same size; the change time moves
    assert not emu._pch_sealed(folder, cache, "k")
    (folder / PCH_PRELUDE).write_text('#include "evil.h"\n')
    seal_file(gch, cache, "k")
    assert not emu._pch_sealed(folder, cache, "k")


def test_the_runtime_hash_is_remembered_until_a_file_changes(tmp_path, monkeypatch):
    import os
    runtime = tmp_path / "runtime"
    (runtime / "include" / "sub").mkdir(parents=True)
    (runtime / "core").mkdir()
    files = {"core/a.cpp": "int a;", "include/k.h": "#pragma once\n", "include/sub/x.hpp": "int x;"}
    for name, text in files.items(): (runtime / name).write_text(text)
    old = 1_000_000_000
    for p in [*runtime.rglob("*"), runtime]: os.utime(p, ns=(old, old))
    monkeypatch.setattr(emu, "RUNTIME_DIR", runtime)
    monkeypatch.setattr(emu, "INCLUDE_DIR", runtime / "include")
    monkeypatch.setitem(emu._runtime_hash_memo, "last", None)
    first = emu.runtime_hash()
    assert emu._runtime_hash_memo["last"] is None                   # just written (change times are now): not kept
    monkeypatch.setattr(emu, "_SETTLE_NS", -10**12)                 # as if they had settled
    assert emu.runtime_hash() == first
    assert emu._runtime_hash_memo["last"] is not None and emu.runtime_hash() == first
    (runtime / "include" / "k.h").write_text("#pragma twice")        # same size, the old modification time again:
    os.utime(runtime / "include" / "k.h", ns=(old, old))              # the change time still moves
    second = emu.runtime_hash()
    assert second != first
    (runtime / "include" / "sub" / "y.h").write_text("")              # a new header: its folder changes
    assert emu.runtime_hash() != second


def test_a_new_precompiled_header_deletes_the_ones_it_replaces(tmp_path):
    import os
    emu_dir = tmp_path / "emu"
    origin = f"{emu._PCH_FORMAT}\n{INCLUDE_DIR}\ng++\n-O1\n"

    def folder(name, origin_text, age):
        f = emu_dir / f"pch-{name}-sealed"
        f.mkdir(parents=True)
        (f / (PCH_PRELUDE + ".gch")).write_bytes(b"gpch")
        if origin_text is not None: (f / "origin.txt").write_text(origin_text)
        t = time.time() - age
        os.utime(f / (PCH_PRELUDE + ".gch"), (t, t))
        return f

    made = folder("new", origin, 0)
    stale = folder("stale", origin, 3600)                                    # same checkout and flags, older headers
    recent = folder("recent", origin, 10)                                    # may still be in use
    flags = folder("flags", origin.replace("-O1", "-O2"), 3600)              # other flags: still current
    gone = folder("gone", f"{emu._PCH_FORMAT}\n{tmp_path / 'deleted-checkout'}\ng++\n-O1\n", 3600)
    unknown = folder("unknown", None, 3600)                                  # no origin.txt: left alone
    assert sorted(emu._prune_precompiled_headers(made, origin)) == sorted([stale, gone])
    assert all(f.exists() for f in (made, recent, flags, unknown)) and not stale.exists() and not gone.exists()


def test_clang_gets_no_precompiled_header(monkeypatch):
    # clang does not look for a .gch beside an #include'd header: the build would only claim to use one
    monkeypatch.setattr(emu, "compiler_version", lambda cxx: "Debian clang version 16.0.6")
    assert precompiled_header(flags=["-std=c++17", "-O1", "-g"]) is None


OPPROJECTS = __import__("pathlib").Path(__file__).parent.parent / "examples" / "opprojects"


def test_an_op_projects_build_reads_the_same_precompiled_header():
    # An op project's build adds -D DTYPE_<NAME> / ASCENDCRAFT_OP_TYPE and -iquote folders. The header macros that test
    # them are in build_macros.h, outside the .gch, so the project reads the .gch of the flags without them and runs
    # right; parsing the headers instead gives the same build log and the same outputs.
    import dataclasses
    import torch
    from ascendcraft.opproject import build_project, load_project, run_project
    project = load_project(OPPROJECTS / "rms_scale_custom")
    project = dataclasses.replace(project, sources=fresh(project.sources))
    s = load_settings()
    fast, plain = build_project(project, settings=s), build_project(project, settings=s.replace(cxxflags=s.cxxflags + PLAIN))
    assert fast.ok and plain.ok and fast.pch and not plain.pch, (fast.log[-2000:], plain.log[-2000:])
    assert "-DASCENDCRAFT_OP_TYPE=RmsScaleCustom" in fast.command
    assert fast.log == plain.log
    x = torch.randn(6, 1024, generator=torch.Generator().manual_seed(2))
    want = lambda x, epsilon: x * torch.rsqrt((x * x).mean(-1, keepdim=True) + epsilon)
    for settings in (s, s.replace(cxxflags=s.cxxflags + PLAIN)):
        r = run_project(project, {"x": x}, attrs={"epsilon": 1e-5}, reference=want, settings=settings)
        assert r.ok and r.run.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])


def test_a_per_key_build_reads_it_and_each_key_means_its_branch():
    # TILING_KEY_VAR, defined per key before kernel_operator.h's build_macros.h: the .gch serves every key's build
    src = ('#include "kernel_operator.h"\nusing namespace AscendC;\n'
           'extern "C" __global__ __aicore__ void keyed(GM_ADDR y) {\n'
           '    GlobalTensor<float> yGm; yGm.SetGlobalBuffer((__gm__ float*)y, 8);\n'
           '#if TILING_KEY_VAR == 1\n    yGm.SetValue(0, 1.0f);\n#elif TILING_KEY_VAR == 2\n    yGm.SetValue(0, 2.0f);\n#endif\n}\n')
    sources = fresh({"keyed.cpp": src})
    for key in (1, 2):
        b = emu.build_for_key(build(sources), key)
        assert b.ok and b.pch and b.tiling_key_var == key, b.diagnostics
        out = run(b, [GM("y", np.zeros(8, np.float32), "out")], block_dim=1, tiling_key=key).outputs["y"]
        assert out[0] == key


def test_a_macro_the_headers_test_makes_gxx_read_their_text():
    # -D of a macro kernel_api.h's headers test (cube.h's KFC_L1_RESERVER_SIZE) is not left out of the .gch's meaning:
    # g++ refuses the .gch for it and parses the headers, so the build means what its flags say
    s = load_settings()
    b = build(fresh({"add_custom.cpp": ADD}), settings=s.replace(cxxflags=s.cxxflags + " -DKFC_L1_RESERVER_SIZE=128"))
    assert b.ok and not b.pch and b.log == "", b.log
