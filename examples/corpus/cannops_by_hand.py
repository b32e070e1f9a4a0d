"""cann-ops (Hayden727/cann-ops, Huawei's open operators) op projects run on their own authors' data and checks.

    python examples/corpus/cannops_by_hand.py [--git Hayden727/cann-ops=DIR] [--only REGEX] [--limit N] [--keep DIR]

Most ops of the repository carry `examples/AclNNInvocationNaive/`: `gen_data.py` draws the inputs and computes the
golden outputs (NumPy / torch), `main.cpp` reads the inputs' files, makes the tensors of its shapes and dtypes, calls
the op's aclnn API with its attributes and writes the outputs' files, `run.sh` runs `verify_result.py` on them with the
op's own tolerance. This script does the same around the emulator, nothing copied into the project (the example's files
are read from the repository's git directory at the corpus's pinned commit and run in a fresh temporary folder):

1. the op project is materialised and built as `corpus.py run` builds it (hicann_by_hand.project);
2. gen_data.py runs in the temporary folder (a subprocess of this python, with a timeout);
3. main.cpp is read (`parse_main`): the tensors it makes (CreateAclTensor: host vector, shape, aclDataType), the files
   its host vectors are read from (ReadFile) or their literal values, the aclnn call's arguments (positionally the
   definition's inputs, attributes and outputs, as CANN's aclnn generator orders them), the attributes' values and the
   files the outputs are written to (WriteFile of the vector that aclrtMemcpy filled from an output's device address);
   `OVERRIDES` gives, per op, what main.cpp computes and this reading does not follow;
4. `ascendcraft.opproject.run_project` runs the TilingFunc and the kernel on the emulated 910B;
5. the outputs are written where main.cpp writes them and the op's own verify_result.py judges them (as run.sh runs
   it); beside it, a plain comparison with the golden file gives the worst absolute error.

One line per op: the tiling key, the block dim, the verify script's tolerance, the worst error and the verdict: match /
MISMATCH (verify_result.py refused) / ERROR (the emulator's first diagnostic) / PROJECT DOES NOT BUILD / NO REFERENCE
(why: no example, gen_data.py failed or needs a module the venv lacks, main.cpp not readable).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import corpus  # noqa: E402

REPO = "Hayden727/cann-ops"
EXAMPLE = "examples/AclNNInvocationNaive"
GEN_SECONDS = 300          # gen_data.py's and verify_result.py's timeout
MAX_INPUT_BYTES = 64 << 20

# aclDataType -> numpy dtype name ("bfloat16": the raw bits as uint16, torch gives the values)
# aclDataType's numbers (the same as ge::DataType's: an attribute of a dtype, Cast's dst_type, takes them)
ACL_NUMBERS = {"ACL_FLOAT": 0, "ACL_FLOAT16": 1, "ACL_INT8": 2, "ACL_INT32": 3, "ACL_UINT8": 4, "ACL_INT16": 6,
               "ACL_UINT16": 7, "ACL_UINT32": 8, "ACL_INT64": 9, "ACL_UINT64": 10, "ACL_DOUBLE": 11, "ACL_BOOL": 12,
               "ACL_COMPLEX64": 16, "ACL_COMPLEX128": 17, "ACL_BF16": 27}
ACL_DTYPES = {"ACL_FLOAT": "float32", "ACL_FLOAT16": "float16", "ACL_BF16": "bfloat16", "ACL_DOUBLE": "float64",
              "ACL_INT8": "int8", "ACL_INT16": "int16", "ACL_INT32": "int32", "ACL_INT64": "int64",
              "ACL_UINT8": "uint8", "ACL_UINT16": "uint16", "ACL_UINT32": "uint32", "ACL_UINT64": "uint64",
              "ACL_BOOL": "bool", "ACL_COMPLEX64": "complex64", "ACL_COMPLEX128": "complex128"}

# sizeof of the element types main.cpp's byte counts name
SIZEOF = {"float": 4, "double": 8, "int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4,
          "int64_t": 8, "uint64_t": 8, "int": 4, "bool": 1, "char": 1, "aclFloat16": 2, "uint16": 2, "half": 2,
          "std::complex<float>": 8, "std::complex<double>": 16}

# Per op: what main.cpp computes and `parse_main` does not follow ({"values": {argument: value}, "shapes": {tensor:
# shape}}), or what the op's own aclnn layer does before its kernel ("broadcast": {tensor: shape}, a tensor of literal
# values broadcast as l0op::BroadcastTo does; "args": main.cpp's arguments in the order its L2 / l0 launches the kernel
# with them, a name main.cpp does not pass only with its value in "values"; "before" / "after": {tensor: [("reshape",
# shape) | ("transpose", perm), ...]}, the data moves it makes of a tensor before the kernel reads it / of the kernel's
# output before main.cpp reads it), each with the line it stands for.
OVERRIDES: dict[str, dict] = {
    # the op's own aclnn (op_host/mse_loss_grad.cpp:39, OP_INPUT(self, target, gradOutput)) passes main.cpp's first
    # argument third, and its int64 reduction 1 as REDUCTION_STR[1] = "mean" (aclnn_mse_loss_backward.cpp:45, :142)
    "mse_loss_grad_v2": {"args": ["self", "target", "gradOutput", "reduction", "out"], "values": {"reduction": "mean"}},
    # the op's own aclnn (op_host/aclnn_group_norm_backward.cpp:680-691 on 910B; group_norm_grad_l0.cpp:51-53) calls
    # GroupNormGrad(dy, mean, rstd, x, gamma) with num_groups, "NCHW" and outputMask's three flags (main.cpp's
    # {true, true, true}); main.cpp's N, C, HxW only reshape (its tensors are (N, C, HxW) already)
    "group_norm_grad": {"args": ["gradOut", "mean", "rstd", "input", "gamma", "group", "dataFormat", "dxIsRequire",
                                 "dgammaIsRequire", "dbetaIsRequire", "gradInput", "gradGammaOut", "gradBetaOut"],
                        "values": {"dataFormat": "NCHW", "dxIsRequire": True, "dgammaIsRequire": True, "dbetaIsRequire": True}},
    # the op's own aclnn (op_host/aclnn_adaptive_avg_pool3d.cpp:180, l0op::Transpose with perm {0, 2, 3, 4, 1}) gives the
    # kernel NDHWC; main.cpp's NCDHW (2, 1, 2, 2, 4) with C = 1 is the same bytes as NDHWC (2, 2, 2, 4, 1)
    "adaptive_avg_pool3d": {"shapes": {"input": (2, 2, 2, 4, 1), "out": (2, 2, 2, 2, 1)}},
    # the op's own aclnn (op_host/aclnn_fake_quant_per_tensor_affine_cachemask.cpp:178-187) broadcasts the one-value
    # scale and zeroPoint to (self's dim 0,) = (2,) with l0op::BroadcastTo, and its l0 (fake_quant_affine_cachemask_l0.cpp,
    # OP_ATTR(0, quantMin, quantMax)) passes axis 0; main.cpp's fakeQuantEnbled 1.0 only chooses that branch (:173)
    "fake_quant_affine_cachemask": {"broadcast": {"scale": (2,), "zeroPoint": (2,)}, "values": {"fakeQuantEnbled": 0}},
    # the op's own l0 launches its kernel with OP_INPUT(self, gradOutput, indices) (op_host/max_pool3d_grad_with_argmax_l0.cpp:67,
    # the definition's x, grad, argmax); main.cpp's aclnnMaxPool3dWithArgmaxBackward takes (gradOut, self, indices, ...)
    # the op's own aclnn (op_host/aclnn_adaptive_avg_pool3d_backward.cpp:258-278) reshapes gradOutput (N, C, D, H, W) to
    # (N*C, D, H, W) and transposes it (1, 2, 3, 0) for the kernel; its l0 (adaptive_avg_pool3d_backward.cpp, the output
    # gradOutput's shape with self's D, H, W) gives x_grad (1, 1, 4, 4), transposed back (3, 0, 1, 2) and reshaped to
    # self's shape (aclnn_adaptive_avg_pool3d_backward.cpp:280-297); main.cpp's shapes (2, 2, 1, 1, 2), (2, 2, 1, 1, 4)
    "adaptive_avg_pool3d_grad": {"before": {"gradOutput": [("reshape", (4, 1, 1, 2)), ("transpose", (1, 2, 3, 0))]},
                                 "shapes": {"output": (1, 1, 4, 4)},
                                 "after": {"output": [("transpose", (3, 0, 1, 2)), ("reshape", (2, 2, 1, 1, 4))]}},
    "max_pool3d_grad_with_argmax": {"args": ["self", "gradOut", "indices", "kernelSize", "stride", "padding", "dilation",
                                             "ceilMode", "gradIn"]},
}

# Per op: main.cpp calls the project's own hand-written L2 API (op_host/aclnn_*.cpp), which for the example's arguments
# sends the work to another op than this project's kernel; the line of the L2 source that decides it. Such an op is NO
# REFERENCE: its example never runs this kernel on the NPU either.
NOT_THIS_KERNEL: dict[str, str] = {
    "adaptive_max_pool3d_grad": "main.cpp's self (1, 1, 2, 2, 2) and gradOut (1, 1, 1, 1, 1): every input size divides by "
                                "its output size (op_host/aclnn_adaptive_max_pool3d_backward.cpp:249), so "
                                "aclnnAdaptiveMaxPool3dBackward calls l0op::MaxPool3DGradWithArgmax (:268), not this "
                                "project's AdaptiveMaxPool3DGrad kernel (:279)",
    "batch_norm_v3": "aclnnBatchNorm with training true and a 3-dimensional input runs CANN's l0op::BNTrainingReduce and "
                     "BNTrainingUpdate (op_host/aclnn_batch_norm.cpp:363-365, DoBatchNormProc's last branch); nothing in "
                     "the L2 API calls this project's l0op::BatchNormV3 (batch_norm_l0.cpp:134)",
    "pows": "main.cpp's exponent 4.1 is none of 0.5, -0.5, -1, 2, -2, 3 (op_host/aclnn_pow.cpp:199 CheckSupportPows), so "
            "aclnnPowTensorScalar calls CANN's built-in l0op::Pow (aclnn_pow.cpp:269), not this project's Pows kernel",
}


class NoReference(Exception):
    "The op cannot be run against its own data: why."


@dataclass
class Tensor:
    "One aclTensor main.cpp makes."
    name: str
    host: str
    shape: tuple
    dtype: str
    addr: str
    file: str | None = None           # the file its host vector is read from (relative to the example folder)
    values: list | None = None        # or the host vector's literal values
    host_count: int | None = None     # the file's values when fewer than the tensor's (main.cpp copies past its vector)


@dataclass
class MainPlan:
    "What main.cpp gives the aclnn call."
    api: str
    args: list[str]                                          # the call's arguments before &workspaceSize, &executor
    tensors: dict[str, Tensor] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)   # aclTensorList -> its tensors
    values: dict[str, object] = field(default_factory=dict)     # a scalar / array argument -> its value
    writes: dict[str, str] = field(default_factory=dict)        # tensor -> the file its result is written to
    scalars: dict[str, str] = field(default_factory=dict)       # an aclScalar -> its dtype (its value in `values`)
    write_bytes: dict[str, int] = field(default_factory=dict)   # tensor -> the bytes WriteFile writes of it
    from_files: dict[str, tuple] = field(default_factory=dict)  # an argument -> (file, dtype, count, a list?) read into it


def split_args(s: str) -> list[str]:
    "Top-level comma-separated arguments of a call's text."
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{<" and not (ch == "<" and depth == 0 and not re.search(r"\w$", cur)): depth += 1
        elif ch in ")]}>" and depth > 0 and not (ch == ">" and cur.endswith("-")): depth -= 1
        if ch == "," and depth == 0: out.append(cur.strip()); cur = ""
        else: cur += ch
    if cur.strip(): out.append(cur.strip())
    return out


def call_args(text: str, start: int) -> tuple[str, int]:
    "The text between the parenthesis at `start` and its match, and the position after it; NoReference when unmatched."
    from ascendcraft.emu import past_close
    end = past_close(text, start + 1, "()")
    if text.count("(", start, end) != text.count(")", start, end): raise NoReference("main.cpp: an unbalanced call")
    return text[start + 1:end - 1], end


_NUM = r"[-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[fFlLuU]*"


def c_value(expr: str, env: dict):
    "A C expression of literals and known names, evaluated (None when it is not)."
    e = expr.strip()
    if e in ("true", "false"): return e == "true"
    if e == "nullptr" or e == "NULL": return None
    if re.fullmatch(r'"(?:[^"\\]|\\.)*"', e): return e[1:-1]
    e = re.sub(r"\bsizeof\s*\(\s*(?:const\s+)?([\w:<>\s]+?)\s*\)", lambda m: str(SIZEOF.get(re.sub(r"\s+", "", m[1]), m[0])), e)
    e = re.sub(r"static_cast<[^>]*>|\((?:const\s+)?(?:u?int\d+_t|int|float|double|size_t|long)\)", "", e)
    e = re.sub(r"(?<![\w.])(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)[fFlLuU]+\b", r"\1", e)
    e = re.sub(r"\.size\(\)", "__len__()", e)
    e = e.replace("&&", " and ").replace("||", " or ").replace("!", " not ").replace(" not =", "!=")
    e = re.sub(r"(?<![/])/(?![/])", "//", e) if not re.search(r"\d\.\d|\de", e) else e
    try:
        return eval(e, {"__builtins__": {}, "aclFloatToFloat16": float, "aclFloat16ToFloat": float}, env)  # noqa: S307 - main.cpp's own arithmetic on its own constants
    except Exception:  # noqa: BLE001
        return None


def parse_main(text: str) -> MainPlan:
    "What main.cpp makes, reads, passes and writes (see the module's docstring); NoReference when it is not readable."
    # (comments blanked as the emulator blanks them: string literals read whole, so that a "//" in a path stays)
    from ascendcraft.emu import blank_comments
    t = blank_comments(text)
    env: dict = {}
    # #define and scalar constants, in order (later ones may use earlier ones)
    scalar_defs = list(re.finditer(r"^\s*#define\s+(\w+)\s+([^\n]+)$|(?:^|[;{}\n])\s*(?:static\s+)?(?:const(?:expr)?\s+)?"
                         r"(?:std::)?(?:u?int\d+_t|int|size_t|float|double|bool|auto|aclFloat16|aclBFloat16|char\s*\*|const\s+char\s*\*|"
                         r"std::string|string)(?:\s+|(?<=\*))(\w+)\s*=\s*([^;{}\n]+);", t, re.M))   # (`const char *dataFormat`)
    for m in scalar_defs:
        name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        v = c_value(value, env)
        if v is not None: env[name] = v
    # C arrays of constants: int64_t sizeValue[2] = {4, 4}
    for m in re.finditer(r"(?:u?int\d+_t|int|float|double|bool)\s+(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{([^}]*)\}", t):
        vals = [c_value(a, env) for a in split_args(m.group(2))]
        if vals and all(v is not None for v in vals): env[m.group(1)] = vals
    # vectors: std::vector<T> NAME = {...} / NAME{...} / NAME(size) / NAME(size, fill)
    vectors: dict[str, tuple[str, str, str]] = {}
    for m in re.finditer(r"std::vector<\s*([\w:\s*]+?)\s*>\s+(\w+)\s*(=\s*\{|\{|\()", t):
        kind = "init" if "{" in m.group(3) else "size"
        body, _ = call_args(t.replace("{", "(").replace("}", ")"), m.end() - 1)
        vectors[m.group(2)] = (m.group(1).strip(), kind, body)
    # shape vectors first (their elements are integer constants or earlier shapes' elements)
    for _ in range(3):
        for name, (typ, kind, body) in vectors.items():
            if kind == "init" and "aclTensor" not in typ:
                vals = [c_value(a, env) for a in split_args(body)]
                if vals and all(v is not None for v in vals): env[name] = vals
    # and the constants of a shape's elements (size_t inputYShapeSize = inputYShape[0]), unknown before the shapes
    for m in scalar_defs:
        name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if name not in env and (v := c_value(value, env)) is not None: env[name] = v
    # void ** input1 = (void **)(&hostData); void* output1 = &resultData[0];
    aliases = {m.group(1): m.group(2) for m in re.finditer(
        r"void\s*\*\*?\s*(\w+)\s*=\s*(?:\(\s*void\s*\*\*?\s*\)\s*)?\(?\s*&?\s*(\w+)", t)}

    def host_of(buf: str) -> str | None:
        ids = re.findall(r"[A-Za-z_]\w*", buf.replace(".data()", ""))
        ids = [i for i in ids if i not in ("void", "char", "const", "reinterpret_cast", "static_cast", "uint8_t", "data")]
        if not ids: return None
        return aliases.get(ids[0], ids[0])

    api = re.search(r"\b(aclnn\w+)GetWorkspaceSize\s*\(", t)
    if not api: raise NoReference("main.cpp calls no aclnn...GetWorkspaceSize")
    args = split_args(call_args(t, api.end() - 1)[0])
    if len(args) < 2 or "workspace" not in args[-2].lower():
        raise NoReference(f"main.cpp's {api.group(1)}GetWorkspaceSize call ends otherwise than &workspaceSize, &executor")
    plan = MainPlan(api.group(1), [a.strip() for a in args[:-2]])
    # aclDataType variables (aclDataType valueType = aclDataType::ACL_INT32), and the names declared aclTensor *
    dtype_vars = dict(re.findall(r"aclDataType\s+(\w+)\s*=\s*(?:aclDataType::)?(ACL_\w+)", t))
    acl_dtype = lambda x: ACL_DTYPES.get(dtype_vars.get(x.strip(), x.split("::")[-1].strip()))
    tensor_names = set(re.findall(r"aclTensor\s*\*\s*(\w+)", t))
    for m in re.finditer(r"\bCreateAcl\w*Tensor\w*\s*\(", t):   # (and CreateAclNchTensor, CreateAclNclTensor: image)
        a = split_args(call_args(t, m.end() - 1)[0])
        dt = next((x for x in a if "ACL_" in x or x.strip() in dtype_vars), None)
        refs = [x.lstrip("&").strip() for x in a if x.startswith("&")]
        if dt is None or len(refs) < 2 or len(a) < 3: continue
        if refs[0] in tensor_names and refs[-1] not in tensor_names: refs = refs[::-1]   # (&tensor, &deviceAddr)
        dtype = acl_dtype(dt)
        if dtype is None: raise NoReference(f"main.cpp: aclDataType {dt} has no numpy dtype here")
        shape = env.get(a[1].strip()) if not a[1].strip().startswith("{") else \
            [c_value(x, env) for x in split_args(a[1].strip()[1:-1])]
        if shape is not None and any(s is None for s in shape): shape = None
        if shape is None: raise NoReference(f"main.cpp: the shape {a[1]} is not a list of constants")
        plan.tensors[refs[-1]] = Tensor(refs[-1], a[0].strip(), tuple(int(s) for s in shape), dtype, refs[0])
    file_reads: dict[str, tuple] = {}
    for m in re.finditer(r"\bReadFile\s*\(", t):
        a = split_args(call_args(t, m.end() - 1)[0])
        hosts = {x.host for x in plan.tensors.values()}
        # the buffer: ReadFile(path, fileSize, *input1, bytes) or ReadFile(path, hostData.data(), bytes)
        path, host = c_value(a[0], env), next((host_of(x) for x in a[1:] if host_of(x) in hosts), None)
        for tensor in plan.tensors.values():
            if tensor.host == host and isinstance(path, str): tensor.file = path
        # a scalar or a vector of no tensor read from a file (ReadFile(path, n, &tMin, sizeof(int64_t)), ReadFile(path,
        # n, v.data(), sizeof(float) * 3)): an attribute's value, known once gen_data.py has run
        size = re.fullmatch(r"sizeof\s*\(\s*([\w:]+)\s*\)\s*(?:\*\s*(\w+))?", a[-1].strip()) if len(a) >= 3 else None
        buf = next((x for x in a[1:-1] if re.fullmatch(r"&\s*\w+|\w+\.data\(\)", x.strip())), None)
        if host is None and isinstance(path, str) and size and buf and size[1] in SIZEOF:
            count = c_value(size[2], env) if size[2] else 1
            dtype = {"float": "float32", "double": "float64", "int": "int32", "bool": "bool"}.get(size[1], size[1].removesuffix("_t"))
            if isinstance(count, int) and dtype in np.sctypeDict:
                file_reads[host_of(buf)] = (path, dtype, count, buf.strip().endswith(".data()"))
    for tensor in plan.tensors.values():
        typ, kind, body = vectors.get(tensor.host, ("", "size", ""))
        if tensor.file is None and kind == "init":
            tensor.values = [c_value(x, env) for x in split_args(body)]
        # a vector made of its size alone whose elements main.cpp sets one by one (scaleHostData[0] = 0.1;)
        sets = re.findall(rf"(?<![\w.]){re.escape(tensor.host)}\s*\[\s*(\d+)\s*\]\s*=(?!=)\s*([^;]+);", t)
        if tensor.file is None and kind == "size" and sets:
            tensor.values = [0] * int(np.prod(tensor.shape))
            for i, v in sets: tensor.values[int(i)] = c_value(v, env) if int(i) < len(tensor.values) else None
        # a vector of its size and one fill value (std::vector<short> x1HostData(n, 0x3800)): CreateAclTensor copies
        # its bytes, so a fill of another element type is read as the tensor's dtype (0x3800 is half 0.5); a fill of
        # 0 stays a vector of its size alone (an output of it starts as the poison)
        size_fill = split_args(body) if kind == "size" else []
        if tensor.file is None and kind == "size" and not sets and len(size_fill) == 2:
            tensor.values = filled_values(typ, c_value(size_fill[1], env), tensor)
    # tensor lists: aclCreateTensorList(V.data(), n) with std::vector<aclTensor*> V{a, b}, or an array aclTensor* V[] = {...}
    arrays = {m.group(1): split_args(m.group(2)) for m in re.finditer(r"aclTensor\s*\*\s*(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{([^}]*)\}", t)}
    arrays |= {n: split_args(body) for n, (typ, kind, body) in vectors.items() if "aclTensor" in typ}
    for m in re.finditer(r"(\w+)\s*=\s*aclCreateTensorList\s*\(\s*(\w+)", t):
        plan.lists[m.group(1)] = [x.strip() for x in arrays.get(m.group(2), [])]
    # aclScalar / arrays of attributes
    for m in re.finditer(r"(\w+)\s*=\s*aclCreate(Scalar|IntArray|FloatArray|BoolArray)\s*\(", t):
        a = split_args(call_args(t, m.end() - 1)[0])
        src = re.sub(r"[&()\s]|\[0\]|\.data\(\)", "", a[0])   # v.data(), &v, &(v[0])
        v = env.get(src)
        if v is None and src in vectors:   # (a vector made of its size alone holds values not known here)
            v = [c_value(x, env) for x in split_args(vectors[src][2])] if vectors[src][1] == "init" else [None]
        plan.values[m.group(1)] = v
        if src in file_reads: plan.from_files[m.group(1)] = file_reads[src]
        if m.group(2) == "Scalar" and len(a) > 1: plan.scalars[m.group(1)] = acl_dtype(a[1])
    # an aclScalarList of aclScalars (foreach's scalar lists): aclCreateScalarList(v.data(), n), std::vector<aclScalar*> v{a, b}
    for m in re.finditer(r"(\w+)\s*=\s*aclCreateScalarList\s*\(\s*(\w+)", t):
        members = [x.strip() for x in split_args(vectors.get(m.group(2), ("", "", ""))[2])]
        if members and all(x in plan.scalars and plan.values.get(x) is not None for x in members):
            plan.values[m.group(1)] = [plan.values[x] for x in members]; plan.scalars[m.group(1)] = plan.scalars[members[0]]
    for name in plan.args:
        if name not in plan.tensors and name not in plan.lists and name not in plan.values:
            if name in dtype_vars or name.split("::")[-1] in ACL_NUMBERS:   # an aclDataType: its number
                plan.values[name] = ACL_NUMBERS.get(dtype_vars.get(name, name.split("::")[-1]))
                continue
            plan.values[name] = c_value(name, env) if name not in env else env[name]
            if name in file_reads: plan.from_files[name] = file_reads[name]
    # outputs: WriteFile(path, buf) of the vector that aclrtMemcpy(vec.data(), ..., DEVICE_ADDR, ..., DEVICE_TO_HOST) filled
    filled = {}
    for m in re.finditer(r"\baclrtMemcpy\s*\(", t):
        a = split_args(call_args(t, m.end() - 1)[0])
        if len(a) >= 5 and "DEVICE_TO_HOST" in a[4]:
            filled[host_of(a[0])] = a[2].strip()
    by_addr = {x.addr: x.name for x in plan.tensors.values()}
    # (and the std::ofstream form: std::ofstream f("../output/x.bin", std::ios::binary); f.write((const char*)v.data(), n))
    streams = {m.group(1): m.group(2) for m in re.finditer(r"std::ofstream\s+(\w+)\s*[({]\s*(\"[^\"]*\")", t)}
    writes = [split_args(call_args(t, m.end() - 1)[0]) for m in re.finditer(r"\bWriteFile\s*\(", t)]
    writes += [[streams[m.group(1)], *split_args(call_args(t, m.end() - 1)[0])]
               for m in re.finditer(r"\b(\w+)\s*\.\s*write\s*\(", t) if m.group(1) in streams]
    for a in writes:
        path, host = c_value(a[0], env), host_of(a[1]) if len(a) > 1 else None
        addr = filled.get(host)
        if isinstance(path, str) and addr in by_addr and by_addr[addr] not in plan.writes:   # (the first file of a tensor copied out twice)
            plan.writes[by_addr[addr]] = path
            nbytes = c_value(a[2], env) if len(a) > 2 else None
            if isinstance(nbytes, int) and not isinstance(nbytes, bool): plan.write_bytes[by_addr[addr]] = nbytes
    # an aclTensor * declared nullptr and never made or assigned is passed as nullptr (an optional input left out)
    plan.args = ["nullptr" if a in tensor_names and a not in plan.tensors and re.search(rf"aclTensor\s*\*\s*{a}\s*=\s*nullptr\s*;", t)
                 and len(re.findall(rf"(?<![\w&*]){a}\s*=(?!=)", t)) == 1 else a for a in plan.args]
    return plan


# a host vector's element type -> numpy dtype (the bytes CreateAclTensor copies)
HOST_NP = {"float": "float32", "double": "float64", "short": "int16", "int16_t": "int16", "uint16_t": "uint16",
           "int8_t": "int8", "uint8_t": "uint8", "char": "int8", "int": "int32", "int32_t": "int32", "uint32_t": "uint32",
           "int64_t": "int64", "uint64_t": "uint64", "aclFloat16": "uint16", "bool": "bool"}


def filled_values(host_type: str, fill, tensor: Tensor) -> list | None:
    """The values of a tensor made from `std::vector<host_type> v(size, fill)`: the fill's bytes read as the tensor's
    dtype (None when the fill is 0 or unknown, or the host element is not the tensor's size)."""
    import torch
    if fill is None or fill == 0 or host_type not in HOST_NP: return None
    n = int(np.prod(tensor.shape)) if tensor.shape else 1
    host = np.full(n, fill, dtype=HOST_NP[host_type])
    want = np.dtype(np.uint16 if tensor.dtype == "bfloat16" else tensor.dtype)
    if host.dtype.kind == "f" and want.kind == "f" and tensor.dtype != "bfloat16": return host.astype(want).tolist()
    if host.dtype.itemsize != want.itemsize: return None
    bits = host.view(want)
    if tensor.dtype == "bfloat16":
        return torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16).float().tolist()
    return bits.tolist()


