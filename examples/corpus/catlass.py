"""CATLASS (hicann/catlass): a cube template library's examples, compiled as their host code instantiates the kernels,
and run against the example's own golden where the harness can read the host code.

corpus.py collects the examples (catlass_entries) and dispatches an entry of kind `catlass-example` here (_try_catlass).
This module holds what is CATLASS's alone, in three parts:
- the build: the example's files at their repository paths, CATLASS's include roots, the kernel each `<<<>>>` launch
  names (catlass_materialise, catlass_launched, catlass_deduced_entry, _try_catlass);
- the GEMM path: an example whose host code makes `Kernel::Arguments{options.problemShape, ..., deviceA, ...}` and
  checks with one of CATLASS's golden functions, run through the emulator's `run` (catlass_gemm_run, match_catlass);
- the host path: any other example whose host function the harness can follow (buffers filled as the host fills them
  or from the README's data script, the example's own golden in NumPy float64/int64, its own CompareData, the workspace
  from GetWorkspaceSize, the branch the host takes for the README's shape): catlass_host_run, match_catlass_host.
It is one module because the three share one reader of the host code (_catlass_eval, _catlass_decl, the layout and
type readers): splitting it would split that reader from its two users.
"""
import itertools
import posixpath
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import NamedTuple

from corpus import _split_args, _tree, asc_entry, asc_kernel_source, first_error, first_run_error, per_core_type, show


CATLASS_ROOTS = ("include/", "examples/common/")   # on the example's include path (examples/CMakeLists.txt)
CATLASS_ENTRY = "ascendcraft_catlass_example"      # the generated entry of an example whose kernel only host code names
_CATLASS_LAUNCH_RE = re.compile(r"(?<=[\w>)\]])\s*<<<")


def catlass_launches(text: str) -> str:
    """`text` with each `kernel<args><<<blocks, ...>>>(params);` statement made a call that is never taken,
    `if (false) kernel<args>(params);` (same lines): the kernel template is instantiated, and so compiled, for the
    types the host code gives it (catlass's DeviceGemm launches `KernelAdapter<GemmKernel>`, its kernel type an alias
    local to the example's host function), while nothing runs it from the host."""
    if "<<<" not in text: return text
    out, last = [], 0
    code = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    for m in _CATLASS_LAUNCH_RE.finditer(code):
        if m.start() < last: continue
        start = m.start()
        while start > 0 and code[start - 1] not in ";{}\n": start -= 1   # the statement (or line) starts here
        while code[start] in " \t": start += 1
        end = code.find(">>>", m.end())
        if end < 0: continue
        out += [text[last:start], "if (false) ", text[start:m.start()], " " * (end + 3 - m.start())]
        last = end + 3
    return "".join(out + [text[last:]])


def catlass_place(path: str, folder: str) -> str | None:
    "Where a repository file goes in the entry's folder: the example's own files at its root, then the include roots'."
    for root in (folder + "/", *CATLASS_ROOTS):
        if path.startswith(root): return path[len(root):]
    return None


def catlass_materialise(entry: dict, gitdir: str, dest: Path) -> None:
    """The example's folder (its sources and headers) and, from the pinned commit, the headers of the include roots
    (catlass's include/, examples/common/) that its files include, transitively: a quoted or angle include is looked up
    beside the including file, then in the example's folder, then in each root. The main file keeps the text before
    its host main() (asc_kernel_source); every `<<<>>>` launch becomes an instantiating call (catlass_launches)."""
    commit, path = entry["commit"], entry["path"]
    folder = posixpath.dirname(path)
    tree = set(_tree(gitdir, commit))
    todo = sorted(f for f in tree if f.startswith(folder + "/") and f.endswith(SOURCE_SUFFIXES_CATLASS))
    done = set()
    while todo:
        f = todo.pop()
        if f in done: continue
        done.add(f)
        text = show(gitdir, commit, f).decode(errors="replace")
        for inc in re.findall(r'(?m)^\s*#\s*include\s*[<"]([^>"]+)[>"]', text):
            for cand in (posixpath.normpath(posixpath.join(posixpath.dirname(f), inc)), f"{folder}/{inc}",
                         *(root + inc for root in CATLASS_ROOTS)):
                if cand in tree and catlass_place(cand, folder) is not None:
                    if cand not in done: todo.append(cand)
                    break
        text = catlass_launches(text)
        if f == path: text = asc_kernel_source(text)
        out = dest / catlass_place(f, folder)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)


SOURCE_SUFFIXES_CATLASS = (".cpp", ".h", ".hpp", ".inl", ".inc")


def catlass_entry_source(main: str) -> str:
    "The generated entry of an example that launches its kernel only through a device adapter (catlass_materialise)."
    return (f'#include "{main}"\n'
            "// ascendcraft: the example's kernel is launched by its host code through a device adapter (DeviceGemm ...)\n"
            "// whose kernel type is local to a host function: compiled above as that code instantiates it. It is not\n"
            "// run from here: this entry does nothing.\n"
            f'extern "C" __global__ __aicore__ void {CATLASS_ENTRY}() {{}}\n')


def catlass_deduced_entry(text: str, chosen: str | None) -> str | None:
    """A template kernel the host launches with its template arguments deduced from the call's arguments (catlass's
    31_small_matmul: `template <class LayoutA, class LayoutB, class LayoutC> CATLASS_GLOBAL void SmallMatmul(...,
    LayoutA layoutA, ...)`, launched as `SmallMatmul<<<...>>>(..., layoutA, ...)`): each template parameter bound to the
    type the host code's alias of the same name gives it (`using LayoutA = layout::RowMajor;`). Other entries as given."""
    if not chosen or "<" in chosen: return chosen
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    tpl = re.search(rf"\btemplate\s*<([^<>]*)>\s*(?:extern\s*\"C\"\s*)?\w*GLOBAL\b(?:[^;{{(]|\(\([^()]*\)\))*\b{re.escape(chosen)}\s*\(", code)
    if not tpl: return chosen
    names = [re.findall(r"\w+", p)[-1] for p in tpl.group(1).split(",") if p.strip()]
    aliases = dict(re.findall(r"\busing\s+(\w+)\s*=\s*([\w:<>, ]+?)\s*;", code[tpl.end():]))
    if not names or any(n not in aliases for n in names): return chosen
    return f"{chosen}<{', '.join(aliases[n] for n in names)}>"


def catlass_launched(text: str, defines: str = "") -> list[str]:
    """Every distinct kernel the example's own code launches with `<<<>>>` (`MLA<half>`, `FAInferBf16`), in the order
    of the file, in the code its build's -D flags keep; a template kernel launched without template arguments takes
    them as catlass_deduced_entry binds them."""
    code = _catlass_active(re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S), defines)
    out = []
    for m in re.finditer(r"\b((?:\w+::)*\w+)\s*(?:<((?:[^<>;]|<[^<>;]*>)*)>)?\s*<<<", code):
        name = f"{m.group(1)}<{', '.join(_split_args(m.group(2)))}>" if m.group(2) is not None else catlass_deduced_entry(text, m.group(1))
        if name not in out: out.append(name)
    return out


def _try_catlass(entry: dict, gitdir: str, match: bool) -> dict:
    """A catlass example (catlass_entries): compiled with the include roots on the include path and the example's
    defines; the kernel its host main launches directly (`Kernel<<<...>>>`) is the entry, else the generated one."""
    from ascendcraft.config import load_settings
    from ascendcraft.emu import build, read_sources
    out = dict(entry)
    settings = load_settings()
    with tempfile.TemporaryDirectory() as tmp:
        catlass_materialise(entry, gitdir, Path(tmp))
        sources = read_sources(Path(tmp))
        main = posixpath.basename(entry["path"])
        text = show(gitdir, entry["commit"], entry["path"]).decode(errors="replace")
        chosen = catlass_deduced_entry(text, asc_entry(text, entry.get("defines", "")))
        if chosen is None:
            sources["__ascendcraft_catlass_entry.cpp"] = catlass_entry_source(main)
            chosen = CATLASS_ENTRY
        out["entry"] = chosen
        flags = f"{settings.cxxflags} {entry.get('defines', '')} -iquote ."
        kb = build(sources, chosen, settings=settings.replace(cxxflags=flags))
        out.update(kernel_ok=kb.ok, kernel_error=first_error(kb), **per_core_type(kb))
        others = [k for k in catlass_launched(text, entry.get("defines", "")) if k != chosen] if chosen != CATLASS_ENTRY else []
        if others:   # the file launches several kernels (19_mla: six): each is an entry of its own build
            kernels = {chosen: "ok" if kb.ok else "error"}
            for other in others:
                ob = build(sources, other, settings=settings.replace(cxxflags=flags))
                kernels[other] = "ok" if ob.ok else "error"
                if not ob.ok and out["kernel_ok"]: out.update(kernel_ok=False, kernel_error=f"{other}: {first_error(ob)}")
                if "per_core_type" not in out: out.update(per_core_type(ob))
            out["kernels"] = kernels
        if match and kb.ok:
            try:
                out.update(match_catlass(entry, gitdir, {k: v for k, v in sources.items() if not k.startswith("__ascendcraft")},
                                         settings))
            except Exception as e:  # noqa: BLE001 - the corpus reports every failure, whatever it is
                out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:200])
    return out


CATLASS_RUN_ENTRY = "ascendcraft_catlass_run"
CATLASS_DTYPES = {"half": "float16", "float": "float32", "int8_t": "int8", "int32_t": "int32"}
_CATLASS_ARGS_RE = re.compile(r"\b(\w+)::Arguments\s+arguments\s*\{\s*(?P<batch>batchCount\s*,\s*)?options\.problemShape\s*,(?P<extra>[^;{}]*?)\s*deviceA\s*,"
                              r"\s*deviceB\s*,\s*device(?P<out>[CD])\s*(?P<bias>,\s*deviceBias\s*)?\}\s*;")   # D: the activations' output
