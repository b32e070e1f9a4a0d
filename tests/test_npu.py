"""The real-NPU path without an NPU: the generated CANN project, its PyTorch binding run against stand-in headers,
detection of absent and stand-in CANN toolkits, builds that fail with diagnostics, timing that refuses to start.

Nothing here needs CANN, torch_npu or a device. The stand-in headers below are written for these tests (they
are not vendor headers): a small host-memory version of the few PyTorch C++ names the bindings use, torch_npu's
current-stream call, and ACL's stream type. The one check against the real torch headers is marked slow.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ascendcraft.bind import shape_bindings
from ascendcraft.check import Target, evaluate_host
from ascendcraft.config import load_settings
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.launch import host_args
from ascendcraft.lower import ident
from ascendcraft.npu import (NPU_MANIFEST, build_cann, cann_project, detect, load_kernel, time_on_npu,
                             write_cann_project)
from ascendcraft.pipeline import Pipeline
from ascendcraft.taskset import get_task

ROOT = Path(__file__).resolve().parents[1]
CASES = ["activation/relu", "activation/softmax", "loss/mse_loss", "normalization/layer_norm",
         "activation/leaky_relu", "pooling/max_pooling_2d", "mhc/mhc_post", "mhc/mhc_post_grad"]
CASES = [c for c in CASES if (ROOT / "examples" / f"{c}.py").exists()]
TARGET = Target("Ascend910B2", 48, 196608)
AT_DTYPES = {"f32": "at::kFloat", "f16": "at::kHalf", "bf16": "at::kBFloat16", "i32": "at::kInt", "i64": "at::kLong",
             "u8": "at::kByte", "bool": "at::kBool"}
PATH_ONLY = {"PATH": os.environ.get("PATH", "")}
needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
needs_cc = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("gcc") is None, reason="no C/C++ compiler")

_PIPES = {}


def pipeline(case: str, compile: bool = False) -> Pipeline:
    "The finished pipeline of an example (cached per test session)."
    if (case, compile) not in _PIPES:
        path = ROOT / "examples" / f"{case}.py"
        p = Pipeline(path.read_text(), path.name, task=get_task(path.stem), compile=compile)
        p.run_all()
        assert p.final is not None, p.summary()
        _PIPES[case, compile] = p
    return _PIPES[case, compile]


def project_of(case: str):
    p = pipeline(case)
    return p, cann_project(p.final, p.lowering, task=p.task, target=TARGET)


def host_params(p: Pipeline, kind: str) -> list:
    "The DSL host parameters of one kind ('gm', 'out', 'scalar'), in declaration order."
    return [q for q in p.program.host.params if q.kind == kind]


def call_args(text: str, start: int) -> list:
    "The comma-separated arguments of the call whose '(' is at `start`, split at top-level commas."
    depth, args, current = 0, [], ""
    for ch in text[start:]:
        if ch == "(":
            depth += 1
            if depth == 1: continue
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(current.strip())
                return [a for a in args if a]
        if ch == "," and depth == 1:
            args.append(current.strip()); current = ""
        else:
            current += ch
    raise AssertionError("unbalanced call")


# ---------------------------------------------------------------------------------------------------------------
# The generated project

@pytest.mark.parametrize("case", CASES, ids=[c.split("/")[1] for c in CASES])
def test_project_files_and_their_contents(case):
    p, cann = project_of(case)
    n = p.lowering.names
    for name, text in p.final.files:                      # the lowered files are untouched
        assert cann[name] == text, name
    for name in ("CMakeLists.txt", f"{n.op}_torch.cpp", "setup.py", "README.md", f"run_{n.op}.py",
                 f"{n.op}_reference.py", f"{n.op}_dsl.py", NPU_MANIFEST):
        assert name in cann, name
    cmake = cann["CMakeLists.txt"]
    library = re.search(r"ascendc_library\((\w+) (SHARED|STATIC)\s+([^)]*)\)", cmake)
    assert library and library[1] == f"{n.op}_kernels" and library[3].split() == [n.kernel_file]
    assert f'set(SOC_VERSION "Ascend910B2" CACHE STRING' in cmake
    assert "include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)" in cmake and cmake.index("include(${ASCENDC") < library.start()
    assert "ASCEND_CANN_PACKAGE_PATH" in cmake and 'set(RUN_MODE "npu"' in cmake
    setup = cann["setup.py"]
    compile(setup, "setup.py", "exec")
    assert f'NpuExtension(\n        "ascendcraft_{n.op}",\n        sources=["{n.op}_torch.cpp"]' in setup
    assert f'LAUNCH_HEADER = "aclrtlaunch_{n.entry}.h"' in setup
    readme = cann["README.md"]
    for command in ("cmake -S . -B build -DSOC_VERSION=Ascend910B2 -DASCEND_CANN_PACKAGE_PATH=$ASCEND_HOME_PATH",
                    "cmake --build build -j", "cmake --install build", "python setup.py build_ext --inplace",
                    f"python run_{n.op}.py"):
        assert command in readme, command
    compile(cann[f"run_{n.op}.py"], "run.py", "exec")
    assert f'load_task_file(HERE / "{n.op}_reference.py")' in cann[f"run_{n.op}.py"]
    assert cann[f"{n.op}_reference.py"] == p.task.source and cann[f"{n.op}_dsl.py"] == p.dsl
    manifest = json.loads(cann[NPU_MANIFEST])
    assert (manifest["entry"], manifest["soc_version"], manifest["core_num"], manifest["ub_bytes"]) == \
           (n.entry, "Ascend910B2", 48, 196608)
    assert [i["name"] for i in manifest["inputs"]] == [q.name for q in host_params(p, "gm")]
    assert [o["name"] for o in manifest["outputs"]] == [q.name for q in host_params(p, "out")]


@pytest.mark.parametrize("case", CASES, ids=[c.split("/")[1] for c in CASES])
def test_binding_launches_the_entry_and_calls_the_tiling_function_in_their_orders(case):
    p, cann = project_of(case)
    n = p.lowering.names
    binding = re.sub(r"//[^\n]*", "", cann[f"{n.op}_torch.cpp"])       # code only
    # the launch: inputs, outputs (declaration order of the DSL host), workspace, tiling
    expected = [ident(q.name) for q in host_params(p, "gm")] + [ident(q.name) for q in host_params(p, "out")] \
        + ["workspace", "tiling"]
    launch = binding.index(f"ACLRT_LAUNCH_KERNEL({n.entry})(") + len(f"ACLRT_LAUNCH_KERNEL({n.entry})")
    assert call_args(binding, launch) == ["blockDim", "stream"] + [f"{e}.data_ptr()" for e in expected]
    assert f"ACLRT_LAUNCH_KERNEL({n.entry})" in binding and binding.count("ACLRT_LAUNCH_KERNEL(") == 1
    entry = re.search(rf"void {n.entry}\(([^)]*)\)", p.final[n.kernel_file])
    assert [a.split()[-1] for a in entry[1].split(",")] == expected          # ... which is the entry's own order
    # the tiling call: its arguments follow the parameters of the host function as the host file declares them
    host = p.final[n.host_file]
    declared = call_args(host, host.index(f"const char* {n.tiling_func}(") + len(f"const char* {n.tiling_func}"))
    declared = [d.split()[-1].lstrip("&*") for d in declared]
    called = call_args(binding, binding.index(f"{n.tiling_func}(\n") + len(n.tiling_func))
    roles = [re.sub(r'^ShapeOf\((\w+), "\w+"\)$|^&plan\.(\w+)$|^(\w+)$', lambda m: m[1] or m[2] or m[3], a) for a in called]
    assert roles == declared
    assert f'#include "{n.host_file}"' in binding and f'#include "aclrtlaunch_{n.entry}.h"' in binding
    assert "getCurrentNPUStream().stream(true)" in binding


@pytest.mark.parametrize("case", ["activation/relu", "loss/mse_loss"])
def test_kernel_source_is_byte_identical_to_what_the_emulator_built(case, tmp_path):
    p = pipeline(case, compile=True)
    build = p["align"].build
    assert build is not None and build.ok
    cann = cann_project(p.final, p.lowering, task=p.task)
    folder = cann.write(tmp_path / "project")
    n = p.lowering.names
    for name in (n.kernel_file, n.tiling_file, n.host_file):
        assert cann[name] == build.sources[name]
        assert (folder / name).read_bytes() == build.sources[name].encode()


def test_write_cann_project_from_a_pipeline(tmp_path):
    p = pipeline("activation/relu")
    folder = write_cann_project(p, tmp_path / "relu", soc_version="Ascend910B3")
    assert json.loads((folder / NPU_MANIFEST).read_text())["core_num"] == 40   # the 910B3 profile
    assert 'set(SOC_VERSION "Ascend910B3"' in (folder / "CMakeLists.txt").read_text()
    unfinished = Pipeline(p.dsl, "relu.py", task=p.task, compile=False)
    with pytest.raises(AscendCraftError, match="has not run every pass"):
        write_cann_project(unfinished, tmp_path / "x")


# ---------------------------------------------------------------------------------------------------------------
# The binding, compiled and run against stand-in headers

STANDIN_TORCH = r"""// Stand-in for <torch/extension.h>, written for AscendCraft's tests: the few PyTorch C++ names the generated
// bindings use, implemented on host memory so a binding runs without torch or an NPU. Not PyTorch code.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace c10 {
enum class DeviceType { CPU, PrivateUse1 };
enum class ScalarType { Byte, Char, Short, Int, Long, Half, Float, Bool, BFloat16, UInt16, UInt32 };
inline std::ostream& operator<<(std::ostream& o, ScalarType t) { return o << "dtype#" << static_cast<int>(t); }
inline int64_t elementSize(ScalarType t)
{
    switch (t) {
        case ScalarType::Byte: case ScalarType::Char: case ScalarType::Bool: return 1;
        case ScalarType::Short: case ScalarType::Half: case ScalarType::BFloat16: case ScalarType::UInt16: return 2;
        case ScalarType::Long: return 8;
        default: return 4;
    }
}
class Device {
public:
    Device(DeviceType type = DeviceType::CPU, int index = 0) : type_(type), index_(index) {}
    DeviceType type() const { return type_; }
    bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
private:
    DeviceType type_;
    int index_;
};
inline std::ostream& operator<<(std::ostream& o, const Device& d) { return o << (d.type() == DeviceType::CPU ? "cpu" : "npu"); }
}  // namespace c10

