"""Community AscendC sources the thirty-eighth round added (helper newsrc): course homework, a course project and a
model port's kernels, contestants' op projects and re-done samples, none of them tried by an earlier round.

- KiaraStark/ascendc-homework: a student's Ascend C course and contest work, msopgen op projects (<Op>/op_host/ +
  op_kernel/): the homework ops, two official FrameworkLaunch samples re-done, and copies of the third contest season's
  projects. Each op's OpDef names the chip it was built for; the group says which (910B or 310B).
- llrnb666-arch/HPC101-AscendC-FusedRMSNorm: a course project, one msopgen op project (src/ascendc/op_host, op_kernel)
  for the 910B, with a checker that runs it against PyTorch.
- sunkafei/ascend-operator-challenge, -challenge2, -challenge-final: a contestant's op projects of Ascend C operator
  contests (2024-2025; msopgen layout), mostly for the 310B; grouped by the chip each OpDef names.
- T1z1anXXX/s3-ascend-operator: another contestant's op projects of the third season (310B).
- chiparon/ascendC: a learner's copies of the official FrameworkLaunch samples (baseline/) and their optimised versions
  (optimi-v1/): matmul (Matmul API), matmul + LeakyReLU, reduce, broadcast; their CAModel dumps and npuchk logs are
  kept beside them. The kernel-launch folders (13_*) are left out (a main.cpp launcher, not an op project).
- yjb767868009/ascendc_uniprefill: a model port's token-selection kernels, single-source .asc files (op_kernel/*.asc)
  bound to PyTorch by op_extension/; each kernel file is compiled alone (kind asc-file).

None keeps a hardware verdict in the repository; the ones that say what they ran on say a 910B.

Added by the thirty-ninth round (helper src), the same op-project rule unless said:
- linnlh/ascendc-perf-s2: a contestant's op projects of the second season's performance contest (910B).
- HWXROS/AscendcS7: a contestant's op projects of the seventh season (910B).
- EliwiiKeeya/my_operators_ascendc: a learner's msopgen projects (add, matmul on the Matmul API, matmul + LeakyReLU).
- Golden-Irises/AscendC: a learner's op projects (vector add, average pooling, convolution-like Caffe ops, a cube MatMad).
- JeffDing/AscendC_Code: the Sinh sample done as a FrameworkLaunch project, whole and split into segments.
- Lulili520/ascendc-optim-agent: an LLM agent (Claude Code) that rewrites single-source .asc kernels for speed, each
  op built for dav-2201 (its CMakeLists) and profiled with msprof on the NPU, round by round: every distinct
  `*_kernel.asc` (the ops' own and each round's snapshot under log/) is an asc-file entry with the tiling header beside
  it; `hardware: ran` (its logs keep the NPU's timings of each; the precision check's verdict is not kept per round).

Added by the fortieth round (helper newsrc), the same op-project rule unless said:
- RWKV-Vibe/rwkv_Ascend: a model port (RWKV on Ascend, built with Huawei): cann-ops-rwkv's wkv4 / wkv4grad / wkv6 /
  wkv7 / wkv7grad op projects and mindspore_rwkv's wkv7 (the same kernel, another host), all built for the 910B; its
  CANN build outputs (cann-ops-rwkv/build/) and the transformers-ascend copy (no AscendC) are no sources.
- uniartisan/wkv6_Ascend: an RWKV-6 vector kernel in the kernel-launch form (`rwkv6_vector`, scalar arguments, run on
  a 910B by its main_npu.cpp); npu/rwkv6_vector.cpp is a link to cpu/rwkv6_vector.cpp, the one asc-file entry.
- saltyfish88/ascend-c, KaranocaVe/AscendC-CI: learners' op projects (ArgMaxWithValue, Asinh, Sinh; a PdistGrad a CI
  workflow builds), grouped by chip.
- wilburx813/ascend_op, g1050/ascend_c_op, wybxw/Ascend_ops_Base_S6, Ryedii/lab5: contestants' and a course's op
  projects, every one built for the 310B (kept in their chip's group: no A2 claim).

Added by the forty-first round (helper newsrc), the same op-project rule:
- mindspore-ai/ms_custom_ops: MindSpore's custom-op package, the aclnn op projects of ops/ascendc/aclnn_src (run on the
  NPU by its tests/st through ms_glue/): two built for the 910B, three for the 310P (a group of their own). Their
  kernels' shared folder op_kernel_common is corpus.py's COMMON_INCLUDES entry.

Added by the forty-second round (helper newsrc), two collector forms:
- TJ12342/ascend_c_parctice: one Pdist op project for the 910B at the repository's root (op_host/, op_kernel/ at the
  top, five cases of gen_data / verify_result under case/). Its entry's path is "" (the root); corpus.materialise
  copies the root's op_host/, op_kernel/ and CMakeLists.txt, and no sibling-folder rule applies (there is no folder
  above it).
- yueliang13/cann-ops-adv-vllm: a vLLM sparse-attention project on cann-ops-adv's layout: each op is a folder
  src/transformer/<op>/ with its kernel sources at the top (<op>.cpp and the headers beside it) and its host sources
  in ophost/ (OpDef, tiling, aclnn code), built with src/utils/inc and src/utils/inc/kernel on the path (corpus.py's
  COMMON_INCLUDES). Such entries carry `layout: "ophost"`; `materialise_ophost` copies them into the emulator's
  op-project form (ophost/ -> op_host/, the top's sources -> op_kernel/).
- ghhufue/cann-operator-challenge-august: a contestant's op of a CANN operator challenge (problem 290,
  ChunkGatedDeltaRuleFwdH, a mixed cube + vector op in ops-transformer's op layout, built for the 910B), which its
  commits say was validated on a real NPU (examples/README.md: ACLNN runs against its golden generator), and the
  challenge's official reference op beside it (ref/chunk_gated_delta_rule, an ops-transformer op for the 910B and the
  950). Their tests/ut folders (op_host/ and op_kernel/ unit tests) are no op project.

Added by the forty-third round (helper newsrc):
- tjulitianyi1997/AscendProjects: a copy of the official Ascend/samples repository of March 2024 (the mirror the
  corpus had of Ascend/samples is of June 2023, before its operator/ tree): operator/<Op>Sample/FrameworkLaunch/<Op>/
  (msopgen op projects: Add, Addcdiv, LayerNorm, LeakyRelu, the Matmul API single- and multi-core, Matmul + LeakyRelu,
  MoeSoftMaxTopk, PreLayerNorm, Sub), the older cplusplus/.../6_ascendc_custom_op op projects (the op-project rule,
  grouped by chip), and the kernel-launch samples (operator/*/KernelLaunch/**, cplusplus/.../kernel_invocation/*,
  HelloWorldSample): each kernel source (a `.cpp` defining a `__global__` function; the host's main.cpp, the host
  tiling `*_tiling.cpp` and the pybind11 glue are not kernels) is a kernel-file entry, one per distinct text (the
  CppExtensions folders repeat the kernels of their neighbours).
- Mr-Xiao2021/ascend_op_learning: another copy of the official samples, "based on 8.0.RC3" (its first commit, April
  2025; the samples' tree of autumn 2024): the same rules. Its operator/ tree adds AddN, Broadcast, Reduce, the
  FrameworkLaunchLite AddCustom and an asynchronous Matmul + LeakyRelu launch; many of its files are the March copy's
  unchanged (the corpus keeps both: each is a public copy, and the docs say which are the same text).
"""
import re