CATLASS_AIC_CORES = 24   # an A2's GetCoreNumAic, the examples' block count (aicCoreNum)
CATLASS_AIV_CORES = 48   # an A2's GetCoreNumAiv (an AIV kernel's block count: 17_gemv_aiv)
CATLASS_HOST_TYPES = {"fp16_t": "half", "float": "float", "int8_t": "int8_t", "int32_t": "int32_t"}


class HostValueRules(NamedTuple):
    """Which host declarations `_catlass_host_values` may copy into a generated entry (fields below). Two rule sets:
    the GEMM path's plain values (CATLASS_GEMM_VALUES) and the host path's, which also admit layout makers
    (CATLASS_HOST_RUN_VALUES)."""
    typed: str        # the declared type before the name: a plain name, or (host path) with template arguments and `const`
    refuses: str      # an initialiser matching this is not copied: it reads `options`, a device buffer, a host API
    calls: bool       # initialisers may call functions: called and qualified names are not values to trace
    core_alias: bool  # `x = PlatformAscendCManager::GetInstance()->GetCoreNumAic()` is the A2's core count under another name


CATLASS_GEMM_VALUES = HostValueRules(typed=r"[\w:]+", calls=False, core_alias=False,
                                     refuses=r"\boptions\b|\bdevice\w*|\w+\s*\((?<!sizeof\()")
CATLASS_HOST_RUN_VALUES = HostValueRules(typed=r"[\w:]+(?:\s*<[^;{}]*?>)?(?:\s+const)?", calls=True, core_alias=True,
                                         refuses=r"\boptions\b|\bdevice\w*|->|\bacl\w*|\.data\(\)|\bgolden::")


def _catlass_host_values(code: str, names: list[str], before: int, body: int, rules: HostValueRules) -> list[str] | None:
    """The host function's declarations (before `before`) of the values `names` that a kernel's Arguments statement
    passes (`uint32_t align = 256;`, `bool aNeedPadding = ...;`, on the host path also `LayoutA::MakeLayout<int8_t>(m,
    k)`), in order, with the declarations they need in turn; `m`, `n`, `k` and `aicCoreNum` are the run's own. A
    capitalised name that the function does not declare, or that a `using` names, is a type or constant of the file's
    scope; a name a `using` or a `name::` qualifies may stay unresolved. None when a value is not of the kind `rules`
    admit (it reads `options`, a device pointer or a host API)."""
    out, done = [], {"m", "n", "k", "aicCoreNum"}
    scope = code[body:before]

    def is_type(ident):
        return bool(re.search(rf"\busing\s+{ident}\b|\b{ident}::", code))

    def need(name, depth=0):
        if name in done: return True
        if depth > 8: return False
        decls = list(re.finditer(rf"(?m)^\s*(?:const\s+|constexpr\s+|static\s+)*{rules.typed}\s+{re.escape(name)}\s*"
                                 rf"(?:=\s*([^;]+)|\{{([^;{{}}]*)\}})\s*;", scope))
        if not decls: return False
        expr = decls[-1].group(1) or decls[-1].group(2) or ""
        cores = rules.core_alias and re.fullmatch(
            r"\s*platform_ascendc::PlatformAscendCManager::GetInstance\(\)->GetCoreNum(Aic|Aiv)\(\)\s*", expr)
        if cores:   # the core count under another name (32_w4a8's aicoreNum): an A2's
            done.add(name)
            out.append(f"const uint32_t {name} = {CATLASS_AIC_CORES if cores.group(1) == 'Aic' else CATLASS_AIV_CORES};")
            return True
        if re.search(rules.refuses, expr.replace("sizeof(", "sizeof[")): return False   # sizeof is no call
        if rules.calls:    # template arguments are types (a constant of them is in the scope copied); calls are not values
            values = re.sub(r"(?:\w+::)+(?:template\s+)?\w+|\b\w+(?=\s*\()|sizeof\s*\([^)]*\)", " ",
                            re.sub(r"<[^<>;()]*>", " ", expr))
        else:
            values = re.sub(r"sizeof\s*\([^)]*\)", "", expr)
        for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", values)) - {"true", "false"}:
            if re.fullmatch(r"[A-Z]\w*", ident) and (ident not in scope or re.search(rf"\busing\s+{ident}\b", code)): continue
            if not need(ident, depth + 1) and not is_type(ident): return False
        done.add(name)
        out.append(" ".join(decls[-1].group(0).split()))
        return True
    return out if all(need(n) for n in names) else None


CATLASS_GOLDENS = ("ComputeMatmul", "ComputeMatmulElemWiseRelu", "ComputeMatmulElemWiseGelu", "ComputeMatmulElemWiseSilu",
                   "ComputeMatmulBias", "ComputeBatchedMatmul")


