"""EvoKernel's op projects (arXiv 2603.10846; KernelHive/ascendc-skill's copy) run against their PyTorch references.

Each exported op folder (<collection>/<Op>Custom) holds the op project and its torch extension
(CppExtension/csrc/op.cpp: the bound function whose EXEC_NPU_CMD calls aclnn<Op>Custom), but not the ModelNew that
called it. The dataset's pytorch-references/<Suite>/dataset.json names each task's `pascal_name`; the op <P>Custom is
the task whose pascal_name is <P> (KernelBench's by level: <level>/<key>.py; Attention and MHC flat: <key>.py).

match_evokernel runs MultiKernelBench's correctness step (mkb.match_mkb) with strings made from the project: op.cpp as
python_bind_src, and a ModelNew derived from op.cpp's function signature: a subclass of the reference's Model (so its
parameters are made alike under the same seed) whose forward calls the extension with, for each parameter of the
bound function, the value of that name (bind_call): a forward argument, a parameter or buffer of the Model (by its
dotted name with `_`, or its last part when only one has it), an argument of the Model's constructor, or a plain
attribute; names compared in lower case without underscores, a trailing `_opt` dropped, w = weight, b = bias,
self / input = x, a norm's gamma / beta / mean / var = weight / bias / running_mean / running_var; failing that, the one value whose name the parameter's starts (conv_bias = conv_transpose.bias,
scaling = scaling_factor). Parameters left unnamed take the forward arguments left, in order, when as many are left. A
parameter that names nothing leaves the op without a reference (no-reference), not a mismatch, unless the reference
says which PyTorch step their ModelNew ran before the op: the output of the one module the call leaves out
(module_prefix: ResidualAttention's 1x1 convolution), the submodule the op is (op_part: MultiHeadAttention's
ScaledDotProductAttention), the forward's locals or its submodules' outputs when the op is the forward's tail
(tail_values, module_outputs: CoordAtt's a_w, a_h; CBAMBlock's ca, sa), or a span of the forward's statements between
those locals and the one value the rest of the forward needs of it (forward_span: q, k, v before W_o, where op.cpp's own
checks accept them; the op compared with that value). `python evokernel.py --dry ...` derives every
call without building (dry_match). Tolerance: atol = rtol = 1e-2 (KernelBench's check, which EvoKernel's tasks
come from; the export does not record theirs).
"""
import argparse
import inspect
import json
import posixpath
import re
import sys
import tempfile
import time
from pathlib import Path

EVOKERNEL_ATOL = EVOKERNEL_RTOL = 1e-2
SUITES = {"ops-kernelbench-910b": "KernelBench", "ops-attention-910b": "Attention", "ops-mhc-910b": "MHC"}
SYNONYMS = {"w": "weight", "b": "bias", "self": "x", "input": "x", "gamma": "weight", "beta": "bias",
            "mean": "runningmean", "var": "runningvar"}   # a norm's affine and running statistics as torch names them


class EvoKernelUnbound(LookupError):
    "An op.cpp parameter that names no value of the reference Model (one its ModelNew computed itself)."


def reference_path(op_root: str, dataset_json: str) -> str | None:
    """The reference task file of an EvoKernel op folder (…/EvoKernel/<collection>/<P>Custom), given its suite's
    pytorch-references/<Suite>/dataset.json text; None when no task has that pascal_name."""
    coll, op = op_root.rstrip("/").split("/")[-2:]
    suite = SUITES.get(coll)
    if suite is None or not op.endswith("Custom"): return None
    data = json.loads(dataset_json)
    root = posixpath.join(posixpath.dirname(posixpath.dirname(op_root.rstrip("/"))), "pytorch-references", suite)
    for key, task in data.get("ops", {}).items():
        if str(task.get("pascal_name", "")).lower() == op[:-len("Custom")].lower():   # FusedMhcKernels = FusedMHCKernels
            sub = task.get("level") if data.get("layout") == "by_level" else None
            return posixpath.join(root, *([sub] if sub else []), f"{key}.py")
    return None


def bound_function(op_cpp: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The Python name op.cpp's PYBIND11_MODULE binds and its C++ function's parameters [(type, name)]."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", op_cpp, flags=re.S)
    bound = re.search(r"\.def\(\s*\"(\w+)\"\s*,\s*&?\s*(\w+)", code)
    if not bound: return None
    fn = re.search(rf"\b{bound.group(2)}\s*\(([^)]*)\)\s*\{{", code)
    if not fn: return None
    params = []
    for p in (a.strip() for a in fn.group(1).split(",") if a.strip()):
        p = re.sub(r"=.*", "", p).strip()
        m = re.fullmatch(r"(.*?)[\s&*]*(\w+)", p, re.S)
        if not m: return None
        params.append((re.sub(r"\s+", " ", m.group(1)).strip(), m.group(2)))
    return bound.group(1), params


TORCH_DTYPES = {"kInt": "int32", "kInt32": "int32", "kLong": "int64", "kInt64": "int64", "kFloat": "float32",
                "kFloat32": "float32", "kHalf": "float16", "kFloat16": "float16", "kBFloat16": "bfloat16",
                "kBool": "bool", "kByte": "uint8", "kChar": "int8", "kDouble": "float64"}


def _scalar_made(expr: str, code: str, scalars: set[str]) -> tuple[str, tuple, str | None] | None:
    """(scalar parameter, shape, dtype or None: that of the tensor whose options it takes) of a tensor that holds one
    scalar parameter's value, made by `expr` (the text after a local's `=`), whose own statements are in `code`:
    at::empty({shape}, opts) then <local>.fill_(p) (through casts), at::full({shape}, p, opts), at::scalar_tensor(p,
    opts), or a helper / lambda of the file doing one of those on its own parameter; None otherwise."""
    from corpus import _balanced, _split_args
    cast = r"(?:static_cast<[\w:]+>|\(\s*[\w:]+\s*\))?"
    def value(v, names=scalars):   # the scalar parameter a value is (through casts), or None
        v = v.strip()
        while True:
            m = re.fullmatch(rf"{cast}\s*\((.*)\)", v, re.S) or re.fullmatch(r"static_cast<[\w:]+>\s*\((.*)\)", v, re.S)
            if not m: break
            v = m.group(1).strip()
        return v if v in names else None
    def dtype(opts):
        m = re.search(r"\bdtype\s*\(\s*(?:at|torch|c10)::(?:ScalarType::)?(k\w+)\s*\)", opts)
        return TORCH_DTYPES.get(m.group(1)) if m else None
    def shape(text):
        try:
            return tuple(int(d) for d in _split_args(text) if d.strip())
        except ValueError:
            return None
    call = re.fullmatch(r"\s*(\w+)\s*\((.*)\)\s*", expr, re.S)
    if call and call.group(1) not in ("empty", "full", "scalar_tensor"):   # a helper or a lambda of the file
        args = _split_args(call.group(2))
        fn = re.search(rf"\b{call.group(1)}\s*\(([^()]*)\)\s*(?:->\s*[\w:]+\s*)?\{{", code) or \
            re.search(rf"\b{call.group(1)}\s*=\s*\[[^\]]*\]\s*\(([^()]*)\)\s*(?:->\s*[\w:]+\s*)?\{{", code)
        if not fn: return None
        own = [re.sub(r"=.*", "", a).strip().split()[-1].lstrip("&*") for a in _split_args(fn.group(1)) if a.strip()]
        body = _balanced(code, fn.end() - 1, "{}")
        given = [(o, a.strip()) for o, a in zip(own, args) if a.strip() in scalars]
        empties = re.findall(r"\bat::empty\s*\(\s*\{([^{}]*)\}\s*,([^;]*)\)\s*;", body)
        fills = re.findall(r"\.\s*fill_\s*\(([^;]*)\)\s*;", body)
        if len(given) != 1 or len(empties) != 1 or len(fills) != 1 or len(own) != len(args): return None
        inner = given[0][0]
        locals_ = dict(re.findall(r"\b(\w+)\s*=\s*([^;]*);", body))
        v = fills[0].strip()
        v = locals_.get(v, v) if v not in own else v
        if value(v, {inner}) != inner or shape(empties[0][0]) is None: return None
        return given[0][1], shape(empties[0][0]), dtype(empties[0][1])
    m = re.fullmatch(r"\s*(?:at|torch)::empty\s*\(\s*\{([^{}]*)\}\s*,(.*)\)\s*", expr, re.S)
    if m:
        return ("fill", shape(m.group(1)), dtype(m.group(2))) if shape(m.group(1)) is not None else None
    m = re.fullmatch(r"\s*(?:at|torch)::full\s*\(\s*\{([^{}]*)\}\s*,(.*)\)\s*", expr, re.S)
    if m:
        rest = _split_args(m.group(2))
        p = value(rest[0]) if rest else None
        return (p, shape(m.group(1)), dtype(",".join(rest[1:]))) if p and shape(m.group(1)) is not None else None
    m = re.fullmatch(r"\s*(?:at|torch)::scalar_tensor\s*\((.*)\)\s*", expr, re.S)
    if m:
        rest = _split_args(m.group(1))
        p = value(rest[0]) if rest else None
        return (p, (), dtype(",".join(rest[1:]))) if p else None
    return None