namespace at {
using c10::Device;
using c10::ScalarType;
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
    kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half, kFloat = ScalarType::Float,
    kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16, kUInt16 = ScalarType::UInt16, kUInt32 = ScalarType::UInt32;

class TensorOptions {
public:
    TensorOptions() = default;
    TensorOptions(Device device) : device_(device) {}
    TensorOptions dtype(ScalarType t) const { TensorOptions o = *this; o.dtype_ = t; return o; }
    ScalarType dtype_ = ScalarType::Float;
    Device device_;
};

class Tensor {
public:
    Tensor() = default;
    Tensor(std::vector<int64_t> sizes, TensorOptions options) : sizes_(std::move(sizes)), options_(options)
    {
        storage_ = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(nbytes()) + 1);
    }
    int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
    int64_t size(int64_t d) const { return sizes_.at(static_cast<size_t>(d)); }
    int64_t numel() const { int64_t n = 1; for (int64_t s : sizes_) n *= s; return n; }
    int64_t nbytes() const { return numel() * c10::elementSize(options_.dtype_); }
    ScalarType scalar_type() const { return options_.dtype_; }
    Device device() const { return options_.device_; }
    bool is_contiguous() const { return true; }
    void* data_ptr() const { return storage_->data(); }
    TensorOptions options() const { return options_; }
    const std::vector<int64_t>& shape() const { return sizes_; }
    Tensor to(TensorOptions target, bool non_blocking = false, bool copy = false) const;
private:
    std::vector<int64_t> sizes_;
    TensorOptions options_;
    std::shared_ptr<std::vector<uint8_t>> storage_;
};

