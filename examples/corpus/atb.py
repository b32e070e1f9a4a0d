"""hicann/ascend-transformer-boost (ATB, CANN's transformer acceleration library): the collector of its AscendC kernels
for the corpus (corpus.py's `collect`, kind kernel-file) and the third-party headers some of them include.

ATB builds its device kernels with Mind-KernelInfra's `add_kernel(<name> <soc> <core type> <source> <KernelClass>
[INCLUDE_DIRECTORIES ...])`, one call per SoC, in the CMakeLists.txt of each op folder under src/kernels/kernels/ (the
"AsdOps" operators: norms, activations, elementwise, matmul) and src/kernels/mixkernels/ (the "AtbOps" fused ones:
flash / paged attention, MLA, FFN, reshape_and_cache ...). A source is taken when some call builds it for ascend910b
(A2); one built only for ascend310p / ascend310b / ascend910 is another chip's (its `_310p` file or its NZ-layout
pipeline) and left out. The kernel is the `__global__` function the call names (`<name>`; a file with two of that name
defines one per `#if __CCE_AICORE__` branch). Every kernel reads its tiling from a GM pointer argument, field by field
at byte offsets (`*(const __gm__ uint32_t *)(p_tilingdata + 4)`) or through a struct cast, so the kernel file alone is
what the build needs: the headers it reaches come from the include folders ATB's build sets (the repository's
src/kernels for `#include "kernels/utils/kernel/kernel_utils.h"`, src/kernels/include, and the call's own
INCLUDE_DIRECTORIES). src/kernels/lcal (communication kernels over HCCL, its own ccec build) is not an add_kernel
source and is not collected.

A call's `${OPS_THIRD_PARTY_DIR}/catlass/include` is catlass (gitcode cann/catlass, hicann/catlass here) at the tag
scripts/build.sh clones (fn_build_catlass, `ref=v1.4.0`): its headers come from that repository at that tag
(`--git hicann/catlass=<git dir>`), resolved to a commit when the entry is built (third_party_headers)."""
import posixpath
import re
import subprocess
from pathlib import Path

REPO = "hicann/ascend-transformer-boost"
KERNEL_TREES = ("src/kernels/kernels/", "src/kernels/mixkernels/")   # the op folders whose CMakeLists.txt call add_kernel
A2_SOC = "ascend910b"
# the folders ATB's build puts on every kernel's include path (CMakeLists.txt's include_directories: src/kernels/include;
# src/kernels/CMakeLists.txt's OPS_PROJECT_ROOT_DIR, which is src/kernels), as repository paths
INCLUDE_ROOTS = ("src/kernels", "src/kernels/include")
CMAKE_PATHS = {"OPS_PROJECT_ROOT_DIR": "src/kernels", "CMAKE_CURRENT_LIST_DIR": None}   # None: the CMakeLists.txt's folder
# a third-party folder an add_kernel call names -> (the repository it is cloned from, as mirrored here; the ref
# scripts/build.sh clones; the folder of that repository it stands for)
THIRD_PARTY = {"${OPS_THIRD_PARTY_DIR}/catlass/include": ("hicann/catlass", "v1.4.0", "include")}
# add_kernel's core type -> the kernel type of the binary: a "cube" or "vector" source is compiled for that core alone
# (Mind-KernelInfra passes the device compiler the core's arch, dav-c220-cube / dav-c220-vec), whatever the headers it
# includes hold for the other core; a "mix" one is compiled for both and its type is the code's (None: inferred)
KERNEL_TYPES = {"cube": "KERNEL_TYPE_AIC_ONLY", "vector": "KERNEL_TYPE_AIV_ONLY", "mix": None}


def add_kernel_calls(cmake: str) -> list[dict]:
    """The add_kernel(...) calls of a CMakeLists.txt: {"name", "soc", "core", "source", "include"} (`include` as
    written, after INCLUDE_DIRECTORIES). Comments are dropped first."""
    code = re.sub(r"#[^\n]*", "", cmake)
    out = []
    for m in re.finditer(r"\badd_kernel\s*\(([^()]*)\)", code):
        args = m.group(1).split()
        if len(args) < 5:
            raise ValueError(f"add_kernel({' '.join(args)}): expected <name> <soc> <core type> <source> <class>")
        include = args[args.index("INCLUDE_DIRECTORIES") + 1:] if "INCLUDE_DIRECTORIES" in args else []
        out.append({"name": args[0], "soc": args[1], "core": args[2], "source": args[3], "include": include})
    return out