COMMUNITY_SOURCES = {
    "KiaraStark/ascendc-homework": "Ascend C course homework op projects (a student's; no verdict kept)",
    "llrnb666-arch/HPC101-AscendC-FusedRMSNorm": "HPC101 course FusedRMSNorm op project (no verdict kept)",
    "sunkafei/ascend-operator-challenge": "Ascend C contest op projects (sunkafei's; no verdict kept)",
    "sunkafei/ascend-operator-challenge2": "Ascend C contest op projects (sunkafei's; no verdict kept)",
    "sunkafei/ascend-operator-challenge-final": "Ascend C contest op projects (sunkafei's; no verdict kept)",
    "T1z1anXXX/s3-ascend-operator": "Ascend C contest op projects (T1z1anXXX's season 3; no verdict kept)",
    "chiparon/ascendC": "Ascend samples re-done and optimised (chiparon's op projects; no verdict kept)",
    "yjb767868009/ascendc_uniprefill": "UniPrefill token-selection .asc kernels (a model port; no verdict kept)",
    "linnlh/ascendc-perf-s2": "Ascend C contest op projects (linnlh's season-2 performance contest; no verdict kept)",
    "HWXROS/AscendcS7": "Ascend C contest op projects (HWXROS's season 7; no verdict kept)",
    "EliwiiKeeya/my_operators_ascendc": "a learner's msopgen op projects (EliwiiKeeya's; no verdict kept)",
    "Golden-Irises/AscendC": "a learner's op projects (Golden-Irises'; no verdict kept)",
    "JeffDing/AscendC_Code": "the Sinh sample as FrameworkLaunch projects (JeffDing's; no verdict kept)",
    "Lulili520/ascendc-optim-agent": "ascendc-optim-agent (LLM-rewritten .asc kernels, profiled on their NPU)",
    "RWKV-Vibe/rwkv_Ascend": "RWKV on Ascend: the wkv op projects of a model port (no verdict kept)",
    "uniartisan/wkv6_Ascend": "an RWKV-6 kernel-launch kernel (run on a 910B by its own main; no verdict kept)",
    "saltyfish88/ascend-c": "a learner's op projects (saltyfish88's; no verdict kept)",
    "KaranocaVe/AscendC-CI": "a PdistGrad op project a CI workflow builds (KaranocaVe's; no verdict kept)",
    "wilburx813/ascend_op": "Ascend C contest op projects (wilburx813's; no verdict kept)",
    "g1050/ascend_c_op": "Ascend C contest op projects (g1050's; no verdict kept)",
    "wybxw/Ascend_ops_Base_S6": "Ascend C contest op projects (wybxw's season 6; no verdict kept)",
    "Ryedii/lab5": "a course lab's op projects (Ryedii's; no verdict kept)",
    "mindspore-ai/ms_custom_ops": "MindSpore's custom AscendC ops (aclnn op projects; tests/st run them on the NPU)",
    "TJ12342/ascend_c_parctice": "a Pdist op project at the repository's root (TJ12342's; its cases keep NPU outputs)",
    "yueliang13/cann-ops-adv-vllm": "sparse paged attention ops on cann-ops-adv's layout (profiled on the NPU)",
    "ghhufue/cann-operator-challenge-august": "a CANN operator challenge op and its reference (validated on their NPU)",
    "tjulitianyi1997/AscendProjects": "Ascend samples of March 2024 (a copy of the official operator/ tree; no verdict kept)",
    "Mr-Xiao2021/ascend_op_learning": "Ascend samples of CANN 8.0.RC3 (a copy of the official operator/ tree; no verdict kept)",
}
# copies of the official Ascend/samples repository with its operator/ tree (op projects and kernel-launch samples)
OFFICIAL_SAMPLE_COPIES = ("tjulitianyi1997/AscendProjects", "Mr-Xiao2021/ascend_op_learning")
BUILT = ("/build_out/", "/build/", "/.ipynb_checkpoints/")   # build outputs and notebook autosaves are no sources