def scalar_locals(op_cpp: str) -> tuple[str, dict]:
    """op.cpp with each op input that its bound function makes as a tensor holding one of its scalar parameters
    (_scalar_made: GCT's `c_t = at::empty({}, x.options()); c_t.fill_(static_cast<float>(c))`, LCT's int32 `g_t` of
    `groups`, a helper's `MakeScalarTensor(A, s)`) turned into a parameter of that function, appended, its making
    dropped; and {that parameter's name: (the scalar parameter's name, shape, dtype or None = the dtype of the tensor
    its options come from, that tensor's name or None)}, for bind_call to make the tensor. Unchanged ({}) otherwise."""
    from corpus import _balanced, _split_args
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", op_cpp, flags=re.S)
    found = bound_function(code)
    if not found: return op_cpp, {}
    fn_name = re.search(r"\.def\(\s*\"\w+\"\s*,\s*&?\s*(\w+)", code).group(1)
    head = re.search(rf"\b{fn_name}\s*\(([^)]*)\)\s*\{{", code)
    body = _balanced(code, head.end() - 1, "{}")
    params = found[1]
    scalars = {n for t, n in params if "Tensor" not in t}
    call = re.search(r"EXEC_NPU_CMD\s*\(", body)
    if not call: return op_cpp, {}
    args = [a.strip() for a in _split_args(_balanced(body, call.end() - 1))[1:]]
    made, new_body = {}, body
    for a in args:
        if a in {n for t, n in params} or not re.fullmatch(r"\w+", a): continue
        d = re.search(rf"(?:\b(?:at|torch)::Tensor|\bauto)\s+{a}\s*=\s*([^;]*);", body)
        if not d: continue
        got = _scalar_made(d.group(1), code, scalars)
        if got and got[0] == "fill":   # at::empty, then filled: with which scalar
            fills = re.findall(rf"\b{a}\s*\.\s*fill_\s*\(([^;]*)\)\s*;", body)
            v = _scalar_made(f"at::full({{{','.join(map(str, got[1]))}}}, {fills[0]}, x)", code, scalars) if len(fills) == 1 else None
            got = (v[0], got[1], got[2]) if v else None
        if not got: continue
        like = re.search(r"\b(\w+)\s*\.\s*options\s*\(", d.group(1))
        made[a] = (got[0], got[1], got[2], like.group(1) if like else None)
        new_body = re.sub(rf"(?:\b(?:at|torch)::Tensor|\bauto)\s+{a}\s*=\s*[^;]*;", "", new_body, count=1)
        new_body = re.sub(rf"\b{a}\s*\.\s*fill_\s*\([^;]*\)\s*;", "", new_body)
    if not made: return op_cpp, {}
    sig = head.group(1).rstrip() + "".join(f", const at::Tensor& {a}" for a in made)
    text = code[:head.start()] + f"{fn_name}({sig}) {{" + new_body + "}" + code[head.end() + len(body) + 1:]
    return text, made


RANK_CHECK = re.compile(r"\b(\w+)\s*\.\s*dim\s*\(\s*\)\s*==\s*(\d+)")


def checked_ranks(op_cpp: str) -> dict[str, int]:
    """{parameter: rank} that op.cpp's TORCH_CHECKs require (`TORCH_CHECK(alpha.dim() == 1 && ...)`), where one rank is
    required of it; a check made in a helper function counts for the argument passed there
    (`check_1d_param(scale_1d, "scale", 64)` whose body checks `t.dim() == 1`)."""
    from ascendcraft.emu import past_close
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", op_cpp, flags=re.S)
    found = {}
    for name, rank in RANK_CHECK.findall(code):
        found.setdefault(name, set()).add(int(rank))
    for m in re.finditer(r"\b(\w+)\s*\(([^()]*)\)\s*\{", code):   # a function: its parameters' checked ranks
        end = past_close(code, m.end(), "{}")
        names = [re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else "" for p in m.group(2).split(",")]
        ranks = {i: {int(r) for n, r in RANK_CHECK.findall(code[m.end():end]) if n == name} for i, name in enumerate(names)}
        for call in re.finditer(rf"\b{m.group(1)}\s*\(((?:[^()]|\([^()]*\))*)\)\s*;", code):   # its calls, by argument
            for i, arg in enumerate(a.strip() for a in call.group(1).split(",")):
                if ranks.get(i) and re.fullmatch(r"\w+", arg): found.setdefault(arg, set()).update(ranks[i])
    return {n: r.pop() for n, r in found.items() if len(r) == 1}


def same_sizes(op_cpp: str) -> list[tuple[str, str]]:
    "The pairs of parameters op.cpp's checks require to have the same sizes (`TORCH_CHECK(x.sizes() == a_w.sizes(), ...)`)."
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", op_cpp, flags=re.S)
    return sorted(set(re.findall(r"\b(\w+)\s*\.\s*sizes\s*\(\s*\)\s*==\s*(\w+)\s*\.\s*sizes\s*\(\s*\)", code)))


def _norm(name: str) -> str:
    "A name for matching: lower case, without underscores or a trailing `_opt`."
    return re.sub(r"_?opt(?:ional)?$", "", name.lower()).replace("_", "")


def _key(name: str) -> str:
    "An op.cpp parameter's name as torch names the same value (w = weight, a norm's gamma = weight, ...)."
    n = _norm(name)
    return SYNONYMS.get(n, n)


