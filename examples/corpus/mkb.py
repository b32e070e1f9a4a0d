"""MultiKernelBench's answer format in the corpus: the six source strings an LLM returns for one op, and MKB's own
correctness check run on the emulator.

An answer (MultiKernelBench's prompt examples, and the published outputs of LLM kernel generators that use its format,
such as CenZhihan/LLM4AscendC's `output/**/<op_key>.txt`) is Python text that assigns six strings:
project_json_src (the op's msopgen JSON), host_tiling_src (op_host/<op>_tiling.h), host_operator_src (op_host/<op>.cpp:
TilingFunc, InferShape, the OpDef), kernel_src (op_kernel/<op>.cpp), python_bind_src (the torch extension that calls
aclnn<Op>) and model_src (ModelNew, calling the extension's function). An LLM's reply usually wraps it in a markdown
fence (```python ... ```), which MultiKernelBench strips before it runs the text; so does answer_strings.

match_mkb runs the rebuilt op project as MultiKernelBench's correctness step does (its execute_template): the task's
reference Model and ModelNew are made after seeding torch with MKB's seed, one trial's get_inputs() go to both, and
the outputs must agree under torch.allclose(atol=1e-4, rtol=1e-4) (compared as float32). ModelNew runs on the CPU with
torch_npu stood in, and its call into the extension is captured: python_bind_src says which call argument is which op
input and attribute (pybind_calls.pybind_layout), the reference's result gives the output's shape, the op definition its
dtype. Only one of MKB's five trials is run. MKB's inputs are large (up to 8 GiB): a task whose inputs and outputs
exceed MAX_INPUT_BYTES runs with a smaller batch, the leading dimension of its inputs (shrink_batch; the result's
detail says so), the reference on the same smaller inputs. An answer written for the task's one shape (its TilingFunc
reads no input shape, a constant holds the task's batch, or the TilingFunc refuses the smaller batch; many LLM-made
kernels are) runs at the task's own shape instead. What a run may hold is a memory budget derived from this machine
(memory_budget: bench's, its RAM less a quarter, or the verify_memory_mb setting), against the run's peak estimated on
meta tensors (run_memory); a task is not run, outside the run / match columns, when even its smaller batch is over it
(too-large) or when it is fixed to its own shape and that is over it (tiling-fixed). The op project runs with
torch_npu's device allocation (run_project's rules, CHIP: gm_padding "torch_npu"), as MKB's extension calls it from PyTorch; the run
limit (corpus.run_settings, stretched by the load) grows with the run's GM bytes as every emulated run's does
(sandbox.run_seconds: run_timeout per GiB), and a run stopped at it counts as `timeout`, apart from the runs.
"""
import ast
import posixpath
import re
import sys
import types

FIELDS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src")
MKB_SEED = 1024          # MultiKernelBench's seed_num (LLM4AscendC's vendor/mkb/mkb_eval_config.py carries it)
MKB_ATOL = MKB_RTOL = 1e-4
# MKB's full-size inputs reach 8 GiB (argmax: 128 x 4096 x 4095 floats): a task runs at its own size up to
# MAX_INPUT_BYTES of inputs and outputs, else with a smaller batch (shrink_batch) that brings them within it, or, where
# weights alone are larger, brings the batch's rows under BATCH_FLOOR_BYTES, as long as the run's estimated peak
# (run_memory) stays within the machine's memory budget (memory_budget)
MAX_INPUT_BYTES = 64 << 20
BATCH_FLOOR_BYTES = 1 << 20


class AnswerFormatError(ValueError):
    "An answer text that does not hold MultiKernelBench's source strings."


def _fenced(text: str) -> str:
    "The body of the text's first markdown code fence (```python ... ```), or the text itself when it has none."
    m = re.search(r"^[ \t]*```[\w+-]*[ \t]*\n(.*?)^[ \t]*```[ \t]*$", text, flags=re.S | re.M)
    return m.group(1) if m else text


