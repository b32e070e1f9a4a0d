"""Building kernels for the CPU emulation: finding the entry, mapping g++ errors to the kernel's own
lines, caching, and the project layouts (dict, folder, msopgen tree, host tiling file)."""
import json
import time
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, INCLUDE_DIR, build, find_entries, parse_param, read_sources, run

HERE = Path(__file__).parent / "emu_kernels"

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
}
"""


def test_entry_and_parameters():
    (e,) = find_entries({"k.cpp": KERNEL})
    assert (e.name, e.file, e.line) == ("scale", "k.cpp", 3)
    assert [(p.name, p.kind, p.scalar) for p in e.params] == [("x", "pointer", ""), ("y", "pointer", ""), ("n", "scalar", "uint32_t")]
    assert parse_param("__gm__ const half* __restrict__ src").kind == "pointer"
    assert parse_param("int64_t count").scalar == "int64_t"
    # a struct by value (the official single-source examples' tiling): its bytes are given at run time (10_emu)
    assert (parse_param("const AscendC::tiling::TCubeTiling t").kind, parse_param("Custom::Tiling<half> t").kind) == ("value", "value")
    with pytest.raises(ValueError, match="neither a pointer"):
        parse_param("TilingData& t")


def test_missing_ambiguous_and_non_extern_entries_are_diagnostics():
    b = build({"k.cpp": "int main() { return 0; }"})
    assert not b.ok and b.errors[0].kind == "no-entry"
    two = KERNEL + KERNEL.replace("void scale", "void scale2").split("using namespace AscendC;")[1]
    b = build({"k.cpp": two})
    assert b.errors[0].kind == "ambiguous-entry" and "scale, scale2" in b.errors[0].message
    assert build({"k.cpp": two}, entry="scale2").ok
    # C++ linkage is accepted (CANN compiles such kernels for <<<>>> launches); so is extern"C" without a space
    assert build({"k.cpp": KERNEL.replace('extern "C" ', "")}).ok
    assert build({"k.cpp": KERNEL.replace('extern "C" ', 'extern"C"')}).ok
    # one entry written once per preprocessor branch (hicann ops-nn apply_gradient_descent): one entry to the driver,
    # the body the build's macros select
    body = KERNEL.split("using namespace AscendC;")[1]
    branched = KERNEL.replace(body, f"\n#ifdef __CCE_UT_TEST__{body}#else{body.replace('1024', '2048')}#endif\n")
    assert build({"k.cpp": branched}).ok
    # the same name with other parameters in each branch: the one an A2 build compiles (not a unit-test build's branch:
    # ops-nn chamfer_distance_grad's Ascend 950 template beside its A2 entry); under a condition only the build's own
    # macros decide, it stays ambiguous
    clash = branched.replace("uint32_t n)", "uint64_t n)", 1)
    chosen = build({"k.cpp": clash})
    assert chosen.ok and [p.ctype for p in chosen.params][-1] == "uint32_t"
    unknown = clash.replace("#ifdef __CCE_UT_TEST__", "#ifdef MY_OWN_SWITCH")
    assert build({"k.cpp": unknown}).errors[0].kind == "ambiguous-entry"


TEMPLATE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T, int N = 8>
__global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, uint32_t)
{
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, N);
    for (int i = 0; i < N; ++i) yGm.SetValue(i, xGm.GetValue(i) * 2);
}
"""


def test_unnamed_parameters_and_template_entries():
    (e,) = find_entries({"k.cpp": TEMPLATE})
    assert (e.name, e.template, [p.name for p in e.params]) == ("twice", "typename T, int N = 8", ["x", "y", "arg2"])
    assert e.params[2].scalar == "uint32_t"
    b = build({"k.cpp": TEMPLATE})
    assert [d.kind for d in b.errors] == ["entry-template"] and b.errors[0].line == 4 and "twice<" in b.errors[0].hint
    for targs, dtype in (("float", np.float32), ("int32_t, 8", np.int32)):
        b = build({"k.cpp": TEMPLATE}, entry=f"twice<{targs}>")
        x = np.arange(8, dtype=dtype)
        r = run(b, [GM("x", x), GM("y", np.empty_like(x), "out"), 0], block_dim=1)
        assert r.ok, r.diagnostics
        np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    assert [d.kind for d in build({"k.cpp": KERNEL}, entry="scale<float>").errors] == ["entry-template"]


