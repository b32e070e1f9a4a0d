"""The precompiled op-project host headers (`emu.OP_HOST_HEADER`): an op project's tiling glue and its op_host sources
compiled on their own start with one include of ascendcraft_emu/op_host.h, which the build swaps for the prelude of its
precompiled form, made once per flag set (content-keyed like the kernel's, `emu.precompiled_header`) and read by every
project: g++ must not refuse it for a project's -D ASCENDCRAFT_OP_TYPE / DTYPE_<NAME>, and the build means the same."""
import dataclasses
import re
import subprocess
import time
from pathlib import Path

import torch

from ascendcraft import emu, sandbox
from ascendcraft.config import load_settings
from ascendcraft.emu import INCLUDE_DIR, OP_HOST_HEADER, PCH_PRELUDE, precompiled_header, with_prelude
from ascendcraft.opproject import GLUE_FILE, build_project, glue_source, load_project, run_project

OPPROJECTS = Path(__file__).parent.parent / "examples" / "opprojects"
PLAIN = f" -I {INCLUDE_DIR}"     # the headers' folder again: the same program, and no precompiled header
FLAGS = ["-std=c++17", "-O1", "-g"]


def test_it_is_made_once_and_a_changed_header_set_makes_another(tmp_path, monkeypatch):
    s = load_settings().replace(cache_dir=str(tmp_path))
    said = []
    first = precompiled_header(s, FLAGS, said.append, header=OP_HOST_HEADER)
    assert first is not None and first.name == PCH_PRELUDE, said
    assert first.read_text() == f'#include "{OP_HOST_HEADER}"\n' and (first.parent / (PCH_PRELUDE + ".gch")).is_file()
    assert len(said) == 2 and OP_HOST_HEADER in said[0]                       # "precompiling ...", "precompiled in ..."
    assert precompiled_header(s, FLAGS, said.append, header=OP_HOST_HEADER) == first and len(said) == 2   # a hit
    # -D and -iquote options read the same one; other flags have their own
    assert precompiled_header(s, [*FLAGS, "-DDTYPE_X=float", "-iquote", "op_kernel"], said.append,
                              header=OP_HOST_HEADER) == first and len(said) == 2
    monkeypatch.setattr(emu, "runtime_hash", lambda: "headers-edited")       # the runtime headers' content changed
    second = precompiled_header(s, FLAGS, said.append, header=OP_HOST_HEADER)
    assert second is not None and second.parent != first.parent and len(said) == 4


def test_the_glue_starts_with_the_header_so_its_prelude_replaces_it():
    project = load_project(OPPROJECTS / "rms_scale_custom")
    text = glue_source(project)
    swapped = with_prelude(text, Path("/c/pch-x-sealed") / PCH_PRELUDE, OP_HOST_HEADER)
    assert swapped is not None and swapped.count("\n") == text.count("\n")
    assert f'#include "/c/pch-x-sealed/{PCH_PRELUDE}"' in swapped and OP_HOST_HEADER not in swapped
    assert with_prelude(text, Path("/c") / PCH_PRELUDE) is None              # not the kernel header's


def test_register_tiling_data_class_names_the_ops_struct_only_in_an_op_project(tmp_path):
    # the choice is made where the macro is used (tilingdata_base.h names no ASCENDCRAFT_OP_TYPE: g++ would refuse the
    # .gch of op_host.h for every op project, whose build defines it)
    src = tmp_path / "t.cpp"
    src.write_text('#include "register/tilingdata_base.h"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(FooTiling)\n'
                   'TILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(Foo, FooTiling)\n}\n')
    s = load_settings()

    def usings(*defs):
        out = subprocess.run([s.cxx, "-std=c++17", "-E", "-P", "-I", str(INCLUDE_DIR), *defs, str(src)],
                             capture_output=True, text=True, check=True).stdout
        return re.findall(r"using AscendCraftTilingData\w* = \w+;", out)
    assert usings() == ["using AscendCraftTilingData = FooTiling;"]
    assert usings("-DASCENDCRAFT_OP_TYPE=Foo") == ["using AscendCraftTilingData_Foo = FooTiling;"]
    defined = subprocess.run([s.cxx, "-std=c++17", "-E", "-dD", "-I", str(INCLUDE_DIR), "-x", "c++",
                              str(INCLUDE_DIR / OP_HOST_HEADER)], capture_output=True, text=True, check=True).stdout
    assert not re.search(r"\bASCENDCRAFT_OP_TYPE\b", defined)


def test_an_op_projects_glue_reads_it_with_the_same_log_and_outputs(monkeypatch):
    glue_runs, real = [], sandbox.run

    def recording(argv, **kw):
        done = real(argv, **kw)
        if GLUE_FILE in argv and "-c" in argv: glue_runs.append((list(argv), done.stdout + done.stderr))
        return done
    monkeypatch.setattr(sandbox, "run", recording)
    base = load_project(OPPROJECTS / "rms_scale_custom")

    def unseen(project):
        """The project with a host file the cache has not seen, so its glue is compiled now. A string, not a comment:
        a host unit's object is keyed by its preprocessed text (no comments) and not by its include folders, so the
        plain build below, which differs only in a folder, needs its own stamp to compile rather than reuse."""
        stamp = f'\n[[maybe_unused]] static const char host_pch_test_stamp[] = "{time.time_ns()}";\n'
        return dataclasses.replace(project, sources={n: t + (stamp if n.startswith("op_host/") and n.endswith(".cpp") else "")
                                                     for n, t in project.sources.items()})
    s = load_settings()
    project = unseen(base)
    fast = build_project(project, settings=s)
    assert fast.ok and len(glue_runs) == 1, fast.log[-2000:]
    argv, raw = glue_runs[0]
    assert "-Winvalid-pch" in argv and "-DASCENDCRAFT_OP_TYPE=RmsScaleCustom" in argv
    assert "invalid-pch" not in raw and raw == "", raw[:2000]                 # read, not refused
    plain = build_project(unseen(base), settings=s.replace(cxxflags=s.cxxflags + PLAIN))
    assert plain.ok and len(glue_runs) == 2 and "-Winvalid-pch" not in glue_runs[1][0]
    assert fast.log == plain.log
    x = torch.randn(6, 1024, generator=torch.Generator().manual_seed(3))
    want = lambda x, epsilon: x * torch.rsqrt((x * x).mean(-1, keepdim=True) + epsilon)
    for settings in (s, s.replace(cxxflags=s.cxxflags + PLAIN)):
        r = run_project(project, {"x": x}, attrs={"epsilon": 1e-5}, reference=want, settings=settings)
        assert r.ok and r.run.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
