"""AscendCraft's torch_npu stand-in, emulation side: the build of a PyTorch extension that launches AscendC kernels,
and the run of each of its launches on the CPU emulator. NOT torch_npu (see README.md beside this package).

The build (`build_extension`, or `python -m torch_npu._ascendcraft_build build SOURCE_DIR` in an example's build folder,
reading its CMakeLists.txt's pybind11_add_module / add_library targets) compiles the extension's own files as
torch.utils.cpp_extension would (g++, the venv's torch headers and libraries, C++20, -fPIC, -shared), with the
emulation's headers (kernel_operator.h, acl/acl.h, torch_npu/csrc/core/npu/NPUStream.h) and the launch glue
(asc_host_launch.h): each `kernel<<<blocks, l2ctrl, stream>>>(args)` statement becomes a call into the glue, and each
kernel's definition a declaration (the host side holds no device code, as with CANN's compiler). Each kernel the
extension launches is built for the emulator at the same time (its device part: the file up to its last kernel, the
framework includes left out), so that a kernel that does not compile stops the build, as it would with CANN.

A launch (`launch`, called by the glue inside the script's process) runs the kernel on the emulator with each pointer
argument as the whole npu allocation it points into, at its own address (the emulated ACL's, _backend.cpp), and every
other live allocation beside it; the kernel's GM reads and writes are checked against those extents (bounds, races,
poison), and a run that stops or writes no GM byte fails the launch: the script sees a RuntimeError naming the error.
Written for AscendCraft; no torch_npu or CANN code.
"""
import argparse
import atexit
import fcntl
import functools
import hashlib
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BACKEND_SOURCE = HERE / "_backend.cpp"

# Includes of the framework side, left out of a kernel's device part.
FRAMEWORK_INCLUDES = ("torch/", "torch_npu/", "pybind11/", "ATen/", "c10/", "Python.h", "graph/", "acl/")
KERNEL_RE = re.compile(r"\b__global__\b[^;{]*?\([^;{]*?\)[^;{(]*(\{|;)")


class BuildError(RuntimeError):
    "An extension (or the stand-in's npu device) that does not build here: the compiler's first error, or the reason."


# ---- compiler flags, as torch.utils.cpp_extension gives them ------------------------------------------------------
def _settings():
    from ascendcraft.config import load_settings
    return load_settings()


def compile_flags() -> list[str]:
    "g++ flags of a translation unit of an extension (or of the npu device): torch's headers, then the emulation's."
    import torch
    import torch.utils.cpp_extension as ext
    from ascendcraft.emu import INCLUDE_DIR
    return ["-std=c++20", "-fPIC", "-O1", "-g0", "-pthread", "-fno-diagnostics-color",
            f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}",
            *(f"-I{p}" for p in ext.include_paths()), f"-I{sysconfig.get_paths()['include']}", f"-I{INCLUDE_DIR}"]


def link_flags() -> list[str]:
    import torch.utils.cpp_extension as ext
    lib = ext.library_paths()[0]
    return ["-shared", f"-L{lib}", "-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python", f"-Wl,-rpath,{lib}"]


def _first_error(log: str) -> str:
    return next((l for l in log.splitlines() if "error" in l), log.strip()[-300:])


def _cache_folder(what: str, key_parts: list[str]) -> Path:
    key = hashlib.sha256("\n".join(key_parts).encode()).hexdigest()[:16]
    return Path(_settings().cache_path) / "torch_npu_standin" / f"{what}-{key}"


