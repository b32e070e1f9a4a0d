"""Which argument of the call a task's ModelNew makes is which op input, attribute and output: read from the task's
pybind.cpp (pybind_layout, follow_wrapper) or else from ModelNew's parameter names (order_by_names), and which results
are compared (compared_outputs). NPUKernelBench's validation (npukb.py), MultiKernelBench's protocol (mkb.py) and
EvoKernel's calls (evokernel.py) read their calls this way.
"""
import re

from corpus import _balanced, _split_args


def pybind_layout(pybind: str, op, host_sources: dict[str, str]) -> dict | None:
    """Where the NPU op's inputs, attributes and outputs sit in the call ModelNew makes, read from the task's
    validation/pybind.cpp: the bound function's parameters are the call's arguments, and its EXEC_NPU_CMD calls the
    op's generated aclnn API (aclnnCustomOp or aclnn<OpType>), whose arguments are the definition's inputs, attributes,
    then its outputs other than the ref ones (an output named like an input is that input's memory and no argument).
    The function's result list says which outputs the reference returns, in its order. Returns {"inputs": [call index
    or None (absent)], "attrs": [call index or None], "results": [output names] or None}, or None when the file does not
    say (another API, as MseLossGradV2's hand-written aclnnMseLossBackward, whose order the op_host's own code decides)."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", pybind, flags=re.S)
    bound = re.search(r"\.def\(\s*\"\w+\"\s*,\s*&?\s*(\w+)", code)
    if not bound: return None
    fn = re.search(rf"\b{bound.group(1)}\s*\(([^)]*)\)\s*\{{", code)
    if not fn: return None
    params = [re.sub(r"=.*", "", p).strip().split()[-1].lstrip("&*") for p in _split_args(fn.group(1))]
    body = code[fn.end():]
    names = {"aclnnCustomOp", f"aclnn{op.type}"}
    call = None
    for m in re.finditer(r"EXEC_NPU_CMD\s*\(", body):
        args = _split_args(_balanced(body, m.end() - 1))
        if args and args[0] in names: call = args[1:]; break
    if call is None or any(re.search(rf"\b{re.escape(n)}GetWorkspaceSize\s*\(", t) for n in names
                           for f, t in host_sources.items() if f.startswith("op_host/")):
        return None   # no generated aclnn call, or one the op_host writes by hand (its order is its own)
    in_names = {p.name for p in op.inputs}
    plain_outputs = [p for p in op.outputs if p.name not in in_names]
    if len(call) != len(op.inputs) + len(op.attrs) + len(plain_outputs): return None
    reordered = {}   # an argument made by reordering a parameter's elements: the torch steps that make it
    def where(arg):   # the call index of a parameter; None for an absent one (an empty tensor / nullptr / nullopt)
        if arg in params: return params.index(arg)
        if re.fullmatch(r"nullptr|c10::nullopt|std::nullopt|at::Tensor\(\)|empty_tensor|\w*[Nn]ull\w*", arg): return None
        # a local made from one parameter (auto input = at::TensorList(x); const char* r = reduction.c_str())
        made = re.findall(rf"\b{re.escape(arg)}\s*(?:=|\(|\{{)([^;]*);", body)
        # a parameter asked only where to put the local or what it is (x.device(), x.options(), x.size(0)) gives none
        # of its elements (EvoKernel's sumw_cpu.to(x.device()), made by a helper from the weight: not x)
        meta = lambda m: re.sub(rf"\b\w+\s*\.\s*(?:{'|'.join(_METADATA)})\s*\([^()]*\)", "", m)
        used = {p for m in made[:1] for p in params if re.search(rf"\b{re.escape(p)}\b", meta(m))}
        if len(used) == 1:
            p = used.pop()
            # the answer's own C++ that moves elements (LLM4AscendC conv3d_softmax_max_pool_max_pool packs its weight
            # with a helper: w.permute({1,2,3,4,0}).contiguous().view({81, 16})): its steps when they are a chain of
            # literal permute / transpose / view / reshape / contiguous, else not a call argument
            steps = reordering_steps(made[0].strip(), p, code)
            if steps: reordered[arg] = steps
            return params.index(p)
        raise LookupError(arg)
    tail, na = call[len(op.inputs):], len(op.attrs)
    if na and len(tail) > na and all(a in params for a in tail[-na:]) and not any(a in params for a in tail[:-na]):
        # the attributes after the outputs (EvoKernel's SRM: x, ..., y, eps): the bound function's scalar parameters
        # are the attributes wherever they stand, the locals it makes the outputs
        call = call[:len(op.inputs)] + tail[-na:] + tail[:-na]
    try:
        inputs = [where(a) for a in call[:len(op.inputs)]]
        attrs = [where(a) for a in call[len(op.inputs):len(op.inputs) + len(op.attrs)]]
    except LookupError:
        return None   # an argument the function computes: not a call argument
    steps = {k: reordered[a] for k, a in enumerate(call[:len(op.inputs)]) if a in reordered}
    outs = call[len(op.inputs) + len(op.attrs):]
    results = None
    ret = re.findall(r"\breturn\s+(\{[^}]*\}|\w+)\s*;", body[:_function_end(body)])
    more = []   # results appended when a bool parameter is set (CrossEntropyLoss: if (returnZloss) result.push_back(...))
    if len(ret) == 1:
        listed = ret[0]
        if not listed.startswith("{"):
            name = listed
            lists = set(re.findall(rf"\b{listed}\s*(?:=\s*)?(\{{[^}}]*\}})\s*;", body[:_function_end(body)]))
            listed = lists.pop() if len(lists) == 1 else ("{" + listed + "}" if listed in outs or listed in params else "")
            for cond, block in re.findall(r"\bif\s*\(\s*(\w+)\s*\)\s*\{([^{}]*)\}", body[:_function_end(body)]):
                pushed = re.findall(rf"\b{name}\s*\.\s*(?:push|emplace)_back\s*\(\s*(\w+)\s*\)", block)
                if pushed and (cond not in params or any(x not in outs for x in pushed)): listed = ""; break
                more += [(params.index(cond), plain_outputs[outs.index(x)].name) for x in pushed]
        if listed:
            results = []
            for r in _split_args(listed.strip("{}")):
                # an input returned: the call's argument, or the parameter it is made from (ScatterList returns varRef,
                # passed as at::TensorList(varRef)); it is a result when it is a ref output, or when the op has no
                # outputs and writes into its inputs (Gemm's c)
                at = call.index(r) if r in call[:len(op.inputs)] else \
                    inputs.index(params.index(r)) if r in params and params.index(r) in inputs else None
                if r in outs: results.append(plain_outputs[outs.index(r)].name)
                elif at is not None and (not op.outputs or op.inputs[at].name in {p.name for p in op.outputs}):
                    results.append(op.inputs[at].name)
                else: results = None; break
    out = dict(inputs=inputs, attrs=attrs, results=results)
    if more and results is not None: out["results_if"] = more
    if steps: out["steps"] = steps   # {op input index: [(torch method, args), ...]} applied to its call argument
    return out


_METADATA = ("device", "options", "scalar_type", "dtype", "size", "sizes", "dim", "numel", "stride", "strides",
             "is_contiguous", "layout", "defined")   # what a tensor's method says about it, not its elements


_REORDER = ("permute", "transpose", "t", "mT", "flip", "roll", "movedim", "swapaxes", "swapdims")


_CHAIN_STEPS = {"permute", "transpose", "t", "view", "reshape", "contiguous"}


def reordering_steps(expr: str, param: str, code: str) -> list | None:
    """The torch steps by which a pybind's local made from `param` is made (`expr`, the text after its `=`), when they
    move elements: [(method, int args), ...] for a chain of permute / transpose / t / view / reshape / contiguous with
    literal arguments, through a helper function the file defines (`static at::Tensor pack(const at::Tensor& w)
    { return w.permute({1,2,3,4,0}).contiguous().view({81, 16}); }`); when it keeps the elements in place, the
    reshape its last view / reshape / flatten makes where one dimension or literal sizes say it (x.view({n}) and
    x.flatten(): [("reshape", [-1])]), else None (at::TensorList(x), x.c_str(), x.view({a, b})). Raises LookupError when
    it reorders them some other way (other methods or arguments in the chain): the harness cannot make it."""
    call = re.fullmatch(rf"(\w+)\s*\(\s*{re.escape(param)}\s*\)", expr)
    helper = call and re.search(rf"\b{call.group(1)}\s*\(\s*(?:const\s+)?(?:at::|torch::)?Tensor\s*&?\s*(\w+)\s*\)\s*"
                                rf"\{{", code)
    if helper:   # a one-statement helper of the file: its return expression, on its own parameter
        ret = re.fullmatch(r"\s*return\s+([^;]*);\s*", _balanced_braces(code, helper.end() - 1))
        if ret: expr, param = ret.group(1).strip(), helper.group(1)
    chain = re.fullmatch(rf"{re.escape(param)}((?:\s*\.\s*\w+\s*\([^()]*\))+)", expr)
    if not re.search(rf"\.\s*(?:{'|'.join(_REORDER)})\s*\(", expr):
        # the elements in place; the shape is the last view / reshape / flatten's when the harness can make it: one
        # dimension, whatever names its size (EvoKernel's sf_flat = scaling_factor.view({Cout}): a [Cout] input that
        # the TilingFunc checks is 1-D), or literal sizes
        shaping = [(n, a) for n, a in re.findall(r"\.\s*(\w+)\s*\(([^()]*)\)", chain.group(1))
                   if n in ("view", "reshape", "flatten")] if chain else []
        if not shaping: return None
        name, args = shaping[-1]
        dims = [a.strip() for a in re.sub(r"[{}]", "", args).split(",") if a.strip()]
        if name == "flatten" and not dims or name != "flatten" and len(dims) == 1: return [("reshape", [-1])]
        if name != "flatten" and all(re.fullmatch(r"-?\d+", d) for d in dims): return [("reshape", [int(d) for d in dims])]
        return None
    if not chain: raise LookupError(expr)
    steps = []
    for name, args in re.findall(r"\.\s*(\w+)\s*\(([^()]*)\)", chain.group(1)):
        if name not in _CHAIN_STEPS: raise LookupError(expr)
        try:
            steps.append((name, [int(a) for a in re.sub(r"[{}]", "", args).split(",") if a.strip()]))
        except ValueError:
            raise LookupError(expr) from None
    return steps


def _balanced_braces(text: str, at: int) -> str:
    "The text inside the braces that open at text[at]."
    return _balanced(text, at, "{}")


WRAPPER_SYNONYMS = {"input": "x", "self": "x", "output": "y", "out": "y", "weight": "gamma", "bias": "beta",
                    "eps": "epsilon"}   # aclnn parameter names -> the OpDef names CANN's ops use for the same part


def _wrapper_name(name: str) -> str:
    """A wrapper parameter's or op part's name for matching: lower case, without underscores, a leading `is`, a
    trailing `Optional` or `Out` (meanOutOptional = mean, training = is_training)."""
    n = re.sub(r"^is_?(?=[a-z])", "", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()).replace("_", "")
    n = re.sub(r"(?<=.)optional$", "", n)
    return re.sub(r"(?<=..)out$", "", n)


def follow_wrapper(pybind: str, op, host_sources: dict[str, str]) -> tuple[str, dict] | None:
    """A task whose pybind.cpp calls an aclnn API the op_host writes by hand (BatchNormV3's aclnnBatchNorm, LayerNormV4's
    aclnnLayerNorm: wrappers of the project's own, in op_host/aclnn_*.cpp): the wrapper's GetWorkspaceSize declaration
    names its parameters: its inputs (tensors and int arrays) up to its last scalar, its scalars (the attributes), then
    its outputs. Each is matched with the op input, attribute or output of the same name (runningMean = running_mean,
    training = is_training, meanOutOptional = mean), else of the name CANN's ops give that part (WRAPPER_SYNONYMS: input
    = x, weight = gamma, eps = epsilon); one part left in a group pairs with the one parameter left (saveInvstd =
    save_rstd); more than one left, and the wrapper is not followed (MseLossGradV2's aclnnMseLossBackward(gradOutput,
    self, target) names none of predict, label, dout). Returns the pybind text with the call rewritten to the op's
    generated API and order (aclnn<OpType>: inputs, attributes, outputs), which pybind_layout and the other readers
    take, and what the harness follows of the wrapper: {"api", "casts": it converts tensors with l0op::Cast (to the
    dtypes the kernel takes, and its results back to the caller's dtypes), "pairs": [(wrapper parameter, op part)]};
    None when there is no such wrapper, or its parameters do not line up with the op."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", pybind, flags=re.S)
    m = next((m for m in re.finditer(r"EXEC_NPU_CMD\s*\(", code)), None)
    if m is None: return None
    args = _split_args(_balanced(code, m.end() - 1))
    if not args or not re.fullmatch(r"aclnn\w+", args[0]): return None
    # NPUKernelBench's build renames aclnnCustomOp to aclnn<OpType> (framework/batch_compile.py): the generated API,
    # unless the op_host writes one of that name by hand (TopKV3's aclnnTopKV3(self, int64_t k, ...)), which is followed
    api, call = f"aclnn{op.type}" if args[0] == "aclnnCustomOp" else args[0], args[1:]
    decl, source = None, ""
    for f, t in sorted(host_sources.items()):
        if not f.startswith("op_host/"): continue
        t = re.sub(r"//[^\n]*|/\*.*?\*/", "", t, flags=re.S)
        d = re.search(rf"\b{api}GetWorkspaceSize\s*\(", t)
        if d is None: continue
        decl = decl or _split_args(_balanced(t, d.end() - 1))
        if re.search(rf"\b{api}GetWorkspaceSize\s*\([^;{{]*\)\s*\{{", t): source = t   # the definition
    if decl is None: return None
    params = []
    for a in decl:
        words = re.findall(r"[A-Za-z_]\w*", a)
        if not words or words[-1] in ("workspaceSize", "executor"): continue
        params.append(("tensor" if re.search(r"\bacl(Tensor|TensorList|IntArray|FloatArray|BoolArray)\b", a) else "scalar",
                       words[-1]))
    if len(params) != len(call) or not params: return None
    # a scalar parameter named like an op input and like no attribute is that input: the wrapper makes a host scalar
    # a one-element tensor (TopKV3's l0op::Topk: k -> executor->ConvertToTensor(AllocScalar(k), DT_INT32))
    attr_names = {_wrapper_name(a.name) for a in op.attrs}
    input_names = {_wrapper_name(p.name) for p in op.inputs}
    from_scalar = {i for i, (k, n) in enumerate(params) if k == "scalar" and _wrapper_name(n) in input_names
                   and _wrapper_name(n) not in attr_names}
    params = [("tensor", n) if i in from_scalar else (k, n) for i, (k, n) in enumerate(params)]
    kinds = [k for k, _ in params]
    first_scalar = kinds.index("scalar") if "scalar" in kinds else len(kinds)
    last_scalar = len(kinds) - 1 - kinds[::-1].index("scalar") if "scalar" in kinds else len(kinds) - 1
    if any(k != "scalar" for k in kinds[first_scalar:last_scalar + 1]): return None
    in_names = {p.name for p in op.inputs}
    plain_outputs = [p.name for p in op.outputs if p.name not in in_names]
    groups = [(list(range(first_scalar)), [p.name for p in op.inputs]),
              (list(range(first_scalar, last_scalar + 1)), [a.name for a in op.attrs]),
              (list(range(last_scalar + 1, len(params))), plain_outputs)]
    where, pairs = {}, []
    for idx, names in groups:
        if len(idx) != len(names): return None
        left = list(names)
        for same in (lambda w, n: _wrapper_name(w) == _wrapper_name(n),
                     lambda w, n: WRAPPER_SYNONYMS.get(_wrapper_name(w)) == _wrapper_name(n)):
            for i in idx:
                if i in where.values(): continue
                hit = [n for n in left if same(params[i][1], n)]
                if len(hit) == 1: where[hit[0]] = i; left.remove(hit[0])
        rest = [i for i in idx if i not in where.values()]
        if len(left) > 1: return None   # several left: an order of the wrapper's own
        if left: where[left[0]] = rest[0]
        pairs += [(params[where[n]][1], n) for n in names]
    order = [call[where[n]] for _, names in groups for n in names]
    end = m.end() + len(_balanced(code, m.end() - 1)) + 1   # just past the call's closing parenthesis
    rewritten = code[:m.start()] + f"EXEC_NPU_CMD(aclnn{op.type}, {', '.join(order)})" + code[end:]
    scalars = [n for n in (p.name for p in op.inputs) if where[n] in from_scalar]
    return rewritten, dict(api=api, casts=bool(re.search(r"\bl0op::Cast\s*\(", source)), pairs=pairs, scalars=scalars)


def scalar_tensor(p, value):
    """The one-element tensor an aclnn wrapper makes of a host scalar for the op input `p` (executor->ConvertToTensor):
    of the one dtype the definition lists for it, else int64 for an int and float32 for a float."""
    import torch
    from ascendcraft.opproject import GE_DTYPES
    if value is None or torch.is_tensor(value) or not isinstance(value, (bool, int, float)): return value
    one = p.dtypes[0] if p.dtypes and len(set(p.dtypes)) == 1 and p.dtypes[0] in GE_DTYPES else None
    dtype = getattr(torch, GE_DTYPES[one][0]) if one else torch.float32 if isinstance(value, float) else torch.int64
    return torch.tensor([value], dtype=dtype)


FORMAT_RANKS = {"FORMAT_NCHW": 4, "FORMAT_NHWC": 4, "FORMAT_NCDHW": 5, "FORMAT_NDHWC": 5}


def _format_rank(p, shape: tuple) -> tuple:
    """A shape with trailing unit dims up to the smallest rank of the formats of the op part `p` when they all have one
    (NCHW: 4, NCDHW: 5), as an aclnn wrapper views an [N, C] or [N, C, L] tensor for a kernel whose formats are 4-D or
    5-D (BatchNormV3's aclnnBatchNorm: [N, C] -> [N, C, 1, 1]); other shapes as they are."""
    ranks = {FORMAT_RANKS.get(f) for f in p.formats}
    rank = min(ranks) if ranks and None not in ranks else None
    if rank is None or not 2 <= len(shape) < rank: return tuple(shape)
    return tuple(shape) + (1,) * (rank - len(shape))


def wrapper_inputs(op, tensors: list, wrapped: dict) -> tuple[list, str]:
    """The op's input tensors as the op_host's own aclnn wrapper hands them to the kernel (follow_wrapper): an [N, C]
    tensor for an input whose formats are all 4-D gets trailing unit dims (_format_rank); and where the wrapper casts
    (l0op::Cast) and no dtype column of the definition takes the tensors as they are, each is converted to the dtype of
    the column that takes the first input's dtype and most of the others (BatchNormV3: float16 running_mean / running_var
    to the float its every column lists; LayerNormV4: the int64 normalized_shape to the int32 tensor its wrapper makes of
    the int array). Floats become floats and integers integers. Returns the tensors and a note."""
    import torch
    from ascendcraft.opproject import GE_DTYPES, _ge_of
    note = ""
    shaped = [t.reshape(_format_rank(p, tuple(t.shape))) if torch.is_tensor(t) else t for p, t in zip(op.inputs, tensors)]
    viewed = [p.name for p, t, u in zip(op.inputs, tensors, shaped) if torch.is_tensor(t) and t.dim() != u.dim()]
    if viewed: note += f"; {', '.join(viewed)} viewed with the rank of its format ({wrapped['api']} does)"
    tensors = shaped + list(tensors[len(shaped):])
    if not wrapped["casts"]: return tensors, note
    ge = [None if not torch.is_tensor(t) else "DT_BF16" if t.dtype == torch.bfloat16 else _ge_of(t) for t in tensors]
    col = lambda p, c: p.dtypes[min(c, len(p.dtypes) - 1)] if p.dtypes else None
    n = max((len(p.dtypes) for p in op.inputs + op.outputs), default=0)
    fits = lambda c: all(g is None or col(p, c) in (None, g) for p, g in zip(op.inputs, ge))
    if not n or not ge or ge[0] is None or any(fits(c) for c in range(n)): return tensors, note
    cands = [c for c in range(n) if col(op.inputs[0], c) == ge[0]]
    if not cands: return tensors, note
    best = max(cands, key=lambda c: sum(col(p, c) == g for p, g in zip(op.inputs, ge)))   # the first of the best
    cast = {}
    for j, (p, t) in enumerate(zip(op.inputs, tensors)):
        to = col(p, best)
        same_kind = t.is_floating_point() == (to in ("DT_FLOAT", "DT_FLOAT16", "DT_BF16")) if torch.is_tensor(t) else False
        if same_kind and ge[j] != to and to in GE_DTYPES:   # (an int array the wrapper makes a tensor of: its int dtype)
            tensors[j] = t.to(torch.bfloat16 if to == "DT_BF16" else getattr(torch, GE_DTYPES[to][0]))
            cast[p.name] = GE_DTYPES[to][0]
    if cast: note += f"; converted as {wrapped['api']} does (l0op::Cast): " + ", ".join(f"{k} to {v}" for k, v in cast.items())
    return tensors, note


def pybind_zeroed_outputs(pybind: str, op) -> set[str]:
    """The op outputs the task's validation/pybind.cpp fills with zeros before its EXEC_NPU_CMD call (`out.zero_()`,
    `out.fill_(0)`, `out = torch::zeros(...)` / `at::zeros_like(...)`): on the NPU such an output starts at 0, which a
    kernel that accumulates into it (SetAtomicAdd: CoalesceSparse's new_values) relies on. Only single-tensor
    outputs passed by name; the empty set when the file does not say."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", pybind, flags=re.S)
    in_names = {p.name for p in op.inputs}
    plain_outputs = [p for p in op.outputs if p.name not in in_names]
    zeroed = set()
    for m in re.finditer(r"EXEC_NPU_CMD\s*\(", code):
        args = _split_args(_balanced(code, m.end() - 1))[1:]
        if len(args) != len(op.inputs) + len(op.attrs) + len(plain_outputs): continue
        before = code[:m.start()]
        for p, arg in zip(plain_outputs, args[len(op.inputs) + len(op.attrs):]):
            if not re.fullmatch(r"\w+", arg): continue
            a = re.escape(arg)
            if re.search(rf"\b{a}\s*\.\s*(?:zero_\s*\(\s*\)|fill_\s*\(\s*0(?:\.0*)?f?\s*\))", before) or \
                    re.search(rf"\b{a}\s*=\s*(?:torch|at)::zeros(?:_like)?\s*\(", before):
                zeroed.add(p.name)
    return zeroed


def pybind_returned_inputs(pybind: str, op, layout: dict) -> list[tuple[str, str]] | None:
    """What the bound function returns when it builds its result vector from the inputs an op without outputs wrote
    (ForeachNonFiniteCheckAndUnscale: `for (const auto& g : scaled_grads_list) ret.emplace_back(g);
    ret.emplace_back(found_inf_tensor_io); return ret;`): [("list" | "tensor", input name)] in order, or None when
    the function does something else."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", pybind, flags=re.S)
    bound = re.search(r"\.def\(\s*\"\w+\"\s*,\s*&?\s*(\w+)", code)
    fn = bound and re.search(rf"\b{bound.group(1)}\s*\(([^)]*)\)\s*\{{", code)
    if not fn: return None
    params = [re.sub(r"=.*", "", q).strip().split()[-1].lstrip("&*") for q in _split_args(fn.group(1))]
    body = code[fn.end():][:_function_end(code[fn.end():])]
    ret = re.findall(r"\breturn\s+(\w+)\s*;", body)
    if len(ret) != 1: return None
    name = ret[0]
    call = next((_split_args(_balanced(body, m.end() - 1))[1:] for m in re.finditer(r"EXEC_NPU_CMD\s*\(", body)), None)
    if call is None: return None
    def input_of(arg):   # the op input a call argument (or a local made from a parameter) is
        if arg in call[:len(op.inputs)]: return op.inputs[call.index(arg)].name
        if arg in params and params.index(arg) in layout["inputs"]: return op.inputs[layout["inputs"].index(params.index(arg))].name
        return None
    out = []
    after = body[body.find("EXEC_NPU_CMD"):]
    pattern = rf"for\s*\([^:;)]*?\b(\w+)\s*:\s*(\w+)\s*\)\s*\{{?\s*{name}\s*\.\s*(?:emplace|push)_back\s*\(\s*(\w+)\s*\)\s*;\s*\}}?" \
              rf"|\b{name}\s*\.\s*(?:emplace|push)_back\s*\(\s*(\w+)\s*\)\s*;"
    for m in re.finditer(pattern, after):
        if m.group(1):
            if m.group(1) != m.group(3) or input_of(m.group(2)) is None: return None
            out.append(("list", input_of(m.group(2))))
        else:
            if input_of(m.group(4)) is None: return None
            out.append(("tensor", input_of(m.group(4))))
    return out or None