def answer_strings(text: str) -> dict[str, str]:
    """The module-level string assignments of an answer (`kernel_src = \"\"\"...\"\"\"`), read with Python's parser
    from the text or, when the text is wrapped in a markdown fence, from the fence's body. Raises AnswerFormatError
    naming the line when neither parses, or when a source string the op project needs is missing."""
    errors = []
    for body in dict.fromkeys((text, _fenced(text))):
        try:
            tree = ast.parse(body)
        except SyntaxError as e:
            errors.append(f"line {e.lineno}: {e.msg}")
            continue
        out = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                for t in node.targets:
                    if isinstance(t, ast.Name): out[t.id] = node.value.value
        missing = [f for f in FIELDS[:4] if f not in out]
        if missing:
            errors.append(f"no {', '.join(missing)}")
            continue
        return out
    raise AnswerFormatError("not a MultiKernelBench answer (" + "; ".join(errors) + "): it assigns the strings "
                            + ", ".join(FIELDS) + ", optionally inside one ```python fence")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def write_project(strings: dict[str, str], dest) -> "Path":
    """The op project an answer describes, as MultiKernelBench's build lays it out from the op's name in
    project_json_src (AddCustom -> op_host/add_custom_tiling.h, op_host/add_custom.cpp, op_kernel/add_custom.cpp).
    Raises AnswerFormatError when project_json_src is not a JSON list of op descriptions."""
    import json
    from pathlib import Path
    try:
        op = json.loads(strings["project_json_src"])[0]["op"]
    except (ValueError, LookupError, TypeError) as e:
        raise AnswerFormatError(f"project_json_src does not name the op ([{{\"op\": \"AddCustom\", ...}}]): {e}") from None
    dest, base = Path(dest), _snake(op)
    for rel, key in ((f"op_host/{base}_tiling.h", "host_tiling_src"), (f"op_host/{base}.cpp", "host_operator_src"),
                     (f"op_kernel/{base}.cpp", "kernel_src")):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(strings[key])
    return dest


# ---- LLM4AscendC (CenZhihan/LLM4AscendC): kernelbench165_txt, and which of them passed on their 910B ---------------
LLM4ASCENDC_PASSED_LIST = "generator/kernelbench102_ops.py"   # "102 op_keys that passed numerical correctness"
LLM4ASCENDC_SOURCES = {True: "LLM4AscendC kernelbench165 (LLM-made; passed on their 910B)",
                       False: "LLM4AscendC kernelbench165 (LLM-made; failed on their 910B)"}
# one of their gpt-5 generation runs (the 102 op keys above), whose results the repository does not record
LLM4ASCENDC_GPT5_RUN = "output/ascendc/gpt-5/agent_kb_only/one_shot/run0"
LLM4ASCENDC_GPT5_SOURCE = "LLM4AscendC gpt-5 agent_kb_only run0 (LLM-made; no hardware verdict)"