# ---- the npu device (_backend.cpp), built once per machine, torch and compiler -------------------------------------
def backend_library() -> Path:
    "The stand-in's npu device library (cached): built on first use, about 40 s."
    import torch
    from ascendcraft.emu import INCLUDE_DIR
    settings = _settings()
    version = subprocess.run([settings.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    flags = compile_flags()
    folder = _cache_folder("backend", [BACKEND_SOURCE.read_text(), (INCLUDE_DIR / "acl" / "acl.h").read_text(),
                                       torch.__version__, *version, *flags])
    lib = folder / "libtorch_npu_standin.so"
    if lib.exists(): return lib
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if lib.exists(): return lib
        print("ascendcraft torch_npu stand-in: building the npu device (once per machine and torch version, about 40 s)",
              file=sys.stderr)
        tmp = folder / "partial.so"
        made = subprocess.run([settings.cxx, *flags, str(BACKEND_SOURCE), *link_flags(), "-o", str(tmp)],
                              capture_output=True, text=True)
        if made.returncode != 0:
            raise BuildError(f"the stand-in's npu device does not build: {_first_error(made.stderr)}")
        tmp.rename(lib)
    return lib


# ---- an extension's sources: the host side and the device part ------------------------------------------------------
def _blank_comments_and_strings(text: str) -> str:
    "`text` with comments and string literals as spaces (same length and lines): for finding code."
    return re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])'",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def _kernel_spans(code: str) -> list[tuple[int, int, int]]:
    "Each kernel in `code` (comments blanked): (start, where its body starts or -1 for a declaration, end)."
    spans = []
    for m in KERNEL_RE.finditer(code):
        if m.group(1) == ";":
            spans.append((m.start(), -1, m.end()))
            continue
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        spans.append((m.start(), m.end() - 1, i))
    return spans


def host_source(text: str) -> tuple[str, list[str]]:
    """A source of the extension as its host side is compiled: each launch statement a call into the launch glue
    (`ascendcraft_host::launch("kernel", blocks, args...)`), each kernel definition a declaration. Line numbers are kept.
    Also the kernels it launches, as the glue names them."""
    code = _blank_comments_and_strings(text)
    for start, body, end in reversed(_kernel_spans(code)):
        if body >= 0: text = text[:body] + ";" + re.sub(r"[^\n]", "", text[body:end]) + text[end:]
    from ascendcraft.emu import host_launch_calls
    launched = []
    return host_launch_calls(text, launched), launched


def kernel_source(text: str) -> str | None:
    """The device part of a source of the extension, as the emulator builds it: the text up to the end of its last
    kernel (definition or declaration), the framework's includes left out and the namespaces open there closed. None
    when it holds no kernel. Line numbers are kept."""
    code = _blank_comments_and_strings(text)
    spans = _kernel_spans(code)
    if not spans: return None
    cut = max(end for _, _, end in spans)
    line_end = text.find("\n", cut)
    line_end = len(text) if line_end < 0 else line_end
    head, tail = text[:line_end], text[line_end:]
    head = re.sub(r'(?m)^[ \t]*#\s*include\s*[<"]([^>"]+)[>"][^\n]*',
                  lambda m: "" if m.group(1).startswith(FRAMEWORK_INCLUDES) else m.group(0), head)
    still_open = code[:cut].count("{") - code[:cut].count("}")
    # a kernel inside a namespace, named at global scope too: the emulator's driver calls the entry by its own name
    visible = []
    for start, _, _ in spans:
        scope = _namespaces_at(code, start)
        name = re.search(r"(\w+)\s*\(", code[start:]).group(1)
        if scope and f"using {'::'.join(scope)}::{name};" not in visible: visible.append(f"using {'::'.join(scope)}::{name};")
    return head + " }" * max(still_open, 0) + "".join(" " + v for v in visible) + re.sub(r"[^\n]", "", tail)


