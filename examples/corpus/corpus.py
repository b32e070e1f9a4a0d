"""Conformance corpus: public AscendC kernels, stored as a manifest (repository, commit, path), never as copies.

    # 1. bring a repository onto the machine (the search tool's fetch, or git clone), then list its kernels:
    python examples/corpus/corpus.py collect weich97/NPUKernelBench /path/to/its/git/dir
    # 2. compile (and link) every kernel of the manifest on the emulator, run and match where a reference can be
    #    derived; a table by source, and the failure reasons:
    python examples/corpus/corpus.py run --git weich97/NPUKernelBench=/path/to/its/git/dir [--git ...] [--jobs 2] \
        [--limit N] [--source TEXT] [--match]

Sources (kinds):
- weich97/NPUKernelBench `tasks/level*/**/answer/0/` (op-project): the golden answers of NPUKernelBench, msopgen-style
  op projects (op_host/ + op_kernel/) that pass on real Ascend hardware. Each is tried two ways: the kernel alone
  (op_kernel with the op's tiling header, the DTYPE_<NAME> macros of the first dtype column) and the whole project
  (op_host's TilingFunc compiled against the emulated gert::TilingContext; ascendcraft.opproject). With --match, the
  project runs on the smallest of the task's own test cases (validation/test_cases.csv, prepare_inputs.py) and is
  compared with the task's PyTorch Model (validation/module.py) under NPUKernelBench's precision rule
  (|got - want| <= rtol * max(1, |want|), rtol 1/512 half, 1/256 bfloat16, 1/2048 float).
- wzzll123/MultiKernelBench `prompts/ascendc_new_model_*.py` (mkb-prompt): the AscendC examples of MultiKernelBench's
  prompts; the op project is rebuilt from the file's project_json_src / host_tiling_src / host_operator_src /
  kernel_src strings.
- Ascend/samples `.../kernel_invocation/<Op>/` (kernel-dir): official direct-invocation samples; the kernel file(s)
  without the host main.
- cannmirror/asc-devkit `examples/01_simd_cpp_api/**/*.asc` (asc-file): the official examples of the open-source AscendC
  devkit, single-source files (kernels, then a host main that launches them with <<<...>>> through ACL); the kernels
  are compiled alone: the host part (from the first main() on) and the host-only includes are left out
  (asc_kernel_source). Their CI builds and runs them on hardware, so they are known-good kernels of the newest style.
  The other .asc files of the example's CMake target come along (a kernel split over two files). With --match, the
  example runs as its README does: its README's `../scripts/gen_data.py`, then its own host program (the .asc files
  compiled whole against the emulated ACL, tiling API and platform, each `<<<>>>` launch running the kernel on the
  emulator through asc_host_launch.h: match_asc_host), then its README's `../scripts/verify_result.py`, or else the host
  program's own check. Where the host program does not compile here, the host code is read instead (match_asc: the
  launch's arguments must all be files the host code reads or writes).
- Hayden727/cann-ops `src/**/op_kernel/..` (op-project): Huawei's open operator repository (cann-ops), kernel alone.
  Its ops include the repository's shared headers (src/common/inc, src/common/op_host/op_tiling), which the
  repository's own build puts on the include path; they are added to each op's folder (the shared tiling-struct
  headers only where the op registers or names them). Ops whose OpDef is made by a macro (FOREACH_OPDEF) have no
  definition to read: their kernel is compiled alone without DTYPE_<NAME> macros.
  `--kernel-only` skips the whole-project build (faster; the project column then reads "–").
- hicann/ops-math, ops-nn, ops-transformer, ops-cv (op-project): CANN's newer open operator repositories, the ops whose
  OpDef builds them for A2 (`AddConfig("ascend910b")`, hicann_entries).
- hicann/ops-blas `blas/<op>/arch22/*_kernel.cpp` (blas-file): the A2 generation of its BLAS routines (arch22 is what its
  build compiles for ascend910b*; arch35 is Ascend 950), ASC sources with a `*_do` launcher; the kernel with the headers
  it reaches (materialise_blas), and, unless --kernel-only, the routine's host tiling <name>_host.cpp compiled alone
  (-fsyntax-only) against the emulated ACL: `host_ok` / `host_error` in the results (blas_host_check; not a column).
- hicann/catlass `examples/NN_name/<file>.cpp` (catlass-example): Huawei's template library of cube kernels on the
  low-level API (GM -> L1 with ND -> Nz, LoadData to L0A/L0B, Mmad, Fixpipe, cross-core flags). The examples its
  examples/CMakeLists.txt builds for A2 (EXAMPLE_ATLASA2, CATLASS_ARCH=2201), each compiled with the include closure
  of the repository's include/ and examples/common/ at the pinned commit (catlass_materialise). Most launch their
  kernel from host code through a device adapter (`DeviceGemm<Kernel>`, the kernel type an alias local to the host
  function): every `<<<>>>` launch becomes a call that is never taken, which instantiates (and so compiles) the kernel
  for the host's types, and the build's entry is a generated empty one; an example that launches its own `__global__`
  kernel from main has that kernel as the entry, and each other kernel it launches is built too (catlass_launched).
  With --match, a GEMM example whose host code makes `Kernel::Arguments{options.problemShape, [values,] deviceA,
  deviceB, deviceC}` and checks against `golden::ComputeMatmul` (or its ReLU / GELU / SiLU forms) runs on its README's
  shape through an entry that does on the device what its DeviceGemm does (match_catlass); the others are read from
  their host function (catlass_host_run: the device buffers of the kernel's arguments, the host vectors copied into
  them and how the host fills them or the files its README's data script writes, the workspace GetWorkspaceSize
  gives, the golden call among CATLASS_GOLDEN_ARGS or the golden file); the branch the host takes for the shape is
  the one run, and each is compared under catlass's own CompareData / CompareDataBfloat16 rule. The build and both runs are in
  catlass.py beside this file.
- wangdengkai/AscendOpGenAgent `archive_tasks/<task>/` (opgen-task): an LLM agent's published tasks, AscendC kernels
  (kernel/*.cpp, each with its `_do` launcher) bound to PyTorch by kernel/pybind11.cpp, with the task's Model and
  ModelNew; each kernel file compiled alone, then the extension built by the torch_npu stand-in and, with --match,
  ModelNew run against Model on the task's own cases under MultiKernelBench's allclose (opgenagent.py beside this file).
- vllm-project/vllm-ascend `csrc/<group>/<op>/` (op-project): vLLM's Ascend backend, whose csrc/ is its own copy of
  ops-transformer's build; the ops whose OpDef builds them for A2, kernel alone and whole project, with the include
  folders its cmake sets and the op_host sources it compiles. Ops that include the catlass submodule
  (csrc/third_party/catlass) need `--git hicann/catlass=<git dir>`: its headers come from that repository at the
  commit vllm's tree pins (SUBMODULES).
- flashserve/flash-linear-attention-npu `fla/ops/ascendc/**/<op>/`, `examples/add_example/` (op-project): production
  linear-attention kernels (gated delta net, KDA) in a copy of ops-transformer's build; the ops whose OpDef builds them
  for A2, kernel alone and whole project (fla_entries). Its kernels include fla/ops/ascendc/common (kernel_utils/...)
  and catlass, which its build fetches at the commit cmake/third_party/catlass.cmake pins: `--git hicann/catlass=<git dir>`
  (FETCHED_PINS). With --match, chunk_local_cumsum and recurrent_gated_delta_rule run whole on their tests' cases
  against their formulas, and chunk_bwd_dqkwg against its tests' CPU reference (fla_by_hand.py).
- SpMM-AscendC/cube-SPMM `BcsrSpmmCustom` (op-project): a community block-sparse SpMM on the cube (hicann_entries);
  with --match, run whole on the column-condensed inputs its host scripts make, against NumPy (spmm_by_hand.py).

- Community sources of the thirty-eighth round (community.py beside this file: COMMUNITY_SOURCES, community_entries):
  course homework, a course project, re-done samples and contestants' op projects (op-project, grouped by the chip
  their OpDef names), a model port's .asc kernels (asc-file); community_by_hand.py runs 17 of their ops against NumPy.
- hicann/ascend-transformer-boost `src/kernels/{kernels,mixkernels}/**` (kernel-file): ATB, CANN's transformer library
  (norms, activations, quant, matmul, flash / paged attention, MLA, FFN, reshape_and_cache), the sources its
  `add_kernel(<name> ascend910b <core> <source> ...)` calls build for A2, each with the headers it reaches from the
  include folders ATB's build sets; the kernel is the call's name. Sources built only for 310P / 310B / 910 are left
  out. Those that include catlass need `--git hicann/catlass=<git dir>` (the tag ATB's build clones). A "cube" or
  "vector" call's kernel is built as that core's alone (atb.kernel_type). atb.py beside this file.

Why one file (2,250 lines): the collectors, the materialiser and `try_entry` share the entry record and the
per-repository rule tables (SOURCES, COMMON_INCLUDES, BUILD_DEFINES, SUBMODULES). Each source's run-and-match path
lives beside it and is dispatched from `_try_entry`: asc_run.py (an asc-devkit example run as its README runs it),
npukb.py (NPUKernelBench's own validation), pybind_calls.py (which call argument is which op input; npukb.py,
mkb.py and evokernel.py read their calls with it), atb.py, catlass.py, evokernel.py, mkb.py, opgenagent.py,
pybind_shapes.py; the runs by hand: atb_by_hand.py, hicann_by_hand.py, sgl_by_hand.py, transformer_by_hand.py,
hicann_elementwise.py, fla_by_hand.py, spmm_by_hand.py, cv_by_hand.py.
"""
import argparse
import contextlib
import functools
import json
import multiprocessing
import os
import posixpath
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from mkb import answer_strings, match_mkb, write_project  # noqa: E402 - MultiKernelBench's answer format, beside this file
from community import COMMUNITY_SOURCES, community_entries  # noqa: E402 - the thirty-eighth round's community sources
MANIFEST = HERE / "manifest.json"
KERNEL_ALONE_KINDS = ("kernel-dir", "asc-file", "blas-file", "catlass-example", "kernel-file")   # kinds with no project build
SOURCES = {  # repo -> source group name
    "weich97/NPUKernelBench": "NPUKernelBench golden answers",
    "wzzll123/MultiKernelBench": "MultiKernelBench prompt examples",
    "Ascend/samples": "Ascend samples (direct invocation)",
    "Hayden727/cann-ops": "cann-ops (Huawei open operators)",
    "cannmirror/asc-devkit": "asc-devkit examples (official, kernel alone)",
    "CenZhihan/LLM4AscendC": "LLM4AscendC kernelbench165",   # split by hardware verdict: mkb.LLM4ASCENDC_SOURCES
    "BobbyWeng/cannbot-ascendc-vs-pypto": "cannbot agent kernels (LLM-made .asc, kernel alone)",
    "hicann/ops-math": "hicann ops-math (A2 ops)",
    "hicann/ops-nn": "hicann ops-nn (A2 ops)",
    "hicann/ops-transformer": "hicann ops-transformer (A2 ops)",
    "hicann/ops-cv": "hicann ops-cv (A2 ops)",
    "hicann/ops-blas": "hicann ops-blas (A2 kernels, arch22)",
    "desly-0/flashattention_Ascendc": "desly-0 flash attention (community .asc, Matmul API; no hardware verdict)",
    "KernelHive/ascendc-skill": "EvoKernel (LLM-made op projects for 910B)",   # split by collection: evokernel_entries
    "hicann/catlass": "CATLASS (Huawei's cube template library; A2 examples)",
    "sgl-project/sgl-kernel-npu": "SGLang NPU kernels (ascendc_library kernel files; A2/A3)",   # and SGL_ATTENTIONS_SOURCE
    "vllm-project/vllm-ascend": "vLLM Ascend csrc op projects (A2 ops)",
    "wangdengkai/AscendOpGenAgent": "AscendOpGenAgent tasks (LLM-made kernels + pybind11 extension)",
    "flashserve/flash-linear-attention-npu": "flash-linear-attention-npu op projects (GDN / KDA, A2 ops)",
    "hicann/ascend-transformer-boost": "ATB (Ascend Transformer Boost; add_kernel sources built for ascend910b)",
    "SpMM-AscendC/cube-SPMM": "cube-SPMM (a community block-sparse SpMM op project, cube only)",
}


@functools.lru_cache(maxsize=1024)
def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True, text=True, check=True).stdout


@functools.lru_cache(maxsize=4096)   # cann-ops entries share their repository's common headers
def show(gitdir: str, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], capture_output=True, check=True).stdout


def collect(repo: str, gitdir: str) -> list[dict]:
    "Manifest entries for one repository at its HEAD."
    commit = git(gitdir, "rev-parse", "HEAD").strip()
    files = git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines()
    src = SOURCES.get(repo) or COMPETITION_SOURCES.get(repo) or COMMUNITY_SOURCES.get(repo, repo)
    entry = lambda path, kind: {"source": src, "repo": repo, "commit": commit, "path": path, "kind": kind}
    if repo == "weich97/NPUKernelBench":
        roots = sorted({f.split("/op_kernel/")[0] for f in files if "/answer/0/op_kernel/" in f and f.endswith(".cpp")})
        return [entry(r, "op-project") for r in roots]
    if repo == "wzzll123/MultiKernelBench":
        return [entry(f, "mkb-prompt") for f in files if re.fullmatch(r"prompts/ascendc_new_model_\w+\.py", f)]
    if repo == "CenZhihan/LLM4AscendC":   # LLM-made answers in MultiKernelBench's format, and their 910B verdicts
        from mkb import LLM4ASCENDC_PASSED_LIST, llm4ascendc_entries
        return llm4ascendc_entries(files, show(gitdir, commit, LLM4ASCENDC_PASSED_LIST).decode(), entry)
    if repo == "BobbyWeng/cannbot-ascendc-vs-pypto":   # an LLM agent's kernels: the .asc each op's host file includes
        return cannbot_entries(gitdir, commit, files, entry)
    if repo == "Ascend/samples":
        roots = sorted({f.rsplit("/", 1)[0] for f in files if "/kernel_invocation/" in f and f.endswith(".cpp")
                        and not f.endswith("/main.cpp")})
        return [entry(r, "kernel-dir") for r in roots]
    if repo == "cannmirror/asc-devkit":   # the examples built for A2 (dav-2201) by default, with their CMake defines
        out = []
        for f in files:
            if not (f.startswith("examples/01_simd_cpp_api/") and f.endswith(".asc")): continue
            folder = posixpath.dirname(f)
            while folder and f"{folder}/CMakeLists.txt" not in files: folder = posixpath.dirname(folder)
            if not folder: continue
            readme = show(gitdir, commit, f"{folder}/README.md").decode(errors="replace") if f"{folder}/README.md" in files else ""
            arch, defines = cmake_defaults(show(gitdir, commit, f"{folder}/CMakeLists.txt").decode(errors="replace"), readme)
            if arch == "dav-2201": out.append(dict(entry(f, "asc-file"), **({"defines": defines} if defines else {})))
        return out
    if repo in ("hicann/ops-math", "hicann/ops-nn", "hicann/ops-transformer", "hicann/ops-cv"):   # CANN's newer open repositories: the ops built for A2
        return hicann_entries(gitdir, commit, files, entry)
    if repo == "vllm-project/vllm-ascend":   # vLLM's Ascend backend: csrc/ is an ops-transformer-style op tree (its own
        # CMake project, csrc/CMakeLists.txt), the ops its OpDef builds for A2; csrc/scripts/opgen's template is left out
        return hicann_entries(gitdir, commit, [f for f in files if f.startswith("csrc/")], entry)
    if repo == "flashserve/flash-linear-attention-npu":   # linear-attention op projects in ops-transformer's layout
        return fla_entries(gitdir, commit, files, entry)
    if repo == "hicann/ops-blas":   # BLAS routines: blas/<op>/arch22/<name>_kernel.cpp, no op_host/op_kernel layout
        return blas_entries(files, entry)
    if repo == "desly-0/flashattention_Ascendc":   # one community kernel (.asc, built for dav-2201 by tools/CMakeLists.txt)
        return [dict(entry("src/flash_attention.asc", "asc-file"), hardware="unverified")]
    if repo in COMPETITION_SOURCES:   # contestants' op projects (msopgen layout), their build outputs left out
        return competition_entries(files, entry)
    if repo in COMMUNITY_SOURCES:   # course homework, a course project, a model port's .asc kernels (community.py)
        return community_entries(repo, files, lambda p: show(gitdir, commit, p), entry)
    if repo == "KernelHive/ascendc-skill":   # the EvoKernel dataset's 910B op projects, kept in this skill's references
        return evokernel_entries(gitdir, commit, files, entry)
    if repo == "hicann/catlass":   # the template library's examples its CMake builds for A2 (CATLASS_ARCH 2201)
        return catlass_entries(gitdir, commit, files, entry)
    if repo == "sgl-project/sgl-kernel-npu":   # SGLang's kernels: ascendc_library kernel files, and the attentions op projects
        return sgl_entries(gitdir, commit, files, entry)
    if repo == "wangdengkai/AscendOpGenAgent":   # an LLM agent's tasks: kernels, a pybind11 extension, Model / ModelNew
        from opgenagent import opgen_entries
        return opgen_entries(files, entry)
    if repo == "hicann/ascend-transformer-boost":   # ATB's kernels: the add_kernel sources built for ascend910b (atb.py)
        from atb import atb_entries
        return atb_entries(lambda c, p: show(gitdir, c, p), commit, files, entry)
    if repo == "SpMM-AscendC/cube-SPMM":   # one msopgen op project (BcsrSpmmCustom/op_host, op_kernel) built for A2
        return hicann_entries(gitdir, commit, files, entry)
    if repo == "Hayden727/cann-ops":
        roots = sorted({f.split("/op_kernel/")[0] for f in files if f.startswith("src/") and "/op_kernel/" in f and f.endswith(".cpp")})
        have_host = {f.split("/op_host/")[0] for f in files if "/op_host/" in f}
        return [entry(r, "op-project") for r in roots if r in have_host]
    return []


def hicann_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """hicann/ops-math, hicann/ops-nn: one op folder (op_host/ + op_kernel/) per operator, the main tree's and the
    community's (experimental/). An op is taken when its OpDef builds it for A2 (`AddConfig("ascend910b"...)` in an
    op_host source); its source group says which tree it is in. Templates of the repositories' op generator
    (scripts/opgen, at any depth: vllm-ascend's csrc/scripts/opgen) and test folders are left out."""
    kernels = {f.split("/op_kernel/")[0] for f in files if "/op_kernel/" in f and f.endswith(".cpp")}
    hosts = sorted(f for f in files if "/op_host/" in f and f.endswith(".cpp") and f.split("/op_host/")[0] in kernels
                   and not f.startswith(("scripts/", "tests/")) and "/tests/" not in f and "/scripts/" not in f)
    roots = set()
    for f in hosts:
        root = f.split("/op_host/")[0]
        if root in roots: continue
        if re.search(rb'AddConfig\(\s*"ascend910b"', show(gitdir, commit, f)): roots.add(root)
    out = []
    for r in sorted(roots):
        e = entry(r, "op-project")
        if r.startswith("experimental/"): e["source"] += ", experimental"
        out.append(e)
    return out


def fla_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """flashserve/flash-linear-attention-npu: its op projects under fla/ops/ascendc/ (gdn/..., kda/...) and the
    template op examples/add_example, the ones whose OpDef builds them for A2 (hicann_entries). Its
    examples/fast_kernel_launch_example/csrc/ wraps the same kernels in PyTorch extensions (`#include` of the op's
    op_kernel .cpp) and is left out: the op projects are the kernels."""
    return hicann_entries(gitdir, commit, [f for f in files if f.startswith(("fla/ops/ascendc/", "examples/add_example/"))],
                          entry)


# hicann/ops-blas builds one folder per SoC generation of each routine: arch22 for ascend910b* / ascend910_93* (NPU_ARCH
# dav-2201; CMakeLists.txt's get_soc_arch_dirs, build.sh's SOC_ARCH_DIRS), arch35 for ascend950 (dav-3510), arch20 for
# ascend310p. Only arch22 is A2.
BLAS_ARCH = "arch22"


def blas_entries(files: list[str], entry) -> list[dict]:
    """hicann/ops-blas: each A2 kernel file, blas/<op>/arch22/<name>_kernel.cpp (kind blas-file). Such a file is ASC
    source (the build sets LANGUAGE ASC): the kernels, then a host function `<name>_do(...)` that launches one with
    <<<...>>>; the host tiling is <name>_host.cpp beside it (an aclblas<Name> call over ACL), recorded as `host`
    (the file of the kernel's name, else the folder's only one: gemv's two kernels share cgemv_host.cpp)."""
    out = []
    for f in sorted(files):
        parts = f.split("/")
        if not (len(parts) == 4 and parts[0] == "blas" and parts[2] == BLAS_ARCH and f.endswith("_kernel.cpp")): continue
        same = f[: -len("_kernel.cpp")] + "_host.cpp"   # sdot_kernel.cpp -> sdot_host.cpp, else the folder's only one
        hosts = [same] if same in files else [g for g in files if posixpath.dirname(g) == posixpath.dirname(f) and g.endswith("_host.cpp")]
        out.append(dict(entry(f, "blas-file"), **({"host": hosts[0]} if len(hosts) == 1 else {})))
    return out


# the kinds whose entry is kernel files alone (no op project, so no project column)
BLAS_INCLUDE_ROOTS = ("blas", "include")   # the ops_blas target's own include folders (CMakeLists.txt: ./include, blas)