def example_file(path: str) -> str:
    "A path main.cpp gives (relative to its build/ folder: ../input/x.bin) as relative to the example folder."
    p = os.path.normpath(os.path.join("build", path))
    return p


def arrays_for(plan: MainPlan, folder: Path) -> dict[str, object]:
    "Each tensor main.cpp makes, with its file's (or its literal) values; a bfloat16 one as a torch tensor."
    import torch
    out = {}
    for name, (path, dtype, count, is_list) in plan.from_files.items():   # (the values main.cpp reads from files)
        f = folder / example_file(path)
        if not f.exists(): raise NoReference(f"gen_data.py wrote no {path}")
        vals = np.fromfile(f, dtype=dtype, count=count).tolist()
        if len(vals) < count: raise NoReference(f"{path} holds {len(vals)} {dtype} values, main.cpp reads {count}")
        plan.values[name] = vals if is_list else vals[0]
    for t in plan.tensors.values():
        np_dt = np.uint16 if t.dtype == "bfloat16" else np.dtype(t.dtype)
        n = int(np.prod(t.shape)) if t.shape else 1
        if t.file is not None:
            f = folder / example_file(t.file)
            if not f.exists(): raise NoReference(f"gen_data.py wrote no {t.file}")
            data = np.fromfile(f, dtype=np_dt)
            if data.size < n:   # (bind takes it for an output only, which starts as the emulator's poison)
                t.host_count = data.size
                data = np.concatenate([data, np.zeros(n - data.size, np_dt)])
            a = data[:n].reshape(t.shape)
        elif t.values is not None and all(v is not None for v in t.values) and len(t.values) == n:
            if t.dtype == "bfloat16": a = torch.tensor(t.values, dtype=torch.bfloat16).view(torch.int16).numpy().view(np.uint16).reshape(t.shape)
            else: a = np.array(t.values, dtype=np_dt).reshape(t.shape)
        else:
            a = np.zeros(t.shape, np_dt)   # a vector main.cpp makes of its size alone (zero-filled)
        if t.dtype == "bfloat16": a = torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
        out[t.name] = a
    return out


