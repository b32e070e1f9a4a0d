"""An asc-devkit example run as its README runs it (corpus.py run --match, the asc-file kind).

match_asc_host compiles the example's whole host program against the emulated ACL and hands each `<<<>>>` launch to the
emulator (asc_host_launch.h beside this file), then runs its README's `../scripts/gen_data.py` and
`../scripts/verify_result.py` or takes the host program's own check; where the host program does not compile here,
match_asc reads the launch's arguments from the host code instead. Both are called from corpus.py's `_try_entry`.
"""
import os
import posixpath
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections import Counter

from corpus import (HERE, HOST_ONLY_INCLUDES, _constants, _eval_int, _split_args, asc_target_siblings,
    first_run_error, git, show)


# ---- run and match: an asc-devkit example's own data and check (scripts/gen_data.py, scripts/verify_result.py) ----
def _asc_commands(readme: str, defines: str) -> tuple[list[str], list[str]] | None:
    "The README's `python3 ../scripts/gen_data.py ...` and `... verify_result.py ...` commands, with the -D values put in."
    values = dict(re.findall(r"-D(\w+)=([-\w.]+)", defines))
    found = {}
    for kind in ("gen_data", "verify_result"):
        m = re.search(rf"python3?\s+\.\./scripts/{kind}\.py([^\n#|&;]*)", readme)
        if not m: return None
        args = re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), v.group(0)), m.group(1)).split()
        if any("$" in a for a in args): return None
        found[kind] = [f"../scripts/{kind}.py", *args]
    return found["gen_data"], found["verify_result"]


def _unread_host_buffer(code: str, host: str, consts: dict[str, str]):
    """The bytes a host buffer holds when the example's ReadFile into it finds no file: the example's data_utils.h ReadFile
    logs an error and returns, leaving the buffer as aclrtMallocHost gave it (undefined: here the poison byte 0xA5), and
    the host copies it to the device all the same. A ReadFile under an `if constexpr` of another scenario (the asc-devkit's
    fixpipe_l0c2gm reads quant_pre.bin in scenario 5 only, and its gen_data.py writes it then only) is followed here as if
    taken, so the same holds. The size is aclrtMallocHost's, a constant of the host code; None when it is not one."""
    import numpy as np
    m = re.search(rf"aclrtMallocHost\s*\([^;]*?&\s*{re.escape(host)}\s*\)?\s*,\s*([^;]+?)\)\s*;", code)
    if not m: return None
    expr = m.group(1).strip()
    size = _eval_int(expr, consts)
    if size is None and re.fullmatch(r"\w+", expr):
        defined = re.search(rf"\b{re.escape(expr)}\s*=\s*([^;]+);", code)
        size = defined and _eval_int(defined.group(1), consts)
    return np.full(size, 0xA5, np.uint8) if size else None