def kernel_type(entry: dict) -> str | None:
    "The kernel type an entry's add_kernel core type gives its build (emu.build's `kernel_type`; None: the code's own)."
    if entry.get("core") not in KERNEL_TYPES:
        raise ValueError(f"{entry['path']}: add_kernel core type {entry.get('core')!r}, expected one of {sorted(KERNEL_TYPES)}")
    return KERNEL_TYPES[entry["core"]]


def include_folder(written: str, folder: str) -> str | None:
    """An add_kernel INCLUDE_DIRECTORIES folder as a repository path (None where it is outside the repository: a
    THIRD_PARTY one, kept as written in the entry's `third_party`)."""
    if written in THIRD_PARTY: return None
    def var(m):
        v = m.group(1)
        if v not in CMAKE_PATHS: raise ValueError(f"add_kernel INCLUDE_DIRECTORIES {written}: unknown ${{{v}}}")
        return CMAKE_PATHS[v] or folder
    return posixpath.normpath(re.sub(r"\$\{(\w+)\}", var, written))


def atb_entries(show, commit: str, files: list[str], entry) -> list[dict]:
    """The A2 kernels of ATB (kind kernel-file): one entry per source some add_kernel call builds for ascend910b,
    with `kernel` (the call's name, its `__global__` function), `core` (vector / cube / mix, as the call says),
    `include` (INCLUDE_ROOTS and the call's own folders in the repository) and `third_party` (THIRD_PARTY folders)."""
    out = {}
    for cm in sorted(f for f in files if f.startswith(KERNEL_TREES) and f.endswith("/CMakeLists.txt")):
        folder = posixpath.dirname(cm)
        for call in add_kernel_calls(show(commit, cm).decode(errors="replace")):
            if call["soc"] != A2_SOC: continue
            path = posixpath.normpath(posixpath.join(folder, call["source"]))
            if path not in files: raise ValueError(f"{cm}: add_kernel({call['name']}) names {call['source']}, not in the tree")
            if path in out: continue
            own = [f for f in (include_folder(i, folder) for i in call["include"]) if f]
            e = dict(entry(path, "kernel-file"), kernel=call["name"], core=call["core"], include=[*INCLUDE_ROOTS, *own])
            third = [i for i in call["include"] if i in THIRD_PARTY]
            if third: e["third_party"] = third
            out[path] = e
    return list(out.values())


def third_party_headers(entry: dict, gitdirs: dict[str, str], dest: Path) -> None:
    """The headers of the entry's THIRD_PARTY folders that the files in dest include, directly or through each other,
    from that repository's git dir (`run --git`) at the ref ATB's build clones: written to `<repo name>_<folder>/` in
    dest (an include folder of the emulator's build), at their paths under the folder. A missing git dir is an error
    that names the --git to give."""
    include = re.compile(rb'#\s*include\s*[<"]([^>"]+)[>"]')
    own = [p.read_bytes() for p in dest.rglob("*") if p.is_file()]
    for written in entry.get("third_party", ()):
        repo, ref, root = THIRD_PARTY[written]
        if repo not in gitdirs:
            raise RuntimeError(f"{entry['path']} includes {written} ({repo} at {ref}, as ATB's scripts/build.sh clones it): "
                               f"give its repository too, --git {repo}=<git dir>")
        git = lambda *a: subprocess.run(["git", "--git-dir", gitdirs[repo], *a], capture_output=True, check=True).stdout
        commit = git("rev-parse", f"{ref}^{{commit}}").decode().strip()
        tree = set(git("ls-tree", "-r", "--name-only", commit, "--", root + "/").decode().splitlines())
        into = dest / f"{repo.split('/')[1]}_{root.replace('/', '_')}"
        found, todo = set(), [(None, t) for t in own]
        while todo:
            at, text = todo.pop()
            for name in include.findall(text):
                name = name.decode(errors="replace")
                cands = ([posixpath.normpath(posixpath.join(posixpath.dirname(at), name))] if at else []) + [f"{root}/{name}"]
                f = next((c for c in cands if c in tree), None)
                if f is None or f in found: continue
                found.add(f)
                text = git("show", f"{commit}:{f}")
                (into / f[len(root) + 1:]).parent.mkdir(parents=True, exist_ok=True)
                (into / f[len(root) + 1:]).write_bytes(text)
                todo.append((f, text))
        if found: (into / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")