def test_errors_point_at_the_kernel_line_not_the_header():
    src = KERNEL.replace("q.FreeTensor(t);", "q.FreeTensor(t);\n    LocalTensor<int8_t> i8 = t.ReinterpretCast<int8_t>();\n    Relu(i8, i8, 32);")
    b = build({"k.cpp": src})
    (err,) = b.errors
    assert (err.kind, err.file, err.line) == ("compile-error", "k.cpp", 11)
    assert "Relu on Ascend 910B (A2) supports half, int32_t and float only" in err.message
    assert str(INCLUDE_DIR) in err.context["origin"] and err.context["chain"]
    assert err.source_line.strip() == "Relu(i8, i8, 32);"


def test_plain_syntax_error_and_link_error():
    b = build({"k.cpp": KERNEL.replace("q.FreeTensor(t);", "q.FreeTensor(t)")})
    assert b.errors[0].kind == "compile-error" and b.errors[0].line in (9, 10)
    b = build({"k.cpp": KERNEL.replace("TPipe pipe;", "void Helper(); Helper();\n    TPipe pipe;")})
    (err,) = b.errors
    assert (err.kind, err.file, err.line) == ("link-error", "k.cpp", 5) and "Helper" in err.message


def test_warnings_are_diagnostics_when_the_flags_ask_for_them():
    settings = load_settings()
    s = settings.replace(cxxflags=settings.cxxflags + " -Wall")
    b = build({"k.cpp": KERNEL.replace("TPipe pipe;", "int unused = 3;\n    TPipe pipe;")}, settings=s)
    assert b.ok and [(d.kind, d.severity, d.line) for d in b.diagnostics] == [("compile-warning", "warning", 5)]
    assert "-Wall" in b.command


def test_cache_hit_is_fast_and_keys_on_content_and_sanitizer():
    src = {"k.cpp": KERNEL.replace("1024", "2048")}
    first = build(src)
    t0 = time.perf_counter()
    again = build(src)
    assert again.cached and not first.cached or first.cached
    assert time.perf_counter() - t0 < 0.2 and again.binary == first.binary
    changed = build({"k.cpp": src["k.cpp"] + "\n// a comment changes the key\n"})
    assert changed.binary != first.binary
    assert build(src, sanitize=True).folder != first.folder


def test_failed_builds_are_cached_too():
    src = {"k.cpp": KERNEL.replace("TPipe pipe;", "TPipe pipe; undeclared_thing();")}
    first = build(src)
    second = build(src)
    assert not first.ok and not second.ok and second.cached
    assert [d.render() for d in second.diagnostics] == [d.render() for d in first.diagnostics]


def test_a_cached_log_from_another_checkout_names_this_checkouts_headers():
    # One cache serves every checkout on a machine; a hit must not point at headers of a checkout that may be gone.
    src = {"k.cpp": KERNEL.replace("q.FreeTensor(t);", "q.FreeTensor(t);\n    LocalTensor<int8_t> j8 = t.ReinterpretCast<int8_t>();\n    Relu(j8, j8, 16);")}
    first = build(src)
    assert not first.ok and str(INCLUDE_DIR) in first.errors[0].context["origin"]
    info_path = first.folder / "build.json"
    info = json.loads(info_path.read_text())
    elsewhere = "/some/other/checkout/ascendcraft/runtime/include"
    info["log"] = info["log"].replace(str(INCLUDE_DIR), elsewhere)
    info["command"] = [a.replace(str(INCLUDE_DIR), elsewhere) for a in info["command"]]
    info["include"] = elsewhere
    from ascendcraft.config import load_settings
    from ascendcraft.seal import sign
    info_path.write_text(json.dumps(sign(info, load_settings().cache_path)))   # sealed, as that checkout wrote it
    hit = build(src)
    assert hit.cached and elsewhere not in hit.log and str(INCLUDE_DIR) in hit.errors[0].context["origin"]
    assert str(INCLUDE_DIR) in hit.command and [d.render() for d in hit.diagnostics] == [d.render() for d in first.diagnostics]


def test_folder_and_dict_sources_build_the_same_binary(tmp_path):
    folder = tmp_path / "proj"
    (folder / "kernel").mkdir(parents=True)
    (folder / "kernel" / "scale.cpp").write_text(KERNEL)
    (folder / "notes.txt").write_text("not a source file")
    assert read_sources(folder) == {"kernel/scale.cpp": KERNEL}
    assert build(folder).binary == build({"kernel/scale.cpp": KERNEL}).binary