def match_asc(entry: dict, gitdir: str, kb) -> dict:
    """Run an asc-devkit example's kernel on the data its own scripts/gen_data.py makes and check the output with its
    own scripts/verify_result.py, as its README does (`python3 ../scripts/gen_data.py ...`, `./demo`, `python3
    ../scripts/verify_result.py ...`). The host main's launch gives the block count and the device arguments; each
    argument's file is followed through the host code (ReadFile -> aclrtMemcpy host-to-device; aclrtMemcpy
    device-to-host -> WriteFile), an output's size is its golden file's; an argument filled from a file and copied back to
    one is updated in place (inout). Examples whose arguments are not all such files
    (tiling structs, workspaces, scalars) have no reference here."""
    import numpy as np
    from ascendcraft.emu import GM, run
    commit, path = entry["commit"], entry["path"]
    folder = posixpath.dirname(path)
    code = ""
    for f in [path, *asc_target_siblings(gitdir, commit, path)]:   # the file of the target whose host code launches
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", show(gitdir, commit, f).decode(errors="replace"), flags=re.S)
        if "<<<" in code: break
    try:
        readme = show(gitdir, commit, f"{folder}/README.md").decode(errors="replace")
    except subprocess.CalledProcessError:
        return dict(match="no-reference", match_detail="no README.md with the example's commands")
    cmds = _asc_commands(readme, entry.get("defines", ""))
    if cmds is None: return dict(match="no-reference", match_detail="the README names no gen_data.py / verify_result.py run")
    main = re.search(r"(?m)^\s*(?:int|int32_t)\s+main\s*\(", code)
    launch = re.search(r"<<<\s*([^,>]+?)\s*,[^>]*>>>\s*\(([^;]*)\)\s*;", code[main.start():] if main else code)
    if not launch: return dict(match="no-reference", match_detail="no <<<>>> launch found")
    consts = _constants(code, entry.get("defines", ""))
    for k, v in re.findall(r"\b(\w+)\s*=\s*(\d+)\s*;", code[main.start():] if main else code):
        consts.setdefault(k, v)   # a name assigned in several scenario branches: the first (the launch's) value
    blocks = _eval_int(launch.group(1), consts)
    if not blocks: return dict(match="no-reference", match_detail=f"block count '{launch.group(1)}' is not a constant")
    args = [a.strip() for a in _split_args(launch.group(2))]
    params = [p for p in kb.params]
    if len(args) != len(params): return dict(match="no-reference", match_detail="the launch's arguments do not line up")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for f in git(gitdir, "ls-tree", "-r", "--name-only", commit, "--", folder + "/scripts/").splitlines():
            (root / "scripts").mkdir(exist_ok=True)
            (root / "scripts" / posixpath.basename(f)).write_bytes(show(gitdir, commit, f))
        work = root / "build"
        work.mkdir()
        gen = subprocess.run([sys.executable, *cmds[0]], cwd=work, capture_output=True, text=True, timeout=300)
        if gen.returncode != 0:
            return dict(match="no-reference", match_detail=f"gen_data.py: {(gen.stderr or gen.stdout).strip()[-160:]}")
        verify_files = [a for a in cmds[1] if a.endswith(".bin")]
        gms, outs, missing = [], [], []
        for arg, param in zip(args, params):
            if param.kind == "scalar":   # a scalar argument: a constant of the host code (`totalLength`)
                value = _eval_int(arg, consts)
                if value is None: return dict(match="no-reference", match_detail=f"scalar argument '{arg}' is not a constant")
                gms.append(value)
                continue
            name = re.escape(re.sub(r"^\(.*?\)\s*", "", arg).strip("&* "))
            host = re.search(rf"aclrtMemcpy\s*\(\s*{name}\s*,[^;]*?,\s*(?:\([\w:\s*]+\)\s*)?(\w+)\s*,[^;]*HOST_TO_DEVICE", code)
            src = host and re.search(rf'ReadFile\s*\(\s*"([\w./-]+)"\s*,[^,]*,\s*(?:\([\w:\s*]+\)\s*)?{re.escape(host.group(1))}\b', code)
            back = re.search(rf"aclrtMemcpy\s*\(\s*(?:\([\w:\s*]+\)\s*)?(\w+)\s*,[^;]*?,\s*{name}\s*,[^;]*DEVICE_TO_HOST", code)
            dst = back and re.search(rf'WriteFile\s*\(\s*"([\w./-]+)"\s*,\s*(?:\([\w:\s*]+\)\s*)?{re.escape(back.group(1))}\b', code)
            if src and not dst and not (work / src.group(1)).exists():   # a file this scenario's gen_data.py does not write
                left = _unread_host_buffer(code, host.group(1), consts)
                if left is None:
                    return dict(match="no-reference", match_detail=f"gen_data.py wrote no {src.group(1)} and the size of "
                                                                    f"'{host.group(1)}' is not a constant")
                missing.append(src.group(1))
                gms.append(GM(param.name, left))
                continue
            if src and not dst:
                gms.append(GM(param.name, np.fromfile(work / src.group(1), np.uint8)))
                continue
            if not dst: return dict(match="no-reference", match_detail=f"argument '{arg}' is not an input or output file")
            out_file = dst.group(1)
            at = next((i for i, a in enumerate(verify_files) if posixpath.basename(a) == posixpath.basename(out_file)), None)
            if at is None or at + 1 >= len(verify_files):
                return dict(match="no-reference", match_detail=f"verify_result.py does not check {out_file}")
            size = (work / verify_files[at + 1]).stat().st_size
            if src:   # filled from a file and copied back: the kernel updates it in place (atomic adds into it, say)
                gms.append(GM(param.name, np.fromfile(work / src.group(1), np.uint8), "inout"))
            else:
                gms.append(GM(param.name, np.zeros(size, np.uint8), "out"))
            outs.append((param.name, out_file))
        def verify(poison: int) -> tuple[bool, str, object]:
            r = run(kb, gms, block_dim=blocks, poison=poison)
            if not r.ok: return False, "", r
            for name, out_file in outs:
                (work / out_file).parent.mkdir(parents=True, exist_ok=True)
                np.asarray(r.outputs[name]).tofile(work / out_file)
            check = subprocess.run([sys.executable, *cmds[1]], cwd=work, capture_output=True, text=True, timeout=300)
            said = (check.stdout + check.stderr).strip()
            ok = check.returncode == 0 and re.search(r"pass|success", said, re.I) and not re.search(r"\bfail", said, re.I)
            return bool(ok), said.splitlines()[-1][:200] if said else "", r
        ok, said, r = verify(0xA5)   # output bytes the kernel does not write hold the poison
        if not r.ok:
            errs = [d for d in r.diagnostics if d.is_error]
            return dict(match="run-error", match_detail=first_run_error(errs)[:300])
        if missing:   # say so beside the verdict
            said = f"{said} ({', '.join(missing)}: not written by this scenario's gen_data.py; its host buffer went to the " \
                   "device unread, as the example's ReadFile leaves it)"
        if ok: return dict(match="pass", match_detail=said)
        # a golden that expects 0 in output bytes the kernel leaves alone (gm_by_pass_dcache writes one int32 of 1024 and
        # copies all back): the same run with those bytes 0 is checked, and a pass says so
        ok0, said0, r0 = verify(0)
        if ok0 and r0.ok:
            return dict(match="pass", match_detail=f"{said0} (with the output bytes the kernel does not write as 0, as the "
                                                   "example's golden assumes of fresh device memory)")
        return dict(match="mismatch", match_detail=said)


