"""NPUKernelBench's own validation (corpus.py run --match on weich97/NPUKernelBench): the task's Model, its test cases
(validation/test_cases.csv, prepare_inputs.py) and its precision rule (|got - want| <= rtol * max(1, |want|)), the
whole op project run on the smallest case and compared (match_npukb, called from corpus.py's `_try_entry`).
"""
import contextlib
import csv
import io
import re
import subprocess
import sys
import types

from pybind_shapes import pybind_output_shapes
from corpus import failed_run_class, run_failure, run_settings, show
from pybind_calls import (_format_rank, _wrapper_name, compared_outputs, follow_wrapper, order_by_names,
    pybind_layout, pybind_returned_inputs, pybind_zeroed_outputs, scalar_tensor, wrapper_inputs)


# ---- run and match: NPUKernelBench's own validation (Model, inputs, test cases, precision rule) -------------------
RTOL = {"float16": 1 / 512, "bfloat16": 1 / 256 + 1 / 16384, "float32": 1 / 2048 + 1 / 16384}


class _Captured(Exception):
    "Raised by the stand-in kernel_gen_ops to hand over the arguments ModelNew passes to the NPU op."
    def __init__(self, args): super().__init__("captured"); self.args = args


def _check_precision(outputs, outputs_new, max_abs_error, max_rel_error):
    "(1 if every element is within the limits else 0, absolute errors, relative errors)."
    import torch
    outputs = outputs if isinstance(outputs, list) else [outputs]
    outputs_new = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    ok, absd, reld = True, [], []
    for want, got in zip(outputs, outputs_new):
        if got.dtype == torch.bool or want.dtype == torch.bool: want, got = want.to(torch.int), got.to(torch.int)
        if not want.is_complex() and not got.is_complex() and want.dtype != got.dtype:
            want, got = want.double(), got.double()
        a = (want - got).abs()
        rel = a / (want.abs() + 1e-7)
        ok &= bool(torch.isfinite(want).all() and torch.isfinite(got).all() and torch.isfinite(a).all()
                   and torch.isfinite(rel).all() and not ((a > max_abs_error) & (rel > max_rel_error)).any())
        absd.append(a.reshape(-1)); reld.append(rel.reshape(-1))
    return int(ok), torch.cat(absd) if absd else None, torch.cat(reld) if reld else None


def _load_validation(gitdir: str, commit: str, task: str):
    "The task's module.py (Model, ModelNew), prepare_inputs.py and test cases, with torch_npu / kernel_gen_ops stood in."
    stubs = {}
    for name in ("torch_npu", "torch_npu.contrib", "torch_npu.contrib.transfer_to_npu"):
        stubs[name] = types.ModuleType(name)
    stubs["torch_npu.contrib"].transfer_to_npu = stubs["torch_npu.contrib.transfer_to_npu"]
    gen = types.ModuleType("kernel_gen_ops")
    gen.__getattr__ = lambda attr: (lambda *a, **k: (_ for _ in ()).throw(_Captured(a)))
    stubs["kernel_gen_ops"] = gen
    # framework.utils.check_precision, which the tasks' own precision rules call: written here from its behaviour
    # (an element fails when both its absolute and its relative error exceed the limits; non-finite values fail)
    stubs["framework"], stubs["framework.utils"] = types.ModuleType("framework"), types.ModuleType("framework.utils")
    stubs["framework"].utils = stubs["framework.utils"]
    stubs["framework.utils"].check_precision = _check_precision
    sys.modules.update(stubs)
    ns_mod, ns_in = {"__name__": "task_module"}, {"__name__": "task_inputs"}
    exec(compile(show(gitdir, commit, f"{task}/validation/module.py").decode(), "module.py", "exec"), ns_mod)
    exec(compile(show(gitdir, commit, f"{task}/validation/prepare_inputs.py").decode(), "prepare_inputs.py", "exec"), ns_in)
    rows = list(csv.DictReader(io.StringIO(show(gitdir, commit, f"{task}/validation/test_cases.csv").decode()), delimiter=";"))
    return ns_mod, ns_in, _typed(rows)