def _split_args(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "<([{"
        depth -= c in ">)]}"
        if c == "," and depth == 0:
            out.append(text[start:i]); start = i + 1
    return [a.strip() for a in out + [text[start:]] if a.strip()]


def _namespaces_at(code: str, pos: int) -> list[str]:
    "The named namespaces open at `pos` of `code` (comments blanked), outermost first."
    stack = []
    for m in re.finditer(r"\bnamespace\s+([\w:]+)\s*\{|\{|\}", code[:pos]):
        if m.group(0) == "}":
            if stack: stack.pop()
        else:
            stack.append(m.group(1))   # None for a brace that opens no named namespace
    return [n for n in stack if n]


def kernel_entry(name: str, host_code: str) -> str:
    """The emulator's entry for a launched kernel: its name without namespaces (the emulator finds a kernel by its own
    name; kernel_source makes a namespace's kernels visible at global scope), and its template arguments as the host
    code gives them, an alias (`using DataType = half;`) or an integer constant (`constexpr uint32_t N = 8;`) of the
    host code replaced by what it names, since the kernel is instantiated outside the host function."""
    m = re.fullmatch(r"((?:\w+::)*\w+)\s*(?:<(.*)>)?", name, re.S)
    if not m: return name
    base = m.group(1).split("::")[-1]
    if m.group(2) is None: return base
    code = _blank_comments_and_strings(host_code)
    aliases = dict(re.findall(r"\busing\s+(\w+)\s*=\s*([\w:]+)\s*;", code))
    consts = dict(re.findall(r"\bconstexpr\s+(?:const\s+)?[\w:]+\s+(\w+)\s*=\s*(-?\d+)[uUlL]*\s*;", code))
    args = [aliases.get(a, consts.get(a, a)) for a in _split_args(m.group(2))]
    return f"{base}<{', '.join(args)}>"


# ---- the build -------------------------------------------------------------------------------------------------------
def _kernel_settings(defines: list[str]):
    settings = _settings()
    return settings.replace(cxxflags=" ".join([settings.cxxflags, *defines])) if defines else settings


def build_extension(sources: list, name: str, out_dir, kind: str = "pybind", include_dirs: list | None = None,
                    defines: list[str] | None = None) -> Path:
    """Build a PyTorch extension from its own sources (.asc / .cpp: kernels, host code, bindings) into out_dir, for the
    emulator: `kind` "pybind" gives the module pybind11_add_module makes (NAME + the interpreter's extension suffix:
    `import NAME`), "library" the shared library of add_library (libNAME.so: `torch.ops.load_library`). Every kernel
    the host code launches is built for the emulator too; either build's first error raises BuildError."""
    from ascendcraft.emu import build
    if kind not in ("pybind", "library"): raise ValueError(f"kind must be 'pybind' or 'library', not {kind!r}")
    sources = [Path(s).resolve() for s in sources]
    out_dir = Path(out_dir).resolve()
    work = out_dir / f".ascendcraft-{name}"
    work.mkdir(parents=True, exist_ok=True)
    defines = list(defines or [])
    target = out_dir / (f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}" if kind == "pybind" else f"lib{name}.so")
    manifest = work / "manifest.json"
    # the device side: every kernel of the sources, beside the headers of their folders
    texts = {s.name: s.read_text(errors="replace") for s in sources}
    device = {n: k for n, t in texts.items() if (k := kernel_source(t)) is not None}
    for folder in {s.parent for s in sources} | {Path(d).resolve() for d in include_dirs or []}:
        for h in sorted(folder.glob("*.h")) + sorted(folder.glob("*.hpp")): device.setdefault(h.name, h.read_text(errors="replace"))
    entries, objects = {}, []
    for s in sources:
        host, launched = host_source(texts[s.name])
        for launch in launched: entries[launch] = kernel_entry(launch, texts[s.name])
        (work / f"{s.name}.cpp").write_text(host)
    for entry in sorted(set(entries.values())):
        kb = build(device, entry, settings=_kernel_settings(defines))
        if not kb.ok:
            first = kb.errors[0] if kb.errors else None
            where = f"{first.file}:{first.line}: " if first is not None and getattr(first, "line", None) else ""
            raise BuildError(f"kernel '{entry}' does not build for the emulator: "
                             f"{where}{first.message if first is not None else _first_error(kb.log)}")
    manifest.write_text(json.dumps(dict(name=name, device_sources=device, entries=entries, defines=defines), indent=1))
    settings = _settings()
    flags = [*compile_flags(), *(f"-I{Path(d).resolve()}" for d in include_dirs or []), *(f"-I{f}" for f in {s.parent for s in sources}),
             f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H", "-DASCENDCRAFT_HOST_PYTHON", *defines]
    for s in sources: objects.append(str(_host_object(work / f"{s.name}.cpp", flags)))
    # where this extension's manifest is: a function of its own (the glue asks it at each launch), so that the host
    # objects do not depend on the build folder
    (work / "manifest_path.cpp").write_text(f'extern "C" const char* ascendcraft_extension_manifest() {{ return {json.dumps(str(manifest))}; }}\n')
    made = subprocess.run([settings.cxx, "-fPIC", "-c", str(work / "manifest_path.cpp"), "-o", str(work / "manifest_path.o")],
                          capture_output=True, text=True)
    if made.returncode != 0: raise BuildError(f"manifest_path.cpp: {_first_error(made.stderr)}")
    objects.append(str(work / "manifest_path.o"))
    made = subprocess.run([settings.cxx, *objects, *link_flags(), "-o", str(target)], capture_output=True, text=True)
    if made.returncode != 0: raise BuildError(f"link: {_first_error(made.stderr)}")
    undefined = subprocess.run(["nm", "-uC", str(target)], capture_output=True, text=True).stdout
    device_calls = sorted({l.split("U ", 1)[-1] for l in undefined.splitlines() if "ascendcraft::emu::" in l})
    if device_calls:
        target.unlink()
        raise BuildError(f"the host code of {name} calls device code outside a kernel (the emulator runs kernels only "
                         f"in its own process): {device_calls[0]}")
    return target


# ---- torch/extension.h, precompiled: most of a host source's compile time ----------------------------------------------
TORCH_EXTENSION_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]torch/extension\.h[>"]', re.M)
PCH_HEADER = "torch_extension_pch.h"


def torch_header_pch() -> Path | None:
    """torch/extension.h precompiled (g++'s .gch beside a header that includes it; None when it does not build), for
    the host sources that include it: built once per torch version, compiler and flags (torch's headers alone, so a
    changed emulation runtime keeps it). A translation unit with torch/extension.h took g++ 33.8 CPU-s, 10.3 with it;
    making it takes about 57 CPU-s and 790 MB (round 39, load 9 on 2 cores)."""
    import torch
    settings = _settings()
    version = subprocess.run([settings.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    flags = [*compile_flags(), "-DTORCH_API_INCLUDE_EXTENSION_H", "-DASCENDCRAFT_HOST_PYTHON"]
    folder = _cache_folder("torch-pch", [torch.__version__, *version, settings.cxx, *flags])
    header, gch = folder / PCH_HEADER, folder / (PCH_HEADER + ".gch")
    if gch.exists(): return header
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if gch.exists(): return header
        header.write_text("#include <torch/extension.h>\n")
        print("ascendcraft torch_npu stand-in: precompiling torch/extension.h (once per machine and torch version, "
              "about a minute)", file=sys.stderr)
        tmp = folder / "partial.gch"
        made = subprocess.run([settings.cxx, *flags, "-x", "c++-header", str(header), "-o", str(tmp)],
                              capture_output=True, text=True)
        if made.returncode != 0:          # the sources still build, each with torch's headers parsed again
            tmp.unlink(missing_ok=True)
            print(f"ascendcraft torch_npu stand-in: torch/extension.h does not precompile: {_first_error(made.stderr)}",
                  file=sys.stderr)
            return None
        tmp.rename(gch)
    return header


def _host_object(source: Path, flags: list[str]) -> Path:
    """The object of one host source, cached by its text, the flags, torch's version and the emulation's headers (a
    translation unit with torch/extension.h takes g++ about 20 CPU-seconds; two extensions of one kernel file share it).
    A source that includes torch/extension.h gets it precompiled, first (`torch_header_pch`): the same headers, parsed
    once per machine."""
    import torch
    from ascendcraft.emu import INCLUDE_DIR, runtime_hash
    settings = _settings()
    text = source.read_text()
    folder = _cache_folder("host", [text, *flags, torch.__version__, runtime_hash(), settings.cxx])
    obj = folder / "host.o"
    if obj.exists(): return obj
    pch = torch_header_pch() if TORCH_EXTENSION_INCLUDE.search(text) else None
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkstemp(suffix=".o", dir=folder)[1])
    made = subprocess.run([settings.cxx, *flags, *(["-include", str(pch)] if pch else []),
                           "-include", str(INCLUDE_DIR / "asc_host_launch.h"), "-c", str(source),
                           "-o", str(tmp)], capture_output=True, text=True, cwd=source.parent)
    if made.returncode != 0:
        tmp.unlink()
        raise BuildError(f"{source.name.removesuffix('.cpp')}: {_first_error(made.stderr).replace(str(source.parent) + '/', '')}")
    tmp.rename(obj)
    return obj


def cmake_targets(source_dir) -> list[dict]:
    """The extension targets of an example's CMakeLists.txt: pybind11_add_module(NAME ...) and add_library(NAME SHARED
    ...), each with its sources (the files of the folder it names) and the include folders of its
    target_include_directories that lie in the example (${CMAKE_SOURCE_DIR}, ${CMAKE_CURRENT_SOURCE_DIR}, relative)."""
    source_dir = Path(source_dir).resolve()
    text = re.sub(r"#[^\n]*", "", (source_dir / "CMakeLists.txt").read_text(errors="replace"))
    targets = []
    for m in re.finditer(r"\b(pybind11_add_module|add_library)\s*\(([^)]*)\)", text):
        words = m.group(2).split()
        if m.group(1) == "add_library" and not {"SHARED", "MODULE"} & set(words): continue
        files = [source_dir / w for w in words[1:] if w.endswith((".asc", ".cpp", ".cc", ".cxx"))]
        includes = []
        for inc in re.findall(rf"\btarget_include_directories\s*\(\s*{re.escape(words[0])}\b([^)]*)\)", text):
            for w in inc.split():
                w = w.replace("${CMAKE_SOURCE_DIR}", str(source_dir)).replace("${CMAKE_CURRENT_SOURCE_DIR}", str(source_dir))
                if "$" in w or w in ("PRIVATE", "PUBLIC", "INTERFACE"): continue
                path = Path(w) if Path(w).is_absolute() else source_dir / w
                if path.is_dir() and source_dir in (path.resolve(), *path.resolve().parents): includes.append(path)
        targets.append(dict(name=words[0], kind="pybind" if m.group(1) == "pybind11_add_module" else "library",
                            sources=files, include_dirs=includes))
    return targets


def build_cmake_project(source_dir, build_dir) -> list[Path]:
    "Each extension target of source_dir's CMakeLists.txt built into build_dir (as `cmake SOURCE_DIR && make` would)."
    targets = cmake_targets(source_dir)
    if not targets: raise BuildError(f"{source_dir}/CMakeLists.txt names no pybind11_add_module or shared add_library")
    return [build_extension(t["sources"], t["name"], build_dir, t["kind"], t["include_dirs"]) for t in targets]


# ---- a launch, inside the script's process (asc_host_launch.h's ask_python) -----------------------------------------
@functools.lru_cache(maxsize=None)
def launch_folder() -> str:
    "Where this process's launches leave their spec and buffer files (removed at exit)."
    folder = tempfile.mkdtemp(prefix="ascendcraft-torch-launch-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _scalar(kind: str, size: int, raw: bytes):
    import numpy as np
    if kind == "f": return float(np.frombuffer(raw, {2: np.float16, 4: np.float32, 8: np.float64}[size])[0])
    return int.from_bytes(raw, "little", signed=kind == "i")


def _run_error(run) -> str:
    errors = [d for d in run.diagnostics if d.is_error]
    if not errors: return "the run failed"
    e = errors[0]
    where = f" at {Path(e.file).name}:{e.line}" if getattr(e, "line", None) else ""
    return f"{e.kind}{where}: {e.message}"


def launch(spec: str, manifest: str) -> str:
    """Run one launch of the extension on the emulator (the glue's spec file `spec`.txt, each allocation's bytes in
    `spec`_START.bin, which the glue reads back after "ok"): "ok", or "fail <why>" (the glue raises it)."""
    try:
        return _launch(spec, json.loads(Path(manifest).read_text()))
    except Exception as e:  # noqa: BLE001 - whatever stopped the launch is the script's error, named
        return f"fail torch_npu stand-in: {type(e).__name__}: {e}"


def _launch(spec: str, manifest: dict) -> str:
    import numpy as np
    from ascendcraft.emu import GM, build, run
    lines = Path(spec + ".txt").read_text().splitlines()
    others = [tuple(int(x) for x in l.split()[1:]) for l in lines[2:] if l.startswith("d ")]
    lines = [l for l in lines if not l.startswith("d ")]
    name, blocks = lines[0], int(lines[1])
    entry = manifest["entries"].get(name)
    if entry is None: return f"fail the extension launches '{name}', which its build did not see launched"
    kernel = build(manifest["device_sources"], entry, settings=_kernel_settings(manifest["defines"]))
    if not kernel.ok: return f"fail kernel '{entry}' does not build for the emulator: {_first_error(kernel.log)}"
    if len(kernel.params) != len(lines) - 2:
        return f"fail the launch of '{entry}' has {len(lines) - 2} arguments, the kernel {len(kernel.params)}"
    args, outs, seen = [], [], set()
    for param, line in zip(kernel.params, lines[2:]):
        kind, *rest = line.split()
        if kind == "b":
            alloc, offset, size = (int(x) for x in rest)
            if alloc in seen:
                return (f"fail two arguments of '{entry}' point into one npu allocation ({param.name} is one): the emulator "
                        "gives each pointer argument an allocation of its own")
            seen.add(alloc)
            args.append(GM(param.name, np.fromfile(f"{spec}_{alloc}.bin", np.uint8)[:size], "inout", address=alloc,
                           offset=offset))
            outs.append((param.name, alloc))
        elif kind == "n":
            args.append(GM(param.name, np.zeros(0, np.uint8), "in"))
        elif kind == "h":
            return (f"fail argument '{param.name}' of '{entry}' points into no npu allocation (a CPU tensor's data? the "
                    "kernel reads and writes device memory: give the extension tensors moved with .npu())")
        else:
            tkind, tsize, raw = rest[0], int(rest[1]), bytes.fromhex(rest[2]) if len(rest) > 2 else b""
            args.append(raw if param.kind == "value" or tkind == "o" else _scalar(tkind, tsize, raw))
    extra = [GM(f"device@{start:#x}", np.fromfile(f"{spec}_{start}.bin", np.uint8)[:size], "inout", address=start)
             for start, size in others]
    outs += [(g.name, g.address) for g in extra]
    r = run(kernel, args, block_dim=blocks, gm_extra=extra)
    if r.stdout: print(r.stdout, end="" if r.stdout.endswith("\n") else "\n", flush=True)   # the kernel's printf
    if not r.ok:
        if all(d.kind == "no-output" for d in r.errors):
            return (f"fail the kernel '{entry}' wrote no GM byte on the emulator (no-output): no output of the launch "
                    "holds a result")
        return f"fail the kernel '{entry}' stopped on the emulator: {_run_error(r)}"
    for pname, alloc in outs:
        path = Path(f"{spec}_{alloc}.bin")
        whole = np.fromfile(path, np.uint8)
        got = np.asarray(r.outputs[pname]).view(np.uint8).reshape(-1)
        whole[:got.size] = got
        whole.tofile(path)
    print(f"ascendcraft: {entry}<<<{blocks}>>> ran on the emulator ({r.seconds:.2f} s)", file=sys.stderr, flush=True)
    return "ok"


# ---- command line ------------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torch_npu._ascendcraft_build",
                                     description="Build a PyTorch extension of AscendC kernels for AscendCraft's emulator "
                                                 "(with the torch_npu stand-in).")
    sub = parser.add_subparsers(dest="command", required=True)
    cm = sub.add_parser("build", help="build the targets of SOURCE_DIR/CMakeLists.txt into the current folder "
                                      "(as `cmake SOURCE_DIR; make` in a build folder)")
    cm.add_argument("source_dir")
    ext = sub.add_parser("build-ext", help="build one extension from its sources")
    ext.add_argument("sources", nargs="+")
    ext.add_argument("--name", required=True)
    ext.add_argument("--library", action="store_true", help="libNAME.so for torch.ops.load_library (else a pybind11 module)")
    ext.add_argument("-I", dest="include_dirs", action="append", default=[])
    ext.add_argument("-D", dest="defines", action="append", default=[])
    ext.add_argument("-o", dest="out_dir", default=".")
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            built = build_cmake_project(args.source_dir, Path.cwd())
        else:
            built = [build_extension(args.sources, args.name, args.out_dir, "library" if args.library else "pybind",
                                     args.include_dirs, [f"-D{d}" for d in args.defines])]
    except BuildError as e:
        print(f"build failed: {e}", file=sys.stderr)
        return 1
    for b in built: print(f"built {b}")
    return 0

