"""A project's host tiling file is compiled to an object of its own, cached by content (`emu.host_object`), and linked
with each build's kernel: builds that differ only in the kernel (a pipeline's snapshots, per-key builds, edits in a
session) compile the host file once. The binary, the log's diagnostics and `Build.command` stay those of the one g++
command that compiles everything and links."""
import shutil
import subprocess
import uuid
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Tiling, Workspace, build, host_inputs, macro_names, parse_compiler_output, read_sources, run

from _sandbox_record import record_sandbox_runs

HERE = Path(__file__).parent / "emu_kernels"
HOST = "op_host/add_custom_emu_tiling.cpp"
KERNEL = "op_kernel/add_custom.cpp"


def project(blocks: int = 8, host_body: str = "") -> dict[str, str]:
    """msopgen_add with its host tiling reading its block count from a header of its own, a unique string in the host
    file (so the machine's cache has never seen it) and `host_body` added at the top of the tiling function."""
    sources = read_sources(HERE / "good" / "msopgen_add")
    host = sources[HOST].replace('#include "add_custom_tiling.h"', '#include "add_custom_tiling.h"\n#include "blocks.h"')
    host = host.replace("*blockDim = 8;", "*blockDim = BLOCKS;")
    host = host.replace("{\n    if (nargs < 1", "{\n" + host_body + "    if (nargs < 1")
    # (a string, not a comment: the object is keyed by the preprocessed text, which has no comments)
    sources[HOST] = f'[[maybe_unused]] static const char host_test_tag[] = "{uuid.uuid4()}";\n' + host
    sources["op_host/blocks.h"] = f"#pragma once\nconstexpr uint32_t BLOCKS = {blocks};\n"
    return sources


def variant(sources: dict[str, str], tag: str) -> dict[str, str]:
    "The same project with another kernel text (another build key), the host files unchanged."
    return {**sources, KERNEL: sources[KERNEL] + f"\n// kernel variant {tag}\n"}


def record_host_runs(monkeypatch, option: str) -> list:
    "The sandboxed g++ runs on the host file with `option` (-c: compiles, -E: preprocessing), recorded as they happen."
    return record_sandbox_runs(monkeypatch, lambda argv: list(argv) if option in argv and HOST in argv else None)


@pytest.fixture
def host_compiles(monkeypatch):
    "The sandboxed g++ runs that compile a host file to an object (argv lists), recorded as they happen."
    return record_host_runs(monkeypatch, "-c")


def add(b, blocks: int):
    x, y = (np.arange(blocks * 256, dtype=np.float32) * s for s in (1.0, 0.5))
    r = run(b, [GM("x", x), GM("y", y), GM("z", np.empty_like(x), "out"), Workspace(), Tiling()], host_args=[x.size])
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    assert r.block_dim == blocks
    np.testing.assert_array_equal(r.outputs["z"], x + y)


def test_kernels_with_the_same_host_file_compile_it_once(host_compiles):
    sources = project()
    first, second, third = build(sources), build(variant(sources, "b")), build(variant(sources, "c"))
    assert first.ok and second.ok and third.ok, first.diagnostics + second.diagnostics + third.diagnostics
    assert len({first.binary, second.binary, third.binary}) == 3 and not (first.cached or second.cached or third.cached)
    assert len(host_compiles) == 1
    for b in (first, second, third): add(b, 8)
    # the command is still the one that makes the binary: the kernel's driver, the host file, the runtime library
    assert HOST in first.command and "-c" not in first.command and first.command == second.command


def test_a_change_to_what_the_host_reads_compiles_it_again(host_compiles):
    sources = project(blocks=8)
    add(build(sources), 8)
    fewer = {**sources, "op_host/blocks.h": sources["op_host/blocks.h"].replace("= 8", "= 4")}
    add(build(fewer), 4)                                        # the header the host includes: a new object
    assert len(host_compiles) == 2
    # a header the host does not include, in a folder the build already names: the host's object is reused
    add(build({**fewer, "op_host/unused.h": "#pragma once\n"}), 4)
    assert len(host_compiles) == 2
    # a header in a folder of its own adds `-iquote op_kernel` to the command, which does not change what the host
    # file compiles: the same object (the include folders' effect is in its preprocessed text, `emu._host_key`)
    add(build({**fewer, "op_kernel/unused.h": "#pragma once\n"}), 4)
    assert len(host_compiles) == 2
    # other flags (here a macro) are another object
    s = load_settings()
    add(build(fewer, settings=s.replace(cxxflags=s.cxxflags + " -DHOST_PROBE=1")), 4)
    assert len(host_compiles) == 3