def test_member_definitions_kept_in_an_inl_file_are_part_of_a_folder_project(tmp_path):
    # hicann ops-nn ada_layer_norm_grad: the kernel class's header ends with `#include "x_init.inl"`, the member
    # definitions beside it (it stopped at "x_init.inl: No such file or directory": the file was not read)
    folder = tmp_path / "proj"
    (folder / "kernel").mkdir(parents=True)
    header = ("#pragma once\n#include \"kernel_operator.h\"\nstruct Twice {\n    __aicore__ inline float Of(float v);\n};\n"
              '#include "twice_impl.inl"\n')
    inl = "__aicore__ inline float Twice::Of(float v) { return 2 * v; }\n"
    kernel = ('#include "twice.h"\nusing namespace AscendC;\nextern "C" __global__ __aicore__ void twice(GM_ADDR y)\n{\n'
              "    GlobalTensor<float> yg;\n    yg.SetGlobalBuffer((__gm__ float *)y, 8);\n    yg.SetValue(0, Twice().Of(21.0f));\n}\n")
    (folder / "kernel" / "twice.h").write_text(header)
    (folder / "kernel" / "twice_impl.inl").write_text(inl)
    (folder / "kernel" / "twice.cpp").write_text(kernel)
    assert read_sources(folder)["kernel/twice_impl.inl"] == inl
    b = build(folder)
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 42


def test_msopgen_project_includes_its_tiling_header_and_ignores_the_graph_host_file():
    b = build(HERE / "good" / "msopgen_add")
    assert b.ok, b.diagnostics
    assert b.entry == "add_custom" and b.entry_file == "op_kernel/add_custom.cpp"
    assert [p.name for p in b.params] == ["x", "y", "z", "workspace", "tiling"]
    assert "op_host/add_custom_emu_tiling.cpp" in b.command and "op_host/add_custom.cpp" not in b.command
    main = (b.folder / "src" / "__ascendcraft_main.cpp").read_text() if (b.folder / "src").exists() else ""
    assert not main or '#include "op_host/add_custom_tiling.h"' in main


def test_build_uses_the_compiler_and_flags_from_settings():
    s = load_settings().replace(cxxflags="-std=c++17 -O0")
    b = build({"k.cpp": KERNEL}, settings=s)
    assert b.ok and b.command[0] == s.cxx and "-O0" in b.command and "-O1" not in b.command


def test_run_argument_mistakes_raise_with_a_hint():
    b = build({"k.cpp": KERNEL})
    x = np.zeros(256, np.float32)
    with pytest.raises(Exception, match="3 parameters but 2 arguments"):
        run(b, [GM("x", x), GM("y", x, "out")], block_dim=1)
    with pytest.raises(Exception, match="give block_dim"):
        run(b, [GM("x", x), GM("y", x, "out"), 256])
    with pytest.raises(Exception, match="is a scalar"):
        run(b, [GM("x", x), GM("y", x, "out"), GM("n", x)], block_dim=1)
    with pytest.raises(ValueError, match="role"):
        GM("x", x, "input")
    r = run(b, [GM("x", x), GM("y", x, "out"), 256], block_dim=1)       # a plain number is a scalar argument:
    assert r.returncode == 0 and [d.kind for d in r.errors] == ["no-output"]  # the run gets through; the stub writes nothing