def _chip(host_text: bytes) -> str:
    "The chip an op's OpDef builds it for, as the group names it: 910B when it names ascend910b, else 310B / 310P / other."
    if re.search(rb'AddConfig\(\s*"ascend910b', host_text): return "910B"
    if re.search(rb'AddConfig\(\s*"ascend310b', host_text): return "310B"
    if re.search(rb'AddConfig\(\s*"ascend310p', host_text): return "310P"
    return "other chip"


def _asc_entry(e: dict, text: bytes) -> dict:
    """An .asc file whose kernels are launched from elsewhere (a PyTorch extension) and that defines several: the file
    is compiled whole (every kernel in it), and the first it defines is the one linked (`kernel`, a field the corpus
    reads for asc-file entries). A file with one kernel, or with its own launch, is left to the corpus's own pick."""
    names = re.findall(rb"__global__\s+(?:__\w+__\s+)*void\s+(\w+)\s*\(", text)
    if len(names) > 1 and b"<<<" not in text: return dict(e, kernel=names[0].decode())
    return e


def _optim_agent_entries(files: list[str], read, entry) -> list[dict]:
    """ascendc-optim-agent's kernels: each `<Op>_kernel.asc` (the op's, and each optimisation round's copy under log/),
    one entry per distinct text (a round that left the kernel as it was is the same kernel). Backups (.bak) and
    notebook autosaves are no sources."""
    out, seen = [], set()
    for f in sorted(files):
        if not re.search(r"(^|/)\w+_kernel\.asc$", f): continue
        text = read(f)
        if text in seen: continue
        seen.add(text)
        out.append(dict(entry(f, "asc-file"), hardware="ran"))
    return out


def _ophost_entries(files: list[str], read, entry) -> list[dict]:
    """cann-ops-adv's layout: an op folder with its host sources in ophost/ and its kernel `<op>.cpp` at the folder's
    top (src/transformer/<op>/<op>.cpp); one op-project entry per folder (`layout: "ophost"`), grouped by chip."""
    out = []
    for root in sorted({f.split("/ophost/")[0] for f in files if re.search(r"/ophost/[^/]+\.(?:cpp|cc)$", f)}):
        if f"{root}/{root.rsplit('/', 1)[-1]}.cpp" not in files: continue
        found = "other chip"
        for h in sorted(f for f in files if re.fullmatch(re.escape(root) + r"/ophost/[^/]+\.(?:cpp|cc)", f)):
            found = _chip(read(h))
            if found != "other chip": break
        e = dict(entry(root, "op-project"), layout="ophost")
        out.append(dict(e, source=f"{e['source']}, built for {found}"))
    return out