def catlass_gemm_run(main: str, text: str, shape: dict | None = None) -> dict | None:
    """The run of a catlass GEMM example whose host function makes `Kernel::Arguments arguments{options.problemShape,
    deviceA, deviceB, deviceC};` and checks C against `golden::ComputeMatmul` (or its ReLU / GELU / SiLU forms): the
    entry that does what its DeviceGemm does on the device (`Kernel::ToUnderlyingArguments(arguments, workspace)`, then
    the kernel on those params), with the type aliases in scope at that statement (the host function's and those of the
    blocks around it, as C++ scopes them), and the element types and layouts of A, B and C (half, float, int8_t /
    int32_t; RowMajor or ColumnMajor). Where the statement is in a branch (the example picks its kernel by the shape),
    the first such branch's kernel is the one run, and `branch_line` says where it is. None where the example is not of
    that form."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    call = _CATLASS_ARGS_RE.search(code)
    by_shape = False
    if call and shape:   # the statement of the branch the host takes for the run's shape, where its conditions say
        heads = list(re.finditer(r"(?m)^(?:static\s+)?(?:inline\s+)?(?:void|int)\s+\w+\s*\([^;{]*\)\s*\{", code[:call.start()]))
        if heads:
            start, aliases = heads[-1].end() - 1, _catlass_aliases(code)
            for cand in _CATLASS_ARGS_RE.finditer(code, start):
                conds = _catlass_branch_conditions(code, start, cand.start())
                values = [_catlass_condition_value(code, c, shape, start, aliases) for c in conds] if conds is not None else [None]
                if None in values: break   # not decidable here: the first statement
                if all(values):
                    call, by_shape = cand, True
                    break
    goldens = set(re.findall(r"\bgolden::(Compute\w+)\s*\(", code))
    if not call or len(goldens) != 1 or not goldens <= set(CATLASS_GOLDENS): return None
    if (goldens == {"ComputeMatmulBias"}) != bool(call.group("bias")): return None   # a bias vector exactly where added
    if (goldens == {"ComputeBatchedMatmul"}) != bool(call.group("batch")): return None   # a batch exactly where batched
    heads = list(re.finditer(r"(?m)^(?:static\s+)?(?:inline\s+)?(?:void|int)\s+\w+\s*\([^;{]*\)\s*\{", code[:call.start()]))
    if not heads: return None
    body = heads[-1].end() - 1   # the host function's opening brace
    scopes = [[]]   # the aliases and constants (constexpr, static const) of each block open at the statement, outermost first
    for m in re.finditer(r"[{}]|\busing\s+(\w+)\s*=\s*([^;]*);|(?:\bstatic\s+(?:constexpr|const)|\bconstexpr)\s+[^;={}()]*?(\w+)\s*=\s*([^;{}]*);",
                         code[body + 1:call.start()]):
        if m.group(0) == "{": scopes.append([])
        elif m.group(0) == "}": scopes.pop()
        elif m.group(1): scopes[-1].append((m.group(1), " ".join(m.group(2).split()), f"using {m.group(1)} = {' '.join(m.group(2).split())};"))
        else: scopes[-1].append((m.group(3), None, " ".join(m.group(0).split())))
    visible = [a for scope in scopes for a in scope]
    level = {n: v for n, v, _ in visible if v is not None}
    kernel = call.group(1)
    if kernel not in level: return None
    file_level = dict((n, " ".join(v.split())) for n, v in re.findall(r"(?m)^using\s+(\w+)\s*=\s*([^;]*);", code))
    types, layouts = {}, {}
    extras = [e.strip() for e in _split_args(call.group("extra")) if e.strip()]
    values = _catlass_host_values(code, [e for e in extras if re.fullmatch(r"[A-Za-z_]\w*", e)], call.start(), body,
                                  CATLASS_GEMM_VALUES)
    if values is None or any(not re.fullmatch(r"[A-Za-z_]\w*|sizeof\s*\([\w:]+\)|\d+u?", e) for e in extras): return None
    for x in "ABC":
        host = re.search(rf"\bstd::vector<\s*(\w+)\s*>\s*host{call.group('out') if x == 'C' else x}\s*\(", code)
        el = (CATLASS_HOST_TYPES.get(host.group(1)) if host and x == "C" and call.group("out") == "D" else
              level.get(f"Element{x}", file_level.get(f"Element{x}", CATLASS_HOST_TYPES.get(host.group(1)) if host else None)))
        lay = level.get(f"Layout{x}", file_level.get(f"Layout{x}")) or ""
        if el not in CATLASS_DTYPES or lay.rsplit("::", 1)[-1] not in ("RowMajor", "ColumnMajor"): return None
        types[x], layouts[x] = CATLASS_DTYPES[el], lay.rsplit("::", 1)[-1]
    if layouts["C"] != "RowMajor": return None
    if call.group("bias"):
        host = re.search(r"\bstd::vector<\s*(\w+)\s*>\s*hostBias\s*\(", code)
        if not host or CATLASS_HOST_TYPES.get(host.group(1)) not in CATLASS_DTYPES: return None
        types["Bias"] = CATLASS_DTYPES[CATLASS_HOST_TYPES[host.group(1)]]
    src = (f'#include "{main}"\n'
           "// ascendcraft: what the example's DeviceGemm does, on the device: the kernel's params from its arguments\n"
           "// (ToUnderlyingArguments), then the kernel on them; the type aliases are those of the host code.\n"
           f'extern "C" __global__ __aicore__ void {CATLASS_RUN_ENTRY}(GM_ADDR deviceA, GM_ADDR deviceB, GM_ADDR deviceC,\n'
           f"    GM_ADDR deviceWorkspace, uint32_t m, uint32_t n, uint32_t k{', GM_ADDR deviceBias' if call.group('bias') else ''}"
           f"{', uint32_t batchCount' if call.group('batch') else ''})\n{{\n"
           + "".join(f"    {statement}\n" for _, _, statement in visible) +
           f"    const uint32_t aicCoreNum = {CATLASS_AIC_CORES};\n"
           + "".join(f"    {v}\n" for v in values) +
           "    Catlass::GemmCoord problemShape{m, n, k};\n"
           f"    typename {kernel}::Arguments arguments{{{'batchCount, ' if call.group('batch') else ''}problemShape, {''.join(e + ', ' for e in extras)}deviceA, deviceB, deviceC{', deviceBias' if call.group('bias') else ''}}};\n"
           f"    typename {kernel}::Params params = {kernel}::ToUnderlyingArguments(arguments, deviceWorkspace);\n"
           f"    {kernel} op;\n    op(params);\n}}\n")
    return {"source": src, "types": types, "layouts": layouts, "golden": goldens.pop(), "batched": bool(call.group("batch")),
            "branch_line": code.count("\n", 0, call.start()) + 1 if len(scopes) > 1 else None, "by_shape": by_shape}


def catlass_golden(name: str, acc):
    "The activation catlass's golden applies to the float product (examples/common/golden/matmul.hpp)."
    import numpy as np
    def sigmoid(v):
        with np.errstate(over="ignore"): return 1 / (1 + np.exp(-v))   # exp(-v) = inf for v << 0: 0, as intended
    if name == "ComputeMatmulElemWiseRelu": return np.maximum(acc, 0)
    if name == "ComputeMatmulElemWiseSilu": return acc * sigmoid(acc)
    if name == "ComputeMatmulElemWiseGelu": return acc * sigmoid(1.59576912 * (acc + 0.044715 * acc ** 3))
    return acc


def catlass_compare(got, want, k: int) -> tuple[bool, str]:
    """catlass's examples' own check (examples/common/golden/compare_data.hpp, CompareData): |got - want| <= rtol *
    max(1, |want|), rtol 1/256 below 2048 products a result (k), else 1/128."""
    import numpy as np
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    rtol = 1 / 256 if k < 2048 else 1 / 128
    bad = np.abs(got - want) > rtol * np.maximum(1.0, np.abs(want))
    worst = float(np.max(np.abs(got - want))) if got.size else 0.0
    return not bad.any(), f"{int(bad.sum())} of {got.size} outside rtol {rtol:g} (max |diff| {worst:.4g})"


def catlass_compare_bf16(got, want, k: int) -> tuple[bool, str]:
    """catlass's CompareDataBfloat16 (examples/common/golden/compare_data.hpp): |got - want| <= rtol * max(1/256,
    |want|), rtol 1/128 below 2048 products a result (k), else 1/64."""
    import numpy as np
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    rtol = 1 / 128 if k < 2048 else 1 / 64
    bad = np.abs(got - want) > rtol * np.maximum(1 / 256, np.abs(want))
    worst = float(np.max(np.abs(got - want))) if got.size else 0.0
    return not bad.any(), f"{int(bad.sum())} of {got.size} outside rtol {rtol:g} (bfloat16 rule; max |diff| {worst:.4g})"


def match_catlass(entry: dict, gitdir: str, sources: dict, settings) -> dict:
    """Run a catlass GEMM example (catlass_gemm_run) on the shape its README runs (`./<name> m n k`, else catlass's
    default 128 x 128 x 128) with inputs drawn as its host code draws them (uniform in [-5, 5]), on 24 AIC blocks (an
    A2's GetCoreNumAic), and compare with the float64 product under the example's own rule (catlass_compare)."""
    import numpy as np
    from ascendcraft.emu import GM, Scalar, build, run
    text = show(gitdir, entry["commit"], entry["path"]).decode(errors="replace")
    form = catlass_gemm_run(posixpath.basename(entry["path"]), text)
    host = catlass_host_run(posixpath.basename(entry["path"]), text, entry.get("defines", "")) if form is None else None
    if form is None and host is None:
        return {"match": "no-reference", "match_detail": "not an example of the forms catlass_gemm_run / catlass_host_run read"}
    folder = posixpath.dirname(entry["path"])
    name = posixpath.basename(folder)
    readme = show(gitdir, entry["commit"], f"{folder}/README.md").decode(errors="replace") \
        if f"{folder}/README.md" in _tree(gitdir, entry["commit"]) else ""
    batch = 1
    def by_shape(m, n, k, count=1):   # the form again, its kernel the one of the branch the host takes for this shape
        again = catlass_host_run(posixpath.basename(entry["path"]), text, entry.get("defines", ""),
                                 {"m": m, "n": n, "k": k, "problemCount": count})
        return again if again is not None else host
    if host is not None:   # the README's arguments, as the example's Options reads them (GroupedGemmOptions: count first)
        if host["grouped"]:
            shape = re.search(rf"\./(?:[\w.-]+/)*{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", readme)
            if not shape: return {"match": "no-reference", "match_detail": "a grouped example without a README shape"}
            count, m, n, k = (int(g) for g in shape.groups())
            count = min(count, CATLASS_MAX_GROUPS)
            return match_catlass_host(entry, by_shape(m, n, k, count), sources, settings, m, n, k, count)
        if host["options"] == "GemvOptions":   # `./17_gemv_aiv m n [device]`
            shape = re.search(rf"\./(?:[\w.-]+/)*{re.escape(name)}\s+(\d+)\s+(\d+)", readme)
            if not shape: return {"match": "no-reference", "match_detail": "a GEMV example without a README shape"}
            m, n = int(shape.group(1)), int(shape.group(2))
            return match_catlass_host(entry, by_shape(m, n, 1), sources, settings, m, n, 1)
        shape = re.search(rf"\./(?:[\w.-]+/)*{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)", catlass_readme_values(readme))
        cut = ""
        if shape and int(shape.group(1)) * int(shape.group(2)) * int(shape.group(3)) > CATLASS_MAX_PRODUCTS:
            fewer = catlass_fewer_rows(readme, name)
            if fewer is None:
                return {"match": "no-reference", "match_detail": f"the README's shape {'x'.join(shape.groups())} is beyond the run's "
                                                                 f"budget ({CATLASS_MAX_PRODUCTS} products)"}
            cut = f" (m cut from the README's {shape.group(1)} to fit {CATLASS_MAX_PRODUCTS} products)"
            readme = fewer
            shape = re.search(rf"\./(?:[\w.-]+/)*{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)", catlass_readme_values(readme))
        if host["golden"] == "file":   # the data and the golden are the files the example's script writes for that shape
            if not shape: return {"match": "no-reference", "match_detail": "an example reading its data from files, without a README shape"}
            files = catlass_data_files(gitdir, entry["commit"], folder, readme)
            if files is None: return {"match": "no-reference", "match_detail": "harness: the README's data script did not give its files"}
            m, n, k = (int(g) for g in shape.groups())
            out = match_catlass_host(entry, by_shape(m, n, k), sources, settings, m, n, k, files=files)
            return {**out, "match_detail": out["match_detail"] + cut} if cut and "match_detail" in out else out
        m, n, k = (int(g) for g in shape.groups()) if shape else (128, 128, 128)
        return match_catlass_host(entry, by_shape(m, n, k), sources, settings, m, n, k)
    if form["batched"]:   # `./01_batched_matmul batch m n k`
        shape = re.search(rf"\./{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", readme)
        if not shape: return {"match": "no-reference", "match_detail": "a batched example without a README shape"}
        batch, m, n, k = (int(g) for g in shape.groups())
    else:
        shape = re.search(rf"\./{re.escape(name)}\s+(\d+)\s+(\d+)\s+(\d+)", readme)
        m, n, k = (int(g) for g in shape.groups()) if shape else (128, 128, 128)
    form = catlass_gemm_run(posixpath.basename(entry["path"]), text, {"m": m, "n": n, "k": k, "batchCount": batch}) or form
    rng = np.random.default_rng(0)
    def draw(rows, cols, x, lead=()):
        t = np.dtype(form["types"][x])
        v = rng.integers(-5, 6, (*lead, rows, cols)) if t.kind == "i" else rng.uniform(-5, 5, (*lead, rows, cols))
        return v.astype(t)
    lead = (batch,) if form["batched"] else ()
    a, b = draw(m, k, "A", lead), draw(k, n, "B", lead)
    stored = lambda x, mat: np.ascontiguousarray(np.swapaxes(mat, -1, -2)) if form["layouts"][x] == "ColumnMajor" else mat
    kb = build({**sources, "__ascendcraft_catlass_run.cpp": form["source"]}, CATLASS_RUN_ENTRY,
               settings=settings.replace(cxxflags=f"{settings.cxxflags} {entry.get('defines', '')} -iquote ."))
    if not kb.ok: return {"match": "run-error", "match_detail": f"the run's entry did not compile: {first_error(kb)}"[:300]}
    ws = 4 * batch * (4 * m * n + m * k + k * n) + (1 << 20)   # padded copies, split-K partial sums: a GM read past it is an error
    bias = draw(1, n, "Bias")[0] if "Bias" in form["types"] else None
    r = run(kb, [GM("deviceA", stored("A", a)), GM("deviceB", stored("B", b)),
                 GM("deviceC", shape=(*lead, m, n), dtype=np.dtype(form["types"]["C"]), role="out"),
                 GM("deviceWorkspace", shape=(ws,), dtype=np.uint8, role="workspace"),
                 Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t"),
                 *([GM("deviceBias", bias)] if bias is not None else []),
                 *([Scalar(batch, "uint32_t")] if form["batched"] else [])], block_dim=CATLASS_AIC_CORES, settings=settings)
    if not r.ok:
        errs = [d for d in r.diagnostics if d.is_error]
        return {"match": "run-error", "match_detail": first_run_error(errs)[:300]}
    want = catlass_golden(form["golden"], a.astype(np.float64) @ b.astype(np.float64)
                          + (bias.astype(np.float64) if bias is not None else 0))
    ok, detail = catlass_compare(r.outputs["deviceC"], want, k)
    where = (f" (the kernel of the branch at line {form['branch_line']}, {'the one this shape takes' if form['by_shape'] else 'the first'})"
             if form["branch_line"] else "")
    return {"match": "pass" if ok else "mismatch",
            "match_detail": f"{f'{batch} x ' if form['batched'] else ''}{m}x{n}x{k}{where}: {detail}"}


# ---- a catlass example's run read from its host function: buffers, their data, the golden call and the compare -----
CATLASS_NP = {"fp16_t": "float16", "half": "float16", "float": "float32", "int8_t": "int8", "int32_t": "int32",
              "int64_t": "int64", "uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
              "bfloat16": "bfloat16", "bfloat16_t": "bfloat16"}   # bfloat16: uint16 bits
CATLASS_LAYOUTS = ("RowMajor", "ColumnMajor", "VectorLayout", "zN")
# the golden functions (examples/common/golden/matmul.hpp) read by catlass_host_run: the role of each argument
CATLASS_GOLDEN_ARGS = {
    "ComputeMatmul": "shape A lA B lB G lG", "ComputeMatmulElemWiseRelu": "shape A lA B lB G lG",
    "ComputeMatmulElemWiseGelu": "shape A lA B lB G lG", "ComputeMatmulElemWiseSilu": "shape A lA B lB G lG",
    "ComputeMatmulElemWiseAdd": "shape A lA B lB X G lG", "ComputeMatmulBias": "shape A lA B lB Bias G lG",
    "QuantMatmul": "shape A lA B lB S lS P lP G lG",
    "ComputeGemv": "shape alpha beta A lA X lX Y lY G lG",
    "ComputeGroupedMatmul": "count shapes A lA B lB G lG",
    "ComputeGroupedMatmulPerTokenDequant": "shape count GL A lA B lB S lS P lP G lG",
    "ComputeGroupedMatmulSliceKPerTokenDequant": "shape count GL A lA B lB S lS P lP G lG"}
CATLASS_GROUPED_GOLDENS = ("ComputeGroupedMatmul", "ComputeGroupedMatmulPerTokenDequant", "ComputeGroupedMatmulSliceKPerTokenDequant")
CATLASS_MAX_GROUPS = 8   # a grouped example runs at most this many groups (the READMEs' 128 of 2048 x 1024: 512 MiB of B)


def _catlass_aliases(code: str) -> dict:
    "Every `using X = ...;` of the file (the last one of a name wins), spaces normalised."
    return {n: " ".join(v.split()) for n, v in re.findall(r"\busing\s+(\w+)\s*=\s*([^;]*);", code)}


def _catlass_decl(code: str, name: str, body: int, before: int):
    "The last declaration of a local `name` in the host function before `before`: (type text, initialiser text) or None."
    decls = list(re.finditer(rf"(?m)^\s*(?:const\s+|constexpr\s+|static\s+)*((?:[\w:]+)(?:\s*<[^;{{}}]*?>)?)\s+{re.escape(name)}"
                             rf"\s*(?:=\s*([^;]+)|\{{([^;{{}}]*)\}}|\(([^;{{}}]*)\))\s*;", code[body:before]))
    if not decls: return None
    d = decls[-1]
    return d.group(1), " ".join((d.group(2) or d.group(3) or d.group(4) or "").split())


def _catlass_layout_kind(code: str, name: str, body: int, before: int, aliases: dict, depth: int = 0) -> str | None:
    "RowMajor / ColumnMajor / VectorLayout of a layout variable or tag of the host code (through aliases and tags)."
    if depth > 6: return None
    decl = _catlass_decl(code, name, body, before)
    if not decl: return None
    kinds = set()
    for tok in re.findall(r"[A-Za-z_]\w*", f"{decl[0]} {decl[1]}"):
        seen, t = set(), tok
        while t in aliases and t not in seen:   # an alias of an alias ...
            seen.add(t)
            found = [x for x in re.findall(r"\w+", aliases[t]) if x in CATLASS_LAYOUTS or x in aliases]
            if not found: break
            t = found[-1]
        if t in CATLASS_LAYOUTS: kinds.add(t)
        elif tok != name and tok[0].islower() and _catlass_decl(code, tok, body, before):   # MakeLayoutFromTag(tagA)
            k = _catlass_layout_kind(code, tok, body, before, aliases, depth + 1)
            if k: kinds.add(k)
    return kinds.pop() if len(kinds) == 1 else None


def _catlass_host_type(code: str, type_text: str, aliases: dict) -> str | None:
    "The NumPy name of a host element type (through the file's aliases: `using ElementA = int8_t;`)."
    t, seen = type_text.strip(), set()
    while t in aliases and t not in seen: seen.add(t); t = aliases[t].strip()
    return CATLASS_NP.get(t.rsplit("::", 1)[-1])


def _catlass_eval(code: str, expr: str, env: dict, body: int, before: int, aliases: dict, depth: int = 0):
    """The value of a host size expression (`static_cast<size_t>(m) * k`, `lenA * sizeof(int8_t)`, `tagA.Capacity()`),
    its names resolved through the host function's declarations; None when it is not such an expression."""
    import numpy as np
    if depth > 10: return None
    e = re.sub(r"\boptions\.problemShape\.(m|n|k)\(\)", r"\1", expr)
    e = re.sub(r"\boptions\.problemCount\b", "problemCount", e)
    e = re.sub(r"\bstatic_cast<[\w:\s]+>\s*", "", e)
    def size(m):
        t = _catlass_host_type(code, m.group(1), aliases)
        if t is None: return m.group(0)
        return str(2 if t == "bfloat16" else np.dtype(t).itemsize)
    e = re.sub(r"\bsizeof\s*\(\s*([\w:]+)\s*\)", size, e)
    def capacity(m):   # RowMajor: rows x its leading dimension (cols, or the third argument); ColumnMajor: cols x it
        decl = _catlass_decl(code, m.group(1), body, before)
        kind = _catlass_layout_kind(code, m.group(1), body, before, aliases) if decl else None
        if kind not in ("RowMajor", "ColumnMajor"): return m.group(0)
        made = re.search(r"\bMakeLayout\s*<[^<>]*>\s*\((.*)\)\s*$", decl[1])   # MakeLayout<T>(rows, cols)
        whole = re.fullmatch(r"\s*(?:[\w:]+\s*)?\((.*)\)\s*", decl[1])        # (rows, cols[, ldm]) or Layout(...)
        if whole and any(d < 0 for d in itertools.accumulate({"(": 1, ")": -1}.get(c, 0) for c in whole.group(1))):
            whole = None                                                             # `(m), (k)`: not one call
        parts = _split_args(made.group(1) if made else whole.group(1) if whole else decl[1])
        if len(parts) not in (2, 3) or any(not p for p in parts): return m.group(0)
        lead = parts[2] if len(parts) == 3 else parts[1] if kind == "RowMajor" else parts[0]
        return f"({parts[0] if kind == 'RowMajor' else parts[1]})*({lead})"
    e = re.sub(r"\b([A-Za-z_]\w*)\.Capacity\(\)", capacity, e)
    if re.search(r"[^\w\s+\-*/%().\[\]]", e): return None
    vals = {}
    for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", e)):
        if ident in env: vals[ident] = env[ident]; continue
        decl = _catlass_decl(code, ident, body, before)
        if not decl or not decl[1]: return None
        v = _catlass_eval(code, decl[1], env, body, before, aliases, depth + 1)
        if v is None: return None
        vals[ident] = v
    e = re.sub(r"(?<![\d.])(\d+)[uUlL]+\b", r"\1", e)
    integer = not re.search(r"\d\.\d*|\d\.?\d*[eE]|\d+\.?f\b", e) and all(isinstance(v, (int, list)) for v in vals.values())
    e = re.sub(r"(\d\.?\d*)f\b", r"\1", e)
    if integer: e = e.replace("/", "//")
    try: return eval(e, {"__builtins__": {}}, vals)   # noqa: S307 - arithmetic over numbers only (checked above)
    except Exception: return None  # noqa: BLE001


def _catlass_bf16(a):
    "float values rounded to bfloat16 (to nearest, ties to even), as their uint16 bits."
    import numpy as np
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def _catlass_active(code: str, defines: str) -> str:
    """`code` with the lines of inactive `#ifdef X` / `#ifndef X` / `#if defined(X)` branches blanked (line count kept),
    by the build's -D flags (`#else` and `#endif` handled; any other `#if` keeps both branches' text, as before)."""
    defined = set(re.findall(r"-D(\w+)", defines))
    out, stack = [], []   # per open #if: (this branch active, some branch taken, understood)
    for line in code.split("\n"):
        d = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)", line)
        live = all(a for a, _, _ in stack)
        if not d:
            out.append(line if live else ""); continue
        kind, rest = d.group(1), d.group(2).strip()
        name = re.fullmatch(r"(\w+)|!?\s*defined\s*\(?\s*(\w+)\s*\)?", rest) if kind in ("ifdef", "ifndef", "if") else None
        if kind in ("ifdef", "ifndef") and name:
            on = (name.group(1) in defined) == (kind == "ifdef"); stack.append((on, on, True))
        elif kind == "if" and name and name.group(2):
            on = (name.group(2) in defined) != rest.startswith("!"); stack.append((on, on, True))
        elif kind in ("if", "ifdef", "ifndef"): stack.append((True, True, False))
        elif kind == "else" and stack:
            _, taken, known = stack.pop(); stack.append((not taken if known else True, True, known))
        elif kind == "elif" and stack:
            _, taken, known = stack.pop(); stack.append((True, taken, False) if not known else (False, True, True))
        elif kind == "endif" and stack: stack.pop()
        out.append("")
    return "\n".join(out)