def _function_end(body: str) -> int:
    "Where the function whose body starts at body[0] ends (its closing brace; len(body) when it never closes)."
    from ascendcraft.emu import past_close
    end = past_close(body, 0, "{}")
    return end - 1 if body.count("}", 0, end) > body.count("{", 0, end) else end


def _norm(name: str) -> str:
    "A parameter name without the words that wrappers add (input_x, x_input -> x), its case and underscores."
    return re.sub(r"^(input|in)_|_(input|in|tensor)$", "", name.strip("_").lower()).replace("_", "")


def order_by_names(op_inputs: list[str], forward, given: list, call_tensors: list) -> tuple[list, str]:
    """The call's tensors in the definition's input order where ModelNew's forward parameters name them (for a call
    that pybind_layout cannot read): MseLossGradV2's ModelNew calls the op in aclnnMseLossBackward's order
    (gradOutput, self, target) while its definition's inputs are predict, label, dout, as ModelNew's parameters
    input_predict, input_label, input_dout are. A definition input is taken by name only when exactly one forward
    parameter has its name and that very tensor object is in the call; the others keep the call's order.
    Returns (tensors, a note saying what moved, or "")."""
    import inspect
    try:
        params = list(inspect.signature(forward).parameters)
    except (TypeError, ValueError):
        return call_tensors, ""
    chosen = {}
    for j, name in enumerate(op_inputs):
        hits = [i for i, m in enumerate(params) if _norm(m) == _norm(name)]
        if len(hits) != 1 or hits[0] >= len(given): continue
        at = [k for k, t in enumerate(call_tensors) if t is given[hits[0]]]
        if len(at) == 1: chosen[j] = at[0]
    if len(set(chosen.values())) != len(chosen): return call_tensors, ""
    rest = iter(k for k in range(len(call_tensors)) if k not in chosen.values())
    order = [chosen[j] if j in chosen else next(rest, None) for j in range(len(op_inputs))]
    if None in order or order == list(range(len(order))): return call_tensors, ""
    order += [k for k in range(len(call_tensors)) if k not in order]
    return [call_tensors[k] for k in order], "inputs lined up by ModelNew's parameter names (" + ", ".join(
        f"{op_inputs[j]} = argument {order[j]}" for j in range(len(op_inputs)) if order[j] != j) + ")"