def computed_names(reference_text: str) -> list[str]:
    """The names the reference Model computes: those its methods other than __init__ assign (q = self.fc_q(x)), and the
    parameters of its helper methods (q, k, v of a `_attention(self, q, k, v)`), less forward's own parameters."""
    import ast
    try:
        tree = ast.parse(reference_text)
    except SyntaxError:
        return []
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"), None)
    if cls is None: return []
    names, fwd = set(), set()
    for f in cls.body:
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) or f.name == "__init__": continue
        own = {a.arg for a in [*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs]} - {"self"}
        if f.name == "forward": fwd |= own
        else: names |= own
        names |= {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return sorted(names - fwd)


def forward_locals(reference_text: str) -> dict[str, tuple[int, list[str]]]:
    """{name: (times the Model's forward assigns it, the `self.<attribute>` names the statements after its last
    assignment use)} for the names forward assigns in its own body; a name assigned in a loop counts as assigned many
    times. Statements are forward's top-level ones (an `if` block is one)."""
    import ast
    try:
        tree = ast.parse(reference_text)
    except SyntaxError:
        return {}
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"), None)
    fwd = next((f for f in (cls.body if cls else []) if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
    if fwd is None: return {}
    found: dict[str, list] = {}
    for i, stmt in enumerate(fwd.body):
        loops = {id(n) for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.While, ast.comprehension))}
        in_loop = {id(m) for n in ast.walk(stmt) if id(n) in loops for m in ast.walk(n)}
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                got = found.setdefault(n.id, [0, i])
                got[0] += 99 if id(n) in in_loop else 1
                got[1] = i
    after = lambda i: sorted({n.attr for stmt in fwd.body[i + 1:] for n in ast.walk(stmt)
                              if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"})
    return {name: (count, after(i)) for name, (count, i) in found.items()}


def module_outputs(model, args: tuple, names: dict[str, str], ranks: dict | None = None) -> dict | None:
    """{parameter: the output of the Model's direct submodule `names[parameter]`} for op.cpp parameters named like the
    Model's submodules (child_named: CBAMBlock's ca, sa: `out = x * self.ca(x); out = out * self.sa(out)`; BAM's
    channel_map, spatial_map of channel_attn, spatial_attn), when the op is the forward's
    tail: each of those submodules called once, no other submodule called after the last of them, the Model holding no
    parameter or buffer of its own (one the forward might read after them), each output of the rank op.cpp checks and
    not the forward's result. Found by running the forward with a hook on each submodule. None otherwise."""
    import torch
    children = dict(model.named_children())
    if not names or any(c not in children for c in names.values()) or len(set(names.values())) != len(names): return None
    if any(not _constant(t) for t in [*model.parameters(recurse=False), *model.buffers(recurse=False)]): return None
    calls = []
    hooks = [m.register_forward_hook(lambda m, inputs, output, n=n: calls.append((n, output))) for n, m in children.items()]
    clones = tuple(a.clone() if torch.is_tensor(a) else a for a in args)
    object.__setattr__(model, "_ev_probe", True)
    try:
        with torch.no_grad():
            result = model(*clones)
    except Exception:  # noqa: BLE001 - the reference refuses these inputs
        return None
    finally:
        for h in hooks: h.remove()
        object.__setattr__(model, "_ev_probe", False)
    order = [n for n, _ in calls]
    if any(order.count(c) != 1 for c in names.values()): return None
    if max(order.index(c) for c in names.values()) != len(order) - 1: return None   # a submodule ran after them
    results = result if isinstance(result, (tuple, list)) else (result,)
    out = {}
    for p, c in names.items():
        v = dict(calls)[c]
        if not torch.is_tensor(v): return None
        if any(torch.is_tensor(r) and r.shape == v.shape and torch.equal(r, v) for r in results): return None
        if (ranks or {}).get(p) is not None and v.dim() != ranks[p]: return None
        out[p] = v.detach()
    return out


def child_named(name: str, children: list[str]) -> str | None:
    """The Model's direct submodule an op.cpp parameter names: its own name (ca), else a head of three letters or more
    before an underscore that starts the name of exactly one submodule (channel_map: channel_attn); None otherwise."""
    if name in children: return name
    head = name.split("_")[0]
    hits = [c for c in children if "_" in name and len(head) >= 3 and c.startswith(head)]
    return hits[0] if len(hits) == 1 else None


def tail_values(model, model_cls, args: tuple, names: list[str], assigned: dict, ranks: dict | None = None) -> dict | None:
    """{name: the value the reference's forward assigned to its local of that name} for op.cpp parameters named like
    forward locals (CoordAtt's a_w, a_h), when the op is the forward's tail: each local assigned once in forward's own
    body (forward_locals: `assigned`), no submodule, parameter or buffer of the Model used by the statements after it
    (nothing their ModelNew could have run in PyTorch after the op), a tensor of the rank op.cpp checks, and not the
    forward's result (the op would be handed the answer). Found by running the forward with a trace that keeps its
    frame's locals at its return. None when any of that fails: the call stays refused."""
    import sys as _sys
    import torch
    heavy = {n.split(".")[0] for n, _ in [*model.named_parameters(), *model.named_buffers(), *model.named_modules()] if n}
    heavy |= {n for n in dir(model_cls) if not n.startswith("__") and callable(getattr(model_cls, n, None))}   # its methods
    if any(assigned.get(name, (0, []))[0] != 1 for name in names): return None
    last = min((assigned[name][1] for name in names), key=len)   # the statements after the last of them
    if heavy & set(last): return None
    code, seen = model_cls.forward.__code__, {}
    def trace(frame, event, arg):
        if frame.f_code is code:
            def local(frame, event, arg):
                if event == "return": seen.update(frame.f_locals)
                return local
            return local
        return None
    clones = tuple(a.clone() if torch.is_tensor(a) else a for a in args)
    object.__setattr__(model, "_ev_probe", True)
    old = _sys.gettrace()
    try:
        _sys.settrace(trace)
        with torch.no_grad():
            result = model(*clones)
    except Exception:  # noqa: BLE001 - the reference refuses these inputs
        return None
    finally:
        _sys.settrace(old)
        object.__setattr__(model, "_ev_probe", False)
    results = result if isinstance(result, (tuple, list)) else (result,)
    out = {}
    for name in names:
        v = seen.get(name)
        if not torch.is_tensor(v): return None
        if any(torch.is_tensor(r) and r.shape == v.shape and torch.equal(r, v) for r in results): return None
        want = (ranks or {}).get(name)
        if want is not None and v.dim() != want: return None
        out[name] = v.detach()
    return out


META_PROPERTIES = {"data", "T", "mT", "H", "mH", "real", "imag"}   # properties that hand on the tensor's values


def used_state(model, args: tuple) -> set[str] | None:
    """The names of the Model's parameters and buffers its forward reads on these inputs, found by running the
    reference's forward on meta tensors (nothing computed) under a function mode that records every tensor a torch
    function receives (not those only asked their shape, dtype or device); None when the forward does not run there."""
    import torch
    from torch.func import functional_call
    from torch.overrides import TorchFunctionMode
    from torch.utils._pytree import tree_leaves
    state = {n: t.detach().to("meta") for n, t in [*model.named_parameters(), *model.named_buffers()]}
    ids = {id(t): n for n, t in state.items()}
    seen = set()

    class Uses(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if getattr(func, "__name__", "") != "__get__" or getattr(getattr(func, "__self__", None), "__name__", "") in META_PROPERTIES:
                seen.update(ids[id(a)] for a in tree_leaves((args, kwargs)) if torch.is_tensor(a) and id(a) in ids)
            return func(*args, **kwargs)
    meta = tuple(a.detach().to("meta") if torch.is_tensor(a) else a for a in args)
    object.__setattr__(model, "_ev_probe", True)   # ModelNew runs its reference Model's forward
    try:
        with torch.no_grad(), Uses():
            functional_call(model, state, meta, strict=False)
    except Exception:  # noqa: BLE001 - an op without a meta kernel, or a forward that reads values (.item())
        return None
    finally:
        object.__setattr__(model, "_ev_probe", False)
    return seen


def module_prefix(model, args: tuple, out: list, params: list[tuple[str, str]], missing: list[str],
                  ranks: dict | None = None) -> tuple[int, object] | None:
    """(index of an op.cpp parameter, the tensor it gets) when the parameters and buffers the forward reads and the
    call leaves out (`missing`) are all of one submodule of the Model (the deepest that holds them all: ResidualAttention's
    `fc`, a 1x1 convolution), called once in the forward, on a forward argument that exactly one op parameter is bound
    to, and none of its own parameters is passed to the op: their ModelNew ran that module in PyTorch first and handed
    the op its output, so the parameter gets the module's output on these inputs (found by running the reference's
    forward with a hook on the module). None, and the call stays refused, otherwise: the parameters of more than one
    module or of the Model itself (the op would have to start further on than one module), the module called more than
    once or on something other than a forward argument, a rank op.cpp checks that the output does not have, or a module
    whose output is the forward's result (the op would be handed the answer)."""
    import torch
    owner = lambda n: n.rsplit(".", 1)[0] if "." in n else ""
    paths = [owner(n).split(".") if owner(n) else [] for n in missing]
    common = []
    for parts in zip(*paths):
        if len(set(parts)) != 1: break
        common.append(parts[0])
    path = ".".join(common)
    mods = dict(model.named_modules())
    if not path or path not in mods: return None
    module = mods[path]
    if any(any(v is t for t in module.parameters()) for v in out if torch.is_tensor(v)): return None
    clones = tuple(a.clone() if torch.is_tensor(a) else a for a in args)
    calls = []
    hook = module.register_forward_hook(lambda m, inputs, output: calls.append((inputs, output)))
    object.__setattr__(model, "_ev_probe", True)   # ModelNew runs its reference Model's forward
    try:
        with torch.no_grad():
            result = model(*clones)
    except Exception:  # noqa: BLE001 - the reference refuses these inputs: no prefix to take
        return None
    finally:
        hook.remove()
        object.__setattr__(model, "_ev_probe", False)
    if len(calls) != 1: return None
    inputs, output = calls[0]
    if not torch.is_tensor(output) or len(inputs) != 1: return None
    at = [j for j, c in enumerate(clones) if c is inputs[0]]
    if len(at) != 1: return None
    bound = [i for i, v in enumerate(out) if v is args[at[0]]]
    if len(bound) != 1: return None
    if any(torch.is_tensor(r) and r.shape == output.shape and torch.equal(r, output)
           for r in (result if isinstance(result, (tuple, list)) else (result,))):
        return None   # the module is the whole forward, or its output the answer: the op would compute nothing
    want = (ranks or {}).get(params[bound[0]][1])
    if want is not None and output.dim() != want: return None
    return bound[0], output.detach()


def _constant(t) -> bool:
    "A tensor whose elements are all one value (a norm's ones / zeros as initialised, a counter): a kernel may omit it."
    import torch
    if t.numel() == 0: return True
    if t.is_meta: return False   # no values to look at: taken as needed
    if t.numel() == 1: return float(t.reshape(-1)[0]) in (0.0, 1.0)
    if t.dtype == torch.bool or not (t.is_floating_point() or t.dtype in (torch.int32, torch.int64)): return False
    lo, hi = torch.aminmax(t.detach().reshape(-1))
    return bool(lo == hi)


def bind_call(model, model_cls, args: tuple, init: tuple, params: list[tuple[str, str]], dtypes: dict | None = None,
              computed: list[str] | tuple = (), made: dict | None = None, ranks: dict | None = None,
              assigned: dict | None = None, alike: list | tuple = (), given: dict | None = None) -> list:
    """The extension call's arguments for op.cpp's parameters (module docstring); raises EvoKernelUnbound. `dtypes`:
    {parameter index: the torch dtype names its op input takes}; an integer (floating) tensor of a dtype outside them
    goes as the one integer (floating) dtype there, as their ModelNew did (CrossEntropyLoss's int64 target as int32).
    `computed`: the names the Model computes (computed_names). The call is refused (EvoKernelUnbound, naming the
    parameters), never guessed, when a parameter no value is named after is named like a value the Model computes
    (q, k, v of fc_q(queries), ...: their ModelNew made it in PyTorch), when the parameters left unnamed are not as
    many as the forward arguments left, or when the forward reads a parameter or buffer of the Model (not one of a
    single value) that the call does not pass (used_state): then the op computes a part of the Model from values
    their ModelNew made first (ResidualAttention's x is the Model's 1x1 convolution of its input). `made`: {parameter
    name: (scalar parameter, shape, dtype, options tensor)} of scalar_locals: such a parameter is the tensor op.cpp makes
    of that scalar's value (of the dtype named, else the options tensor's, else float32). `ranks`: {parameter: the rank
    op.cpp's checks require}: a Model tensor of another rank whose dimensions other than 1 are that many goes without
    its 1s (the same elements in the same order: GatedChannelTransform's (1, C, 1, 1) parameters as [C], as its op.cpp
    says their ModelNew passed them). `given`: {parameter name: value} fixed by the caller (forward_span: the forward's
    locals at the point where the op starts); the forward's reads before that point are then not asked about."""
    import torch
    fwd = [n for n in inspect.signature(model_cls.forward).parameters if n != "self"]
    ini = [n for n in inspect.signature(model_cls.__init__).parameters if n != "self"]
    table, weak = {}, {}
    for n, v in zip(fwd, args): table.setdefault(_key(n), ("fwd", n, v))   # the forward's input / self is x
    for n, v in [*model.named_parameters(), *model.named_buffers()]:
        table.setdefault(_norm(n.replace(".", "_")), ("state", n, v))
        weak.setdefault(_norm(n.split(".")[-1]), []).append(("state", n, v))
    for n, v in zip(ini, init): table.setdefault(_norm(n), ("init", n, v))
    for n, v in vars(model).items():
        if not n.startswith("_") and isinstance(v, (int, float, bool, torch.Tensor)): table.setdefault(_norm(n), ("attr", n, v))
    for path, mod in model.named_modules():   # a submodule's number (group_norm.eps, leaky_relu.negative_slope)
        if not path: continue
        for n, v in vars(mod).items():
            if not n.startswith("_") and n != "training" and isinstance(v, (int, float)) and not isinstance(v, bool):
                weak.setdefault(_norm(n), []).append(("attr", f"{path}.{n}", v))
    for k, vs in weak.items():
        if len(vs) == 1: table.setdefault(k, vs[0])
    mods = dict(model.named_modules())
    owner = lambda n: n.rsplit(".", 1)[0] if "." in n else ""
    norm_owned = lambda n: "norm" in type(mods.get(owner(n))).__name__.lower()
    def spellings(path):   # how a name's head may spell a module: its path, a prefix of it, its initials, its class's
        cls = type(mods.get(path)).__name__
        words = [w for w in path.split(".")[-1].split("_") if w]
        return ({_norm(path.replace(".", "_")), _norm(path.split(".")[-1]), "".join(w[0] for w in words).lower(),
                 cls.lower(), "".join(re.findall(r"[A-Z]", cls)).lower()} - {""})
    def heads(head, path):
        return bool(path) and any(sp == head or (len(head) >= 3 and sp.startswith(head)) for sp in spellings(path))
    def candidates(name):
        """The values a parameter may name, from the most to the least specific: the exact name; a torch synonym
        (w = weight; a norm's gamma / beta / mean / var, of norm modules only); <module>_<part> or <part>_<module>
        with the module spelled by its path, a prefix of it, its initials or its class's (gn_gamma = group_norm.weight,
        bn_weight = batch_norm.weight, lin_bias = gemm.bias of its Linear, w_squeeze = squeeze.weight); a value whose
        name the parameter's starts (scaling = scaling_factor)."""
        hit = table.get(_norm(name))
        if hit: return [hit]
        parts = [w for w in name.lower().removesuffix("_opt").split("_") if w]
        forms = [("", parts[-1])] if len(parts) == 1 else [("".join(parts[:-1]), parts[-1])]
        if len(parts) > 1 and parts[0] in ("w", "b", "weight", "bias", "gamma", "beta"): forms.append(("".join(parts[1:]), parts[0]))
        for head, last in forms:
            normed = last in ("gamma", "beta", "mean", "var")
            got = [v for v in weak.get(_key(last), []) if (not normed or norm_owned(v[1])) and (not head or heads(head, owner(v[1])))]
            if got: return got
        head, last = forms[0]
        if head and last not in ("gamma", "beta", "mean", "var") and not any(heads(head, path) for path in mods):   # post_bias, sub_bias: no module is
            got = [v for v in weak.get(_key(last), []) if v[0] != "attr" and owner(v[1]) == ""]   # `post`: the Model's own
            if len(got) == 1: return got
        if len(parts) > 1:   # each word an abbreviation of the value's (mul_w = multiply_weight, w = weight)
            words = lambda n: [w for w in re.split(r"[._]", n.lower()) if w]
            abbrev = lambda a, b: len(a) == len(b) and all(y.startswith(x) or y == SYNONYMS.get(x) for x, y in zip(a, b))
            got = [v for v in {id(v[2]): v for v in table.values()}.values() if v[0] != "fwd" and abbrev(parts, words(v[1]))]
            if len(got) == 1: return got
        numbered = re.fullmatch(r"(w|b|weight|bias)_?(\d+)", name.lower())
        if numbered:   # w1, w2 (b1, b2): the Model's weights (biases) in the order it registers them, when op.cpp numbers
            # as many as it has, from 1 (SEAttention's fc = Sequential(Linear, ReLU, Linear, Sigmoid): fc.0 and fc.2)
            kind = _key(numbered.group(1))
            vals = [v for v in weak.get(kind, []) if v[0] == "state"]
            same = sorted(int(m.group(2)) for m in (re.fullmatch(r"(w|b|weight|bias)_?(\d+)", n.lower()) for t, n in params)
                          if m and _key(m.group(1)) == kind)
            if vals and same == list(range(1, len(vals) + 1)): return [vals[int(numbered.group(2)) - 1]]
        if len(parts) > 1 and re.fullmatch(r"[1-5]d", parts[-1]):   # scale_1d: the value at another rank (bind_call's ranks)
            return candidates("_".join(parts[:-1]))
        k = _key(name)
        return [v for key, v in table.items() if v[0] != "fwd" and key.startswith(k) and len(k) >= 4]
    out, unnamed, used = [None] * len(params), [], set()
    made = made or {}
    pending = {}
    given = given or {}
    for i, (typ, name) in enumerate(params):
        if name in made: continue   # made below from the scalar it holds
        if name in given:
            out[i] = ("given", name, given[name])
            continue
        c = list({id(v[2]): v for v in candidates(name)}.values())
        if len(c) == 1 and table.get(_norm(name)) is c[0]: out[i] = c[0]
        elif c: pending[i] = c
        else: unnamed.append(i)
    while pending:   # the one value left a parameter may name, once the others have taken theirs
        taken = {id(h[2]) for h in out if h is not None and torch.is_tensor(h[2])}
        sure = {i: [v for v in c if id(v[2]) not in taken] for i, c in pending.items()}
        sure = {i: c[0] for i, c in sure.items() if len(c) == 1}
        twice = [id(h[2]) for h in sure.values()]
        sure = {i: h for i, h in sure.items() if twice.count(id(h[2])) == 1}   # two parameters for one value: neither
        if not sure: break
        for i, h in sure.items():
            out[i] = h
            del pending[i]
    unnamed = sorted(unnamed + list(pending))
    for i in range(len(out)):
        h = out[i]
        if h is not None:
            if h[0] == "fwd": used.add(h[1])
            out[i] = h[2]
    inside = {_norm(n) for n in computed}
    inner = [params[i][1] for i in unnamed if _norm(params[i][1]) in inside or _key(params[i][1]) in inside]
    tails = tail_values(model, model_cls, args, inner, assigned or {}, ranks) if inner else None
    if given: tails = given   # the op starts inside the forward: what the forward read before is the prefix's
    if tails is not None:   # the op is the forward's tail: those parameters are its locals (tail_values)
        for i in [i for i in unnamed if params[i][1] in tails]:
            out[i] = tails[params[i][1]]
            unnamed.remove(i)
        inner = []
    children = [n for n, _ in model.named_children()]
    named_modules = {params[i][1]: child_named(params[i][1], children) for i in unnamed}
    named_modules = {p: c for p, c in named_modules.items() if c is not None}
    if len(unnamed) == len([n for n in fwd[:len(args)] if n not in used]):
        named_modules = {}   # the forward arguments left take them, in order (the older rule keeps its place)
    outputs = module_outputs(model, args, named_modules, ranks) if named_modules and not inner else None
    if outputs is not None:   # the op is the forward's tail: those parameters are its submodules' outputs
        for i in [i for i in unnamed if params[i][1] in outputs]:
            out[i] = outputs[params[i][1]]
            unnamed.remove(i)
        tails = outputs
    if inner:
        raise EvoKernelUnbound("op.cpp parameter(s) " + ", ".join(inner) + " name values the reference Model computes "
                               "in its forward (not an input, parameter, buffer or constructor argument): their ModelNew "
                               "made them in PyTorch")
    left = [v for n, v in zip(fwd, args) if n not in used]
    if unnamed and len(unnamed) == len(left):
        for i, v in zip(unnamed, left): out[i] = v
    elif unnamed:
        raise EvoKernelUnbound("op.cpp parameter(s) " + ", ".join(params[i][1] for i in unnamed)
                               + " name no forward argument, parameter or attribute of the reference Model")
    reads = used_state(model, args) if tails is None else None   # a tail: what forward read before it made its locals
    if reads:
        passed = {id(v) for v in out if torch.is_tensor(v)}
        state = dict([*model.named_parameters(), *model.named_buffers()])
        missing = [n for n in state if n in reads and id(state[n]) not in passed and not _constant(state[n])]
        fed = module_prefix(model, args, out, params, missing, ranks) if missing else None
        if fed is not None:   # the op's input is the output of the Model's module that those parameters are of
            out[fed[0]] = fed[1]
        elif missing:
            given = [name for (typ, name), v in zip(params, out) if any(v is a for a in args if torch.is_tensor(a))]
            raise EvoKernelUnbound(f"the reference Model's forward reads {', '.join(missing[:6])}"
                                   f"{' ...' if len(missing) > 6 else ''}, which op.cpp takes no parameter for: its "
                                   f"ModelNew computed part of the Model in PyTorch first, so op.cpp's "
                                   f"{', '.join(given) or 'inputs'} are not the forward's arguments")
    names = [n for t, n in params]
    for name, (src, shape, dtype, like) in made.items():
        v = out[names.index(src)]
        v = v.item() if torch.is_tensor(v) else v
        ref = out[names.index(like)] if like in names and torch.is_tensor(out[names.index(like)]) else None
        kind = getattr(torch, dtype) if dtype else ref.dtype if ref is not None else torch.float32
        out[names.index(name)] = torch.full(shape, v, dtype=kind)
    for i, ((typ, name), v) in enumerate(zip(params, out)):
        if name in made: continue
        want = (ranks or {}).get(name)
        if want is not None and torch.is_tensor(v) and v.dim() != want and len([d for d in v.shape if d != 1]) == want:
            out[i] = v = v.reshape([d for d in v.shape if d != 1])
        if "Tensor" in typ and not torch.is_tensor(v) and isinstance(v, (int, float, bool)):
            # a scalar the extension takes as a tensor: of its op input's one dtype (GroupNorm's int32 num_groups),
            # else float32
            kinds = sorted({d for d in (dtypes or {}).get(i) or () if getattr(torch, d, None) is not None})
            kind = getattr(torch, kinds[0]) if len(kinds) == 1 else torch.float32
            out[i] = torch.tensor([v], dtype=kind if kind.is_floating_point or float(v).is_integer() else torch.float32)
        elif "Tensor" not in typ and torch.is_tensor(v) and v.numel() == 1:
            out[i] = v.item()
        allowed = (dtypes or {}).get(i)
        if allowed and torch.is_tensor(out[i]) and str(out[i].dtype).replace("torch.", "") not in allowed:
            kind = [d for d in allowed if getattr(torch, d, None) is not None and getattr(torch, d).is_floating_point
                    == out[i].dtype.is_floating_point and d != "bool"]
            if len(set(kind)) == 1 and out[i].dtype != torch.bool: out[i] = out[i].to(getattr(torch, kind[0]))
    for a, b in alike:   # op.cpp requires a.sizes() == b.sizes(): a tensor that broadcasts to the other is expanded to it,
        if a not in names or b not in names: continue   # as their ModelNew did (CoordAtt's a_w [N,C,1,W] to x's shape)
        ia, ib = names.index(a), names.index(b)
        if not (torch.is_tensor(out[ia]) and torch.is_tensor(out[ib])) or out[ia].shape == out[ib].shape: continue
        for small, big in ((ia, ib), (ib, ia)):
            try:
                fits = torch.broadcast_shapes(out[small].shape, out[big].shape) == out[big].shape
            except RuntimeError:
                fits = False
            if fits:
                out[small] = out[small].expand_as(out[big]).contiguous()
                break
    return out


def op_part(reference_text: str, op_cpp: str) -> str | None:
    """The class of the reference's submodule that the op is, when the reference says so: the one nn.Module class of the
    file other than Model whose forward's parameters are op.cpp's tensor parameters, by name and in order (MultiHead
    Attention's ScaledDotProductAttention.forward(Q, K, V) for op.cpp's q, k, v), while the Model's forward takes none of
    those names. Their ModelNew ran the rest of the Model in PyTorch (the projections before, W_o after) and the op in
    that submodule's place. None otherwise."""
    import ast
    found = bound_function(op_cpp)
    try:
        tree = ast.parse(reference_text)
    except SyntaxError:
        return None
    if not found: return None
    tensors = [_key(n) for t, n in found[1] if "Tensor" in t]
    def forward_params(cls):
        f = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
        return None if f is None or f.args.vararg else [_key(a.arg) for a in f.args.args if a.arg != "self"]
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
    if "Model" not in classes or not tensors: return None
    model_takes = set(forward_params(classes["Model"]) or [])
    hits = [n for n, c in classes.items() if n != "Model" and forward_params(c) == tensors]
    return hits[0] if len(hits) == 1 and not model_takes & set(tensors) else None


PART_REFERENCE = """

_EvFullModel = Model


class Model(torch.nn.Module):
    "The part of the task's Model the op is (evokernel.op_part): its one {part} submodule, as the Model's forward calls it."
    def __init__(self, *init):
        super().__init__()
        self.full = _EvFullModel(*init)

    def _ev_part(self):
        parts = [m for m in self.full.modules() if type(m).__name__ == {part!r}]
        if len(parts) != 1:
            raise LookupError(f"the Model holds {{len(parts)}} {part} submodules, not one: which one the op is is not said")
        return parts[0]

    def forward(self, *args):
        seen = []
        hook = self._ev_part().register_forward_hook(lambda m, inputs, output: seen.append(output))
        try:
            self.full(*args)
        finally:
            hook.remove()
        if len(seen) != 1:
            raise LookupError(f"the Model's forward called its {part} {{len(seen)}} times, not once")
        return seen[0]
"""


def part_reference(reference_text: str, part: str) -> str:
    "The reference whose Model is the task Model's submodule of class `part`, on the inputs the whole forward gives it."
    return reference_text + PART_REFERENCE.format(part=part)


def forward_statements(reference_text: str):
    """(forward's parameter names, its top-level statements as ast nodes, the last `return` made an assignment to
    `_ev_result`) of the reference Model's forward; None when forward returns anywhere but at its end, or uses
    super(), yield or a starred parameter (the statements could not be run one by one as the forward runs them)."""
    import ast
    try:
        tree = ast.parse(reference_text)
    except SyntaxError:
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"), None)
    fwd = next((f for f in (cls.body if cls else []) if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
    if fwd is None or fwd.args.vararg or fwd.args.kwarg or fwd.args.kwonlyargs or fwd.args.posonlyargs: return None
    body = [st for st in fwd.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]   # docstrings
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None: return None
    nodes = [n for st in body for n in ast.walk(st)]
    if sum(isinstance(n, ast.Return) for n in nodes) != 1: return None
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)) for n in nodes): return None
    if any(isinstance(n, ast.Name) and n.id == "super" for n in nodes): return None
    last = ast.Assign(targets=[ast.Name("_ev_result", ast.Store())], value=body[-1].value)
    body = body[:-1] + [ast.copy_location(last, body[-1])]
    return [a.arg for a in fwd.args.args if a.arg != "self"], [ast.fix_missing_locations(st) for st in body]


def _stored(stmt) -> set[str]:
    import ast
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}


def _loaded(stmts) -> set[str]:
    import ast
    return {n.id for st in stmts for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def stepped_forward(model, model_cls, args: tuple, steps) -> tuple[list, list, object] | None:
    """Run the reference's forward one top-level statement at a time (forward_statements' `steps`), in a namespace of
    its module's globals, self and its arguments: ([the forward's locals after each statement], [whether each statement
    read a parameter or buffer of the Model that is not one value throughout: a projection, a convolution], its
    result). A statement's entry in the second list is the set of ids of those tensors it read (empty: it read none).
    None when a statement does not run so or the result is not the forward's own."""
    import torch
    from torch.overrides import TorchFunctionMode
    from torch.utils._pytree import tree_leaves
    names, stmts = steps
    try:   # the forward's arguments, its defaults for those get_inputs leaves out (CrossformerAttention's mask=None)
        bound = inspect.signature(model_cls.forward).bind(model, *args)
    except TypeError:
        return None
    bound.apply_defaults()
    values = {n: bound.arguments[n] for n in names}
    state = {id(t) for t in [*model.parameters(), *model.buffers()] if not _constant(t)}
    seen = set()

    class Reads(TorchFunctionMode):
        def __torch_function__(self, func, types, a=(), kwargs=None):
            kwargs = kwargs or {}
            seen.update(id(t) for t in tree_leaves((a, kwargs)) if torch.is_tensor(t) and id(t) in state)
            return func(*a, **kwargs)
    space = dict(model_cls.forward.__globals__)
    space.update(self=model, **{n: t.clone() if torch.is_tensor(t) else t for n, t in values.items()})
    local_names = set(names)
    after, heavy = [], []
    object.__setattr__(model, "_ev_probe", True)
    try:
        with torch.no_grad():
            for st in stmts:
                seen.clear()
                import ast
                with Reads():
                    exec(compile(ast.Module(body=[st], type_ignores=[]), "<forward>", "exec"), space)
                local_names |= _stored(st)
                after.append({n: space[n] for n in local_names if n in space})
                heavy.append(set(seen))
            want = model(*[t.clone() if torch.is_tensor(t) else t for t in args])
    except Exception:  # noqa: BLE001 - a statement that needs forward's own frame: not stepped
        return None
    finally:
        object.__setattr__(model, "_ev_probe", False)
    result = space.get("_ev_result")
    if not (torch.is_tensor(result) and torch.is_tensor(want) and result.shape == want.shape and torch.equal(result, want)):
        return None
    return after, heavy, result


def forward_span(model, model_cls, args: tuple, init: tuple, params: list[tuple[str, str]], bind: dict,
                 reference_text: str, op_cpp: str, lead: int, attempt: int = 0) -> dict | None:
    """The op as a span of the reference forward's statements, when op.cpp's tensor parameters are named like locals
    the forward assigns (q, k, v of `Q = self.W_q(x).view(...).transpose(1, 2)`) and the ordinary binding (bind_call)
    refuses the call: their ModelNew ran the forward in PyTorch up to those locals, called the op, and ran the rest
    (W_o) on its output. The span starts after the first statement at which all those locals exist and op.cpp's own
    checks accept them (its bound function run on their shapes, pybind_shapes.exec_calls: the rank, head count, block
    layout their ModelNew handed it), with no statement inside it reading a Model parameter or buffer the op does not
    take; it ends at the statement assigning the one local that the statements after it need of the span (nothing
    else the span made, and none of the op's input locals, is read after it) whose value has the shape and dtype
    op.cpp allocates for the op's output (the forward's result, at its last statement: DAModule's p_out + c_out), and
    not before the last statement reading a weight the op takes (ViT's proj). Forward arguments get_inputs leaves out
    take their defaults; of two locals spelled alike (b, B) a parameter names the one holding a tensor. Returns {call: the extension call's arguments, reference: that local's value (what the op is compared
    with), start, end: the span's statement indices, output: the local}; None (the call stays refused) when any of
    that fails, a weight the op takes is not read inside the span, two places fit with different values, or the op's
    output would be one of its inputs (the op would be handed the answer). `bind`: bind_call's keyword arguments; `lead`: the op's inputs and attributes
    before its outputs in the EXEC_NPU_CMD.
    The start is ambiguous where the forward rebinds an input local after it (LinearAttention's `Q =
    self.feature_map_fn(Q)`, elu + 1, which their ModelNew ran in PyTorch before the op): any statement after which all
    the locals exist, one of them has just taken a new value and op.cpp's checks accept them is a start, and each is as
    sound as the first (a ModelNew that runs the forward up to it, the op and the rest is the task's Model whenever the op
    matches). `attempt` k takes the (k+1)-th of those starts, in statement order (0: the first, as before); a statement
    that leaves every input local as it was (the same tensor, or equal values of the same shape) is no new start.
    None when there are not that many."""
    import torch
    from pybind_shapes import exec_calls
    try:
        bind_call(model, model_cls, args, init, params, **bind)
        return None   # the ordinary binding holds
    except EvoKernelUnbound:
        pass
    steps = forward_statements(reference_text)
    if steps is None: return None
    stepped = stepped_forward(model, model_cls, args, steps)
    if stepped is None: return None
    after, heavy, _ = stepped
    stmts = steps[1]
    assigned = set().union(*(_stored(st) for st in stmts)) - {"_ev_result"}
    by_norm = {}
    for n in assigned: by_norm.setdefault(_norm(n), []).append(n)
    def local(p):   # the one local a parameter names; of two spelled alike (b, B), the one that holds a tensor
        hits = by_norm.get(_norm(p), [])
        if len(hits) > 1: hits = [n for n in hits if torch.is_tensor(after[-1].get(n))]
        return hits[0] if len(hits) == 1 else None
    named = {p: local(p) for t, p in params if "Tensor" in t and local(p) is not None}
    if not named: return None
    start = next((s for s, env in enumerate(after) if all(n in env for n in named.values())), None)
    if start is None: return None
    state = {id(t) for t in [*model.parameters(), *model.buffers()] if not _constant(t)}
    def changed(i):   # whether statement i gave one of the op's input locals a new value
        old, new = [after[i - 1].get(n) for n in named.values()], [after[i].get(n) for n in named.values()]
        return any(a is not b and not (torch.is_tensor(a) and torch.is_tensor(b) and a.shape == b.shape and
                                       a.dtype == b.dtype and torch.equal(a, b)) for a, b in zip(old, new))
    passed_starts = 0   # the starts before this one that fit (attempt says how many to pass)
    for i in range(start, len(stmts) - 1):
        if any(heavy[s] for s in range(start + 1, i + 1)): return None   # past a weight the op does not take
        if i > start and not changed(i): continue   # the inputs as at i - 1: no new start (op.cpp's answer is the same)
        given = {p: after[i][n] for p, n in named.items()}
        if not all(torch.is_tensor(v) for v in given.values()): return None
        given = {p: v.detach().contiguous() for p, v in given.items()}
        try:
            call = bind_call(model, model_cls, args, init, params, **bind, given=given)
        except EvoKernelUnbound:
            return None
        passed = {id(v) for v in call if torch.is_tensor(v) and id(v) in state}   # weights the op takes (ViT's proj)
        stop = next((s for s in range(i + 1, len(stmts)) if heavy[s] - passed), len(stmts))
        reading = [s for s in range(i + 1, stop) if heavy[s] & passed]
        if passed and (not reading or set().union(*(heavy[s] for s in reading)) != passed): return None
        made = exec_calls(op_cpp, call)
        if not made: continue
        items = made[-1][1][lead:]
        outs = [t for t in items if isinstance(t, tuple)]
        if len(outs) != 1: return None
        _, dtype, shape = outs[0]
        fits = []
        for j in range(max(reading, default=i) if passed else i + 1, stop):
            o = _stored(stmts[j])
            if len(o) != 1: continue
            o = next(iter(o))
            made_in_span = set().union(*(_stored(st) for st in stmts[i + 1:j + 1]))
            needed = _loaded(stmts[j + 1:])   # (none after the last: the op's output is the forward's result)
            if j < len(stmts) - 1 and (o not in needed or (needed & (made_in_span | set(named.values()))) - {o}):
                continue   # the op consumes its inputs and what the span made
            v = after[j].get(o)
            if not torch.is_tensor(v) or tuple(v.shape) != tuple(shape) or str(v.dtype).replace("torch.", "") != dtype:
                continue
            if any(torch.is_tensor(a) and a.shape == v.shape and torch.equal(a, v) for a in call): return None
            fits.append((j, o, v))
        if not fits or any(not torch.equal(v, fits[-1][2]) for _, _, v in fits): return None
        if passed_starts < attempt:
            passed_starts += 1
            continue
        j, o, v = fits[-1]
        return dict(call=call, reference=v.detach(), start=i + 1, end=j, output=o, attempt=attempt)
    return None


def span_candidate(reference_text: str, op_cpp: str) -> bool:
    "Whether op.cpp names a tensor parameter like a local the reference forward assigns (forward_span may apply)."
    steps, found = forward_statements(reference_text), bound_function(op_cpp)
    if steps is None or not found: return False
    assigned = {_norm(n) for st in steps[1] for n in _stored(st)} - {_norm(n) for n in steps[0]}
    return any("Tensor" in t and _norm(p) in assigned for t, p in found[1])


SPAN_REFERENCE = """

_EvFullModel = Model
_EV_REFERENCE_TEXT = {text!r}
_EV_OP_CPP = {op_cpp!r}


class _EvSpanModel(torch.nn.Module):
    "The task's Model; where the op is a span of its forward's statements (evokernel.forward_span), that span's output."
    def __init__(self, *init):
        super().__init__()
        space = globals()   # the task's Model as its own code names it while it is made (`super(Model, self)`)
        space["Model"] = _EvFullModel
        try:
            self.full = _EvFullModel(*init)
        finally:
            space["Model"] = _EvSpanModel
        object.__setattr__(self, "_ev_init", init)

    def _ev_span(self, args):
        from evokernel import forward_span
        return forward_span(self.full, _EvFullModel, args, self._ev_init, {params!r}, {bind!r}, _EV_REFERENCE_TEXT,
                            _EV_OP_CPP, {lead!r}, {attempt!r})

    def forward(self, *args):
        span = self._ev_span(args)
        return self.full(*args) if span is None else span["reference"]


Model = _EvSpanModel
"""


def span_reference(reference_text: str, op_cpp: str, bind: dict, lead: int, attempt: int = 0) -> str:
    """The reference whose Model returns, where forward_span finds the op inside the forward, the value the op stands for
    (at forward_span's start `attempt`)."""
    fn, params = bound_function(op_cpp)
    return reference_text + SPAN_REFERENCE.format(text=reference_text, op_cpp=op_cpp, params=params, bind=bind, lead=lead,
                                                  attempt=attempt)


def model_src(reference_text: str, op_cpp: str, dtypes: dict | None = None, made: dict | None = None,
              part: str | None = None, span: dict | None = None) -> str:
    """A ModelNew for MultiKernelBench's step: the reference's Model, whose forward calls the extension (bind_call).
    With `part` (op_part; reference_text then part_reference's), the whole Model runs and the extension is called in
    place of its submodule of that class, with bind_call's arguments from that submodule and the inputs it gets.
    With `span` (bind_call's keyword arguments; reference_text then span_reference's), the call is forward_span's where
    it finds the op inside the forward, else bind_call's on the whole Model."""
    fn, params = bound_function(op_cpp)
    if span is not None:
        return reference_text + f"""

import custom_ops_lib as _ev_lib
from evokernel import bind_call as _ev_bind


class ModelNew(Model):
    def forward(self, *args):
        span = self._ev_span(args)   # their ModelNew: the forward up to the span in PyTorch, then the op
        call = (_ev_bind(self.full, _EvFullModel, args, self._ev_init, {params!r}, **{span!r}) if span is None
                else span["call"])
        return getattr(_ev_lib, {fn!r})(*call)
"""
    if part:
        return reference_text + f"""

import custom_ops_lib as _ev_lib
from evokernel import EvoKernelUnbound as _EvUnbound, bind_call as _ev_bind


class ModelNew(Model):
    def forward(self, *args):
        if getattr(self, "_ev_probe", False): return super().forward(*args)
        part = self._ev_part()
        def call(module, inputs, kwargs):
            hook.remove()   # bind_call runs the submodule's own forward to see what it reads
            if kwargs: raise _EvUnbound(f"the Model calls its {part} with keyword arguments")
            return getattr(_ev_lib, {fn!r})(*_ev_bind(module, type(module), inputs, (), {params!r}, {dtypes or {}!r},
                                                       [], {made or {}!r}, {checked_ranks(op_cpp)!r}, None,
                                                       {same_sizes(op_cpp)!r}))
        hook = part.register_forward_pre_hook(call, with_kwargs=True)
        try:
            return self.full(*args)
        finally:
            hook.remove()
"""
    return reference_text + f"""

import custom_ops_lib as _ev_lib
from evokernel import bind_call as _ev_bind


class ModelNew(Model):
    def __init__(self, *init):
        super().__init__(*init)
        object.__setattr__(self, "_ev_init", init)

    def forward(self, *args):
        if getattr(self, "_ev_probe", False): return super().forward(*args)   # bind_call's look at what it reads
        return getattr(_ev_lib, {fn!r})(*_ev_bind(self, Model, args, self._ev_init, {params!r}, {dtypes or {}!r},
                                                   {computed_names(reference_text)!r}, {made or {}!r},
                                                   {checked_ranks(op_cpp)!r}, {forward_locals(reference_text)!r},
                                                   {same_sizes(op_cpp)!r}))
"""


def evokernel_strings(project, op_cpp: str, reference_text: str, attempt: int = 0) -> dict:
    """MultiKernelBench's answer strings for an EvoKernel op project (op.cpp as python_bind_src; a derived ModelNew);
    where the op is a span of the forward, at forward_span's start `attempt`."""
    src = project.sources
    op_cpp, made = scalar_locals(op_cpp)   # op inputs it makes of a scalar parameter: parameters of their own
    from pybind_calls import pybind_layout
    from ascendcraft.opproject import GE_DTYPES
    layout = pybind_layout(op_cpp, project.op, project.sources)
    dtypes = {i: sorted({GE_DTYPES[d][0] for d in p.dtypes if d in GE_DTYPES}) for p, i in
              zip(project.op.inputs, layout["inputs"] if layout else []) if i is not None and p.dtypes}
    pick = lambda pre, suf: "\n".join(v for k, v in sorted(src.items()) if k.startswith(pre) and k.endswith(suf))
    part = op_part(reference_text, op_cpp)   # the op is a submodule of the Model: compared with that submodule
    reference = part_reference(reference_text, part) if part else reference_text
    span = None
    if not part and span_candidate(reference_text, op_cpp):   # the op may be a span of the forward's statements
        span = dict(dtypes=dtypes, computed=computed_names(reference_text), made=made, ranks=checked_ranks(op_cpp),
                    assigned=forward_locals(reference_text), alike=same_sizes(op_cpp))
        reference = span_reference(reference_text, op_cpp, span, len(project.op.inputs) + len(project.op.attrs), attempt)
    return dict(project_json_src="", host_tiling_src=pick("op_host/", ".h"), host_operator_src=pick("op_host/", ".cpp"),
                kernel_src=pick("op_kernel/", ""), python_bind_src=op_cpp,
                model_src=model_src(reference, op_cpp, dtypes, made, part, span), reference_src=reference)


def match_evokernel(entry: dict, gitdir: str, project) -> dict:
    "The op project of an EvoKernel entry run against its reference task (mkb.match_mkb at EvoKernel's tolerance)."
    import mkb
    from corpus import show
    root, commit = entry["path"], entry["commit"]
    coll = root.rstrip("/").split("/")[-2]
    if coll not in SUITES: return dict(match="no-reference", match_detail=f"no reference suite for {coll}")
    refs = posixpath.join(posixpath.dirname(posixpath.dirname(root)), "pytorch-references", SUITES[coll])
    ref = reference_path(root, show(gitdir, commit, f"{refs}/dataset.json").decode())
    if ref is None: return dict(match="no-reference", match_detail="no task of that pascal_name in dataset.json")
    op_cpp = show(gitdir, commit, f"{root}/CppExtension/csrc/op.cpp").decode(errors="replace")
    if bound_function(op_cpp) is None: return dict(match="no-reference", match_detail="op.cpp binds no function")
    reference_text = show(gitdir, commit, ref).decode()

    def attempt(k):   # the match step at forward_span's start k (k = 0: the only one where the op is no span)
        strings = evokernel_strings(project, op_cpp, reference_text, k)
        saved = mkb.MKB_ATOL, mkb.MKB_RTOL
        mkb.MKB_ATOL, mkb.MKB_RTOL = EVOKERNEL_ATOL, EVOKERNEL_RTOL
        try:   # the task's reference, or its submodule the op is (op_part)
            got = mkb.match_mkb(dict(entry, reference=ref), strings, strings["reference_src"], project)
        finally:
            mkb.MKB_ATOL, mkb.MKB_RTOL = saved
        if got.get("match") == "mismatch" and "EvoKernelUnbound" in got.get("match_detail", ""):
            got["match"] = "no-reference"   # the call needs tensors its ModelNew made in PyTorch: no call to compare
        return got
    out = attempt(0)
    note = ""
    if out.get("match") == "mismatch" and not op_part(reference_text, op_cpp) and span_candidate(reference_text, op_cpp):
        out, note = span_retries(out, attempt)
    out["match_detail"] = f"{out.get('match_detail', '')}{note} [{posixpath.basename(ref)}; atol=rtol=1e-2]"[:400]
    return out


SPAN_STARTS = 4   # the most forward_span starts match_evokernel runs the op at (each is a run of the kernel)


def span_retries(first: dict, attempt) -> tuple[dict, str]:
    """After a mismatch at forward_span's first start: the op run at each later start (attempt(k): the match step at
    start k), until one matches, there is no start k (forward_span finds none: the step's verdict is no-reference then,
    and the call is not run), or SPAN_STARTS were run. A match at a later start is the verdict; otherwise the first
    start's mismatch stands. Returns (the verdict, the note for its detail: how many starts were run, which matched)."""
    for k in range(1, SPAN_STARTS):
        got = attempt(k)
        if got.get("match") == "pass":
            return got, f" [span start {k + 1} of the {k + 1} run: the first {k} mismatched]"
        if got.get("match") != "mismatch":
            return first, f" [span: {k} start(s) run, none matched; no start {k + 1}]"
    return first, f" [span: {SPAN_STARTS} starts run, none matched]"


class DryStop(BaseException):
    """Raised by dry_match's stand-in for run_project: the op's inputs, attributes and outputs as the harness would have
    run them (a BaseException, so that the match step's own `except Exception` does not take it for a run error)."""
    def __init__(self, inputs: dict, attrs: dict, outputs: dict):
        super().__init__("dry run: the op is not run")
        self.inputs, self.attrs, self.outputs = inputs, attrs, outputs


def _described(v):
    "A tensor as [shape, dtype]; anything else as it is (for the dry pass's JSON)."
    if hasattr(v, "shape") and hasattr(v, "dtype"): return [list(v.shape), str(v.dtype).replace("torch.", "")]
    if isinstance(v, tuple) and len(v) == 2: return [list(v[0]), str(v[1])]   # an output spec: (shape, dtype)
    return v if isinstance(v, (int, float, bool, str, type(None))) else repr(v)


def dry_match(entry: dict, gitdir: str) -> dict:
    """The EvoKernel step (match_evokernel) up to the op's run, nothing built: the project is read (load_project), the
    reference run, the call derived and bound, the batch cut or the own-shape and budget decisions taken, and
    run_project replaced by a stand-in that stops there. Returns the step's verdict when it is reached before the run
    (no-reference, tiling-fixed, too-large), else match="dry-call" with the op's inputs, attributes and outputs
    ({name: [shape, dtype]}) as the run would get them."""
    from ascendcraft import opproject
    from corpus import materialise
    t0 = time.time()
    out = dict(path=entry["path"])
    with tempfile.TemporaryDirectory() as tmp:
        try:
            project = opproject.load_project(materialise(entry, gitdir, Path(tmp)))
        except Exception as e:  # noqa: BLE001 - reported, as the corpus reports a load failure
            return dict(out, match="load-error", match_detail=f"{type(e).__name__}: {e}"[:300], seconds=round(time.time() - t0, 1))
        def stop(project, inputs, *, attrs=None, outputs=None, settings=None):
            raise DryStop(inputs, attrs or {}, outputs or {})
        saved = opproject.run_project
        opproject.run_project = stop
        try:
            out.update(match_evokernel(entry, gitdir, project))
        except DryStop as s:
            out.update(match="dry-call", inputs={k: _described(v) for k, v in s.inputs.items()},
                       attrs={k: _described(v) for k, v in s.attrs.items()},
                       outputs={k: _described(v) for k, v in s.outputs.items()})
        except Exception as e:  # noqa: BLE001 - the reference / derived call, as _try_entry reports it
            out.update(match="no-reference", match_detail=f"harness: {type(e).__name__}: {e}"[:300])
        finally:
            opproject.run_project = saved
    return dict(out, seconds=round(time.time() - t0, 1))


def main(argv=None) -> int:
    """`python evokernel.py --dry --git KernelHive/ascendc-skill=<git dir> [--source TEXT] [--out FILE]`: the dry pass
    (dry_match) over the manifest's EvoKernel entries that passed on their 910B, one JSON line per entry."""
    sys.path.insert(0, str(Path(__file__).parent))
    from corpus import MANIFEST
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--dry", action="store_true", required=True,
                    help="derive and bind each call without building or running anything (the only mode)")
    ap.add_argument("--git", required=True, metavar="KernelHive/ascendc-skill=GITDIR")
    ap.add_argument("--source", default=None, help="only entries whose source or path contains this text")
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON lines here")
    a = ap.parse_args(argv)
    repo, gitdir = a.git.split("=", 1)
    entries = [e for e in json.loads(MANIFEST.read_text()) if e["repo"] == repo and e.get("hardware") == "passed"
               and (a.source is None or a.source in e["source"] or a.source in e["path"])]
    if not entries: ap.error(f"no passed entry of {repo} matches --source {a.source!r}")
    log = open(a.out, "w") if a.out else None
    try:
        for e in entries:
            line = json.dumps(dry_match(e, gitdir))
            print(line, flush=True)
            if log: log.write(line + "\n"); log.flush()
    finally:
        if log: log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