// Every tensor empty() made, so a test can tell what a raw pointer points at.
inline std::map<const void*, Tensor>& allocations() { static std::map<const void*, Tensor> all; return all; }
inline Tensor empty(const std::vector<int64_t>& sizes, TensorOptions options = {})
{
    Tensor t(sizes, options);
    allocations()[t.data_ptr()] = t;
    return t;
}
inline Tensor Tensor::to(TensorOptions target, bool, bool) const
{
    Tensor t = empty(sizes_, TensorOptions(target.device_).dtype(options_.dtype_));
    std::memcpy(t.data_ptr(), data_ptr(), static_cast<size_t>(nbytes()));
    return t;
}
}  // namespace at

namespace standin {
template <typename... A>
[[noreturn]] void fail(const A&... parts) { std::ostringstream s; (s << ... << parts); throw std::runtime_error(s.str()); }
}  // namespace standin
#define TORCH_CHECK(cond, ...) do { if (!(cond)) ::standin::fail(__VA_ARGS__); } while (0)

namespace py {
class list {
public:
    void append(int64_t v) { ints.push_back(v); }
    void append(const list& l) { lists.push_back(l); }
    std::vector<int64_t> ints;
    std::vector<list> lists;
};
class dict {
public:
    class item {
    public:
        item(dict* d, std::string key) : d_(d), key_(std::move(key)) {}
        template <typename T> item& operator=(const T& v)
        {
            if constexpr (std::is_integral_v<T>) d_->ints[key_] = static_cast<int64_t>(v);
            else if constexpr (std::is_same_v<T, at::Tensor>) d_->tensors[key_] = v;
            else if constexpr (std::is_same_v<T, list>) d_->lists[key_] = v;
            else static_assert(!sizeof(T*), "a value this stand-in dict cannot hold");
            return *this;
        }
    private:
        dict* d_;
        std::string key_;
    };
    item operator[](const char* key) { return item(this, key); }
    std::map<std::string, int64_t> ints;
    std::map<std::string, at::Tensor> tensors;
    std::map<std::string, list> lists;
};
struct arg {
    explicit arg(const char* n) : name(n) {}
    template <typename T> arg operator=(const T&) const { return *this; }
    const char* name;
};
class module_ {
public:
    struct docstring { docstring& operator=(const char*) { return *this; } };
    docstring doc() { return docstring{}; }
    template <typename R, typename... A, typename... Extra>
    module_& def(const char* name, R (*fn)(A...), const char* doc, const Extra&... extra)
    {
        static_assert(sizeof...(Extra) == sizeof...(A), "one py::arg per parameter");
        (void)fn; (void)doc; (void)sizeof...(extra);
        names.push_back(name);
        return *this;
    }
    std::vector<std::string> names;
};
}  // namespace py
#define PYBIND11_MODULE(name, variable) void standin_module_init(py::module_& variable)
"""

STANDIN_ACL = """// Stand-in for ACL's acl_base.h (AscendCraft tests): the stream handle type only.
#pragma once
#include <cstdint>
typedef void* aclrtStream;
"""

STANDIN_NPU_STREAM = """// Stand-in for torch_npu's NPUStream.h (AscendCraft tests): the current stream, remembering how it was asked for.
#pragma once
#include "acl/acl_base.h"
namespace c10_npu {
inline aclrtStream standin_current_stream() { return reinterpret_cast<aclrtStream>(0x5eed); }
class NPUStream {
public:
    aclrtStream stream(bool need_empty) const { last_need_empty() = need_empty; return standin_current_stream(); }
    static bool& last_need_empty() { static bool value = false; return value; }
};
inline NPUStream getCurrentNPUStream(signed char device_index = -1) { (void)device_index; return NPUStream(); }
}  // namespace c10_npu
"""


def standin_headers(folder: Path) -> Path:
    for rel, text in {"torch/extension.h": STANDIN_TORCH, "acl/acl_base.h": STANDIN_ACL,
                      "torch_npu/csrc/core/npu/NPUStream.h": STANDIN_NPU_STREAM}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def launch_header(p: Pipeline) -> str:
    "What ascendc_library generates for the entry: one void* per kernel parameter, in the entry's order."
    n = p.lowering.names
    entry = re.search(rf"void {n.entry}\(([^)]*)\)", p.final[n.kernel_file])
    params = ", ".join(f"void* {a.split()[-1]}" for a in entry[1].split(","))
    return ("#pragma once\n#include \"acl/acl_base.h\"\n#ifndef ACLRT_LAUNCH_KERNEL\n"
            "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n"
            f"extern \"C\" uint32_t aclrtlaunch_{n.entry}(uint32_t blockDim, aclrtStream stream, {params});\n")


def _literal(value) -> str:
    if isinstance(value, bool): return "true" if value else "false"
    if isinstance(value, float): return repr(value)
    return str(int(value))


def driver(p: Pipeline, plan, args: list) -> str:
    "A main() that runs the binding's full call and plan on stand-in NPU tensors, next to the emulator's host entry."
    n = p.lowering.names
    ins, outs, scalars = host_params(p, "gm"), host_params(p, "out"), host_params(p, "scalar")
    nparams = len(ins) + len(outs) + 2
    lines = [f'#include "{n.op}_torch.cpp"', "#include <cstdio>", "",
             "static uint32_t g_block = 0;", "static aclrtStream g_stream = nullptr;", "static std::vector<void*> g_args;",
             f'extern "C" uint32_t aclrtlaunch_{n.entry}(uint32_t blockDim, aclrtStream stream, '
             + ", ".join(f"void* a{i}" for i in range(nparams)) + ")", "{",
             "    g_block = blockDim; g_stream = stream;",
             "    g_args = {" + ", ".join(f"a{i}" for i in range(nparams)) + "};", "    return 0;", "}", "",
             "static std::string Hex(const void* p, size_t n)",
             "{", "    std::string s; char b[3];",
             "    for (size_t i = 0; i < n; i++) { std::snprintf(b, 3, \"%02x\", static_cast<const unsigned char*>(p)[i]); s += b; }",
             "    return s;", "}", "",
             "static void Report(const std::vector<std::pair<const char*, const at::Tensor*>>& named)", "{",
             '    std::printf("launch %u %d %d\\n", g_block, g_stream == c10_npu::standin_current_stream(), '
             "int(c10_npu::NPUStream::last_need_empty()));",
             "    for (void* ptr : g_args) {", '        const char* role = "?";',
             "        for (const auto& [name, t] : named) if (t->data_ptr() == ptr) role = name;",
             "        auto it = at::allocations().find(ptr);",
             "        const long long bytes = it == at::allocations().end() ? -1 : it->second.nbytes();",
             '        std::printf("arg %s %lld %s\\n", role, bytes, bytes >= 0 && bytes <= 4096 ? Hex(ptr, size_t(bytes)).c_str() : "-");',
             "    }", "}", "", "int main()", "{",
             "    const at::TensorOptions npu(c10::Device(c10::DeviceType::PrivateUse1, 0));"]
    for q in ins:
        shape = ", ".join(str(d) for d in plan.binding[q.name].shape)
        lines.append(f"    at::Tensor {ident(q.name)} = at::empty({{{shape}}}, npu.dtype({AT_DTYPES[q.dtype.name]}));")
    lines += [f"    const int64_t host_args[] = {{{', '.join(str(a) for a in args)}}};",
              f"    alignas(8) unsigned char emu_tiling[sizeof({n.tiling})] = {{}};",
              "    uint32_t emu_block = 0; uint64_t emu_ws = 0;",
              f"    const int rc = ascendcraft_tiling(host_args, {len(args)}, emu_tiling, sizeof(emu_tiling), &emu_block, &emu_ws);",
              '    std::printf("emulator %d %u %llu %s\\n", rc, emu_block, (unsigned long long)emu_ws, Hex(emu_tiling, sizeof(emu_tiling)).c_str());']
    call = ", ".join([ident(q.name) for q in ins] + [_literal(plan.env[q.name]) for q in scalars] + [str(TARGET.cores), str(TARGET.ub_bytes)])
    lines.append(f"    auto result = {n.camel}Call({call});")
    if len(outs) == 1:
        lines.append(f"    at::Tensor out0 = result;")
    else:
        lines += [f"    at::Tensor out{i} = std::get<{i}>(result);" for i in range(len(outs))]
    named = [f'{{"{q.name}", &{ident(q.name)}}}' for q in ins] + [f'{{"{q.name}", &out{i}}}' for i, q in enumerate(outs)]
    lines.append(f"    Report({{{', '.join(named)}}});")
    for i, q in enumerate(outs):
        lines.append(f'    std::printf("shape {q.name}"); for (int64_t d : out{i}.shape()) std::printf(" %lld", (long long)d); std::printf("\\n");')
    lines += [f"    py::dict plan = {n.camel}Plan({call});",
              '    std::printf("plan %lld %lld %s %zu\\n", (long long)plan.ints["block_dim"], (long long)plan.ints["workspace_bytes"], '
              'Hex(plan.tensors["tiling"].data_ptr(), size_t(plan.tensors["tiling"].nbytes())).c_str(), plan.lists["output_shapes"].lists.size());',
              "    py::module_ m;", "    standin_module_init(m);",
              '    std::printf("module"); for (const auto& name : m.names) std::printf(" %s", name.c_str()); std::printf("\\n");',
              "    return 0;", "}", ""]
    return "\n".join(lines)


@needs_cc
@pytest.mark.parametrize("case", CASES, ids=[c.split("/")[1] for c in CASES])
def test_binding_runs_against_standin_headers(case, tmp_path):
    """Compile the binding (with the host file it includes) and run its full call and plan on stand-in tensors:
    the launch gets the emulator's block count, tiling bytes and workspace size, and the tensors in entry order."""
    p, cann = project_of(case)
    n = p.lowering.names
    folder = cann.write(tmp_path / "project")
    (folder / f"aclrtlaunch_{n.entry}.h").write_text(launch_header(p))
    include = standin_headers(tmp_path / "standin")
    binding = shape_bindings(p.program, p.task, sizes=("small",))[0]
    plan = evaluate_host(p.program, binding, TARGET)
    (folder / "driver.cpp").write_text(driver(p, plan, host_args(p.program, plan, TARGET)))
    build = subprocess.run(["g++", "-std=c++17", "-O0", "-Wall", "-I", str(include), "-I", str(folder), "driver.cpp",
                            "-o", "driver"], cwd=folder, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    assert f"{n.op}_torch.cpp:" not in build.stderr, build.stderr[-3000:]   # the binding compiles without warnings
    run = subprocess.run(["./driver"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout.splitlines()
    emu = out[0].split()
    assert emu[:2] == ["emulator", "0"], out[0]
    emu_block, emu_ws, emu_tiling = int(emu[2]), int(emu[3]), emu[4]
    assert emu_block == plan.blocks
    launch = out[1].split()
    assert launch == ["launch", str(emu_block), "1", "1"]      # the emulator's blocks; current stream, queue drained
    args = [line.split() for line in out[2:] if line.startswith("arg ")]
    ins, outs = [q.name for q in host_params(p, "gm")], [q.name for q in host_params(p, "out")]
    assert [a[1] for a in args] == ins + outs + ["?", "?"]       # inputs, outputs, then two buffers of its own
    assert int(args[-2][2]) == emu_ws                            # workspace: the size the host code asked for
    assert args[-1][3] == emu_tiling                             # tiling: the emulator's bytes, on the device
    shapes = {line.split()[1]: tuple(int(d) for d in line.split()[2:]) for line in out if line.startswith("shape ")}
    assert shapes == {name: tuple(spec.shape) for name, spec in plan.outputs.items()}
    plan_line = next(line for line in out if line.startswith("plan ")).split()
    assert plan_line[1:] == [str(emu_block), str(emu_ws), emu_tiling, str(len(outs))]
    assert out[-1].split() == ["module", n.op, f"{n.op}_plan", f"{n.op}_launch"]


def standin_torch_npu(folder: Path) -> Path:
    "A stand-in torch_npu package: NpuExtension is torch's CppExtension plus the stand-in NPU and ACL headers."
    include = standin_headers(folder / "include")
    shutil.rmtree(include / "torch")                                     # the real torch headers are used here
    (folder / "torch_npu/utils").mkdir(parents=True)
    (folder / "torch_npu/__init__.py").write_text("")
    (folder / "torch_npu/utils/__init__.py").write_text("")
    (folder / "torch_npu/utils/cpp_extension.py").write_text(
        "from torch.utils.cpp_extension import CppExtension\n\n\n"
        "def NpuExtension(name, sources, *args, include_dirs=(), **kwargs):\n"
        f"    return CppExtension(name, sources, *args, include_dirs=[*include_dirs, {str(include)!r}], **kwargs)\n")
    return folder


def installed_kernel_library(p: Pipeline, folder: Path, include: Path) -> None:
    "What `cmake --install` leaves in out/: the launch header and a (stand-in) kernel library that defines it."
    n = p.lowering.names
    header = folder / "out" / "include" / f"{n.op}_kernels" / f"aclrtlaunch_{n.entry}.h"
    header.parent.mkdir(parents=True)
    header.write_text(launch_header(p))
    lib = folder / "out" / "lib"
    lib.mkdir(parents=True)
    nparams = len(re.search(rf"void {n.entry}\(([^)]*)\)", p.final[n.kernel_file])[1].split(","))
    (lib / "kernel.cpp").write_text(f'#include "{header}"\nextern "C" uint32_t aclrtlaunch_{n.entry}(uint32_t, aclrtStream, '
                                    + ", ".join("void*" for _ in range(nparams)) + ") { return 1; }\n")
    subprocess.run(["g++", "-shared", "-fPIC", "-I", str(include), str(lib / "kernel.cpp"), "-o",
                    str(lib / f"lib{n.op}_kernels.so")], check=True)


def emulator_tiling(p: Pipeline, args: list, folder: Path) -> tuple:
    "(blocks, workspace bytes, tiling bytes) from the host file's flat entry, the one the emulator calls."
    import ctypes
    n = p.lowering.names
    subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC", "-I", str(folder), str(folder / n.host_file), "-o",
                    str(folder / "host.so")], check=True)
    host = ctypes.CDLL(str(folder / "host.so"))
    flat, tiling = (ctypes.c_int64 * len(args))(*args), ctypes.create_string_buffer(4096)
    blocks, workspace = ctypes.c_uint32(), ctypes.c_uint64()
    assert host.ascendcraft_tiling(flat, len(args), tiling, 4096, ctypes.byref(blocks), ctypes.byref(workspace)) == 0
    return blocks.value, workspace.value, tiling.raw


@pytest.mark.slow
@needs_cc
def test_setup_py_builds_the_binding_with_real_torch_and_it_plans_like_the_emulator(tmp_path):
    """The generated setup.py, run for real (torch's BuildExtension, pybind11, the real torch headers; only torch_npu's
    NpuExtension and the NPU/ACL headers are stand-ins): the module imports, its plan is the emulator's tiling, and
    its full call refuses CPU tensors. A second binding (several outputs, bf16) is checked against the same headers."""
    pytest.importorskip("torch.utils.cpp_extension")
    import sysconfig
    from torch.utils.cpp_extension import include_paths
    fake = standin_torch_npu(tmp_path / "fake")
    env = {**os.environ, "PYTHONPATH": str(fake), "CFLAGS": "-O0", "MAX_JOBS": "1"}
    syntax = None
    if "mhc/mhc_post_grad" in CASES:
        q, other = project_of("mhc/mhc_post_grad")
        folder = other.write(tmp_path / q.lowering.names.op)
        (folder / f"aclrtlaunch_{q.lowering.names.entry}.h").write_text(launch_header(q))
        syntax = subprocess.Popen(["g++", "-std=c++17", "-fsyntax-only", *[f"-I{d}" for d in include_paths()],
                                   f"-I{sysconfig.get_paths()['include']}", f"-I{fake / 'include'}", f"-I{folder}",
                                   "-DTORCH_EXTENSION_NAME=ascendcraft_mhc_post_grad", str(folder / f"{q.lowering.names.op}_torch.cpp")],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    p, cann = project_of("activation/leaky_relu")
    folder = cann.write(tmp_path / "leaky_relu")
    installed_kernel_library(p, folder, fake / "include")
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder, env=env,
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-3000:]
    assert sorted(folder.glob("ascendcraft_leaky_relu*.so")) and (folder / "build-ext").is_dir()
    assert "leaky_relu_torch.cpp:" not in build.stdout + build.stderr           # no warning in the binding
    binding = shape_bindings(p.program, p.task, sizes=("small",))[0]
    plan = evaluate_host(p.program, binding, TARGET)
    shape = list(plan.binding["x"].shape)
    probe = ("import json, sys, torch\nsys.path.insert(0, '.')\nimport ascendcraft_leaky_relu as ext\n"
             f"p = ext.leaky_relu_plan(torch.zeros({shape}))\n"
             "out = {'blocks': p['block_dim'], 'workspace': p['workspace_bytes'], 'tiling': bytes(p['tiling'].tolist()).hex(),"
             " 'shapes': p['output_shapes']}\n"
             "try:\n    ext.leaky_relu(torch.zeros(3))\nexcept RuntimeError as e:\n    out['refused'] = str(e).splitlines()[0]\n"
             "print(json.dumps(out))\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.splitlines()[-1])
    blocks, workspace, tiling = emulator_tiling(p, host_args(p.program, plan, TARGET), folder)
    assert (got["blocks"], got["workspace"]) == (blocks, workspace) == (plan.blocks, 0)
    assert bytes.fromhex(got["tiling"]) == tiling[:len(bytes.fromhex(got["tiling"]))] and got["tiling"]
    assert got["shapes"] == [list(plan.outputs["y"].shape)]
    assert got["refused"] == "x must be an NPU tensor (it is on cpu)"
    if syntax is not None:
        log, _ = syntax.communicate(timeout=900)
        errors = [l for l in log.splitlines() if "error" in l]
        assert syntax.returncode == 0 and not errors, "\n".join(errors[:20])


# ---------------------------------------------------------------------------------------------------------------
# Detection

def settings(ascend_home: str = ""):
    return load_settings().replace(ascend_home=ascend_home)


def fake_cann(folder: Path, module: str = "", devices: int | None = None, bisheng: str = "") -> Path:
    "A folder laid out like a CANN toolkit; with `devices`, a stand-in libascendcl.so that reports that many NPUs."
    root = folder / "ascend-toolkit" / "latest"
    compiler = root / "compiler/ccec_compiler/bin/bisheng"
    compiler.parent.mkdir(parents=True)
    compiler.write_text(bisheng or "#!/bin/sh\necho 'bisheng (stand-in)'\nexit 1\n")
    compiler.chmod(0o755)
    modules = root / "compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake"
    modules.parent.mkdir(parents=True)
    modules.write_text(module)
    (root.parent / "set_env.sh").write_text(f"export ASCEND_HOME_PATH={root}\n")
    if devices is not None:
        (root / "lib64").mkdir()
        c = folder / "acl.c"
        c.write_text("#include <stdint.h>\nint aclInit(const char* config) { (void)config; return 0; }\n"
                     "int aclFinalize(void) { return 0; }\n"
                     f"int aclrtGetDeviceCount(uint32_t* count) {{ *count = {devices}; return 0; }}\n"
                     'const char* aclrtGetSocName(void) { return "Ascend910B2"; }\n')
        subprocess.run(["gcc", "-shared", "-fPIC", str(c), "-o", str(root / "lib64/libascendcl.so")], check=True)
        c.with_name("hccl.c").write_text("int HcclStandIn(void) { return 0; }\n")
        subprocess.run(["gcc", "-shared", "-fPIC", str(c.with_name("hccl.c")), "-o", str(root / "lib64/libhccl.so")], check=True)
    return root


def test_detection_without_cann_gives_the_clear_line():
    env = detect(settings(), env=PATH_ONLY, default_roots=())
    assert not env.available and not env.can_build and env.cann_root is None
    assert env.missing == ("no CANN toolkit: set ascend_home in settings.ini or ASCEND_HOME_PATH to a CANN 8.x toolkit "
                           "(it needs bisheng), e.g. /usr/local/Ascend/ascend-toolkit/latest (the CPU emulation and "
                           "modelled timing work without it)")
    assert "no CANN toolkit" in env.summary()
    with pytest.raises(AscendCraftError) as e:
        env.require("build")
    assert e.value.kinds == ["no-cann"]


def test_detection_reads_ascend_home_path_and_settings_win(tmp_path):
    root = fake_cann(tmp_path / "a")
    other = fake_cann(tmp_path / "b")
    from_env = detect(settings(), env={**PATH_ONLY, "ASCEND_HOME_PATH": str(root)}, default_roots=())
    assert from_env.cann_root == root.resolve() and from_env.root_from == "ASCEND_HOME_PATH"
    from_settings = detect(settings(str(other)), env={**PATH_ONLY, "ASCEND_HOME_PATH": str(root)}, default_roots=())
    assert from_settings.cann_root == other.resolve() and from_settings.root_from.startswith("ascend_home")


@needs_cc
def test_detection_recognises_a_fake_cann_tree_and_its_devices(tmp_path):
    root = fake_cann(tmp_path, devices=2)
    env = detect(settings(str(root)), env=PATH_ONLY)
    assert env.compiler == (root / "compiler/ccec_compiler/bin/bisheng").resolve()
    assert env.cmake_modules == (root / "compiler/tikcpp/ascendc_kernel_cmake").resolve()
    assert env.set_env == (root.parent / "set_env.sh").resolve()
    assert env.acl_library == (root / "lib64/libascendcl.so").resolve()
    assert (env.device_count, env.soc_version) == (2, "Ascend910B2")     # asked from (stand-in) ACL
    assert env.can_build == (shutil.which("cmake") is not None)
    assert [p.kind for p in env.problems] == ["no-torch-npu"]             # torch_npu is all that is missing here
    assert env.missing.startswith("torch_npu is not installed: pip install")
    none = detect(settings(str(fake_cann(tmp_path / "zero", devices=0))), env=PATH_ONLY)
    assert [p.kind for p in none.problems] == ["no-torch-npu", "no-device"]
    assert "ACL counts 0 devices" in none.problems[1].what


@needs_cc
def test_torch_npu_is_only_ever_imported_in_a_child_process(tmp_path, monkeypatch):
    "An installed torch_npu without CANN is reported (it breaks `import torch`); with CANN it is imported in a child."
    package = tmp_path / "site" / "torch_npu"
    package.mkdir(parents=True)
    marker = tmp_path / "imported"
    (package / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('x')\n"
                                         "raise ImportError('libhccl.so: cannot open shared object file')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    broken = detect(settings(), env=PATH_ONLY, default_roots=())
    kinds = [p.kind for p in broken.problems]
    assert kinds[0] == "no-cann" and "torch-npu-broken" in kinds
    assert "breaks `import torch`" in broken.problems[kinds.index("torch-npu-broken")].what
    assert not marker.exists() and "torch_npu" not in sys.modules
    root = fake_cann(tmp_path / "cann", devices=1)
    child = detect(settings(str(root)), env={**PATH_ONLY, "PYTHONPATH": str(tmp_path / "site")})
    problem = next(p for p in child.problems if p.kind == "torch-npu-broken")
    assert "does not import (ImportError: libhccl.so: cannot open shared object file)" in problem.what
    assert marker.exists() and "torch_npu" not in sys.modules            # the child imported it, this process did not
    assert not child.torch_npu_importable and child.device_count == 1


# ---------------------------------------------------------------------------------------------------------------
# Building

def written(case: str, folder: Path) -> Path:
    p, cann = project_of(case)
    return cann.write(folder)


def test_build_without_cann_raises_the_clear_line(tmp_path):
    env = detect(settings(), env=PATH_ONLY, default_roots=())
    with pytest.raises(AscendCraftError, match="no CANN toolkit") as e:
        build_cann(written("activation/relu", tmp_path / "relu"), env)
    assert e.value.kinds == ["no-cann"]
    assert not (tmp_path / "relu" / "logs").exists()                      # nothing ran


@needs_cmake
def test_build_with_a_fake_cann_fails_at_the_cmake_line(tmp_path):
    "The fake toolkit's ascendc.cmake defines nothing: CMake stops at the ascendc_library line."
    env = detect(settings(str(fake_cann(tmp_path))), env=PATH_ONLY)
    folder = written("activation/relu", tmp_path / "relu")
    build = build_cann(folder, env, timeout=300)
    assert not build.ok and [s.name for s in build.steps] == ["configure"]
    line = next(i for i, l in enumerate((folder / "CMakeLists.txt").read_text().splitlines(), 1) if l.startswith("ascendc_library("))
    d = build.errors[0]
    assert (d.kind, d.file, d.line) == ("cmake-error", "CMakeLists.txt", line)
    assert 'Unknown CMake command "ascendc_library"' in d.message and d.source_line.startswith("ascendc_library(")
    assert "ascendc.cmake does not define it" in d.hint
    assert (folder / "logs" / "configure.log").read_text().startswith("$ ")


FAKE_MODULE = """# ascendc_library for tests: runs the toolkit's (stand-in) bisheng on the kernel sources
function(ascendc_library target kind)
    add_custom_target(${target} ALL COMMAND "${ASCEND_CANN_PACKAGE_PATH}/compiler/ccec_compiler/bin/bisheng" ${ARGN}
                      WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
endfunction()
function(ascendc_include_directories)
endfunction()
function(ascendc_compile_definitions)
endfunction()
"""


@needs_cmake
def test_build_with_a_fake_cann_reports_compiler_errors_at_kernel_lines(tmp_path):
    "A (stand-in) bisheng error in clang's format becomes a diagnostic at the kernel's line, after a clean configure."
    bisheng = "#!/bin/sh\necho \"$(pwd)/$1:5:10: error: use of undeclared identifier 'Relu'\" >&2\nexit 1\n"
    env = detect(settings(str(fake_cann(tmp_path, FAKE_MODULE, bisheng=bisheng))), env=PATH_ONLY)
    folder = written("activation/relu", tmp_path / "relu")
    build = build_cann(folder, env, timeout=300)
    assert not build.ok and [(s.name, s.ok) for s in build.steps] == [("configure", True), ("build", False)]
    d = build.errors[0]
    assert (d.kind, d.file, d.line, d.col) == ("compile-error", "relu_kernel.cpp", 5, 10)
    assert d.message == "use of undeclared identifier 'Relu'"
    assert d.source_line == (folder / "relu_kernel.cpp").read_text().splitlines()[4]
    assert "relu_kernel.cpp:5:10" in (folder / "logs" / "build.log").read_text()


def test_build_of_a_folder_that_is_not_a_cann_project(tmp_path):
    env = detect(settings(str(fake_cann(tmp_path))), env=PATH_ONLY)
    if not env.can_build:
        pytest.skip("cmake is not installed")
    with pytest.raises(AscendCraftError, match="has no ascendcraft_npu.json"):
        build_cann(tmp_path, env)


# ---------------------------------------------------------------------------------------------------------------
# Running and timing need an NPU

def test_timing_and_loading_without_an_npu_give_the_clear_line(tmp_path):
    env = detect(settings(), env=PATH_ONLY, default_roots=())
    with pytest.raises(AscendCraftError, match="no CANN toolkit") as e:
        time_on_npu(lambda: None, eager=lambda: None, env=env)
    assert e.value.kinds == ["no-cann"]
    with pytest.raises(AscendCraftError, match="no CANN toolkit"):
        load_kernel(written("activation/relu", tmp_path / "relu"), env)


@needs_cc
def test_timing_with_cann_but_no_torch_npu_names_torch_npu(tmp_path):
    env = detect(settings(str(fake_cann(tmp_path, devices=1))), env=PATH_ONLY)
    with pytest.raises(AscendCraftError, match="torch_npu is not installed") as e:
        time_on_npu(lambda: None, env=env)
    assert e.value.kinds == ["no-torch-npu"]


# ---------------------------------------------------------------------------------------------------------------
# The Python side of a loaded extension, with a test double for the compiled module

class FakeExtension:
    "Stands in for a compiled ascendcraft_<op> module: records launches, computes the output with torch."

    def __init__(self, op: str, compute):
        self.calls = []
        setattr(self, op, lambda x, core_num=48, ub_bytes=196608: compute(x))
        setattr(self, f"{op}_plan", lambda x, core_num=48, ub_bytes=196608: {
            "block_dim": 7, "workspace_bytes": 64, "tiling": __import__("torch").zeros(20, dtype=__import__("torch").uint8),
            "output_shapes": [list(x.shape)]})
        setattr(self, f"{op}_launch", lambda *args: self.calls.append(args))


def loaded(case: str, folder: Path, module) -> "NpuKernel":
    from ascendcraft.dsl import parse
    from ascendcraft.npu import NpuKernel, read_manifest
    written(case, folder)
    manifest = read_manifest(folder)
    return NpuKernel(folder, manifest, module, parse((folder / manifest["dsl"]).read_text(), manifest["dsl_filename"]), "cpu")


def test_loaded_kernel_glue_launcher_candidate_and_arguments(tmp_path):
    import torch
    from ascendcraft.verify import verify
    fake = FakeExtension("relu", torch.relu)
    kernel = loaded("activation/relu", tmp_path / "relu", fake)
    x = torch.randn(3, 5)
    kernel.launcher(x=x)()
    (xin, y, workspace, tiling, blocks), = fake.calls
    assert xin is x and y.shape == x.shape and y.dtype == torch.float32
    assert (workspace.numel(), workspace.dtype, tiling.numel(), blocks) == (64, torch.uint8, 20, 7)
    task = pipeline("activation/relu").task
    assert verify(task, kernel.candidate(task, "small"), size="small", trials=1).passed
    with pytest.raises(AscendCraftError, match="relu has no parameter"):
        kernel(x=x, slope=0.1)
    norm = loaded("normalization/layer_norm", tmp_path / "ln", FakeExtension("layer_norm", lambda x: x))
    task = pipeline("normalization/layer_norm").task
    inputs = task.inputs("small")
    values = norm.arguments(task, inputs, "small")
    weight = task.model("small").ln.weight
    assert sorted(values) == ["ln_bias", "ln_weight", "x"] and values["ln_weight"].shape == weight.shape


class _StepClock:
    "A stand-in clock: every timed call takes `step` ms more than the one before; counts synchronisations."
    where = "stand-in clock (no NPU)"
    flush_bytes = 0

    def __init__(self): self.t, self.syncs, self.flushes = 0.0, 0, 0
    def event(self): return [0.0]
    def record(self, e): e[0] = self.t
    def elapsed_ms(self, a, b): return b[0] - a[0]
    def synchronize(self): self.syncs += 1
    def flush(self): self.flushes += 1


def test_time_on_npu_follows_upstream_multikernelbench_protocol_by_default():
    clock, calls = _StepClock(), []

    def fn():                                   # each call advances the injected clock: 1, 2, 3, ... ms
        calls.append(1)
        clock.t += len(calls)

    timing = time_on_npu(fn, clock=clock)
    k = timing.kernel
    assert (k.warmup_calls, k.runs, k.flush_bytes, k.statistic) == (3, 100, 0, "mean")
    assert k.samples_ms == tuple(float(i) for i in range(4, 104))     # the 3 warm-up calls are not timed
    assert k.value_ms == pytest.approx(53.5) and clock.flushes == 0
    assert clock.syncs == 103                                        # every warm-up and every timed call synchronised
    both = time_on_npu(fn, eager=fn, clock=clock)
    assert both.speedup == pytest.approx(both.eager.mean_ms / both.kernel.mean_ms) and both.speedup > 1
    assert "MultiKernelBench protocol: 3 warm-up calls, 100 timed runs, the mean" in both.render()
    flushed = time_on_npu(fn, clock=clock, protocol="flushed", iters=10, warmup_ms=0.0)
    assert flushed.kernel.statistic == "median" and clock.flushes > 0
    with pytest.raises(AscendCraftError, match="unknown timing protocol"):
        time_on_npu(fn, clock=clock, protocol="fast")
