"""The shapes and dtypes of the tensors a task's validation/pybind.cpp allocates for the op's outputs.

NPUKernelBench's bound function makes the output tensors itself (`torch::empty(...)`, `torch::empty_like(...)`) and
passes them to EXEC_NPU_CMD; on the NPU the op's TilingFunc sees those shapes, not the ones its InferShape would give
(DequantSwigluQuant's `scale` is `{prod(x.shape[:-1])}` in its pybind, while its InferShape returns x's shape).
pybind_output_shapes compiles the file against a small shape-only stand-in of the torch / ATen API (below: tensors
carry a shape and a dtype, no data), calls the bound function with the shapes of the call ModelNew made, and reads
what reaches EXEC_NPU_CMD. A file that uses more of the API than the stand-in has gives None (the caller keeps its
other source of shapes).
"""
import re
import subprocess
import tempfile
from pathlib import Path

# shape-only stand-ins of the torch / ATen names pybind files use (our own minimal declarations)
SHIM = r"""
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
namespace c10 {
enum class ScalarType { Bool, Byte, Char, Short, Int, Long, Half, Float, Double, BFloat16, UInt32, Undefined };
template <class T> using optional = std::optional<T>;
using std::nullopt;
template <class T> struct ArrayRef : std::vector<T> {
    using std::vector<T>::vector;
    ArrayRef() = default;
    ArrayRef(const std::vector<T>& v) : std::vector<T>(v) {}
    std::vector<T> vec() const { return *this; }
};
using IntArrayRef = ArrayRef<int64_t>;
struct Scalar {
    double v = 0;
    Scalar() = default;
    template <class T> Scalar(T x) : v(static_cast<double>(x)) {}
    template <class T> T to() const { return static_cast<T>(v); }
};
enum class DeviceType { CPU, PrivateUse1 };
struct Device {   // the op's tensors are on the NPU (EvoKernel's op.cpp checks device().type() == PrivateUse1)
    DeviceType type() const { return DeviceType::PrivateUse1; }
    bool operator==(const Device&) const { return true; }
    bool operator!=(const Device&) const { return false; }
};
struct TensorOptions {
    ScalarType dt = ScalarType::Float;
    TensorOptions dtype(ScalarType d) const { TensorOptions o = *this; o.dt = d; return o; }
    TensorOptions device(Device) const { return *this; }
};
}  // namespace c10
namespace at {
using namespace c10;
constexpr ScalarType kBool = ScalarType::Bool, kByte = ScalarType::Byte, kChar = ScalarType::Char,
    kInt8 = ScalarType::Char, kUInt8 = ScalarType::Byte, kShort = ScalarType::Short, kInt16 = ScalarType::Short,
    kInt = ScalarType::Int, kInt32 = ScalarType::Int, kLong = ScalarType::Long, kInt64 = ScalarType::Long,
    kHalf = ScalarType::Half, kFloat16 = ScalarType::Half, kFloat = ScalarType::Float, kFloat32 = ScalarType::Float,
    kDouble = ScalarType::Double, kBFloat16 = ScalarType::BFloat16, kUInt32 = ScalarType::UInt32;
using Dtype = ScalarType;
struct Tensor {
    bool def = false;
    std::vector<int64_t> shape;
    ScalarType dt = ScalarType::Float;
    Tensor() = default;
    Tensor(std::vector<int64_t> s, ScalarType d) : def(true), shape(std::move(s)), dt(d) {}
    bool defined() const { return def; }
    IntArrayRef sizes() const { return shape; }
    int64_t dim() const { return static_cast<int64_t>(shape.size()); }
    int64_t size(int64_t i) const { return shape.at(i < 0 ? i + dim() : i); }
    int64_t numel() const { int64_t n = 1; for (auto s : shape) n *= s; return n; }
    ScalarType scalar_type() const { return dt; }
    ScalarType dtype() const { return dt; }
    TensorOptions options() const { return TensorOptions{dt}; }
    Device device() const { return {}; }
    Tensor to(ScalarType d) const { return Tensor(shape, d); }
    Tensor contiguous() const { return *this; }
    bool is_contiguous() const { return true; }   // the harness passes its tensors contiguous
    Tensor cpu() const { return *this; }
    Tensor& fill_(Scalar) { return *this; }
    Tensor& zero_() { return *this; }
};
using TensorList = ArrayRef<Tensor>;
inline Tensor empty(IntArrayRef s, TensorOptions o = {}) { return Tensor(s, o.dt); }
inline Tensor empty(std::initializer_list<int64_t> s, TensorOptions o = {}) { return Tensor(s, o.dt); }
inline Tensor zeros(IntArrayRef s, TensorOptions o = {}) { return Tensor(s, o.dt); }
inline Tensor zeros(std::initializer_list<int64_t> s, TensorOptions o = {}) { return Tensor(s, o.dt); }
inline Tensor empty_like(const Tensor& t) { return Tensor(t.shape, t.dt); }
inline Tensor empty_like(const Tensor& t, TensorOptions o) { return Tensor(t.shape, o.dt); }
inline Tensor zeros_like(const Tensor& t) { return Tensor(t.shape, t.dt); }
inline Tensor zeros_like(const Tensor& t, TensorOptions o) { return Tensor(t.shape, o.dt); }
inline TensorOptions dtype(ScalarType d) { return TensorOptions{d}; }
}  // namespace at
namespace torch { using namespace at; }
#define TORCH_CHECK(cond, ...) do { if (!(cond)) throw std::runtime_error("TORCH_CHECK"); } while (0)
inline void ascendcraft_put(const at::Tensor& t) {
    if (!t.defined()) { std::printf(" N"); return; }
    std::printf(" T%d:", static_cast<int>(t.dt));
    for (size_t i = 0; i < t.shape.size(); ++i) std::printf(i ? ",%lld" : "%lld", static_cast<long long>(t.shape[i]));
}
inline void ascendcraft_put(const std::optional<at::Tensor>& t) { if (t) ascendcraft_put(*t); else std::printf(" N"); }
inline void ascendcraft_put(const at::TensorList&) { std::printf(" L"); }
template <class T> void ascendcraft_put(const T&) { std::printf(" S"); }
template <class... A> void ascendcraft_exec(const char* name, const A&... a) {
    std::printf("EXEC %s", name);
    (ascendcraft_put(a), ...);
    std::printf("\n");
}
#define EXEC_NPU_CMD(name, ...) ascendcraft_exec(#name, __VA_ARGS__)
struct AscendcraftModule {
    std::string text;
    std::string& doc() { return text; }
    template <class... A> void def(A&&...) {}
    template <class... A> void impl(A&&...) {}
};
#define PYBIND11_MODULE(name, m) void ascendcraft_module_##name(AscendcraftModule& m)
#define TORCH_LIBRARY_IMPL(ns, key, m) void ascendcraft_library_##ns##_##key(AscendcraftModule& m)
#define TORCH_LIBRARY(ns, m) void ascendcraft_library_##ns(AscendcraftModule& m)
"""

