"""Hostile kernels against the operating-system sandbox (ascendcraft.sandbox): what a kernel cannot reach or
start, whatever its source does. These tests call the emulator directly (no honesty scan): the sandbox alone must
hold. Each asserts the specific verdict: 'blocked' lines printed from inside the kernel, or the error kind."""
import os
import time
from pathlib import Path

import numpy as np
import pytest

import ascendcraft
from ascendcraft import sandbox
from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run, runtime_library

HOSTILE = Path(__file__).parent / "hostile"
PROJECT = Path(ascendcraft.__file__).resolve().parent.parent
NAMESPACES = pytest.mark.skipif(not sandbox.probe().namespaces, reason="bubblewrap namespaces unavailable here")


def _args(n=256):
    x = np.arange(n, dtype=np.float32)
    return x, [GM("x", x), GM("y", np.empty_like(x), "out"), Scalar(n)]


def _lines(stdout: str) -> dict:
    return dict(line.split(" ", 1) for line in stdout.splitlines() if " " in line)


@pytest.fixture(scope="module")
def escape(tmp_path_factory):
    "The probe kernel's report, run with a secret in the environment and a run folder holding a result.json."
    rundir = tmp_path_factory.mktemp("runfolder")
    (rundir / "result.json").write_text('{"status": "pass"}')
    settings = load_settings()
    text = (HOSTILE / "probe_escape.cpp").read_text()
    for key, value in {"@HOME@": str(Path.home()), "@PROJECT@": str(PROJECT / "pyproject.toml"),
                       "@CACHE@": str(settings.cache_path), "@RUNDIR@": str(rundir)}.items():
        text = text.replace(key, value)
    os.environ["ASCENDCRAFT_HOSTILE_SECRET"] = "sk-secret"
    try:
        b = build({"probe_escape.cpp": text})
        assert b.ok, b.diagnostics
        x, args = _args()
        r = run(b, args, block_dim=1)
    finally:
        del os.environ["ASCENDCRAFT_HOSTILE_SECRET"]
    return r, x, rundir


@NAMESPACES
@pytest.mark.parametrize("what", ["home", "project", "cache", "rundir", "forge-result", "socket", "socket-unix",
                                  "socket-netlink", "socketpair", "fork", "clone", "posix_spawn", "system", "env-secret",
                                  "execve"])
def test_from_inside_a_kernel_nothing_outside_is_reachable(escape, what):
    r, x, rundir = escape
    assert _lines(r.stdout).get(what) == "blocked", r.stdout + r.stderr


@NAMESPACES
def test_only_kernels_go_without_a_network_namespace(tmp_path):
    "A kernel's 'no network' is its seccomp filter (no socket at all); g++ runs, which have no filter, keep the namespace."
    settings, limits = load_settings(), sandbox.Limits(10)
    kernel = sandbox.wrap(["kernel", "spec.txt"], scratch=tmp_path, limits=limits, settings=settings,
                          programs={"kernel": "/usr/bin/true"}, kernel=True).argv
    gxx = sandbox.wrap(["g++", "--version"], scratch=tmp_path, limits=limits, settings=settings).argv
    assert "--unshare-net" not in kernel and "--no-seccomp" not in kernel
    assert "--unshare-net" in gxx and "--no-seccomp" in gxx


@NAMESPACES
def test_the_probe_kernel_still_ran_as_nobody_and_computed(escape):
    r, x, rundir = escape
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert _lines(r.stdout)["uid"] == str(sandbox.NOBODY)
    assert (rundir / "result.json").read_text() == '{"status": "pass"}'     # not forged


def test_code_before_main_cannot_start_a_process():
    "Global constructors, constructor(101) and .preinit_array run after the seccomp filter is in place."
    x, args = _args()
    r = run(build(HOSTILE / "ctor_spawn.cpp"), args, block_dim=1)
    seen = _lines(r.stdout)
    assert {k: seen.get(k) for k in ("global-fork", "constructor101-fork", "preinit-fork")} == \
        {"global-fork": "blocked", "constructor101-fork": "blocked", "preinit-fork": "blocked"}, r.stdout
    assert r.ok and (r.outputs["y"] == x).all()


@NAMESPACES
def test_a_setsid_background_process_does_not_outlive_the_sandbox(tmp_path):
    "Even without the seccomp filter (as for g++), a setsid'd background process dies with the sandbox."
    marker = f"ascendcraft-hostile-{os.getpid()}-{time.time_ns()}"
    script = f"setsid sh -c 'sleep 2; echo forged > {tmp_path}/late; : {marker}' & sleep 0.2; echo started"
    r = sandbox.run(["/bin/sh", "-c", script], scratch=tmp_path, limits=sandbox.Limits(20))
    assert r.returncode == 0 and "started" in r.stdout
    time.sleep(2.5)
    assert not (tmp_path / "late").exists()
    alive = [p for p in Path("/proc").iterdir() if p.name.isdigit() and marker.encode() in _cmdline(p)]
    assert alive == []


def _cmdline(p: Path) -> bytes:
    try: return (p / "cmdline").read_bytes()
    except OSError: return b""