def _catlass_void_branches(code: str, aliases: dict) -> str:
    """`code` with the body of each `if constexpr (!std::is_void_v<X>) {...}` blanked where the host's alias X is void
    (and of `if constexpr (std::is_void_v<X>)` where it is not): the branch the host's compile discards (44's bias)."""
    from ascendcraft.emu import past_close
    for m in reversed(list(re.finditer(r"\bif\s+constexpr\s*\(\s*(!?)\s*std::is_void_v\s*<\s*(\w+)\s*>\s*\)\s*\{", code))):
        if m.group(2) not in aliases: continue
        void = aliases[m.group(2)] == "void"
        if void == (m.group(1) == ""): continue   # the branch is taken
        i = past_close(code, m.end(), "{}")
        code = code[:m.end()] + re.sub(r"[^\n]", " ", code[m.end():i - 1]) + code[i - 1:]
    return code


def _catlass_read_file(code: str, host: str):
    """(path, size expression) of `ReadFile(path, host[.data()], size)` in the host code, the path a string literal or a
    `std::string` of one; None where the host reads nothing into `host`."""
    m = re.search(rf"\bReadFile\s*\(\s*(\"[^\"]*\"|\w+)\s*,\s*{host}(?:\.data\(\))?\s*,\s*([^;]+?)\)\s*;", code)
    if not m: return None
    path = m.group(1)
    if not path.startswith('"'):
        lit = re.search(rf"\bstd::string\s+{path}\s*=\s*(\"[^\"]*\")\s*;", code)
        if not lit: return None
        path = lit.group(1)
    return path.strip('"'), m.group(2)