def compared_outputs(op, layout: dict | None, want, results: list, dynamic: set) -> tuple[list, list]:
    """Which op outputs (or, for an op that writes into its inputs, inputs) the Model's results are compared with, and
    those results: the ones the task's pybind.cpp returns (pybind_layout's "results": RmsNorm returns y, not rstd;
    Gemm returns its input c) when the Model returns as many; the first of them when the Model returns fewer (GeluQuant's
    ModelNew keeps `gelu_quant(...)[0]` of y, out_scale, GroupNormSwish's `y, _, _ = ...`); else `results` in order
    (CrossEntropyLoss's Model returns all four outputs while its pybind returns two), or the first of them when the
    Model returns fewer (GroupNormSwishGrad's dx of dx, dgamma, dbeta)."""
    import torch
    is_list = lambda a: isinstance(a, (list, tuple)) and a and all(torch.is_tensor(t) for t in a)
    returned = lambda rs: [list(want)] if len(rs) == 1 and rs[0].name in dynamic and is_list(want) else \
        list(want) if isinstance(want, (list, tuple)) else [want]
    if layout is not None and layout["results"]:
        chosen = [next(p for p in op.outputs + op.inputs if p.name == n) for n in layout["results"]]
        if len(returned(chosen)) == len(chosen): return chosen, returned(chosen)
        if len(returned(results)) != len(results) and len(returned(chosen[:1])) < len(chosen):   # the first ones
            chosen = chosen[:len(returned(chosen[:1]))]
            return chosen, returned(chosen)
    if op.outputs and results == op.outputs and len(returned(results[:1])) < len(results):   # no pybind order to read (GroupNormSwishGrad's helper): the
        results = results[:len(returned(results[:1]))]   # definition's first outputs, as its ModelNew keeps [0]
    return results, returned(results)