# torch dtype name -> the stand-in's ScalarType (and back)
SCALAR = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
          "float16": "Half", "float32": "Float", "float64": "Double", "bfloat16": "BFloat16", "uint32": "UInt32"}
BACK = {i: name for i, name in enumerate(["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                                          "float64", "bfloat16", "uint32"])}


def _literal(a):
    "A C++ expression for one argument of ModelNew's call (None when the stand-in cannot express it)."
    import torch
    if a is None: return "std::nullopt"
    if isinstance(a, bool): return "true" if a else "false"
    if isinstance(a, int): return f"static_cast<int64_t>({a})"
    if isinstance(a, float): return repr(a) if a == a and abs(a) != float("inf") else "0.0"
    if isinstance(a, str): return "std::string(" + '"' + a.replace("\\", "\\\\").replace('"', '\\"') + '")'
    if torch.is_tensor(a):
        dt = SCALAR.get(str(a.dtype).replace("torch.", ""))
        if dt is None: return None
        return "at::Tensor(std::vector<int64_t>{" + ", ".join(str(int(s)) for s in a.shape) + "}, c10::ScalarType::" + dt + ")"
    if isinstance(a, (list, tuple)) and a and all(torch.is_tensor(t) for t in a):
        parts = [_literal(t) for t in a]
        return None if None in parts else "std::vector<at::Tensor>{" + ", ".join(parts) + "}"
    if isinstance(a, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in a):
        return "std::vector<int64_t>{" + ", ".join(str(v) for v in a) + "}"
    return None


def bound_function(pybind: str) -> str | None:
    "The name of the C++ function the file's PYBIND11_MODULE binds (its first .def)."
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", pybind, flags=re.S)
    m = re.search(r"\.def\(\s*\"\w+\"\s*,\s*&?\s*(\w+)", code)
    return m.group(1) if m else None


def exec_calls(pybind: str, call: list) -> list[tuple[str, list]] | None:
    """Compile the pybind file against the stand-in, call its bound function with `call` (ModelNew's arguments) and
    return each EXEC_NPU_CMD it made: (aclnn name, [None for an absent tensor, ("T", dtype name, shape), or "S" / "L"
    for a scalar / tensor list]). None when the file does not compile with the stand-in or the call fails."""
    fn = bound_function(pybind)
    args = [_literal(a) for a in call]
    if fn is None or None in args: return None
    body = "\n".join(l for l in pybind.splitlines() if not l.lstrip().startswith("#include"))
    source = SHIM + body + "\nint main() {\n    try { " + fn + "(" + ", ".join(args) + \
        "); } catch (...) { return 3; }\n    return 0;\n}\n"
    with tempfile.TemporaryDirectory(prefix="pybind-shapes-") as d:
        src, exe = Path(d) / "p.cpp", Path(d) / "p"
        src.write_text(source)
        try:
            built = subprocess.run(["g++", "-std=c++17", "-O0", "-w", "-o", str(exe), str(src)], capture_output=True,
                                   text=True, timeout=120)
            if built.returncode != 0: return None
            ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
    if ran.returncode != 0: return None
    out = []
    for line in ran.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[0] != "EXEC": continue
        items = []
        for p in parts[2:]:
            if p == "N": items.append(None)
            elif p.startswith("T"):
                code, _, dims = p[1:].partition(":")
                items.append(("T", BACK[int(code)], tuple(int(s) for s in dims.split(",") if s)))
            else: items.append(p)
        out.append((parts[1], items))
    return out


def pybind_output_shapes(pybind: str, op, call: list) -> dict:
    """{output name: (shape, torch dtype name)} of the op's outputs as the task's pybind allocates them for ModelNew's
    call: the tensors after the op's inputs and attributes in the EXEC_NPU_CMD of the op's generated aclnn API
    (aclnnCustomOp or aclnn<OpType>); an output named like an input is that input's memory and has no argument.
    {} when the file cannot be run on the stand-in or makes no such call."""
    calls = exec_calls(pybind, call)
    if not calls: return {}
    in_names = {p.name for p in op.inputs}
    plain = [p for p in op.outputs if p.name not in in_names]
    for name, items in calls:
        if name not in ("aclnnCustomOp", f"aclnn{op.type}"): continue
        if len(items) != len(op.inputs) + len(op.attrs) + len(plain): return {}
        outs = items[len(op.inputs) + len(op.attrs):]
        return {p.name: (t[2], t[1]) for p, t in zip(plain, outs) if isinstance(t, tuple)}
    return {}