def bind(plan: MainPlan, op, arrays: dict) -> tuple[dict, dict, dict]:
    """The aclnn call's arguments as the definition's inputs, attributes and outputs (CANN's aclnn generator's order):
    (inputs, attrs, outputs={name: (shape, dtype)}), and which tensor each output is (for the files)."""
    # (an output named like an input is a ref output: the aclnn call takes it once, as the input; Eye's y)
    ins = {p.name for p in op.inputs}
    params = [("in", p) for p in op.inputs] + [("attr", a) for a in op.attrs] + \
        [("out", p) for p in op.outputs if p.name not in ins]
    if len(plan.args) != len(params):
        raise NoReference(f"main.cpp's {plan.api} call passes {len(plan.args)} arguments, the definition has "
                          f"{len(op.inputs)} inputs, {len(op.attrs)} attributes, {len(op.outputs)} outputs")
    inputs, attrs, outputs, names, initial = {}, {}, {}, {}, {}
    for (role, p), arg in zip(params, plan.args):
        if role == "attr":
            v = plan.values.get(arg)
            if isinstance(v, str) and p.kind != "str": raise NoReference(f"attribute {p.name}: {arg} is {v!r}")
            if v is not None: attrs[p.name] = v
            continue
        members = plan.lists.get(arg, [arg] if arg in plan.tensors else [])
        if role == "in" and arg in plan.scalars:
            # an aclScalar for an input (the definition's scalar input): a one-element tensor of its dtype and value
            v, dt = plan.values.get(arg), plan.scalars[arg]
            if v is None or dt is None: raise NoReference(f"input {p.name}: the aclScalar {arg}'s value or dtype")
            import torch
            v = v if isinstance(v, list) else [v]   # (an aclScalarList: a one-dimensional tensor of its values)
            inputs[p.name] = torch.tensor([float(x) for x in v], dtype=torch.bfloat16) if dt == "bfloat16" else np.array(v, dt)
            continue
        if role == "in" and isinstance(plan.values.get(arg), list) and all(isinstance(v, int) for v in plan.values[arg]):
            # an aclIntArray for an input: an int64 tensor (int32 where the definition's DataType list has int32 alone)
            int32 = bool(getattr(p, "dtypes", None)) and set(p.dtypes) == {"DT_INT32"}
            inputs[p.name] = np.array(plan.values[arg], np.int32 if int32 else np.int64)
            continue
        if not members:
            if arg in ("nullptr", "NULL"): inputs[p.name] = None; continue
            raise NoReference(f"{role}put {p.name}: {arg} is no tensor main.cpp makes")
        is_list = arg in plan.lists
        short = next((plan.tensors[m] for m in members if plan.tensors[m].host_count is not None), None)
        if short is not None and role == "in":
            raise NoReference(f"input {p.name}: {short.file} holds {short.host_count} {short.dtype} values, "
                              f"{short.name} has {int(np.prod(short.shape))}")
        if role == "in":
            vals = [arrays[m] for m in members]
            inputs[p.name] = vals if is_list else vals[0]
        else:
            specs = [(plan.tensors[m].shape, plan.tensors[m].dtype if plan.tensors[m].dtype == "bfloat16"
                      else np.dtype(plan.tensors[m].dtype)) for m in members]
            outputs[p.name] = specs if is_list else specs[0]
            # an output whose host vector main.cpp filled (from a file, or literal values) starts with them on the
            # device (CreateAclTensor copies it there); one made of its size alone starts as the emulator's poison,
            # so that an element the kernel leaves unwritten shows (on the NPU: zeros)
            t = plan.tensors[members[0]]
            # (a host vector shorter than its tensor: CreateAclTensor copies the host memory past it, unknown here)
            if not is_list and (t.file is not None or t.values is not None) and t.host_count is None:
                initial[p.name] = arrays[members[0]]
        names[p.name] = members
    return inputs, attrs, outputs, names, initial