def materialise_ophost(path: str, files: list[str], read, dest) -> None:
    """An op of cann-ops-adv's layout in the emulator's op-project form: `<path>/ophost/**` to op_host/, the sources at
    the op folder's top (`<path>/*.cpp`, `*.h`) to op_kernel/; its tests, evaluation scripts and other folders stay
    out. `files`: the repository's files; `read(f)`: a file's bytes."""
    for f in files:
        if not f.startswith(path + "/"): continue
        rel = f[len(path) + 1:]
        if rel.startswith("ophost/") and rel.endswith((".cpp", ".cc", ".h", ".hpp")): out = dest / "op_host" / rel[len("ophost/"):]
        elif "/" not in rel and rel.endswith((".cpp", ".h", ".hpp")): out = dest / "op_kernel" / rel
        else: continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(read(f))


def _launch_sample_kernels(files: list[str], read, entry) -> list[dict]:
    """The kernel-launch samples' kernels (the official samples' KernelLaunch/ and kernel_invocation/ folders, and the
    HelloWorld sample): every `.cpp` there that defines a `__global__` function, as a kernel-file entry (the kernel with
    the headers it includes), one per distinct text; main.cpp (which only declares the kernel, for its CPU debug
    build), the host tilings and the pybind11 glue define none."""
    out, seen = [], set()
    for f in sorted(files):
        if not (f.endswith(".cpp") and re.search(r"(^|/)(KernelLaunch|kernel_invocation|HelloWorldSample)/", f)): continue
        text = read(f)
        if text in seen or not re.search(rb"\b__global__\s+(?:__\w+__\s+)*void\s+\w+\s*\([^;{]*\)\s*\{", text): continue
        seen.add(text)
        e = entry(f, "kernel-file")
        out.append(dict(e, source=f"{e['source']}, kernel launch"))
    return out


def community_entries(repo: str, files: list[str], read, entry) -> list[dict]:
    """The entries of one COMMUNITY_SOURCES repository; `read(path)` gives a file's bytes at the pinned commit.
    Op projects are the folders with both op_host/ and op_kernel/ sources (any depth), each in a group by its chip."""
    files = [f for f in files if not any(b in "/" + f for b in BUILT)]
    if repo == "Lulili520/ascendc-optim-agent":
        return _optim_agent_entries(files, read, entry)
    if repo == "uniartisan/wkv6_Ascend":   # one kernel file (npu/ links to it), launched by its own main
        return [entry("cpu/rwkv6_vector.cpp", "asc-file")]
    if repo == "RWKV-Vibe/rwkv_Ascend":   # the op projects; transformers-ascend/ is a Transformers copy, no AscendC
        files = [f for f in files if not f.startswith("transformers-ascend/")]
    if repo == "yjb767868009/ascendc_uniprefill":
        return [_asc_entry(entry(f, "asc-file"), read(f)) for f in sorted(files)
                if re.fullmatch(r"(?:[\w-]+/)?op_kernel/\w+\.asc", f)]
    if repo == "ghhufue/cann-operator-challenge-august":   # the ops' unit tests have op_host/ and op_kernel/ folders too
        files = [f for f in files if "/tests/" not in "/" + f]
    if repo == "yueliang13/cann-ops-adv-vllm":   # cann-ops-adv's layout; external/ is a torch_npu copy, no op
        return _ophost_entries([f for f in files if f.startswith("src/")], read, entry)
    launched = []
    if repo in OFFICIAL_SAMPLE_COPIES:   # the samples' kernel-launch kernels, besides their op projects
        launched = _launch_sample_kernels(files, read, entry)
    kernels = {f.split("op_kernel/")[0] for f in files if re.search(r"(^|/)op_kernel/[^/]+\.cpp$", f)}
    hosts = sorted(f for f in files if re.search(r"(^|/)op_host/[^/]+\.cpp$", f) and f.split("op_host/")[0] in kernels)
    chip = {}
    for h in hosts:
        root = h.split("op_host/")[0]
        found = _chip(read(h))
        if chip.get(root) in (None, "other chip"): chip[root] = found
    out = []
    for root, found in sorted(chip.items()):
        e = entry(root.rstrip("/"), "op-project")
        out.append(dict(e, source=f"{e['source']}, built for {found}"))
    return out + launched