@contextlib.contextmanager
def integer_random():
    """torch.rand / torch.randn with an integer dtype, as the tasks' input makers call them on the NPU (AddRmsNormQuant's
    int32 zero points, CoalesceSparse): CPU torch refuses ("not implemented for 'Int'"), so inside this block they draw
    float32 values and convert them (rand gives zeros, randn small integers). The Model and the kernel get the same
    tensors, whatever their values."""
    import torch
    real = {"rand": torch.rand, "randn": torch.randn}
    def drawing(name):
        def draw(*size, dtype=None, **kw):
            if dtype is None or dtype.is_floating_point or dtype.is_complex: return real[name](*size, dtype=dtype, **kw)
            return real[name](*size, dtype=torch.float32, **kw).to(dtype)
        return draw
    torch.rand, torch.randn = drawing("rand"), drawing("randn")
    try:
        yield
    finally:
        torch.rand, torch.randn = real["rand"], real["randn"]


def _typed(rows: list[dict]) -> list[dict]:
    """The test cases as NPUKernelBench's framework reads them (pandas' read_csv): a column whose every cell is an
    integer holds ints, one whose every cell is a number holds floats, one whose every cell is True or False holds
    bools (DequantSwigluQuant's `if param.get('group_index_present', False)`: the text 'False' would be true), any
    other column strings."""
    def boolean(v):
        if v in ("True", "true", "TRUE"): return True
        if v in ("False", "false", "FALSE"): return False
        raise ValueError(v)
    kinds = {}
    for col in (rows[0] if rows else {}):
        for kind in (int, float, boolean):
            try:
                [kind(r[col]) for r in rows]
                kinds[col] = kind
                break
            except (TypeError, ValueError):
                pass
    return [{k: kinds[k](v) if k in kinds else v for k, v in r.items()} for r in rows]


def _size(row: dict) -> int:
    """Elements in the shapes a test case names (smallest first): its *shape* columns, else (Fill's `dims`) the columns
    that hold a list of integers."""
    def elements(v):
        n = 1
        for d in re.findall(r"-?\d+", v): n *= max(int(d), 1)
        return n
    named = [v for k, v in row.items() if "shape" in k and isinstance(v, str) and v.strip().startswith("[")]
    lists = [v for v in row.values() if isinstance(v, str) and re.fullmatch(r"\s*\[[-\d\s,\[\]]*\]\s*", v)]
    return sum(elements(v) for v in named or lists) or 1 << 40


def _ge_or_none(t) -> str | None:
    "The ge dtype name of a torch tensor, or None for a dtype outside the emulated subset (float64)."
    import torch
    from ascendcraft.opproject import _ge_of
    if t.dtype == torch.bfloat16: return "DT_BF16"
    try:
        return _ge_of(t)
    except ValueError:
        return None