def verify_commands(run_sh: str) -> list[list[str]]:
    "The verify_result.py commands run.sh runs (their file arguments)."
    # (as the shell splits them: `verify_result.py "float16" ours golden` passes float16, not "float16")
    import shlex
    return [shlex.split(m.group(1)) for m in re.finditer(r"verify_result\.py([^`\n]*)", run_sh)]


def tolerance(verify: str) -> str:
    "The tolerance constants verify_result.py sets (module or function level), as `NAME=value` text."
    found = re.findall(r"^\s*([A-Za-z_]*(?:LOSS|loss|TOL|tol|THRESHOLD|threshold|PRECISION|precision|ERROR_RATE)[A-Za-z_]*)"
                       r"\s*=\s*([-+0-9.eE]+)\s*(?:#.*)?$", verify, re.M)
    return ", ".join(dict.fromkeys(f"{n}={v}" for n, v in found)) or "?"


def worst_error(ours: Path, golden: Path, dtype: str) -> str:
    "The worst absolute error of our output file against the golden one (the golden file's dtype from its size)."
    import torch
    if not golden.exists() or not ours.exists(): return "no golden"
    raw = np.fromfile(ours, np.uint16 if dtype == "bfloat16" else np.dtype(dtype))
    got = torch.from_numpy(raw.view(np.int16)).view(torch.bfloat16).double().numpy() if dtype == "bfloat16" else raw
    size = golden.stat().st_size
    # (our own dtype first: an int32 output's golden of the same size is int32, not float32)
    wide = (np.int64, np.int32) if raw.dtype.kind in "iub" else (np.float64, np.float32)
    gdt = {got.size * 8: wide[0], got.size * 4: wide[1], got.size * raw.itemsize: raw.dtype}.get(size)
    if gdt is None or got.size == 0: return f"golden {size} bytes, ours {ours.stat().st_size}"
    want = np.fromfile(golden, gdt)
    if dtype == "bfloat16" and gdt == raw.dtype:
        want = torch.from_numpy(want.view(np.int16)).view(torch.bfloat16).double().numpy()
    if np.iscomplexobj(got) or np.iscomplexobj(want):
        err = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        err = np.where(both_nan | (g == w), 0.0, np.abs(g - w))
    return f"{float(np.nanmax(err)) if np.isfinite(err).any() or err.size else 0.0:.3g}" + \
        (" (nan)" if np.isnan(err).any() else "")