def test_macro_values_the_host_does_not_read_share_its_object(host_compiles):
    # an op project's dtype columns differ only in -D values (DTYPE_X=half / float): the object is keyed on what
    # preprocessing makes of the host file, so values it never reads share one object, and a value it reads does not
    s = load_settings()
    sources = project(blocks="HOST_BLOCKS")
    flags = lambda blocks, other: s.replace(cxxflags=f"{s.cxxflags} -DHOST_BLOCKS={blocks} -DKERNEL_ONLY={other}")
    add(build(sources, settings=flags(8, 1)), 8)
    add(build(sources, settings=flags(8, 2)), 8)               # another build (its flags), the same host object
    assert len(host_compiles) == 1
    add(build(sources, settings=flags(4, 2)), 4)               # a value the host reads: another object
    assert len(host_compiles) == 2
    # a macro the host does not read is still another object when its name is new (its log could name it)
    add(build(sources, settings=s.replace(cxxflags=f"{s.cxxflags} -DHOST_BLOCKS=4 -DKERNEL_ONLY=2 -DOTHER=1")), 4)
    assert len(host_compiles) == 3
    assert macro_names(["-O1", "-DA=1", "-D", "B=2", "-DC", "-UD", "x=y"]) == ["-O1", "-DA", "-D", "B", "-DC", "-UD", "x=y"]


def test_host_warnings_are_said_again_from_the_cache(host_compiles):
    s = load_settings()
    s = s.replace(cxxflags=s.cxxflags + " -Wall")
    sources = project(host_body="    int unused_in_host = 3;\n")
    line = sources[HOST].split("\n").index("    int unused_in_host = 3;") + 1
    first, second = build(sources, settings=s), build(variant(sources, "w"), settings=s)
    assert len(host_compiles) == 1 and first.ok and second.ok
    for b in (first, second):
        (w,) = [d for d in b.diagnostics if d.file == HOST]
        assert (w.kind, w.line, w.source_line.strip()) == ("compile-warning", line, "int unused_in_host = 3;")
        assert "unused variable" in w.message
    assert [d.render() for d in first.diagnostics] == [d.render() for d in second.diagnostics]


def test_host_errors_keep_their_place_and_come_with_the_kernels(host_compiles):
    sources = project(host_body="    undeclared_host_call();\n")
    line = sources[HOST].split("\n").index("    undeclared_host_call();") + 1
    for tag in ("e1", "e2"):                                   # a host file that fails is not cached: both compile it
        b = build(variant(sources, tag))
        assert not b.ok and [(d.kind, d.file, d.line) for d in b.errors] == [("compile-error", HOST, line)]
        assert "undeclared_host_call" in b.errors[0].message
    assert len(host_compiles) == 2
    # an error in the kernel and one in the host: both said, the kernel's first (g++ compiles every file given)
    broken = {**sources, KERNEL: sources[KERNEL].replace("op.Process();", "op.Process()")}
    b = build(broken)
    assert [d.file for d in b.errors] == [KERNEL, HOST] and b.errors[1].line == line


def test_a_kernel_whose_host_file_changes_keeps_its_object(host_compiles, monkeypatch):
    # the kernel's translation unit is cached by content too (`emu.kernel_object_key`): an op project whose tiling
    # function changes compiles its host file again and not its kernel; a change to a file the kernel includes, or to
    # its flags, compiles it again; a warning of the kernel's is said again from the cache
    kernel_compiles = record_sandbox_runs(
        monkeypatch, lambda argv: list(argv) if "-c" in argv and "__ascendcraft_main.cpp" in argv else None)
    s = load_settings()
    s = s.replace(cxxflags=s.cxxflags + " -Wall")
    tag = str(uuid.uuid4())
    probe = f'    int unused_in_kernel = 3; (void)"{tag}";\n'   # the tag in code: the object's key is the preprocessed text
    kernel_of = lambda sources: {**sources, KERNEL: sources[KERNEL].replace("    op.Process();", probe + "    op.Process();")}
    first, second = (build(kernel_of(project(host_body=body)), settings=s) for body in ("", "    int host_change = 1;\n"))
    assert first.ok and second.ok and first.binary != second.binary and not (first.cached or second.cached)
    assert len(host_compiles) == 2 and len(kernel_compiles) == 1
    line = kernel_of(project())[KERNEL].split("\n").index(probe.rstrip("\n")) + 1
    for b in (first, second):
        add(b, 8)
        (w,) = [d for d in b.diagnostics if d.file == KERNEL]
        assert (w.kind, w.line) == ("compile-warning", line) and "unused_in_kernel" in w.message
    assert first.pch == second.pch
    sources = kernel_of(project())
    header = "op_host/add_custom_tiling.h"                    # the tiling struct: the kernel includes it
    add(build({**sources, header: sources[header] + "\n// changed\n"}, settings=s), 8)
    assert len(kernel_compiles) == 1                          # a comment: the kernel's preprocessed text is the same
    add(build({**sources, header: sources[header] + "\nconstexpr int kChangedInHeader = 1;\n"}, settings=s), 8)
    assert len(kernel_compiles) == 2
    # a define is in the key through the text it changes (emu.code_flags leaves -D / -U out): one no file reads keeps
    # the object, one the kernel reads compiles it again; so does an option that changes code
    add(build(sources, settings=s.replace(cxxflags=s.cxxflags + " -DKERNEL_PROBE=1")), 8)
    assert len(kernel_compiles) == 2
    probed = {**sources, header: sources[header] + "\n#ifdef KERNEL_PROBE\nconstexpr int kProbe = KERNEL_PROBE;\n#endif\n"}
    add(build(probed, settings=s.replace(cxxflags=s.cxxflags + " -DKERNEL_PROBE=1")), 8)
    assert len(kernel_compiles) == 3
    add(build(sources, settings=s.replace(cxxflags=s.cxxflags + " -fno-inline")), 8)
    assert len(kernel_compiles) == 4