def _catlass_branch_conditions(code: str, body: int, at: int) -> list[str] | None:
    """The conditions (C text, as Python reads them: `(m > n) and not (k > n)`) under which the host function's code
    reaches position `at`: the `if` / `else if` / `else` blocks open there; None where a block open there is something
    else (a loop, a plain block) that is not a function body."""
    stack, chains = [], {}
    for m in re.finditer(r"[{}]", code[body + 1:at]):
        pos = body + 1 + m.start()
        if m.group(0) == "}":
            if stack: stack.pop()
            continue
        head = code[max(code.rfind(";", 0, pos), code.rfind("{", 0, pos), code.rfind("}", 0, pos)) + 1:pos].strip()
        depth = len(stack)
        cond = re.fullmatch(r"(else\s+)?if\s*\((.*)\)", head, re.S)
        if cond and not cond.group(1):
            chains[depth] = [cond.group(2)]
            stack.append(f"({cond.group(2)})")
        elif cond:
            prev = chains.get(depth, [])
            stack.append(" and ".join([*(f"not ({c})" for c in prev), f"({cond.group(2)})"]))
            chains[depth] = [*prev, cond.group(2)]
        elif head == "else":
            stack.append(" and ".join(f"not ({c})" for c in chains.get(depth, [])) or "True")
        else:
            stack.append(None)
    if any(c is None for c in stack): return None
    return stack


def _catlass_condition_value(code: str, cond: str, env: dict, body: int, aliases: dict):
    "The value of a host condition on the run's shape (`options.problemShape.m() > options.problemShape.n()`), or None."
    e = re.sub(r"\boptions\.problemShape\.(m|n|k)\(\)", r"\1", cond)
    e = e.replace("&&", " and ").replace("||", " or ")
    e = re.sub(r"!(?!=)", " not ", e)
    if re.search(r"[^\w\s()<>=!+\-*/%.]", e): return None
    vals = {}
    for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", e)) - {"and", "or", "not", "True", "False"}:
        v = env.get(ident)
        if v is None: v = _catlass_eval(code, ident, env, body, len(code), aliases)
        if not isinstance(v, (int, float)): return None
        vals[ident] = v
    try: return bool(eval(e, {"__builtins__": {}}, vals))   # noqa: S307 - comparisons of numbers (checked)
    except Exception: return None  # noqa: BLE001