def _replay_model_new(project, tensors, attrs, built, ns_mod, ns_in, init, inputs, want, row, note) -> dict:
    """Run the op (it writes its inputs), give ModelNew what pybind would return from them (`built`,
    pybind_returned_inputs), and compare ModelNew's result with the Model's, as NPUKernelBench does."""
    import numpy as np
    import torch
    from ascendcraft.opproject import run_project
    op = project.op
    attrs = {k: (v.item() if hasattr(v, "item") else v) for k, v in attrs.items()}
    contiguous = lambda t: None if t is None else [m.contiguous() for m in t] if isinstance(t, list) else t.contiguous()
    try:
        r = run_project(project, {p.name: contiguous(t) for p, t in zip(op.inputs, tensors)}, attrs=attrs, outputs={},
                        settings=run_settings())
    except Exception as e:  # noqa: BLE001
        return dict(match="run-error", match_detail=f"{type(e).__name__}: {e}"[:300], case=row)
    if not r.run.ok:
        return dict(match=failed_run_class(r.run), match_detail=run_failure(r.run), case=row)
    as_t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    ret = []
    for kind, name in built:
        got = r.outputs[name]
        ret += [as_t(g) for g in got] if kind == "list" else [as_t(got)]
    gen = sys.modules["kernel_gen_ops"]
    captured = gen.__getattr__
    gen.__getattr__ = lambda attr: (lambda *a, **k: ret)
    try:
        clone = lambda a: [clone(m) for m in a] if isinstance(a, (list, tuple)) else a.clone() if torch.is_tensor(a) else a
        new = ns_mod["ModelNew"](*init)(*clone(inputs))
    except Exception as e:  # noqa: BLE001
        return dict(match="no-reference", case=row, match_detail=f"ModelNew on the emulator's results: {type(e).__name__}: {e}"[:200])
    finally:
        gen.__getattr__ = captured
    wants = list(want) if isinstance(want, (list, tuple)) else [want]
    news = list(new) if isinstance(new, (list, tuple)) else [new]
    note += "; ModelNew ran on the emulator's results (pybind returns the inputs the op wrote)"
    if "custom_check_precision" in ns_in:
        try:
            verdict = ns_in["custom_check_precision"](row, wants, news)
        except Exception as e:  # noqa: BLE001
            return dict(match="no-reference", case=row, match_detail=f"custom_check_precision: {type(e).__name__}: {e}"[:200])
        ok = verdict[0] if isinstance(verdict, (tuple, list)) else verdict
    else:
        ok = len(wants) == len(news) and all(torch.allclose(n.double(), w.double(), rtol=RTOL.get(str(w.dtype).replace("torch.", ""), 0),
                                                            atol=0) for w, n in zip(wants, news))
    worst = max((float((n.double() - w.double()).abs().max()) for w, n in zip(wants, news) if w.numel()), default=0.0)
    rule = " (task's own rule)" if "custom_check_precision" in ns_in else ""
    if not ok:
        return dict(match="mismatch", case=row, match_detail=f"ModelNew's results differ; worst abs error {worst:.3g}{note}")
    return dict(match="pass", case=row, match_detail=f"worst abs error {worst:.3g}{rule}, tiling key {r.tiling_key}{note}")


def validation_problem(e: Exception) -> str:
    """Why a task's validation could not be loaded; a module it imports that is missing names the install that brings
    it (the `corpus` extra holds what NPUKernelBench's references import, e.g. SciPy for Spence)."""
    text = f"validation: {type(e).__name__}: {e}"[:200]
    if isinstance(e, ModuleNotFoundError):
        text += " (install the corpus extra: pip install -e '.[corpus]'; it brings what the tasks' references import)"
    return text