@NAMESPACES
def test_a_timed_out_sandbox_leaves_no_process(tmp_path):
    marker = f"ascendcraft-hostile-t-{os.getpid()}-{time.time_ns()}"
    r = sandbox.run(["/bin/sh", "-c", f"setsid sh -c 'sleep 60; : {marker}' & sleep 60"], scratch=tmp_path,
                    limits=sandbox.Limits(1))
    assert r.timed_out and r.seconds < 10
    time.sleep(0.5)
    assert [p for p in Path("/proc").iterdir() if p.name.isdigit() and marker.encode() in _cmdline(p)] == []


def test_a_huge_file_written_by_a_kernel_hits_the_file_size_limit():
    x, args = _args()
    r = run(build(HOSTILE / "big_file.cpp"), args, block_dim=1, settings=load_settings().replace(file_limit_mb=4))
    assert [d.kind for d in r.errors] == ["run-limit"], r.diagnostics
    assert "file_limit_mb" in r.errors[0].message


def test_memory_grabbed_by_a_global_constructor_hits_the_address_space_limit():
    x, args = _args()
    t0 = time.perf_counter()
    r = run(build(HOSTILE / "ctor_memory.cpp"), args, block_dim=1, settings=load_settings().replace(run_memory_mb=512))
    assert [d.kind for d in r.errors] == ["out-of-memory"], r.diagnostics
    assert time.perf_counter() - t0 < 30


@NAMESPACES
def test_including_dev_zero_ends_in_a_clear_compile_error_quickly():
    text = '#include "/dev/zero"\n' + (HOSTILE / "big_file.cpp").read_text()
    t0 = time.perf_counter()
    b = build({"zero.cpp": text})
    assert not b.ok and time.perf_counter() - t0 < 60
    d = b.errors[0]
    assert d.kind == "compile-error" and "/dev/zero" in d.message and d.file == "zero.cpp" and d.line == 1


@NAMESPACES
@pytest.mark.parametrize("path", ["/etc/passwd", str(Path.home() / ".bashrc"), str(PROJECT / "pyproject.toml")])
def test_g_plus_plus_cannot_include_files_outside_the_sandbox(path):
    b = build({"peek.cpp": f'#include "{path}"\n' + (HOSTILE / "big_file.cpp").read_text()})
    assert not b.ok and b.errors[0].line == 1 and "No such file or directory" in b.errors[0].message


_HUGE_INITIALISER = "".join(f"#define A{10 ** (k + 1)} " + ",".join([f"A{10 ** k}"] * 10) + "\n" for k in range(1, 6))


def test_g_plus_plus_memory_limit_is_a_clear_error():
    "A three-million-element initialiser (macro-expanded from a few lines) needs more than 150 MiB in cc1plus."
    runtime_library(load_settings())                      # built with the normal limits first
    text = "#define A10 1,2,3,4,5,6,7,8,9,10\n" + _HUGE_INITIALISER + "const int table[] = {A1000000, A1000000, A1000000};\n"
    b = build({"k.cpp": text + (HOSTILE / "big_file.cpp").read_text()}, settings=load_settings().replace(build_memory_mb=150))
    assert not b.ok and [d.kind for d in b.errors] == ["build-limit"], b.log[-2000:]
    assert "build_memory_mb" in b.errors[0].message


def test_g_plus_plus_file_size_limit_is_a_clear_error():
    runtime_library(load_settings())
    b = build({"k.cpp": (HOSTILE / "big_file.cpp").read_text() + "\n// file-size test\n"},
              settings=load_settings().replace(file_limit_mb=1))
    assert not b.ok and [d.kind for d in b.errors] == ["build-limit"], b.log[-2000:]
    assert "file_limit_mb" in b.errors[0].message


@pytest.fixture
def no_namespaces(monkeypatch):
    "A machine where bubblewrap cannot create namespaces (stand-in: the probe says so)."
    monkeypatch.setattr(sandbox, "probe", lambda bwrap=sandbox.BWRAP: sandbox.Protections(None, False, "stand-in: no userns"))
    monkeypatch.setattr(sandbox, "_WARNED", set())


def test_without_namespaces_the_fallback_warns_once_and_still_refuses_fork(no_namespaces, capsys):
    x, args = _args()
    with pytest.warns(RuntimeWarning, match="SANDBOX IS NOT ACTIVE"):
        r = run(build(HOSTILE / "ctor_spawn.cpp"), args, block_dim=1)
    assert _lines(r.stdout)["global-fork"] == "blocked" and r.ok
    assert "SANDBOX IS NOT ACTIVE" in capsys.readouterr().err
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")                       # the second run does not warn again
        run(build(HOSTILE / "ctor_spawn.cpp"), args, block_dim=1)


def test_sandbox_require_refuses_to_run_without_namespaces(no_namespaces):
    from ascendcraft.diagnostics import AscendCraftError
    x, args = _args()
    with pytest.raises(AscendCraftError, match="sandbox = require"):
        run(build(HOSTILE / "ctor_spawn.cpp"), args, block_dim=1, settings=load_settings().replace(sandbox="require"))


def test_an_unknown_sandbox_setting_is_one_clear_error():
    "Checked when the settings are made (config), and again where the sandbox starts (a Settings built by hand)."
    from ascendcraft.config import Settings, SettingsError
    from ascendcraft.diagnostics import AscendCraftError
    with pytest.raises(SettingsError, match="setting 'sandbox'"):
        load_settings().replace(sandbox="off")
    with pytest.raises(AscendCraftError, match="setting 'sandbox'"):
        sandbox.active(Settings(sandbox="off"))