def test_a_host_link_error_is_placed_at_its_call():
    sources = project(host_body="    void missing_host_helper();\n    missing_host_helper();\n")
    line = sources[HOST].split("\n").index("    missing_host_helper();") + 1
    b = build(sources)
    assert not b.ok and [(d.kind, d.file, d.line) for d in b.errors] == [("link-error", HOST, line)]
    assert "missing_host_helper" in b.errors[0].message


def test_the_one_command_gives_the_same_diagnostics(tmp_path):
    # Build.command run as it is, outside the sandbox, in a copy of the build's folder: the same warnings, at the
    # same places, as the build that compiled the kernel and the host file (from the cache) apart and linked them
    s = load_settings()
    s = s.replace(cxxflags=s.cxxflags + " -Wall")
    sources = project(host_body="    int unused_in_host = 3;\n")
    build(sources, settings=s)
    b = build(variant(sources, "one"), settings=s)           # its host object came from the cache
    assert b.ok and not b.cached and (b.folder / "src").is_dir()
    shutil.copytree(b.folder / "src", tmp_path / "src")
    done = subprocess.run(b.command, cwd=tmp_path / "src", capture_output=True, text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and (tmp_path / "kernel.bin").is_file()
    again = parse_compiler_output(done.stdout + done.stderr, sources, root=str(tmp_path / "src"))
    assert [d.render() for d in again] == [d.render() for d in b.diagnostics] and again


def test_host_inputs():
    files = {"h.cpp": '#include "a.h"\n#include <vector>\n', "inc/a.h": '#pragma once\n# include "sub/b.h"  // b\n',
             "sub/b.h": "", "other/b.h": "", "k.cpp": '#include "a.h"\n', "c.h": ""}
    # every project file named by an include, wherever it sits (other/b.h too: more than g++ reads, never fewer)
    assert host_inputs(files, "h.cpp") == ["h.cpp", "inc/a.h", "other/b.h", "sub/b.h"]
    # directives after a comment, continued lines, digraphs, __has_include, include_next
    for text in ('/* x */ #include "c.h"\n', '#inc\\\nlude "c.h"\n', '%:include "c.h"\n', "#if __has_include(<c.h>)\n#endif\n",
                 '#include_next "c.h"\n', '#  /* x */ include "c.h"\n'):
        assert host_inputs({**files, "h.cpp": text}, "h.cpp") == ["c.h", "h.cpp"], text
    # an include named by a macro: any file may be read
    assert host_inputs({**files, "inc/a.h": '#define N "c.h"\n#include N\n'}, "h.cpp") is None
    # a commented-out include is not one, but an include g++ may see through a misread comment still counts
    assert host_inputs({**files, "h.cpp": '// #include "c.h"\n'}, "h.cpp") == ["h.cpp"]


@pytest.fixture
def host_preprocessings(monkeypatch):
    "The sandboxed g++ runs that preprocess a host file (argv lists), recorded as they happen."
    return record_host_runs(monkeypatch, "-E")


def test_a_host_file_is_preprocessed_once_while_its_inputs_stay_the_same(host_preprocessings):
    "A lowering's snapshots change the kernel: the host file, and the project files it reads, are preprocessed once."
    sources = project()
    first, second = build(sources), build(variant(sources, "pre-b"))
    assert first.ok and second.ok and len(host_preprocessings) == 1
    add(second, 8)
    # a header the host file includes changes its preprocessed text: it is preprocessed again, and the object follows it
    fewer = {**variant(sources, "pre-c"), "op_host/blocks.h": "#pragma once\nconstexpr uint32_t BLOCKS = 4;\n"}
    third = build(fewer)
    assert third.ok and len(host_preprocessings) == 2
    add(third, 4)
    # so does a -D value on the command (the same names, another value)
    s = load_settings()
    fourth = build(variant(sources, "pre-d"), settings=s.replace(cxxflags=f"{s.cxxflags} -DHOST_ONLY_VALUE=1"))
    fifth = build(variant(sources, "pre-e"), settings=s.replace(cxxflags=f"{s.cxxflags} -DHOST_ONLY_VALUE=2"))
    assert fourth.ok and fifth.ok and len(host_preprocessings) == 4