def passed_on_hardware(listing: str) -> set[str]:
    "The op keys of LLM4AscendC's generator/kernelbench102_ops.py (the string literals of its KERNELBENCH102_OP_KEYS)."
    for node in ast.parse(listing).body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id == "KERNELBENCH102_OP_KEYS" and isinstance(node.value, ast.Tuple):
            return {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
    raise AnswerFormatError("no KERNELBENCH102_OP_KEYS tuple")


def llm4ascendc_entries(files: list[str], listing: str, entry) -> list[dict]:
    """Manifest entries for LLM4AscendC's output/kernelbench165_txt/<op_key>.txt (kind mkb-prompt), each with the MKB
    reference its own evaluator uses (vendor/mkb/reference/<category>/<op_key>.py) and whether it is in the
    repository's list of kernels that passed on their NPU (hardware: passed / failed); then the answers of one gpt-5
    run (LLM4ASCENDC_GPT5_RUN/<op_key>.txt, hardware: unknown)."""
    refs = {posixpath.basename(f)[:-3]: f for f in files if f.startswith("vendor/mkb/reference/") and f.endswith(".py")}
    ok = passed_on_hardware(listing)
    out = []
    for f in files:
        if not re.fullmatch(r"output/kernelbench165_txt/\w+\.txt", f): continue
        key = posixpath.basename(f)[:-4]
        e = dict(entry(f, "mkb-prompt"), source=LLM4ASCENDC_SOURCES[key in ok], hardware="passed" if key in ok else "failed")
        if key in refs: e["reference"] = refs[key]
        out.append(e)
    for f in files:
        if not re.fullmatch(re.escape(LLM4ASCENDC_GPT5_RUN) + r"/\w+\.txt", f): continue
        key = posixpath.basename(f)[:-4]
        e = dict(entry(f, "mkb-prompt"), source=LLM4ASCENDC_GPT5_SOURCE, hardware="unknown")
        if key in refs: e["reference"] = refs[key]
        out.append(e)
    return out


# ---- MKB's correctness step on the emulator -------------------------------------------------------------------------
def _io_bytes(ns: dict) -> tuple[int, bool]:
    """The bytes of the reference's get_inputs() tensors and of its Model's outputs on them, measured on the meta
    device (nothing is allocated), and whether the Model ran there (one that cannot run on the meta device counts its
    inputs only). An output can be far larger than the inputs (a tall-skinny matmul: 16384 x 16 by 16 x 16384 gives
    1 GiB)."""
    import torch
    size = lambda ts: sum(t.numel() * t.element_size() for t in ts if torch.is_tensor(t))
    with torch.device("meta"):
        inputs = ns["get_inputs"]()
        try:
            out, ran = ns["Model"](*ns["get_init_inputs"]())(*inputs), True
        except Exception:  # noqa: BLE001 - an op without a meta kernel, or inputs the Model refuses
            out, ran = [], False
    return size(inputs) + size(out if isinstance(out, (list, tuple)) else [out]), ran


def memory_budget(settings=None) -> int:
    """Bytes one match run may hold: bench's budget for full-shape verifications (the verify_memory_mb setting, or
    this machine's RAM less a quarter), as a corpus run goes one task at a time (--jobs 1 under the corpus lock)."""
    from ascendcraft.bench import memory_budget_mb
    from ascendcraft.config import load_settings
    return int(memory_budget_mb(settings or load_settings()) * 2**20)


def run_memory(ns: dict) -> int:
    """The estimated peak of one match run (match_mkb) at the reference's current shapes, in bytes, measured on meta
    tensors (nothing is allocated): the parameters twice (Model's and ModelNew's); the inputs, and while the reference
    runs their clones and its own peak (bench._LiveBytes: temporaries and outputs), after it the reference's outputs,
    the inputs' and outputs' GM files the kernel maps (/dev/shm), and the comparison's float copy and masks (about
    twice the outputs); plus bench's overhead for Python, torch and the kernel process. A Model that cannot run on the
    meta device counts outputs as large as its inputs."""
    import torch
    from ascendcraft.bench import VERIFY_OVERHEAD_MB, _LiveBytes
    nbytes = lambda ts: sum(t.untyped_storage().nbytes() for t in ts if torch.is_tensor(t))
    with torch.device("meta"), torch.no_grad():
        inputs = ns["get_inputs"]()
        try:
            model = ns["Model"](*ns["get_init_inputs"]())
            state = [*model.parameters(), *model.buffers()]
        except Exception:  # noqa: BLE001 - a Model the meta device refuses to build
            model, state = None, []
        tensors = [t for t in inputs if torch.is_tensor(t)]
        try:
            with _LiveBytes([*tensors, *state]) as live:
                out = model(*inputs)
            outs, reference = [t for t in torch.utils._pytree.tree_leaves(out) if torch.is_tensor(t)], live.peak
        except Exception:  # noqa: BLE001 - an op without a meta kernel
            outs, reference = None, 0
    i = nbytes(tensors)
    o = nbytes(outs) if outs is not None else i
    return 2 * nbytes(state) + 2 * i + max(i + reference, i + 4 * o) + (VERIFY_OVERHEAD_MB << 20)


def _mib(n: int) -> str:
    return f"{-(-n >> 20)} MiB"   # rounded up: a need never reads as less than it is


_FACTORIES = ("rand", "randn", "randint", "zeros", "ones", "empty", "full")


SHRUNK_KEY = "__mkb_batch__"   # (the task's batch, the smaller one) in the reference's namespace after shrink_batch
SHRINK_WAYS = ("all", "2d", "first")   # which of get_inputs' tensors with the batch's rows shrink (_leading_shrunk)


def _leading_shrunk(full: int, small: int, way: str):
    """A torch function mode under which the factory calls (torch.rand, randn, randint, zeros, ones, empty, full) that
    make a tensor of leading dimension `full` make it with `small` rows instead: way "all" every such tensor, "2d" only
    those of two or more dimensions (a 1-D tensor as long as the batch is a bias, not a per-sample vector), "first" only
    the first one made (a square matmul's A, whose B has as many rows)."""
    import torch
    from torch.overrides import TorchFunctionMode
    funcs = {getattr(torch, f) for f in _FACTORIES}

    done = []

    def shrink(size):
        size = list(size)
        if size and size[0] == full and (len(size) >= 2 or way == "all") and not (way == "first" and done):
            size[0] = small
            done.append(1)
        return tuple(size)

    class Shrink(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if func in funcs:
                args = list(args)
                if "size" in kwargs: kwargs["size"] = shrink(kwargs["size"])
                elif func is torch.randint or func is torch.full:   # (low,) high, size / size, fill_value
                    at = next((i for i, a in enumerate(args) if isinstance(a, (tuple, list, torch.Size))), None)
                    if at is not None: args[at] = shrink(args[at])
                elif args and isinstance(args[0], (tuple, list, torch.Size)): args[0] = shrink(args[0])
                elif args and all(isinstance(a, int) for a in args): args = list(shrink(args))
            return func(*args, **kwargs)
    return Shrink()


def shrink_batch(ns: dict, limit: int = MAX_INPUT_BYTES, budget: int | None = None) -> str:
    """Leave inputs and outputs (_io_bytes) of up to `limit` bytes as the task sets them; make larger ones fit it by
    halving the batch, the leading dimension of the task's inputs, every other dimension as the task sets it (rows
    keep their length and alignment). The batch is the reference's module-level `batch_size` where it has one (which
    get_inputs reads when called; 180 of MKB's 300 references), else the leading dimension of its first input: each
    tensor that get_inputs makes with that many rows is made with fewer (_leading_shrunk), so the reference and the
    kernel see the same smaller inputs. The halving stops at `limit`, or once the batch's rows hold under 1 MiB
    (BATCH_FLOOR_BYTES: a GEMM's weights stay as they are and the batch keeps some rows); what is left is run when the
    run's estimated peak (run_memory) is within `budget` (memory_budget() when None). Returns a note saying what
    changed ("" when nothing did); raises ValueError when the task cannot be made to fit (its size does not follow the
    batch, the Model refuses the smaller batch, or it stays over the budget)."""
    size, ran = _io_bytes(ns)
    if size <= limit: return ""
    import torch
    if isinstance(ns.get("batch_size"), int):
        first, name = ns["batch_size"], "batch_size"
        def at(b, way="all"): ns["batch_size"] = b
    else:
        with torch.device("meta"):
            inputs = [t for t in ns["get_inputs"]() if torch.is_tensor(t) and t.dim() >= 1]
        if not inputs: raise ValueError(f"inputs and outputs of {size >> 20} MiB and no tensor input to reduce")
        first, name, original = int(inputs[0].shape[0]), "leading dimension", ns["get_inputs"]

        def at(b, way="all"):
            if b == first:
                ns["get_inputs"] = original
                return
            def get_inputs():
                with _leading_shrunk(first, b, way):
                    return original()
            ns["get_inputs"] = get_inputs
    b, full = first, size
    while size > limit and b > 1:
        smaller = max(1, b // 2)
        for way in SHRINK_WAYS if name != "batch_size" else SHRINK_WAYS[:1]:
            at(smaller, way)
            try:
                got, fits = _io_bytes(ns)
            except Exception:  # noqa: BLE001 - get_inputs itself refuses (A + A.T of a symmetric matrix)
                continue
            if fits or not ran: break
        else:
            at(first)
            raise ValueError(f"the Model refuses the task's inputs with {smaller} instead of {first} rows ({name})")
        per_row = (size - got) / (b - smaller)
        if per_row <= 0:
            at(first)
            raise ValueError(f"inputs and outputs of {full >> 20} MiB that do not shrink with the {name} ({first})")
        b, size = smaller, got
        if per_row * b <= BATCH_FLOOR_BYTES: break
    budget = memory_budget() if budget is None else budget
    need = run_memory(ns)
    if need > budget:   # weights alone over the budget: too large at any batch
        at(first)
        raise ValueError(f"inputs and outputs of {size >> 20} MiB even with {b} of {first} rows ({name}): a run needs "
                         f"about {_mib(need)}, over the memory budget of {_mib(budget)}")
    ns[SHRUNK_KEY] = (first, b)
    return f"; {name} {first} -> {b} (inputs and outputs {size >> 20} MiB)"


class _Captured(Exception):
    def __init__(self, name, args):
        super().__init__(name)
        self.name, self.args_ = name, args


def _stubs() -> dict:
    "torch_npu (empty) and custom_ops_lib (every function captures its call), as ModelNew imports them."
    npu = types.ModuleType("torch_npu")
    lib = types.ModuleType("custom_ops_lib")

    def attr(name):
        if name.startswith("__"): raise AttributeError(name)
        def call(*a, **k): raise _Captured(name, list(a) + list(k.values()))
        return call
    lib.__getattr__ = attr
    return {"torch_npu": npu, "custom_ops_lib": lib}


def bytes_for_bools(op, tensors: list) -> list:
    """The call's tensors with a bool one converted to the uint8 / int8 its op input is defined with (DT_BOOL not among
    its dtypes), as the answers' extensions do before the aclnn call (`mask.to(at::kByte)`)."""
    import torch
    out = list(tensors)
    for k, (p, t) in enumerate(zip(op.inputs, tensors)):
        if t is not None and t.dtype == torch.bool and p.dtypes and "DT_BOOL" not in p.dtypes:
            byte = next((d for d in p.dtypes if d in ("DT_UINT8", "DT_INT8")), None)
            if byte: out[k] = t.to(torch.uint8 if byte == "DT_UINT8" else torch.int8)
    return out


def match_mkb(entry: dict, strings: dict, reference_text: str, project, *, budget: int | None = None,
              limit: int = MAX_INPUT_BYTES, own_shape: str = "") -> dict:
    """Run the project as MKB's correctness step does, against the task's reference (match: pass | mismatch | ...).
    A task over `limit` bytes of inputs and outputs runs with a smaller batch (shrink_batch), unless the answer is
    written for the task's one shape (or the batch does not shrink): then (`own_shape` says why) it runs at the task's
    own shape when that fits `budget` (memory_budget() when None), else it is `tiling-fixed`."""
    import numpy as np
    import torch
    from ascendcraft.opproject import GE_DTYPES, run_project
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from pybind_calls import compared_outputs, pybind_layout
    from corpus import run_settings
    if "model_src" not in strings or "python_bind_src" not in strings:
        return dict(match="no-reference", match_detail="the answer has no model_src / python_bind_src")
    saved = {k: sys.modules.get(k) for k in ("torch_npu", "custom_ops_lib")}
    sys.modules.update(_stubs())
    try:
        ref, new = {"__name__": "mkb_reference"}, {"__name__": "mkb_model_new"}
        exec(compile(reference_text, entry.get("reference", "reference.py"), "exec"), ref)
        budget = memory_budget() if budget is None else budget
        if own_shape:   # written for the task's one shape: run there, if the machine can hold it
            need = run_memory(ref)
            if need > budget:
                return dict(match="tiling-fixed", match_detail=f"not run: tiling fixed to shape ({own_shape}); at the "
                            f"task's own shape a run needs about {_mib(need)}, over the memory budget of {_mib(budget)}"[:300])
            shrunk = f"; at the task's own shape ({own_shape}; inputs and outputs {_io_bytes(ref)[0] >> 20} MiB)"
        else:
            try:
                shrunk = shrink_batch(ref, limit, budget)
            except ValueError as e:   # the batch does not shrink (A + A.T): the task's own shape, if the budget holds it
                if run_memory(ref) > budget:
                    return dict(match="too-large", match_detail=f"not run: too large for this machine ({e})"[:300])
                return match_mkb(entry, strings, reference_text, project, budget=budget, limit=limit,
                                 own_shape=f"its inputs do not shrink: {e}"[:160])
            fixed = shrunk and batch_constant(strings["host_operator_src"] + "\n" + strings["kernel_src"], ref[SHRUNK_KEY][0])
            why = ("its TilingFunc reads no input shape" if shrunk and tiling_reads_shapes(strings["host_operator_src"]) is False
                   else f"the answer sets {fixed}, the task's batch" if fixed else "")
            if why:   # at the smaller batch it would read past its inputs
                return match_mkb(entry, strings, reference_text, project, budget=budget, limit=limit, own_shape=why)
        init = ref["get_init_inputs"]()
        with torch.no_grad():
            torch.manual_seed(MKB_SEED)
            model = ref["Model"](*init)
            try:
                exec(compile(strings["model_src"], "model_src", "exec"), new)
                torch.manual_seed(MKB_SEED)
                model_new = new["ModelNew"](*init)
            except Exception as e:  # noqa: BLE001 - the answer's own Python
                return dict(match="mismatch", match_detail=f"ModelNew (the answer's model_src): {type(e).__name__}: {e}"[:300])
            inputs = ref["get_inputs"]()
            try:
                want = model(*[t.clone() if torch.is_tensor(t) else t for t in inputs])
            except Exception as e:  # noqa: BLE001 - the reference itself refuses the smaller inputs
                if not shrunk or own_shape: raise
                # a part of get_inputs that the batch does not shrink (UnPermute's randperm(total_expanded) indexes the
                # rows of an input that shrank; the meta device checks no index): the task's own shape
                return match_mkb(entry, strings, reference_text, project, budget=budget, limit=limit,
                                 own_shape=f"its reference refuses the smaller batch: {type(e).__name__}: {e}"[:160])
            try:
                model_new(*inputs)
                return dict(match="no-reference", match_detail="ModelNew did not call custom_ops_lib")
            except _Captured as c:
                call = c.args_
            except Exception as e:  # noqa: BLE001
                return dict(match="mismatch", match_detail=f"ModelNew before the op: {type(e).__name__}: {e}"[:300])
    finally:
        for k, v in saved.items():
            if v is None: sys.modules.pop(k, None)
            else: sys.modules[k] = v
    op = project.op
    layout = pybind_layout(strings["python_bind_src"], op, project.sources)
    if layout is None or any(i is not None and i >= len(call) for i in layout["inputs"] + layout["attrs"]):
        return dict(match="no-reference", match_detail="python_bind_src does not say which call argument is which op input")
    tensors = [None if i is None else call[i] for i in layout["inputs"]]
    if not all(t is None or torch.is_tensor(t) for t in tensors):
        return dict(match="no-reference", match_detail="an op input that is not one tensor (a list or a scalar)")
    for k, steps in layout.get("steps", {}).items():   # the extension's own reordering before the aclnn call
        for name, args in steps:
            tensors[k] = getattr(tensors[k], name)(*args)
    tensors = bytes_for_bools(op, tensors)
    attrs = {a.name: (call[i].item() if hasattr(call[i], "item") else call[i])
             for a, i in zip(op.attrs, layout["attrs"]) if i is not None and call[i] is not None}
    results, wants = compared_outputs(op, layout, want, op.outputs, set())
    if len(wants) != len(results):
        return dict(match="no-reference", match_detail=f"the reference returns {len(wants)} outputs, the op has {len(results)}")
    dtypes = {p.name: ("DT_BF16" if t.dtype == torch.bfloat16 else None) for p, t in zip(op.inputs, tensors) if t is not None}
    out_specs, names = {}, {}
    for p, w in zip(results, wants):   # the definition's dtype for the output, in the column the inputs select
        col = next((c for c in range(max(len(q.dtypes) for q in op.inputs + op.outputs)) if all(
            not q.dtypes or t is None or GE_DTYPES.get(q.dtypes[min(c, len(q.dtypes) - 1)], ("",))[0] == str(t.dtype).replace("torch.", "")
            for q, t in zip(op.inputs, tensors))), 0)
        ge = p.dtypes[min(col, len(p.dtypes) - 1)] if p.dtypes else None
        name = GE_DTYPES[ge][0] if ge in GE_DTYPES else str(w.dtype).replace("torch.", "")
        names[p.name] = name
        out_specs[p.name] = (tuple(w.shape), "bfloat16" if name == "bfloat16" else np.dtype(name))   # run_project: DT_BF16, its raw bits back
    for p in op.outputs:
        if p.name not in out_specs:
            return dict(match="no-reference", match_detail=f"output {p.name}: the reference does not return it")
    try:
        r = run_project(project, {p.name: None if t is None else t.contiguous() for p, t in zip(op.inputs, tensors)},
                        attrs=attrs, outputs=out_specs, settings=run_settings())
    except Exception as e:  # noqa: BLE001
        return dict(match="run-error", match_detail=f"{type(e).__name__}: {e}"[:300])
    if not r.run.ok:
        errs = [d for d in r.run.diagnostics if d.is_error]
        if shrunk and not own_shape and errs and errs[0].kind == "host-tiling":   # made for the task's own shape only
            return match_mkb(entry, strings, reference_text, project, budget=budget, limit=limit,
                             own_shape=f"its TilingFunc refuses the smaller batch: {errs[0].message}"[:160])
        if errs and errs[0].kind == "timeout":   # not a verdict on the kernel: the emulation's speed on this machine
            return dict(match="timeout", match_detail=f"{errs[0].message}{shrunk}"[:300])
        from corpus import first_run_error
        return dict(match="run-error", match_detail=first_run_error(errs)[:300])
    worst = 0.0
    for p, w in zip(results, wants):
        got = r.outputs[p.name]
        got = torch.from_numpy(got.view(np.int16)).view(torch.bfloat16) if names[p.name] == "bfloat16" else torch.from_numpy(np.ascontiguousarray(got))
        ref_f, got_f = w.detach().float(), got.float()
        if got_f.numel() != ref_f.numel():
            return dict(match="mismatch", match_detail=f"{p.name}: {got_f.numel()} elements, the reference has {ref_f.numel()}")
        got_f = got_f.reshape(ref_f.shape)
        if not torch.allclose(ref_f, got_f, atol=MKB_ATOL, rtol=MKB_RTOL):
            bad = ~torch.isclose(ref_f, got_f, atol=MKB_ATOL, rtol=MKB_RTOL)
            i = int(bad.reshape(-1).nonzero()[0])
            return dict(match="mismatch", match_detail=f"{p.name}: {int(bad.sum())} of {bad.numel()} elements differ (first at "
                                                       f"{i}: {float(got_f.reshape(-1)[i])} vs {float(ref_f.reshape(-1)[i])}){shrunk}")
        worst = max(worst, float((ref_f - got_f).abs().max()) if ref_f.numel() else 0.0)
    return dict(match="pass", match_detail=f"worst abs error {worst:.3g} (MKB's allclose, 1 trial), tiling key {r.tiling_key}{shrunk}")


SHAPE_READS = re.compile(r"\b(?:GetInputShape|GetOutputShape|GetInputTensor|GetStorageShape|GetOriginShape|GetShapeSize|"
                         r"GetDimNum|GetInputDesc|GetDynamicInputShape|GetOptionalInputShape)\s*\(")


def tiling_reads_shapes(host_operator_src: str) -> bool | None:
    """Whether the op's TilingFunc (the function its OpDef hands to SetTiling, TilingFunc when none is named) reads an
    input's shape (GetInputShape, GetInputTensor, GetStorageShape, GetShapeSize, ...); None when it is not found.
    One that reads none computes the same tiling for any input, so it is written for the task's one shape."""
    from ascendcraft.emu import blank_comments, past_close
    text = blank_comments(host_operator_src)
    m = re.search(r"\bSetTiling\s*\(\s*(?:\w+::)*(\w+)\s*\)", text)
    name = m.group(1) if m else "TilingFunc"
    for d in re.finditer(rf"\b{re.escape(name)}\s*\([^;{{)]*\)\s*(?:const\s*)?\{{", text):
        return bool(SHAPE_READS.search(text[d.end():past_close(text, d.end(), "{}")]))
    return None


BATCH_NAMES = r"(?:[kK]?[NnBb]|BS|NB|[kK]?[Bb]atch(?:_?[Ss]ize)?|BATCH(?:_SIZE)?|N_?BATCH|BATCH_?N|[kK]?N_?IN)"


def batch_constant(source: str, batch: int) -> str | None:
    """A constant of the answer's code named like a batch (N, B, BATCH, batchSize, kN, ...) and set to the task's batch
    size (`constexpr int N = 32;`, `const uint32_t N = 16;`, `#define BATCH 128`), as `N = 32`; None when there is none.
    Such a kernel or TilingFunc is written for the task's one shape: run on a smaller batch it reads past its inputs."""
    from ascendcraft.emu import blank_comments
    text = blank_comments(source)
    m = re.search(rf"(?:\b(?:const|constexpr)\b[^;=\n]*?\b({BATCH_NAMES})\s*=\s*\(?\s*(?:\w+\s*\))?\s*{batch}[uUlL]*\s*[;,)]"
                  rf"|#\s*define\s+({BATCH_NAMES})\s+\(?\s*{batch}[uUlL]*\b)", text)
    return f"{m.group(1) or m.group(2)} = {batch}" if m else None