def show(gitdir: str, commit: str, path: str) -> str | None:
    r = subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], capture_output=True)
    return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


def run_example(op_path: str, gitdir: str, commit: str, work: Path, project_of, soc: str | None = None) -> str:
    """One op: its example's gen_data.py, main.cpp's tensors, the emulated run, verify_result.py. The line."""
    name = op_path.rsplit("/", 1)[-1]
    files = {f: show(gitdir, commit, f"{op_path}/{EXAMPLE}/{f}") for f in ("gen_data.py", "main.cpp", "verify_result.py", "run.sh")}
    if any(v is None for v in files.values()):
        return f"{name}: NO REFERENCE (no {EXAMPLE} with gen_data.py, main.cpp, verify_result.py and run.sh)"
    ex = work / "example"
    (ex / "build").mkdir(parents=True)
    (ex / "input").mkdir(); (ex / "output").mkdir()
    for f, text in files.items(): (ex / f).write_text(text)
    tol = tolerance(files["verify_result.py"])
    if name in NOT_THIS_KERNEL: return f"{name}: NO REFERENCE ({NOT_THIS_KERNEL[name]})"
    try:
        plan = parse_main(files["main.cpp"])
        plan = apply_overrides(name, plan)
    except NoReference as e:
        return f"{name}: NO REFERENCE ({e})"
    size = sum(int(np.prod(t.shape)) * (2 if t.dtype == "bfloat16" else np.dtype(t.dtype).itemsize) for t in plan.tensors.values())
    if size > MAX_INPUT_BYTES: return f"{name}: NO REFERENCE (main.cpp's tensors are {size >> 20} MB: not shrunk here)"
    g = subprocess.run([sys.executable, "gen_data.py"], cwd=ex, capture_output=True, text=True, timeout=GEN_SECONDS)
    if g.returncode != 0:
        last = (g.stderr.strip().splitlines() or ["?"])[-1]
        return f"{name}: NO REFERENCE (gen_data.py failed: {last[:160]})"
    try:
        proj, settings = project_of(op_path)
        if soc: settings = settings.replace(soc=soc)   # another chip profile (--soc: a 40-AIV 910B3 for an op written for it)
    except AssertionError as e:
        return f"{name}: PROJECT DOES NOT BUILD ({str(e).splitlines()[0][:200]})"
    from ascendcraft.opproject import run_project
    try:
        arrays = arrays_for(plan, ex)
        for t, moves in OVERRIDES.get(name, {}).get("before", {}).items(): arrays[t] = data_moves(arrays[t], moves)
        inputs, attrs, outputs, names, initial = bind(plan, proj.op, arrays)
    except NoReference as e:
        return f"{name}: NO REFERENCE ({e})"
    t0 = time.time()
    try:
        r = run_project(proj, inputs, attrs=attrs, outputs=outputs, settings=settings, initial=initial or None)
    except Exception as e:  # noqa: BLE001 - the line says why, whatever it is
        return f"{name}: ERROR {type(e).__name__}: {str(e).splitlines()[0][:240] if str(e) else ''}"
    if not r.run.ok:
        first = next((d for d in r.run.diagnostics if d.severity == "error"), None)
        return f"{name}: ERROR ({first.render().splitlines()[0][:240] if first else r.run}) key {r.tiling_key}"
    written = 0
    for out, members in names.items():
        if out not in outputs and out not in r.outputs: continue
        got = r.outputs.get(out)
        if got is None: continue
        for k, m in enumerate(members):
            path = plan.writes.get(m)
            if path is None: continue
            a = np.asarray(got[k] if isinstance(got, list) else got)
            if m in OVERRIDES.get(name, {}).get("after", {}): a = data_moves(a, OVERRIDES[name]["after"][m])
            if plan.write_bytes.get(m, a.nbytes) < a.nbytes:   # WriteFile's byte count: the first elements alone
                a = a.reshape(-1)[:plan.write_bytes[m] // a.itemsize]
            a.tofile(ex / example_file(path)); written += 1
    # and an in-place input main.cpp reads back (its device address copied out after the call)
    for m, path in plan.writes.items():
        if not (ex / example_file(path)).exists():
            owner = next((o for o, ms in names.items() if m in ms), None)
            if owner in r.outputs:
                a = r.outputs[owner]
                np.asarray(a[names[owner].index(m)] if isinstance(a, list) else a).tofile(ex / example_file(path)); written += 1
    verdicts, worst = [], []
    written_files = {Path(example_file(p)): m for m, p in plan.writes.items()}
    for cmd in verify_commands(files["run.sh"]):
        # the file of ours it reads: one main.cpp writes (the other is the golden one)
        if not any(Path(c) in written_files and (ex / c).exists() for c in cmd):
            return (f"{name}: NO REFERENCE (verify_result.py reads {' '.join(cmd)}: main.cpp's writing of it not followed"
                    f" here) key {r.tiling_key}")
        v = subprocess.run([sys.executable, "verify_result.py", *cmd], cwd=ex, capture_output=True, text=True,
                           timeout=GEN_SECONDS)
        # (run.sh compares the printed text with "test pass"; some scripts say it through logging, on stderr, and
        # refuse with exit status 1)
        lines = [l.strip() for l in (v.stdout + "\n" + v.stderr).splitlines() if l.strip()]
        verdicts.append(v.returncode == 0 and any(l.endswith("test pass") for l in lines)
                        and not any("error" in l.lower() for l in lines))
        ours = next((c for c in cmd if Path(c) in written_files), None)
        # (the golden file: another argument that is a file, not a dtype word before the two paths)
        gold = next((c for c in cmd if c != ours and (ex / c).is_file()), None)
        tensor = plan.tensors[written_files[Path(ours)]]
        if ours and gold and tensor: worst.append(worst_error(ex / ours, ex / gold, tensor.dtype))
    if not verdicts: return f"{name}: NO REFERENCE (run.sh runs no verify_result.py)"
    verdict = "match" if all(verdicts) else "MISMATCH"
    return (f"{name}: key {r.tiling_key}, block_dim {r.block_dim}, {time.time() - t0:.0f} s, tolerance {tol}, "
            f"worst abs error {' / '.join(worst) or '?'}: {verdict}")


def apply_overrides(name: str, plan: MainPlan) -> MainPlan:
    o = OVERRIDES.get(name, {})
    for t, shape in o.get("shapes", {}).items(): plan.tensors[t].shape = tuple(shape)
    # (a tensor of literal values the op's aclnn broadcasts before its kernel: l0op::BroadcastTo)
    for t, shape in o.get("broadcast", {}).items():
        x = plan.tensors[t]
        if x.values is None or any(v is None for v in x.values): raise NoReference(f"broadcast {t}: its values unknown here")
        x.values = np.broadcast_to(np.array(x.values, dtype=object).reshape(x.shape), shape).reshape(-1).tolist()
        x.shape = tuple(shape)
    if "args" in o:   # (main.cpp's own arguments reordered; a name it does not pass only with its value in "values")
        other = [a for a in o["args"] if a not in plan.args and a not in o.get("values", {})]
        if other: raise NoReference(f"the override's args {other} are not main.cpp's {plan.args}, nor given values")
        plan.args = list(o["args"])
    plan.values.update(o.get("values", {}))
    return plan


def data_moves(a, moves: list):
    "An array after an override's data moves (an op's own aclnn Reshape / Transpose around its kernel)."
    for kind, arg in moves:
        a = np.asarray(a).reshape(arg) if kind == "reshape" else np.transpose(np.asarray(a), arg)
    return np.ascontiguousarray(a)


def op_paths(gitdir: str, commit: str) -> list[str]:
    "The corpus's cann-ops entries (manifest.json), vector families first, cube / conv / matmul last."
    entries = [e["path"] for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO]
    order = ["math", "activation", "conversion", "loss", "norm", "foreach", "index", "image", "pooling", "quant",
             "optim", "objdetect", "rnn", "contrib", "common", "conv", "matmul"]
    rank = lambda p: (order.index(p.split("/")[1]) if p.split("/")[1] in order else len(order) - 2, p)
    return sorted(entries, key=rank)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", action="append", default=[], metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--only", default=None, help="only the ops whose path matches this regex")
    ap.add_argument("--limit", type=int, default=None, help="at most N ops")
    ap.add_argument("--keep", type=Path, default=None, help="materialise the projects and examples here (kept)")
    ap.add_argument("--soc", default=None, help="the chip profile (default: the settings', a 48-AIV 910B2)")
    a = ap.parse_args(argv)
    from hicann_by_hand import project
    gitdirs = dict(x.split("=", 1) for x in a.git)
    gitdir = gitdirs.get(REPO) or str(Path("/work/.mirror") / REPO.replace("/", "+") / "repo")
    commit = next(e["commit"] for e in json.loads(corpus.MANIFEST.read_text()) if e["repo"] == REPO)
    paths = [p for p in op_paths(gitdir, commit) if not a.only or re.search(a.only, p)][:a.limit]
    bad = 0
    for p in paths:
        with tempfile.TemporaryDirectory(prefix="cannref_") as tmp:
            work = (a.keep / p.replace("/", "_")) if a.keep else Path(tmp)
            if a.keep and work.exists():
                import shutil
                shutil.rmtree(work)
            work.mkdir(parents=True, exist_ok=True)
            keep = a.keep / "projects" if a.keep else Path(tmp) / "projects"   # (removed with the folder)
            try:
                text = run_example(p, gitdir, commit, work, lambda path: project(REPO, path, gitdirs, keep), a.soc)
            except subprocess.TimeoutExpired as e:
                text = f"{p.rsplit('/', 1)[-1]}: NO REFERENCE ({Path(str(e.cmd[-1])).name} ran past {GEN_SECONDS} s)"
        bad += not text.endswith(": match")
        print(text, flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