def catlass_host_run(main: str, text: str, entry_defines: str = "", shape: dict | None = None) -> dict | None:
    """The run of a catlass example read from its host function, for the examples catlass_gemm_run does not read: the
    first `Kernel::Arguments arguments{...};` (nested braces kept) gives the kernel and its arguments: `options.
    problemShape`, device buffers (`device*`: each a GM argument of the generated entry), and host values whose
    declarations are copied before it (layouts, `aicCoreNum`, constants). Each device buffer's data is the host vector
    copied into it (`aclrtMemcpy(deviceX, size, hostX.data(), ...)`), of the vector's element type and length, filled
    as the host fills it (`golden::FillRandomData(hostX, lo, hi)`); the output is the buffer copied back to a host
    vector; the golden is the example's own golden call (CATLASS_GOLDEN_ARGS), with the layouts its arguments name, and
    the check its CompareData call (rtol by the count it passes). None where the example says more than this reads."""
    from ascendcraft.emu import past_close
    code = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    code = _catlass_active(code, entry_defines)
    call = re.search(r"\b(\w+)::Arguments\s+arguments\s*\{", code)
    chosen_by_shape = False
    if call and shape:   # the statement of the branch the host takes for the run's shape, where its conditions say
        heads = list(re.finditer(r"(?m)^(?:static\s+)?(?:inline\s+)?(?:void|int)\s+\w+\s*\([^;{]*\)\s*\{", code[:call.start()]))
        if heads:
            body = heads[-1].end() - 1
            aliases = _catlass_aliases(code)
            for cand in re.finditer(r"\b(\w+)::Arguments\s+arguments\s*\{", code[body:]):
                conds = _catlass_branch_conditions(code, body, body + cand.start())
                values = [_catlass_condition_value(code, c, shape, body, aliases) for c in conds] if conds is not None else [None]
                if None in values: break   # not decidable here: the first statement, as before
                if all(values):
                    call = re.compile(r"\b(\w+)::Arguments\s+arguments\s*\{").search(code, body + cand.start())
                    chosen_by_shape = True
                    break
    launch = None if call else re.search(r"\b(\w+)\s*(<(?:[^<>;]|<[^<>;]*>)*>)?\s*<<<[^;]*?>>>\s*\(", code)
    if launch:   # a kernel of the file launched by the host itself (31_small_matmul): the entry calls it with those arguments
        call, kernel_call = launch, launch.group(1) + (launch.group(2) or "")
        if not launch.group(2) and (deduced := catlass_deduced_entry(text, launch.group(1))): kernel_call = deduced
    if not call: return None
    opening, closing = ("(", ")") if launch else ("{", "}")
    attr = re.search(rf"__attribute__\s*\(\(\s*(aic|aiv)\s*\)\)[^;{{}}]*\b{launch.group(1)}\s*\(", code) if launch else None
    core_type = f"    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_{attr.group(1).upper()}_ONLY);   // the launched kernel's core type\n" if attr else ""
    i = past_close(code, call.end(), opening + closing)
    inner = code[call.end():i - 1]
    if not re.match(r"\s*;", code[i:]): return None
    heads = list(re.finditer(r"(?m)^(?:static\s+)?(?:inline\s+)?(?:void|int)\s+\w+\s*\([^;{]*\)\s*\{", code[:call.start()]))
    if not heads: return None
    body, before = heads[-1].end() - 1, call.start()
    goldens = [(g.group(1), _split_args(g.group(2))) for g in re.finditer(r"\bgolden::(\w+)\s*\(([^;]*)\)\s*;", code)
               if g.group(1) != "FillRandomData" and not g.group(1).startswith(("Generate", "CompareData"))]
    compare = re.search(r"\bgolden::CompareData(Bfloat16)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*,([^;]*)\)\s*;", code)
    if not compare: return None
    expected = _catlass_read_file(code, compare.group(3))   # the example's golden is a file its data script writes
    if expected and not goldens:
        golden, gargs, roles = "file", [compare.group(3)], ["G"]
    elif len(goldens) != 1 or goldens[0][0] not in CATLASS_GOLDEN_ARGS or compare.group(1): return None
    else:
        golden, gargs = goldens[0]
        roles = CATLASS_GOLDEN_ARGS[golden].split()
    if len(gargs) != len(roles): return None
    aliases = _catlass_aliases(code)
    code = _catlass_void_branches(code, aliases)
    scopes = [[]]
    for m in re.finditer(r"[{}]|\busing\s+(\w+)\s*=\s*([^;]*);|(?:\bstatic\s+(?:constexpr|const)|\bconstexpr)\s+[^;={}()]*?(\w+)\s*=\s*([^;{}]*);",
                         code[body + 1:before]):
        if m.group(0) == "{": scopes.append([])
        elif m.group(0) == "}": scopes.pop()
        elif m.group(1): scopes[-1].append(f"using {m.group(1)} = {' '.join(m.group(2).split())};")
        else: scopes[-1].append(" ".join(m.group(0).split()))
    visible = [s for scope in scopes for s in scope]
    if re.search(r"(?<!\.)\bproblemShape\b", inner): return None   # a shape of the host's own (24_conv_bias), not the options'
    args = re.sub(r"\boptions\.problemShape\b", "problemShape", " ".join(inner.split()))
    devices = list(dict.fromkeys(re.findall(r"\bdevice\w*", args)))
    names = [x for x in dict.fromkeys(re.findall(r"(?<![\w.:])([a-z_]\w*)\b(?!\s*[(<:])", re.sub(r"\bsizeof\s*\([^)]*\)", " ", args)))
             if x not in devices and x not in ("problemShape", "sizeof", "true", "false", "nullptr")]
    nulls = [d for d in devices if re.search(rf"\buint8_t\s*\*\s*{d}\s*\{{\s*nullptr\s*\}}\s*;", code)
             and not re.search(rf"&{d}\b|\b{d}\s*=(?!=)", code)]   # never allocated in the code the build keeps: null
    devices = [d for d in devices if d not in nulls]
    if "deviceWorkspace" in devices or not devices: return None
    grouped = "problemCount" in names   # options.problemCount: a scalar of the entry, as m, n and k are
    scalars = {}   # host scalars the example draws (FillRandomScalarData(alpha, lo, hi)): scalars of the entry
    for x in names:
        fill = re.search(rf"\bFillRandomScalarData\s*\(\s*{x}\s*,\s*([^,;]+),\s*([^,;]+)\)\s*;", code)
        decl = _catlass_decl(code, x, body, before)
        if fill and decl and _catlass_host_type(code, decl[0], aliases) in ("float32", "float16"):
            if re.search(rf"\b{x}\s*=(?!=)", code[fill.end():]): return None
            ctype = "float" if _catlass_host_type(code, decl[0], aliases) == "float32" else "half"
            scalars[x] = (ctype, fill.group(1).strip(), fill.group(2).strip())
    options = re.search(r"\busing\s+Options\s*=\s*(\w+)\s*;", code)
    options = options.group(1) if options else "GemmOptions"
    if options not in ("GemmOptions", "GroupedGemmOptions", "GemvOptions"): return None
    cores = CATLASS_AIV_CORES if re.search(r"\baicCoreNum\s*=[^;]*\bGetCoreNumAiv\s*\(", code[body:before]) else CATLASS_AIC_CORES
    values = _catlass_host_values(code, [x for x in names if x != "problemCount" and x not in scalars], before, body,
                                  CATLASS_HOST_RUN_VALUES)
    if values is None: return None
    env = {"m": None, "n": None, "k": None}
    buffers = []
    for d in devices:
        h2d = re.search(rf"\baclrtMemcpy\s*\(\s*{d}\s*,\s*\w+\s*,\s*(\w+)(?:\.data\(\))?\s*,[^;]*HOST_TO_DEVICE", code)
        d2h = re.search(rf"\baclrtMemcpy\s*\(\s*(\w+)\.data\(\)\s*,\s*\w+\s*,\s*{d}\s*,[^;]*DEVICE_TO_HOST", code)
        alloc = re.search(rf"\baclrtMalloc\s*\(\s*(?:reinterpret_cast<void\s*\*\*>\(|\(void\s*\*\*\)\s*)&{d}\)?\s*,\s*(\w+)", code)
        if not alloc or re.search(rf"\b{d}\s*=\s*(?!=)", code): return None   # one the host may point at another buffer
        buf = {"name": d, "size": alloc.group(1), "in": h2d.group(1) if h2d else None, "out": d2h.group(1) if d2h else None}
        gen = re.search(rf"\b(?:auto|std::vector<\s*[\w:]+\s*>)\s+{buf['in']}\s*=\s*golden::GenerateGroupList\s*(?:<\s*([\w:]+)\s*>)?"
                        rf"\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*;", code) if buf["in"] else None
        if gen:   # golden::GenerateGroupList<T>(dim, count): `count` ascending ends in [0, dim] (a prefix sum), T = int32_t by default
            if buf["out"] or re.search(r"CATLASS_EXPERIMENTAL_GROUPLIST_SEGMENTED", entry_defines): return None
            buf["types"] = {buf["in"]: (_catlass_host_type(code, gen.group(1) or "int32_t", aliases), gen.group(3))}
            buf["grouplist"] = (gen.group(2), gen.group(3))
            buffers.append(buf)
            continue
        read = _catlass_read_file(code, buf["in"]) if buf["in"] else None
        if read:   # bytes the example's data script wrote, read as they are (ReadFile(path, hostX, size))
            if buf["out"] or golden != "file": return None
            buf["file"] = read
            buffers.append(buf)
            continue
        for host in {buf["in"], buf["out"]} - {None}:
            decl = re.search(rf"\bstd::vector<\s*([\w:]+)\s*>\s*{host}\s*\(([^;]*)\)\s*;", code)
            if not decl or not _catlass_host_type(code, decl.group(1), aliases): return None
            buf.setdefault("types", {})[host] = (_catlass_host_type(code, decl.group(1), aliases), decl.group(2))
        if buf["in"]:
            fill = re.search(rf"\bgolden::FillRandomData\s*(?:<\s*([\w:]+)\s*>)?\s*\(\s*{buf['in']}\s*,\s*([^,;]+),\s*([^,;]+)\)\s*;", code)
            if not fill or re.search(rf"\b{buf['in']}\s*\[|\b{buf['in']}\.(?!data\(\)|size\(\)|begin\(\)|end\(\))", code): return None   # filled once, never changed
            buf["fill"] = (fill.group(2).strip(), fill.group(3).strip())
        buffers.append(buf)
    outs = [b for b in buffers if b["out"]]
    if len(outs) != 1 or outs[0]["out"] != compare.group(2) or gargs[roles.index("G")] != compare.group(3): return None
    if golden == "file":
        decl = re.search(rf"\bstd::vector<\s*([\w:]+)\s*>\s*{compare.group(3)}\s*\(", code)
        if not decl or _catlass_host_type(code, decl.group(1), aliases) not in ("float32", "int32"): return None
    hosts = {b["in"]: b for b in buffers if b["in"]}
    derived = {}   # a golden input the host makes from a kernel input, element by element (30_w8a16's dequantised B)
    for role, arg in zip(roles, gargs):
        if role not in ("A", "B", "X", "Y", "Bias", "S", "P") or arg in hosts: continue
        d = re.search(rf"\bstd::vector<\s*([\w:]+)\s*>\s*{arg}\s*\(\s*(\w+)\.begin\(\)\s*,\s*\2\.end\(\)\s*\)\s*;", code)
        loop = re.match(rf"\s*for\s*\([^;{{}}]*;[^;{{}}]*;[^{{}}]*\)\s*\{{\s*{arg}\s*\[\s*(\w+)\s*\]\s*=\s*static_cast<\s*([\w:]+)\s*>\s*\(([^;]*)\)\s*;\s*\}}",
                        code[d.end():]) if d else None
        if not loop or d.group(2) not in hosts or _catlass_host_type(code, d.group(1), aliases) != _catlass_host_type(code, loop.group(2), aliases):
            continue
        expr = re.sub(rf"\b{arg}\s*\[\s*{loop.group(1)}\s*\]", "__v", loop.group(3))
        if re.search(rf"\b{arg}\b|[^\w\s+\-*/().]", expr): continue
        if re.search(rf"\b{arg}\s*\[|\b{arg}\s*=(?!=)", code[d.end() + loop.end():]): continue
        names = {x: _catlass_decl(code, x, body, len(code)) for x in set(re.findall(r"\b[A-Za-z_]\w*\b", expr)) - {"__v"}}
        if any(v is None or _catlass_host_type(code, v[0], aliases) is None for v in names.values()): continue
        derived[arg] = (d.group(2), _catlass_host_type(code, d.group(1), aliases), expr,
                        {x: (_catlass_host_type(code, v[0], aliases), v[1]) for x, v in names.items()})
    hosts.update({arg: {"derived": True} for arg in derived})
    layouts = {}
    for role, arg in zip(roles, gargs):
        if role in ("A", "B", "X", "Y", "Bias", "S", "P", "GL") and arg not in hosts: return None   # a golden input the kernel does not get
        if role == "GL" and "grouplist" not in hosts[arg]: return None
        if role.startswith("l"):
            kind = _catlass_layout_kind(code, arg, body, len(code), aliases)
            if kind is None: return None
            layouts[role[1:]] = kind
    if golden != "file" and layouts.get("G") != ("VectorLayout" if golden == "ComputeGemv" else "RowMajor"): return None
    if golden == "ComputeGemv" and (options != "GemvOptions" or g_args_scalars(roles, gargs) - set(scalars)): return None
    if golden == "ComputeGroupedMatmul":   # the groups' shapes the host loop makes from the list: (rows, n, k) or (m, n, columns)
        lists = [b["grouplist"][0] for b in buffers if b.get("grouplist")]
        shapes = re.findall(rf"\b{gargs[roles.index('shapes')]}\s*\[\s*\w+\s*\]\s*=\s*GemmCoord\s*\{{\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\}}", code)
        if len(lists) != 1 or lists[0] not in ("m", "k") or len(shapes) != 1: return None
        dims = shapes[0]
        if dims[1] != "n" or (lists[0] == "m" and dims[2] != "k") or (lists[0] == "k" and dims[0] != "m"): return None
    src = (f'#include "{main}"\n'
           "// ascendcraft: what the example's device adapter does, on the device: the kernel's params from its arguments\n"
           "// (ToUnderlyingArguments), then the kernel; the arguments, aliases and values are those of the host code.\n"
           f'extern "C" __global__ __aicore__ void {CATLASS_RUN_ENTRY}({", ".join(f"GM_ADDR {d}" for d in devices)},\n'
           f"    GM_ADDR deviceWorkspace, uint32_t m, uint32_t n, uint32_t k{', uint32_t problemCount' if grouped else ''}"
           + "".join(f", {t} {x}" for x, (t, _, _) in scalars.items()) + ", GM_ADDR ascendcraftWorkspaceSize, uint32_t ascendcraftSizeRun)\n{\n"
           + "".join(f"    {s}\n" for s in visible) +
           f"    const uint32_t aicCoreNum = {cores};\n"
           + "".join(f"    {v}\n" for v in values) + "".join(f"    GM_ADDR {d} = nullptr;\n" for d in nulls) +
           ("    Catlass::GemvCoord problemShape{m, n};\n" if options == "GemvOptions" else "    Catlass::GemmCoord problemShape{m, n, k};\n") +
           (f"{core_type}    {kernel_call}({args});\n}}\n" if launch else
            f"    typename {call.group(1)}::Arguments arguments{{{args}}};\n"
            "    if (ascendcraftSizeRun != 0) {   // the size run: what the host's GetWorkspaceSize gives\n"
            "        AscendC::GlobalTensor<uint64_t> size;   // a slot per core of the one group: AIC, AIV 0, AIV 1\n"
            "        size.SetGlobalBuffer((__gm__ uint64_t*)ascendcraftWorkspaceSize, 3);\n"
            "        size.SetValue(g_coreType == AscendC::AIC ? 0 : 1 + AscendC::GetSubBlockIdx(),\n"
            f"                      static_cast<uint64_t>({call.group(1)}::GetWorkspaceSize(arguments)));\n"
            "        return;\n    }\n"
            f"    typename {call.group(1)}::Params params = {call.group(1)}::ToUnderlyingArguments(arguments, deviceWorkspace);\n"
            f"    {call.group(1)} op;\n    op(params);\n}}\n"))
    return {"source": src, "buffers": buffers, "golden": golden, "grouped": grouped, "scalars": scalars, "options": options,
            "derived": derived, "bf16_compare": bool(compare.group(1)),
            "expected": (expected, _catlass_host_type(code, decl.group(1), aliases)) if golden == "file" else None,
            "cores": cores, "gargs": dict(zip(roles, gargs)), "layouts": layouts,
            "compare": _split_args(compare.group(4)), "code": code, "body": body, "aliases": aliases,
            "branch_line": code.count("\n", 0, call.start()) + 1 if len(scopes) > 1 else None, "by_shape": chosen_by_shape}