# ---- run and match: an asc-devkit example's host program, run with its kernel launches on the emulator ----------
HOST_LAUNCH_HEADER = HERE / "asc_host_launch.h"   # forwards to runtime/include/asc_host_launch.h


def asc_host_source(text: str) -> str:
    """An asc-devkit example's file as its host program is compiled here (match_asc_host): each `kernel<<<blocks, l2,
    stream>>>(args);` statement becomes `ascendcraft_host::launch("kernel", blocks, args);` (asc_host_launch.h), and the
    CPU-debug launcher's include is dropped. Line numbers are kept."""
    from ascendcraft.emu import host_launch_calls
    text = host_launch_calls(text)
    return re.sub(r'(?m)^([ \t]*#\s*include\s*[<"](?:' + "|".join(map(re.escape, HOST_ONLY_INCLUDES)) + r')[>"])',
                  lambda m: " " * len(m.group(1)), text)


def _readme_values(readme: str, defines: str) -> dict[str, str]:
    """The shell variables a README's steps set (a line of assignments only: `TESTCASE=1`, or several, `SCENARIO_NUM=1
    ASC_ARCH=dav-2201`), then the build's -D values over them."""
    values = {}
    for line in re.findall(r"(?m)^[ \t]*(\w+=[-\w.]+(?:[ \t]+\w+=[-\w.]+)*)[ \t]*(?:#.*)?$", readme):
        values.update(re.findall(r"(\w+)=([-\w.]+)", line))
    return {**values, **dict(re.findall(r"-D(\w+)=([-\w.]+)", defines))}