def _alive(pid: int) -> bool:
    "True while `pid` runs (a zombie waiting for its reaper counts as dead)."
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_children_die_with_the_process_that_started_them():
    # the emulator's kernel process and g++ are started this way: killing their caller (a benchmark
    # task that hit its time limit, a harness that was SIGKILLed) must not leave them running
    import signal
    import subprocess
    import sys
    script = ("import subprocess, time\n"
              "from ascendcraft.emu import dies_with_this_process\n"
              "p = subprocess.Popen(['sleep', '60'], start_new_session=True, preexec_fn=dies_with_this_process())\n"
              "print(p.pid, flush=True)\n"
              "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(child), "the child outlived the process that started it"


def test_a_tests_own_cache_with_the_machines_builds_linked_in_hits_them(tmp_path):
    "tests/_cache.share_builds: a kernel built in the machine's cache is a hit from a test's own cache (same seal key)."
    from _cache import share_builds
    src = {"k.cpp": KERNEL.replace("1024", "3072")}
    first = build(src)
    own = load_settings().replace(cache_dir=str(share_builds(tmp_path / "cache")))
    again = build(src, settings=own)
    assert again.cached and again.folder.resolve() == first.folder.resolve() and again.binary.resolve() == first.binary.resolve()
    assert not (tmp_path / "cache" / "llm").exists()                 # nothing else of the machine's cache came along
    assert build(src).cached                                          # and the machine's cache still trusts its build


def test_kernel_binaries_carry_their_cxx_runtime_and_start_without_loading_it():
    "libstdc++ and libgcc are linked into a kernel binary (no loader lookups for them at every run); it still runs."
    import subprocess
    from ascendcraft.emu import _static_cxx_flags
    b = build({"k.cpp": KERNEL})
    assert b.ok, b.diagnostics
    needed = subprocess.run(["readelf", "-d", str(b.binary)], capture_output=True, text=True, check=True).stdout
    libs = [line.split("[")[1].rstrip("]") for line in needed.splitlines() if "(NEEDED)" in line]
    assert libs and not any(lib.startswith(("libstdc++", "libgcc_s")) for lib in libs), libs
    assert _static_cxx_flags(True) == ()                                   # sanitizer builds keep them shared
    r = run(b, [GM("x", np.zeros(8, np.float32)), GM("y", np.zeros(8, np.float32), "out"), 8], block_dim=1)
    assert r.returncode == 0 and [d.kind for d in r.errors] == ["no-output"], r.diagnostics   # ran to its end (it writes nothing)


def test_a_check_only_build_reports_the_front_ends_errors_and_makes_no_binary():
    "build(check_only=True): -fsyntax-only, the same compile errors at the kernel's lines, no binary, its own cache key."
    src = {"k.cpp": KERNEL.replace("1024", "3072")}
    checked = build(src, check_only=True)
    assert checked.ok and checked.check_only and checked.binary is None
    assert "-fsyntax-only" in checked.command and "-o" not in checked.command    # nothing compiled to code, no link
    again = build(src, check_only=True)
    assert again.cached and again.check_only and again.binary is None and again.folder == checked.folder
    full = build(src)
    assert full.ok and not full.check_only and full.binary is not None and full.folder != checked.folder
    # an error only template instantiation finds (the A2 dtype rule of Relu is a static assertion): the same
    # diagnostic, at the same line, as the full build gives
    bad = {"k.cpp": KERNEL.replace("q.FreeTensor(t);",
                                   "q.FreeTensor(t);\n    LocalTensor<int8_t> i8 = t.ReinterpretCast<int8_t>();\n    Relu(i8, i8, 32);")}
    (err,) = build(bad, check_only=True).errors
    assert (err.kind, err.file, err.line) == ("compile-error", "k.cpp", 11)
    assert [d.render() for d in build(bad).errors] == [err.render()]
    # what it does not check: the link (an undefined function is found by the full build only)
    undefined = {"k.cpp": KERNEL.replace("TPipe pipe;", "void Helper(); Helper();\n    TPipe pipe;")}
    assert build(undefined, check_only=True).ok and build(undefined).errors[0].kind == "link-error"


PASTED = """#include "kernel_operator.h"
template <typename T>
class Twice {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t n) {
        AscendC::GlobalTensor<T> xg, yg;
        xg.SetGlobalBuffer((__gm__ T*)x, n);
        yg.SetGlobalBuffer((__gm__ T*)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, (T)((float)xg.GetValue(i) * 2.0f));
    }
};

#define TWICE_TYPE_DECLARE(TYPE)                                             \\
    extern "C" __global__ __aicore__ void twice_##TYPE(GM_ADDR x, GM_ADDR y, \\
                                                        uint32_t n)         \\
    {                                                                        \\
        Twice<TYPE> op;                                                      \\
        op.Run(x, y, n);                                                     \\
    }

TWICE_TYPE_DECLARE(half)
#if (__CCE_AICORE__ >= 220)
TWICE_TYPE_DECLARE(float)
#endif
"""


def test_entries_a_macro_names_by_its_argument_are_one_per_invocation_and_run():
    # sgl-kernel-npu's lora kernels: `#define BGMV_EXPAND_TYPE_DECLARE(TYPE) extern "C" __global__ __aicore__ void
    # bgmv_expand_##TYPE(...)` and an invocation per dtype; the host launches bgmv_expand_half by name
    got = [(e.name, e.file, e.line, [p.name for p in e.params]) for e in find_entries({"k.cpp": PASTED})]
    assert got == [("twice_half", "k.cpp", 21, ["x", "y", "n"]), ("twice_float", "k.cpp", 23, ["x", "y", "n"])]
    b = build({"k.cpp": PASTED}, "twice_float")
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(16, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.float32), "out"), np.uint32(16)], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    assert build({"k.cpp": PASTED}).diagnostics[0].kind == "ambiguous-entry"   # two kernels: the caller names one