def materialise_blas(entry: dict, gitdir: str, dest: Path) -> Path:
    """An ops-blas kernel file (blas-file) at its repository path in dest, as its device part (asc_kernel_source: the
    host launcher's <<<...>>> becomes a no-op), with the headers it includes, directly or through each other, at their
    repository paths: the ones beside it and in its routine's folder (`#include "../ssymm_common_kernel.h"`), and the
    shared ones its build finds from the repository's include folders (BLAS_INCLUDE_ROOTS: `#include
    "common/helper/kernel_utils.h"`, `#include "cann_ops_blas_common.h"`), which become include folders of the build (a
    header at the top of each). Headers under another generation's folder (arch35, arch20) are never taken."""
    commit, path = entry["commit"], entry["path"]
    (dest / path).parent.mkdir(parents=True, exist_ok=True)
    (dest / path).write_text(asc_kernel_source(show(gitdir, commit, path).decode(errors="replace")))
    for root in sorted(_blas_headers(gitdir, commit, path, dest)):
        (dest / root / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")
    return dest


def _blas_headers(gitdir: str, commit: str, path: str, dest: Path, include_roots: tuple[str, ...] = BLAS_INCLUDE_ROOTS,
                  suffixes: tuple[str, ...] = (".h", ".hpp", ".inc")) -> set[str]:
    """The headers `path` of ops-blas includes, directly or through each other, written to dest at their repository
    paths (materialise_blas); the include roots (BLAS_INCLUDE_ROOTS) through which some were found. Also the files a
    kernel-file entry reaches (materialise_kernel_file: its target's include folders, and `suffixes` with .cpp: a
    kernel source that includes another, sgl-kernel-npu's `#include "sparse_attention_score_kernel_interface.cpp"`)."""
    listing = set(_tree(gitdir, commit))
    include = re.compile(rb'#\s*include\s*"([^"]+)"')
    seen, todo, roots = set(), [path], set()
    while todo:
        f = todo.pop()
        for name in include.findall(show(gitdir, commit, f)):
            name = name.decode(errors="replace")
            near = posixpath.normpath(posixpath.join(posixpath.dirname(f), name))
            # the root it was found through (not the first root that is a prefix of its path: ATB's src/kernels and
            # src/kernels/mixkernels/utils/common/kernel/catlass are both roots of `#include "epilogue/..."`'s file)
            via = None if near in listing else next((r for r in include_roots if posixpath.join(r, name) in listing), None)
            found = near if via is None else posixpath.join(via, name)
            if found not in listing or found in seen or found == path or not found.endswith(suffixes): continue
            if any(f"/{a}/" in f"/{found}" for a in ("arch35", "arch20")): continue
            seen.add(found)
            todo.append(found)
            if via is not None: roots.add(via)
            out = dest / found
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(show(gitdir, commit, found))
    return roots


def materialise_kernel_file(entry: dict, gitdir: str, dest: Path) -> Path:
    """A kernel source of an ascendc_library target (kind kernel-file: sgl-kernel-npu) at its repository path in dest,
    with the files it includes, directly or through each other, at theirs: by a path relative to the includer
    (`#include "../op_host/alloc_extend_tiling.h"`), else from the target's include folders (`include`: csrc/utils/kernel
    for `#include "common_tiling_kernel.h"`), which become include folders of the build (a header at the top of each).
    Files under an Ascend 950 folder (arch35) are never taken (the kernels name them under `#if` of that SoC only)."""
    commit, path = entry["commit"], entry["path"]
    (dest / path).parent.mkdir(parents=True, exist_ok=True)
    (dest / path).write_bytes(show(gitdir, commit, path))
    for root in sorted(_blas_headers(gitdir, commit, path, dest, tuple(entry.get("include", ())),
                                     (".h", ".hpp", ".inc", ".cpp", ".inl", ".cce"))):
        (dest / root / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")
    if entry.get("third_party"):   # ATB's catlass headers, from hicann/catlass at the tag its build clones (atb.py)
        from atb import third_party_headers
        third_party_headers(entry, GITDIRS, dest)
    return dest


def kernel_file_entry(sources: dict[str, str], path: str) -> str | None:
    """The kernel a kernel-file entry is built for: the first `__global__` function its own file defines (the host code
    launches each by name, `EXEC_KERNEL_CMD(apply_token_bitmask_fp16, ...)`; one build compiles the file's others too)."""
    from ascendcraft.emu import find_entries
    own = [e for e in find_entries(sources) if e.file == path]
    return min(own, key=lambda e: e.line).name if own else None


def blas_host_check(entry: dict, gitdir: str, settings) -> dict:
    """The host tiling of an ops-blas entry (its `host`, <name>_host.cpp: the aclblas<Name> function that computes the
    tiling and calls the kernel's launcher over ACL), compiled alone with g++ -fsyntax-only against the emulation's
    headers (ACL, CANN's log and platform headers) and the repository's include folders, as the ops_blas target builds
    it: `host_ok`, and `host_error` (its first error). Compiled, not linked: nothing here runs the launcher's <<<>>>."""
    from ascendcraft.emu import INCLUDE_DIR
    if not entry.get("host"): return {"host_ok": False, "host_error": "no host source recorded for this kernel (collect)"}
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp)
        host = entry["host"]
        (dest / host).parent.mkdir(parents=True, exist_ok=True)
        (dest / host).write_bytes(show(gitdir, entry["commit"], host))
        _blas_headers(gitdir, entry["commit"], host, dest)
        flags = [f for f in settings.cxxflags.split() if f.startswith(("-std=", "-D"))]
        cmd = [settings.cxx, *flags, "-fsyntax-only", "-I", str(INCLUDE_DIR),
               *(a for r in BLAS_INCLUDE_ROOTS for a in ("-I", str(dest / r))), str(dest / host)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=dest)
        except subprocess.TimeoutExpired:
            return {"host_ok": False, "host_error": f"g++ -fsyntax-only of {host} did not finish in 600 s"}
        errs = [l for l in done.stderr.splitlines() if " error: " in l or "fatal error:" in l]
        first = errs[0].split("error:", 1)[1].strip() if errs else (done.stderr.strip().splitlines() or [""])[-1]
        return {"host_ok": done.returncode == 0, "host_error": "" if done.returncode == 0 else f"{host}: {first}"[:300]}


EVOKERNEL_ROOT = "skills/ascend-kernel-generator/reference/ref_repositories/EvoKernel"
EVOKERNEL_COLLECTIONS = ("ops-kernelbench-910b", "ops-attention-910b", "ops-mhc-910b")


def catlass_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """hicann/catlass: the examples examples/CMakeLists.txt builds for Atlas A2 (its EXAMPLE_ATLASA2 list, compiled with
    CATLASS_ARCH=2201; the Ascend 950 list, CATLASS_ARCH=3510, is left out). Each entry is the example's source that its
    CMakeLists.txt compiles as ASC (the kernel launch and the host main), with the example target's own compile
    definitions (`target_compile_definitions(<name> PRIVATE ...)`) and CATLASS_ARCH=2201 as `defines`."""
    top = show(gitdir, commit, "examples/CMakeLists.txt").decode(errors="replace")
    listed = re.search(r"set\(\s*EXAMPLE_ATLASA2\s+([^)]*)\)", re.sub(r"#[^\n]*", "", top))
    out = []
    for name in (listed.group(1).split() if listed else []):
        folder = f"examples/{name}"
        if f"{folder}/CMakeLists.txt" not in files: continue
        cmake = re.sub(r"#[^\n]*", "", show(gitdir, commit, f"{folder}/CMakeLists.txt").decode(errors="replace"))
        asc = re.findall(r"set_source_files_properties\(\s*([\w./-]+)\s+PROPERTIES\s+LANGUAGE\s+ASC", cmake)
        if not asc or f"{folder}/{asc[0]}" not in files: continue
        own = re.search(rf"target_compile_definitions\(\s*{re.escape(name)}\s+PRIVATE\s+([^)]*)\)", cmake)
        defines = ["-DCATLASS_ARCH=2201", *(f"-D{d}" for d in (own.group(1).split() if own else []))]
        out.append(dict(entry(f"{folder}/{asc[0]}", "catlass-example"), defines=" ".join(defines)))
    return out


def evokernel_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """KernelHive/ascendc-skill: its copy of the EvoKernel dataset (arXiv 2603.10846), LLM-made AscendC op projects for
    Ascend 910B in msopgen's layout (<Op>/op_host/ + op_kernel/, the op's msopgen JSON, a CppExtension binding). Each
    op folder's result.json records the paper's run on their 910B: `compiled` and `correctness`. One source group per
    collection (KernelBench, attention, MHC), split by that verdict (hardware: passed; compile-failed where result.json
    says `compiled: false`; unverified where it says neither)."""
    out = []
    for coll in EVOKERNEL_COLLECTIONS:
        base = f"{EVOKERNEL_ROOT}/{coll}/"
        roots = sorted({f[len(base):].split("/")[0] for f in files if f.startswith(base) and "/op_kernel/" in f
                        and f.endswith(".cpp")})
        for op in roots:
            root = base + op
            try: result = json.loads(show(gitdir, commit, f"{root}/result.json"))
            except (subprocess.CalledProcessError, json.JSONDecodeError): result = {}
            hw = ("passed" if result.get("correctness") is True else "compile-failed" if result.get("compiled") is False
                  else "unverified")
            said = {"passed": "passed on their 910B", "compile-failed": "did not compile for their 910B",
                    "unverified": "no 910B verdict"}[hw]
            out.append(dict(entry(root, "op-project"), source=f"EvoKernel {coll} (LLM-made; {said})", hardware=hw))
    return out


# sgl-project/sgl-kernel-npu builds its kernels (csrc/CMakeLists.txt) as ascendc_library targets for the SoC build.sh
# defaults to (Ascend910_9382, an A3: the same dav-2201 core as A2), with its options' defaults: the A3-only ops on
# (SGL_KERNEL_ENABLE_A3_ONLY_OPS is OFF only for ascend950), the catlass ops off (option BUILD_CATLASS_MODULE OFF).
SGL_KERNEL_CMAKE = "csrc/CMakeLists.txt"
SGL_OPTIONS = {"SGL_KERNEL_ENABLE_A3_ONLY_OPS": True, "BUILD_CATLASS_MODULE": False}
SGL_PATHS = {"PROJECT_OP_SRC_BASE": "csrc", "PROJECT_SOURCE_DIR": "", "CATLASS_DIR": "third_party/catlass"}
SGL_ATTENTIONS = "csrc/attentions/csrc/ops"   # a separate op project build (build.sh -a attentions): msopgen layout
SGL_ATTENTIONS_SOURCE = "SGLang NPU attentions (op projects; A2/A3)"


def _cmake_condition(cond: str, options: dict) -> bool:
    "An if() condition of option names, NOT, AND, OR and DEFINED, with `options` (anything else is false)."
    words = cond.replace("(", " ( ").replace(")", " ) ").split()
    if any(w in ("MATCHES", "STREQUAL", "EQUAL", "VERSION_LESS", "EXISTS") for w in words): return False
    py, i = [], 0
    while i < len(words):
        w = words[i]
        if w == "DEFINED": py.append(str(words[i + 1] in options)); i += 2; continue
        py.append({"NOT": "not", "AND": "and", "OR": "or", "(": "(", ")": ")"}.get(w, str(bool(options.get(w.strip("${}"), False)))))
        i += 1
    return bool(eval(" ".join(py) or "False", {"__builtins__": {}}))   # noqa: S307 - only True/False/not/and/or/()


def ascendc_targets(cmake: str, options: dict, paths: dict) -> dict[str, dict]:
    """The ascendc_library targets of a CMakeLists.txt, as its options' values build them: target -> {"sources": [...],
    "include": [...], "defines": [...]} in repository paths (`paths`: the variables that name folders). Reads set(),
    list(APPEND), add_compile_definitions, ascendc_library, ascendc_include_directories, ascendc_compile_definitions and
    if / elseif / else / endif; a folder outside the repository (`${ASCEND_INCLUDE_DIR}`: the SDK) is left out."""
    code = re.sub(r"#[^\n]*", "", cmake)
    lists: dict[str, list[str]] = {}
    targets: dict[str, dict] = {}
    common: list[str] = []
    stack: list[tuple[bool, bool]] = []   # (this branch is on, some branch of this if() was taken)

    def expand(args: list[str]) -> list[str]:
        out = []
        for a in args:
            whole = re.fullmatch(r"\$\{(\w+)\}", a)
            if whole and whole.group(1) in lists: out += lists[whole.group(1)]; continue
            unknown = [v for v in re.findall(r"\$\{(\w+)\}", a) if v not in paths]
            if unknown: continue
            p = re.sub(r"\$\{(\w+)\}", lambda m: paths[m.group(1)], a).strip("/")
            out.append(posixpath.normpath(p) if "/" in p or "." in p else p)
        return out

    for m in re.finditer(r"\b(\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", code):
        cmd, args = m.group(1).lower(), m.group(2).split()
        if cmd == "if": stack.append((all(s[0] for s in stack) and _cmake_condition(m.group(2), options),) * 2); continue
        if cmd in ("elseif", "else"):
            on, taken = stack.pop()
            now = not taken and all(s[0] for s in stack) and (cmd == "else" or _cmake_condition(m.group(2), options))
            stack.append((now, taken or now)); continue
        if cmd == "endif": stack.pop(); continue
        if not all(s[0] for s in stack): continue
        if cmd == "set" and args: lists[args[0]] = expand(args[1:])
        elif cmd == "list" and args[:1] == ["APPEND"]: lists.setdefault(args[1], []).extend(expand(args[2:]))
        elif cmd == "add_compile_definitions": common += [a if a.startswith("-D") else f"-D{a}" for a in args]
        elif cmd == "ascendc_library":
            targets[args[0]] = {"sources": [a for a in expand(args[1:]) if a not in ("STATIC", "SHARED")], "include": [], "defines": list(common)}
        elif cmd in ("ascendc_include_directories", "ascendc_compile_definitions") and args and args[0] in targets:
            vals = expand([a for a in args[1:] if a not in ("PRIVATE", "PUBLIC", "INTERFACE")])
            if cmd == "ascendc_include_directories": targets[args[0]]["include"] += vals
            else: targets[args[0]]["defines"] += [v if v.startswith("-D") else f"-D{v}" for v in vals]
    return targets


def sgl_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """sgl-project/sgl-kernel-npu: (1) each kernel source of csrc/CMakeLists.txt's ascendc_library targets (kind
    kernel-file: kernels the host code launches by name, `EXEC_KERNEL_CMD(name, ...)`, no launch in the file), with its
    target's include folders (`include`) and definitions (`defines`); a target built on PTO-ISA (third_party/pto-isa,
    not the AscendC API: mega_chunk_gdn) is left out; (2) the op projects of csrc/attentions (msopgen layout, OpDef
    `AddConfig("ascend910b")`, kind op-project). csrc/deepep (communication ops over HCCL windows, its own build) is
    not collected."""
    targets = ascendc_targets(show(gitdir, commit, SGL_KERNEL_CMAKE).decode(errors="replace"), SGL_OPTIONS, SGL_PATHS)
    out = []
    for name, t in targets.items():
        if any(i.startswith("third_party/pto-isa") for i in t["include"]): continue
        for src in t["sources"]:
            if src not in files: continue
            e = dict(entry(src, "kernel-file"), target=name, include=t["include"])
            if t["defines"]: e["defines"] = " ".join(t["defines"])
            out.append(e)
    out += [dict(e, source=SGL_ATTENTIONS_SOURCE)
            for e in hicann_entries(gitdir, commit, [f for f in files if f.startswith(SGL_ATTENTIONS + "/")], entry)]
    return out


# Contestants' repositories of Huawei's Ascend C operator competitions: msopgen op projects (<Op>/op_host/ + op_kernel/)
# they built with CANN and ran on the competition's boards (their test folders, profiler outputs); none keeps a verdict.
COMPETITION_SOURCES = {
    "hansheng1001/AscendCContest": "Ascend C contest op projects (contestants'; built for 310B, no verdict kept)",
    "Youshikawa/ascendC-S2": "Ascend C contest op projects (contestants'; built for 310B, no verdict kept)",
    "A-Y-1/AscendC-S4": "Ascend C contest op projects (contestants'; built for 910B, no verdict kept)",
    "JasperXzy/AscendC-S7": "Ascend C contest op projects (contestants'; built for 910B, no verdict kept)",
}


def competition_entries(files: list[str], entry) -> list[dict]:
    "The op projects of a contestant's repository (COMPETITION_SOURCES), without their build outputs."
    built = ("/build_out/", "/build/")
    roots = sorted({f.split("/op_kernel/")[0] for f in files if "/op_kernel/" in f and f.endswith(".cpp")
                    and not any(b in "/" + f for b in built)})
    have_host = {f.split("/op_host/")[0] for f in files if "/op_host/" in f and not any(b in "/" + f for b in built)}
    return [entry(r, "op-project") for r in roots if r in have_host]


CANNBOT_SOURCES = {True: "cannbot agent (LLM-made .asc; passed on their NPU)",
                   False: "cannbot agent (LLM-made .asc; not verified on an NPU)"}


def cannbot_entries(gitdir: str, commit: str, files: list[str], entry) -> list[dict]:
    """BobbyWeng/cannbot-ascendc-vs-pypto: an LLM agent's (Cannbot's) AscendC kernels, one folder per op,
    operators/<op>/ascendc/src/<op>_host.asc (ACL host code, built for dav-2201) #including the kernel .asc it launches.
    Each entry is that kernel file (kind asc-file, compiled alone). `hardware` says whether operators/README.md reports
    the Ascend C kernel's correctness on their NPU (passed) or says it was not collected there (unverified)."""
    readme = show(gitdir, commit, "operators/README.md").decode(errors="replace")
    unverified = {m.group(1) for m in re.finditer(r"^\|\s*\*\*(\w+)\*\*\s*\|.*unverified", readme, flags=re.M)}
    out = []
    for host in sorted(f for f in files if re.fullmatch(r"operators/\w+/ascendc/src/\w+_host\.asc", f)):
        op = host.split("/")[1]
        text = show(gitdir, commit, host).decode(errors="replace")
        kernel = re.search(r'#\s*include\s*"(\w+\.asc)"', text)
        if not kernel or posixpath.join(posixpath.dirname(host), kernel.group(1)) not in files: continue
        e = entry(posixpath.join(posixpath.dirname(host), kernel.group(1)), "asc-file")
        ok = op not in unverified
        out.append(dict(e, source=CANNBOT_SOURCES[ok], hardware="passed" if ok else "unverified"))
    return out


HOST_ONLY_INCLUDES = ("cpu_debug_launch.h",)   # the CPU-debug build's launcher; ACL, platform and data_utils.h compile here


def asc_kernel_source(text: str) -> str:
    """The device part of a single-source .asc file: the text before its host main() (the kernels and their helpers),
    without the CPU-debug launcher's include. The host helpers before main() stay: they call ACL (the emulation's
    acl/acl.h over host memory) and the examples' data_utils.h; a `<<<>>>` launch in them becomes a no-op statement.
    Lines are kept in place (blanked, not removed), so that diagnostics point at the file's own line numbers."""
    # a launch in a host helper before main() (`kernel<T, N><<<blocks, 0, stream>>>(x, y);`) is no C++ for g++: the
    # statement becomes `(void)0;`, keeping its line breaks (build() is told the kernel to run)
    text = re.sub(r"\b\w+\s*(?:<(?:[^<>;]|<[^<>;]*>)*>)?\s*<<\s*<[^;]*?>>\s*>\s*\([^;]*\)\s*;",
                  lambda m: "(void)0;" + "\n" * m.group(0).count("\n"), text)
    lines = text.split("\n")
    main_at = next((i for i, l in enumerate(lines) if re.match(r"\s*(?:int|int32_t)\s+main\s*\(", l)), len(lines))
    out = []
    for i, line in enumerate(lines):
        inc = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
        out.append("" if i >= main_at or (inc and inc.group(1) in HOST_ONLY_INCLUDES) else line)
    return _without_framework_host("\n".join(out))


# The headers of a framework's host binding (PyTorch / torch_npu, pybind11, GE's graph API, ACL's profiler and base types): a file that includes one
# (or calls the ACL graph API, aclmdl*) keeps its kernels and loses the host code after them.
FRAMEWORK_INCLUDES = ("torch/", "torch_npu/", "pybind11/", "graph/", "acl/acl_prof.h", "acl/acl_base.h", "acl/acl_rt.h")


def _without_framework_host(text: str) -> str:
    """The device part of a file whose host code binds the kernel to a framework (a PyTorch / pybind11 operator, a GE
    custom op, an ACL graph capture; asc-devkit's 00_framework examples): the framework includes and everything after
    the file's last kernel (its definition's body, or its declaration) are blanked, and the namespaces still open there
    are closed, so the kernel compiles alone as the other examples' kernels do. A file with no kernel keeps only its
    includes. Other files are returned as they are. Line numbers are kept."""
    from ascendcraft.emu import past_close
    incs = [(m.start(), m.end()) for m in re.finditer(r'(?m)^[ \t]*#\s*include\s*[<"]([^>"]+)[>"][^\n]*', text)
            if m.group(1).startswith(FRAMEWORK_INCLUDES)]
    if not incs and not re.search(r"\baclmdl\w*\s*\(", text): return text
    code = re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    cut = max((m.end() for m in re.finditer(r"(?m)^[ \t]*#\s*include[^\n]*", code)), default=0)
    for m in re.finditer(r"\b__global__\b[^;{]*?\([^;{]*?\)\s*(\{|;)", code):
        if m.group(1) == ";": cut = max(cut, m.end()); continue
        cut = max(cut, past_close(code, m.end(), "{}"))
    open_ns = code[:cut].count("{") - code[:cut].count("}")
    line_end = text.find("\n", cut)
    line_end = len(text) if line_end < 0 else line_end
    head, tail = text[:line_end], text[line_end:]
    for a, b in reversed(incs):
        if b <= len(head): head = head[:a] + head[b:]
    return head + " }" * max(open_ns, 0) + re.sub(r"[^\n]", "", tail)


def cmake_defaults(text: str, readme: str = "") -> tuple[str | None, str]:
    """From an example's CMakeLists.txt: the default NPU architecture (CMAKE_ASC_ARCHITECTURES, dav-2201 is A2) and the
    -D flags its add_definitions / add_compile_definitions / target_compile_definitions give with the cache variables'
    defaults (`set(SCENARIO_NUM "1" CACHE ...)` + `add_definitions(-DSCENARIO_NUM=${SCENARIO_NUM})`). A variable with
    no default that the file checks against a list (`set(VALID_SCENARIOS 0 1)` + `if(NOT SCENARIO_NUM IN_LIST
    VALID_SCENARIOS)` or `if(NOT SCENARIO_NUM EQUAL 1 AND NOT SCENARIO_NUM EQUAL 2)` or `if(NOT SCENARIO_NUM MATCHES "^[1-8]$")`, where
    the README says which to pass) takes the first value allowed. One with no default and no list takes the value the
    example's README assigns it in its build steps (`SCENARIO=1` before `cmake ... -DSCENARIO=$SCENARIO ..`). An
    `option()` that is OFF by default leaves out the definitions of the `if()` block on it."""
    values = dict(re.findall(r'\bset\(\s*(\w+)\s+"([^"]*)"', text))
    values.update({k: v for k, v in re.findall(r"\bset\(\s*(\w+)\s+(\w+)\s+CACHE\b", text) if k not in values})
    lists = {k: v.split() for k, v in re.findall(r"\bset\(\s*(\w+)\s+([-\w.]+(?:\s+[-\w.]+)*)\s*\)", text)}
    for var, lst in re.findall(r"\bif\s*\(\s*NOT\s+(\w+)\s+IN_LIST\s+(\w+)\s*\)", text):
        if var not in values and lists.get(lst): values[var] = lists[lst][0]
    for var, first in re.findall(r"\bif\s*\(\s*NOT\s+(\w+)\s+EQUAL\s+([-\w.]+)", text):   # if(NOT N EQUAL 1 AND NOT ...)
        values.setdefault(var, first)
    for var, pattern in re.findall(r'\bif\s*\(\s*NOT\s+(\w+)\s+MATCHES\s+"([^"]+)"', text):   # if(NOT N MATCHES "^[1-8]$")
        first = re.match(r"\^?(?:\[(\w)|\(?(\w+))", pattern)
        if first and var not in values: values[var] = first.group(1) or first.group(2)
    for var, value in re.findall(r"(?m)^[ \t]*(\w+)=([-\w.]+)[ \t]*(?:#.*)?$", readme):   # the README's `SCENARIO=1`
        if re.search(r"\$\{" + var + r"\}", text): values.setdefault(var, value)
    # `if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201") set(NPU_ARCH_ID 2201) elseif(...)`: the plain set()s of the branch
    # whose string test holds for the known value (add_high_performance's `NPU_ARCH=${NPU_ARCH_ID}`)
    for var, want, body in re.findall(r'\b(?:else)?if\s*\(\s*(\w+)\s+STREQUAL\s+"([^"]*)"\s*\)(.*?)(?=\b(?:elseif|else|endif)\s*\()',
                                      text, flags=re.S):
        if values.get(var) == want:
            for name, value in re.findall(r"\bset\(\s*(\w+)\s+([-\w.]+)\s*\)", body): values.setdefault(name, value)
    # `string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")`: the first match in the known value
    # (fixpipe_l0c2l1's `-DASC_ARCHITECTURES=${ARCH_NUM}`, which picks its host's output size)
    for pattern, var, source in re.findall(r'\bstring\(\s*REGEX\s+MATCH\s+"([^"]+)"\s+(\w+)\s+"\$\{(\w+)\}"\s*\)', text):
        found = re.search(pattern, values.get(source, ""))
        if found: values.setdefault(var, found.group(0))
    arch = values.get("CMAKE_ASC_ARCHITECTURES")
    flags = []
    # an `option(NAME "..." OFF)` (OFF when not given) is off by default: the definitions of an `if(NAME) ... endif()`
    # block on it are left out (softmaxgrad's `if(USE_FRONT_MODE) target_compile_definitions(demo PRIVATE
    # USE_FRONT_MODE)`: its default run is the plain SoftmaxGrad)
    off = {k for k, v in re.findall(r'\boption\s*\(\s*(\w+)\s+"[^"]*"\s*(\w*)\s*\)', text) if v.upper() not in ("ON", "TRUE", "1", "YES")}
    text = re.sub(r"\bif\s*\(\s*(\w+)\s*\)(.*?)\bendif\s*\([^)]*\)",
                  lambda m: "" if m.group(1) in off and not re.search(r"\bif\s*\(", m.group(2)) else m.group(0), text, flags=re.S)
    bodies = re.findall(r"\badd_(?:compile_)?definitions\s*\(([^)]*)\)", text)
    bodies += [re.sub(r"^\s*\S+|\b(?:PRIVATE|PUBLIC|INTERFACE)\b", " ", b)
               for b in re.findall(r"\btarget_compile_definitions\s*\(([^)]*)\)", text)]
    for body in bodies:
        for d in body.split():
            d = re.sub(r"\$\{(\w+)\}", lambda m: values.get(m.group(1), ""), d)
            if not d.startswith("-D"): d = "-D" + d
            if re.fullmatch(r"-D\w+(=[-\w.]+)?", d) and d not in flags: flags.append(d)
    return arch, " ".join(flags)


_SIZEOF = {"half": 2, "bfloat16_t": 2, "float": 4, "double": 8, "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2,
           "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "int": 4, "char": 1, "bool": 1}


def _eval_int(expr: str, names: dict[str, str]) -> int | None:
    """The value of a C integer constant expression (literals, names with known values, sizeof of a basic type,
    + - * / % << >>, comparisons, ! && ||, ?:, parentheses), or None when it is not one."""
    expr = re.sub(r"\bsizeof\s*\(\s*(\w+)\s*\)", lambda m: str(_SIZEOF[m.group(1)]) if m.group(1) in _SIZEOF else m.group(0), expr)
    expr = re.sub(r"\bstatic_cast\s*<\s*[\w:]+\s*>", "", expr)
    toks = re.findall(r"\d+[uUlL]*|[A-Za-z_]\w*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>?:!]|\S", expr)
    pos = 0

    def peek(): return toks[pos] if pos < len(toks) else None
    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]
    def primary():
        t = take() if peek() is not None else None
        if t is None: raise ValueError
        if t == "(":
            v = ternary()
            if take() != ")": raise ValueError
            return v
        if t == "-": return -primary()
        if t == "+": return primary()
        if t == "!": return int(not primary())
        if re.fullmatch(r"\d+[uUlL]*", t): return int(re.sub(r"[uUlL]+$", "", t))
        if t in names and re.fullmatch(r"-?\d+", str(names[t])): return int(names[t])
        raise ValueError(t)
    levels = [("*", "/", "%"), ("+", "-"), ("<<", ">>"), ("<", ">", "<=", ">="), ("==", "!="), ("&&",), ("||",)]
    ops = {"*": lambda x, y: x * y, "/": lambda x, y: int(x / y), "%": lambda x, y: x % y, "+": lambda x, y: x + y,
           "-": lambda x, y: x - y, "<<": lambda x, y: x << y, ">>": lambda x, y: x >> y, "<": lambda x, y: int(x < y),
           ">": lambda x, y: int(x > y), "<=": lambda x, y: int(x <= y), ">=": lambda x, y: int(x >= y),
           "==": lambda x, y: int(x == y), "!=": lambda x, y: int(x != y), "&&": lambda x, y: int(bool(x and y)),
           "||": lambda x, y: int(bool(x or y))}
    def binary(level):
        if level < 0: return primary()
        v = binary(level - 1)
        while peek() in levels[level]:
            v = ops[take()](v, binary(level - 1))
        return v
    def ternary():
        c = binary(len(levels) - 1)
        if peek() != "?": return c
        take()
        a = ternary()
        if take() != ":": raise ValueError
        b = ternary()
        return a if c else b
    try:
        v = ternary()
        return v if pos == len(toks) else None
    except (ValueError, ZeroDivisionError, IndexError):
        return None


def _constants(code: str, defines: str = "") -> dict[str, str]:
    """The file's integer constants (`constexpr uint32_t N = 8 * 2048;`, `constexpr uint32_t M = (scenarioNum == 1) ?
    256 : 128;`), anywhere in it, with their values where they reduce to a number under the build's -D flags; the first
    definition of a name counts."""
    values: dict[str, str] = dict(re.findall(r"-D(\w+)=(-?\d+)\b", defines))
    raw: dict[str, str] = {}
    for name, expr in re.findall(r"\bconstexpr\s+(?:static\s+)?[\w:]+\s+(\w+)\s*=\s*([^;{}]+);", code):
        raw.setdefault(name, expr.strip())
    for name, expr in re.findall(r"(?m)^\s*#\s*define\s+(\w+)\s+([^\n]+)$", code):
        raw.setdefault(name, expr.strip())
    lambdas = _constexpr_lambdas(code)
    raw = {k: re.sub(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b", r"\1__\2", v) for k, v in raw.items()}   # cfg.splitM -> cfg__splitM
    for _ in range(6):   # names defined through other names
        for name, (fields, branches) in list(lambdas.items()):   # the branch whose condition holds gives the fields
            for cond, args in branches:
                c = 1 if cond is None else _eval_int(cond, values)
                if c is None: break   # a condition not known yet: try again on the next pass
                if c:
                    for f, a in zip(fields, args): raw.setdefault(f"{name}__{f}", a)
                    del lambdas[name]
                    break
        for name, expr in raw.items():
            if name in values: continue
            if re.fullmatch(r"-?\d+\.\d*f?", expr): values[name] = expr; continue
            v = _eval_int(expr, values)
            if v is not None: values[name] = str(v)
    return values


def _constexpr_lambdas(code: str) -> dict[str, tuple[list[str], list[tuple[str | None, list[str]]]]]:
    """The constants of a struct type that an immediately called constexpr lambda makes (`constexpr CaseConfig cfg =
    [=]() constexpr { if constexpr (SCENARIO == 0) { return CaseConfig{1, 1, len}; } else if ... else { ... } }();`):
    name -> (the struct's field names in order, [(condition or None for the final else, the returned values)])."""
    from ascendcraft.emu import past_close
    out = {}
    for m in re.finditer(r"\bconstexpr\s+(\w+)\s+(\w+)\s*=\s*\[[^\]]*\]\s*\(\s*\)\s*(?:constexpr\s*)?\{", code):
        struct = re.search(rf"\bstruct\s+{m.group(1)}\s*\{{([^{{}}]*)\}}", code)
        if not struct: continue
        fields = re.findall(r"(\w+)\s*(?:=[^;]*)?;", struct.group(1))
        body = code[m.end():past_close(code, m.end(), "{}") - 1]
        branches = [(cond, _split_args(args)) for cond, args in re.findall(
            r"(?:if\s+constexpr\s*\((.*?)\)\s*|else\s*)\{\s*return\s+(?:\w+\s*)?\{([^{}]*)\}\s*;\s*\}", body, re.S)]
        branches = [(c or None, a) for c, a in branches]
        if branches: out[m.group(2)] = (fields, branches)
    return out


def _balanced(text: str, at: int, brackets: str = "()") -> str:
    "The text inside the brackets (parentheses by default) that open at text[at] (to the end when they never close)."
    from ascendcraft.emu import past_close
    end = past_close(text, at + 1, brackets)
    closed = text.count(brackets[0], at, end) == text.count(brackets[1], at, end)
    return text[at + 1:end - 1] if closed else text[at + 1:]


def _split_args(text: str) -> list[str]:
    "Top-level comma-separated parts (commas inside (), <>, {} do not split)."
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += {"(": 1, "<": 1, "{": 1, ")": -1, ">": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0: out.append(cur.strip()); cur = ""
        else: cur += ch
    return [a for a in out + [cur.strip()] if a]


def _enclosing_template(code: str, at: int) -> tuple[str, list[str]] | None:
    "(name, template parameter names) of the template function whose body holds position `at`, if any."
    from ascendcraft.emu import past_close
    best = None
    for m in re.finditer(r"template\s*<([^<>]*)>\s*(?:static\s+|inline\s+)*[\w:<>,\s\*&]+?\b(\w+)\s*\([^;{]*\)\s*\{", code):
        if m.start() > at: break
        if past_close(code, m.end(), "{}") > at:
            best = (m.group(2), [p.split()[-1].split("=")[0] for p in _split_args(m.group(1)) if p.split()])
    return best


def _lambda_kernel(code: str, name: str, consts: dict[str, str]) -> str | None:
    """What `constexpr auto NAME = []() { if constexpr (C1) { return k1; } else if constexpr (C2) { return k2; } ...
    else { return kn; } }();` returns under the build's constants (a launch through such a lambda picks its kernel at
    compile time: asc-devkit matmul_high_performance); None when there is no such lambda or no branch can be decided."""
    from ascendcraft.emu import past_close
    m = re.search(rf"\bconstexpr\s+auto\s+{re.escape(name)}\s*=\s*\[[^\]]*\]\s*\(\s*\)\s*\{{", code)
    if not m: return None
    body = code[m.end():past_close(code, m.end(), "{}") - 1]
    pos = 0
    while True:
        branch = re.compile(r"(?:else\s+)?if\s+constexpr\s*\(|else\s*\{").search(body, pos)
        if not branch: return None
        if branch.group(0).startswith("else") and branch.group(0).endswith("{"):
            cond, start = 1, branch.end()
        else:
            close = past_close(body, branch.end(), "()")
            cond = _eval_int(body[branch.end():close - 1], consts)
            brace = body.find("{", close)
            if cond is None or brace < 0: return None
            start = brace + 1
        end = past_close(body, start, "{}")
        if cond:
            ret = re.search(r"\breturn\s+([^;]+);", body[start:end - 1])
            return " ".join(ret.group(1).split()) if ret else None
        pos = end


def asc_entry(text: str, defines: str = "", headers: str = "") -> str | None:
    """The kernel a single-source .asc file's host part launches first (`name<args><<<blocks, ...>>>(...)`), with its
    template arguments, as build()'s entry ('name' or 'name<args>'): the launch in main(), else the first launch in a
    host helper before it. A template argument that names an integer constant of the file (`constexpr uint32_t M =
    8 * 32;`) is replaced by its value; one that names a template parameter of the helper holding the launch
    (`template <typename T, uint32_t N> void run() { kernel<T, N><<<...>>>(); }`) takes the argument of the helper's
    call (`run<float, 256>()`); a type the call leaves to deduction is the element type of its first argument
    (`std::vector<float> x; kernel_add(x, y)`). `defines` are the build's -D flags (the example's scenario); `headers`
    the text of the example's own headers, whose constants count after the file's. None when the file launches nothing."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    main = re.search(r"(?m)^\s*(?:int|int32_t)\s+main\s*\(", code)
    pattern = r"\b((?:\w+::)*\w+)\s*(?:<((?:[^<>;]|<[^<>;]*>)*)>)?\s*<<\s*<"   # `<<<`, or spaced `<< <`
    launch = (re.search(pattern, code[main.start():]) if main else None)
    start = main.start() if launch else 0
    launch = launch or re.search(pattern, code)
    if not launch: return None
    kernel, targs = launch.group(1), launch.group(2)
    consts = _constants(code + "\n" + re.sub(r"//[^\n]*|/\*.*?\*/", "", headers, flags=re.S), defines)
    if targs is None:   # a kernel picked by a constexpr lambda (`selectedKernel<<<...>>>`): the branch the constants take
        chosen = _lambda_kernel(code, kernel, consts)
        if chosen is None: return kernel
        picked = re.fullmatch(r"(\w+)\s*(?:<(.*)>)?", chosen, re.S)
        if not picked: return kernel
        kernel, targs = picked.group(1), picked.group(2)
        if targs is None: return kernel
    args = _split_args(targs)
    helper = _enclosing_template(code, start + launch.start())
    if helper:
        name, params = helper
        call = re.search(rf"\b{name}\s*(?:<((?:[^<>;]|<[^<>;]*>)*)>)?\s*\(([^;]*)\)\s*;", code[start + launch.end():]) \
            or re.search(rf"\b{name}\s*(?:<((?:[^<>;]|<[^<>;]*>)*)>)?\s*\(([^;]*)\)\s*;", code[main.start():] if main else "")
        given = _split_args(call.group(1)) if call and call.group(1) else []
        bound = dict(zip(params, given))
        if call and len(given) < len(params) and call.group(2).strip():   # a type left to deduction: the first argument's
            first = call.group(2).split(",")[0].strip()
            decl = re.search(rf"\bstd::vector\s*<\s*([\w:]+)\s*>\s*&?\s*{re.escape(first)}\b", code[main.start():] if main else code)
            if decl:
                t = decl.group(1)
                alias = re.search(rf"\busing\s+{t}\s*=\s*([\w:]+)\s*;", code)
                bound.setdefault(params[len(given)], alias.group(1) if alias else t)
        args = [bound.get(a, a) for a in args]
    args = [re.sub(r"\b\w+\b", lambda m: consts.get(m.group(0), m.group(0)), a) for a in args]
    # a type the host code names through an alias (`using AType = int8_t;` in main()): the aliased type, since the
    # entry is instantiated outside main() (asc-devkit quant_group_matmul)
    aliases = dict(re.findall(r"\busing\s+(\w+)\s*=\s*([\w:]+)\s*;", code[main.start():] if main else code))
    args = [aliases.get(a.strip(), a) for a in args]
    # a type the host code takes from a generic lambda's argument (`using Holder = decltype(tiling_holder);` around the
    # launch: asc-devkit's AOT dispatch passes the holder of a compile-time tiling when the host's tiling bytes equal
    # one, else the runtime holder) is only known at run time: from that argument on, the kernel's own defaults (its
    # runtime form, which computes the same); a kernel without defaults there is reported by build()
    runtime_only = set(re.findall(r"\busing\s+(\w+)\s*=\s*decltype\s*\(", code))
    cut = next((i for i, a in enumerate(args) if a.strip() in runtime_only), None)
    if cut is not None:
        args = args[:cut]
        if not args: return kernel
    args = [a if _eval_int(a, consts) is None or re.fullmatch(r"\s*-?\d+\s*", a) else str(_eval_int(a, consts)) for a in args]
    return f"{kernel}<{', '.join(' '.join(a.split()) for a in args)}>"


def materialise(entry: dict, gitdir: str, dest: Path) -> Path:
    "Write the entry's files into dest: an op project (op_host/, op_kernel/) or a folder of kernel sources."
    kind, commit, path = entry["kind"], entry["commit"], entry["path"]
    if kind == "mkb-prompt":
        return write_project(answer_strings(show(gitdir, commit, path).decode(errors="replace")), dest)
    if kind == "blas-file":
        return materialise_blas(entry, gitdir, dest)
    if kind == "kernel-file":
        return materialise_kernel_file(entry, gitdir, dest)
    if kind == "asc-file":   # the kernels of a single-source file, and the headers beside it
        folder = posixpath.dirname(path)
        group = [path, *asc_target_siblings(gitdir, commit, path)]   # with the other .asc files its CMake target compiles
        texts = {posixpath.basename(f): asc_kernel_source(show(gitdir, commit, f).decode(errors="replace")) for f in group}
        # the emulator compiles the kernel's file into one program: a file with kernels takes the target's files
        # without kernels (device functions it calls) by an #include at its end, as the target's link would join them
        helpers = [n for n, t in texts.items() if not re.search(r"\b__global__\b", t)]
        for n, t in texts.items():
            extra = "".join(f'\n#include "{h}"' for h in helpers if h != n) if re.search(r"\b__global__\b", t) else ""
            (dest / n).write_text(t + extra)
        for f in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
            if f.endswith((".h", ".hpp")) and posixpath.basename(f) not in HOST_ONLY_INCLUDES:
                (dest / posixpath.basename(f)).write_bytes(show(gitdir, commit, f))
        return dest
    if kind == "op-project" and entry.get("layout") == "ophost":   # cann-ops-adv's layout (community.py)
        from community import materialise_ophost
        materialise_ophost(path, git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines(),
                           lambda f: show(gitdir, commit, f), dest)
        if entry["repo"] in COMMON_INCLUDES: _common_includes(entry, gitdir, dest)
        _underscore_renamed_headers(dest)
        return dest
    # an op project at the repository's root has the path "" (TJ12342/ascend_c_parctice): its files are the tree's
    prefix = path + "/" if path else ""
    files = git(gitdir, "ls-tree", "-r", "--name-only", commit, *(["--", prefix] if prefix else [])).splitlines()
    for f in files:
        rel = f[len(prefix):]
        # an op's op_graph/ headers (its IR, <op>_proto.h) come along: op_host sources include them by a relative path
        # (`#include "../op_graph/clipped_swiglu_proto.h"`, hicann ops-nn); its graph-fusion sources do not; the op's
        # CMakeLists.txt does, for the A2 kernel file its add_kernel_sources may name (opproject._cmake_kernel_file_for_a2)
        if kind == "op-project" and not (rel.startswith(("op_host/", "op_kernel/")) or rel == "CMakeLists.txt"
                                         or (rel.startswith("op_graph/") and rel.endswith((".h", ".hpp")))): continue
        if kind == "kernel-dir" and ("/" in rel or rel == "main.cpp" or not rel.endswith((".cpp", ".h"))): continue
        if "/.ipynb_checkpoints/" in "/" + rel: continue   # Jupyter's autosaves (KiaraStark's homework): no build source
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        text = show(gitdir, commit, f)
        out.write_bytes(restore_comment_openers(text) if entry["repo"] == "weich97/NPUKernelBench" else text)
    if kind == "op-project" and entry["repo"] in HOST_SOURCES_BUILT:   # the op_host sources its build compiles, no others
        import fnmatch
        for p in [p for p in (dest / "op_host").glob("*") if p.is_file() and p.suffix in (".cpp", ".cc")]:
            if not any(fnmatch.fnmatchcase(p.name, pat) for pat in HOST_SOURCES_BUILT[entry["repo"]]): p.unlink()
    if kind == "op-project" and path:   # (the folder rules: a project at the root has no folder above it)
        _sibling_headers(entry, gitdir, dest, files)
        _cmake_include_folders(entry, gitdir, dest, files)
        dependency_tiling(entry, gitdir, dest, files)
    if kind == "op-project" and path and entry["repo"] in ROOT_NAMED_HEADERS: _root_named_headers(entry, gitdir, dest, files)
    if kind == "op-project" and path:
        _close_sibling_headers(gitdir, commit, path, dest)
        _kernel_relative_includes(gitdir, commit, path, dest)
    if entry["repo"] in COMMON_INCLUDES: _common_includes(entry, gitdir, dest)
    if kind == "op-project" and any(r == entry["repo"] for r, _ in SUBMODULES): _submodule_includes(entry, gitdir, dest)
    if kind == "op-project" and path:   # foreach_abs -> ForeachAbs
        _drop_unreached_sibling_tiling(dest, "".join(w[:1].upper() + w[1:] for w in path.rsplit("/", 1)[-1].split("_")))
    if kind == "op-project": _underscore_renamed_headers(dest)
    return dest


# The op_host/*.cpp a repository's build compiles, where it does not compile them all: vllm-ascend's csrc/cmake/
# obj_func.cmake (add_modules_sources) globs op_host/*_def*.cpp (the definition), *_tiling*.cpp and *fallback*.cpp (the
# tiling target), *_infershape*.cpp and *_aicpu*.cpp; an op's *_proto.cpp (sparse_attn_sharedkv's names an
# InferDataType function nothing defines) and other sources (moe_grouped_matmul_cpu.cpp) are in no target.
HOST_SOURCES_BUILT = {"vllm-project/vllm-ascend": ("*_def*.cpp", "*_tiling*.cpp", "*fallback*.cpp", "*_infershape*.cpp",
                                                   "*_aicpu*.cpp")}
# flash-linear-attention-npu's cmake/obj_func.cmake is the same (a copy of ops-transformer's build)
HOST_SOURCES_BUILT["flashserve/flash-linear-attention-npu"] = HOST_SOURCES_BUILT["vllm-project/vllm-ascend"]


def _underscore_renamed_headers(dest: Path) -> None:
    """A header an op's source includes by a name no file has, where one file beside the source has that name but for
    its underscores: the file under the included name (a one-line header including it). EvoKernel's exports renamed
    each op's files by msopgen's spelling of the op (BAMCustom -> op_host/b_a_m_custom_tiling.h), while the host source,
    built on their 910B in MultiKernelBench's layout (bam_custom_tiling.h), includes the old name."""
    from ascendcraft.emu import INCLUDE_DIR
    for src in [p for p in dest.rglob("*") if p.is_file() and p.suffix in (".cpp", ".h", ".hpp")]:
        for name in set(re.findall(rb'#\s*include\s*"([^"/]+)"', src.read_bytes())):
            name = name.decode(errors="replace")
            if (src.parent / name).exists() or (INCLUDE_DIR / name).exists() or any(dest.rglob(name)): continue
            key = name.replace("_", "")
            near = [f for f in src.parent.iterdir() if f.is_file() and f.name != name and f.name.replace("_", "") == key]
            if len(near) == 1: (src.parent / name).write_text(f'#include "{near[0].name}"\n')


def _common_includes(entry: dict, gitdir: str, dest: Path) -> None:
    """The repository's shared headers (COMMON_INCLUDES) that the files in dest include, directly or through each other,
    copied to the folders of the entry's copy that stand for the include paths its build sets. Called again after
    `link_sources` brings in another op's host source, whose shared headers come along then (ops-nn mat_mul_v3's
    matmul_v3_base_tiling.cpp, linked into gemm_v2: `#include "op_host/tiling_key.h"` of common/inc)."""
    commit, path = entry["commit"], entry["path"]
    # (a root with a third element is on the include path of the ops under that folder only)
    roots = [r[:2] for r in COMMON_INCLUDES[entry["repo"]] if len(r) < 3 or path.startswith(r[2] + "/")]
    own_files = [p for p in dest.rglob("*") if p.is_file()]
    own = b"".join(p.read_bytes() for p in own_files)
    common = {}   # (root, repository path): (where it goes, text); a file under two roots goes to both places
    for root, into in roots:
        for f in git(gitdir, "ls-tree", "-r", "--name-only", commit, "--", root + "/").splitlines():
            # (ms_custom_ops' shared kernel sources are also .cce files and .inc fragments: asd/unpad_fa/*.cce)
            if f.endswith((".h", ".hpp", ".cce", ".inc")): common[root, f] = (dest / into / f[len(root) + 1:], show(gitdir, commit, f))
    # only the shared headers the op's sources include (directly or through each other): the emulator's build puts
    # every folder above a project header on the include path, and a folder deep in the tree (op_tiling/cube/)
    # would then shadow an SDK header of the same relative name (cube/platform/platform_info.h)
    rel = {(root, f): (into, f[len(root) + 1:]) for root, into in roots for r_, f in common if r_ == root}
    by_name, by_tail, by_place, by_repo = {}, {}, {}, {}
    for f, (into, r) in rel.items():
        by_repo.setdefault(f[1], []).append(f)   # by its repository path: a relative include across two roots
        by_name.setdefault(r, []).append(f)
        by_place.setdefault(f"{into}/{r}", []).append(f)   # where it is in the entry's copy
    # a name not found at its path under a root is found by its tail (the repository's build also puts folders
    # like src/common/inc/foreach/op_kernel on the path: `#include "foreach_triangle.h"`), unless the SDK has it
    for f, (into, r) in rel.items():
        for i in range(1, r.count("/") + 1): by_tail.setdefault(r.split("/", i)[-1], []).append(f)
    from ascendcraft.emu import INCLUDE_DIR
    include = re.compile(rb'#\s*include\s*[<"]([^>"]+)[>"]')
    # a quoted include the compiler finds beside the op's own including file is that file, not a shared header of the
    # same name (sgl-kernel-npu ada_block_sparse_attention's op_host/data_copy_transpose_tiling_def.h, a copy of
    # utils/inc/tiling/'s under another include guard: both copied, the kernel build saw the tiling struct twice)
    beside = {n for p in own_files for n in include.findall(p.read_bytes())
              if (p.parent / n.decode(errors="replace")).is_file()}
    needed, todo = set(), [(None, own)]
    while todo:
        at, text = todo.pop()
        for name in include.findall(text):
            if at is None and name in beside and not any(
                    name in include.findall(p.read_bytes()) and not (p.parent / name.decode(errors="replace")).is_file()
                    for p in own_files): continue
            name = name.decode(errors="replace")
            here = [] if at is None else (by_name.get(posixpath.normpath(posixpath.join(posixpath.dirname(rel[at][1]), name)), [])
                                          or by_repo.get(posixpath.normpath(posixpath.join(posixpath.dirname(at[1]), name)), []))
            if at is None and name.startswith("../"):   # the op's own file names a folder beside op_kernel/
                here = by_place.get(posixpath.normpath(posixpath.join("op_kernel", name)), [])
            found = here or by_name.get(name) or ([] if (INCLUDE_DIR / name).exists() else by_tail.get(name, []))
            for f in found:
                if f not in needed:
                    needed.add(f)
                    todo.append((f, common[f][1]))
    # ... and the tiling-struct headers that register the op's tiling data (the emulator's build adds those)
    op_dir = path.split("/answer/")[0] if "/answer/" in path else path
    op_type = "".join(w[:1].upper() + w[1:] for w in op_dir.rsplit("/", 1)[-1].split("_")).encode()   # foreach_abs -> ForeachAbs
    for f, (out, text) in common.items():
        registers = re.search(rb"REGISTER_TILING_DATA_CLASS\(\s*" + op_type + rb"\s*,", text) \
            and not any(f[0].startswith(r + "/") for r, _ in roots)   # once, not again from a root inside another
        if f not in needed and not registers: continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(_emulated_header(entry["repo"], f[1]) or text)
    for root, into in roots:
        # a header at the folder's top makes it an include directory of the emulator's build (-iquote)
        if (dest / into).is_dir(): (dest / into / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")


# A repository's shared header that stands for CANN's installed layout rather than for the repository's own code, and the
# emulated host's header that takes its place in the entry's copy. hicann ops-nn's legacy_common_manager.h is the loader
# of CANN's closed libophost_comm_legacy.so (found by dladdr beside libophost_nn.so); the emulated host links op_host
# code into the kernel program, where no such file is, and stands in for the library's functions itself
# (ascendcraft_emu/ophost_legacy.h: the op-cache preparation the matmul TilingParse functions call; GenTiling as an error
# naming it). The adapters that call the loader (common/src/op_host/*.cpp) are built from the repository unchanged.
EMULATED_HEADERS = {("hicann/ops-nn", "common/inc/legacy_common_manager.h"): "ascendcraft_emu/ophost_legacy.h"}


def _emulated_header(repo: str, path: str) -> bytes | None:
    "The forwarder that replaces the repository's header `path` in the entry's copy (EMULATED_HEADERS), or None."
    if (repo, path) not in EMULATED_HEADERS: return None
    return (f'// ascendcraft corpus: {path} of {repo} is the loader of CANN\'s installed legacy library; the emulated host '
            f'stands in for both\n#include "{EMULATED_HEADERS[repo, path]}"\n').encode()


# A repository's git submodules whose headers its ops include: (repository, the submodule's path in its tree) -> (the
# repository the submodule's url names, as mirrored here; the submodule's folders on the ops' include path; the first
# path parts of the includes that name it). vllm-ascend's csrc/third_party/catlass is gitcode's cann/catlass (hicann/catlass
# here); csrc/moe/chunk_fwd_o/op_host/CMakeLists.txt and csrc/mc2/dispatch_ffn_combine/op_host/CMakeLists.txt put its
# include/ on the ops' path (`#include "catlass/catlass.hpp"`, "tla/tensor.hpp"). The submodule's commit is the gitlink
# in the repository's tree at the entry's commit, so the manifest entry pins it too.
SUBMODULES = {("vllm-project/vllm-ascend", "csrc/third_party/catlass"): ("hicann/catlass", ("include",), ("catlass", "tla")),
              ("flashserve/flash-linear-attention-npu", "third_party/catlass"): ("hicann/catlass", ("include",), ("catlass", "tla"))}
# A dependency the repository's CMake fetches (FetchContent) instead of a submodule: (repository, the path SUBMODULES
# names) -> (the cmake file, the cache variable that holds the commit). flash-linear-attention-npu's
# cmake/third_party/catlass.cmake populates third_party/catlass from gitcode's cann/catlass at CATLASS_VENDOR_GIT_TAG, and
# its build copies include/ beside the kernels (cmake/func.cmake, add_ops_src_copy).
FETCHED_PINS = {("flashserve/flash-linear-attention-npu", "third_party/catlass"):
                ("cmake/third_party/catlass.cmake", "CATLASS_VENDOR_GIT_TAG")}
GITDIRS: dict[str, str] = {}   # `run --git OWNER/NAME=GITDIR`, every one given: where a submodule's repository is found


def submodule_commit(gitdir: str, commit: str, path: str) -> str | None:
    "The commit the tree at `commit` pins for the submodule at `path` (its gitlink), or None when it has none there."
    line = git(gitdir, "ls-tree", commit, "--", path).strip()
    parts = line.split()
    return parts[2] if len(parts) >= 3 and parts[0] == "160000" and parts[1] == "commit" else None


def fetched_commit(repo: str, gitdir: str, commit: str, path: str) -> str | None:
    """The commit the repository's CMake pins for the dependency it fetches to `path` (FETCHED_PINS: `set(VAR "<sha>"
    CACHE STRING ...)`), or None when it pins none there. A pin that names no 40-hex commit is an error naming the file."""
    if (repo, path) not in FETCHED_PINS: return None
    cmake, var = FETCHED_PINS[repo, path]
    text = show(gitdir, commit, cmake).decode(errors="replace")
    m = re.search(r"\bset\s*\(\s*" + re.escape(var) + r'\s+"?([0-9a-fA-F]{40})"?', text)
    if m is None: raise RuntimeError(f"{repo} {cmake}: no 40-hex commit in set({var} ...); update FETCHED_PINS in corpus.py")
    return m.group(1)


def _submodule_includes(entry: dict, gitdir: str, dest: Path) -> None:
    """The headers of a submodule (SUBMODULES) that the op's files include, directly or through each other, from the
    submodule repository's git dir (GITDIRS, `run --git`) at the commit the entry's tree pins: copied to
    `<submodule name>_<root>/` in the copy (an include folder of the emulator's build), at their paths under the root,
    so that their own relative includes resolve. An op that names the submodule's headers when its repository is not
    given is an error that says which --git it needs (never a silent miss)."""
    commit = entry["commit"]
    include = re.compile(rb'#\s*include\s*[<"]([^>"]+)[>"]')
    own = [p.read_bytes() for p in dest.rglob("*") if p.is_file() and p.suffix in (".cpp", ".h", ".hpp", ".inc", ".inl")]
    for (repo, sub), (sub_repo, roots, firsts) in SUBMODULES.items():
        if repo != entry["repo"]: continue
        names = {n.decode(errors="replace") for t in own for n in include.findall(t)}
        if not any(n.split("/", 1)[0] in firsts for n in names): continue
        pinned = submodule_commit(gitdir, commit, sub) or fetched_commit(repo, gitdir, commit, sub)
        if pinned is None: continue
        if sub_repo not in GITDIRS:
            raise RuntimeError(f"the op includes headers of the submodule {sub} ({sub_repo} at {pinned[:10]}): "
                               f"give its repository too, --git {sub_repo}=<git dir>")
        sub_git = GITDIRS[sub_repo]
        tree = set(_tree(sub_git, pinned))
        found, todo = {}, [(None, t) for t in own]
        while todo:
            at, text = todo.pop()
            for name in include.findall(text):
                name = name.decode(errors="replace")
                cands = ([posixpath.normpath(posixpath.join(posixpath.dirname(at), name))] if at else []) + \
                        [f"{r}/{name}" for r in roots]
                f = next((c for c in cands if c in tree and any(c.startswith(r + "/") for r in roots)), None)
                if f is None or f in found: continue
                root = next(r for r in roots if f.startswith(r + "/"))
                found[f] = dest / f"{posixpath.basename(sub)}_{root.replace('/', '_')}" / f[len(root) + 1:]
                todo.append((f, show(sub_git, pinned, f)))
        for f, out in found.items():
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(show(sub_git, pinned, f))
        for r in roots:
            top = dest / f"{posixpath.basename(sub)}_{r.replace('/', '_')}"
            if top.is_dir(): (top / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")


def _drop_unreached_sibling_tiling(dest: Path, op_type: str) -> None:
    """Another op's tiling-struct headers (BEGIN_TILING_DATA_DEF / REGISTER_TILING_DATA_CLASS) copied under SIBLINGS with
    their folder that none of the op's files includes, directly or through other headers, are removed: CANN's kernel
    build sees the tiling structs of the host sources it builds, while the emulator's adds every tiling header of the
    project before the kernel. hicann ops-nn foreach_abs's host includes foreach_utils' foreach_tiling_def.h; the
    folder's foreach_reduce_tiling_def.h (foreach_norm's) defines the same optiling::MAX_TENSOR_CONT and kept the kernel
    from compiling. A header that registers a struct for the op's type (REGISTER_TILING_DATA_CLASS(op_type, ...)) stays:
    foreach_add_scalar has no tiling source of its own, the shared foreach_utils one tiles it."""
    from ascendcraft.emu import blank_comments
    root = dest / SIBLINGS
    if not root.is_dir(): return
    files = {p.relative_to(dest).as_posix(): p for p in dest.rglob("*") if p.is_file()
             and p.suffix in (".h", ".hpp", ".hh", ".cpp", ".cc", ".inc")}
    texts = {n: blank_comments(p.read_text(errors="replace")) for n, p in files.items()}
    seen, todo = set(), [n for n in texts if not n.startswith(SIBLINGS + "/")]
    while todo:
        f = todo.pop()
        if f in seen: continue
        seen.add(f)
        for inc in re.findall(r'#\s*include\s*[<"]([^>"]+)[>"]', texts[f]):
            local = posixpath.normpath(posixpath.join(posixpath.dirname(f), inc))
            tail = re.sub(r"^(?:\.\./)+", "", posixpath.normpath(inc))   # by its name (../ dropped) under any folder
            todo += [local] if local in texts else [n for n in texts if n == tail or n.endswith("/" + tail)]
    for n in texts:
        if n.startswith(SIBLINGS + "/") and n not in seen and n.endswith((".h", ".hpp", ".hh")) \
                and re.search(r"\b(BEGIN_TILING_DATA_DEF|REGISTER_TILING_DATA_CLASS)\b", texts[n]) \
                and not re.search(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*" + re.escape(op_type) + r"\s*,", texts[n]):
            files[n].unlink()


SANITISED = b"// Implementation note."   # what NPUKernelBench's publishing put in place of each non-English comment line


def restore_comment_openers(text: bytes) -> bytes:
    """NPUKernelBench's published sources replaced each line of a non-English comment by `// Implementation note.`;
    where that line opened a block comment (`/* ...`), the block's `*/` is left without its opener and the lines
    between are read as code (DequantSwigluQuant's op_host: `x used mem: [...]`). A `*/` outside any comment gets its
    opener back on the nearest such line above it. A sanitised line between two lines of a macro definition (both
    ending in a backslash: BatchNormV3's BRC_IMPL) was a comment inside the macro, which compiled only as
    `/* ... */` and a backslash: it gets that form back, so the macro keeps its body. Every other byte stays as published."""
    if SANITISED not in text: return text
    lines = text.split(b"\n")
    for n in range(1, len(lines) - 1):
        if lines[n].strip() == SANITISED and lines[n - 1].rstrip().endswith(b"\\") and lines[n + 1].rstrip().endswith(b"\\"):
            lines[n] = lines[n].replace(SANITISED, b"/* Implementation note. */ \\", 1)
    in_comment, last_note = False, None
    for n, line in enumerate(lines):
        code = re.sub(rb'"(?:\\.|[^"\\])*"', b'""', line)
        i = 0
        while i < len(code):
            if in_comment:
                j = code.find(b"*/", i)
                if j < 0: break
                in_comment, i = False, j + 2
                continue
            starts = [k for k in (code.find(b"//", i), code.find(b"/*", i), code.find(b"*/", i)) if k >= 0]
            if not starts: break
            k = min(starts)
            if code.startswith(b"//", k):
                if line.strip() == SANITISED: last_note = n
                break
            if code.startswith(b"/*", k): in_comment, i = True, k + 2; continue
            if last_note is not None:   # a stray */: its block opened on the last sanitised line
                lines[last_note] = lines[last_note].replace(SANITISED, b"/* Implementation note.", 1)
                last_note = None
            i = k + 2
    return b"\n".join(lines)


def asc_target_siblings(gitdir: str, commit: str, path: str) -> list[str]:
    """The other .asc files of the CMake target (add_executable / add_library) that compiles `path`, in its folder:
    a kernel split over two files (02_features/04_compile/01_separate_compile: add_kernel.asc calls add_compute(),
    defined in add_compute.asc) links only as the target's files together."""
    folder, name = posixpath.dirname(path), posixpath.basename(path)
    try:
        cmake = show(gitdir, commit, f"{folder}/CMakeLists.txt").decode(errors="replace")
    except subprocess.CalledProcessError:
        return []
    cmake = re.sub(r"#[^\n]*", "", cmake)
    for body in re.findall(r"\badd_(?:executable|library)\s*\(([^)]*)\)", cmake):
        files = [f for f in body.split() if f.endswith(".asc")]
        if name in files: return [f"{folder}/{f}" for f in files if f != name]
    return []


SIBLINGS = "ascendcraft_corpus_repo"   # where another op's headers that an op names by a ../ path go


def _sibling_headers(entry: dict, gitdir: str, dest: Path, files: list[str]) -> None:
    """Headers of other ops that the op names by a path out of its folder (cann-ops circular_pad_grad:
    `#include "../../circular_pad/op_host/circular_pad_common.h"`): the folders they are in are copied to
    SIBLINGS/<their repository path>, and an include directory SIBLINGS/<the op's path>/op_host is made, and one at the
    folder of each op file that names such a path, from which g++ resolves the same ../ path (a quoted include is looked
    up in the includer's folder, then in each -iquote folder)."""
    commit, path = entry["commit"], entry["path"]
    folders, beside, named, includers = set(), set(), set(), {path + "/op_host"}
    for f in files:
        # the op's unit tests are not part of its build (foreach_acos's tests/ut/op_kernel/test_foreach_acos.cpp names
        # foreach_abs's test stand-in of the tiling struct, a plain struct the kernel build must not see)
        if not f.endswith((".h", ".hpp", ".cpp", ".cc")) or "/tests/" in f"/{f[len(path) + 1:]}": continue
        for name in re.findall(rb'#\s*include\s*"(\.\./[^"]+)"', show(gitdir, commit, f)):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(f), name.decode()))
            if not target.startswith(path + "/") and not target.startswith(".."):
                folders.add(posixpath.dirname(target))
                includers.add(posixpath.dirname(f))
            elif target.startswith(path + "/") and f.startswith(path + "/op_kernel/") and target not in files:
                beside.add(target[len(path) + 1:].split("/")[0])
                named.add(target[len(path) + 1:])
    _own_by_root_path(gitdir, commit, path, dest, files)
    own = {n for n in named if n.startswith("op_kernel/")}
    if own: _own_kernel_files_of_another_op(gitdir, commit, path, dest, own)
    if beside - {"op_kernel"}: _beside_kernel_folders(gitdir, commit, path, dest, beside - {"op_kernel"}, named)
    if not folders: return
    # the headers copied name others by ../ paths in turn (ops-nn swi_glu's `../../swi_glu_grad/op_host/...tiling_regbase.h`
    # includes `../op_kernel/arch35/swi_glu_grad_regbase_tiling.h`): their folders come along too, as the repository's
    # tree is all there in its own build
    done = set()
    while folders - done:
        folder = min(folders - done)
        done.add(folder)
        for g in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
            if g.endswith((".h", ".hpp")):
                out = dest / SIBLINGS / g
                out.parent.mkdir(parents=True, exist_ok=True)
                text = show(gitdir, commit, g)
                out.write_bytes(text)
                for name in re.findall(rb'#\s*include\s*"(\.\./[^"]+)"', text):
                    target = posixpath.normpath(posixpath.join(posixpath.dirname(g), name.decode()))
                    if not target.startswith(path + "/") and not target.startswith("..") and "/tests/" not in f"/{target}":
                        folders.add(posixpath.dirname(target))
    # one include folder at the depth of each file that names such a path (foreach_abs's op_host/arch22/ tiling source:
    # `#include "../../../foreach_utils/op_host/foreach_tiling_class.h"`, one level deeper than op_host/)
    for folder in includers:
        marker = dest / SIBLINGS / folder / "ascendcraft_corpus_include_root.h"
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("#pragma once\n")


def _cmake_include_folders(entry: dict, gitdir: str, dest: Path, files: list[str]) -> None:
    """Headers the op names by a path under another op's folder that its CMakeLists.txt puts on a target's include path
    with `target_include_directories(<target> ... ${CMAKE_SOURCE_DIR}/<folder> ...)`: cann-ops conv2d_backprop_input_v2's
    optiling target has src/conv/conv3d_backprop_input_v2/op_host (its tiling header includes
    "conv3d_backprop_input_v2_tiling.h", that op's file), conv2d_backprop_filter_v3's has src/conv/conv2d_transpose_v2/op_host
    ("base/context_maker/kernel_run_context_maker.h"). An include the compiler finds beside its includer or under the
    op's own folder is that file, as in CANN's build; one it does not, found at <folder>/<name> in the tree, is copied to
    SIBLINGS/<folder>/<name>, and a marker header makes SIBLINGS/<folder> an include folder of the emulator's build, so
    the name resolves there as it does from the CMake path; `_close_sibling_headers` then brings what the copies name beside
    them. Only another op's folder counts (the repository's shared folders are COMMON_INCLUDES' roots)."""
    commit, path = entry["commit"], entry["path"]
    cmake = f"{path}/CMakeLists.txt"
    if cmake not in files: return
    text = re.sub(r"#[^\n]*", "", show(gitdir, commit, cmake).decode(errors="replace"))
    tree = set(_tree(gitdir, commit))
    roots = {r[0] for r in COMMON_INCLUDES.get(entry["repo"], ())}
    folders = []
    for body in re.findall(r"\btarget_include_directories\s*\(\s*\w+([^)]*)\)", text):
        for folder in re.findall(r"\$\{CMAKE_SOURCE_DIR\}/([^\s)\"]+)", body):
            folder = posixpath.normpath(folder)
            # another op's folder: an op_host/ or op_kernel/ folder (or one below it) of a folder that is not the op's
            parts = folder.split("/")
            if folder in roots or folder == path or folder.startswith(path + "/") or folder in folders: continue
            if not any(p in ("op_host", "op_kernel") for p in parts[1:]): continue
            folders.append(folder)
    if not folders: return
    include = re.compile(rb'#\s*include\s*"([^"]+)"')
    own = [f for f in files if f.endswith((".h", ".hpp", ".cpp", ".cc")) and "/tests/" not in f"/{f[len(path) + 1:]}"]
    for f in own:
        for name in include.findall(show(gitdir, commit, f)):
            name = name.decode(errors="replace")
            if name.startswith("../") or posixpath.normpath(posixpath.join(posixpath.dirname(f), name)) in tree \
                    or f"{path}/op_host/{name}" in tree: continue
            for folder in folders:
                g = posixpath.normpath(f"{folder}/{name}")
                if g in tree and g.endswith((".h", ".hpp")):
                    out = dest / SIBLINGS / g
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(show(gitdir, commit, g))
                    # the CMake folder itself an include folder (a marker header), for a name with a folder in it
                    (dest / SIBLINGS / folder / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")
                    break


def _close_sibling_headers(gitdir: str, commit: str, path: str, dest: Path) -> None:
    """The headers of other ops copied under SIBLINGS name others by ../ paths in turn (conv3d_transpose_v2 gets
    conv3d_backprop_input_v2's op_host/op_tiling/arch22/ headers, which include `../common/conv_backprop_input_context_utils.h`):
    the headers of the folders those name come along too, until none is missing, as the repository's whole tree is
    there in its own build; so do those of a folder below the header's own that it names by a path from there, when
    the file is in the tree. A unit test's folder (tests/) and the op's own folder do not."""
    root = dest / SIBLINGS
    if not root.is_dir(): return
    todo = [p for p in root.rglob("*") if p.is_file() and p.suffix in (".h", ".hpp", ".inc")]   # .inc: linked sources
    folders = set()
    while todo:
        f = todo.pop()
        at = posixpath.dirname(f.relative_to(root).as_posix())
        for name in re.findall(rb'#\s*include\s*"([^"]+)"', f.read_bytes()):
            target = posixpath.normpath(posixpath.join(at, name.decode()))
            folder = posixpath.dirname(target)
            # the op's own file, named from another op's header by a path through the op's folder name (ops-transformer
            # attention/common/op_host/arch32/fia_tiling_nonquant_mla.h: `#include "../../../fused_infer_attention_score/
            # op_host/fused_infer_attention_score_tiling.h"`): a header at its place under SIBLINGS includes it
            if target.startswith(path + "/") and not (root / target).exists() and (dest / target[len(path) + 1:]).is_file():
                (root / target).parent.mkdir(parents=True, exist_ok=True)
                (root / target).write_text(f'#include "{"../" * (target.count("/") + 1)}{target[len(path) + 1:]}"'
                                           "   // the op's own file (ascendcraft corpus)\n")
                continue
            if target.startswith("..") or target.startswith(path + "/") or "/tests/" in f"/{target}" \
                    or (root / target).exists() or folder in folders: continue
            # a path down from the header's folder is found beside it first, as in the repository's tree (vllm-ascend
            # k2q_csr_common/op_host/k2q_csr_tiling_common.h: `#include "arch35/k2q_csr_tiling_arch35.h"`); else a path
            # from the repository's root, which SIBLINGS (on the include path) resolves as the root include folder of
            # the repository's build does (ops-nn transpose_batch_mat_mul_tiling.h:
            # `#include "matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_tiling.h"`)
            if not name.startswith(b"../") and target not in set(_tree(gitdir, commit)):
                target = posixpath.normpath(name.decode())
                folder = posixpath.dirname(target)
                if target not in set(_tree(gitdir, commit)) or target.startswith(path + "/") or "/tests/" in f"/{target}" \
                        or (root / target).exists() or folder in folders: continue
            folders.add(folder)
            for g in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
                out = root / g
                if not g.endswith((".h", ".hpp")) or out.exists(): continue
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(show(gitdir, commit, g))
                todo.append(out)


def _kernel_relative_includes(gitdir: str, commit: str, path: str, dest: Path) -> None:
    """Every file that the op's kernel sources include by a quoted path that resolves, from the including file's place
    in the repository, to a file of the repository (the first place g++ looks, so the one file the repository's own
    build reads), brought to the same place relative to it: the op's own files beside op_kernel/ go to <dest>/<the
    same path> (ops-transformer nsa_selected_attention_grad's `#include "../basic_modules/cube_op.h"`, and the
    cube_modules/ headers that one includes), another op's files to SIBLINGS/<their repository path>, whatever their
    kind (fused_infer_attention_score's `#include "../../incre_flash_attention/op_kernel/incre_flash_attention.cpp"`, and
    the headers that source names beside it and in folders below it), until nothing the files brought name is
    missing. An include directory SIBLINGS/<folder of an op file> (a marker header) makes g++ resolve such a path
    from the op's copy as it does in the repository (see `_sibling_headers`); the files brought under SIBLINGS resolve
    their own relative includes in place. A unit test's folder (tests/) never comes along."""
    present = set(_tree(gitdir, commit))
    todo = [(f"{path}/{p.relative_to(dest).as_posix()}", p) for p in sorted((dest / "op_kernel").rglob("*"))
            if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".cc", ".inc")] if (dest / "op_kernel").is_dir() else []
    # the op_host sources too, for the op's own files beside op_host/ only (vllm-ascend dequant_swiglu_quant's
    # `#include "../tiling_base/tiling_util.h"`: its own tiling_base/ folder); another op's files they name by a ../
    # path are `_sibling_headers`' part
    host = [(f"{path}/{p.relative_to(dest).as_posix()}", p) for p in sorted((dest / "op_host").rglob("*"))
            if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".cc")] if (dest / "op_host").is_dir() else []
    hosted = {at for at, _ in host}
    todo += host
    seen = {at for at, _ in todo}
    while todo:
        at, p = todo.pop(0)
        for name in re.findall(rb'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', p.read_bytes(), re.M):
            name = name.decode(errors="replace")
            target = posixpath.normpath(posixpath.join(posixpath.dirname(at), name))
            if target not in present or "/tests/" in f"/{target}": continue
            own = target.startswith(path + "/")
            leaves = at.startswith(path + "/") and posixpath.normpath(
                posixpath.join(posixpath.dirname(at[len(path) + 1:]), name)).startswith("..")
            if at in hosted and not (own and target.split("/")[len(path.split("/"))] not in ("op_host", "op_kernel")):
                # an op_host file naming the op's own op_host / op_kernel file by a path out of its folder and back in
                # (ops-transformer incre_flash_attention_tiling_impl.h: `#include
                # "../../incre_flash_attention/op_kernel/incre_flash_attention_tiling.h"`): the forward below, the file
                # itself being in the copy already (and read as the op's file, not as the host's)
                if own and leaves: _forward_leaving_path(dest, path, at, target, own)
                continue
            if at in hosted: hosted.add(target)
            if leaves: _forward_leaving_path(dest, path, at, target, own)
            if target in seen: continue
            seen.add(target)
            out = dest / target[len(path) + 1:] if own else dest / SIBLINGS / target
            if not out.exists():
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(show(gitdir, commit, target))
            todo.append((target, out))


def _forward_leaving_path(dest: Path, path: str, at: str, target: str, own: bool) -> None:
    """An include of `target` from the op's file `at` by a path that leaves the op's copy: g++ finds it from an include
    directory at the includer's depth (a marker header at SIBLINGS/<at's folder>), and an op's own file named this way
    (ops-transformer mc2/3rd/mat_mul_v3's batch_mat_mul_nd2nz.h: `#include "../../mat_mul_v3/op_kernel/mat_mul_nd2nz_util.h"`)
    by a header there that includes it."""
    marker = dest / SIBLINGS / posixpath.dirname(at) / "ascendcraft_corpus_include_root.h"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("#pragma once\n")
    forward = dest / SIBLINGS / target
    if own and not forward.exists():
        forward.parent.mkdir(parents=True, exist_ok=True)
        up = "../" * (target.count("/") + 1)
        forward.write_text(f'#include "{up}{target[len(path) + 1:]}"   // the op\'s own file (ascendcraft corpus)\n')


def _own_by_root_path(gitdir: str, commit: str, path: str, dest: Path, files: list[str]) -> None:
    """An op's file named by its path from an include folder of the repository's build (ops-nn add_example's op_host:
    `#include "examples/add_example/op_kernel/add_example_tiling_data.h"`, from the repository's root; experimental
    gelu_grad's `#include "gelu_grad/op_kernel/gelu_grad_tiling_data.h"`, from its category folder): a header at
    SIBLINGS/<that name> includes the op's own file, so that the name resolves (SIBLINGS is on the include path) to the
    one file the kernel includes as well."""
    have = {f[len(path) + 1:] for f in files}
    for f in files:
        if not f.endswith((".h", ".hpp", ".cpp", ".cc")): continue
        for name in re.findall(rb'#\s*include\s*"([^"./][^"]*)"', show(gitdir, commit, f)):
            name = name.decode()
            m = re.match(r"(.+?)/(op_kernel|op_host|op_graph)/(.+)$", name)
            if not m or not (path == m.group(1) or path.endswith("/" + m.group(1))): continue
            own = f"{m.group(2)}/{m.group(3)}"
            if own not in have: continue
            out = dest / SIBLINGS / name
            if out.exists(): continue
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(f'#include "{"../" * (name.count("/") + 1)}{own}"   // the op\'s own file (ascendcraft corpus)\n')


LINKED = "ascendcraft_linked"   # op_host/<LINKED>_<k>.cpp: a forwarder to another folder's host source the link needs


@functools.lru_cache(maxsize=8)
def _tree(gitdir: str, commit: str) -> tuple[str, ...]:
    return tuple(git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines())


@functools.lru_cache(maxsize=64)   # asked for the op's tiling, its headers and its link candidates
def dependencies(gitdir: str, commit: str, path: str) -> tuple[str, ...]:
    """The repository folders of the ops that the op's op_host/CMakeLists.txt (or its own CMakeLists.txt, where the op
    keeps its build file at its root) names as `add_modules_sources(... DEPENDENCIES a b)` (hicann ops-nn foreach_copy:
    foreach_utils), each found in the op's category first, else anywhere in the repository; and the folders it names
    as `set(<op>_depends a/b c/d ...)` (hicann ops-transformer mla_prolog_v2: attention/mla_prolog), by their path."""
    tree = _tree(gitdir, commit)
    present, deps, folders = set(tree), [], []
    # the call is in op_host/CMakeLists.txt, or in the op's own CMakeLists.txt for an op whose build file sits at its
    # root with DIR the op's folder (ops-nn rnn/dynamic_rnn, which dynamic_rnnv2 names)
    for cmake in (path + "/op_host/CMakeLists.txt", path + "/CMakeLists.txt"):
        if cmake not in present: continue
        text = show(gitdir, commit, cmake).decode(errors="replace")
        # (or add_all_modules_sources, the form without HOSTNAME / DIR: ops-nn matmul/gemm_v2 names mat_mul_v3 so)
        for args in re.findall(r"\badd_(?:all_)?modules_sources\s*\(([^)]*)\)", text):
            m = re.search(r"\bDEPENDENCIES\b((?:\s+[\w.-]+)+)", args)
            for d in (m.group(1).split() if m else []):
                if re.fullmatch(r"[A-Z_]+", d): break   # the next keyword of the call
                deps.append(d)
        # ops-transformer's form: `set(<op>_depends attention/mla_prolog attention/common CACHE INTERNAL "...")` (or
        # `... PARENT_SCOPE)`), folders by their path from the top of the build (cmake/func.cmake's
        # op_add_depend_directory adds them to the build, add_ops_src_copy copies their sources beside the op's)
        name = re.escape(path.rsplit("/", 1)[-1])
        for args in re.findall(rf"\bset\s*\(\s*{name}_depends\b([^)]*)\)", text):
            for d in args.split():
                if d in ("CACHE", "PARENT_SCOPE") or d.startswith('"'): break   # the value ends at set()'s keywords
                if "$" in d: continue   # a variable: not a folder to read here
                folders.append(d.strip("/"))
    category, found = path.split("/")[0], []
    for d in dict.fromkeys(deps):   # the named op's folder (one with an op_host/ folder of that op's name)
        homes = sorted({m.group(1) for f in tree if (m := re.match(rf"((?:[^/]+/)*{re.escape(d)})/op_host/[^/]", f))},
                       key=lambda h: (not h.startswith(category + "/"), h.count("/"), h))
        if homes and homes[0] != path and homes[0] not in found: found.append(homes[0])
    # a `_depends` folder is a path from the top of the op's build tree: the repository's root, or a folder above the
    # op (vllm-ascend's csrc/), the nearest that has it
    parts = path.split("/")
    tops = ["/".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)] + [""]
    for d in dict.fromkeys(folders):
        home = next((h for h in (f"{t}/{d}" if t else d for t in tops) if any(f.startswith(h + "/") for f in tree)), None)
        if home and home != path and home not in found: found.append(home)
    return tuple(found)


def dependency_closure(gitdir: str, commit: str, path: str) -> tuple[str, ...]:
    """The op's DEPENDENCIES (`dependencies`), theirs, and so on, nearest first: ops-nn's build resolves them so
    (scripts/util/dependency_parser.py, `find_all_dependency`, recursive), and a dependency's host sources call their
    own dependencies' (fused_quant_mat_mul names quant_batch_matmul_v3, whose tiling calls transpose_batch_mat_mul's
    pp_matmul and einsum tilings; quant_batch_matmul_v3 names transpose_batch_mat_mul, fused_quant_mat_mul does not)."""
    found, todo = [], [path]
    while todo:
        for d in dependencies(gitdir, commit, todo.pop(0)):
            if d != path and d not in found:
                found.append(d)
                todo.append(d)
    return tuple(found)


def link_candidates(gitdir: str, commit: str, path: str, repo: str | None = None) -> list[str]:
    """The host sources built into the same target as the op's own in its repository's build (hicann ops-nn: every
    op_host folder's sources join one library; an op's op_host/CMakeLists.txt names the ops it needs as
    `add_modules_sources(... DEPENDENCIES a b)`, and its category's `common/op_host` folder holds the shared sources,
    conv/common/op_host/op_tiling/conv_platform_util.cpp): the .cpp files of those folders, without aclnn / l0op code
    (op_api/), unit tests and another op's definition (OP_ADD)."""
    tree = _tree(gitdir, commit)
    folders = [f"{path.split('/')[0]}/common/op_host/"] + [d + "/op_host/" for d in dependency_closure(gitdir, commit, path)]
    # ... and the repository's common/src/*.cpp and common/src/op_host/*.cpp, which ops-nn's build adds to every op's
    # tiling target when it builds against an installed CANN (cmake/func.cmake, COMMON_SRC, with NN_ENABLE_DLOPEN_LEGACY:
    # BUILD_DEFINES): the adapters Ops::NN::GenTiling / QueryBank / TilingPrepareForOpCache over CANN's legacy library
    flat = [f for f in tree if posixpath.dirname(f) in COMMON_SOURCES.get(repo, ("common/src", "common/src/op_host"))
            and f.endswith((".cpp", ".cc"))]
    own = [f for folder in folders for f in tree
           if f.startswith(folder) and f.endswith((".cpp", ".cc")) and "/op_api/" not in f and "/tests/" not in f"/{f}"
           and not re.search(rb"\bOP_ADD\s*\(", show(gitdir, commit, f))] + flat
    # a repository whose ops' CMakeLists.txt add their tiling sources to one shared `optiling` target (cann-ops: every
    # op's `target_sources(optiling PRIVATE ...)` joins one library, so batch_mat_mul_v3's tiling links mat_mul_v3's
    # MatmulV3BaseTiling): the other ops' listed sources, after the folders above
    return own + [f for f in optiling_sources(gitdir, commit) if f not in own and not f.startswith(path + "/")
                  and "/op_api/" not in f and not re.search(rb"\bOP_ADD\s*\(", show(gitdir, commit, f))]


# The shared host-source folders a repository's build compiles into every op's tiling target (link_candidates), where
# they are not ops-nn's common/src and common/src/op_host: vllm-ascend's csrc/common/CMakeLists.txt globs
# src/tiling_base/*.cpp and src/*.cpp into its common object library (Ops::Transformer::OpTiling::EnsureNotScalar).
# hicann ops-transformer: every op's tiling sources join one ${OPHOST_NAME}_tiling_obj, and cmake/obj_func.cmake's
# add_mc2_modules_sources adds mc2/common/src/*.cpp and mc2/3rd/ops_legacy/op_tiling/*.cpp to it (the stub
# RuntimeKb::QueryBank that mc2/3rd/mat_mul_v3's MatmulV3BaseTiling calls).
COMMON_SOURCES = {"vllm-project/vllm-ascend": ("csrc/common/src", "csrc/common/src/tiling_base"),
                  "flashserve/flash-linear-attention-npu": ("common/src", "common/src/tiling_base"),
                  "hicann/ops-transformer": ("common/src", "common/src/op_host", "mc2/common/src",
                                             "mc2/3rd/ops_legacy/op_tiling")}


@functools.lru_cache(maxsize=8)
def optiling_sources(gitdir: str, commit: str) -> tuple[str, ...]:
    """The host sources every CMakeLists.txt of the repository adds to the `optiling` target with
    `target_sources(optiling [PRIVATE|PUBLIC] ...)`: paths relative to that file's folder, and `${VAR}` of a
    `file(GLOB[_RECURSE] VAR patterns...)` in the same file (cann-ops conv2d_backprop_filter_v3:
    `"../../common/op_host/op_tiling/*.cc"`, `../conv2d_transpose_v2/op_host/base/context_maker/kernel_run_context_maker.cc`),
    and a path under `${CMAKE_CURRENT_SOURCE_DIR}` or under a folder variable the root CMakeLists.txt sets, which every
    folder's file sees (cann-ops: `set(OP_COMMON_DIR ${CMAKE_CURRENT_SOURCE_DIR}/src/common)`, and every foreach op's
    `${OP_COMMON_DIR}/src/foreach/op_tiling/foreach_tiling_func.cpp`, which holds their tiling functions)."""
    import fnmatch
    tree = _tree(gitdir, commit)
    present, out = set(tree), []
    # only the build files that name both words are read: one `git grep` over the commit, not a `git show` of each of its
    # CMakeLists.txt (hicann ops-nn: 4,292 of them, none naming the target, about 90 s of every link round's first call)
    grep = subprocess.run(["git", "--git-dir", gitdir, "grep", "-l", "--all-match", "-F", "-e", "target_sources",
                           "-e", "optiling", commit, "--", "*CMakeLists.txt"], capture_output=True, text=True)
    if grep.returncode not in (0, 1): raise subprocess.CalledProcessError(grep.returncode, grep.args, grep.stdout, grep.stderr)
    naming = {line.split(":", 1)[1] for line in grep.stdout.splitlines()}
    # the root file's `set(VAR ${CMAKE_CURRENT_SOURCE_DIR}/folder)`: VAR's folder, from the repository's root ("/")
    top = re.sub(r"#[^\n]*", "", show(gitdir, commit, "CMakeLists.txt").decode(errors="replace")) \
        if "CMakeLists.txt" in present else ""
    folders = {var: "/" + rest.strip("/") for var, rest in
               re.findall(r"\bset\s*\(\s*(\w+)\s+\$\{CMAKE_CURRENT_SOURCE_DIR\}(/[^\s)$]*)?\s*\)", top)}
    for cm in (f for f in tree if posixpath.basename(f) == "CMakeLists.txt" and f in naming):
        text = re.sub(r"#[^\n]*", "", show(gitdir, commit, cm).decode(errors="replace"))
        # the grep matched the words anywhere, comments included; only a file that names both outside its comments
        # (stripped above) names the target: the check stays, and costs nothing beside the grep's saving
        if "target_sources" not in text or "optiling" not in text: continue
        here = posixpath.dirname(cm)
        globs = {}
        for kind, var, pats in re.findall(r"\bfile\s*\(\s*(GLOB(?:_RECURSE)?)\s+(\w+)([^)]*)\)", text):
            globs[var] = (kind, [q for q in re.findall(r'"([^"]+)"|(\S+)', pats) for q in q if q])
        for body in re.findall(r"\btarget_sources\s*\(\s*optiling\b([^)]*)\)", text):
            for item in body.split():
                if item in ("PRIVATE", "PUBLIC", "INTERFACE"): continue
                var = re.fullmatch(r"\$\{(\w+)\}", item)
                if var:
                    kind, pats = globs.get(var.group(1), ("", []))
                    for pat in pats:
                        full = posixpath.normpath(posixpath.join(here, pat))
                        folder, name = posixpath.dirname(full), posixpath.basename(full)
                        out += [f for f in tree if fnmatch.fnmatchcase(posixpath.basename(f), name) and (
                            posixpath.dirname(f) == folder or (kind == "GLOB_RECURSE" and f.startswith(folder + "/")))]
                    continue
                item = re.sub(r"\$\{(\w+)\}", lambda m: "/" + here if m.group(1) == "CMAKE_CURRENT_SOURCE_DIR"
                              else folders.get(m.group(1), m.group(0)), item)
                if "$" not in item:
                    f = posixpath.normpath(posixpath.join("/" + here, item)).lstrip("/")
                    if f in present: out.append(f)
    return tuple(f for f in dict.fromkeys(out) if f.endswith((".cpp", ".cc")))


def _undefined(log: str) -> set[str]:
    "The symbols a failed link names as undefined (demangled, as g++ prints them)."
    return set(re.findall(r"undefined reference to [`'‘](.+?)['’]", log))


def _defines(text: str, symbol: str) -> bool:
    """Whether a source defines the (demangled) symbol: `vtable for C` / `typeinfo for C` by a member function of C
    defined out of the class (`C::f(...) {`), a function `A::C::f(args)` by `C::f(...) {`, or by `f(...) {` inside a
    `namespace C` block."""
    from ascendcraft.emu import blank_comments
    code = blank_comments(text)
    m = re.match(r"(?:vtable|typeinfo|typeinfo name) for (.+)$", symbol)
    if m:
        cls = re.sub(r"<.*", "", m.group(1)).split("::")[-1]
        return bool(re.search(rf"\b{re.escape(cls)}\s*::\s*~?\w+\s*\([^;{{}}]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{{", code))
    name = re.sub(r"\(.*", "", symbol)   # the qualified name, without the parameter list
    name = re.sub(r"\[abi:\w+\]", "", name)   # and without g++'s ABI tag (`f[abi:cxx11]`: a function returning std::string)
    if "<" in name or "operator" in name: return False
    parts = name.split("::")
    body = r"\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{"
    if len(parts) > 1 and re.search(rf"\b{re.escape(parts[-2])}\s*::\s*{re.escape(parts[-1])}{body}", code): return True
    # or a DEFINE_ macro whose first argument names it, at a line's start (cann-ops cube/algorithm/cache_tiling_impl.cc:
    # `DEFINE_REGISTRY_TYPE(CacheTilingFactory, CacheTilingImpl, ...)` writes the function CacheTilingFactory())
    macro = re.search(rf"^[ \t]*DEFINE_\w*\s*\(\s*{re.escape(parts[-1])}\s*[,)]", code, re.M)
    # (not a `static` function: file-local, it defines nothing another unit links to; cann-ops group_norm_silu_tiling.cpp's
    # `inline static int64_t Lcm(...)` is not the optiling::Lcm that cube_tiling_runtime.h declares)
    free = [m for m in re.finditer(rf"(?<![\w:.>])\b{re.escape(parts[-1])}{body}", code)
            if not re.search(r"\bstatic\b", code[max(code.rfind(c, 0, m.start()) for c in ";{}") + 1:m.start()])]
    return bool(macro or free) and \
        (len(parts) == 1 or bool(re.search(rf"\bnamespace\s+{re.escape(parts[-2])}\b", code)))


def link_sources(entry: dict, gitdir: str, dest: Path, log: str, have: set[str]) -> list[str]:
    """Bring in, for a host build that failed to link, the host sources of the same build target (`link_candidates`)
    that define a symbol the link names as undefined: each is copied to SIBLINGS/<its repository path>.inc (with its
    folder's headers, and the ../ headers they name, as `_close_sibling_headers` does), and op_host/<LINKED>_<k>.cpp
    includes it, so that the op-project build compiles it as one more op_host source of its own. `have`: the
    repository paths already brought in (updated). Returns the newly brought ones."""
    commit, path = entry["commit"], entry["path"]
    wanted, added = _undefined(log), []
    # (a project at the repository's root, or in cann-ops-adv's layout, has no build target's folders to look in)
    if not wanted or not path or entry.get("layout"): return added
    for f in link_candidates(gitdir, commit, path, entry["repo"]):
        if f in have or (dest / SIBLINGS / (f + ".inc")).exists(): continue
        text = show(gitdir, commit, f).decode(errors="replace")
        if not any(_defines(text, s) for s in wanted): continue
        have.add(f)
        added.append(f)
        _link_in(f, text, entry, gitdir, dest)
    if added:
        _close_sibling_headers(gitdir, commit, path, dest)
        if entry["repo"] in ROOT_NAMED_HEADERS: _linked_root_named_headers(entry, gitdir, dest, added)
        if entry["repo"] in COMMON_INCLUDES: _common_includes(entry, gitdir, dest)
    return added


# A bound on link_until_settled's rounds that only a runaway would reach: each round brings at least one new source of
# the build target, so the rounds end by themselves when its candidates run out (ops-nn fused_quant_mat_mul needed more
# than the five rounds the harness allowed before).
LINK_ROUNDS_MAX = 40


def link_until_settled(entry: dict, gitdir: str, dest: Path, build, rebuild, have: set[str]):
    """A host build's link rounds until they settle: while the link misses symbols, bring the build target's sources that
    define them (`link_sources`) and build again. A source brought in a round can miss symbols of its own, which only
    the next link names (ops-nn fused_quant_mat_mul: quant_batch_matmul_v3's tiling, then transpose_batch_mat_mul's,
    then pp_matmul's ...), so the rounds go on until a round brings nothing new; a build that then fails for another
    reason than a missing symbol stops them with that error. `build`: the first build; `rebuild()`: the next one;
    `have`: the sources brought (updated). Returns (the last build, "" or the sentence naming what the link still
    misses and why the rounds stopped)."""
    rounds = 0
    while not build.ok and entry["kind"] == "op-project" and rounds < LINK_ROUNDS_MAX:
        if not link_sources(entry, gitdir, dest, build.log, have): break
        rounds += 1
        again = rebuild()
        if not again.ok and "undefined reference" not in again.log: break   # the first error stands
        build = again
    missing = sorted(_undefined(build.log)) if not build.ok else []
    if not missing: return build, ""
    why = (f"the bound of {LINK_ROUNDS_MAX} link rounds reached" if rounds >= LINK_ROUNDS_MAX
           else "defined by no host source of the op's build target")
    shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
    return build, f"after {rounds} link round{'s' * (rounds != 1)}, still undefined ({why}): {shown}"


def _linked_root_named_headers(entry: dict, gitdir: str, dest: Path, added: list[str]) -> None:
    """The root-named headers (`_root_named_headers`) of the sources `link_sources` brought in and of their folders'
    headers, and then of every header those bring under SIBLINGS in turn (by a root name, or by a ../ path that
    `_close_sibling_headers` follows), until none is new. ops-nn fused_quant_mat_mul links quant_batch_matmul_v3's
    tiling, whose arch20/ header reaches `../../../../transpose_batch_mat_mul/op_host/op_tiling/
    transpose_batch_mat_mul_tiling.h`, which names `matmul/mat_mul_v3/op_host/op_tiling/matmul_v3_tiling.h` from the
    root: without it that unit did not compile, and the link try holding platform_util.cpp (its
    PlatformUtil::ParseRuntimePlatformInfo) was passed over."""
    commit, root = entry["commit"], dest / SIBLINGS
    listing = set(_tree(gitdir, commit))
    files, done = list(added) + _folder_headers(gitdir, commit, added), set()
    while todo := [f for f in files if f not in done]:
        done.update(todo)
        _root_named_headers(entry, gitdir, dest, todo)
        _close_sibling_headers(gitdir, commit, entry["path"], dest)
        _sibling_kernel_neighbours(gitdir, commit, dest)
        files = sorted(g for p in root.rglob("*") if p.is_file() and p.suffix in (".h", ".hpp")
                       and (g := p.relative_to(root).as_posix()) in listing)


def _sibling_kernel_neighbours(gitdir: str, commit: str, dest: Path) -> None:
    """Another op's kernel header under SIBLINGS (brought by a linked host source) may name a third op's kernel header
    as `../<op>/<file>`, the kernel build's layout, where every op's op_kernel/ folder sits under the op's name
    (`_beside_kernel_folders`): ops-nn batch_mat_mul_v3/op_kernel/batch_mat_mul_v3_tiling_data.h names
    `../mat_mul_v3/mat_mul_v3_tiling_data.h`. Where that path is no file of the repository and the op of that name in
    the same category has the file in its op_kernel/, that folder's headers go to the folder the path resolves to,
    and so on for the headers they name the same way."""
    root, tree = dest / SIBLINGS, set(_tree(gitdir, commit))
    todo = [p for p in root.rglob("*.h") if p.is_file() and p.parent.name == "op_kernel"]   # at an op_kernel/'s top
    while todo:
        p = todo.pop()
        at = posixpath.dirname(p.relative_to(root).as_posix())
        for other, rest in re.findall(rb'#\s*include\s*"\.\./(\w+)/([^"]+)"', p.read_bytes()):
            other, rest = other.decode(), rest.decode()
            target = posixpath.normpath(posixpath.join(at, "..", other, rest))
            source = posixpath.join(posixpath.dirname(posixpath.dirname(at)), other, "op_kernel", rest)
            if target in tree or (root / target).exists() or source not in tree: continue
            folder = posixpath.dirname(source)
            for g in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
                out = root / posixpath.dirname(target) / posixpath.relpath(g, folder)
                if not g.endswith((".h", ".hpp")) or out.exists(): continue
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(show(gitdir, commit, g))
                todo.append(out)   # (a copy's folder stands for an op_kernel/ folder in that layout)


def _folder_headers(gitdir: str, commit: str, files: list[str]) -> list[str]:
    "The headers beside `files` in their folders (which `_link_in` copies with them), whose own includes count too."
    return sorted({g for d in {posixpath.dirname(f) for f in files}
                   for g in git(gitdir, "ls-tree", "--name-only", commit, "--", d + "/").splitlines()
                   if g.endswith((".h", ".hpp"))})


def _link_in(f: str, text: str, entry: dict, gitdir: str, dest: Path) -> None:
    """Another folder's host source `f` (its `text`) as one more op_host source of the op: copied to
    SIBLINGS/<f>.inc with its folder's headers, and included by op_host/<LINKED>_<k>.cpp."""
    commit, path = entry["commit"], entry["path"]
    out = dest / SIBLINGS / (f + ".inc")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    folder = posixpath.dirname(f)
    for g in git(gitdir, "ls-tree", "--name-only", commit, "--", folder + "/").splitlines():
        if g.endswith((".h", ".hpp")) and not (dest / SIBLINGS / g).exists():
            (dest / SIBLINGS / g).write_bytes(show(gitdir, commit, g))
    # a ../ name of the op's own file (swi_glu_grad's `../../swi_glu/op_host/swi_glu_tiling.h`): a header there
    # includes the op's copy, so that both names are one file
    for name in re.findall(r'#\s*include\s*"(\.\./[^"]+)"', text):
        target = posixpath.normpath(posixpath.join(folder, name))
        own = target[len(path) + 1:]
        if target.startswith(path + "/") and (dest / own).is_file() and not (dest / SIBLINGS / target).exists():
            (dest / SIBLINGS / target).parent.mkdir(parents=True, exist_ok=True)
            (dest / SIBLINGS / target).write_text(f'#include "{"../" * (target.count("/") + 1)}{own}"   // the op\'s own file (ascendcraft corpus)\n')
    # an Ascend 950 source's forwarder goes to op_host/arch35/, so that the project build's A2-first tries leave it out
    # as they leave out the op's own arch35 sources (ops-nn mat_mul_v3 links batch_mat_mul_v3's arch35
    # batch_matmul_v3_tiling_advanced.cpp beside the Ops::NN adapters; it does not compile with the emulated SDK and
    # took the adapters' try down with it)
    where = dest / "op_host" / ("arch35" if "arch35" in f.split("/") else "")
    where.mkdir(parents=True, exist_ok=True)
    k = len(list((dest / "op_host").rglob(f"{LINKED}_*.cpp")))
    up = "../" * (1 + (where != dest / "op_host"))
    (where / f"{LINKED}_{k}.cpp").write_text(
        f"// ascendcraft corpus: {f}, a host source of the same build target\n#include \"{up}{SIBLINGS}/{f}.inc\"\n")


def _dependency_headers(entry: dict, gitdir: str, dest: Path, own: list[str]) -> None:
    """A dependency's op_host headers that the op's host sources (`own`, their texts) name by their bare name
    (foreach_copy's `#include "foreach_tiling_class.h"`: its build puts foreach_utils/op_host on the include path): that
    folder's headers are copied to SIBLINGS/<its path>, made an include folder."""
    commit, path = entry["commit"], entry["path"]
    named = {n for t in own for n in re.findall(r'#\s*include\s*"([^"./][^"]*)"', t)}
    for dep in dependencies(gitdir, commit, path):
        headers = [g for g in git(gitdir, "ls-tree", "--name-only", commit, "--", dep + "/op_host/").splitlines()
                   if g.endswith((".h", ".hpp"))]
        if not named & {posixpath.basename(g) for g in headers}: continue
        for g in headers:
            out = dest / SIBLINGS / g
            out.parent.mkdir(parents=True, exist_ok=True)
            if not out.exists(): out.write_bytes(show(gitdir, commit, g))
        (dest / SIBLINGS / dep / "op_host" / "ascendcraft_corpus_include_root.h").write_text("#pragma once\n")


def dependency_tiling(entry: dict, gitdir: str, dest: Path, files: list[str]) -> list[str]:
    """An op whose own op_host sources register no tiling function, while a host source of its build target registers
    one for its type (hicann ops-nn foreach_add_scalar: its op_host holds only the definition; its CMakeLists.txt names
    `DEPENDENCIES foreach_utils`, whose foreach_tiling_func.cpp has `IMPL_OP_OPTILING(ForeachAddScalar)` and includes
    the tiling struct's header): that source is brought in as `link_sources` brings one a link misses, so the project
    has its tiling function and the kernel its struct, as in CANN's build. Returns the sources brought in."""
    from ascendcraft.emu import blank_comments
    commit, path = entry["commit"], entry["path"]
    own = [blank_comments(show(gitdir, commit, f).decode(errors="replace")) for f in files
           if f.startswith(path + "/op_host/") and f.endswith((".cpp", ".cc")) and "/op_api/" not in f
           and "/tests/" not in f"/{f[len(path) + 1:]}"]
    _dependency_headers(entry, gitdir, dest, own)
    if any(re.search(r"\bIMPL_OP_OPTILING\s*\(|\.SetTiling\s*\(|\bIMPL_OP\s*\(", t) for t in own): return []
    types = {m for t in own for m in re.findall(r"\bOP_ADD\s*\(\s*(\w+)", t)}
    if not types and own:   # a definition a repository's macro writes (cann-ops foreach_abs: `FOREACH_OPDEF(HOST_CONFIG,
        # UNARY, Abs, ...)`, whose OP_ADD pastes ForeachAbs): the type its folder names, as CANN's op folders name theirs
        types = {"".join(w[:1].upper() + w[1:] for w in path.rsplit("/", 1)[-1].split("_"))}
    if not types: return []
    added, texts = [], {f: show(gitdir, commit, f).decode(errors="replace")
                        for f in link_candidates(gitdir, commit, path, entry["repo"])}
    found = [f for f, text in texts.items()
             if any(re.search(rf"\bIMPL_OP_OPTILING\s*\(\s*{t}\s*\)", blank_comments(text)) for t in types)]
    # a shared source (no op's op_host/) before another op folder's copy of the registration: cann-ops'
    # src/common/foreach_v2_example/foreach_norm (an example built on its own, in no folder the root build scans) registers
    # ForeachNorm too, where src/foreach/foreach_norm is tiled by the shared foreach_reduce_tiling_func.cpp
    for f in [f for f in found if "/op_host/" not in f] or found:
        _link_in(f, texts[f], entry, gitdir, dest)
        added.append(f)
    if not added and entry["repo"] in SHARED_TILING_TARGET: added = _shared_target_tiling(entry, gitdir, dest, types)
    return added


# Repositories whose build compiles every op's op_host tiling sources into one library (hicann ops-cv, cmake/func.cmake:
# add_modules_sources adds each op's sources to the one ${OPHOST_NAME}_tiling_obj), so an op may be tiled by another
# op's source without naming it anywhere: ops-cv upsample_nearest2d_grad has only its definition, and
# upsample_nearest_exact2d_grad's tiling source has IMPL_OP_OPTILING(UpsampleNearest2dGrad).
SHARED_TILING_TARGET = {"hicann/ops-cv"}


def _shared_target_tiling(entry: dict, gitdir: str, dest: Path, types: set[str]) -> list[str]:
    """For an op of a SHARED_TILING_TARGET repository that registers no tiling function of its own: the other ops'
    op_host sources (not aclnn code under op_api/, not tests) that register one for its type (`types`, its OP_ADD
    names), brought in as dependency_tiling brings a named dependency's (with the headers of their folder, which hold
    the tiling structs the kernel reads)."""
    from ascendcraft.emu import blank_comments
    commit, path = entry["commit"], entry["path"]
    added = []
    for f in _tree(gitdir, commit):
        if "/op_host/" not in f or not f.endswith((".cpp", ".cc")) or f.startswith(path + "/") or "/op_api/" in f \
                or "/tests/" in f"/{f}" or "/arch35/" in f: continue
        text = show(gitdir, commit, f).decode(errors="replace")
        if "IMPL_OP_OPTILING" not in text: continue
        if any(re.search(rf"\bIMPL_OP_OPTILING\s*\(\s*{t}\s*\)", blank_comments(text)) for t in types):
            _link_in(f, text, entry, gitdir, dest)
            added.append(f)
    return added


# Repositories whose build puts the repository's root and each op's category folder on the op_host include path
# (hicann ops-nn, cmake/func.cmake: `${source_dir}/../../` for op_tiling, the root in OP_TILING_INCLUDE), so an op names
# another op's host header as `#include "dynamic_rnn/op_host/dynamic_rnn_common.h"` (rnn/dynamic_rnnv2) or
# `#include "matmul/batch_mat_mul_v3/op_host/op_tiling/batch_mat_mul_v3_tiling.h"` (transpose_batch_mat_mul).
# hicann ops-math puts only the repository's root there (cmake/variables.cmake, OP_TILING_INCLUDE: `${OPS_MATH_DIR}`):
# circular_pad_grad's tiling header names `conversion/circular_pad/op_host/circular_pad_common_tiling.h`, whose struct
# CircularPadCommonTilingData it registers for CircularPadGrad. The value: the folders a name is looked up from.
ROOT_NAMED_HEADERS = {"hicann/ops-nn": ("category", "root"), "hicann/ops-math": ("root",)}


def _root_named_headers(entry: dict, gitdir: str, dest: Path, files: list[str]) -> None:
    """An op's file that names another op's host header by its path from the repository's root or from the op's
    category folder (ROOT_NAMED_HEADERS): the headers of the folder that file is in go to SIBLINGS/<their repository
    path>, and SIBLINGS/ and SIBLINGS/<category>/ become include folders (a header at the top of each), from which the
    same names resolve. The other op's tiling structs (BEGIN_TILING_DATA_DEF) are then seen by the kernel's build too,
    as CANN's generated kernel header has every struct the op's host registers (dynamic_rnnv2 registers
    DynamicRNNTilingData, which dynamic_rnn's op_host declares)."""
    commit, path = entry["commit"], entry["path"]
    category = posixpath.dirname(path)
    listing = set(git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines())
    folders, roots = set(), set()
    for f in files:
        # (an op's own file, or another op's host source that link_sources brought in: ops-nn mat_mul_v3's
        # matmul_v3_base_tiling.cpp names "matmul/common/op_host/op_tiling/debug_tiling.h")
        if not f.endswith((".h", ".hpp", ".cpp", ".cc")) or "/op_host/" not in f"/{f[len(path):] if f.startswith(path + '/') else f}": continue
        for name in re.findall(rb'#\s*include\s*"([A-Za-z_][^".]*/[^"]+)"', show(gitdir, commit, f)):
            name = name.decode()
            for root in [category if r == "category" else "" for r in ROOT_NAMED_HEADERS[entry["repo"]]]:
                target = posixpath.join(root, name) if root else name
                # (another op's host header, or its kernel's tiling-key header, which its host tiling names too:
                # ops-nn fused_mat_mul's arch35 fused_matmul_common.h names "matmul/fused_mat_mul/op_kernel/arch35/
                # fused_mat_mul_tilingkey.h")
                if target in listing and not target.startswith(path + "/") and (
                        "/op_host/" in f"/{target}" or "/op_kernel/" in f"/{target}" and "tiling" in posixpath.basename(target)):
                    folders.add(posixpath.dirname(target)); roots.add(root)
                    break
                # the op's own file named from the root by another op's source (ops-nn batch_mat_mul_v3's arch35
                # tiling names "matmul/mat_mul_v3/op_host/op_tiling/arch35/matmul_v3_tiling_advanced.h" in the
                # mat_mul_v3 build): a forwarder there to the op's copy, so that both names are one file
                own = target[len(path) + 1:]
                if target.startswith(path + "/") and (dest / own).is_file() and not (dest / SIBLINGS / target).exists():
                    (dest / SIBLINGS / target).parent.mkdir(parents=True, exist_ok=True)
                    (dest / SIBLINGS / target).write_text(
                        f'#include "{"../" * (target.count("/") + 1)}{own}"   // the op\'s own file (ascendcraft corpus)\n')
                    roots.add(root)
                    break
    for folder in sorted(folders):
        for g in sorted(listing):
            if posixpath.dirname(g) == folder and g.endswith((".h", ".hpp")):
                out = dest / SIBLINGS / g
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(show(gitdir, commit, g))
    for root in sorted(roots):
        marker = dest / SIBLINGS / root / "ascendcraft_corpus_include_root.h"
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("#pragma once\n")


def _own_kernel_files_of_another_op(gitdir: str, commit: str, path: str, dest: Path, named: set[str]) -> None:
    """A kernel that names files of its own op_kernel/ folder that the op does not have (ops-nn conv3d_transpose_v2's
    CPU-debug branch, `#include "../op_kernel/arch22/conv3d_dx_v2_basic_block.h"`, for files only conv3d_backprop_input_v2
    has; its device branch names the same files as `../conv3d_backprop_input_v2/arch22/...`): when one op of the
    repository (in the same category first) has every such file under its op_kernel/, the headers of those folders of
    that op go to the same place in <dest>/op_kernel/, without replacing any file of the op itself."""
    category = posixpath.dirname(path)
    listing = git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines()
    present = set(listing)
    ops = {g[:g.index("/op_kernel/")] for g in listing if "/op_kernel/" in g and g[:g.index("/op_kernel/")] != path}
    groups = {}   # by folder: each folder's files come from one op
    for n in named:
        if "/arch35/" not in f"/{n}": groups.setdefault(posixpath.dirname(n), set()).add(n)
    for folder, names in sorted(groups.items()):
        have = [op for op in sorted(ops) if all(f"{op}/{n}" in present for n in names)]
        near = [op for op in have if posixpath.dirname(op) == category]
        if len(near or have) != 1: continue   # none, or several: leave the include to fail by its name
        op = (near or have)[0]
        for g in listing:
            rel = g[len(op) + 1:] if g.startswith(op + "/") else ""
            if not rel.startswith(folder + "/") or not rel.endswith((".h", ".hpp")) or "/arch35/" in f"/{rel}": continue
            out = dest / rel
            if out.exists(): continue
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(show(gitdir, commit, g))


def _beside_kernel_folders(gitdir: str, commit: str, path: str, dest: Path, names: set[str], named: set[str] = frozenset()) -> None:
    """hicann ops-nn's build copies every op's op_kernel/ folder side by side (under the op's name), so a kernel names
    another op's kernel headers as `#include "../mat_mul_v3/mat_mul_v3_common.h"` (batch_mat_mul_v3): for each such name
    that is no folder of the op itself, the headers of the op of that name in the same category (or anywhere in the
    repository) go to <dest>/<name>/, where that path resolves from <dest>/op_kernel/; so do the source files the op
    names by such a path (`named`, relative to the op: dynamic_rnnv2's `#include "../dynamic_rnn/LstmFP16.cpp"`), and
    no other source file of that op (its own kernel entries). The headers copied name folders beside them the same way
    in turn (ops-nn inplace_add_rms_norm names `../add_rms_norm/add_rms_norm.h`, which names
    `../rms_norm/rms_norm_base.h`): those come along too, as every op's folder is there in the repository's build."""
    category = posixpath.dirname(path)
    listing = git(gitdir, "ls-tree", "-r", "--name-only", commit).splitlines()
    ops = {g[:g.index("/op_host/")] for g in listing if "/op_host/" in g}   # folders that are ops (not common/inc)
    todo, done = sorted(names), set(names)
    while todo:
        name = todo.pop(0)
        found = [g for g in listing if f"/{name}/op_kernel/" in f"/{g}" and g[:g.index("/op_kernel/")] in ops
                 and (g.endswith((".h", ".hpp")) or f"{name}/{g.split('/op_kernel/', 1)[1]}" in named)]
        here = [g for g in found if g.startswith(f"{category}/{name}/op_kernel/")]
        roots = {g[:g.index(f"{name}/op_kernel/") + len(name) + len("/op_kernel/")] for g in here or found}
        if len(roots) != 1: continue   # no such op, or several: leave the include to fail by its name
        root = roots.pop()
        for g in (here or found):
            if not g.startswith(root) or "/arch35/" in g: continue
            out = dest / name / g[len(root):]
            out.parent.mkdir(parents=True, exist_ok=True)
            text = show(gitdir, commit, g)
            out.write_bytes(text)
            for more in re.findall(rb'#\s*include\s*"\.\./(\w+)/', text):
                more = more.decode()
                if more not in done and more not in ("op_kernel", "op_host"):
                    done.add(more)
                    todo.append(more)


# The -D flags a repository's build gives its op_host sources. hicann ops-nn built against an installed CANN package
# (a sub-package, not static: cmake/func.cmake sets ENABLE_DLOPEN_LEGACY) defines NN_ENABLE_DLOPEN_LEGACY; its matmul
# tilings then call Ops::NN::GenTiling / QueryBank / TilingPrepareForOpCache, which common/src/op_host implements by
# dlopen of CANN's libophost_comm_legacy.so (absent here: each logs a warning and returns false), where the other
# configuration calls optiling:: / RuntimeKb:: functions of CANN's closed library itself.
BUILD_DEFINES = {"hicann/ops-nn": "-DNN_ENABLE_DLOPEN_LEGACY"}

# The shared header folders each repository's own build puts on the include path (-I), and the folder of the entry's
# copy they go to. NPUKernelBench builds its golden answers inside its copy of cann-ops (framework/task_object.py,
# compile mode "cann-ops"), so they see the same two folders, at libs/common_include/cann-ops.
COMMON_INCLUDES = {
    "Hayden727/cann-ops": (("src/common/inc", "common_inc"), ("src/common/op_host/op_tiling", "common_op_tiling")),
    "hicann/ops-math": (("common/inc", "common_inc"),),
    # ops-cv's op_host sources are built with the repository's root and common/inc on the path (cmake/variables.cmake,
    # OP_TILING_INCLUDE: ${OPS_CV_DIR}/common/inc/): `#include "op_host/tiling_base.h"`
    "hicann/ops-cv": (("common/inc", "common_inc"),),
    # ops-nn's build also copies common/inc/op_kernel to ascendc/inc beside the ops' kernel folders, which name its
    # headers `#include "../inc/platform.h"` (cmake/gen_ops_info.cmake, common_copy)
    "hicann/ops-nn": (("common/inc", "common_inc"), ("common/inc/op_kernel", "inc")),
    # ops-transformer's build copies common/include/kernel/*.* to ascendc/common beside the ops' kernel folders, on the
    # kernels' include path (cmake/func.cmake, add_ops_src_copy): `#include "util.h"` (flash_attention_score)
    # (and its op_host and kernel sources name the other shared headers from common/include: "tiling_base/...", "err/...")
    # The mc2 ops' host tiling is compiled with mc2/3rd and mc2/common/inc on the include path (cmake/variables.cmake,
    # OP_TILING_INCLUDE), and their tiling headers, which the kernel build sees, name files from there: batch_mat_mul_v3's
    # `#include "mat_mul_v3/op_host/op_tiling/matmul_v3_tiling.h"`, matmul_all_reduce's "tiling/mc2_tiling_struct.h".
    # The two go to their repository paths under SIBLINGS: a header of one names the other's files by a relative path
    # (mc2/common/inc/tiling/mc2_tiling_struct.h: `#include "../../../3rd/batch_mat_mul_v3/op_host/..."`).
    "hicann/ops-transformer": (("common/include/kernel", "common_kernel"), ("common/include", "common_include"),
                               ("mc2/3rd", "ascendcraft_corpus_repo/mc2/3rd", "mc2"),
                               ("mc2/common/inc", "ascendcraft_corpus_repo/mc2/common/inc", "mc2")),
    # sgl-kernel-npu's attentions op projects are built with utils/inc and utils/inc/kernel on the path
    # (csrc/attentions/csrc/ops/utils/CMakeLists.txt, cmake/config.cmake's OPS_ADV_UTILS_KERNEL_INC): "log/ops_log.h", "util.h"
    "sgl-project/sgl-kernel-npu": (("csrc/attentions/csrc/ops/utils/inc", "common_inc", SGL_ATTENTIONS),
                                   ("csrc/attentions/csrc/ops/utils/inc/kernel", "common_kernel", SGL_ATTENTIONS)),
    # vllm-ascend's csrc/ is its own copy of ops-transformer's build (csrc/CMakeLists.txt, project cann_ops-transformer):
    # common/include/kernel copied beside the kernels (cmake/func.cmake, add_ops_src_copy), common/include on the host's
    # path (OP_TILING_INCLUDE), utils/inc on every target's (cmake/variables.cmake, include_directories), and moe/common
    # on the chunk ops' (moe/chunk_fwd_o/op_host/CMakeLists.txt, COMMON_KERNEL_UTILS_DIR: "kernel_utils/block/...")
    "vllm-project/vllm-ascend": (("csrc/common/include/kernel", "common_kernel"), ("csrc/common/include", "common_include"),
                                 ("csrc/utils/inc", "utils_inc"), ("csrc/moe/common", "moe_common", "csrc/moe")),
    # flash-linear-attention-npu's cmake/config.cmake sets OPS_ADV_UTILS_KERNEL_INC to fla/ops/ascendc/common (in place of
    # common/include/kernel), which add_ops_src_copy copies beside the kernels ("kernel_utils/block/..."); common/include
    # is on the host's path ("tiling_base/...", "err/ops_err.h")
    "flashserve/flash-linear-attention-npu": (("fla/ops/ascendc/common", "common_kernel"), ("common/include", "common_include")),
    "weich97/NPUKernelBench": (("libs/common_include/cann-ops/src/common/inc", "common_inc"),
                               ("libs/common_include/cann-ops/src/common/op_host/op_tiling", "common_op_tiling")),
    # ms_custom_ops builds its aclnn ops with op_kernel_common on the kernels' path (`#include "asd/unpad_fa/...cce"`)
    "mindspore-ai/ms_custom_ops": (("ops/ascendc/aclnn_src/op_kernel_common", "op_kernel_common"),),
    # cann-ops-adv's layout (yueliang13/cann-ops-adv-vllm): src/utils/CMakeLists.txt's ops_utils_tiling_headers puts
    # src/utils/inc on the host targets' path; cmake/func.cmake's add_ops_src_copy copies OPS_ADV_UTILS_KERNEL_INC
    # (src/utils/inc/kernel, cmake/config.cmake) beside the kernels (ascendc/common)
    "yueliang13/cann-ops-adv-vllm": (("src/utils/inc", "utils_inc"), ("src/utils/inc/kernel", "utils_kernel")),
}


def first_error(build) -> str:
    errs = [d for d in build.diagnostics if d.is_error]
    return (errs[0].message if errs else "")[:200]


def per_core_type(build) -> dict:
    """`{"per_core_type": "<file>:<line>"}` where the build is of a kernel of both core types that chooses code by the
    device compiler's core-type macros (`emu.core_type_split`, the first such line): the emulator compiled it once per
    core type, as CANN does, so its "compiles" covers the code under either pass's macros."""
    where = build.per_core_type
    return {"per_core_type": f"{where[0]}:{where[1]}"} if where else {}


def try_entry(args: tuple, progress: Path | None = None) -> dict:
    """Compile the entry (kernel alone, then the whole project) and, with match, run it against its reference (never
    raises). `progress`: a file the result so far is written to after each step (what a wall cap leaves, `run_entries`)."""
    t0 = time.time()
    try:
        out = _try_entry(*args, progress=progress)
    except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
        out = dict(args[0], kernel_ok=False, project_ok=False, error=f"{type(e).__name__}: {e}"[:300])
    out["seconds"] = round(time.time() - t0, 1)   # builds and runs are bounded by build_timeout / run_timeout
    return out


def global_scope_entry(sources: dict[str, str], chosen: str | None) -> tuple[dict[str, str], str | None]:
    """A launch of a kernel in a namespace (`ascendc_ops::add_custom<<<...>>>(...)`): the emulator's launcher calls the
    entry at global scope, so the file defining it gets a using-declaration at its end and the entry loses the
    qualification. The kernel's own code is unchanged. Other entries are returned as they are."""
    if not chosen or "::" not in chosen.split("<", 1)[0]: return sources, chosen
    qualified = chosen.split("<", 1)[0]
    name = qualified.rsplit("::", 1)[1]
    home = next((f for f, t in sources.items() if re.search(rf"\b__global__\b[^;{{]*\b{re.escape(name)}\s*\([^;{{]*\)\s*\{{", t)), None)
    if home is None: return sources, chosen
    return {**sources, home: sources[home] + f"\nusing {qualified};\n"}, name + chosen[len(qualified):]


def _note(progress: Path | None, out: dict) -> None:
    "Write the result so far to `progress` (when given), whole or not at all."
    if progress is None: return
    tmp = progress.with_suffix(".tmp")
    tmp.write_text(json.dumps(out))
    tmp.replace(progress)


def _try_entry(entry: dict, gitdir: str, match: bool, project_build: bool = True, progress: Path | None = None) -> dict:
    from asc_run import match_asc, match_asc_host   # beside this file
    from npukb import match_npukb   # beside this file
    from ascendcraft.config import load_settings
    from ascendcraft.emu import build, read_sources
    from ascendcraft.opproject import (build_project, dtype_macros, load_project, template_entry, tpl_build_key,
                                       uses_tiling_default)
    if entry["kind"] == "catlass-example":
        from catlass import _try_catlass   # the examples' build and host-code reader, beside this file
        return _try_catlass(entry, gitdir, match)
    if entry["kind"] == "opgen-task":
        from opgenagent import try_task   # the tasks' kernels, their extension built by the torch_npu stand-in, ModelNew
        return try_task(entry, gitdir, match, git, show)
    out = dict(entry)
    settings = load_settings()
    with tempfile.TemporaryDirectory() as tmp:
        folder = materialise(entry, gitdir, Path(tmp))
        if entry["kind"] in KERNEL_ALONE_KINDS:
            headers = "\n".join(v for k, v in sorted(read_sources(folder).items()) if k.endswith((".h", ".hpp")))
            chosen = entry.get("kernel") or asc_entry(show(gitdir, entry["commit"], entry["path"]).decode(errors="replace"),
                                                      entry.get("defines", ""), headers) \
                if entry["kind"] in ("asc-file", "blas-file") else None   # "kernel": the collector's pick (community.py)
            if entry["kind"] == "asc-file" and chosen is None:   # a file of a kernel split over several: its target's launch
                chosen = next(filter(None, (asc_entry(show(gitdir, entry["commit"], other).decode(errors="replace"),
                                                      entry.get("defines", ""))
                                            for other in asc_target_siblings(gitdir, entry["commit"], entry["path"]))), None)
            if entry["kind"] == "kernel-file":   # the kernel its build names (ATB's add_kernel), else its file's first
                chosen = entry.get("kernel") or kernel_file_entry(read_sources(folder), entry["path"])
            flags = settings.cxxflags + (f" {entry['defines']}" if entry.get("defines") else "")
            sources, chosen = global_scope_entry(read_sources(folder), chosen)
            declared = None
            if entry["repo"] == "hicann/ascend-transformer-boost":   # the core type its add_kernel compiles it for
                from atb import kernel_type
                declared = kernel_type(entry)
            kb = build(sources, chosen, settings=settings.replace(cxxflags=flags), kernel_type=declared)
            out.update(kernel_ok=kb.ok, kernel_error=first_error(kb), **per_core_type(kb))
            if project_build and entry["kind"] == "blas-file": out.update(blas_host_check(entry, gitdir, settings))
            _note(progress, out)
            if match and kb.ok and entry["kind"] == "kernel-file" and entry["repo"] == "sgl-project/sgl-kernel-npu":
                try:   # runs against NumPy with the torch bindings' arguments written out (sgl_by_hand.py)
                    from sgl_by_hand import match_entry
                    out.update(match_entry(entry, gitdir))
                except Exception as e:  # noqa: BLE001 - the harness's own code: not the kernel's compile
                    out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
            if match and kb.ok and entry["kind"] == "asc-file":
                try:   # the example's host program with its launches on the emulator; where it does not compile
                    # here, the host code read for its files (match_asc)
                    def build_kernel(name, sources=sources, flags=flags):
                        return build(sources, name, settings=settings.replace(cxxflags=flags))
                    got = match_asc_host(entry, gitdir, kb, build_kernel)
                    if got["match"] == "no-reference" and got["match_detail"].startswith("host program:"):
                        host_said = got["match_detail"]
                        got = match_asc(entry, gitdir, kb)
                        if got["match"] == "no-reference": got["match_detail"] += f" ({host_said})"[:300]
                    out.update(got)
                except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
                    out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
            return out
        try:
            project = load_project(folder)
        except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
            out.update(kernel_ok=False, error=f"load: {e}"[:200], **({"project_ok": False} if project_build else {}))
            if entry["repo"] == "Hayden727/cann-ops":   # no OpDef class to read (macro-made): the kernel alone still builds
                srcs = {k: v for k, v in read_sources(folder).items() if k.startswith("op_kernel/") or k.endswith((".h", ".hpp"))}
                kb = build(srcs, settings=settings)
                out.update(kernel_ok=kb.ok, kernel_error=first_error(kb) or out["error"])
            return out
        try:
            dtypes = dtype_macros(project.op, 0)
            macros = " ".join(f"-D{k}={v}" for k, v in dtypes.items())
        except Exception as e:  # noqa: BLE001 - a dtype outside the emulated subset
            out.update(kernel_ok=False, project_ok=False, error=f"dtype: {e}"[:300])
            return out
        macros += f" -DASCENDCRAFT_OP_TYPE={project.op.type}"
        if uses_tiling_default(project.sources[project.kernel_file]):   # as build_project does
            macros += " -DASCENDCRAFT_TILING_DEFAULT"
        # the kernel's build: every file but the op_host sources (op_kernel/, headers, a neighbouring op's source that the
        # kernel includes by path: dynamic_rnnv2's ../dynamic_rnn/LstmFP16.cpp)
        kernel_sources = {k: v for k, v in project.sources.items() if not k.startswith("op_host/") or k.endswith(".h")}
        # a tiling header that only redefines the structs of the one the op_host includes (an op's stale copy) is left
        # out, as the project build does, which sees the op_host sources (emu.shadowed_tiling_headers)
        from ascendcraft.emu import shadowed_tiling_headers
        tiling = {k: v for k, v in kernel_sources.items() if k.endswith(".h") and "BEGIN_TILING_DATA_DEF" in v}
        for name in shadowed_tiling_headers(tiling, project.sources): del kernel_sources[name]
        try:   # a tiling-template kernel (ASCENDC_TPL_SEL): entered through the instance of the launch's key
            inner = template_entry(project, kernel_sources, settings=settings, macros=dtypes)
        except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
            out.update(kernel_ok=False, kernel_error=f"template: {e}"[:200], **({"project_ok": False} if project_build else {}))
            return out
        # a template kernel compiled one key at a time (opproject.TPL_ONE_BUILD_MAX): the instance of its first key
        one_key = tpl_build_key(kernel_sources)
        kb = build(kernel_sources, inner or project.entry, settings=settings.replace(cxxflags=f"{settings.cxxflags} {macros}"),
                   tiling_key=one_key)
        out.update(kernel_ok=kb.ok, kernel_error=first_error(kb), **per_core_type(kb),
                   **({"kernel_key": one_key} if one_key is not None else {}))
        _note(progress, out)
        if not project_build: return out
        try:
            host = settings.replace(cxxflags=f"{settings.cxxflags} {BUILD_DEFINES[entry['repo']]}") \
                if entry["repo"] in BUILD_DEFINES else settings
            pb = build_project(project, 0, settings=host)
            linked: set[str] = set()
            pb, still = link_until_settled(entry, gitdir, folder, pb, lambda: build_project(load_project(folder), 0, settings=host),
                                           linked)
            if linked: out.update(linked=sorted(linked))
            out.update(project_ok=pb.ok, project_error=first_error(pb) + (f"; {still}" if still else ""))
        except Exception as e:  # noqa: BLE001
            out.update(project_ok=False, project_error=str(e)[:200])
        _note(progress, out)
        if match and out.get("project_ok") and entry["kind"] == "mkb-prompt" and entry.get("reference"):
            try:   # MultiKernelBench's own correctness step against the task's reference Model
                out.update(match_mkb(entry, answer_strings(show(gitdir, entry["commit"], entry["path"]).decode(errors="replace")),
                                     show(gitdir, entry["commit"], entry["reference"]).decode(), project))
            except Exception as e:  # noqa: BLE001 - the reference / ModelNew code: not the kernel's compile
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
        if match and out.get("project_ok") and entry["repo"] == "KernelHive/ascendc-skill":
            try:   # EvoKernel: the op's PyTorch reference task, called as op.cpp's signature says (evokernel.py)
                from evokernel import match_evokernel
                out.update(match_evokernel(entry, gitdir, project))
            except Exception as e:  # noqa: BLE001 - the reference / derived call: not the kernel's compile
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
        if match and out.get("project_ok") and entry["repo"] == "flashserve/flash-linear-attention-npu":
            try:   # the ops' own tests' formulas, the op run whole (fla_by_hand.py)
                from fla_by_hand import match_entry as match_fla
                out.update(match_fla(entry, gitdir, GITDIRS))
            except Exception as e:  # noqa: BLE001 - the harness's own code: not the kernel's compile
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
        if match and out.get("project_ok") and entry["repo"] == "SpMM-AscendC/cube-SPMM":
            try:   # the inputs its host scripts make, against NumPy under its verify_result.py (spmm_by_hand.py)
                from spmm_by_hand import match_entry as match_spmm
                out.update(match_spmm(entry, gitdir))
            except Exception as e:  # noqa: BLE001 - the harness's own code: not the kernel's compile
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
        if match and out.get("project_ok") and entry["repo"] == "weich97/NPUKernelBench":
            try:
                out.update(match_npukb(entry, gitdir, project))
            except Exception as e:  # noqa: BLE001 - the task's input/reference code: not the kernel's compile
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
    return out


LOAD_STRETCH_MAX = 8.0   # the run limit grows with the load per core up to this factor (run_settings)


def run_settings():
    """The settings the corpus's kernels run with. `run_timeout` (settings.ini, ASCENDCRAFT_RUN_TIMEOUT) is a wall-time
    limit for a machine with a core to spare; on a loaded one the kernel process gets a share of a core, so the limit
    is stretched by the 1-minute load average per core, at most LOAD_STRETCH_MAX times (at load 15 on 2 cores, 30 s
    becomes 225 s). A run that still does not finish is counted `timeout`, apart from the runs (failed_run_class)."""
    import os
    from ascendcraft.config import load_settings
    settings = load_settings()
    try:
        load, cores = os.getloadavg()[0], len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return settings
    return settings.replace(run_timeout=settings.run_timeout * min(LOAD_STRETCH_MAX, max(1.0, load / max(cores, 1))))


def failed_run_class(run) -> str:
    """How a failed run counts: `timeout` when it was stopped at the run limit (the emulation's speed on this machine,
    not a verdict on the kernel: outside the run / match columns, listed apart), else `run-error`."""
    errs = [d for d in run.diagnostics if d.is_error]
    return "timeout" if errs and errs[0].kind == "timeout" else "run-error"


def first_run_error(errs: list) -> str:
    "A failed run's first error as `kind at file:line: message` (the line the run stopped at, where it has one)."
    if not errs: return "run failed"
    e = errs[0]
    line = getattr(e, "line", None)
    where = f" at {posixpath.basename(e.file)}:{line}" if line else ""
    return f"{e.kind}{where}: {e.message}"


def run_failure(run) -> str:
    """A failed run in one line: its first error, and for a host tiling function that failed, the first error line the
    function logged (DequantSwigluQuant: "Do op tiling failed, no valid template is found."), after what the glue found
    (TopKV3: it read the data of an input that is not ValueDepend)."""
    errs = [d for d in run.diagnostics if d.is_error]
    text = first_run_error(errs)
    unset = []
    if errs and errs[0].kind == "host-tiling":
        lines = (getattr(run, "stderr", "") or "").splitlines()
        # the glue's finding first: the function read the data of an input CANN gives it no data for (no ValueDepend)
        unset = [l.strip().removeprefix("ascendcraft: ") for l in lines if l.startswith("ascendcraft: ") and "ValueDepend" in l]
        if unset: text += f": {unset[0]}"
        logged = [l.strip() for l in lines if re.search(r"\b(ERROR|error)\b|\[E\d", l)]
        if logged: text += f" ({logged[0][:160]})"
    return text[:300] if not unset else text[:500]


def _read_results(path: Path) -> list[dict]:
    "A run's results: its .json (a list) or its .jsonl (one entry a line, as written while it runs)."
    text = Path(path).read_text()
    return json.loads(text) if text.lstrip().startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]


def passed(res: dict | None, match: bool, project_build: bool) -> bool:
    "Did this result pass every step the run asks for (kernel, project, a run that matched where one was made)?"
    if not res or not res.get("kernel_ok"): return False
    if project_build and res["kind"] not in KERNEL_ALONE_KINDS and not res.get("project_ok"): return False
    if project_build and "project_ok" not in res and res["kind"] not in KERNEL_ALONE_KINDS: return False
    return not match or res.get("match") in (None, "pass")


# ---- golden answers that are wrong on their own terms ----------------------------------------------------------------
# Tasks whose golden answer, read against its own op_host, reads or writes what its tiling does not give it, or computes
# another quantity than the task's reference asks for, so that NPUKernelBench's own check fails it on hardware too
# (found by running them on the emulator and reading the code; realk6, nkb17 and the lead, issue 13). A run of one
# that fails is counted as 'golden-fault': not in the run / match columns, listed under the table with the reason.
GOLDEN_FAULTS = {
    "tasks/level1/Math/Sasum/answer/0": "the kernel reads each block's count at entry 40 + i of 40-entry arrays, while "
        "the op_host tiling header declares them with 48 entries (MAX_ARRAY_NUM): blocks read startOffset[40..47] as counts",
    "tasks/level1/Math/Ccopy/answer/0": "same layout fault as Sasum: calNum read at byte 8 + 40*4 + 4i of 48-entry arrays",
    "tasks/level1/Math/Sscal/answer/0": "the kernel takes totalVecCoreNum = 40 while the tiling header's arrays have 48 entries",
    "tasks/level1/Math/ComplexMatDot/answer/0": "reads its counts at 8 + 40*8 of 48-entry arrays, then reads past matx",
    "tasks/level2/TensorMove/ExpandV2/answer/0": "its TilingFunc multiplies shape[0..dimDelta] inclusive (expandSize 2048 "
        "rows for [16] -> [128, 16]): the kernel writes 16x past y",
    "tasks/level3/Sort/TopKV3/answer/0": "its TilingFunc reads k's value (GetInputTensor(1)->GetData) while the definition "
        "does not declare k ValueDepend: CANN gives it no data (nullptr), and it fails ('Get const data k failed.'); on A2 "
        "its own aclnnTopKV3 launches CANN's built-in TopKV2 instead (l0op::Topk takes TopKV3 on Ascend310P only), and "
        "the kernel's proposal APIs are 310P-only",
    "tasks/level2/Norm/BatchNormV3/answer/0": "its save_rstd output holds the biased batch variance (full-reduce and "
        "Welford paths alike; rsqrt goes only into y), which its aclnnBatchNorm hands back as saveInvstd, while the "
        "task's reference returns 1/sqrt(var + eps): 0 vs 993.5 at [1, 1024], 0.0829 vs 3.47 at [8, 16, 16, 16]; "
        "upstream's check compares all three outputs",
}


def classify(res: dict) -> dict:
    "The result with a failing run of a GOLDEN_FAULTS task counted as 'golden-fault' (its reason in match_detail)."
    why = GOLDEN_FAULTS.get(res.get("path", ""))
    if why and res.get("match") in ("mismatch", "run-error"):
        return dict(res, match="golden-fault", match_detail=f"{why} [the run: {res.get('match_detail', '')[:120]}]")
    return res


NOT_RUN = {"too-large": "too-large (a run over the machine's memory budget even with a smaller batch, mkb.memory_budget)",
           "tiling-fixed": "tiling-fixed (written for the task's own shape, where a run is over the memory budget)",
           "timeout": "timeout (stopped at the run limit, run_settings: the emulation's speed, no verdict)",
           "wall-cap": "wall-cap (the entry's run against its reference was stopped at --entry-seconds, no verdict)"}


def summary(results: list[dict]) -> str:
    "The table by source (markdown), then why kernels did not compile and why runs did not match."
    results = [classify(r) for r in results]
    out = ["| source | kernels | kernel compiles + links | project (with TilingFunc) compiles + links | run against a reference | match |",
           "|---|---|---|---|---|---|"]
    by = {}
    for res in results: by.setdefault(res["source"], []).append(res)
    for src, rs in by.items():
        k = sum(r.get("kernel_ok", False) for r in rs)
        projects = [r for r in rs if r["kind"] not in KERNEL_ALONE_KINDS and "project_ok" in r]
        p = sum(r.get("project_ok", False) for r in projects)
        ran = [r for r in rs if r.get("match") in ("pass", "mismatch", "run-error")]
        ok = sum(r["match"] == "pass" for r in ran)
        pcol = f"{p} ({100 * p / len(projects):.0f} %)" if projects else "–"
        mcol = f"{ok} ({100 * ok / len(ran):.0f} %)" if ran else "–"
        out.append(f"| {src} | {len(rs)} | {k} ({100 * k / len(rs):.0f} %) | {pcol} | {len(ran)} | {mcol} |")
    carried = sum("carried_over" in r for r in results)
    if carried: out.append(f"\n{carried} of the {len(results)} rows are carried over from an earlier run (they passed there)")
    reasons = Counter(reason(r) for r in results if not r.get("kernel_ok"))
    if reasons:
        out.append("\nWhy kernels did not compile (most common first):")
        out += [f"  {n:4d}  {why}" for why, n in reasons.most_common(15)]
    runs = Counter(f"{r['match']}: {r.get('match_detail', '')[:90]}" for r in results if r.get("match") in ("mismatch", "run-error"))
    if runs:
        out.append("\nRuns that did not match:")
        out += [f"  {n:4d}  {why}" for why, n in runs.most_common(15)]
    not_run = [r for r in results if r.get("match") in NOT_RUN]
    if not_run:   # never silent: what was left out of the run / match columns, and why
        out.append(f"\nNot run against the reference ({len(not_run)}; outside the run / match columns):")
        for kind, why in NOT_RUN.items():
            these = [r for r in not_run if r["match"] == kind]
            if these:
                out.append(f"  {len(these):4d}  {why}: " + ", ".join(posixpath.basename(r["path"]).rsplit(".", 1)[0] for r in these))
    faults = [r for r in results if r.get("match") == "golden-fault"]
    if faults:
        out.append(f"\nGolden answers at fault ({len(faults)}; not in the run / match columns):")
        out += [f"  {r['path']}: {GOLDEN_FAULTS[r['path']]}" for r in faults]
    return "\n".join(out)


# ---- running the entries: each in its own process, under a wall cap ----------------------------------------------
ENTRY_SECONDS = 1800.0   # `run --entry-seconds`: one entry's wall time, builds and run together (0: no cap)


def _entry_process(args: tuple, folder: str, with_driver=None) -> None:
    """A forked entry process: its own process group (so a cap kills what it started), the result to
    `folder`/result.json. Its own session puts it out of reach of the driver's terminal, so it dies with the driver
    (`with_driver`, `emu.dies_with_this_process` made in the driver): a driver stopped by a signal its `finally` never
    sees left the entry building for as long as the entry took (forty-fifth round, heavy). Its builds and runs die with
    it (the sandbox's --die-with-parent)."""
    os.setsid()
    if with_driver is not None: with_driver()
    out = try_entry(args, progress=Path(folder) / "progress.json")
    tmp = Path(folder) / "result.tmp"
    tmp.write_text(json.dumps(out))
    tmp.replace(Path(folder) / "result.json")


def capped_result(entry: dict, progress: dict | None, seconds: float, cap: float, project_build: bool = True) -> dict:
    """The result of an entry stopped at the wall cap: what its finished steps wrote (`progress`), and the step it was
    in said as that step's failure (a compile or a project build that did not finish is a failure to build within the
    cap; a run against the reference that did not finish has no verdict, `wall-cap`)."""
    out = dict(progress or entry)
    why = f"stopped at the wall cap of {cap:g} s (--entry-seconds) after {seconds:.0f} s"
    if "kernel_ok" not in out:
        out.update(kernel_ok=False, kernel_error=f"the kernel's build {why}")
    elif project_build and out["kind"] not in KERNEL_ALONE_KINDS and "project_ok" not in out:
        out.update(project_ok=False, project_error=f"the project's build {why}")
    else:
        out.update(match="wall-cap", match_detail=f"the run against the reference {why}")
    out.update(seconds=round(seconds, 1), wall_cap=cap)
    return out


def run_entries(todo: list[tuple], jobs: int, cap: float, poll: float = 0.2):
    """Yield (index in `todo`, result) for each entry as it finishes: `jobs` entry processes at a time, each forked for
    its entry and killed with everything it started when it runs past `cap` seconds of wall time (0: no cap)."""
    from ascendcraft.emu import dies_with_this_process
    fork = multiprocessing.get_context("fork")
    pending, running, with_driver = list(enumerate(todo)), {}, dies_with_this_process()
    with tempfile.TemporaryDirectory(prefix="corpus-entries-") as root:
        try:
            while pending or running:
                while pending and len(running) < max(1, jobs):
                    i, args = pending.pop(0)
                    folder = Path(root) / str(i)
                    folder.mkdir()
                    proc = fork.Process(target=_entry_process, args=(args, str(folder), with_driver), daemon=True)
                    proc.start()
                    running[i] = (proc, folder, time.monotonic(), args)
                time.sleep(poll)
                for i, (proc, folder, t0, args) in list(running.items()):
                    seconds = time.monotonic() - t0
                    if proc.is_alive() and not (cap and seconds > cap): continue
                    if proc.is_alive():
                        with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGKILL)
                    proc.join()
                    del running[i]
                    done, note = folder / "result.json", folder / "progress.json"
                    if done.exists(): yield i, json.loads(done.read_text())
                    elif cap and seconds > cap:
                        progress = json.loads(note.read_text()) if note.exists() else None
                        yield i, capped_result(args[0], progress, seconds, cap, project_build=args[3] if len(args) > 3 else True)
                    else:
                        yield i, dict(args[0], kernel_ok=False, project_ok=False, seconds=round(seconds, 1),
                                      error=f"the entry's process ended without a result (exit status {proc.exitcode})")
        finally:
            for proc, *_ in running.values():
                with contextlib.suppress(ProcessLookupError): os.killpg(proc.pid, signal.SIGKILL)
                proc.join()


def run_logged(todo: list, jobs: int, entry_seconds: float, jsonl: Path, carried=()):
    """run_entries, each result also written to `jsonl` as it finishes (after the `carried` ones), one a line: a run
    stopped half-way keeps its entries' results and errors, not only what it printed."""
    with open(jsonl, "w") as log:
        for res in carried: log.write(json.dumps(res) + "\n")
        for i, res in run_entries(todo, jobs, entry_seconds):
            log.write(json.dumps(res) + "\n")
            log.flush()
            yield i, res


# ---- the failure reasons, grouped --------------------------------------------------------------------------------

def reason(res: dict) -> str:
    "A short class for a failed compile: the missing header / name, or the error's text without its particulars."
    text = res.get("kernel_error") or res.get("error") or ""
    m = re.search(r"([\w./]+\.h): No such file", text)
    if m: return f"missing header {m.group(1)}"
    m = re.search(r"'([\w:]+)' (?:was not declared|is not a member|does not name a type|has not been declared)", text)
    if m: return f"undeclared {m.group(1)}"
    if text.startswith("dtype:"): return "dtype outside the emulated subset"
    return re.sub(r"'[^']*'", "'…'", text)[:90]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("repo")
    c.add_argument("gitdir")
    tb = sub.add_parser("table", help="the table of saved results (several files: a later row replaces an earlier one)")
    tb.add_argument("results", nargs="+", type=Path)
    r = sub.add_parser("run")
    r.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--entry-seconds", type=float, default=ENTRY_SECONDS, metavar="SECONDS",
                   help=f"wall-time cap of one entry, builds and run together (default {ENTRY_SECONDS:g}; 0: none): an "
                        "entry past it is stopped with everything it started and reported as stopped in the step it was in")
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--source", default=None, help="only entries whose source or path contains this text")
    r.add_argument("--entry", action="append", default=[], metavar="PATH",
                   help="only the entry at this path in its repository (exactly; repeat for several); with --source, "
                        "the entries that both select")
    r.add_argument("--match", action="store_true", help="also run and compare where the source gives a reference")
    r.add_argument("--kernel-only", action="store_true", help="compile the kernel alone; skip the whole-project build")
    r.add_argument("--out", type=Path, default=HERE / "results.json")
    r.add_argument("--rerun-failed", type=Path, default=None, metavar="PREVIOUS.jsonl",
                   help="run only the entries that did not pass in a previous run's results (.json or .jsonl); the "
                        "table counts the others as that run found them, and says how many it carried over")
    r.add_argument("--offset", type=int, default=0, help="skip the first N selected entries (resume a stopped run)")
    a = ap.parse_args(argv)
    if a.cmd == "run":   # checked before any entry runs, so that a long run never ends on an unwritable --out
        if a.out.is_dir(): a.out = a.out / "results.json"
        if not a.out.parent.is_dir():
            ap.error(f"--out {a.out}: the folder {a.out.parent} does not exist (create it, or name a file in an existing one)")
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else []
    if a.cmd == "collect":
        manifest = [e for e in manifest if e["repo"] != a.repo] + collect(a.repo, a.gitdir)
        MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
        print(f"{len(manifest)} entries in {MANIFEST}")
        return 0
    if a.cmd == "table":
        rows = {}
        for f in a.results:
            for res in _read_results(f): rows[(res["repo"], res["path"])] = res
        print(summary(list(rows.values())))
        return 0
    gitdirs = dict(g.split("=", 1) for g in a.git)
    GITDIRS.update(gitdirs)   # a submodule's repository (SUBMODULES): the entries' forked processes see it
    missing = Counter(e["repo"] for e in manifest if e["repo"] not in gitdirs)
    for repo, n in sorted(missing.items()):   # never a silent skip: say what this run leaves out and why
        print(f"not run: {n} entries of {repo} (no --git {repo}=<git dir>)", file=sys.stderr)
    todo = [(e, gitdirs[e["repo"]], a.match, not a.kernel_only) for e in manifest if e["repo"] in gitdirs
            and (a.source is None or a.source in e["source"] or a.source in e["path"])
            and (not a.entry or e["path"] in a.entry)]
    if unknown := sorted(set(a.entry) - {e["path"] for e in manifest if e["repo"] in gitdirs}):
        ap.error(f"--entry {', '.join(unknown)}: no entry of the manifest's repositories given by --git has that path")
    carried = []
    if a.rerun_failed:   # the previous run's passes stay as they were; everything else runs again
        before = {(r["repo"], r["path"]): r for r in _read_results(a.rerun_failed)}
        again = [t for t in todo if not passed(before.get((t[0]["repo"], t[0]["path"])), a.match, not a.kernel_only)]
        carried = [dict(before[(t[0]["repo"], t[0]["path"])], carried_over=str(a.rerun_failed)) for t in todo if t not in again]
        print(f"{len(carried)} entries passed in {a.rerun_failed} and are carried over; {len(again)} run again", file=sys.stderr)
        todo = again
    todo = todo[a.offset:][: a.limit]
    t0 = time.time()
    results = list(carried)
    if a.entry_seconds < 0: ap.error(f"--entry-seconds {a.entry_seconds:g}: give a wall time in seconds, or 0 for none")
    finished = dict(run_logged(todo, a.jobs, a.entry_seconds, a.out.with_suffix(".jsonl"), carried))
    results += [finished[i] for i in sorted(finished)]   # in the manifest's order, as the run's order may not be
    a.out.write_text(json.dumps(results, indent=1) + "\n")
    print(summary(results))
    print(f"\n{len(results)} kernels in {time.time() - t0:.0f} s; details in {a.out}")
    slow = sorted(results, key=lambda r: -r.get("seconds", 0))[:3]
    print("slowest: " + ", ".join(f"{r['path']} {r.get('seconds', 0):.0f} s" for r in slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