def _readme_commands(readme: str, defines: str) -> tuple[list[str] | None, list[str] | None]:
    """The README's `python3 ../scripts/gen_data.py ...` and `... verify_result.py ...` commands (each None when absent),
    with the build's -D values and the README's own shell variables (`TESTCASE=1` in its steps) put in."""
    values = _readme_values(readme, defines)
    found = {}
    for kind in ("gen_data", "verify_result"):
        m = re.search(rf"python3?\s+\.\./scripts/{kind}\.py([^\n#|&;]*)", readme)
        args = re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), v.group(0)), m.group(1)).split() if m else None
        found[kind] = [f"../scripts/{kind}.py", *args] if m and not any("$" in a for a in args) else None
    return found["gen_data"], found["verify_result"]


def _readme_demo_args(readme: str, defines: str) -> list[str]:
    """The arguments the README's steps give the example's program (`./demo $TESTCASE`, broadcast), with the README's
    shell variables and the build's -D values put in; [] when it runs `./demo` alone (or an argument is not known)."""
    values = _readme_values(readme, defines)
    m = re.search(r"(?m)^[ \t]*\./demo[ \t]+([^\n#|&;<>]*)", readme)
    if not m: return []
    args = re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), v.group(0)), m.group(1)).split()
    return [] if any("$" in a for a in args) else args


def _readme_result(readme: str) -> list[str]:
    """The lines an example's README shows as what a successful run prints (its `执行结果如下` / "result" code block),
    but for a block that only holds a verify step's pass message or a command; [] when there is none."""
    m = re.search(r"执行结果[^\n]*\n(?:[^\n]*\n){0,4}?[ \t]*```[^\n]*\n(.*?)\n[ \t]*```", readme, re.S)
    if not m: return []
    lines = [l.strip() for l in m.group(1).splitlines() if l.strip()]
    if not lines or any(re.match(r"(?:\$|#|python|\./|bash|cd |mkdir|cmake|make)", l) for l in lines): return []
    return lines


TF_BFLOAT16_SHIM = '''"""A stand-in for TensorFlow where it is not installed, written by corpus.py for the asc-devkit examples' scripts that
take only TensorFlow's bfloat16 NumPy type from it (`tf.bfloat16.as_numpy_dtype`): that type is ml_dtypes.bfloat16.
Anything else of TensorFlow's is not here and stops the script (its example then has no reference)."""
import types as _types

import ml_dtypes as _ml_dtypes

bfloat16 = _types.SimpleNamespace(as_numpy_dtype=_ml_dtypes.bfloat16)


def __getattr__(name):
    raise ImportError(f"tensorflow.{name}: TensorFlow is not installed; corpus.py's stand-in has only bfloat16")
'''


def _script_env(root: Path) -> dict:
    """The environment of an example's gen_data.py / verify_result.py: where TensorFlow is not installed, a stand-in
    package that holds its bfloat16 NumPy type (TF_BFLOAT16_SHIM) comes first on PYTHONPATH."""
    import importlib.util
    env = dict(os.environ)
    if importlib.util.find_spec("tensorflow") is None:
        (root / "pyshim" / "tensorflow").mkdir(parents=True, exist_ok=True)
        (root / "pyshim" / "tensorflow" / "__init__.py").write_text(TF_BFLOAT16_SHIM)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "pyshim"), env.get("PYTHONPATH", "")]))
    return env


def _expected_assert(readme: str, errors: list) -> str | None:
    """The condition of a kernel assertion that stopped the run (`kernel-assert`) when the README shows that very
    assertion failing (`Assertion `COND' failed.` in its result, as the runtime prints it): the example's point is
    that it fires (asc-devkit 01_utilities/09_log). None for any other stop."""
    shown = {" ".join(c.split()) for c in re.findall(r"Assertion `(.+?)' failed", readme)}
    for d in errors:
        if d.kind == "kernel-assert" and (m := re.match(r"assertion failed: (.*)", d.message, re.S)):
            condition = " ".join(m.group(1).split())
            if condition in shown: return condition
    return None