def match_npukb(entry: dict, gitdir: str, project) -> dict:
    "Run the project on the task's smallest test case and compare with its Model (match: pass | mismatch | ...)."
    import numpy as np
    import torch
    from ascendcraft.opproject import run_project
    task = entry["path"].rsplit("/answer/", 1)[0]
    try:
        ns_mod, ns_in, rows = _load_validation(gitdir, entry["commit"], task)
    except Exception as e:  # noqa: BLE001
        return dict(match="no-reference", match_detail=validation_problem(e))
    # the smallest case of at least 1024 elements (tinier ones write the 32-byte padding of the output's allocation,
    # which the emulator's GM bounds refuse) and not bfloat16 (run_project takes bfloat16 inputs, not outputs)
    # ... and one whose input dtypes the op definition lists (some cases exercise the framework's casts)
    from ascendcraft.opproject import _ge_of
    op = project.op
    for row in sorted(rows, key=lambda r: ("bfloat16" in r.values(), _size(r) < 1024, _size(r))):
        param = dict(row)
        torch.manual_seed(0)
        with integer_random():
            init = ns_in["get_init_inputs"](param) if "get_init_inputs" in ns_in else []
            inputs = ns_in["get_inputs"](param)
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        firsts = [t[0] if isinstance(t, (list, tuple)) and t and torch.is_tensor(t[0]) else t for t in inputs]   # lists
        # (a tensor of a dtype outside the subset is skipped: Muls' float64 value becomes an attribute)
        ge = [g for g in (_ge_or_none(t) for t in firsts if torch.is_tensor(t)) if g is not None]
        if not op.inputs or all(any(d in p.dtypes for d in ge[:1]) for p in op.inputs[:1]): break
    clone = lambda a: [clone(m) for m in a] if isinstance(a, (list, tuple)) else a.clone() if torch.is_tensor(a) else a
    try:
        want = ns_mod["Model"](*init)(*clone(inputs))   # a Model may write its inputs in place (ForeachZeroInplace)
        model_new = ns_mod["ModelNew"](*init)
        model_new(*inputs)
        return dict(match="no-reference", match_detail="ModelNew did not call kernel_gen_ops")
    except _Captured as c:
        call = list(c.args)
    except Exception as e:  # noqa: BLE001
        return dict(match="no-reference", match_detail=f"reference: {type(e).__name__}: {e}"[:200])
    dynamic = {p.name for p in op.inputs + op.outputs if p.option == "DYNAMIC"}
    is_list = lambda a: isinstance(a, (list, tuple)) and a and all(torch.is_tensor(t) for t in a)
    try:   # which call argument is which input, attribute and output: the task's pybind.cpp says, where it can
        pybind_text = show(gitdir, entry["commit"], f"{task}/validation/pybind.cpp").decode(errors="replace")
    except subprocess.CalledProcessError:   # no pybind.cpp
        pybind_text = ""
    layout = pybind_layout(pybind_text, op, project.sources) if pybind_text else None
    wrapped = None   # ... or, through the op_host's own aclnn wrapper that it calls (follow_wrapper), in the op's order
    if layout is None and pybind_text:
        wrapped = follow_wrapper(pybind_text, op, project.sources)
        if wrapped is not None:
            pybind_text, wrapped = wrapped
            layout = pybind_layout(pybind_text, op, {})   # the rewritten call is in the definition's order
            if layout is None: wrapped = None
    if layout is not None and any(i is not None and i >= len(call) for i in layout["inputs"] + layout["attrs"]):
        layout = None   # ModelNew passes fewer arguments than the bound function takes (defaults)
    if layout is not None and layout.get("results_if"):   # results pybind appends when a bool argument is set
        if any(i >= len(call) for i, _ in layout["results_if"]): layout = dict(layout, results=None)
        else: layout = dict(layout, results=layout["results"] + [n for i, n in layout["results_if"] if call[i]])
    if layout is not None:
        def take(i):   # an op input from the call: a tensor, a tensor list, absent (None), or an int / float array
            a = None if i is None else call[i]
            if a is None or torch.is_tensor(a): return a
            if is_list(a): return list(a)
            if isinstance(a, (list, tuple)) and all(isinstance(v, (int, float)) for v in a):   # aclIntArray / FloatArray
                return torch.tensor(a, dtype=torch.int64 if all(isinstance(v, int) for v in a) else torch.float32)
            return a
        tensors = [take(i) for i in layout["inputs"]]   # None: an absent optional input (a null GM address)
        if wrapped is not None and wrapped.get("scalars"):   # host scalars the wrapper hands over as 1-element tensors
            tensors = [scalar_tensor(p, t) if p.name in wrapped["scalars"] else t for p, t in zip(op.inputs, tensors)]
        scalars = [call[i] for i in layout["attrs"] if i is not None and call[i] is not None]
        attrs = {a.name: call[i] for a, i in zip(op.attrs, layout["attrs"]) if i is not None and call[i] is not None}
        note = "; arguments as validation/pybind.cpp passes them"
        if wrapped is not None:
            moved = [f"{a} = {n}" for a, n in wrapped["pairs"] if _wrapper_name(a) != _wrapper_name(n)]
            note += f", through the op_host's {wrapped['api']}" + (f" ({', '.join(moved)})" if moved else "")
            made = [f"{p.name} as a one-element {str(t.dtype).replace('torch.', '')} tensor" for p, t in zip(op.inputs, tensors)
                    if p.name in wrapped.get("scalars", []) and torch.is_tensor(t)]
            if made: note += f"; the host scalar {', '.join(made)} (as {wrapped['api']} hands it to the op)"
    else:
        flat = []   # the call's tensors (a tensor list stays one entry where the definition has a DYNAMIC input), scalars
        for a in call:
            flat.extend([list(a)] if is_list(a) and dynamic else a if is_list(a) else [a])
        tensors = [a for a in flat if torch.is_tensor(a) or is_list(a)]
        scalars = [a for a in flat if not (torch.is_tensor(a) or is_list(a))]
        attrs = dict(zip((a.name for a in op.attrs), scalars))
        tensors, note = order_by_names([p.name for p in op.inputs], model_new.forward, inputs, tensors)
        note = f"; {note}" if note else ""
    results = op.outputs or op.inputs   # an op without outputs writes its results into its inputs
    results, wants = compared_outputs(op, layout, want, results, dynamic)
    if [p.name in dynamic for p in op.inputs] != [isinstance(t, list) for t in tensors[:len(op.inputs)]]:
        return dict(match="no-reference", match_detail="the call's tensor lists do not line up with the DYNAMIC inputs")
    if not op.outputs and len(tensors) == len(op.inputs) and len(wants) != len(results) and layout is not None:
        built = pybind_returned_inputs(pybind_text, op, layout)
        if built:   # ModelNew reshapes what pybind returns (ForeachNonFiniteCheckAndUnscale): it runs on our results
            return _replay_model_new(project, tensors, attrs, built, ns_mod, ns_in, init, inputs, want, row, note)
    if len(tensors) != len(op.inputs) or len(scalars) > len(op.attrs) or len(wants) != len(results):
        return dict(match="no-reference", match_detail=f"{len(tensors)} tensors / {len(scalars)} scalars / {len(wants)} outputs "
                                                       f"for {len(op.inputs)} inputs / {len(op.attrs)} attrs / {len(op.outputs)} outputs")
    attrs = {k: (v.item() if hasattr(v, "item") else v) for k, v in attrs.items()}
    # a bool tensor for an input that lists DT_UINT8 and not DT_BOOL goes as its bytes (ScatterList's mask): aclnn
    # passes torch.bool as one byte per element, which the uint8 column reads as 0 / 1
    as_bytes = lambda p, t: t.to(torch.uint8) if torch.is_tensor(t) and t.dtype == torch.bool and p.dtypes \
        and "DT_BOOL" not in p.dtypes and "DT_UINT8" in p.dtypes else t
    bytes_in = [p.name for p, t in zip(op.inputs, tensors) if as_bytes(p, t) is not t]
    tensors = [as_bytes(p, t) for p, t in zip(op.inputs, tensors)]
    if bytes_in: note += f"; bool {', '.join(bytes_in)} passed as uint8 (the definition's dtype)"
    # a tensor of a dtype outside the subset (float64) for an input of one dtype in every column is converted to it, as
    # aclnn makes a scalar input's tensor (Muls' value: pybind passes c10::Scalar(value.item<float>()), DT_FLOAT)
    from ascendcraft.opproject import GE_DTYPES
    one = lambda p: p.dtypes[0] if p.dtypes and len(set(p.dtypes)) == 1 and p.dtypes[0] in GE_DTYPES else None
    cast = [p.name for p, t in zip(op.inputs, tensors) if torch.is_tensor(t) and _ge_or_none(t) is None and one(p)]
    tensors = [t.to(getattr(torch, GE_DTYPES[one(p)][0])) if p.name in cast else t for p, t in zip(op.inputs, tensors)]
    if cast: note += f"; {', '.join(cast)} converted to the one dtype the definition lists"
    if wrapped is not None:   # what the op_host's own aclnn wrapper does to the tensors before the launch
        tensors, done = wrapper_inputs(op, tensors, wrapped)
        note += done
    # the outputs' dtypes: the op definition's column that the inputs select (the reference may return another dtype)
    first = lambda t: t[0] if isinstance(t, list) else t
    ins = [None if t is None else _ge_of(first(t)) if first(t).dtype != torch.bfloat16 else "DT_BF16" for t in tensors]
    columns = [c for c in range(max((len(p.dtypes) for p in op.inputs + op.outputs), default=0))
               if all(not p.dtypes or g is None or p.dtypes[min(c, len(p.dtypes) - 1)] == g for p, g in zip(op.inputs, ins))]
    np_out, out_names = {}, {}
    for p, w in zip(results, wants):
        ge = p.dtypes[min(columns[0], len(p.dtypes) - 1)] if columns and p.dtypes else None
        name = GE_DTYPES[ge][0] if ge in GE_DTYPES else str(first(w).dtype).replace("torch.", "")
        dt = "bfloat16" if name == "bfloat16" else np.dtype(name)   # run_project keeps bfloat16 outputs as raw bits
        np_out[p.name] = [(tuple(m.shape), dt) for m in w] if isinstance(w, list) else (tuple(w.shape), dt)
        out_names[p.name] = name
    if wrapped is not None:   # outputs of a 4-D / 5-D format get the rank the wrapper gives the inputs
        np_out = {k: (_format_rank(next(p for p in op.outputs + op.inputs if p.name == k), spec[0]), spec[1])
                  if not isinstance(spec, list) else spec for k, spec in np_out.items()}
    given = {p.name for p, t in zip(op.inputs, tensors) if t is not None}
    unchecked = [p for p in op.outputs if p.name not in np_out and p.name not in given]
    if unchecked:   # outputs the reference does not return (RmsNorm's rstd, AddLayerNorm's mean / rstd / x): the shape
        # the op's own InferShape gives them, as CANN's graph engine allocates them (AddLayerNorm's TilingFunc checks that
        # mean keeps x1's leading dimensions); without one, a buffer as large as the largest input
        inferred = unchecked_output_shapes(project, op, tensors, attrs)
        # ... or, first, the shape the task's pybind.cpp allocates and passes to the op (DequantSwigluQuant's scale:
        # {prod(x.shape[:-1])}, while its InferShape gives x's shape), which is what the op sees on the NPU
        allocated = pybind_output_shapes(pybind_text, op, call) if layout is not None else {}
        allocated = {k: v for k, v in allocated.items() if k in {p.name for p in unchecked}}
        inferred.update({k: shape for k, (shape, _) in allocated.items()})
        big = max((m for t in tensors if t is not None for m in (t if isinstance(t, list) else [t])), key=lambda m: m.numel())
        for p in unchecked:
            ge = p.dtypes[min(columns[0], len(p.dtypes) - 1)] if columns and p.dtypes else None
            name = GE_DTYPES[ge][0] if ge in GE_DTYPES else "float32"
            np_out[p.name] = (inferred.get(p.name, (big.numel(),)), "bfloat16" if name == "bfloat16" else np.dtype(name))
        if allocated: note += f"; shaped as validation/pybind.cpp allocates them: {', '.join(allocated)}"
        by_infer = [p.name for p in unchecked if p.name in inferred and p.name not in allocated]
        if by_infer: note += f"; shaped by the op's InferShape: {', '.join(by_infer)}"
        note += f"; not compared (the reference does not return them): {', '.join(p.name for p in unchecked)}"
    # outputs the bound function zeroes before the launch start at 0 (the emulator's poison otherwise)
    zeroed = pybind_zeroed_outputs(pybind_text, op) if layout is not None else set()
    initial = {k: np.zeros(*spec) if spec[1] != "bfloat16" else np.zeros(spec[0], np.uint16)
               for k, spec in np_out.items() if k in zeroed and not isinstance(spec, list)}
    if initial: note += f"; zeroed before the launch as validation/pybind.cpp does: {', '.join(initial)}"
    contiguous = lambda t: None if t is None else [m.contiguous() for m in t] if isinstance(t, list) else t.contiguous()
    try:
        r = run_project(project, {p.name: contiguous(t) for p, t in zip(op.inputs, tensors)}, attrs=attrs, outputs=np_out,
                        settings=run_settings(), initial=initial)
    except Exception as e:  # noqa: BLE001
        return dict(match="run-error", match_detail=f"{type(e).__name__}: {e}"[:300], case=row)
    if not r.run.ok:
        return dict(match=failed_run_class(r.run), match_detail=run_failure(r.run), case=row)
    if r.mismatches:   # the run's own finding (an output shape the kernel did not write)
        return dict(match="run-error", match_detail="; ".join(f"{k}: {v}" for k, v in r.mismatches.items())[:300], case=row)
    def as_torch(got, w, name):   # ours, as a torch tensor in the reference's shape (the task's own rule takes those)
        if name == "bfloat16": got = torch.from_numpy(got.view(np.int16)).view(torch.bfloat16)
        else: got = torch.from_numpy(np.ascontiguousarray(got))
        return got.reshape(w.shape)
    gots = []
    for p, w in zip(results, wants):
        got = r.outputs[p.name]
        gots.append([as_torch(g, m, out_names[p.name]) for g, m in zip(got, w)] if isinstance(w, list)
                    else as_torch(got, w, out_names[p.name]))
    if wrapped is not None and wrapped["casts"]:   # the wrapper casts the kernel's results to the caller's tensors' dtype
        back = [p.name for p, g, w in zip(results, gots, wants) if torch.is_tensor(g) and torch.is_tensor(w)
                and g.dtype != w.dtype and g.is_floating_point() and w.is_floating_point()]
        gots = [g.to(w.dtype) if p.name in back else g for p, g, w in zip(results, gots, wants)]
        for name in back: out_names[name] = str(dict(zip([p.name for p in results], wants))[name].dtype).replace("torch.", "")
        if back: note += f"; {', '.join(back)} cast to the caller's dtype as {wrapped['api']} does"
    if dynamic and len(gots) == 1 and isinstance(gots[0], list):   # one tensor-list output: the reference's list
        want, gots, wants = wants[0], gots[0], wants[0]
        op_outputs = [results[0]] * len(gots)
    else:
        op_outputs = results
    # NPUKernelBench pairs the Model's results with what ModelNew returns, in order (zip): where pybind returns fewer
    # than the Model (CrossEntropyLoss without return_zloss: loss and logProb of the four), only those are compared
    listed = layout["results"] if layout is not None and layout["results"] else None
    if listed and len(listed) < len(op_outputs) and [p.name for p in op_outputs[:len(listed)]] == listed \
            and not (dynamic and isinstance(want, (list, tuple)) and len(gots) != len(results)):
        op_outputs, wants, gots = op_outputs[:len(listed)], wants[:len(listed)], gots[:len(listed)]
        want = wants
        note += f"; compared: {', '.join(listed)} (what pybind returns; the Model's other results are not paired)"
    if "custom_check_precision" in ns_in:   # the task's own rule (NPUKernelBench's prepare_inputs.py)
        try:
            verdict = ns_in["custom_check_precision"](row, want if torch.is_tensor(want) else list(want),
                                                      gots[0] if torch.is_tensor(want) else gots)
        except Exception as e:  # noqa: BLE001
            return dict(match="no-reference", case=row, match_detail=f"custom_check_precision: {type(e).__name__}: {e}"[:200])
        ok = verdict[0] if isinstance(verdict, (tuple, list)) else verdict
        worst = max(float((g.to(torch.complex128 if w.is_complex() else torch.float64) - w.detach().to(
            torch.complex128 if w.is_complex() else torch.float64)).abs().max()) if w.numel() else 0.0
            for g, w in zip(gots, wants))
        if not ok:
            return dict(match="mismatch", case=row, match_detail=f"the task's custom_check_precision fails; worst abs error {worst:.3g}{note}")
        return dict(match="pass", case=row, match_detail=f"worst abs error {worst:.3g} (task's own rule), tiling key {r.tiling_key}{note}")
    worst = 0.0
    for p, w, got in zip(op_outputs, wants, gots):
        name = out_names[p.name]
        if got.is_complex():   # compared as float pairs (real, imaginary) under the float rule
            got, w, name = torch.view_as_real(got), torch.view_as_real(w.to(got.dtype)) if w.is_complex() else w, "float32"
        ref = w.detach().double().numpy()
        got = got.double().numpy().reshape(ref.shape)
        rtol = RTOL.get(name, 0)
        tol = rtol * np.maximum(1.0, np.abs(ref))
        bad = np.abs(got - ref) > tol if rtol else got != ref
        if np.any(bad):
            i = int(np.flatnonzero(bad.ravel())[0])
            return dict(match="mismatch", case=row, match_detail=f"{p.name}: {int(bad.sum())} of {bad.size} elements differ "
                                                                   f"(first at {i}: {got.ravel()[i]} vs {ref.ravel()[i]}){note}")
        worst = max(worst, float(np.max(np.abs(got - ref))) if ref.size else 0.0)
    return dict(match="pass", case=row, match_detail=f"worst abs error {worst:.3g}, tiling key {r.tiling_key}{note}")


def unchecked_output_shapes(project, op, tensors: list, attrs: dict) -> dict:
    "{output: shape} from the op's InferShape function for these inputs ({} when it has none, or it fails on them)."
    from ascendcraft.opproject import infer_output_shapes
    try:
        return infer_output_shapes(project, list(tensors[:len(op.inputs)]), attrs, settings=run_settings()) or {}
    except Exception:  # noqa: BLE001 - no usable InferShape: the caller's default size stands
        return {}