def g_args_scalars(roles: list[str], gargs: list[str]) -> set[str]:
    "The golden call's scalar arguments (ComputeGemv's alpha and beta)."
    return {a for r, a in zip(roles, gargs) if r in ("alpha", "beta")}


def _catlass_draw(rng, dtype: str, count: int, lo: float, hi: float, int_range: bool):
    """Values as golden::FillRandomData gives them: int8 with integer bounds draws integers in [lo, hi] (its int8_t
    specialisation); otherwise lo + u * (hi - lo), u uniform in [0, 1], converted to the element type (an integer bound
    pair on another type divides rand() by RAND_MAX in integers: lo, but for rand() == RAND_MAX)."""
    import numpy as np
    if dtype == "int8" and int_range: return rng.integers(int(lo), int(hi) + 1, count).astype(np.int8)
    v = np.full(count, float(lo)) if int_range else rng.uniform(lo, hi, count)
    if dtype == "bfloat16": return _catlass_bf16(v)
    return v.astype(np.dtype(dtype))


def _catlass_matrix(flat, rows: int, cols: int, kind: str):
    """A host vector as the (rows, cols) matrix its layout stores: row- or column-major, or zN (catlass's layout::zN of
    MakeLayout: 16-row fractals of one 32-byte C0 of columns each, rows inside a fractal C0 apart, the fractals of a
    column of C0s one after another, the columns of C0s each rows-rounded-to-16 x C0 apart)."""
    import numpy as np
    flat = np.asarray(flat)
    if kind == "zN":
        c0 = 32 // flat.dtype.itemsize
        rows_round = -(-rows // 16) * 16
        r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
        offsets = (r // 16) * (16 * c0) + (c // c0) * (rows_round * c0) + (r % 16) * c0 + (c % c0)
        return flat.astype(np.float64)[offsets]
    flat = flat.astype(np.float64)
    return flat[:rows * cols].reshape(rows, cols) if kind == "RowMajor" else flat[:rows * cols].reshape(cols, rows).T


def _catlass_grouped_golden(name: str, data: dict, layouts: dict, m: int, n: int, k: int, ends: list, dim: str):
    """The grouped goldens of examples/common/golden/matmul.hpp, flat (the groups' results one after another as the
    golden writes them): `ends` the group list (ascending ends, a prefix sum), `dim` the dimension it slices ('m' or
    'k'). ComputeGroupedMatmul takes group g's shape as the example's host loop makes it from the list (slice M:
    (rows of g, n, k); slice K: (m, n, columns of g)), each operand's groups stored one after another in its layout;
    the per-token-dequant forms index the list themselves (slice M: rows of A, B's group g and its n scales; slice K:
    A's and B's k range of g, an m x n result per group, scales and per-token scales per group)."""
    import numpy as np
    sizes = [e - s for s, e in zip([0, *ends[:-1]], ends)]
    A, B = np.asarray(data["A"], np.float64), np.asarray(data["B"], np.float64)
    out = []
    if name == "ComputeGroupedMatmul":
        oa = ob = 0
        for size in sizes:
            mg, kg = (size, k) if dim == "m" else (m, size)
            a = _catlass_matrix(A[oa:oa + mg * kg], mg, kg, layouts["A"])
            b = _catlass_matrix(B[ob:ob + kg * n], kg, n, layouts["B"])
            out.append((a @ b).reshape(-1))
            oa, ob = oa + mg * kg, ob + kg * n
        return np.concatenate(out) if out else np.zeros(0)
    S, P = np.asarray(data["S"], np.float64), np.asarray(data["P"], np.float64)
    a = _catlass_matrix(A, m, k, layouts["A"]).astype(np.int64)
    for g, (s, e) in enumerate(zip([0, *ends[:-1]], ends)):
        if name == "ComputeGroupedMatmulPerTokenDequant":
            b = _catlass_matrix(B[g * k * n:(g + 1) * k * n], k, n, layouts["B"]).astype(np.int64)
            acc = (a[s:e] @ b).astype(np.float64)
            out.append((acc * S[g * n:(g + 1) * n][None, :] * P[s:e][:, None]).reshape(-1))
        else:
            b = _catlass_matrix(B, k, n, layouts["B"]).astype(np.int64)
            acc = (a[:, s:e] @ b[s:e]).astype(np.float64)
            out.append((acc * S[g * n:(g + 1) * n][None, :] * P[g * m:(g + 1) * m][:, None]).reshape(-1))
    return np.concatenate(out) if out else np.zeros(0)


def catlass_host_golden(name: str, data: dict, layouts: dict, m: int, n: int, k: int):
    """The golden functions of examples/common/golden/matmul.hpp in float64 (QuantMatmul: the int8 product summed exactly,
    then scaled by the per-channel and per-token scales), an (m, n) row-major result."""
    import numpy as np
    a = _catlass_matrix(data["A"], m, k, layouts["A"])
    b = _catlass_matrix(data["B"], k, n, layouts["B"])
    if name == "QuantMatmul":
        acc = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float64)
        return acc * np.asarray(data["S"], np.float64)[:n][None, :] * np.asarray(data["P"], np.float64)[:m][:, None]
    acc = a @ b
    if name == "ComputeMatmulElemWiseAdd": return acc + _catlass_matrix(data["X"], m, n, "RowMajor")
    if name == "ComputeMatmulBias": return acc + np.asarray(data["Bias"], np.float64)[:n][None, :]
    return catlass_golden(name, acc)


CATLASS_MAX_PRODUCTS = 1 << 31   # a run's m * n * k at most (about 30 s of the emulator's cube per 2^27)


def catlass_readme_values(readme: str) -> str:
    "The README with its shell variables (`m=860` lines of its script) put in where it uses them (`$m`, `${m}`)."
    values = dict(re.findall(r"(?m)^\s*(\w+)=(\d+)\s*$", readme))
    return re.sub(r"\$\{?(\w+)\}?", lambda v: values.get(v.group(1), v.group(0)), readme)


def catlass_fewer_rows(readme: str, name: str) -> str | None:
    """The README with its script's `m=<rows>` line cut so that the run `./<name> $m $n $k` stays within
    CATLASS_MAX_PRODUCTS, every other value as written (n and k carry the example's alignment; its kernels tile the
    rows freely): None unless the run and the data script both take `$m` first, from one `m=` line."""
    if len(re.findall(r"(?m)^\s*m=\d+\s*$", readme)) != 1: return None
    run = re.search(rf"\./(?:[\w.-]+/)*{re.escape(name)}\s+\$\{{?m\}}?\s+\$\{{?(\w+)\}}?\s+\$\{{?(\w+)\}}?", readme)
    data = re.search(r"python3?\s+\w+\.py\s+\$\{?m\}?\s", readme)
    values = dict(re.findall(r"(?m)^\s*(\w+)=(\d+)\s*$", readme))
    if not run or not data or run.group(1) not in values or run.group(2) not in values: return None
    rows = CATLASS_MAX_PRODUCTS // (int(values[run.group(1)]) * int(values[run.group(2)]))
    if rows < 1: return None
    return re.sub(r"(?m)^(\s*)m=\d+(\s*)$", lambda v: f"{v.group(1)}m={min(rows, int(values['m']))}{v.group(2)}", readme)


def catlass_data_files(gitdir: str, commit: str, folder: str, readme: str) -> dict | None:
    """The files an example's data script writes (`python3 gen_data.py 256 512 1024` in its README, the first such
    command), run with the machine's Python in a scratch folder holding the example's scripts: {file name: bytes}, or
    None where the README names no such command, the script fails, or two files have one name."""
    import subprocess
    cmd = re.search(r"python3?\s+(\w+\.py)((?:[ \t]+\d+)+)", catlass_readme_values(readme))
    if not cmd: return None
    with tempfile.TemporaryDirectory() as tmp:
        for f in _tree(gitdir, commit):
            if f.startswith(folder + "/") and f.endswith(".py") and "/" not in f[len(folder) + 1:]:
                (Path(tmp) / posixpath.basename(f)).write_bytes(show(gitdir, commit, f))
        if not (Path(tmp) / cmd.group(1)).is_file(): return None
        done = subprocess.run([sys.executable, cmd.group(1), *cmd.group(2).split()], cwd=tmp, capture_output=True, timeout=600)
        if done.returncode != 0: return None
        out = {}
        for f in Path(tmp).rglob("*"):
            if f.is_file() and f.suffix != ".py":
                if f.name in out: return None
                out[f.name] = f.read_bytes()
        return out


def match_catlass_host(entry: dict, form: dict, sources: dict, settings, m: int, n: int, k: int, count: int = 1,
                       files: dict | None = None) -> dict:
    """Run a catlass_host_run form on (m, n, k) (and `count` groups) and compare under the example's CompareData call
    (its count of products choosing the rtol; a fourth argument: only that many leading results are compared)."""
    import numpy as np
    from ascendcraft.emu import GM, Scalar, build, run
    code, body, aliases = form["code"], form["body"], form["aliases"]
    env = {"m": m, "n": n, "k": k, "problemCount": count}
    ev = lambda e: _catlass_eval(code, e, env, body, len(code), aliases)
    as_float = lambda vals, dtype: (vals.astype(np.uint32) << 16).view(np.float32) if dtype == "bfloat16" else vals
    rng = np.random.default_rng(0)
    kb = build({**sources, "__ascendcraft_catlass_run.cpp": form["source"]}, CATLASS_RUN_ENTRY,
               settings=settings.replace(cxxflags=f"{settings.cxxflags} {entry.get('defines', '')} -iquote ."))
    if not kb.ok: return {"match": "run-error", "match_detail": f"the run's entry did not compile: {first_error(kb)}"[:300]}
    gms, data, out, grouplist, drawn = [], {}, None, None, {}
    for b in form["buffers"]:
        size = ev(b["size"])
        if not isinstance(size, int) or size <= 0: return {"match": "no-reference", "match_detail": f"harness: size of {b['name']} ({b['size']})"}
        if b.get("file"):   # the data script's bytes, as the host reads them (its size expression, at most the buffer)
            got_file = (files or {}).get(posixpath.basename(b["file"][0]))
            n_bytes = ev(b["file"][1])
            if got_file is None or not isinstance(n_bytes, int): return {"match": "no-reference", "match_detail": f"harness: the data file {b['file'][0]}"}
            vals = np.frombuffer(got_file[:n_bytes], np.uint8)
        elif b.get("grouplist"):
            dim, groups = ev(b["grouplist"][0]), ev(b["grouplist"][1])
            if not isinstance(dim, int) or not isinstance(groups, int): return {"match": "no-reference", "match_detail": "harness: the group list"}
            vals = np.sort(rng.integers(0, dim + 1, groups)).astype(np.dtype(b["types"][b["in"]][0]))
            data[b["in"]] = vals
            env[b["in"]] = [int(v) for v in vals]   # CompareData's valid count reads it (groupList[problemCount - 1] * n)
            grouplist = (env[b["in"]], b["grouplist"][0])
        elif b["in"] in drawn:   # a host vector copied into two buffers (17_gemv_aiv's hostY): the same values
            vals = drawn[b["in"]]
        elif b["in"]:
            dtype, length = b["types"][b["in"]]
            n_vals, lo, hi = ev(length), ev(b["fill"][0]), ev(b["fill"][1])
            if not isinstance(n_vals, int) or lo is None or hi is None:
                return {"match": "no-reference", "match_detail": f"harness: the data of {b['in']}"}
            vals = _catlass_draw(rng, dtype, n_vals, lo, hi, isinstance(lo, int) and isinstance(hi, int))
            data[b["in"]], drawn[b["in"]] = as_float(vals, dtype), vals
        if b["in"]:
            raw = np.zeros(size, np.uint8)
            raw[:min(size, vals.nbytes)] = vals.view(np.uint8)[:size]
            gms.append(GM(b["name"], raw, role="inout" if b["out"] else "in"))
        else:
            gms.append(GM(b["name"], shape=(size,), dtype=np.uint8, role="out"))
        if b["out"]: out = (b["name"], *b["types"][b["out"]])
    scalars = []
    for x, (ctype, lo, hi) in form["scalars"].items():   # FillRandomScalarData: lo + u * (hi - lo), in the scalar's type
        lo, hi = ev(lo), ev(hi)
        if lo is None or hi is None: return {"match": "no-reference", "match_detail": f"harness: the value of {x}"}
        data[x] = float(np.array(rng.uniform(lo, hi), np.float32 if ctype == "float" else np.float16))
        scalars.append(Scalar(data[x], ctype))
    fixed = [Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), *([Scalar(count, "uint32_t")] if form["grouped"] else []), *scalars]
    ws = 1 << 20
    if "GetWorkspaceSize" in form["source"]:   # the workspace the host allocates: the kernel's GetWorkspaceSize, run once
        sr = run(kb, [*gms, GM("deviceWorkspace", shape=(16,), dtype=np.uint8, role="workspace"), *fixed,
                      GM("ascendcraftWorkspaceSize", np.zeros(3, np.uint64), role="inout"), Scalar(1, "uint32_t")],
                 block_dim=1, settings=settings)
        if not sr.ok:
            errs = [d for d in sr.diagnostics if d.is_error]
            return {"match": "run-error", "match_detail": ("workspace size: " + first_run_error(errs))[:300]}
        ws = max(16, int(np.asarray(sr.outputs["ascendcraftWorkspaceSize"]).reshape(-1).max()))
    r = run(kb, [*gms, GM("deviceWorkspace", shape=(ws,), dtype=np.uint8, role="workspace"), *fixed,
                 GM("ascendcraftWorkspaceSize", np.zeros(3, np.uint64)), Scalar(0, "uint32_t")], block_dim=form["cores"], settings=settings)
    if not r.ok:
        errs = [d for d in r.diagnostics if d.is_error]
        return {"match": "run-error", "match_detail": first_run_error(errs)[:300]}
    raw = np.asarray(r.outputs[out[0]]).view(np.uint8)
    n_out = ev(out[2])
    got = as_float(raw.view(np.uint16)[:n_out], "bfloat16") if out[1] == "bfloat16" else raw.view(np.dtype(out[1]))[:n_out]
    for arg, (src_name, dtype, expr, names) in form["derived"].items():   # in the element type, each operation rounded to it
        values = {x: ev(init) for x, (_, init) in names.items()}
        if any(v is None for v in values.values()): return {"match": "no-reference", "match_detail": f"harness: the values {arg} is made of"}
        values = {x: np.array(v, np.dtype(names[x][0])) for x, v in values.items()}
        values["__v"] = np.asarray(drawn[src_name]).astype(np.dtype(dtype))
        data[arg] = np.asarray(eval(expr, {"__builtins__": {}}, values)).astype(np.dtype(dtype))   # noqa: S307 - arithmetic (checked)
    g = form["gargs"]
    inputs = {role: data[g[role]] for role in ("A", "B", "X", "Y", "Bias", "S", "P", "alpha", "beta") if role in g}
    if form["golden"] in CATLASS_GROUPED_GOLDENS:
        if grouplist is None: return {"match": "no-reference", "match_detail": "harness: a grouped golden without a group list"}
        want = _catlass_grouped_golden(form["golden"], inputs, form["layouts"], m, n, k, *grouplist)
    elif form["golden"] == "file":
        path, dtype = form["expected"][0][0], form["expected"][1]
        raw_want = (files or {}).get(posixpath.basename(path))
        if raw_want is None: return {"match": "no-reference", "match_detail": f"harness: the golden file {path}"}
        want = np.frombuffer(raw_want[:len(raw_want) - len(raw_want) % 4], np.dtype(dtype)).astype(np.float64)
    elif form["golden"] == "ComputeGemv":   # alpha * A x + beta * y, A m x n
        a = _catlass_matrix(inputs["A"], m, n, form["layouts"]["A"])
        want = inputs["alpha"] * (a @ np.asarray(inputs["X"], np.float64)[:n]) + inputs["beta"] * np.asarray(inputs["Y"], np.float64)[:m]
    else:
        want = catlass_host_golden(form["golden"], inputs, form["layouts"], m, n, k).reshape(-1)
    counts = [ev(c) for c in form["compare"]]
    if not counts or len(counts) > 2 or not all(isinstance(c, int) for c in counts):
        return {"match": "no-reference", "match_detail": f"harness: CompareData's counts ({', '.join(form['compare'])})"}
    valid = counts[1] if len(counts) == 2 else n_out
    if valid <= 0: return {"match": "no-reference", "match_detail": f"harness: {valid} results to compare"}
    padded = ""
    if valid > min(len(want), len(got)) and form["golden"] == "file" and valid <= n_out:
        # a host vector declared longer than the bytes copied into it (a size in bytes given as its count: 38_w4a4's
        # std::vector<bfloat16> hostD(sizeD)) holds value-initialised zeros past them, as does the expected vector the
        # golden file is read into: CompareData runs over both, as the host program does
        padded = f"; {valid - min(len(want), len(got))} zeros of the host vectors' tails compared too"
        got = np.concatenate([np.asarray(got, np.float64), np.zeros(max(0, valid - len(got)))])
        want = np.concatenate([np.asarray(want, np.float64), np.zeros(max(0, valid - len(want)))])
    if valid > min(len(want), len(got)): return {"match": "no-reference", "match_detail": f"harness: {valid} results to compare, {len(want)} computed"}
    if form["bf16_compare"]:
        ok, detail = catlass_compare_bf16(np.asarray(got, np.float64)[:valid], want[:valid], counts[0])
    elif form["golden"] == "file" and form["expected"][1] == "int32":   # CompareData's int32_t form: equal
        bad = np.asarray(got, np.int64)[:valid] != np.asarray(want, np.int64)[:valid]
        ok, detail = not bad.any(), f"{int(bad.sum())} of {valid} differ (int32, exact)"
    else:
        ok, detail = catlass_compare(np.asarray(got, np.float64)[:valid], want[:valid], counts[0])
    where = (f" (the kernel of the branch at line {form['branch_line']}, {'the one this shape takes' if form['by_shape'] else 'the first'})"
             if form["branch_line"] else "")
    groups = f"{count} groups ({', '.join(map(str, grouplist[0]))}) of " if grouplist else ""
    return {"match": "pass" if ok else "mismatch", "match_detail": f"{groups}{m}x{n}x{k}{where}: {detail}{padded}"}