def _host_verdict(returncode: int, said: str) -> dict | None:
    """The host program's own check, from its exit status and what it printed: pass with a pass / success line and no
    failure line (an error message besides, such as the emulated host tiling API's `[ERROR] ... must be ...` log,
    which CANN's host API prints too, is named in the detail, not taken as the verdict); mismatch with a failure line,
    an error line and no pass, or a non-zero exit; None when it printed neither (no check of its own)."""
    last = said.splitlines()[-1][:200] if said else ""
    failed = re.search(r"(?im)^.*\bfail(?:ed|ure|s)?\b.*$", said)
    if returncode == 0 and re.search(r"pass|success", said, re.I) and not failed:
        noted = re.search(r"(?im)^.*\berror\b.*$", said)
        return dict(match="pass", match_detail=f"{last} (the host program's own check"
                    + (f"; it also printed {noted.group(0).strip()[:120]!r})" if noted else ")"))
    if returncode != 0 or failed or re.search(r"\berror\b", said, re.I):
        return dict(match="mismatch", match_detail=f"host program exit status {returncode}: {last}")
    return None


def _host_scalar(kind: str, size: int, raw: bytes):
    "A scalar launch argument's value from the host's bytes and its type's kind (f float, i signed, u unsigned / enum)."
    import numpy as np
    if kind == "f": return float(np.frombuffer(raw, {4: np.float32, 8: np.float64, 2: np.float16}[size])[0])
    return int.from_bytes(raw, "little", signed=kind == "i")


def match_asc_host(entry: dict, gitdir: str, kb, build_kernel) -> dict:
    """Run an asc-devkit example as its README does (`python3 ../scripts/gen_data.py ...`, `./demo`, `python3
    ../scripts/verify_result.py ...`), its host program included: the example's .asc files are compiled whole as a host
    program against the emulated ACL (acl/acl.h, the tiling API, the platform), each `<<<>>>` launch a call into
    asc_host_launch.h, which hands the launch's arguments to this function and waits while the kernel runs on the
    emulator (each pointer argument is its ACL allocation's bytes from the pointer on, updated in place; other
    arguments are their bytes), then goes on as on the NPU: copies back, WriteFile, the host's own check. The verdict
    is the README's verify_result.py when it names one, else the host program's own (its exit status and what it
    prints: a pass / success message, no failure). `build_kernel(name)` builds another kernel of the file that the
    host launches (a scenario's other kernel). A kernel that stops with an error ends the host program: run-error."""
    import numpy as np
    from ascendcraft.config import load_settings
    from ascendcraft.emu import GM, INCLUDE_DIR, kernel_flags, run, runtime_library
    settings = load_settings()
    commit, path = entry["commit"], entry["path"]
    folder = posixpath.dirname(path)
    try:
        readme = show(gitdir, commit, f"{folder}/README.md").decode(errors="replace")
    except subprocess.CalledProcessError:
        readme = ""
    gen_cmd, verify_cmd = _readme_commands(readme, entry.get("defines", ""))
    files = [path, *asc_target_siblings(gitdir, commit, path)]
    try:   # the host program is every source the example's CMake targets build (main.cpp beside the .asc, a library's)
        cmake = re.sub(r"#[^\n]*", "", show(gitdir, commit, f"{folder}/CMakeLists.txt").decode(errors="replace"))
        for body in re.findall(r"\badd_(?:executable|library)\s*\(([^)]*)\)", cmake):
            files += [f"{folder}/{f}" for f in body.split()[1:] if f.endswith((".asc", ".cpp", ".cc"))
                      and f"{folder}/{f}" not in files and "/" not in f]
    except subprocess.CalledProcessError:
        pass
    from torch_ext_host import binds_pytorch, match_torch_extension   # beside this file
    if any(binds_pytorch(show(gitdir, commit, f).decode(errors="replace")) for f in files):
        # a PyTorch extension (pybind11 / TORCH_LIBRARY over torch_npu): its README's test script, with the stand-in
        return match_torch_extension(entry, gitdir, readme, show, git)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = root / "src"
        src.mkdir()
        for f in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
            if f.endswith((".h", ".hpp")): (src / posixpath.basename(f)).write_bytes(show(gitdir, commit, f))
        for f in files:
            (src / (posixpath.basename(f) + ".cpp")).write_text(asc_host_source(show(gitdir, commit, f).decode(errors="replace")))
        for f in git(gitdir, "ls-tree", "-r", "--name-only", commit, "--", folder + "/scripts/").splitlines():
            (root / "scripts").mkdir(exist_ok=True)
            (root / "scripts" / posixpath.basename(f)).write_bytes(show(gitdir, commit, f))
        flags = [*kernel_flags(settings), *shlex.split(entry.get("defines", ""))]
        cmd = [settings.cxx, *flags, "-g0", "-pthread", "-fno-diagnostics-color", "-fmax-errors=5", "-I", str(INCLUDE_DIR),
               "-I", str(src), "-include", str(HOST_LAUNCH_HEADER),
               *(posixpath.basename(f) + ".cpp" for f in files), str(runtime_library(settings)), "-lm", "-o", str(root / "demo")]
        made = subprocess.run(cmd, cwd=src, capture_output=True, text=True, timeout=600)
        if made.returncode != 0:
            first = next((l for l in made.stderr.splitlines() if "error" in l), made.stderr.strip()[-200:])
            return dict(match="no-reference", match_detail=f"host program: {first.replace(str(src) + '/', '')}"[:300])
        script_env = _script_env(root)

        def attempt(fill: int) -> dict:
            """gen_data.py, the host program and the check, in a fresh copy of the example's build folder, the host's
            aclrtMalloc memory filled with `fill` (ASCENDCRAFT_ACL_MALLOC_FILL)."""
            here = root / f"fill{fill}"
            work = here / "build"
            work.mkdir(parents=True)
            if (root / "scripts").is_dir(): shutil.copytree(root / "scripts", here / "scripts")
            if gen_cmd:
                gen = subprocess.run([sys.executable, *gen_cmd], cwd=work, capture_output=True, text=True, timeout=300,
                                     env=script_env)
                if gen.returncode != 0:
                    return dict(match="no-reference", match_detail=f"gen_data.py: {(gen.stderr or gen.stdout).strip()[-160:]}")
            for d in ("input", "output"): (work / d).mkdir(exist_ok=True)   # the README's build step makes them
            request, answer = here / "request", here / "answer"
            os.mkfifo(request); os.mkfifo(answer)
            env = dict(os.environ, ASCENDCRAFT_HOST_DIR=str(here), ASCENDCRAFT_HOST_REQUEST=str(request),
                       ASCENDCRAFT_HOST_ANSWER=str(answer), ASCENDCRAFT_ACL_MALLOC_FILL=str(fill))
            log = open(here / "host.log", "w+")
            host = subprocess.Popen([str(root / "demo"), *_readme_demo_args(readme, entry.get("defines", ""))], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL)
            launches, failed, refused, builds = 0, None, None, {kb.entry.split("<")[0].split("::")[-1]: kb}
            unwritten = 0   # launches that wrote no GM byte (the emulator's no-output finding)
            asserted = []   # the conditions of the kernel assertions that fired as the README shows
            printed = []
            deadline = time.monotonic() + 1800
            try:
                while True:   # each request: one launch; the host's end closes nothing we wait on, so poll for it
                    fd = os.open(request, os.O_RDONLY | os.O_NONBLOCK)
                    got = b""
                    try:   # bytes as they come (b"" while no writer has the pipe open; BlockingIOError while it writes nothing)
                        while host.poll() is None and time.monotonic() < deadline:
                            try:
                                got += os.read(fd, 4096)
                            except BlockingIOError:
                                pass
                            if got.endswith(b"\n"): break
                            time.sleep(0.02)
                    finally:
                        os.close(fd)
                    spec = got.decode()
                    if not spec.endswith("\n"): break
                    verdict = "ok"
                    lines = Path(spec.strip() + ".txt").read_text().splitlines()
                    # the host's other device allocations (`d START BYTES`): at their host addresses, as the arguments,
                    # so that an address the host stored in GM (a ListTensorDesc's list) reaches them
                    others = [tuple(int(x) for x in l.split()[1:]) for l in lines[2:] if l.startswith("d ")]
                    lines = [l for l in lines if not l.startswith("d ")]
                    name, blocks = lines[0], int(lines[1])
                    base = name.split("<")[0].split("::")[-1].strip()
                    if base not in builds: builds[base] = build_kernel(name)
                    kernel = builds[base]
                    args, outs, seen = [], [], set()
                    if kernel is None or not kernel.ok:
                        refused = f"the host launches '{name}', which does not build alone"
                    elif len(kernel.params) != len(lines) - 2:
                        refused = f"the launch of '{name}' has {len(lines) - 2} arguments, the kernel {len(kernel.params)}"
                    else:
                        for param, line in zip(kernel.params, lines[2:]):
                            kind, *rest = line.split()
                            if kind == "b":
                                alloc, offset, size = (int(x) for x in rest)
                                if alloc in seen:
                                    refused = f"two arguments of '{name}' point into one allocation"; break
                                seen.add(alloc)
                                data = np.fromfile(f"{spec.strip()}_{alloc}.bin", np.uint8)[:size]
                                args.append(GM(param.name, data, "inout", address=alloc, offset=offset))
                                outs.append((param.name, alloc, 0))
                            elif kind == "n":   # a null pointer: no bytes (a kernel that reads it stops out of range)
                                args.append(GM(param.name, np.zeros(0, np.uint8), "in"))
                            elif kind == "h":
                                refused = f"argument '{param.name}' of '{name}' points into no ACL allocation"; break
                            else:
                                tkind, tsize, raw = rest[0], int(rest[1]), bytes.fromhex(rest[2]) if len(rest) > 2 else b""
                                args.append(raw if param.kind == "value" or tkind == "o" else _host_scalar(tkind, tsize, raw))
                    extra = [GM(f"device@{start:#x}", np.fromfile(f"{spec.strip()}_{start}.bin", np.uint8)[:size], "inout",
                                address=start) for start, size in others]
                    outs += [(g.name, g.address, 0) for g in extra]
                    if refused is None:
                        launches += 1
                        r = run(kernel, args, block_dim=blocks, gm_extra=extra)
                        printed.append(r.stdout)   # the kernel's printf / DumpTensor lines: the program's output on the NPU
                        errors = [d for d in r.diagnostics if d.is_error]
                        if not r.ok and errors and all(d.kind == "no-output" for d in errors):
                            # every pointer argument is given in/out, but which of them the example's output is, only the
                            # host program knows (what it copies back and checks): a launch that writes no GM (a copy-in
                            # benchmark, a kernel that only prints) goes on, and the verdict below says so
                            unwritten += 1
                        elif not r.ok and (fired := _expected_assert(readme, errors)):
                            # the kernel's own assertion, which the README shows firing (01_utilities/09_log): the host
                            # goes on with the launch's runtime error set, as on the NPU
                            asserted.append(fired)
                            verdict = "assert " + fired
                        elif not r.ok:
                            failed, verdict = r, "fail"
                        else:
                            for pname, alloc, offset in outs:
                                f = Path(f"{spec.strip()}_{alloc}.bin")
                                whole = np.fromfile(f, np.uint8)
                                got = np.asarray(r.outputs[pname]).view(np.uint8).reshape(-1)
                                whole[offset:offset + got.size] = got
                                whole.tofile(f)
                    else:
                        verdict = "fail"
                    while True:   # the host opens the answer pipe right after its request (ENXIO until it has)
                        try:
                            afd = os.open(answer, os.O_WRONLY | os.O_NONBLOCK)
                            break
                        except OSError:
                            if host.poll() is not None or time.monotonic() > deadline: afd = None; break
                            time.sleep(0.02)
                    if afd is None: break
                    os.write(afd, (verdict[:500] + "\n").encode())
                    os.close(afd)
                    if verdict != "ok" and not verdict.startswith("assert "): break
                host.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                host.kill(); host.wait()
                return dict(match="no-reference", match_detail="host program: past the 1800 s limit")
            finally:
                if host.poll() is None: host.kill(); host.wait()
            log.seek(0)
            said_host = log.read().strip()
            log.close()
            kernel_said = "".join(printed)
            if refused: return dict(match="no-reference", match_detail=refused[:300])
            if failed is not None:
                return dict(match="run-error", match_detail=first_run_error([d for d in failed.diagnostics if d.is_error])[:300])
            if asserted:
                if host.returncode == 0:
                    return dict(match="pass", match_detail=f"the kernel's assert({asserted[0]}) fires as the README shows, and "
                                f"the host program goes on ({said_host.splitlines()[-1][:100] if said_host else ''})"[:300])
                return dict(match="mismatch", match_detail=f"the kernel's assert({asserted[0]}) fires as the README shows, but "
                            f"the host program then exits with status {host.returncode}"[:300])
            if not launches: return dict(match="no-reference", match_detail="the host program launched no kernel "
                                         f"(exit status {host.returncode}: {said_host.splitlines()[-1][:120] if said_host else ''})")
            if verify_cmd:
                if host.returncode != 0:
                    return dict(match="mismatch", match_detail=f"host program exit status {host.returncode}: "
                                                               f"{said_host.splitlines()[-1][:160] if said_host else ''}")
                check = subprocess.run([sys.executable, *verify_cmd], cwd=work, capture_output=True, text=True,
                                       timeout=300, env=script_env)
                said = (check.stdout + check.stderr).strip()
                ok = check.returncode == 0 and re.search(r"pass|success", said, re.I) and not re.search(r"\bfail", said, re.I)
                return dict(match="pass" if ok else "mismatch", match_detail=said.splitlines()[-1][:200] if said else "")
            last = said_host.splitlines()[-1][:200] if said_host else ""
            shown = _readme_result(readme)
            if shown and not re.search(r"pass|success|\bfail|error", said_host, re.I):   # the README's printed result
                # each line without the runtime's block label (`[Block (0/6)]: `, `[AIV Block 0/8] `): its wording is the
                # printing runtime's, the rest is the kernel's
                label = lambda l: re.sub(r"^\[[^\]]*\]:?\s*", "", l.strip())
                lines = Counter(label(l) for l in (said_host + "\n" + kernel_said).splitlines() if l.strip())
                missing = Counter(map(label, shown)) - lines
                if host.returncode == 0 and not missing:
                    return dict(match="pass", match_detail=f"the {len(shown)} lines the README shows as its result are printed")
                return dict(match="mismatch", match_detail=f"host program exit status {host.returncode}; of the README's result, "
                            f"not printed: {next(iter(missing), '')!r}"[:300])
            if unwritten == launches:
                # the host's own message (printed whatever the kernel did) cannot vouch for a kernel that wrote nothing:
                # only a verify_result.py or the README's result lines (the kernel's printf) above can
                printed_lines = len([l for l in kernel_said.splitlines() if l.strip()])
                printed = (f"the README shows none of its {printed_lines} printed lines" if printed_lines
                           else "it prints nothing")
                return dict(match="no-reference", match_detail=f"the kernel writes no GM output (every pointer argument "
                            f"holds what it was given) and {printed}; the host's own message is not a check of it "
                            f"({last[:80]!r})"[:300])
            if (verdict := _host_verdict(host.returncode, said_host)) is not None: return verdict
            return dict(match="no-reference", match_detail=f"neither a verify_result.py run nor a check in the host program ({last})")

        got = attempt(0xA5)   # fresh device memory holds no defined value: a poison byte first
        if got["match"] != "mismatch": return got
        # a golden that expects 0 in output bytes the kernel leaves alone (gm_by_pass_dcache writes one int32 of 1024 and
        # copies all back): the same run with the device memory 0 is checked, and a pass says so
        again = attempt(0)
        if again["match"] == "pass":
            again["match_detail"] += (" (with the device memory the kernel does not write as 0, as the example's golden "
                                      "assumes of fresh device memory)")
            return again
        return got
