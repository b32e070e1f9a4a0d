"""The corpus harness's argument mapping (examples/corpus/corpus.py): which argument of the call a task's ModelNew makes is
which input, attribute and output of the op definition, read from the task's validation/pybind.cpp (the generated aclnn
API's order) or, where that file calls another API, from ModelNew's parameter names. Fast: no build, no run."""
import json
import multiprocessing
import os
import re
import signal
import time
from pathlib import Path

import pytest
import torch

from _corpus import git_repo, load_beside, load_corpus
from ascendcraft.opproject import OpAttr, OpDefinition, OpParam

corpus = load_corpus("corpus_harness_map")
pybind_calls = load_beside("pybind_calls")
npukb = load_beside("npukb")
asc_run = load_beside("asc_run")


def op(type_, inputs, outputs, attrs=()):
    return OpDefinition(type_, "op_host/x.cpp", 1, [OpParam(n) for n in inputs], [OpParam(n) for n in outputs],
                        [OpAttr(a, "float") for a in attrs])


ADD_LAYER_NORM = """
#include "pytorch_npu_helper.hpp"
// EXEC_NPU_CMD(aclnnCustomOp, commented, out);
std::vector<at::Tensor> custom_pybind_api(at::Tensor x1, at::Tensor x2, c10::optional<at::Tensor> bias, at::Tensor gamma,
                                          at::Tensor beta, float epsilon)
{
    at::Tensor yOut = torch::empty_like(x1);
    if (bias.has_value()) {
        EXEC_NPU_CMD(aclnnCustomOp, x1, x2, gamma, beta, bias, epsilon, yOut);
    } else {
        at::Tensor empty_tensor = at::Tensor();
        EXEC_NPU_CMD(aclnnCustomOp, x1, x2, gamma, beta, empty_tensor, epsilon, yOut);
    }
    return {yOut};
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("add_layer_norm", &custom_pybind_api, ""); }
"""


def test_the_generated_aclnn_call_in_pybind_says_which_argument_is_which_input():
    # the call passes (x1, x2, bias, gamma, beta, epsilon); the definition's inputs are x1, x2, gamma, beta, bias
    layout = pybind_calls.pybind_layout(ADD_LAYER_NORM, op("AddLayerNorm", ["x1", "x2", "gamma", "beta", "bias"], ["y"], ["epsilon"]), {})
    assert layout == {"inputs": [0, 1, 3, 4, 2], "attrs": [5], "results": ["y"]}


def test_ref_outputs_and_outputs_the_reference_does_not_return():
    # InplaceAddRmsNorm: the outputs x1, x2 are named like inputs (ref outputs: no aclnn argument); rstd is the only
    # plain output, and the bound function returns {x1, rstdOut, x2}
    inplace = """std::vector<at::Tensor> f(at::Tensor x1, at::Tensor x2, at::Tensor gamma, double epsilon) {
        at::Tensor rstdOut = at::empty({1});
        EXEC_NPU_CMD(aclnnCustomOp, x1, x2, gamma, epsilon, rstdOut);
        std::vector<at::Tensor> result = {x1, rstdOut, x2};
        return result;
    }
    PYBIND11_MODULE(kernel_gen_ops, m) { m.def("inplace_add_rms_norm", &f, ""); }"""
    definition = op("InplaceAddRmsNorm", ["x1", "x2", "gamma"], ["x1", "rstd", "x2"], ["epsilon"])
    assert pybind_calls.pybind_layout(inplace, definition, {}) == {"inputs": [0, 1, 2], "attrs": [3], "results": ["x1", "rstd", "x2"]}
    # RmsNorm: aclnn<OpType>, outputs y and rstd, and only y returned
    rms = """std::vector<at::Tensor> rms_norm(at::Tensor x, at::Tensor gamma, float epsilon) {
        at::Tensor yOut = at::empty_like(x); at::Tensor rstdOut = at::empty({1});
        EXEC_NPU_CMD(aclnnRmsNorm, x, gamma, epsilon, yOut, rstdOut);
        std::vector<at::Tensor> result = {yOut};
        return result;
    }
    PYBIND11_MODULE(kernel_gen_ops, m) { m.def("rms_norm", &rms_norm, ""); }"""
    assert pybind_calls.pybind_layout(rms, op("RmsNorm", ["x", "gamma"], ["y", "rstd"], ["epsilon"]), {})["results"] == ["y"]


def test_a_hand_written_aclnn_or_a_computed_argument_is_not_read_from_pybind():
    mse = """std::vector<at::Tensor> mse_loss_grad(at::Tensor gradOutput, at::Tensor self_input, at::Tensor target_input) {
        at::Tensor out = torch::empty_like(gradOutput);
        EXEC_NPU_CMD(aclnnMseLossBackward, gradOutput, self_input, target_input, out);
        return out;
    }
    PYBIND11_MODULE(kernel_gen_ops, m) { m.def("mse_loss_grad", &mse_loss_grad, ""); }"""
    definition = op("MseLossGradV2", ["predict", "label", "dout"], ["y"])
    assert pybind_calls.pybind_layout(mse, definition, {}) is None   # another API: its order is its own
    # the same call named as the op's generated API but written by the op_host itself: its order is the op_host's
    generated = mse.replace("aclnnMseLossBackward", "aclnnMseLossGradV2")
    assert pybind_calls.pybind_layout(generated, definition, {})["inputs"] == [0, 1, 2]
    host = {"op_host/aclnn_mse.cpp": "aclnnStatus aclnnMseLossGradV2GetWorkspaceSize(const aclTensor* a) { return 0; }"}
    assert pybind_calls.pybind_layout(generated, definition, host) is None
    computed = generated.replace("gradOutput, self_input, target_input, out);", "gradOutput, self_input, target_input.abs() + gradOutput, out);")
    assert pybind_calls.pybind_layout(computed, definition, {}) is None


PACKED = """
// the answer packs its weight in C++ before the aclnn call (LLM4AscendC conv3d_softmax_max_pool_max_pool, which passed
// on its 910B): the harness must hand the kernel the packed weight, not the argument ModelNew passed
static at::Tensor pack_weight(const at::Tensor& w)
{
    return w.permute({1,2,3,4,0}).contiguous().view({81, 16});
}
at::Tensor f(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
    auto weight_packed = pack_weight(weight);
    auto b = bias.view({16}).contiguous();
    auto y = at::empty({128, 16, 3, 7, 7}, x.options());
    EXEC_NPU_CMD(aclnnConvCustom, x, weight_packed, b, y);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("conv_custom", &f, ""); }
"""


def test_an_argument_the_extension_reorders_in_cpp_is_reordered_the_same_way_or_not_mapped():
    definition = op("ConvCustom", ["x", "weight_packed", "bias"], ["y"])
    layout = pybind_calls.pybind_layout(PACKED, definition, {})
    assert layout == {"inputs": [0, 1, 2], "attrs": [], "results": ["y"],
                      "steps": {1: [("permute", [1, 2, 3, 4, 0]), ("contiguous", []), ("view", [81, 16])],
                                2: [("reshape", [-1])]}}   # bias.view({16}): one dimension (a7820ae)
    w = torch.arange(16 * 81, dtype=torch.float32).reshape(16, 3, 3, 3, 3)
    got = w
    for name, args in layout["steps"][1]: got = getattr(got, name)(*args)
    assert torch.equal(got, w.permute(1, 2, 3, 4, 0).contiguous().view(81, 16))   # as the extension makes it
    # written in the call's own statement, the same
    inline = PACKED.replace("auto weight_packed = pack_weight(weight);", "auto weight_packed = weight.permute({1,2,3,4,0}).contiguous().view({81, 16});")
    assert pybind_calls.pybind_layout(inline, definition, {})["steps"] == layout["steps"]
    # a reordering the harness cannot repeat (an argument that is not a literal): the call is not mapped, and the
    # task has no reference rather than a kernel run on the unpacked weight
    other = PACKED.replace("w.permute({1,2,3,4,0})", "w.permute(order)")
    assert pybind_calls.pybind_layout(other, definition, {}) is None


def test_without_pybind_the_inputs_line_up_by_modelnew_parameter_names():
    # MseLossGradV2: ModelNew calls the op with (dout, predict, label); the definition's inputs are predict, label, dout
    class ModelNew(torch.nn.Module):
        def forward(self, input_predict, input_label, input_dout):
            return None
    given = [torch.zeros(2), torch.ones(2), torch.full((2,), 2.0)]
    call = [given[2], given[0], given[1]]
    got, note = pybind_calls.order_by_names(["predict", "label", "dout"], ModelNew().forward, given, call)
    assert [t is g for t, g in zip(got, given)] == [True, True, True] and "dout = argument 0" in note
    # names that do not match, or a tensor ModelNew made itself, leave the call's order alone
    got, note = pybind_calls.order_by_names(["a", "b", "c"], ModelNew().forward, given, call)
    assert got == call and note == ""
    made = [given[0] + 1, given[1], given[2]]
    got, note = pybind_calls.order_by_names(["predict", "label", "dout"], ModelNew().forward, given, made)
    assert [id(t) for t in got] == [id(made[0]), id(made[1]), id(made[2])] and note == ""


ASC_FILE = """#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"
template <uint32_t N>
__global__ __vector__ void scale_custom(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    // N elements
}
int32_t main(int32_t argc, char* argv[])
{
    constexpr uint32_t LEN = 256;
    aclrtSetDevice(0);
    scale_custom<LEN><<<8, nullptr, stream>>>(xDevice, yDevice);
    return 0;
}
"""


def test_a_single_source_asc_file_is_compiled_as_its_device_part():
    # asc-devkit's examples: kernels, then a host main() that launches them through ACL; the kernel is compiled alone,
    # line numbers kept, and the launch in main says which kernel and which template instance
    device = corpus.asc_kernel_source(ASC_FILE)
    lines = device.split("\n")
    assert len(lines) == len(ASC_FILE.split("\n")) and lines[2] == '#include "kernel_operator.h"'
    # the host helpers' includes stay (the emulation's acl/acl.h, the example's data_utils.h); main() and its launch go
    assert lines[:2] == ['#include "acl/acl.h"', '#include "data_utils.h"']
    assert "aclrtSetDevice" not in device and "main" not in device and "scale_custom(" in device
    debug = corpus.asc_kernel_source('#include "cpu_debug_launch.h"\n' + ASC_FILE)   # the CPU-debug launcher: host only
    assert debug.split("\n")[0] == "" and debug.split("\n")[1] == '#include "acl/acl.h"'
    assert corpus.asc_entry(ASC_FILE) == "scale_custom<256>"
    assert corpus.asc_entry(ASC_FILE.replace("<LEN><<<", "<<<")) == "scale_custom"
    assert corpus.asc_entry("__global__ void k() {}\nint main() { return 0; }\n") is None


HELPER_LAUNCH = """#include <vector>
#include "acl/acl.h"
#include "kernel_operator.h"
constexpr uint32_t scenarioNum = SCENARIO_NUM;
template <typename T, uint32_t blockLength>
__global__ __vector__ void twice(__gm__ T* x, __gm__ T* y)
{
    AscendC::GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer(x + AscendC::GetBlockIdx() * blockLength, blockLength);
    yg.SetGlobalBuffer(y + AscendC::GetBlockIdx() * blockLength, blockLength);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<T> a = ub.Alloc<T, blockLength>();
    AscendC::DataCopy(a, xg, blockLength);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(a, a, a, blockLength);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, a, blockLength);
}
template <typename T>
std::vector<T> run_twice(std::vector<T>& x)
{
    constexpr uint32_t numBlocks = 2;
    constexpr uint32_t blockLength = (scenarioNum == 1) ? 2 * 64 : 256;
    twice<T, blockLength>
        <<<numBlocks, 0, stream>>>(xDevice, yDevice);
    return x;
}
int32_t main(int32_t argc, char* argv[])
{
    using DataType = float;
    std::vector<DataType> x(256);
    std::vector<DataType> y = run_twice(x);
    return 0;
}
"""


def test_a_launch_in_a_template_host_helper_names_the_instance_and_compiles_away(tmp_path):
    "asc-devkit's add / msprof / cpu_debug: the launch sits in a host helper, its arguments are the helper's."
    assert corpus.asc_entry(HELPER_LAUNCH, "-DSCENARIO_NUM=1") == "twice<float, 128>"
    assert corpus.asc_entry(HELPER_LAUNCH, "-DSCENARIO_NUM=2") == "twice<float, 256>"
    explicit = HELPER_LAUNCH.replace("template <typename T>\nstd::vector<T> run_twice", "template <typename T, uint32_t L>\nstd::vector<T> run_twice") \
        .replace("twice<T, blockLength>", "twice<T, L>").replace("run_twice(x)", "run_twice<int32_t, 512>(x)")
    assert corpus.asc_entry(explicit) == "twice<int32_t, 512>"
    device = corpus.asc_kernel_source(HELPER_LAUNCH)
    assert "<<<" not in device and len(device.split("\n")) == len(HELPER_LAUNCH.split("\n"))
    import numpy as np

    from ascendcraft.config import load_settings
    from ascendcraft.emu import GM, build, run
    b = build({"twice.cpp": device}, corpus.asc_entry(HELPER_LAUNCH, "-DSCENARIO_NUM=1"),
              settings=load_settings().replace(cxxflags=load_settings().cxxflags + " -DSCENARIO_NUM=1"))
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(256, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(256, np.float32), "out")], block_dim=2)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)


SELECTED_LAUNCH = """
#include "kernel_operator.h"
#include "cases.h"
__global__ __cube__ void plain(__gm__ uint8_t* a) {}
__global__ __cube__ void mdl(__gm__ uint8_t* a) {}
template <uint32_t N, uint32_t M>
__global__ __cube__ void fixed(__gm__ uint8_t* a) {}
template <typename AType, uint32_t N>
__global__ __mix__(1, 2) void grouped(__gm__ uint8_t* a) {}
int32_t main(int32_t argc, char* argv[])
{
    constexpr uint32_t TILE = 4 * 32;
    constexpr auto selectedKernel = []() {
        if constexpr (scenarioNum >= 0 && scenarioNum <= 3) {
            return plain;
        } else if constexpr (scenarioNum == 4) {
            return mdl;
        } else {
            return fixed<TILE, (scenarioNum > 5) ? 2 : 1>;
        }
    }();
    selectedKernel<<<8, 0, stream>>>(a);
    return 0;
}
"""


def test_a_launch_through_a_constexpr_lambda_names_the_kernel_of_the_scenario():
    "asc-devkit matmul_high_performance: `selectedKernel` is a lambda whose `if constexpr` branches pick the kernel."
    header = "constexpr uint32_t scenarioNum = SCENARIO_NUM;  // the example's own header\n"
    assert corpus.asc_entry(SELECTED_LAUNCH, "-DSCENARIO_NUM=2", header) == "plain"
    assert corpus.asc_entry(SELECTED_LAUNCH, "-DSCENARIO_NUM=4", header) == "mdl"
    assert corpus.asc_entry(SELECTED_LAUNCH, "-DSCENARIO_NUM=5", header) == "fixed<128, 1>"
    assert corpus.asc_entry(SELECTED_LAUNCH, "-DSCENARIO_NUM=7", header) == "fixed<128, 2>"
    assert corpus.asc_entry(SELECTED_LAUNCH, "-DSCENARIO_NUM=7") == "selectedKernel"   # undecided: the name as launched


def test_a_type_alias_of_the_host_main_is_resolved_in_the_entry():
    "asc-devkit quant_group_matmul: `using AType = int8_t;` in main(), then `kernel<AType, ...><<<...>>>`."
    code = SELECTED_LAUNCH.replace("selectedKernel<<<8, 0, stream>>>(a);",
                                 "using AType = int8_t;\n    grouped<AType, TILE><<<8, 0, stream>>>(a);")
    assert corpus.asc_entry(code, "-DSCENARIO_NUM=0") == "grouped<int8_t, 128>"


AOT_LAUNCH = """#include <cstring>
#include "acl/acl.h"
#include "kernel_operator.h"
struct ScaleTiling { uint32_t length; float factor; };
// length 64, factor 3.0f (0x40400000), little-endian: the bytes a host tiling function would have written
static constexpr uint8_t SCALE_64_BY_3[] = {0x40, 0, 0, 0, 0, 0, 0x40, 0x40};
template <typename T, const uint8_t* Bytes> struct ConstHolder { static constexpr T value = convert_from_bytes<T>(Bytes); };
template <typename T> struct RunHolder { static constexpr T value = {}; };
static_assert(ConstHolder<ScaleTiling, SCALE_64_BY_3>::value.length == 64, "the bytes are a constant expression");
template <typename TH = RunHolder<ScaleTiling>>
__global__ __vector__ void scale(__gm__ float* x, __gm__ float* y)
{
    constexpr ScaleTiling t = ConstHolder<ScaleTiling, SCALE_64_BY_3>::value;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x, t.length);
    yg.SetGlobalBuffer(y, t.length);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, t.length>();
    AscendC::DataCopy(a, xg, t.length);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Muls(a, a, t.factor, t.length);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, a, t.length);
}
template <typename F> void dispatch(const uint8_t* tiling, F&& launch)
{
    if (std::memcmp(tiling, SCALE_64_BY_3, sizeof(ScaleTiling)) == 0) launch(ConstHolder<ScaleTiling, SCALE_64_BY_3>{});
    else launch(RunHolder<ScaleTiling>{});
}
int32_t main(int32_t argc, char* argv[])
{
    dispatch(tilingBytes, [&](auto holder) {
        using Holder = decltype(holder);
        scale<Holder><<<1, 0, stream>>>(xDevice, yDevice);
    });
    return 0;
}
"""


def test_a_launch_whose_template_argument_is_known_at_run_time_takes_the_kernels_defaults():
    "asc-devkit matmul_aot: the holder type comes from a generic lambda's argument; convert_from_bytes makes the constants."
    assert corpus.asc_entry(AOT_LAUNCH) == "scale"   # `Holder` is no name at file scope: the kernel's default holder
    assert corpus.asc_entry(AOT_LAUNCH.replace("scale<Holder>", "scale<Holder, 4>")) == "scale"
    import numpy as np

    from ascendcraft.config import load_settings
    from ascendcraft.emu import GM, build, run
    b = build({"scale.asc": corpus.asc_kernel_source(AOT_LAUNCH)}, corpus.asc_entry(AOT_LAUNCH), settings=load_settings())
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    # the struct convert_from_bytes made is the one NumPy reads from the same bytes
    want = np.frombuffer(bytes([0x40, 0, 0, 0, 0, 0, 0x40, 0x40]), dtype=[("length", "<u4"), ("factor", "<f4")])[0]
    assert want["length"] == 64
    np.testing.assert_array_equal(r.outputs["y"], x * want["factor"])
    # fewer bytes than the struct has: reading past the array's end is no constant expression, as on the device compiler
    short = AOT_LAUNCH.replace("0, 0, 0x40, 0x40}", "0, 0, 0x40}")
    bad = build({"scale.asc": corpus.asc_kernel_source(short)}, "scale", settings=load_settings())
    assert not bad.ok and any("constant" in d.message for d in bad.diagnostics), [d.render() for d in bad.diagnostics]


def test_constant_expressions_of_an_example_reduce_to_numbers():
    names = corpus._constants("constexpr uint32_t A = 8 * 2048;\nconstexpr int32_t B = (A > 100) ? A / 2 : 1;\n"
                              "constexpr uint32_t C = B * sizeof(half) + (S == 3 ? 1 : 0);\nconstexpr uint32_t D = E + 1;\n",
                              "-DS=3")
    assert names == {"S": "3", "A": "16384", "B": "8192", "C": "16385"}   # D names an unknown E: not a number


def test_cmake_scenarios_without_a_default_take_the_first_allowed_value():
    valid = """set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")
set(VALID_SCENARIOS 0 1)
if(NOT SCENARIO_NUM IN_LIST VALID_SCENARIOS)
endif()
target_compile_definitions(demo PRIVATE
    SCENARIO_NUM=${SCENARIO_NUM}
)"""
    assert corpus.cmake_defaults(valid) == ("dav-2201", "-DSCENARIO_NUM=0")
    equal = valid.replace("if(NOT SCENARIO_NUM IN_LIST VALID_SCENARIOS)", "if(NOT SCENARIO_NUM EQUAL 2 AND NOT SCENARIO_NUM EQUAL 3)") \
        .replace("set(VALID_SCENARIOS 0 1)", "")
    assert corpus.cmake_defaults(equal) == ("dav-2201", "-DSCENARIO_NUM=2")
    cached = valid.replace("set(VALID_SCENARIOS 0 1)", 'set(SCENARIO_NUM 4 CACHE STRING "1: a; 4: b")')
    assert corpus.cmake_defaults(cached) == ("dav-2201", "-DSCENARIO_NUM=4")
    bare = valid.replace("set(VALID_SCENARIOS 0 1)", "").replace("if(NOT SCENARIO_NUM IN_LIST VALID_SCENARIOS)", "")
    assert corpus.cmake_defaults(bare) == ("dav-2201", "")             # no default anywhere: no define
    readme = "## Build\n```bash\n  SCENARIO_NUM=3   # the scenario\n  OTHER=7\n  cmake -DSCENARIO_NUM=$SCENARIO_NUM ..\n```\n"
    assert corpus.cmake_defaults(bare, readme) == ("dav-2201", "-DSCENARIO_NUM=3")   # the README's build steps set it
    assert corpus.cmake_defaults(cached, readme) == ("dav-2201", "-DSCENARIO_NUM=4")  # the CMake default wins


def test_an_examples_cmake_defaults_give_its_architecture_and_defines():
    cmake = """set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture: dav-2201, dav-3510")
set(SCENARIO_NUM "1" CACHE STRING "Scene number (1-7)")
add_definitions(-DSCENARIO_NUM=${SCENARIO_NUM})
add_compile_definitions(USE_FAST)"""
    assert corpus.cmake_defaults(cmake) == ("dav-2201", "-DSCENARIO_NUM=1 -DUSE_FAST")
    assert corpus.cmake_defaults('set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "")')[0] == "dav-3510"
    # a value set in the branch of an architecture test (add_high_performance's NPU_ARCH_ID): the default's branch
    by_arch = """set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")
if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
    set(NPU_ARCH_ID 2201)
elseif(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
    set(NPU_ARCH_ID 3510)
else()
    message(FATAL_ERROR "unsupported")
endif()
target_compile_definitions(demo PRIVATE NPU_ARCH=${NPU_ARCH_ID})"""
    assert corpus.cmake_defaults(by_arch) == ("dav-2201", "-DNPU_ARCH=2201")
    assert corpus.cmake_defaults(by_arch.replace('"dav-2201" CACHE', '"dav-3510" CACHE')) == ("dav-3510", "-DNPU_ARCH=3510")
    # a value cut out of the architecture by a regular expression (fixpipe_l0c2l1's ASC_ARCHITECTURES, which sizes its
    # host's output: without it the host wrote the 3510 form's float output and its verify_result.py failed)
    by_regex = """set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")
string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")
add_definitions(-DASC_ARCHITECTURES=${ARCH_NUM})"""
    assert corpus.cmake_defaults(by_regex) == ("dav-2201", "-DASC_ARCHITECTURES=2201")


def test_the_outputs_compared_are_the_ones_the_model_returns():
    definition = op("RmsNorm", ["x", "gamma"], ["y", "rstd"], ["epsilon"])
    y = torch.zeros(4)
    layout = {"inputs": [0, 1], "attrs": [2], "results": ["y"]}
    results, wants = pybind_calls.compared_outputs(definition, layout, [y], definition.outputs, set())
    assert [p.name for p in results] == ["y"] and wants[0] is y
    # the Model returns every output although pybind returns fewer: compared in the definition's order
    four = [torch.zeros(1) for _ in range(2)]
    results, wants = pybind_calls.compared_outputs(definition, layout, four, definition.outputs, set())
    assert [p.name for p in results] == ["y", "rstd"] and len(wants) == 2


def test_an_inplace_op_returns_the_input_it_writes_and_a_shorter_model_compares_the_first_results():
    gemm = """at::Tensor custom_pybind_fun(at::Tensor &a, at::Tensor &b, at::Tensor &c, double alpha, double beta)
{
    EXEC_NPU_CMD(aclnnCustomOp, a, b, c, alpha, beta);
    return c;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &custom_pybind_fun, ""); }"""
    definition = op("Gemm", ["a", "b", "c"], [], ["alpha", "beta"])
    layout = pybind_calls.pybind_layout(gemm, definition, {})
    assert layout == {"inputs": [0, 1, 2], "attrs": [3, 4], "results": ["c"]}
    c = torch.zeros(4)
    results, wants = pybind_calls.compared_outputs(definition, layout, c, definition.inputs, set())
    assert [p.name for p in results] == ["c"] and wants[0] is c
    # a tensor-list input returned by the parameter it is made from (ScatterList: at::TensorList(varRef))
    scatter = """std::vector<at::Tensor> custom_pybind_api(std::vector<at::Tensor> &varRef, at::Tensor &indice, int64_t axis)
{
    at::TensorList varRefList = at::TensorList(varRef);
    EXEC_NPU_CMD(aclnnCustomOp, varRefList, indice, axis);
    return varRef;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("scatter_list", &custom_pybind_api, ""); }"""
    assert pybind_calls.pybind_layout(scatter, op("ScatterList", ["var", "indice"], [], ["axis"]), {})["results"] == ["var"]
    # an op with outputs does not return a plain input as a result
    assert pybind_calls.pybind_layout(gemm, op("Gemm", ["a", "b", "c"], ["y"], ["alpha"]), {})["results"] is None
    # GeluQuant: pybind returns {y, out_scale}, the Model (static mode) only the quantised y
    quant = op("GeluQuant", ["x", "scale", "offset"], ["y", "out_scale"], ["approximate", "quant_mode"])
    layout = {"inputs": [0, 1, 2], "attrs": [3, 4], "results": ["y", "out_scale"]}
    y = torch.zeros(4)
    results, wants = pybind_calls.compared_outputs(quant, layout, [y], quant.outputs, set())
    assert [p.name for p in results] == ["y"] and wants == [y]


def test_test_case_columns_read_as_pandas_does_and_sizes_from_dims():
    rows = npukb._typed([{"id": "0", "present": "False", "dims": "[1]"}, {"id": "1", "present": "True", "dims": "[512, 3]"}])
    assert [r["present"] for r in rows] == [False, True]   # not the truthy text 'False'
    assert [npukb._size(r) for r in rows] == [1, 1536]     # Fill names its shape `dims`
    assert npukb._size({"x_shape": "[4, 4]", "dims": "[100]"}) == 16   # *shape* columns first
    assert npukb._size({"m": 4}) == 1 << 40


def test_a_block_comment_that_lost_its_opener_to_the_sanitiser_gets_it_back():
    text = b'int a; // keep\n  // Implementation note.\n  x used mem: [a, b]\n  */\nint b; /* c */ int d; // Implementation note.\n'
    fixed = corpus.restore_comment_openers(text)
    assert fixed.split(b"\n")[1] == b"  /* Implementation note." and fixed.split(b"\n")[4] == text.split(b"\n")[4]
    balanced = b"// Implementation note.\n/* a\n   b */\nint x;\n"
    assert corpus.restore_comment_openers(balanced) == balanced


def test_a_sanitised_comment_inside_a_macro_definition_keeps_the_macro_whole():
    import subprocess
    text = (b"#define TWICE(X) \\\n    do { \\\n        // Implementation note.\n        for (int i = 0; i < 2; i++) { \\\n"
            b"            X; \\\n        } \\\n    } while (0)\n// Implementation note.\nint main() { int n = 0; TWICE(n += 3); return n; }\n")
    fixed = corpus.restore_comment_openers(text)
    assert fixed.split(b"\n")[2] == b"        /* Implementation note. */ \\"
    assert fixed.split(b"\n")[7] == b"// Implementation note."   # a line outside a macro stays as published
    done = subprocess.run(["g++", "-x", "c++", "-E", "-P", "-"], input=fixed, capture_output=True)
    assert done.returncode == 0 and b"for (int i = 0; i < 2; i++)" in done.stdout.split(b"int main")[1]


def test_integer_random_tensors_are_drawn_as_floats_then_converted_only_inside_the_block():
    with npukb.integer_random():
        z = torch.rand(3, 4, dtype=torch.int32)
        n = torch.randn((5,), dtype=torch.int64)
        f = torch.rand(2, dtype=torch.float16)
    assert z.dtype == torch.int32 and z.shape == (3, 4) and not z.any()   # [0, 1) truncates to 0
    assert n.dtype == torch.int64 and n.shape == (5,) and f.dtype == torch.float16
    try:
        torch.rand(2, dtype=torch.int32)
        raised = False
    except (RuntimeError, NotImplementedError):
        raised = True
    assert raised   # torch itself is back as it was


def test_without_a_pybind_order_a_model_returning_fewer_results_compares_the_first_outputs():
    definition = op("GroupNormSwishGrad", ["dy", "mean", "rstd", "x", "gamma", "beta"], ["dx", "dgamma", "dbeta"])
    dx = torch.zeros(4)
    results, wants = pybind_calls.compared_outputs(definition, None, dx, definition.outputs, set())
    assert [p.name for p in results] == ["dx"] and wants[0] is dx
    three = [torch.zeros(1) for _ in range(3)]
    results, wants = pybind_calls.compared_outputs(definition, None, three, definition.outputs, set())
    assert [p.name for p in results] == ["dx", "dgamma", "dbeta"] and len(wants) == 3


def test_results_pybind_appends_under_a_bool_argument():
    cel = """std::vector<at::Tensor> cel(at::Tensor input, at::Tensor target, bool returnZloss)
{
    at::Tensor lossOut = torch::empty({1}), logProbOut = torch::empty_like(input), zlossOut = torch::empty({1});
    EXEC_NPU_CMD(aclnnCrossEntropyLoss, input, target, returnZloss, lossOut, logProbOut, zlossOut);
    std::vector<at::Tensor> result = {lossOut, logProbOut};
    if (returnZloss) {
        result.push_back(zlossOut);
    }
    return result;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("cross_entropy_loss", &cel, ""); }"""
    definition = op("CrossEntropyLoss", ["input", "target"], ["loss", "log_prob", "zloss"], ["return_zloss"])
    layout = pybind_calls.pybind_layout(cel, definition, {})
    assert layout["results"] == ["loss", "log_prob"] and layout["results_if"] == [(2, "zloss")]

# ---- an asc-devkit-style example of our own, in a git repository: a kernel over two .asc files of one CMake target,
# a scalar argument, the README's commands, its own data and check scripts (asc_run.match_asc) ------------------------------------------
EXAMPLE_MAIN = """#include "acl/acl.h"
#include "data_utils.h"
#include "kernel_operator.h"
extern __aicore__ void scale_add(AscendC::LocalTensor<float>& z, AscendC::LocalTensor<float>& x, uint32_t n);
constexpr uint32_t LEN = 256;
__global__ __vector__ void twice_plus(__gm__ uint8_t* x, __gm__ uint8_t* z, uint32_t n)
{
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + AscendC::GetBlockIdx() * LEN, LEN);
    zg.SetGlobalBuffer((__gm__ float*)z + AscendC::GetBlockIdx() * LEN, LEN);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, LEN>();
    AscendC::LocalTensor<float> b = ub.Alloc<float, LEN>();
    AscendC::DataCopy(a, xg, LEN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    scale_add(b, a, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, b, LEN);
}
int32_t main(int32_t argc, char* argv[])
{
    constexpr uint32_t NUM_BLOCKS = SCENARIO_NUM + 1;
    size_t bytes = NUM_BLOCKS * LEN * sizeof(float);
    uint8_t *xHost, *zHost, *xDevice, *zDevice;
    ReadFile("./input/input_x.bin", bytes, xHost, bytes);
    aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    twice_plus<<<NUM_BLOCKS, 0, stream>>>(xDevice, zDevice, LEN);
    aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    WriteFile("./output/output.bin", zHost, bytes);
    return 0;
}
"""
EXAMPLE_HELPER = """#include "kernel_operator.h"
__aicore__ void scale_add(AscendC::LocalTensor<float>& z, AscendC::LocalTensor<float>& x, uint32_t n)
{
    AscendC::Muls(z, x, 2.0f, n);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(z, z, OFFSET, n);
}
"""
EXAMPLE_FILES = {
    "ex/CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")\n'
                         'if(NOT SCENARIO_NUM MATCHES "^[1-3]$")\n  message(FATAL_ERROR "1-3")\nendif()\n'
                         "add_executable(demo\n    k_main.asc\n    k_helper.asc\n)\n"
                         "target_compile_definitions(demo PRIVATE\n    SCENARIO_NUM=${SCENARIO_NUM}\n)\n",
    "ex/README.md": "```\npython3 ../scripts/gen_data.py -scenarioNum=$SCENARIO_NUM   # data\n./demo\n"
                    "python3 ../scripts/verify_result.py ./output/output.bin ./output/golden.bin\n```\n",
    "ex/scripts/gen_data.py": "import os, sys\nimport numpy as np\nblocks = int(sys.argv[1].split('=')[1]) + 1\n"
                              "x = np.random.default_rng(3).uniform(-1, 1, 256 * blocks).astype(np.float32)\n"
                              "os.makedirs('input', exist_ok=True); os.makedirs('output', exist_ok=True)\n"
                              "x.tofile('input/input_x.bin'); (2 * x + 1).astype(np.float32).tofile('output/golden.bin')\n",
    "ex/scripts/verify_result.py": "import sys\nimport numpy as np\n"
                                   "ok = np.allclose(np.fromfile(sys.argv[1], np.float32), np.fromfile(sys.argv[2], np.float32))\n"
                                   "print('test pass' if ok else '[ERROR] result error')\n",
    "ex/data_utils.h": "#pragma once\n",
    "ex/k_main.asc": EXAMPLE_MAIN,
}


def _example_repo(tmp_path, helper: str, files: dict = EXAMPLE_FILES):
    return git_repo(tmp_path, {**files, "ex/k_helper.asc": helper})


def test_an_example_over_two_asc_files_builds_and_matches_its_own_golden(tmp_path):
    gitdir, commit = _example_repo(tmp_path, EXAMPLE_HELPER.replace("OFFSET", "1.0f"))
    arch, defines = corpus.cmake_defaults(EXAMPLE_FILES["ex/CMakeLists.txt"])
    assert (arch, defines) == ("dav-2201", "-DSCENARIO_NUM=1")       # `MATCHES "^[1-3]$"`: the first value allowed
    assert corpus.asc_target_siblings(gitdir, commit, "ex/k_main.asc") == ["ex/k_helper.asc"]
    for path in ("ex/k_main.asc", "ex/k_helper.asc"):    # the helper file alone launches nothing: its target's launch
        entry = {"source": "s", "repo": "me/ex", "commit": commit, "path": path, "kind": "asc-file", "defines": defines}
        res = corpus.try_entry((entry, gitdir, True, False))
        assert res["kernel_ok"], res
        assert res["match"] == "pass" and "test pass" in res["match_detail"], res   # two blocks (SCENARIO_NUM + 1)


def test_an_example_whose_output_differs_from_its_golden_is_a_mismatch(tmp_path):
    gitdir, commit = _example_repo(tmp_path, EXAMPLE_HELPER.replace("OFFSET", "1.5f"))
    entry = {"source": "s", "repo": "me/ex", "commit": commit, "path": "ex/k_main.asc", "kind": "asc-file",
             "defines": "-DSCENARIO_NUM=1"}
    res = corpus.try_entry((entry, gitdir, True, False))
    assert res["kernel_ok"] and res["match"] == "mismatch" and "result error" in res["match_detail"], res

def test_an_example_that_accumulates_into_a_buffer_read_from_a_file_runs_it_in_place(tmp_path):
    "asc-devkit's atomic examples fill the output from input_y.bin and SetAtomicAdd into it: that argument is inout."
    main = (EXAMPLE_MAIN.replace("    AscendC::DataCopy(zg, b, LEN);\n",
                                 "    AscendC::SetAtomicAdd<float>();\n    AscendC::DataCopy(zg, b, LEN);\n"
                                 "    AscendC::SetAtomicNone();\n")
            .replace("    twice_plus<<<", '    ReadFile("./input/input_z.bin", bytes, zHost, bytes);\n'
                     "    aclrtMemcpy(zDevice, bytes, zHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);\n    twice_plus<<<"))
    assert main.count("SetAtomicAdd") == 1 and main.count("input_z.bin") == 1
    gen = EXAMPLE_FILES["ex/scripts/gen_data.py"].replace(
        "x.tofile('input/input_x.bin'); (2 * x + 1).astype(np.float32).tofile('output/golden.bin')",
        "z = np.random.default_rng(4).uniform(-1, 1, x.size).astype(np.float32)\n"
        "x.tofile('input/input_x.bin'); z.tofile('input/input_z.bin'); (z + (2 * x + 1)).astype(np.float32).tofile('output/golden.bin')")
    assert "input_z.bin" in gen
    files = {**EXAMPLE_FILES, "ex/k_main.asc": main, "ex/scripts/gen_data.py": gen}
    entry = {"source": "s", "repo": "me/ex", "kind": "asc-file", "path": "ex/k_main.asc", "defines": "-DSCENARIO_NUM=1"}
    for helper, want in (("1.0f", "pass"), ("1.5f", "mismatch")):   # z + 2x + 1 matches; z + 2x + 1.5 does not
        gitdir, commit = _example_repo(tmp_path / helper, EXAMPLE_HELPER.replace("OFFSET", helper), files)
        res = corpus.try_entry(({**entry, "commit": commit}, gitdir, True, False))
        assert res["kernel_ok"] and res["match"] == want, res


def test_an_input_file_this_scenario_does_not_write_goes_to_the_device_unread(tmp_path):
    """asc-devkit's fixpipe_l0c2gm reads quant_pre.bin under `if constexpr (SCENARIO_NUM == 5)` and its gen_data.py writes
    it in scenario 5 only: in the others the host buffer (aclrtMallocHost's size) goes to the device as it was, and the
    example is checked all the same, saying so. A size that is no constant leaves no reference."""
    main = (EXAMPLE_MAIN.replace("__gm__ uint8_t* z, uint32_t n)", "__gm__ uint8_t* z, __gm__ uint8_t* w, uint32_t n)")
            .replace("    twice_plus<<<NUM_BLOCKS, 0, stream>>>(xDevice, zDevice, LEN);",
                     "    size_t wSize = 4 * LEN * sizeof(float);\n    uint8_t *wHost, *wDevice;\n"
                     "    aclrtMallocHost((void**)(&wHost), wSize);\n"
                     "    if constexpr (SCENARIO_NUM == 2) {\n"
                     '        ReadFile("./input/input_w.bin", wSize, wHost, wSize);\n    }\n'
                     "    aclrtMemcpy(wDevice, wSize, wHost, wSize, ACL_MEMCPY_HOST_TO_DEVICE);\n"
                     "    twice_plus<<<NUM_BLOCKS, 0, stream>>>(xDevice, zDevice, wDevice, LEN);"))
    assert main.count("input_w.bin") == 1 and "wDevice, LEN" in main
    entry = {"source": "s", "repo": "me/ex", "kind": "asc-file", "path": "ex/k_main.asc", "defines": "-DSCENARIO_NUM=1"}
    gitdir, commit = _example_repo(tmp_path / "a", EXAMPLE_HELPER.replace("OFFSET", "1.0f"), {**EXAMPLE_FILES, "ex/k_main.asc": main})
    res = corpus.try_entry(({**entry, "commit": commit}, gitdir, True, False))
    assert res["kernel_ok"] and res["match"] == "pass", res
    assert "input_w.bin: not written by this scenario's gen_data.py" in res["match_detail"], res
    odd = main.replace("size_t wSize = 4 * LEN * sizeof(float);", "size_t wSize = static_cast<size_t>(argc) * LEN;")
    gitdir, commit = _example_repo(tmp_path / "b", EXAMPLE_HELPER.replace("OFFSET", "1.0f"), {**EXAMPLE_FILES, "ex/k_main.asc": odd})
    res = corpus.try_entry(({**entry, "commit": commit}, gitdir, True, False))
    assert res["match"] == "no-reference" and "wrote no ./input/input_w.bin" in res["match_detail"], res


def test_what_pybind_builds_from_the_inputs_an_inplace_op_wrote():
    foreach = """std::vector<at::Tensor> wrapper(std::vector<at::Tensor> scaled_grads, at::Tensor found_inf, at::Tensor scale) {
    at::TensorList grads = at::TensorList(scaled_grads);
    EXEC_NPU_CMD(aclnnForeachNonFiniteCheckAndUnscale, grads, found_inf, scale);
    std::vector<at::Tensor> ret;
    for (const auto& g : grads) ret.emplace_back(g);
    ret.emplace_back(found_inf);
    return ret;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("foreach_non_finite_check_and_unscale", &wrapper, ""); }"""
    definition = op("ForeachNonFiniteCheckAndUnscale", ["scaled_grads", "found_inf", "in_scale"], [])
    layout = pybind_calls.pybind_layout(foreach, definition, {})
    assert layout["inputs"] == [0, 1, 2] and layout["results"] is None
    assert pybind_calls.pybind_returned_inputs(foreach, definition, layout) == [("list", "scaled_grads"), ("tensor", "found_inf")]
    # the in-place op's inputs are never lined up with a shorter Model's results by position
    results, wants = pybind_calls.compared_outputs(definition, layout, [torch.zeros(3), torch.zeros(1)], definition.inputs, set())
    assert len(results) == 3 and len(wants) == 2


def test_a_failed_host_tiling_names_what_the_tiling_function_logged():
    from types import SimpleNamespace
    diag = SimpleNamespace(is_error=True, kind="host-tiling", message="the host tiling function ascendcraft_tiling returned 3")
    run = SimpleNamespace(diagnostics=[diag], stderr='[ERROR] OP_TILING [DoTilingImpl] "no valid template is found."\nascendcraft: failed\n')
    assert corpus.run_failure(run) == ('host-tiling: the host tiling function ascendcraft_tiling returned 3 '
                                       '([ERROR] OP_TILING [DoTilingImpl] "no valid template is found.")')
    other = SimpleNamespace(is_error=True, kind="ub-overflow", message="InitBuffer with a length of 0 bytes")
    assert corpus.run_failure(SimpleNamespace(diagnostics=[other], stderr="[ERROR] x")) == "ub-overflow: InitBuffer with a length of 0 bytes"


def _ops_nn_copy(tmp_path, files: dict, path: str) -> Path:
    "The entry's copy (`corpus.materialise`) of op `path` in a one-commit hicann/ops-nn repository of `files`."
    _, commit = git_repo(tmp_path, files)
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": path, "kind": "op-project"}
    return corpus.materialise(entry, str(tmp_path / ".git"), tmp_path / "copy")


def _kernel_builds(dest: Path, entry: str, folders: tuple) -> None:
    "The copy's kernel, from its files under `folders` (op_kernel/ and the headers copied beside it), builds."
    from ascendcraft.emu import build, read_sources
    b = build({k: v for k, v in read_sources(dest).items() if k.startswith(folders)}, entry)
    assert b.ok, b.log[-1500:]


def test_hicann_ops_nn_kernels_find_the_shared_headers_their_build_copies_beside_them(tmp_path):
    """ops-nn's build copies common/inc/op_kernel to ascendc/inc beside each op's kernel folder, and kernels name those
    headers `#include "../inc/platform.h"`: the entry's copy has them at inc/ (only the ones included), and builds."""
    files = {
        "common/inc/op_kernel/platform.h": '#pragma once\n#include "macro.h"\nconstexpr int PLATFORM_BLOCK = KEY_BYTES;\n',
        "common/inc/op_kernel/macro.h": "#pragma once\n#define KEY_BYTES 32\n",
        "common/inc/op_kernel/unused.h": "#pragma once\n",
        "demo/op_kernel/demo.cpp": '#include "kernel_operator.h"\n#include "../inc/platform.h"\n'
                                   'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)PLATFORM_BLOCK; }\n',
        "demo/op_host/demo_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "demo")
    assert (dest / "inc" / "platform.h").is_file() and (dest / "inc" / "macro.h").is_file()
    assert not (dest / "inc" / "unused.h").exists()
    _kernel_builds(dest, "demo", ("op_kernel/", "inc/"))


def test_ops_transformer_kernels_find_the_kernel_headers_its_build_copies_and_the_shared_headers(tmp_path):
    """ops-transformer's build copies common/include/kernel/*.* beside the ops' kernel folders (on their include path:
    `#include "util.h"`), and its sources name the other shared headers from common/include (`"tiling_base/..."`):
    the entry's copy has both (only the ones included), and the kernel builds."""
    files = {
        "common/include/kernel/util.h": '#pragma once\nconstexpr int UTIL_BLOCK = 32;\n',
        "common/include/kernel/unused.h": "#pragma once\n",
        "common/include/tiling_base/tiling_key.h": "#pragma once\n#define DEMO_KEY 7\n",
        "ffn/demo/op_kernel/demo.cpp": '#include "kernel_operator.h"\n#include "util.h"\n#include "tiling_base/tiling_key.h"\n'
                                       'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)(UTIL_BLOCK + DEMO_KEY); }\n',
        "ffn/demo/op_host/demo_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    _, commit = git_repo(tmp_path, files)
    entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": "ffn/demo", "kind": "op-project"}
    dest = corpus.materialise(entry, str(tmp_path / ".git"), tmp_path / "copy")
    assert (dest / "common_kernel" / "util.h").is_file() and not (dest / "common_kernel" / "unused.h").exists()
    assert (dest / "common_include" / "tiling_base" / "tiling_key.h").is_file()
    _kernel_builds(dest, "demo", ("op_kernel/", "common_kernel/", "common_include/"))


def test_ops_transformer_mc2_ops_find_headers_from_mc2_3rd_and_other_ops_do_not(tmp_path):
    """The mc2 ops' host tiling is built with mc2/3rd on the include path, and the tiling header the kernel build sees
    names a file from there (batch_mat_mul_v3: `#include "mat_mul_v3/op_host/op_tiling/matmul_v3_tiling.h"`): an
    mc2 op's copy has it (and what it includes); an op outside mc2/ gets nothing of mc2/3rd. mc2/common/inc is on that
    path too, and its headers name mc2/3rd's by a relative path (matmul_all_reduce: "tiling/mc2_tiling_struct.h" includes
    `../../../3rd/batch_mat_mul_v3/...`): both keep their repository paths in the copy, so that path resolves."""
    header = '#pragma once\n#include "mm/op_host/mm_tiling.h"\n#include "tiling/mc2_struct.h"\n' \
             'constexpr int TILED = MM_BASE + MC2_EXTRA;\n'
    kernel = '#include "kernel_operator.h"\n#include "../op_host/demo_tiling.h"\n' \
             'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)TILED; }\n'
    files = {
        "mc2/3rd/mm/op_host/mm_tiling.h": '#pragma once\n#include "mm_base.h"\n',
        "mc2/3rd/mm/op_host/mm_base.h": "#pragma once\nconstexpr int MM_BASE = 16;\n",
        "mc2/3rd/mm/op_host/unused.h": "#error not included\n",
        "mc2/common/inc/tiling/mc2_struct.h": '#pragma once\n#include "../../../3rd/bmm/op_host/bmm_extra.h"\n',
        "mc2/3rd/bmm/op_host/bmm_extra.h": "#pragma once\nconstexpr int MC2_EXTRA = 2;\n",
        "mc2/common/inc/unused.h": "#error not included\n",
        "mc2/demo/op_host/demo_tiling.h": header, "mc2/demo/op_kernel/demo.cpp": kernel,
        "mc2/demo/op_host/demo_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
        "ffn/demo/op_host/demo_tiling.h": header, "ffn/demo/op_kernel/demo.cpp": kernel,
        "ffn/demo/op_host/demo_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    _, commit = git_repo(tmp_path, files)
    copies = {}
    for op in ("mc2/demo", "ffn/demo"):
        entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": op, "kind": "op-project"}
        copies[op] = corpus.materialise(entry, str(tmp_path / ".git"), tmp_path / op.replace("/", "_"))
    mc2 = copies["mc2/demo"] / corpus.SIBLINGS / "mc2"
    mm = mc2 / "3rd" / "mm" / "op_host"
    assert (mm / "mm_tiling.h").is_file() and (mm / "mm_base.h").is_file() and not (mm / "unused.h").exists()
    assert (mc2 / "common" / "inc" / "tiling" / "mc2_struct.h").is_file() and not (mc2 / "common" / "inc" / "unused.h").exists()
    assert (mc2 / "3rd" / "bmm" / "op_host" / "bmm_extra.h").is_file()
    _kernel_builds(copies["mc2/demo"], "demo", ("op_kernel/", "op_host/", corpus.SIBLINGS + "/"))
    assert not (copies["ffn/demo"] / corpus.SIBLINGS / "mc2").exists()


def test_a_kernels_relative_includes_resolve_as_in_the_repository_tree(tmp_path):
    """ops-transformer's fused_infer_attention_score includes another op's kernel source two levels up
    (`#include "../../incre_flash_attention/op_kernel/incre_flash_attention.cpp"`), which names headers beside it and in
    a folder below it; nsa_selected_attention_grad includes its own files beside op_kernel/
    (`#include "../basic_modules/cube_op.h"`, which names `cube_modules/cube1.h`); mc2/3rd/mat_mul_v3 names its own file
    by a path out of its folder and back. The entry's copy has each file the kernel reaches this way, whatever its kind,
    and nothing else of those folders; the kernel builds. A file only a unit test names does not come along."""
    files = {
        "att/other/op_kernel/other.cpp": '#include "other_part.h"\n#include "deep/other_deep.h"\n'
                                         'inline int Other() { return OTHER_PART + OTHER_DEEP; }\n',
        "att/other/op_kernel/other_part.h": "#pragma once\n#define OTHER_PART 3\n",
        "att/other/op_kernel/deep/other_deep.h": "#pragma once\n#define OTHER_DEEP 4\n",
        "att/other/op_kernel/other_unused.cpp": "#error not part of the kernel\n",
        "att/demo/basic_modules/cube_op.h": '#pragma once\n#include "cube_modules/cube1.h"\n',
        "att/demo/basic_modules/cube_modules/cube1.h": "#pragma once\nconstexpr int CUBE1 = 5;\n",
        "att/demo/basic_modules/unused.h": "#error not part of the kernel\n",
        "att/demo/op_kernel/demo.cpp": '#include "kernel_operator.h"\n#include "../../other/op_kernel/other.cpp"\n'
                                       '#include "../basic_modules/cube_op.h"\n#include "nd.h"\n'
                                       'extern "C" __global__ __aicore__ void demo(GM_ADDR x) { (void)x; (void)(Other() + CUBE1 + ND_UTIL); }\n',
        # the op's own file by a path out of its folder and back (mc2/3rd/mat_mul_v3's batch_mat_mul_nd2nz.h)
        "att/demo/op_kernel/nd.h": '#pragma once\n#include "../../demo/op_kernel/nd_util.h"\n',
        "att/demo/op_kernel/nd_util.h": "#pragma once\nconstexpr int ND_UTIL = 6;\n",
        "att/demo/op_host/demo_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
        "att/demo/tests/ut/test_demo.cpp": '#include "../../../other/tests/stub.h"\n',
        "att/other/tests/stub.h": "#error a unit test's stand-in\n",
    }
    _, commit = git_repo(tmp_path, files)
    entry = {"source": "s", "repo": "hicann/ops-transformer", "commit": commit, "path": "att/demo", "kind": "op-project"}
    dest = corpus.materialise(entry, str(tmp_path / ".git"), tmp_path / "copy")
    other = dest / corpus.SIBLINGS / "att/other/op_kernel"
    assert {p.relative_to(other).as_posix() for p in other.rglob("*") if p.is_file()} == \
        {"other.cpp", "other_part.h", "deep/other_deep.h"}
    assert (dest / "basic_modules/cube_modules/cube1.h").is_file() and not (dest / "basic_modules/unused.h").exists()
    assert not list(dest.rglob("stub.h"))
    forward = dest / corpus.SIBLINGS / "att/demo/op_kernel/nd_util.h"   # the op's own file, included from where g++ looks
    assert '#include "../../../../op_kernel/nd_util.h"' in forward.read_text()
    _kernel_builds(dest, "demo", ("op_kernel/", "basic_modules/", corpus.SIBLINGS))


def test_hicann_ops_nn_kernels_find_another_ops_kernel_headers_beside_their_folder(tmp_path):
    """ops-nn's build puts every op's op_kernel/ folder side by side under the op's name, and batch_mat_mul_v3 names
    mat_mul_v3's kernel headers `#include "../mat_mul_v3/mat_mul_v3_common.h"`: the entry's copy has them at
    mat_mul_v3/, and builds."""
    files = {
        "matmul/mat_mul_v3/op_kernel/mat_mul_v3_common.h": '#pragma once\n#include "mat_mul_v3_const.h"\n',
        "matmul/mat_mul_v3/op_kernel/mat_mul_v3_const.h": "#pragma once\nconstexpr int MM_BLOCK = 16;\n",
        "matmul/mat_mul_v3/op_kernel/arch35/other.h": "#pragma once\n#error not for A2\n",
        "matmul/mat_mul_v3/op_host/mat_mul_v3_def.cpp": "// OpDef\n",
        "matmul/bmm/op_kernel/bmm.cpp": '#include "kernel_operator.h"\n#include "../mat_mul_v3/mat_mul_v3_common.h"\n'
                                        'extern "C" __global__ __aicore__ void bmm(GM_ADDR x) { (void)x; (void)MM_BLOCK; }\n',
        "matmul/bmm/op_host/bmm_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "matmul/bmm")
    assert (dest / "mat_mul_v3" / "mat_mul_v3_common.h").is_file() and (dest / "mat_mul_v3" / "mat_mul_v3_const.h").is_file()
    assert not (dest / "mat_mul_v3" / "arch35").exists()   # the Ascend 950 kernels stay out
    _kernel_builds(dest, "bmm", ("op_kernel/", "mat_mul_v3/"))



def test_another_ops_kernel_headers_bring_the_folders_they_name_beside_them_in_turn(tmp_path):
    """ops-nn inplace_add_rms_norm names `../add_rms_norm/add_rms_norm.h`, which names `../rms_norm/rms_norm_base.h`: both
    folders are beside op_kernel/ in the entry's copy, as in the repository's build (it stopped at
    "../rms_norm/rms_norm_base.h: No such file or directory")."""
    files = {
        "norm/base_norm/op_kernel/base_norm_common.h": "#pragma once\nconstexpr int NORM_LANES = 8;\n",
        "norm/base_norm/op_host/base_norm_def.cpp": "// OpDef\n",
        "norm/add_norm/op_kernel/add_norm.h": '#pragma once\n#include "../base_norm/base_norm_common.h"\n'
                                             "constexpr int ADD_LANES = 2 * NORM_LANES;\n",
        "norm/add_norm/op_host/add_norm_def.cpp": "// OpDef\n",
        "norm/inplace_add_norm/op_kernel/inplace_add_norm.cpp":
            '#include "kernel_operator.h"\n#include "../add_norm/add_norm.h"\n'
            'extern "C" __global__ __aicore__ void inplace_add_norm(GM_ADDR x) { (void)x; static_assert(ADD_LANES == 16, ""); }\n',
        "norm/inplace_add_norm/op_host/inplace_add_norm_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "norm/inplace_add_norm")
    assert (dest / "add_norm" / "add_norm.h").is_file() and (dest / "base_norm" / "base_norm_common.h").is_file()
    _kernel_builds(dest, "inplace_add_norm", ("op_kernel/", "add_norm/", "base_norm/"))


def test_ops_nn_kernels_take_source_files_of_an_op_beside_them_by_name(tmp_path):
    """dynamic_rnnv2's kernel includes dynamic_rnn's sources, `#include "../dynamic_rnn/LstmFP16.cpp"`: the named source
    goes to dynamic_rnn/ beside op_kernel/ with the headers, and dynamic_rnn's own kernel entry does not."""
    files = {
        "rnn/rnn/op_kernel/lstm.h": "#pragma once\nint lstm_rows(int n);\n",
        "rnn/rnn/op_kernel/lstm.cpp": '#include "lstm.h"\nint lstm_rows(int n) { return 4 * n; }\n',
        "rnn/rnn/op_kernel/rnn_910b.cpp": '#include "kernel_operator.h"\n#error the other op\'s entry\n',
        "rnn/rnn/op_host/rnn_def.cpp": "// OpDef\n",
        "rnn/rnn2/op_kernel/rnn2.cpp": '#include "kernel_operator.h"\n#include "../rnn/lstm.cpp"\n'
                                       'extern "C" __global__ __aicore__ void rnn2(GM_ADDR x) { (void)x; (void)lstm_rows(2); }\n',
        "rnn/rnn2/op_host/rnn2_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "rnn/rnn2")
    assert (dest / "rnn" / "lstm.cpp").is_file() and (dest / "rnn" / "lstm.h").is_file()
    assert not (dest / "rnn" / "rnn_910b.cpp").exists()
    _kernel_builds(dest, "rnn2", ("op_kernel/", "rnn/"))


def test_ops_nn_kernels_find_files_of_their_own_kernel_folder_that_another_op_has(tmp_path):
    """conv3d_transpose_v2's CPU-debug branch names `../op_kernel/arch22/conv3d_dx_v2_basic_block.h`, a folder only
    conv3d_backprop_input_v2 has: that op's arch22/ headers fill the entry's op_kernel/arch22/ (its arch35/ does not,
    nor does a file replace one of the op's own)."""
    files = {
        "conv/dx/op_kernel/arch22/block.h": '#pragma once\n#include "impl/util.h"\n',
        "conv/dx/op_kernel/arch22/impl/util.h": "#pragma once\nconstexpr int DX_BLOCK = 16;\n",
        "conv/dx/op_kernel/arch22/arch35/x.h": "#pragma once\n#error not for A2\n",
        "conv/dx/op_kernel/arch22/own.h": "#pragma once\n#error not this op's own\n",
        "conv/dx/op_host/dx_def.cpp": "// OpDef\n",
        "conv/tr/op_kernel/tr.cpp": '#include "kernel_operator.h"\n#include "tiling_key.h"\n'
                                    '#include "../op_kernel/arch22/block.h"\n'
                                    'extern "C" __global__ __aicore__ void tr(GM_ADDR x) { (void)x; (void)DX_BLOCK; }\n',
        "conv/tr/op_kernel/tiling_key.h": '#pragma once\n#include "arch22/own.h"\n',
        "conv/tr/op_kernel/arch22/own.h": "#pragma once\n",
        "conv/tr/op_host/tr_def.cpp": "// OpDef ... AddConfig(\"ascend910b\")\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "conv/tr")
    assert (dest / "op_kernel" / "arch22" / "block.h").is_file() and (dest / "op_kernel" / "arch22" / "impl" / "util.h").is_file()
    assert not (dest / "op_kernel" / "arch22" / "arch35").exists()
    assert "#error" not in (dest / "op_kernel" / "arch22" / "own.h").read_text()
    _kernel_builds(dest, "tr", ("op_kernel/",))

LAMBDA_LAUNCH = """
#include "kernel_operator.h"
template <uint32_t rows, uint32_t parts, uint32_t chunk>
__global__ __vector__ void fill_rows(__gm__ uint8_t* y) {}
int32_t main(int32_t argc, char* argv[])
{
    struct Plan {
        uint32_t parts;
        uint32_t chunk;
    };
    constexpr uint32_t rows = 64;
    constexpr uint32_t small = 128;
    constexpr Plan plan = [=]() constexpr {
        if constexpr (MODE == 0) {
            return Plan{1, small};
        } else if constexpr (MODE == 1) {
            return Plan{4, small * 2};
        } else {
            return Plan{8, 32};
        }
    }();
    constexpr uint32_t parts = plan.parts;
    constexpr uint32_t chunk = plan.chunk;
    fill_rows<rows, parts, chunk><<<parts, 0, stream>>>(y);
    return 0;
}
"""


def test_template_arguments_from_a_constexpr_lambda_of_main_follow_the_scenario():
    "asc-devkit's add_high_performance: main picks the launch's template arguments in an immediately called lambda."
    assert corpus.asc_entry(LAMBDA_LAUNCH, "-DMODE=0") == "fill_rows<64, 1, 128>"
    assert corpus.asc_entry(LAMBDA_LAUNCH, "-DMODE=1") == "fill_rows<64, 4, 256>"
    assert corpus.asc_entry(LAMBDA_LAUNCH, "-DMODE=7") == "fill_rows<64, 8, 32>"
    # an unknown scenario leaves the names as they are (build() then reports them), never a guessed branch
    assert corpus.asc_entry(LAMBDA_LAUNCH) == "fill_rows<64, parts, chunk>"


TORCH_BINDING = """#include <torch/extension.h>
#include "torch_npu/csrc/core/npu/NPUStream.h"
#include "kernel_operator.h"
namespace my_ops {
constexpr uint32_t LEN = 256;
__global__ __vector__ void twice(__gm__ float* x, __gm__ float* y)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(x, LEN); yg.SetGlobalBuffer(y, LEN);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, LEN>();
    AscendC::DataCopy(a, xg, LEN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(a, a, a, LEN);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, a, LEN);
}
at::Tensor run_twice(const at::Tensor& x)
{
    at::Tensor y = at::empty_like(x);
    auto stream = c10_npu::getCurrentNPUStream().stream(false);
    my_ops::twice<<<1, 0, stream>>>((__gm__ float*)x.data_ptr(), (__gm__ float*)y.data_ptr());
    return y;
}
}  // namespace my_ops
TORCH_LIBRARY(my_ops, m) { m.def("run_twice(Tensor x) -> Tensor"); }
"""


def test_a_framework_binding_keeps_its_kernel_and_loses_its_host_code():
    "asc-devkit's 00_framework examples: a PyTorch / pybind11 / GE operator around a kernel; the kernel compiles alone."
    device = corpus.asc_kernel_source(TORCH_BINDING)
    assert len(device.split("\n")) == len(TORCH_BINDING.split("\n"))
    assert "torch/extension.h" not in device and "at::Tensor" not in device and "TORCH_LIBRARY" not in device
    assert "__global__ __vector__ void twice" in device
    entry = corpus.asc_entry(TORCH_BINDING)
    assert entry == "my_ops::twice"
    sources, chosen = corpus.global_scope_entry({"twice.cpp": device}, entry)
    assert chosen == "twice" and sources["twice.cpp"].rstrip().endswith("using my_ops::twice;")
    import numpy as np

    from ascendcraft.emu import GM, build, run
    b = build(sources, chosen)
    assert b.ok, [d.render() for d in b.diagnostics]
    x = np.arange(256, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(256, np.float32), "out")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], 2 * x)
    # a file without a framework include is left as it was
    assert corpus._without_framework_host("int main() { return 0; }\n") == "int main() { return 0; }\n"


HALVE_AND_ROWS = """
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"
std::vector<at::Tensor> halve_rows(at::Tensor x, const c10::optional<at::Tensor>& scale_opt, bool left,
                                   const std::string& mode) {
    TORCH_CHECK(x.dim() > 1, "x needs two dims");
    std::vector<int64_t> half = x.sizes().vec();
    half.back() /= 2;
    at::Tensor y = torch::empty(half, x.options().dtype(torch::kInt8));
    int64_t rows = 1;
    for (int64_t i = 0; i + 1 < x.dim(); ++i) rows *= x.size(i);
    at::Tensor r = torch::empty({rows}, x.options().dtype(torch::kFloat));
    at::Tensor scale = scale_opt.value_or(at::Tensor());
    const char* m = mode.c_str();
    EXEC_NPU_CMD(aclnnHalveRows, x, scale, left, m, y, r);
    return {y};
}
PYBIND11_MODULE(kernel_gen_ops, m) {
    m.doc() = "test";
    m.def("halve_rows", &halve_rows, "");
}
"""


def test_output_shapes_as_pybind_allocates_them():
    # pybind_shapes compiles the file against its shape-only torch stand-in and calls the bound function with the
    # call's shapes: y halves x's last dimension (int8), r has one entry per row of x (float32)
    from pybind_shapes import exec_calls, pybind_output_shapes
    definition = op("HalveRows", ["x", "scale"], ["y", "r"], attrs=["left", "mode"])
    call = [torch.zeros(3, 4, 10, dtype=torch.float16), None, True, "dynamic"]
    assert pybind_output_shapes(HALVE_AND_ROWS, definition, call) == {"y": ((3, 4, 5), "int8"), "r": ((12,), "float32")}
    name, items = exec_calls(HALVE_AND_ROWS, call)[0]
    assert name == "aclnnHalveRows" and items[0] == ("T", "float16", (3, 4, 10)) and items[1] is None and items[2:4] == ["S", "S"]
    # the bound function's own check fails (a 1-D x): no shapes; another aclnn name, or an API the stand-in lacks: none
    assert pybind_output_shapes(HALVE_AND_ROWS, definition, [torch.zeros(8), None, True, "static"]) == {}
    assert pybind_output_shapes(HALVE_AND_ROWS, op("Other", ["x", "scale"], ["y", "r"], attrs=["left", "mode"]), call) == {}
    assert pybind_output_shapes(HALVE_AND_ROWS.replace("x.size(i)", "x.stride(i)"), definition, call) == {}


def test_outputs_the_pybind_wrapper_zeroes_before_the_launch_start_at_zero():
    # a wrapper that zeroes one output (a kernel accumulating into it with atomic adds) and leaves the other as allocated
    wrapper = """
std::vector<at::Tensor> run_it(at::Tensor keys, at::Tensor vals)
{
    at::Tensor firstOut = torch::empty({keys.numel()}, keys.options());
    at::Tensor sumOut = torch::empty({keys.numel()}, vals.options());
    // sumOut.fill_(1); is only a comment
    sumOut.zero_();
    EXEC_NPU_CMD(aclnnAccumulate, keys, vals, firstOut, sumOut);
    return {firstOut, sumOut};
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("accumulate", &run_it, ""); }
"""
    definition = op("Accumulate", ["keys", "vals"], ["first", "sum"])
    assert pybind_calls.pybind_zeroed_outputs(wrapper, definition) == {"sum"}
    made = wrapper.replace("at::Tensor firstOut = torch::empty(", "at::Tensor firstOut = at::zeros(").replace("sumOut.zero_();", "")
    assert pybind_calls.pybind_zeroed_outputs(made, definition) == {"first"}
    filled = wrapper.replace("sumOut.zero_();", "firstOut.fill_(0.0f); sumOut.fill_(2);")
    assert pybind_calls.pybind_zeroed_outputs(filled, definition) == {"first"}   # a fill with another value is not zeroing
    assert pybind_calls.pybind_zeroed_outputs(wrapper.replace("sumOut.zero_();", ""), definition) == set()



BATCH_NORM_PYBIND = """
std::vector<at::Tensor> batch_norm_v3(at::Tensor input, c10::optional<at::Tensor> weightOptional,
    c10::optional<at::Tensor> biasOptional, at::Tensor runningMean, at::Tensor runningVar, bool training, double momentum,
    double eps)
{
    at::Tensor output = torch::empty_like(input);
    at::Tensor saveMean = torch::empty_like(runningMean);
    at::Tensor saveInvstd = torch::empty_like(runningVar);
    at::Tensor weight_npu = weightOptional.has_value() ? weightOptional.value() : at::Tensor();
    at::Tensor bias_npu = biasOptional.has_value() ? biasOptional.value() : at::Tensor();
    EXEC_NPU_CMD(aclnnBatchNorm, input, weight_npu, bias_npu, runningMean, runningVar, training, momentum, eps,
                 output, saveMean, saveInvstd);
    std::vector<at::Tensor> result = {output, saveMean, saveInvstd};
    return result;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("batch_norm_v3", &batch_norm_v3, ""); }
"""
BATCH_NORM_WRAPPER = """
aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
    aclTensor *runningMean, aclTensor *runningVar, bool training, double momentum, double eps, aclTensor *output,
    aclTensor *saveMean, aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    auto meanCast = l0op::Cast(runningMean, DataType::DT_FLOAT, executor);   // the statistics in float
    return ACLNN_SUCCESS;
}
"""


def batch_norm_op():
    nchw = ["FORMAT_NCHW", "FORMAT_NCHW", "FORMAT_NCDHW"]   # the 4-D and the 5-D columns
    p = lambda n, dts, fmts=("FORMAT_ND",) * 3: OpParam(n, "REQUIRED", list(dts), list(fmts))
    return OpDefinition("BatchNormV3", "op_host/batch_norm_v3_def.cpp", 1,
                        [p("x", ["DT_FLOAT", "DT_FLOAT16", "DT_FLOAT"], nchw), p("weight", ["DT_FLOAT", "DT_FLOAT16", "DT_FLOAT"]),
                         p("bias", ["DT_FLOAT", "DT_FLOAT16", "DT_FLOAT"]), p("running_mean", ["DT_FLOAT"] * 3),
                         p("running_var", ["DT_FLOAT"] * 3)],
                        [p("y", ["DT_FLOAT", "DT_FLOAT16", "DT_FLOAT"], nchw), p("running_mean", ["DT_FLOAT"] * 3),
                         p("running_var", ["DT_FLOAT"] * 3), p("save_mean", ["DT_FLOAT"] * 3),
                         p("save_rstd", ["DT_FLOAT"] * 3)],
                        [OpAttr("epsilon", "float"), OpAttr("momentum", "float"), OpAttr("is_training", "bool")])


def test_a_hand_written_aclnn_wrapper_is_followed_by_its_parameter_names():
    definition = batch_norm_op()
    host = {"op_host/aclnn_batch_norm.cpp": BATCH_NORM_WRAPPER}
    assert pybind_calls.pybind_layout(BATCH_NORM_PYBIND, definition, host) is None   # the wrapper's own order
    text, wrapped = pybind_calls.follow_wrapper(BATCH_NORM_PYBIND, definition, host)
    assert wrapped["api"] == "aclnnBatchNorm" and wrapped["casts"]
    assert dict((n, a) for a, n in wrapped["pairs"]) == {
        "x": "input", "weight": "weight", "bias": "bias", "running_mean": "runningMean", "running_var": "runningVar",
        "epsilon": "eps", "momentum": "momentum", "is_training": "training",
        "y": "output", "save_mean": "saveMean", "save_rstd": "saveInvstd"}   # the one left of the outputs, by place
    # the bound function's parameters: input 0, weightOptional 1, biasOptional 2, runningMean 3, runningVar 4,
    # training 5, momentum 6, eps 7
    assert pybind_calls.pybind_layout(text, definition, host) == {"inputs": [0, 1, 2, 3, 4], "attrs": [7, 6, 5],
                                                            "results": ["y", "save_mean", "save_rstd"]}
    # without l0op::Cast the wrapper converts nothing
    plain = {"op_host/aclnn_batch_norm.cpp": BATCH_NORM_WRAPPER.replace("l0op::Cast", "Keep")}
    assert pybind_calls.follow_wrapper(BATCH_NORM_PYBIND, definition, plain)[1]["casts"] is False
    # no wrapper in the op_host, or the generated API (aclnn<OpType>, which the op_host does not write): nothing to follow
    assert pybind_calls.follow_wrapper(BATCH_NORM_PYBIND, definition, {}) is None
    assert pybind_calls.follow_wrapper(BATCH_NORM_PYBIND.replace("aclnnBatchNorm", "aclnnBatchNormV3"), definition, host) is None
    # ... but an aclnn<OpType> the op_host writes by hand is the one the build links: its parameter names are followed
    own = pybind_calls.follow_wrapper(BATCH_NORM_PYBIND.replace("aclnnBatchNorm", "aclnnBatchNormV3"), definition,
                                {"op_host/aclnn_batch_norm.cpp": BATCH_NORM_WRAPPER.replace("aclnnBatchNorm", "aclnnBatchNormV3")})
    assert own is not None and own[1]["api"] == "aclnnBatchNormV3" and own[1]["pairs"] == wrapped["pairs"]


TOPK_PYBIND = """
std::vector<at::Tensor> custom_pybind_api(at::Tensor &self_tensor, int64_t k, int64_t dim, bool largest, bool sorted) {
    std::vector<int64_t> output_shape;
    for (int64_t i = 0; i < self_tensor.dim(); ++i) output_shape.push_back(i == dim ? k : self_tensor.size(i));
    at::Tensor values = torch::empty(output_shape, self_tensor.options().dtype(torch::kFloat16));
    at::Tensor indices = torch::empty(output_shape, self_tensor.options().dtype(torch::kInt64));
    EXEC_NPU_CMD(aclnnCustomOp, self_tensor, k, dim, largest, sorted, values, indices);
    return {values, indices};
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &custom_pybind_api, ""); }
"""


def test_a_scalar_of_the_hand_written_wrapper_named_like_an_op_input_is_that_input_as_a_one_element_tensor():
    # NPUKernelBench TopKV3: the build renames aclnnCustomOp to aclnnTopKV3, which the op_host writes by hand with an
    # int64_t k; the definition has a k tensor input (DT_INT32), which the wrapper makes of the scalar (ConvertToTensor)
    definition = op("TopKV3", ["x", "k"], ["values", "indices"], ["sorted", "dim", "largest"])
    definition.inputs[1] = OpParam("k", "REQUIRED", ["DT_INT32"], ["FORMAT_ND"])
    host = {"op_host/aclnn_top_kv3.h": "ACLNN_API aclnnStatus aclnnTopKV3GetWorkspaceSize(const aclTensor* self, "
            "int64_t k, int64_t dim, bool largest, bool sorted, aclTensor* valuesOut, aclTensor* indicesOut, "
            "uint64_t* workspaceSize, aclOpExecutor** executor);"}
    assert pybind_calls.pybind_layout(TOPK_PYBIND, definition, host) is None   # the op_host writes aclnnTopKV3 itself
    text, wrapped = pybind_calls.follow_wrapper(TOPK_PYBIND, definition, host)
    assert wrapped["api"] == "aclnnTopKV3" and wrapped["scalars"] == ["k"]
    assert wrapped["pairs"] == [("self", "x"), ("k", "k"), ("sorted", "sorted"), ("dim", "dim"), ("largest", "largest"),
                                ("valuesOut", "values"), ("indicesOut", "indices")]
    # the call's parameters: self_tensor 0, k 1, dim 2, largest 3, sorted 4
    assert pybind_calls.pybind_layout(text, definition, {}) == {"inputs": [0, 1], "attrs": [4, 2, 3],
                                                          "results": ["values", "indices"]}
    # the tensor made of k: one element of the one dtype the definition lists
    k = pybind_calls.scalar_tensor(definition.inputs[1], 3)
    assert k.dtype == torch.int32 and k.tolist() == [3]
    loose = OpParam("k", "REQUIRED", ["DT_INT32", "DT_INT64"], ["FORMAT_ND"] * 2)
    assert pybind_calls.scalar_tensor(loose, 3).dtype == torch.int64 and pybind_calls.scalar_tensor(loose, 0.5).dtype == torch.float32
    # a scalar named like an attribute stays an attribute (BatchNorm's eps = epsilon), and a wrapper whose scalar names
    # no input keeps the old grouping: MaskedSelectV3's wrapper (tensors only) cannot be split, so it is not followed
    assert "scalars" in wrapped and pybind_calls.follow_wrapper(BATCH_NORM_PYBIND, batch_norm_op(),
                                                          {"op_host/a.cpp": BATCH_NORM_WRAPPER})[1]["scalars"] == []
    masked = """at::Tensor custom_pybind_api(at::Tensor &input_tensor, at::Tensor &mask) {
        at::Tensor tmp_output = torch::empty({8}, input_tensor.options());
        EXEC_NPU_CMD(aclnnCustomOp, input_tensor, mask, tmp_output);
        return tmp_output; }
    PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &custom_pybind_api, ""); }"""
    assert pybind_calls.follow_wrapper(masked, op("MaskedSelectV3", ["x", "mask"], ["y"], []),
                                 {"op_host/aclnn_masked_select_v3.h": "aclnnStatus aclnnMaskedSelectV3GetWorkspaceSize("
                                  "const aclTensor* self, const aclTensor* mask, aclTensor* out, uint64_t* workspaceSize, "
                                  "aclOpExecutor** executor);"}) is None


def test_a_wrapper_whose_names_leave_several_parts_unmatched_is_not_followed():
    # MseLossGradV2: aclnnMseLossBackward(gradOutput, self, target, reduction, out) names none of predict, label, dout;
    # an order by place would be a guess (ModelNew's parameter names line them up instead)
    mse = """std::vector<at::Tensor> mse_loss_grad(at::Tensor gradOutput, at::Tensor self_input, at::Tensor target_input,
        int64_t reduction) {
        at::Tensor out = torch::empty_like(gradOutput);
        EXEC_NPU_CMD(aclnnMseLossBackward, gradOutput, self_input, target_input, reduction, out);
        return out;
    }
    PYBIND11_MODULE(kernel_gen_ops, m) { m.def("mse_loss_grad", &mse_loss_grad, ""); }"""
    host = {"op_host/aclnn_mse.h": "aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, "
            "const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out, uint64_t* workspaceSize, "
            "aclOpExecutor** executor);"}
    definition = op("MseLossGradV2", ["predict", "label", "dout"], ["y"], ["reduction"])
    assert pybind_calls.follow_wrapper(mse, definition, host) is None


def test_the_wrapper_casts_inputs_to_the_kernels_column_and_views_them_with_their_formats_rank():
    definition = batch_norm_op()
    wrapped = dict(api="aclnnBatchNorm", casts=True, pairs=[])
    half = lambda *shape: torch.rand(*shape, dtype=torch.float16)
    tensors, note = pybind_calls.wrapper_inputs(definition, [half(2, 64), half(64), half(64), half(64), half(64)], wrapped)
    assert [tuple(t.shape) for t in tensors] == [(2, 64, 1, 1), (64,), (64,), (64,), (64,)]   # x: NCHW is 4-D
    assert [t.dtype for t in tensors] == [torch.float16] * 3 + [torch.float32] * 2   # the float16 column's statistics
    assert "running_mean to float32" in note and "x viewed" in note
    # tensors a column takes as they are stay as they are; a 3-D x gets one unit dim
    given = [torch.rand(2, 64, 5), torch.rand(64), torch.rand(64), torch.rand(64), torch.rand(64)]
    tensors, note = pybind_calls.wrapper_inputs(definition, given, wrapped)
    assert tuple(tensors[0].shape) == (2, 64, 5, 1) and all(t.dtype == torch.float32 for t in tensors)
    assert "converted" not in note
    assert pybind_calls._format_rank(definition.outputs[0], (2, 64)) == (2, 64, 1, 1)   # the smallest rank of NCHW, NCDHW
    assert pybind_calls._format_rank(definition.outputs[3], (2, 64)) == (2, 64)         # ND: as it is
    # an int64 tensor (an int array of the call) for an int32 input: the wrapper's tensor of it is int32
    shaped = batch_norm_op()
    shaped.inputs.append(OpParam("normalized_shape", "REQUIRED", ["DT_INT32"] * 3, ["FORMAT_ND"] * 3))
    tensors, note = pybind_calls.wrapper_inputs(shaped, [half(2, 64), half(64), half(64), half(64), half(64),
                                                   torch.tensor([64])], wrapped)
    assert tensors[5].dtype == torch.int32 and tensors[5].tolist() == [64] and "normalized_shape to int32" in note
    # a wrapper that does not cast leaves the dtypes alone
    tensors, _ = pybind_calls.wrapper_inputs(definition, [half(2, 64), half(64), half(64), half(64), half(64)],
                                       dict(wrapped, casts=False))
    assert all(t.dtype == torch.float16 for t in tensors)


SCALE_TWICE_H = ("#pragma once\n#include \"kernel_operator.h\"\ntemplate <typename T>\n"
                 "__aicore__ inline void ScaleTwice(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& y, T a, "
                 "uint32_t n)\n{\n    AscendC::Muls(z, y, a, n);\n    AscendC::Muls(z, z, static_cast<T>(2), n);\n}\n")


def _scale_add_with_other_op(tmp_path, category: str, include: str, seed: int):
    """The example op project scale_add_custom in repository folder `category`, its kernel computing z = x + 2·alpha·y
    through ScaleTwice, a source of another op (`category/scaler/op_kernel/`) it names by `include`; that op also has its
    own kernel entry (which must not come along) and an op_host. Checks that the entry compiles alone and as a project,
    then runs the project against NumPy; returns the materialised copy for the caller's checks of where files went."""
    import numpy as np
    from ascendcraft.opproject import run_project
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    kernel = (example / "op_kernel" / "scale_add_custom.cpp").read_text()
    kernel = kernel.replace('#include "kernel_operator.h"\n', f'#include "kernel_operator.h"\n#include "{include}"\n', 1)
    kernel = kernel.replace("Muls(zLocal, yLocal, alpha, tileLength);", "ScaleTwice(zLocal, yLocal, alpha, tileLength);")
    assert kernel.count("scale_twice.cpp") == 1 and kernel.count("ScaleTwice(") == 1
    files = {f"{category}/scale_add_custom/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    files[f"{category}/scale_add_custom/op_kernel/scale_add_custom.cpp"] = kernel
    files.update({
        f"{category}/scaler/op_kernel/scale_twice.cpp": '#include "scale_twice.h"\n',
        f"{category}/scaler/op_kernel/scale_twice.h": SCALE_TWICE_H,
        f"{category}/scaler/op_kernel/scaler.cpp": "#error the other op's own kernel entry\n",
        f"{category}/scaler/op_host/scaler_def.cpp": "// OpDef\n",
    })
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "me/ops", "commit": commit, "path": f"{category}/scale_add_custom", "kind": "op-project"}
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], res
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    x, y = np.random.default_rng(seed).standard_normal((2, 48 * 512)).astype(np.float32)
    r = run_project(dest, {"x": torch.from_numpy(x), "y": torch.from_numpy(y)}, attrs={"alpha": 0.5},
                    reference=lambda x, y, alpha: x + 2 * alpha * y, atol=1e-5, rtol=1e-5)
    assert r.run.ok and not r.mismatches, r
    np.testing.assert_allclose(np.asarray(r.outputs["z"]), x + 2 * 0.5 * y, rtol=1e-5, atol=1e-5)
    return dest


def test_an_op_project_compiles_and_runs_with_another_ops_source_its_kernel_includes(tmp_path):
    """dynamic_rnnv2's kernel is `#include "../dynamic_rnn/LstmFP16.cpp"`: the named source is part of the project
    (load_project keeps a file outside op_host/ and op_kernel/ that a project file includes) and of the kernel's build
    (try_entry keeps every file but the op_host sources), and the kernel computes through it (NumPy)."""
    from ascendcraft.opproject import load_project
    dest = _scale_add_with_other_op(tmp_path, "ops", "../scaler/scale_twice.cpp", seed=5)
    project = load_project(dest)
    assert {"scaler/scale_twice.cpp", "scaler/scale_twice.h"} <= set(project.sources)
    assert "scaler/scaler.cpp" not in project.sources and not (dest / "scaler" / "scaler.cpp").exists()


def test_an_op_project_compiles_and_runs_with_another_ops_source_two_levels_up(tmp_path):
    """ops-transformer fused_infer_attention_score's kernel is `#include "../../incre_flash_attention/op_kernel/
    incre_flash_attention.cpp"` (another op of its category, from op_kernel/ two levels up), which names headers beside
    it: the source comes along (corpus), the project keeps it (load_project follows the include as g++ does, through the
    include folder at the includer's depth), the kernel and the project build, and the kernel computes through it."""
    from ascendcraft.opproject import load_project
    dest = _scale_add_with_other_op(tmp_path, "att", "../../scaler/op_kernel/scale_twice.cpp", seed=6)
    other = f"{corpus.SIBLINGS}/att/scaler/op_kernel"
    assert {f"{other}/scale_twice.cpp", f"{other}/scale_twice.h"} <= set(load_project(dest).sources)
    assert not (dest / other / "scaler.cpp").exists()


def test_a_template_kernel_compiled_one_key_at_a_time_is_checked_with_its_first_keys_instance(tmp_path, monkeypatch):
    """A tiling-template kernel of more instances than one build holds (opproject.TPL_ONE_BUILD_MAX; ops-transformer
    flash_attention_score's 1522) is compiled for one key: the kernel-alone check compiles its first instance and says
    which key (kernel_key); a build at key 0 would compile no instance at all."""
    import ascendcraft.opproject as opproject
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 2)
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"
    files = {f"ops/tpl_scale_custom/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "me/ops", "commit": commit, "path": "ops/tpl_scale_custom", "kind": "op-project"}
    res = corpus.try_entry((entry, gitdir, False, False))
    project = opproject.load_project(example)
    first = opproject.tpl_instances(project.sources, opproject.tpl_header(project.sources, project.kernel_file))[0].key
    assert res["kernel_ok"] and res["kernel_key"] == first, res
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 256)
    assert "kernel_key" not in corpus.try_entry((entry, gitdir, False, False))   # every instance in one build


def test_hicann_op_projects_have_their_ir_their_root_named_files_and_what_other_ops_headers_name(tmp_path):
    """What an ops-nn op_host source finds in the repository's own build: the op's IR beside op_host/
    (`#include "../op_graph/demo_proto.h"`, graph/operator_reg.h's REG_OP), its own files by their path from an include
    folder of the build (`#include "ops/demo/op_kernel/demo_tiling_data.h"`, from the repository's root, or
    `demo/op_kernel/...` from the category's folder), and the headers that another op's header names in turn by a ../
    path (swi_glu's `../../swi_glu_grad/op_host/..._regbase.h` includes `../op_kernel/arch35/..._tiling.h`; a header named
    from the category folder includes `../common/...`, conv3d_transpose_v2's case). The entry's
    copy has them, and a host source including all of them compiles; the graph-fusion sources of op_graph/ stay out."""
    import subprocess
    from ascendcraft.emu import INCLUDE_DIR
    from ascendcraft.opproject import include_dirs
    from ascendcraft.emu import read_sources
    files = {
        "ops/demo/op_graph/demo_proto.h": '#pragma once\n#include "graph/operator_reg.h"\nnamespace ge {\nREG_OP(Demo)\n'
                                          '    .INPUT(x, TensorType({DT_FLOAT}))\n    .OUTPUT(y, TensorType({DT_FLOAT}))\n'
                                          '    .ATTR(dim, Int, -1)\n    .OP_END_FACTORY_REG(Demo)\n}\n',
        "ops/demo/op_graph/fusion_pass/demo_pass.cpp": "#error not part of the op's build here\n",
        "ops/demo/op_kernel/demo_tiling_data.h": "#pragma once\nstruct DemoTilingData { int n; };\n",
        "ops/demo/op_kernel/demo.cpp": '#include "kernel_operator.h"\n#include "demo_tiling_data.h"\n',
        "ops/other/op_host/other_regbase.h": '#pragma once\n#include "../op_kernel/arch35/other_tiling.h"\n',
        "ops/other/op_kernel/arch35/other_tiling.h": "#pragma once\nconstexpr int OTHER_BLOCK = 32;\n",
        "ops/third/op_host/op_tiling/arch22/third_tiling.h": '#pragma once\n#include "../common/third_utils.h"\n',
        "ops/third/op_host/op_tiling/common/third_utils.h": "#pragma once\nconstexpr int THIRD_BLOCK = 16;\n",
        "ops/third/tests/ut/op_host/third_test.h": "#error a unit test's header\n",
        "ops/demo/op_host/demo_tiling.cpp": '#include "../op_graph/demo_proto.h"\n'
                                            '#include "ops/demo/op_kernel/demo_tiling_data.h"\n'
                                            '#include "demo/op_kernel/demo_tiling_data.h"\n'
                                            '#include "../../other/op_host/other_regbase.h"\n'
                                            '#include "third/op_host/op_tiling/arch22/third_tiling.h"\n'
                                            'int demo_tiling() { ge::op::Demo op; DemoTilingData t{OTHER_BLOCK + THIRD_BLOCK};\n'
                                            '    return static_cast<int>(op.get_attr_dim()) + t.n; }\n'
                                            '// OpDef ... AddConfig("ascend910b")\n',
    }
    dest = _ops_nn_copy(tmp_path, files, "ops/demo")
    assert (dest / "op_graph" / "demo_proto.h").is_file() and not (dest / "op_graph" / "fusion_pass").exists()
    sources = read_sources(dest)
    flags = [a for d in include_dirs(sources) for a in ("-iquote", d)]
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(INCLUDE_DIR), *flags, "op_host/demo_tiling.cpp"],
                          cwd=dest, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_ops_nn_host_headers_named_from_the_category_or_root_folder_reach_the_kernels_tiling(tmp_path):
    """ops-nn's build puts the repository root and the op's category folder on the op_host include path, so dynamic_rnnv2
    names `#include "dynamic_rnn/op_host/dynamic_rnn_common.h"`, whose folder declares (and registers for DynamicRNNV2)
    the tiling struct the kernel reads: that folder's headers come along, the two folders become include folders, and
    the kernel's build sees the struct; a folder nobody names does not come."""
    from ascendcraft.emu import build, read_sources
    files = {
        "rnn/base/op_host/base_common.h": '#pragma once\n#include "base_tiling.h"\n',
        "rnn/base/op_host/base_tiling.h": '#pragma once\n#include "register/tilingdata_base.h"\nnamespace optiling {\n'
            "BEGIN_TILING_DATA_DEF(BaseTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, rows);\nEND_TILING_DATA_DEF;\n"
            "REGISTER_TILING_DATA_CLASS(Base, BaseTilingData)\nREGISTER_TILING_DATA_CLASS(Derived, BaseTilingData)\n}\n",
        "rnn/base/op_host/base_def.cpp": "// OpDef\n",
        "rnn/unused/op_host/unused.h": "#pragma once\n#error not named\n",
        "math/shared/op_host/shared.h": "#pragma once\nconstexpr int SHARED_ROWS = 3;\n",
        "rnn/derived/op_host/derived_tiling.h": '#pragma once\n#include "base/op_host/base_common.h"\n'
                                                '#include "math/shared/op_host/shared.h"\n',
        "rnn/derived/op_host/derived_def.cpp": '#include "derived_tiling.h"\n// OpDef\n',
        "rnn/derived/op_kernel/derived.cpp": '#include "kernel_operator.h"\n'
            'extern "C" __global__ __aicore__ void derived(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)\n'
            "{\n    GET_TILING_DATA(t, tiling);\n    const BaseTilingData* p = &t;\n    (void)p; (void)x;\n}\n",
    }
    dest = _ops_nn_copy(tmp_path, files, "rnn/derived")
    repo = dest / corpus.SIBLINGS
    assert (repo / "rnn" / "base" / "op_host" / "base_tiling.h").is_file() and (repo / "math" / "shared" / "op_host" / "shared.h").is_file()
    assert (repo / "rnn" / "ascendcraft_corpus_include_root.h").is_file() and (repo / "ascendcraft_corpus_include_root.h").is_file()
    assert not (repo / "rnn" / "unused").exists()
    sources = {k: v for k, v in read_sources(dest).items() if not k.startswith("op_host/") or k.endswith(".h")}
    from ascendcraft.config import load_settings
    settings = load_settings()
    b = build(sources, "derived", settings=settings.replace(cxxflags=f"{settings.cxxflags} -DASCENDCRAFT_OP_TYPE=Derived"))
    assert b.ok, b.log[-1500:]
    no_root = {k: v for k, v in sources.items() if not k.startswith(corpus.SIBLINGS + "/")}
    assert not build(no_root, "derived", settings=settings.replace(cxxflags=f"{settings.cxxflags} -DASCENDCRAFT_OP_TYPE=Derived")).ok


def test_a_host_source_of_the_same_build_target_is_linked_when_the_ops_host_code_needs_it(tmp_path, monkeypatch):
    """hicann ops-nn builds every op's host sources into one library, so an op's tiling calls code of its category's
    common/op_host folder (conv3d_backprop_filter_v2 -> conv/common/op_host/op_tiling/conv_platform_util.cpp) and of
    the ops its op_host/CMakeLists.txt names as DEPENDENCIES (swi_glu -> swi_glu_grad's GluBaseTiling4RegBase). The op's
    host build fails to link without those sources; the harness brings in the ones that define a symbol the link names
    undefined, and no other (a source that does not compile, another folder's same-named function, the named op's
    definition)."""
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    files = {f"ops/scale_add_custom/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    host = files["ops/scale_add_custom/op_host/scale_add_custom.cpp"]
    host = host.replace('#include "register/op_def_registry.h"\n', '#include "register/op_def_registry.h"\n'
                        '#include "../../common/op_host/op_tiling/align_util.h"\n'
                        '#include "../../scaler/op_host/scaler_tiling_base.h"\n', 1)
    host = host.replace("const uint32_t align = ALIGN_BYTES / typeSize;",
                        "const uint32_t align = Ops::Demo::Util::AlignElements(typeSize);\n"
                        "    if (optiling::ScalerBase().Tiles() != UB_TILES) return ge::GRAPH_FAILED;")
    assert host.count("AlignElements") == 1 and host.count("scaler_tiling_base.h") == 1
    files["ops/scale_add_custom/op_host/scale_add_custom.cpp"] = host
    files.update({
        "ops/scale_add_custom/op_host/CMakeLists.txt":
            "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR}\n"
            "    OPTYPE scale_add_custom ACLNNTYPE aclnn DEPENDENCIES scaler)\n",
        "ops/common/op_host/op_tiling/align_util.h":
            "#pragma once\n#include <cstdint>\nnamespace Ops {\nnamespace Demo {\nnamespace Util {\n"
            "uint32_t AlignElements(uint32_t typeSize);\n}\n}\n}\n",
        "ops/common/op_host/op_tiling/align_util.cpp":
            '#include "align_util.h"\nnamespace Ops {\nnamespace Demo {\nnamespace Util {\n'
            "uint32_t AlignElements(uint32_t typeSize) { return 256 / typeSize; }\n}\n}\n}\n",
        "ops/common/op_host/op_tiling/broken.cpp": "#error a common source the link does not need\n",
        "ops/common/op_host/op_api/align_api.cpp": "#error aclnn code\nuint32_t AlignElements(uint32_t t) { return t; }\n",
        "ops/scaler/op_host/CMakeLists.txt": "add_modules_sources(OPTYPE scaler DEPENDENCIES scale_add_custom)\n",
        "ops/scaler/op_host/scaler_tiling_base.h": "#pragma once\n#include <cstdint>\nnamespace optiling {\n"
            "class ScalerBase {\npublic:\n    virtual ~ScalerBase() = default;\n    virtual uint32_t Tiles() const;\n};\n}\n",
        "ops/scaler/op_host/scaler_tiling_base.cpp": '#include "scaler_tiling_base.h"\n'
            "namespace optiling {\nuint32_t ScalerBase::Tiles() const { return 3 * 2; }\n}\n",
        "ops/scaler/op_host/scaler_def.cpp": "#error the named op's definition\nOP_ADD(Scaler);\n",
        "ops/unrelated/op_host/util.cpp": "#error a folder the build target does not join\n"
            "namespace Util { uint32_t AlignElements(uint32_t typeSize) { return typeSize; } }\n",
    })
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "ops/scale_add_custom", "kind": "op-project"}
    with monkeypatch.context() as m:   # without the other sources: the link fails
        m.setattr(corpus, "link_sources", lambda *a, **k: [])
        res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and not res["project_ok"] and "undefined reference" in res["project_error"], res
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], res
    assert res["linked"] == ["ops/common/op_host/op_tiling/align_util.cpp", "ops/scaler/op_host/scaler_tiling_base.cpp"]
    assert corpus.link_candidates(gitdir, commit, "ops/scale_add_custom") == [
        "ops/common/op_host/op_tiling/align_util.cpp", "ops/common/op_host/op_tiling/broken.cpp",
        "ops/scaler/op_host/scaler_tiling_base.cpp"]


def test_ops_nn_host_code_is_built_as_its_sub_package_with_the_legacy_library_adapters(tmp_path):
    """hicann ops-nn built against an installed CANN (its sub-package build, cmake/func.cmake) defines
    NN_ENABLE_DLOPEN_LEGACY for the op hosts and adds common/src/*.cpp and common/src/op_host/*.cpp to the tiling target:
    the matmul tilings then call Ops::NN::GenTiling & co., adapters that dlopen CANN's libophost_comm_legacy.so and,
    where it is absent (here), return false. Without the define the same call names optiling::GenTiling of CANN's closed
    library, which no source defines: ops-nn mat_mul_v3 / gemm_v2 stopped there. common/src/framework/ is not linked."""
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    files = {f"ops/scale_add_custom/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    host = files["ops/scale_add_custom/op_host/scale_add_custom.cpp"]
    host = host.replace('#include "register/op_def_registry.h"\n', '#include "register/op_def_registry.h"\n'
                        '#include "op_host/legacy_tiling.h"\n', 1)
    host = host.replace("const uint32_t align = ALIGN_BYTES / typeSize;",
                        "const uint32_t align = ALIGN_BYTES / typeSize;\n"
                        "    if (Ops::NN::GenTiling(\"ScaleAddCustom\")) return ge::GRAPH_FAILED;   // no legacy library here")
    assert host.count("GenTiling") == 1
    files["ops/scale_add_custom/op_host/scale_add_custom.cpp"] = host
    files.update({
        "ops/scale_add_custom/op_host/CMakeLists.txt": "add_modules_sources(OPTYPE scale_add_custom ACLNNTYPE aclnn)\n",
        "common/inc/op_host/legacy_tiling.h": "#pragma once\n#include <string>\n#ifdef NN_ENABLE_DLOPEN_LEGACY\n"
            "namespace Ops {\nnamespace NN {\nbool GenTiling(const std::string& opType);\n}\n}\n#else\n"
            "namespace optiling {\nbool GenTiling(const std::string& opType);\n}\n"
            "namespace Ops {\nnamespace NN {\nusing optiling::GenTiling;\n}\n}\n#endif\n",
        "common/inc/legacy_manager.h": "#pragma once\n#include <dlfcn.h>\nnamespace Ops {\nnamespace NN {\n"
            "class LegacyMgr {\npublic:\n    static const LegacyMgr& GetInstance();\n"
            "    void* GetFunc(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }\n"
            "    void* handle_ = nullptr;\n};\n}\n}\n",
        "common/src/legacy_manager.cpp": '#include "legacy_manager.h"\nnamespace Ops {\nnamespace NN {\n'
            "const LegacyMgr& LegacyMgr::GetInstance() {\n    static LegacyMgr mgr{dlopen(\"libophost_comm_legacy.so\", RTLD_LAZY)};\n"
            "    return mgr;\n}\n}\n}\n",
        "common/src/op_host/legacy_tiling.cpp": '#include "op_host/legacy_tiling.h"\n#include "legacy_manager.h"\n'
            "namespace Ops {\nnamespace NN {\nbool GenTiling(const std::string& opType) {\n"
            '    using Fn = bool (*)(const std::string&);\n    auto f = reinterpret_cast<Fn>(LegacyMgr::GetInstance().GetFunc("LegacyGenTiling"));\n'
            "    return f != nullptr && f(opType);\n}\n}\n}\n",
        "common/src/framework/plugin.cpp": "#error an ONNX plugin: not the tiling target's\nbool GenTiling() { return 1; }\n",
    })
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "ops/scale_add_custom", "kind": "op-project"}
    assert corpus.link_candidates(gitdir, commit, "ops/scale_add_custom") == [
        "common/src/legacy_manager.cpp", "common/src/op_host/legacy_tiling.cpp"]
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], (res.get("project_error"), res.get("linked"))
    assert res["linked"] == ["common/src/legacy_manager.cpp", "common/src/op_host/legacy_tiling.cpp"]


def test_the_sources_every_op_adds_to_the_shared_optiling_target_are_link_candidates(tmp_path):
    """cann-ops: each op's CMakeLists.txt adds its tiling sources to one `optiling` library with target_sources(optiling
    PRIVATE ...), named relative to its folder or by a file(GLOB[_RECURSE] ...) variable; batch_mat_mul_v3's tiling
    derives from mat_mul_v3's MatmulV3BaseTiling, whose source only mat_mul_v3's list names. A source no list names
    (an example's main.cpp), another target's list and a commented-out line are not candidates; the op's own are not."""
    files = {
        "src/mm/mm_v3/CMakeLists.txt": "target_sources(optiling PRIVATE\n    op_host/mm_v3_tiling.cpp\n"
            "    op_host/mm_v3_base_tiling.cpp\n#   op_host/mm_v3_old.cpp\n)\ntarget_sources(opsproto PRIVATE op_host/mm_v3_def.cpp)\n",
        "src/mm/mm_v3/op_host/mm_v3_tiling.cpp": "int MmV3() { return 1; }\n",
        "src/mm/mm_v3/op_host/mm_v3_base_tiling.cpp": "int MmV3Base() { return 2; }\n",
        "src/mm/mm_v3/op_host/mm_v3_old.cpp": "int MmV3Old() { return 3; }\n",
        "src/mm/mm_v3/op_host/mm_v3_def.cpp": "int MmV3Def() { return 4; }\n",
        "src/mm/bmm_v3/CMakeLists.txt": 'file(GLOB_RECURSE EXTRA_SRC_FILES\n    "../../common/op_host/op_tiling/*.cc"\n)\n'
            "target_sources(optiling PRIVATE\n        op_host/bmm_v3_tiling.cpp\n        ${EXTRA_SRC_FILES}\n)\n",
        "src/mm/bmm_v3/op_host/bmm_v3_tiling.cpp": "int MmV3Base();\nint Bmm() { return MmV3Base(); }\n",
        "src/common/op_host/op_tiling/cube/cache_tiling.cc": "int Cache() { return 5; }\n",
        "src/common/op_host/op_tiling/cube/cache_tiling.h": "int Cache();\n",
        "src/mm/mm_v3/examples/main.cpp": "int MmV3Base() { return 0; }\nint main() { return 0; }\n",
    }
    gitdir, commit = git_repo(tmp_path, files)
    assert corpus.optiling_sources(gitdir, commit) == (
        "src/mm/bmm_v3/op_host/bmm_v3_tiling.cpp", "src/common/op_host/op_tiling/cube/cache_tiling.cc",
        "src/mm/mm_v3/op_host/mm_v3_tiling.cpp", "src/mm/mm_v3/op_host/mm_v3_base_tiling.cpp")
    assert corpus.link_candidates(gitdir, commit, "src/mm/bmm_v3") == ["src/common/op_host/op_tiling/cube/cache_tiling.cc",
        "src/mm/mm_v3/op_host/mm_v3_tiling.cpp", "src/mm/mm_v3/op_host/mm_v3_base_tiling.cpp"]


def test_the_shared_optiling_target_is_read_from_only_the_build_files_that_name_it(tmp_path, monkeypatch):
    """optiling_sources reads (git show) only the CMakeLists.txt that name both `target_sources` and `optiling`, found by
    one search of the commit: hicann ops-nn has 4,292 build files and none names the target, and reading each cost about
    90 s of the first link round. The result is the same: a file that names them only in a comment is read and gives
    nothing, and a build file that names neither is not read at all."""
    files = {
        "src/mm/mm_v3/CMakeLists.txt": "target_sources(optiling PRIVATE\n    op_host/mm_v3_tiling.cpp\n)\n",
        "src/mm/mm_v3/op_host/mm_v3_tiling.cpp": "int MmV3() { return 1; }\n",
        "src/mm/old/CMakeLists.txt": "# target_sources(optiling PRIVATE op_host/old_tiling.cpp)\nadd_subdirectory(x)\n",
        "src/mm/old/op_host/old_tiling.cpp": "int Old() { return 2; }\n",
        "CMakeLists.txt": "project(ops)\nadd_subdirectory(src)\n",
        **{f"src/ops/op{k}/CMakeLists.txt": f"add_modules_sources(OPTYPE op{k} ACLNNTYPE aclnn)\n" for k in range(5)},
    }
    gitdir, commit = git_repo(tmp_path, files)
    read, show = [], corpus.show
    monkeypatch.setattr(corpus, "show", lambda g, c, p: read.append(p) or show(g, c, p))
    assert corpus.optiling_sources(gitdir, commit) == ("src/mm/mm_v3/op_host/mm_v3_tiling.cpp",)
    # (and the root file, once, for the folder variables its `set(VAR ${CMAKE_CURRENT_SOURCE_DIR}/...)` gives the others)
    assert sorted(p for p in read if p.endswith("CMakeLists.txt")) == \
        ["CMakeLists.txt", "src/mm/mm_v3/CMakeLists.txt", "src/mm/old/CMakeLists.txt"]


def test_a_dependency_whose_build_file_sits_at_the_ops_root_is_a_link_candidate(tmp_path):
    """hicann ops-nn rnn/dynamic_rnnv2 names DEPENDENCIES dynamic_rnn, whose add_modules_sources call is in
    rnn/dynamic_rnn/CMakeLists.txt (DIR the op's folder), not in an op_host/CMakeLists.txt: its op_host sources
    (dynamic_lstm_tiling.cpp, the LstmBaseTiling methods dynamic_rnnv2's tiling calls) are candidates all the same. An op
    that keeps its own call at its root is read there too; a folder that only ends with the name is not the op."""
    cmake = "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE %s %s)\n"
    files = {
        "rnn/base_rnn/CMakeLists.txt": cmake % ("base_rnn", ""),
        "rnn/base_rnn/op_host/base_rnn_tiling.cpp": "int BaseRnn() { return 1; }\n",
        "rnn/base_rnn/op_host/base_rnn_def.cpp": "OP_ADD(BaseRnn);\n",
        "rnn/base_rnn/tests/ut/op_host/test_base_rnn.cpp": "int Test() { return 0; }\n",
        "rnn/my_base_rnn/op_host/other.cpp": "int Other() { return 2; }\n",
        "rnn/rnn_v2/op_host/CMakeLists.txt": cmake % ("rnn_v2", "DEPENDENCIES base_rnn"),
        "rnn/rnn_v2/op_host/rnn_v2_tiling.cpp": "int BaseRnn();\nint V2() { return BaseRnn(); }\n",
        "rnn/rnn_v3/CMakeLists.txt": cmake % ("rnn_v3", "DEPENDENCIES base_rnn"),
        "rnn/rnn_v3/op_host/rnn_v3_tiling.cpp": "int BaseRnn();\nint V3() { return BaseRnn(); }\n",
    }
    gitdir, commit = git_repo(tmp_path, files)
    assert corpus.link_candidates(gitdir, commit, "rnn/rnn_v2") == ["rnn/base_rnn/op_host/base_rnn_tiling.cpp"]
    assert corpus.link_candidates(gitdir, commit, "rnn/rnn_v3") == ["rnn/base_rnn/op_host/base_rnn_tiling.cpp"]
    assert corpus.link_candidates(gitdir, commit, "rnn/base_rnn") == []


def _gemm_on_base_mm(tmp_path, files: dict):
    """A repository whose op mm/gemm depends on mm/base_mm (their CMakeLists.txt, as ops-nn writes them), with `files`
    besides: its git dir, gemm's entry, and an empty project folder to link into."""
    cmake = {"mm/base_mm/CMakeLists.txt": "add_all_modules_sources(\n    ACLNNTYPE aclnn_exclude\n)\n",
             "mm/gemm/CMakeLists.txt": "add_all_modules_sources(\n    DEPENDENCIES base_mm\n)\n"}
    gitdir, commit = git_repo(tmp_path / "repo", {**cmake, **files})
    dest = tmp_path / "dest"
    (dest / "op_host").mkdir(parents=True)
    return gitdir, {"repo": "hicann/ops-nn", "commit": commit, "path": "mm/gemm", "kind": "op-project"}, dest


def test_a_linked_ascend_950_source_is_forwarded_from_an_arch35_folder(tmp_path):
    """ops-nn mat_mul_v3's link brings batch_mat_mul_v3's arch35 batch_matmul_v3_tiling_advanced.cpp beside the A2
    adapters: its forwarder sits in op_host/arch35/, so the project build's A2-first tries (which leave out every
    op_host path with an arch35 folder) leave it out as they do the op's own Ascend 950 sources; an A2 source's
    forwarder stays in op_host/. Both include their copy by a path that exists."""
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, {
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp": "int BaseMm() { return 1; }\n",
        "mm/base_mm/op_host/op_tiling/arch35/base_mm_advanced.cpp": "int BaseMmAdvanced() { return 2; }\n",
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint BaseMmAdvanced();\nint Gemm() { return BaseMm() + BaseMmAdvanced(); }\n",
    })
    log = "undefined reference to `BaseMm()'\nundefined reference to `BaseMmAdvanced()'"
    assert sorted(corpus.link_sources(entry, gitdir, dest, log, set())) == [
        "mm/base_mm/op_host/op_tiling/arch35/base_mm_advanced.cpp", "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp"]
    forwarders = sorted(p.relative_to(dest).as_posix() for p in (dest / "op_host").rglob(f"{corpus.LINKED}_*.cpp"))
    assert len(forwarders) == 2 and sum(f.startswith("op_host/arch35/") for f in forwarders) == 1, forwarders
    for f in forwarders:
        text = (dest / f).read_text()
        target = re.search(r'#include "([^"]+)"', text).group(1)
        assert (dest / f).parent.joinpath(target).resolve().is_file(), (f, target)
        assert ("arch35" in target) == f.startswith("op_host/arch35/")


def test_a_linked_source_brings_the_shared_and_root_named_headers_it_includes(tmp_path):
    """hicann ops-nn gemm_v2's link takes mat_mul_v3's matmul_v3_base_tiling.cpp, which includes common/inc's
    op_host/tiling_key.h (the build's include path) and matmul/common/op_host/op_tiling/debug_tiling.h (a path from
    the repository's root): those come along with it, as the op's own files' do, and nothing else of common/inc."""
    files = {
        "common/inc/op_host/tiling_key.h": "#pragma once\n#define KEY 3\n",
        "common/inc/op_host/unused.h": "#pragma once\n",
        "mm/common/op_host/op_tiling/debug_tiling.h": "#pragma once\ninline int Debug() { return 0; }\n",
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp": '#include "op_host/tiling_key.h"\n'
            '#include "mm/common/op_host/op_tiling/debug_tiling.h"\nint BaseMm() { return KEY + Debug(); }\n',
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint Gemm() { return BaseMm(); }\n",
    }
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, files)
    added = corpus.link_sources(entry, gitdir, dest, "undefined reference to `BaseMm()'", set())
    assert added == ["mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp"]
    assert (dest / "common_inc/op_host/tiling_key.h").read_text() == files["common/inc/op_host/tiling_key.h"]
    assert not (dest / "common_inc/op_host/unused.h").exists()
    assert (dest / corpus.SIBLINGS / "mm/common/op_host/op_tiling/debug_tiling.h").is_file()
    assert (dest / corpus.SIBLINGS / "ascendcraft_corpus_include_root.h").is_file()


def test_a_linked_sources_header_naming_the_ops_own_file_or_a_kernel_tiling_key_from_the_root_resolves(tmp_path):
    """ops-nn batch_mat_mul_v3's arch35 tiling header, linked into the mat_mul_v3 build, names mat_mul_v3's own
    matmul_v3_tiling_advanced.h from the repository root: a forwarder at that path includes the op's copy (one file under
    both names). A header beside the linked source counts (the .cpp itself names only its local header), and another
    op's kernel tiling-key header named from the root comes along as a host header does (fused_mat_mul's
    fused_mat_mul_tilingkey.h)."""
    files = {
        "mm/gemm/op_host/op_tiling/gemm_adv.h": "#pragma once\ninline int GemmAdv() { return 4; }\n",
        "mm/other/op_kernel/other_tiling_key.h": "#pragma once\n#define OTHER_KEY 5\n",
        "mm/base_mm/op_host/op_tiling/base_mm_adv.h": '#pragma once\n#include "mm/gemm/op_host/op_tiling/gemm_adv.h"\n'
            '#include "mm/other/op_kernel/other_tiling_key.h"\n',
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp": '#include "base_mm_adv.h"\nint BaseMm() { return GemmAdv() + OTHER_KEY; }\n',
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint Gemm() { return BaseMm(); }\n",
    }
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, files)
    (dest / "op_host/op_tiling").mkdir(parents=True)
    (dest / "op_host/op_tiling/gemm_adv.h").write_text(files["mm/gemm/op_host/op_tiling/gemm_adv.h"])   # the op's copy
    assert corpus.link_sources(entry, gitdir, dest, "undefined reference to `BaseMm()'", set()) == [
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp"]
    forwarder = dest / corpus.SIBLINGS / "mm/gemm/op_host/op_tiling/gemm_adv.h"
    target = re.search(r'#include "([^"]+)"', forwarder.read_text()).group(1)
    assert forwarder.parent.joinpath(target).resolve() == (dest / "op_host/op_tiling/gemm_adv.h").resolve()
    assert (dest / corpus.SIBLINGS / "mm/other/op_kernel/other_tiling_key.h").read_text() == files["mm/other/op_kernel/other_tiling_key.h"]
    assert (dest / corpus.SIBLINGS / "ascendcraft_corpus_include_root.h").is_file()


def test_a_linked_sources_headers_bring_what_they_name_from_the_root_in_turn(tmp_path):
    """ops-nn fused_quant_mat_mul links quant_batch_matmul_v3's tiling, whose arch20/ header reaches another op's header
    by a ../ path, and that header names a third op's header from the repository's root: it comes along too (before,
    only the linked sources and their folders' headers were read for root names, the unit did not compile, and the
    link try holding PlatformUtil::ParseRuntimePlatformInfo's source was passed over)."""
    files = {
        "mm/third/op_host/op_tiling/third_tiling.h": "#pragma once\ninline int Third() { return 6; }\n",
        "mm/other/op_host/op_tiling/other_tiling.h": '#pragma once\n#include "mm/third/op_host/op_tiling/third_tiling.h"\n',
        "mm/base_mm/op_host/op_tiling/arch20/base_mm_a2.h":
            '#pragma once\n#include "../../../../other/op_host/op_tiling/other_tiling.h"\n',
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp": '#include "arch20/base_mm_a2.h"\nint BaseMm() { return Third(); }\n',
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint Gemm() { return BaseMm(); }\n",
    }
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, files)
    assert corpus.link_sources(entry, gitdir, dest, "undefined reference to `BaseMm()'", set()) == [
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp"]
    sib = dest / corpus.SIBLINGS
    assert (sib / "mm/other/op_host/op_tiling/other_tiling.h").is_file()    # by the ../ path
    assert (sib / "mm/third/op_host/op_tiling/third_tiling.h").read_text() == files["mm/third/op_host/op_tiling/third_tiling.h"]
    assert (sib / "ascendcraft_corpus_include_root.h").is_file()


def test_a_linked_sources_kernel_header_finds_a_third_ops_kernel_header_in_the_kernel_builds_layout(tmp_path):
    """ops-nn: quant_batch_matmul_v3's linked tiling reaches batch_mat_mul_v3/op_kernel/batch_mat_mul_v3_tiling_data.h,
    which names `../mat_mul_v3/mat_mul_v3_tiling_data.h` as the kernel build lays op_kernel/ folders out (under the
    op's name): no such path in the repository, so mat_mul_v3's op_kernel/ headers go where that name resolves, and
    what they name the same way follows."""
    files = {
        "mm/third/op_kernel/third_tiling_data.h": '#pragma once\n#include "../fourth/fourth.h"\nstruct Third { int a; };\n',
        "mm/third/op_kernel/third_beside.h": "#pragma once\n",
        "mm/fourth/op_kernel/fourth.h": "#pragma once\n",
        "mm/base_mm/op_kernel/base_mm_tiling_data.h": '#pragma once\n#include "../third/third_tiling_data.h"\n',
        "mm/base_mm/op_host/base_mm_tiling.cpp": '#include "../op_kernel/base_mm_tiling_data.h"\nint BaseMm() { return sizeof(Third); }\n',
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint Gemm() { return BaseMm(); }\n",
    }
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, files)
    assert corpus.link_sources(entry, gitdir, dest, "undefined reference to `BaseMm()'", set()) == [
        "mm/base_mm/op_host/base_mm_tiling.cpp"]
    sib = dest / corpus.SIBLINGS
    assert (sib / "mm/base_mm/op_kernel/base_mm_tiling_data.h").is_file()
    assert (sib / "mm/base_mm/third/third_tiling_data.h").read_text() == files["mm/third/op_kernel/third_tiling_data.h"]
    assert (sib / "mm/base_mm/third/third_beside.h").is_file()
    assert (sib / "mm/base_mm/fourth/fourth.h").is_file()


def test_a_dependency_named_by_add_all_modules_sources_is_a_link_candidate(tmp_path):
    """hicann ops-nn matmul/gemm_v2's CMakeLists.txt calls add_all_modules_sources(ACLNNTYPE ... DEPENDENCIES
    mat_mul_v3), the form without HOSTNAME / DIR: mat_mul_v3's op_host sources (MatmulV3BaseTiling's methods, which
    gemm_v2's tiling derives from) are candidates as with add_modules_sources; a call of another name is not read."""
    files = {
        "mm/base_mm/CMakeLists.txt": "add_all_modules_sources(\n    ACLNNTYPE aclnn_exclude\n)\n",
        "mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp": "int BaseMm() { return 1; }\n",
        "mm/gemm/CMakeLists.txt": "add_all_modules_sources(\n    ACLNNTYPE aclnn_exclude\n    DEPENDENCIES base_mm\n)\n",
        "mm/gemm/op_host/gemm_tiling.cpp": "int BaseMm();\nint Gemm() { return BaseMm(); }\n",
        "mm/other/CMakeLists.txt": "my_add_all_modules_sources(\n    DEPENDENCIES base_mm\n)\n",
        "mm/other/op_host/other_tiling.cpp": "int Other() { return 2; }\n",
    }
    gitdir, commit = git_repo(tmp_path, files)
    assert corpus.link_candidates(gitdir, commit, "mm/gemm") == ["mm/base_mm/op_host/op_tiling/base_mm_tiling.cpp"]
    assert corpus.link_candidates(gitdir, commit, "mm/other") == []

def test_another_ops_tiling_header_no_file_of_the_op_includes_is_left_out(tmp_path):
    # hicann ops-nn foreach_*: the copy of foreach_utils/op_host brings two tiling headers that define the same
    # optiling constant; the op's host includes one (through ../ paths and another header), the other (the norm op's) is
    # not the op's and goes, while headers without tiling structs and the op's own files stay
    sib = tmp_path / corpus.SIBLINGS / "cat/utils/op_host"
    sib.mkdir(parents=True)
    (sib / "util_class.h").write_text('#include "util_def.h"\n')
    (sib / "util_def.h").write_text("namespace optiling {\nconstexpr int MAXN = 8;\nBEGIN_TILING_DATA_DEF(UtilData)\n"
                                    "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(CatAbs, UtilData)\n}\n")
    (sib / "util_reduce_def.h").write_text("namespace optiling {\nconstexpr int MAXN = 8;\n"
                                           "BEGIN_TILING_DATA_DEF(ReduceData)\nEND_TILING_DATA_DEF;\n}\n")
    (sib / "util_plain.h").write_text("// #include \"util_reduce_def.h\" (a comment names it: not an include)\n")
    (sib / "util_shared_def.h").write_text("namespace optiling {\nREGISTER_TILING_DATA_CLASS(CatAbs, UtilData)\n}\n")
    host = tmp_path / "op_host/arch22"
    host.mkdir(parents=True)
    (host / "cat_abs_tiling.cpp").write_text('#include "../../../utils/op_host/util_class.h"\n')
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_kernel/cat_abs.cpp").write_text('#include "kernel_operator.h"\n')
    corpus._drop_unreached_sibling_tiling(tmp_path, "CatAbs")   # (one that registers the op's type stays, unreached)
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert left == [f"{corpus.SIBLINGS}/cat/utils/op_host/{n}" for n in ("util_class.h", "util_def.h", "util_plain.h",
                                                                              "util_shared_def.h")] + \
        ["op_host/arch22/cat_abs_tiling.cpp", "op_kernel/cat_abs.cpp"]


def test_a_validation_that_imports_a_missing_module_names_the_install_that_brings_it():
    "NPUKernelBench's Spence imports SciPy in its reference: without the corpus extra the row says which install fixes it."
    missing = npukb.validation_problem(ModuleNotFoundError("No module named 'scipy'", name="scipy"))
    assert missing.startswith("validation: ModuleNotFoundError: No module named 'scipy'")
    assert "pip install -e '.[corpus]'" in missing
    other = npukb.validation_problem(FileNotFoundError("validation/test_cases.csv"))
    assert other == "validation: FileNotFoundError: validation/test_cases.csv" and "pip install" not in other


def test_run_out_may_name_a_folder_and_a_missing_folder_stops_before_any_entry(tmp_path, capsys):
    # `--out DIR` wrote every entry's line to DIR.jsonl and then failed on DIR itself, after the whole run
    assert corpus.main(["run", "--out", str(tmp_path), "--source", "no entry has this text"]) == 0
    assert (tmp_path / "results.json").read_text().strip() == "[]"
    missing = tmp_path / "nowhere" / "results.json"
    try:
        corpus.main(["run", "--out", str(missing)])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError("a run into a folder that does not exist started")
    assert "nowhere does not exist" in capsys.readouterr().err
    assert not missing.with_suffix(".jsonl").exists()


def test_a_path_out_of_the_op_named_from_a_deeper_folder_resolves_from_an_include_folder(tmp_path):
    # hicann ops-nn foreach_abs: op_host/arch22/foreach_abs_tiling_arch22.cpp includes
    # "../../../foreach_utils/op_host/foreach_tiling_class.h", one level deeper than op_host/; the copy of that folder
    # must be reachable from an include folder at the includer's own depth, as it is in the repository
    files = {
        "cat/cat_abs/op_host/arch22/cat_abs_tiling.cpp": '#include "../../../utils/op_host/util_class.h"\n',
        "cat/cat_abs/op_host/cat_abs_def.cpp": '#include "../../utils/op_host/util_def.h"\n',
        "cat/cat_abs/op_kernel/cat_abs.cpp": '#include "kernel_operator.h"\n',
        "cat/utils/op_host/util_class.h": "#pragma once\n",
        "cat/utils/op_host/util_def.h": "#pragma once\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    dest = tmp_path / "project"
    dest.mkdir()
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "cat/cat_abs", "kind": "op-project"}
    corpus._sibling_headers(entry, gitdir, dest, [f for f in files if f.startswith("cat/cat_abs/")])
    root = dest / corpus.SIBLINGS
    for includer, name in (("op_host/arch22", "../../../utils/op_host/util_class.h"), ("op_host", "../../utils/op_host/util_def.h")):
        folder = root / "cat/cat_abs" / includer
        assert (folder / "ascendcraft_corpus_include_root.h").is_file(), includer   # an include folder at that depth
        assert (folder / name).resolve().is_file(), name                               # from which the name resolves


CAT_TILING_DEF = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(CatTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CatAdd, CatTilingData)
}
"""


def test_an_op_tiled_by_a_dependency_of_its_build_target_gets_that_tiling_source_and_not_its_unit_tests(tmp_path):
    # hicann ops-nn foreach_add_scalar: its op_host holds only the definition; `DEPENDENCIES foreach_utils` joins the
    # source that has IMPL_OP_OPTILING(ForeachAddScalar) and the tiling struct's header. Its unit test names another
    # op's test stand-in of the struct (a plain struct), which is not part of any build and must not come along
    files = {
        "cat/cat_add/op_host/CMakeLists.txt": "add_modules_sources(OPTYPE cat_add ACLNNTYPE aclnn DEPENDENCIES cat_utils)\n",
        "cat/cat_add/op_host/cat_add_def.cpp": '#include "register/op_def_registry.h"\nnamespace ops {\nOP_ADD(CatAdd);\n}\n',
        "cat/cat_add/op_kernel/cat_add.cpp": '#include "kernel_operator.h"\n',
        "cat/cat_add/tests/ut/test_cat_add.cpp": '#include "../../../cat_abs/tests/ut/cat_tiling_stub.h"\n',
        "cat/cat_abs/tests/ut/cat_tiling_stub.h": "struct CatTilingData { unsigned n; };\n",
        "cat/cat_utils/op_host/CMakeLists.txt": "add_modules_sources(OPTYPE cat_utils)\n",
        "cat/cat_utils/op_host/cat_tiling_def.h": CAT_TILING_DEF,
        "cat/cat_utils/op_host/cat_tiling_func.cpp": '#include "cat_tiling_def.h"\nIMPL_OP_OPTILING(CatAdd).Tiling(nullptr);\n',
        "cat/cat_utils/op_host/cat_other_func.cpp": '#include "cat_tiling_def.h"\nIMPL_OP_OPTILING(CatSub).Tiling(nullptr);\n',
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "hicann/ops-nn", "commit": commit, "path": "cat/cat_add", "kind": "op-project"}
    dest = corpus.materialise(entry, gitdir, tmp_path / "project")
    forwarders = sorted((dest / "op_host").glob(f"{corpus.LINKED}_*.cpp"))
    assert [f.read_text().splitlines()[-1] for f in forwarders] == \
        [f'#include "../{corpus.SIBLINGS}/cat/cat_utils/op_host/cat_tiling_func.cpp.inc"']   # CatSub's is not brought
    assert (dest / corpus.SIBLINGS / "cat/cat_utils/op_host/cat_tiling_def.h").read_text() == CAT_TILING_DEF
    assert not list(dest.rglob("cat_tiling_stub.h"))
    # an op with a tiling function of its own gets none from its dependencies; the dependency's header it names by its
    # bare name (foreach_copy's `#include "foreach_tiling_class.h"`) comes from an include folder, as in its build
    files["cat/cat_add/op_host/cat_add_tiling.cpp"] = '#include "cat_tiling_def.h"\nIMPL_OP_OPTILING(CatAdd).Tiling(nullptr);\n'
    gitdir, commit = git_repo(tmp_path / "repo2", files)
    dest = corpus.materialise(dict(entry, commit=commit), gitdir, tmp_path / "project2")
    assert not list((dest / "op_host").glob(f"{corpus.LINKED}_*.cpp"))
    utils = dest / corpus.SIBLINGS / "cat/cat_utils/op_host"
    assert (utils / "cat_tiling_def.h").read_text() == CAT_TILING_DEF
    assert (utils / "ascendcraft_corpus_include_root.h").is_file()


def test_a_function_a_define_macro_writes_is_linked_from_the_source_that_invokes_it(tmp_path):
    """cann-ops cube/algorithm/cache_tiling_impl.cc defines the registry function CacheTilingFactory() by
    `DEFINE_REGISTRY_TYPE(CacheTilingFactory, CacheTilingImpl, ...)` (cube/util/registry.h): the link that misses it
    brings that source (batch_mat_mul_v3's last missing symbol after five link rounds). A header's DECLARE_ macro, a
    use of the name, or a macro that is not at a line's start define nothing."""
    gitdir, entry, dest = _gemm_on_base_mm(tmp_path, {
        "mm/base_mm/op_host/op_tiling/registry_impl.cpp":
            "namespace cachetiling {\nDEFINE_REGISTRY_TYPE(CacheTilingFactory, Impl, const int &);\n}\n",
        "mm/base_mm/op_host/op_tiling/registry_use.cpp":
            "namespace cachetiling {\nDECLARE_REGISTRY_TYPE(CacheTilingFactory, Impl);\n"
            "int Use() { return CacheTilingFactory().Size(); }  // DEFINE_X(CacheTilingFactory)\n}\n",
        "mm/gemm/op_host/gemm_tiling.cpp": "int Gemm();\n",
    })
    log = "undefined reference to `optiling::cachetiling::CacheTilingFactory()'"
    assert corpus.link_sources(entry, gitdir, dest, log, set()) == ["mm/base_mm/op_host/op_tiling/registry_impl.cpp"]
    assert not corpus._defines("namespace other {\nDEFINE_REGISTRY_TYPE(CacheTilingFactory, Impl);\n}\n",
                               "optiling::cachetiling::CacheTilingFactory()")


# ---- the per-entry wall cap (run_entries): every entry in its own process, stopped with what it started ------------
def _fake_entry(args, progress=None):
    "A stand-in for try_entry, by the entry's name: 'slow' builds its kernel and hangs in the project build (with a child"
    " process of its own), 'hang_in_run' hangs in the run, 'dies' ends without a result, anything else finishes."
    import json as _json
    import os as _os
    import subprocess as _subprocess
    import time as _time
    from pathlib import Path as _Path
    entry = args[0]
    out = dict(entry)
    if entry["name"] == "dies": _os._exit(3)
    if entry["name"] in ("slow", "hang_in_run"):
        out.update(kernel_ok=True, kernel_error="")
        if entry["name"] == "hang_in_run": out.update(project_ok=True, project_error="")
        progress.write_text(_json.dumps(out))
        child = _subprocess.Popen(["sleep", "60"])            # what a build or a run starts: in the entry's group
        (_Path(entry["pids"]) / f"{entry['name']}.pid").write_text(str(child.pid))
        _time.sleep(60)
    out.update(kernel_ok=True, project_ok=True, seconds=0.0)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f: return f.read().split(")")[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_an_entry_past_its_wall_cap_is_stopped_with_what_it_started_and_says_where(monkeypatch, tmp_path):
    monkeypatch.setattr(corpus, "try_entry", _fake_entry)
    todo = [({"name": n, "kind": "op-project", "source": "s", "path": n, "pids": str(tmp_path)}, "gitdir", True, True)
            for n in ("fast", "slow", "dies", "hang_in_run")]
    done = dict(corpus.run_entries(todo, jobs=4, cap=3.0))
    assert sorted(done) == [0, 1, 2, 3]
    assert done[0]["kernel_ok"] and done[0]["project_ok"] and "wall_cap" not in done[0]
    slow = done[1]                                            # its kernel built; the project build did not end
    assert slow["kernel_ok"] and slow["project_ok"] is False and "wall cap of 3 s" in slow["project_error"], slow
    assert slow["wall_cap"] == 3.0 and slow["seconds"] >= 3.0
    assert done[2]["kernel_ok"] is False and "exit status 3" in done[2]["error"]
    run = done[3]                                             # built and linked; the run against the reference did not end
    assert run["project_ok"] and run["match"] == "wall-cap" and "run against the reference" in run["match_detail"]
    pids = [int(p.read_text()) for p in tmp_path.glob("*.pid")]
    assert len(pids) == 2 and not any(_alive(pid) for pid in pids), "a capped entry's child process outlived it"
    table = corpus.summary([dict(r, source="s") for r in done.values()])
    assert "wall-cap (the entry's run against its reference was stopped at --entry-seconds" in table and "hang_in_run" in table
    assert not corpus.passed(run, match=True, project_build=True)   # --rerun-failed runs it again


def _driver(tmp: str) -> None:
    "A corpus driver (forked by the test below) running one entry that never ends, with no wall cap."
    corpus.try_entry = _entry_that_says_its_pid
    for _ in corpus.run_entries([({"name": "forever", "kind": "asc-file", "pids": tmp}, "g", False, False)], jobs=1, cap=0):
        pass


def _entry_that_says_its_pid(args, progress=None):
    import os as _os
    import time as _time
    from pathlib import Path as _Path
    (_Path(args[0]["pids"]) / "entry").write_text(str(_os.getpid()))
    _time.sleep(120)


def test_an_entry_dies_with_its_driver_killed_by_a_signal_it_cannot_catch(tmp_path):
    # the entry runs in a session of its own (so a cap can kill its group); a driver killed outright runs no `finally`
    driver = multiprocessing.get_context("fork").Process(target=_driver, args=(str(tmp_path),))
    driver.start()
    pid_file = tmp_path / "entry"
    deadline = time.monotonic() + 60
    while not pid_file.exists() and time.monotonic() < deadline: time.sleep(0.05)
    entry = int(pid_file.read_text())
    assert _alive(entry)
    os.kill(driver.pid, signal.SIGKILL)
    driver.join()
    deadline = time.monotonic() + 10
    while _alive(entry) and time.monotonic() < deadline: time.sleep(0.05)
    outlived = _alive(entry)
    if outlived: os.kill(entry, signal.SIGKILL)
    assert not outlived, "the entry's process outlived its driver"


def test_no_wall_cap_lets_an_entry_finish(monkeypatch):
    monkeypatch.setattr(corpus, "try_entry", lambda args, progress=None: dict(args[0], kernel_ok=True, seconds=0.0))
    [(i, res)] = list(corpus.run_entries([({"name": "x", "kind": "asc-file"}, "g", False, False)], jobs=1, cap=0))
    assert i == 0 and res["kernel_ok"] and "wall_cap" not in res


def test_run_entry_selects_entries_by_their_exact_path_and_an_unknown_path_stops_the_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(corpus, "try_entry", lambda args, progress=None: dict(args[0], kernel_ok=True, seconds=0.0))
    manifest = [{"source": "hicann ops-transformer (A2 ops)", "repo": "hicann/ops-transformer", "commit": "c", "path": p,
                 "kind": "op-project"} for p in ("attention/flash_attention_score", "attention/flash_attention_score_grad")]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(corpus, "MANIFEST", tmp_path / "manifest.json")
    out = tmp_path / "r.json"
    git = ["--git", "hicann/ops-transformer=gitdir", "--jobs", "1", "--out", str(out)]
    assert corpus.main(["run", *git, "--entry", "attention/flash_attention_score"]) == 0
    # (--source flash_attention_score takes the _grad one too)
    assert [r["path"] for r in json.loads(out.read_text())] == ["attention/flash_attention_score"]
    out.unlink()
    with pytest.raises(SystemExit):
        corpus.main(["run", *git, "--entry", "attention/no_such_op"])
    assert "--entry attention/no_such_op" in capsys.readouterr().err and not out.exists()


def test_a_negative_entry_cap_is_refused_before_anything_runs(tmp_path, capsys):
    with pytest.raises(SystemExit):
        corpus.main(["run", "--entry-seconds", "-1", "--out", str(tmp_path / "r.json")])
    assert "--entry-seconds -1" in capsys.readouterr().err
def test_evokernel_and_contest_collectors_take_op_projects_with_their_verdicts(tmp_path):
    "EvoKernel's collections keep each op's 910B verdict (result.json); a contestant's build outputs are no op projects."
    base = corpus.EVOKERNEL_ROOT
    op = lambda root, name: {f"{root}/op_host/{name}.cpp": "//\n", f"{root}/op_kernel/{name}.cpp": "//\n"}
    files = {**op(f"{base}/ops-kernelbench-910b/AddCustom", "add_custom"),
             f"{base}/ops-kernelbench-910b/AddCustom/result.json": '{"compiled": true, "correctness": true}',
             **op(f"{base}/ops-mhc-910b/MixCustom", "mix_custom"),
             f"{base}/ops-mhc-910b/MixCustom/result.json": '{"compiled": false, "correctness": null}',
             **op(f"{base}/ops-attention-910b/AttnCustom", "attn_custom"),      # no result.json
             **op(f"{base}/ops-kernelbench-cuda-ncu/AddCustom", "add_custom")}  # not an Ascend collection
    gitdir, _ = git_repo(tmp_path / "evo", files)
    got = {e["path"].rsplit("/", 1)[-1]: e for e in corpus.collect("KernelHive/ascendc-skill", gitdir)}
    assert set(got) == {"AddCustom", "MixCustom", "AttnCustom"}
    assert [got[k]["hardware"] for k in ("AddCustom", "MixCustom", "AttnCustom")] == ["passed", "compile-failed", "unverified"]
    assert got["AddCustom"]["source"] == "EvoKernel ops-kernelbench-910b (LLM-made; passed on their 910B)"
    assert {e["kind"] for e in got.values()} == {"op-project"}
    contest = {**op("01Add/FrameworkLaunch/Add", "add"), **op("01Add/FrameworkLaunch/Add/build_out/x", "add"),
               "02Gelu/FrameworkLaunch/Gelu/op_kernel/gelu.cpp": "//\n"}       # no op_host: not a project
    gitdir, _ = git_repo(tmp_path / "contest", contest)
    assert [e["path"] for e in corpus.collect("hansheng1001/AscendCContest", gitdir)] == ["01Add/FrameworkLaunch/Add"]


def test_a_host_source_including_its_tiling_header_by_a_name_without_the_files_underscores_finds_it(tmp_path):
    """EvoKernel's exports spell an op's files as msopgen does (BAMCustom -> op_host/b_a_m_custom_tiling.h) while the host
    source includes `bam_custom_tiling.h`: the one header beside it that differs only in underscores stands for it."""
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    files = {f"ops/sac/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    files["ops/sac/op_host/scale_a_d_d_custom_tiling.h"] = files.pop("ops/sac/op_host/scale_add_custom_tiling.h")
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "me/ops", "commit": commit, "path": "ops/sac", "kind": "op-project"}
    res = corpus.try_entry((entry, gitdir, False))
    assert res["kernel_ok"] and res["project_ok"], res
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    assert (dest / "op_host" / "scale_add_custom_tiling.h").read_text() == '#include "scale_a_d_d_custom_tiling.h"\n'
    # two candidates, or none: nothing is made up
    files["ops/sac/op_host/scale_addcustom_tiling.h"] = "#pragma once\n"
    gitdir, commit = git_repo(tmp_path / "two", files)
    dest = corpus.materialise({**entry, "commit": commit}, gitdir, tmp_path / "copy2")
    assert not (dest / "op_host" / "scale_add_custom_tiling.h").exists()


EVO_OP_CPP = """
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"
// a comment naming EXEC_NPU_CMD(aclnnOther, a, b);
at::Tensor scaled_linear_impl(const at::Tensor& x, // [M,K]
                              const at::Tensor& w, const c10::optional<at::Tensor>& fc_bias_opt, double scale)
{
    auto y = at::empty({x.size(0), w.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnScaledLinearCustom, x, w, fc_bias_opt, scale, y);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scaled_linear_custom", &scaled_linear_impl, "doc"); }
"""

EVO_REFERENCE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, k, n, scale):
        super().__init__()
        self.fc = nn.Linear(k, n)
        self.scale = scale

    def forward(self, inp):
        return self.fc(inp) * self.scale

def get_inputs():
    return [torch.randn(4, 8)]

def get_init_inputs():
    return [8, 3, 0.5]
"""


def test_evokernel_op_is_called_as_its_op_cpp_signature_names_the_reference_models_values():
    """An EvoKernel op folder (<collection>/<P>Custom) maps to the reference task whose dataset.json pascal_name is <P>;
    its op.cpp's bound function is called with, per parameter, the reference Model's value of that name (a forward
    argument: input = x; a parameter: fc_bias_opt = fc.bias, w = the one `weight`; a constructor argument: scale),
    which pybind_layout then maps to the op's inputs and attribute; a parameter naming nothing is no call."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    import mkb
    root = f"{corpus.EVOKERNEL_ROOT}/ops-kernelbench-910b/ScaledLinearCustom"
    kb = '{"layout": "by_level", "ops": {"7_Scaled_linear": {"level": "level2", "pascal_name": "ScaledLinear"}}}'
    assert evokernel.reference_path(root, kb) == f"{corpus.EVOKERNEL_ROOT}/pytorch-references/KernelBench/level2/7_Scaled_linear.py"
    flat = '{"layout": "flat", "ops": {"03_ScaledLinear": {"level": "level1", "pascal_name": "ScaledLinear"}}}'
    assert evokernel.reference_path(root.replace("kernelbench", "mhc"), flat) == \
        f"{corpus.EVOKERNEL_ROOT}/pytorch-references/MHC/03_ScaledLinear.py"
    assert evokernel.reference_path(root, flat.replace("ScaledLinear\"}", "Other\"}")) is None
    # the op's name spells an acronym otherwise (FusedMhcKernels for the task FusedMHCKernels)
    assert evokernel.reference_path(root, flat.replace("ScaledLinear\"}", "ScaledLINEAR\"}")).endswith("/03_ScaledLinear.py")
    fn, params = evokernel.bound_function(EVO_OP_CPP)
    assert fn == "scaled_linear_custom"
    assert params == [("const at::Tensor", "x"), ("const at::Tensor", "w"),
                      ("const c10::optional<at::Tensor>", "fc_bias_opt"), ("double", "scale")]
    ns = {}
    saved = {k: sys.modules.get(k) for k in ("torch_npu", "custom_ops_lib")}
    sys.modules.update(mkb._stubs())
    try:
        exec(evokernel.model_src(EVO_REFERENCE, EVO_OP_CPP), ns)
        torch.manual_seed(0)
        model = ns["ModelNew"](8, 3, 0.5)
        x = torch.randn(4, 8)
        with pytest.raises(mkb._Captured) as got:
            model(x)
        # a name whose last part is a parameter's, of the one module its head starts (fc_b = fc.bias)
        exec(evokernel.model_src(EVO_REFERENCE, EVO_OP_CPP.replace("fc_bias_opt", "fc_b")), ns)
        with pytest.raises(mkb._Captured) as prefixed:
            ns["ModelNew"](8, 3, 0.5)(x)
        assert prefixed.value.args_[2] is not None and prefixed.value.args_[2].shape == (3,)
        unbound = EVO_OP_CPP.replace("fc_bias_opt", "row_scale")
        exec(evokernel.model_src(EVO_REFERENCE, unbound), ns)
        with pytest.raises(evokernel.EvoKernelUnbound, match="row_scale"):
            ns["ModelNew"](8, 3, 0.5)(x)
    finally:
        for k, v in saved.items():
            if v is None: sys.modules.pop(k, None)
            else: sys.modules[k] = v
    assert got.value.name == "scaled_linear_custom"
    call = got.value.args_
    assert call[0] is x and call[1] is model.fc.weight and call[2] is model.fc.bias and call[3] == 0.5
    # an integer tensor of a dtype its op input does not take goes as the one integer dtype it does (their ModelNew's cast)
    ref_ns = {}
    exec(EVO_REFERENCE, ref_ns)
    model = ref_ns["Model"](8, 3, 0.5)
    labels = torch.arange(4)
    cast = evokernel.bind_call(model, ref_ns["Model"], (labels,), (8, 3, 0.5), [("const at::Tensor", "x")], {0: ["int32"]})
    assert cast[0].dtype == torch.int32 and cast[0].tolist() == [0, 1, 2, 3]
    class Norm(torch.nn.Module):   # a norm's gamma / beta / mean / var are torch's weight / bias / running_mean / running_var
        def __init__(self, c):
            super().__init__()
            self.bn = torch.nn.BatchNorm1d(c)

        def forward(self, x): return self.bn(x)
    norm = Norm(4)
    got = evokernel.bind_call(norm, Norm, (torch.ones(2, 4),), (4,), [("at::Tensor", n) for n in ("x", "gamma", "bn_beta", "bn_mean", "var")])
    assert [g is e for g, e in zip(got[1:], (norm.bn.weight, norm.bn.bias, norm.bn.running_mean, norm.bn.running_var))] == [True] * 4
    kept = evokernel.bind_call(model, ref_ns["Model"], (labels,), (8, 3, 0.5), [("const at::Tensor", "x")],
                               {0: ["float32", "int32", "int8"]})   # two integer dtypes: which one is not said
    assert kept[0] is labels
    layout = pybind_calls.pybind_layout(EVO_OP_CPP, op("ScaledLinearCustom", ["x", "w", "bias"], ["y"], ["scale"]), {})
    assert layout["inputs"] == [0, 1, 2] and layout["attrs"] == [3] and layout["results"] == ["y"]


EVO_CONV_REDUCE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, channel, num_class, la, gamma=2, b=1):
        super().__init__()
        self.la = la
        self.fc = nn.Conv2d(channel, num_class, 1, bias=False)
        self.conv = nn.Conv1d(1, 1, kernel_size=3, padding=1, bias=False)
        self.ln = nn.LayerNorm(num_class)

    def forward(self, x):
        y_raw = self.fc(x).flatten(2)
        return self.ln(y_raw.mean(2) + self.la * y_raw.amax(2))

    def _attend(self, q, k):
        return q @ k

def get_inputs():
    return [torch.randn(2, 4, 3, 3)]

def get_init_inputs():
    return [4, 6, 0.2]
"""


def test_evokernel_binding_refuses_values_the_model_computes_and_calls_missing_its_weights():
    """op.cpp's parameters are bound to the reference Model's values only where nothing says the op saw something else:
    a parameter named like a value the Model computes (a local of forward, a helper's parameter) is refused; so is a
    call that leaves out a parameter the forward reads (the op then computes a part of the Model from what their
    ModelNew made first: ResidualAttention's x is the output of the Model's 1x1 convolution), unless that parameter is
    one value throughout (a norm's ones / zeros, which a kernel may leave out); a constructor argument named like a
    torch synonym (ECA's gamma) is no stand-in for a module's weight."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    ns = {}
    exec(EVO_CONV_REDUCE, ns)
    Model = ns["Model"]
    model = Model(4, 6, 0.2)
    x = torch.randn(2, 4, 3, 3)
    computed = evokernel.computed_names(EVO_CONV_REDUCE)
    assert {"y_raw", "q", "k"} <= set(computed) and "x" not in computed
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"q, k name values the reference Model computes"):
        evokernel.bind_call(model, Model, (x,), (4, 6, 0.2), [("at::Tensor", "q"), ("at::Tensor", "k")], {}, computed)
    # x and la name the forward's input and an attribute, but the forward reads fc.weight, which the call leaves out:
    # fc is one module called once on x, so x is its output (module_prefix; the refusals are in the test after this)
    got = evokernel.bind_call(model, Model, (x,), (4, 6, 0.2), [("at::Tensor", "x"), ("double", "la")], {}, computed)
    assert got[0].shape == (2, 6, 3, 3) and torch.equal(got[0], model.fc(x)) and got[1] == 0.2
    # with fc's weight in the call it is bound: ln's weight and bias (ones and zeros as initialised) may be left out,
    # conv's is not read by this forward; `weight` is no synonym of the constructor's gamma
    got = evokernel.bind_call(model, Model, (x,), (4, 6, 0.2),
                              [("at::Tensor", "x"), ("at::Tensor", "fc_weight"), ("double", "la")], {}, computed)
    assert got[0] is x and got[1] is model.fc.weight and got[2] == 0.2
    with torch.no_grad():
        model.ln.weight.uniform_()   # no longer one value: a kernel without it computes something else
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"reads ln\.weight"):
        evokernel.bind_call(model, Model, (x,), (4, 6, 0.2),
                            [("at::Tensor", "x"), ("at::Tensor", "fc_weight"), ("double", "la")], {}, computed)

    class Eca(torch.nn.Module):
        def __init__(self, channels, gamma=2, b=1):
            super().__init__()
            self.conv = torch.nn.Conv1d(1, 1, kernel_size=3, padding=1, bias=False)

        def forward(self, x):
            return x * self.conv(x.mean((2, 3)).unsqueeze(1)).sigmoid().squeeze(1)[..., None, None]
    eca = Eca(8, 2, 1)
    got = evokernel.bind_call(eca, Eca, (x,), (8, 2, 1), [("at::Tensor", "x"), ("at::Tensor", "weight")])
    assert got[1] is eca.conv.weight


def test_evokernel_op_input_made_by_one_module_the_call_leaves_out_is_that_modules_output():
    """A forward that reads the parameters of one module op.cpp takes none of, called once on the forward argument an
    op parameter is bound to: their ModelNew ran that module first (ResidualAttention's 1x1 convolution `fc`, whose
    output the op reduces), so the parameter gets the module's output. Refused (EvoKernelUnbound), never guessed: the
    parameters of two modules (ExternalAttention's mk and mv, one before the op and one after), a module whose output
    is the forward's result (the op would be handed the answer), a module called twice, a rank op.cpp checks that the
    output does not have."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    x = torch.randn(2, 4, 3, 3)

    class Residual(torch.nn.Module):
        def __init__(self, channel=4, num_class=6, la=0.2):
            super().__init__()
            self.la = la
            self.fc = torch.nn.Conv2d(channel, num_class, 1, bias=False)

        def forward(self, x):
            y = self.fc(x).flatten(2)
            return y.mean(2) + self.la * y.amax(2)
    model = Residual()
    params = [("const at::Tensor&", "x"), ("const at::Tensor&", "la")]
    got = evokernel.bind_call(model, Residual, (x,), (4, 6, 0.2), params)
    with torch.no_grad():
        assert torch.equal(got[0], model.fc(x)) and got[1].item() == pytest.approx(0.2)
    # the op given that input computes the rest of the forward: a kernel that does not is not rescued
    y = got[0].flatten(2)
    assert torch.allclose(y.mean(2) + 0.2 * y.amax(2), model(x))
    assert not torch.allclose(y.mean(2), model(x))
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"reads fc\.weight"):   # op.cpp checks x is 3-D: not fc's output
        evokernel.bind_call(model, Residual, (x,), (4, 6, 0.2), params, ranks={"x": 3})

    class Whole(torch.nn.Module):   # the module is the whole forward: its output is the answer
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Conv2d(4, 6, 1, bias=False)

        def forward(self, x):
            return self.fc(x)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"reads fc\.weight"):
        evokernel.bind_call(Whole(), Whole, (x,), (), [("const at::Tensor&", "x")])

    class External(torch.nn.Module):   # two modules, one on each side of the op: no one module to run first
        def __init__(self):
            super().__init__()
            self.mk = torch.nn.Linear(3, 5, bias=False)
            self.mv = torch.nn.Linear(5, 3, bias=False)

        def forward(self, q):
            attn = self.mk(q).softmax(1)
            return self.mv(attn / attn.sum(2, keepdim=True))
    q = torch.randn(2, 7, 3)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"reads mk\.weight, mv\.weight"):
        evokernel.bind_call(External(), External, (q,), (), [("const at::Tensor&", "x")])

    class Twice(torch.nn.Module):   # the module called twice: which call's output the op got is not said
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Conv2d(4, 4, 1, bias=False)

        def forward(self, x):
            return self.fc(self.fc(x)).sum((2, 3))
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"reads fc\.weight"):
        evokernel.bind_call(Twice(), Twice, (x,), (), [("const at::Tensor&", "x")])

EVO_PART_REFERENCE = """
import torch
import torch.nn as nn


class Core(nn.Module):
    def __init__(self, d_k):
        super().__init__()
        self.d_k = d_k

    def forward(self, Q, K, V):
        return torch.softmax(Q @ K.transpose(-2, -1) / self.d_k ** 0.5, -1) @ V


class Model(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.heads, self.d_k = heads, d_model // heads
        self.W_q, self.W_k, self.W_v, self.W_o = (nn.Linear(d_model, d_model) for _ in range(4))
        self.attention = Core(self.d_k)

    def forward(self, query, key, value):
        b, s, d = query.shape
        split = lambda t: t.view(b, -1, self.heads, self.d_k).transpose(1, 2)
        out = self.attention(split(self.W_q(query)), split(self.W_k(key)), split(self.W_v(value)))
        return self.W_o(out.transpose(1, 2).reshape(b, s, d))


def get_inputs():
    return [torch.randn(2, 5, 8), torch.randn(2, 5, 8), torch.randn(2, 5, 8)]


def get_init_inputs():
    return [8, 2]
"""

EVO_PART_OP_CPP = """
#include <torch/extension.h>
at::Tensor core_impl(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "[B,H,S,D]");
    at::Tensor out = at::empty_like(q);
    EXEC_NPU_CMD(aclnnCoreCustom, q, k, v, out);
    return out;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("core_custom", &core_impl, "attention core"); }
"""


def test_evokernel_op_that_is_a_submodule_of_the_model_gets_its_inputs_and_is_compared_with_its_output():
    """An op whose op.cpp tensor parameters are, by name and order, the forward parameters of one nn.Module class of the
    reference other than Model (MultiHeadAttention's ScaledDotProductAttention.forward(Q, K, V) for q, k, v) is that
    submodule: their ModelNew ran the projections before it and W_o after it in PyTorch. The reference becomes the
    submodule's output in the whole forward (part_reference), and the ModelNew runs the whole forward and calls the op in
    the submodule's place with the inputs it gets there. Not taken: when the Model's forward itself takes those names,
    when two classes would do, when the parameters are other names; a Model holding two such submodules stops."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    import mkb
    assert evokernel.op_part(EVO_PART_REFERENCE, EVO_PART_OP_CPP) == "Core"
    # refused: the Model's forward takes q (the op may be the whole Model), two classes fit, names that differ
    assert evokernel.op_part(EVO_PART_REFERENCE.replace("query, key, value", "q, k, v"), EVO_PART_OP_CPP) is None
    twin = EVO_PART_REFERENCE.replace("class Model(", "class Core2(Core):\n    def forward(self, q, k, v):\n"
                                                      "        return q\n\n\nclass Model(")
    assert evokernel.op_part(twin, EVO_PART_OP_CPP) is None
    assert evokernel.op_part(EVO_PART_REFERENCE, EVO_PART_OP_CPP.replace("& v)", "& bias)")) is None
    reference = evokernel.part_reference(EVO_PART_REFERENCE, "Core")
    ref, new = {}, {}
    exec(reference, ref)
    saved = {k: sys.modules.get(k) for k in ("torch_npu", "custom_ops_lib")}
    sys.modules.update(mkb._stubs())
    try:
        exec(evokernel.model_src(reference, EVO_PART_OP_CPP, part="Core"), new)
        torch.manual_seed(0)
        model = ref["Model"](8, 2)
        torch.manual_seed(0)
        model_new = new["ModelNew"](8, 2)
        inputs = ref["get_inputs"]()
        seen = []
        hook = model.full.attention.register_forward_pre_hook(lambda m, a: seen.append(a))
        with torch.no_grad():
            want = model(*inputs)
        hook.remove()
        with pytest.raises(mkb._Captured) as got:
            model_new(*inputs)
    finally:
        for k, v in saved.items():
            if v is None: sys.modules.pop(k, None)
            else: sys.modules[k] = v
    q, k, v = seen[0]
    assert want.shape == (2, 2, 5, 4) and torch.allclose(want, model.full.attention(q, k, v))
    assert got.value.name == "core_custom" and len(got.value.args_) == 3
    assert all(torch.equal(a, b) for a, b in zip(got.value.args_, (q, k, v)))
    # an op computing the whole Model's output from those inputs would not match the submodule's output
    assert not torch.allclose(want, torch.softmax(q @ k.transpose(-2, -1), -1) @ v)
    two = evokernel.part_reference(EVO_PART_REFERENCE.replace("self.attention = Core(self.d_k)",
                                                              "self.attention = Core(self.d_k)\n        self.other = Core(1)"), "Core")
    ns = {}
    exec(two, ns)
    with pytest.raises(LookupError, match="2 Core submodules"):
        ns["Model"](8, 2)(*ns["get_inputs"]())

EVO_TAIL_REFERENCE = """
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv_h = nn.Conv2d(c, c, 1)
        self.conv_w = nn.Conv2d(c, c, 1)
        self.proj = nn.Conv2d(c, c, 1)

    def forward(self, x):
        identity = x
        a_h = self.conv_h(x.mean(3, keepdim=True)).sigmoid()
        a_w = self.conv_w(x.mean(2, keepdim=True)).sigmoid()
        out = identity * a_w * a_h
        return out

    def projected(self, x):
        a_h = self.conv_h(x).sigmoid()
        return self.proj(x * a_h)
"""


def test_evokernel_op_that_is_the_forwards_tail_takes_the_forwards_locals():
    """op.cpp parameters named like locals of the reference's forward (CoordAtt's a_w, a_h), when the op is the forward's
    tail: each assigned once in forward's body, no submodule, parameter, buffer or method of the Model used after the
    last of them. Their ModelNew computed them in PyTorch and the op the rest; the parameters get the locals' values (a
    trace of the forward's frame). Refused: a module used after them (the op's output is not the forward's), a local
    assigned twice, a local that is the forward's result, a rank op.cpp checks that the local lacks."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    ns = {}
    exec(EVO_TAIL_REFERENCE, ns)
    Model = ns["Model"]
    model = Model(3)
    x = torch.randn(2, 3, 4, 5)
    assigned = evokernel.forward_locals(EVO_TAIL_REFERENCE)
    assert assigned["a_h"][0] == 1 and "conv_w" in assigned["a_h"][1] and assigned["a_w"][1] == []
    computed = evokernel.computed_names(EVO_TAIL_REFERENCE)
    params = [("const at::Tensor&", "x"), ("const at::Tensor&", "a_w"), ("const at::Tensor&", "a_h")]
    got = evokernel.bind_call(model, Model, (x,), (3,), params, {}, computed, assigned=assigned)
    with torch.no_grad():
        a_h = model.conv_h(x.mean(3, keepdim=True)).sigmoid()
        a_w = model.conv_w(x.mean(2, keepdim=True)).sigmoid()
    assert got[0] is x and torch.allclose(got[1], a_w) and torch.allclose(got[2], a_h)
    assert got[1].shape == (2, 3, 1, 5) and got[2].shape == (2, 3, 4, 1)
    # without the forward's assignments (the rule not applied) the call is refused, as before
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"a_w, a_h name values the reference Model computes"):
        evokernel.bind_call(model, Model, (x,), (3,), params, {}, computed)
    # a module used after the locals: their ModelNew ran it after the op, whose output is not the forward's
    projected = EVO_TAIL_REFERENCE.replace("out = identity * a_w * a_h", "out = self.proj(identity * a_w * a_h)")
    exec(projected, ns)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"a_w, a_h name values"):
        evokernel.bind_call(ns["Model"](3), ns["Model"], (x,), (3,), params, {}, computed,
                            assigned=evokernel.forward_locals(projected))
    # a local assigned twice: which of its values the op got is not said
    twice = EVO_TAIL_REFERENCE.replace("out = identity", "a_h = a_h * 2\n        out = identity")
    exec(twice, ns)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"a_w, a_h name values"):
        evokernel.bind_call(ns["Model"](3), ns["Model"], (x,), (3,), params, {}, computed,
                            assigned=evokernel.forward_locals(twice))
    # the local is the forward's result: the op would be handed the answer
    exec(EVO_TAIL_REFERENCE, ns)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"out name values"):
        evokernel.bind_call(ns["Model"](3), ns["Model"], (x,), (3,), [("const at::Tensor&", "out")], {}, computed,
                            assigned=assigned)
    # a rank op.cpp checks that the local does not have
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"a_w, a_h name values"):
        evokernel.bind_call(model, Model, (x,), (3,), params, {}, computed, ranks={"a_w": 2}, assigned=assigned)

def test_evokernel_parameter_op_cpp_requires_of_anothers_sizes_is_broadcast_to_them():
    """op.cpp's `TORCH_CHECK(x.sizes() == a_w.sizes())` (CoordAtt): a bound tensor that broadcasts to the other's shape is
    expanded to it (the elements the reference's broadcasting uses, as their ModelNew passed them); one that does not
    broadcast is left as it is (the run then says the shapes differ), never reshaped to fit."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    code = "at::Tensor f(const at::Tensor& x, const at::Tensor& a_w) { TORCH_CHECK(x.sizes() == a_w.sizes(), \"s\"); }"
    assert evokernel.same_sizes(code) == [("x", "a_w")]

    class Gate(torch.nn.Module):
        def __init__(self, w):
            super().__init__()
            self.a_w = torch.nn.Parameter(torch.randn(*w))

        def forward(self, x):
            return x * self.a_w
    x = torch.randn(2, 3, 4, 5)
    gate = Gate((2, 3, 1, 5))
    params = [("const at::Tensor&", "x"), ("const at::Tensor&", "a_w")]
    got = evokernel.bind_call(gate, Gate, (x,), ((2, 3, 1, 5),), params, alike=[("x", "a_w")])
    assert got[1].shape == x.shape and got[1].is_contiguous() and torch.equal(x * got[1], gate(x))
    assert evokernel.bind_call(gate, Gate, (x,), ((2, 3, 1, 5),), params)[1].shape == (2, 3, 1, 5)   # no check: as it is
    odd = Gate((3, 4, 5, 1))   # does not broadcast to x's shape: left as it is
    got = evokernel.bind_call(odd, Gate, (torch.randn(2, 3, 4, 5)[:, :, :, :1],), ((3, 4, 5, 1),), params,
                              alike=[("x", "a_w")])
    assert got[1].shape == (3, 4, 5, 1)

def test_evokernel_op_parameters_named_like_submodules_are_their_outputs_when_the_op_is_the_tail():
    """CBAMBlock's op.cpp takes x, ca, sa: the outputs of the Model's submodules ca and sa, which their ModelNew ran in
    PyTorch (`out = x * self.ca(x); out = out * self.sa(out); return out + x`); BAM's channel_map names channel_attn
    (child_named: a head that starts exactly one submodule's name). Bound to those outputs (module_outputs)
    when each such submodule is called once, none other after the last of them, and the Model has no parameter of its
    own. Refused: a submodule called after them (a projection of the op's output), one called twice, a parameter of
    the Model's own, an output that is the forward's result."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel

    class Block(torch.nn.Module):
        def __init__(self, c=4, after=False, twice=False, own=False):
            super().__init__()
            self.ca = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1), torch.nn.Conv2d(c, c, 1), torch.nn.Sigmoid())
            self.sa = torch.nn.Sequential(torch.nn.Conv2d(c, 1, 3, padding=1), torch.nn.Sigmoid())
            self.proj = torch.nn.Conv2d(c, c, 1) if after else None
            self.scale = torch.nn.Parameter(torch.randn(c, 1, 1)) if own else None
            self.twice = twice

        def forward(self, x):
            out = x * self.ca(x)
            out = out * self.sa(out)
            if self.twice: out = out * self.sa(out)
            if self.proj is not None: out = self.proj(out)
            if self.scale is not None: out = out * self.scale
            return out + x
    x = torch.randn(2, 4, 5, 6)
    params = [("const at::Tensor&", "x"), ("const at::Tensor&", "ca"), ("const at::Tensor&", "sa")]
    block = Block()
    got = evokernel.bind_call(block, Block, (x,), (), params)
    with torch.no_grad():
        ca = block.ca(x)
        sa = block.sa(x * ca)
        assert got[0] is x and torch.equal(got[1], ca) and torch.equal(got[2], sa)
        assert got[1].shape == (2, 4, 1, 1) and got[2].shape == (2, 1, 5, 6)
        assert torch.allclose(x * got[1] * got[2] + x, block(x))
    for kind in ("after", "twice", "own"):
        with pytest.raises(evokernel.EvoKernelUnbound, match=r"ca, sa name no forward argument"):
            evokernel.bind_call(Block(**{kind: True}), Block, (x,), (), params)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"ca, sa name no forward argument"):   # rank op.cpp checks
        evokernel.bind_call(block, Block, (x,), (), params, ranks={"ca": 2})
    # a head that starts one submodule's name (BAM's channel_map of channel_attn); one that starts two names neither
    assert evokernel.child_named("channel_map", ["channel_attn", "spatial_attn"]) == "channel_attn"
    assert evokernel.child_named("ca", ["ca", "sa"]) == "ca"
    assert evokernel.child_named("conv_out", ["conv1", "conv2"]) is None
    assert evokernel.child_named("map", ["mapper"]) is None and evokernel.child_named("ch_map", ["channel"]) is None

    class Last(torch.nn.Module):   # the submodule's output is the forward's result
        def __init__(self):
            super().__init__()
            self.sa = torch.nn.Conv2d(4, 4, 1)

        def forward(self, x):
            return self.sa(x)
    with pytest.raises(evokernel.EvoKernelUnbound):
        evokernel.bind_call(Last(), Last, (x,), (), [("const at::Tensor&", "x"), ("const at::Tensor&", "sa")])

def test_evokernel_dry_mode_derives_the_call_without_building_or_running(tmp_path):
    """`evokernel.py --dry` (dry_match): an EvoKernel entry's match step up to the op's run, nothing built: the op's
    inputs, attributes and outputs as the run would get them (a stand-in for run_project that stops there and is put
    back after); a call op.cpp's names do not give is the step's own no-reference."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    from ascendcraft import opproject
    example = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
    root = f"{corpus.EVOKERNEL_ROOT}/ops-kernelbench-910b/ScaleAddCustom"
    refs = f"{corpus.EVOKERNEL_ROOT}/pytorch-references/KernelBench"
    op_cpp = ("#include <torch/extension.h>\n"
              "at::Tensor scale_add_impl(const at::Tensor& x, const at::Tensor& y, double alpha) {\n"
              "    at::Tensor z = at::empty_like(x);\n    EXEC_NPU_CMD(aclnnScaleAddCustom, x, y, alpha, z);\n"
              "    return z;\n}\n"
              'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale_add_custom", &scale_add_impl, "doc"); }\n')
    reference = ("import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    def __init__(self, alpha):\n"
                 "        super().__init__()\n        self.alpha = alpha\n\n    def forward(self, x, y):\n"
                 "        return x * self.alpha + y\n\ndef get_inputs():\n"
                 "    return [torch.randn(4, 8), torch.randn(4, 8)]\n\ndef get_init_inputs():\n    return [0.5]\n")
    files = {f"{root}/{p.relative_to(example).as_posix()}": p.read_text()
             for p in example.rglob("*") if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    files.update({f"{root}/CppExtension/csrc/op.cpp": op_cpp,
                  f"{refs}/dataset.json": '{"layout": "by_level", "ops": {"1_Scale_add": {"level": "level1", '
                                          '"pascal_name": "ScaleAdd"}}}',
                  f"{refs}/level1/1_Scale_add.py": reference})
    gitdir, commit = git_repo(tmp_path / "evo", files)
    entry = {"source": "EvoKernel", "repo": "KernelHive/ascendc-skill", "commit": commit, "path": root,
             "kind": "op-project", "hardware": "passed"}
    before = opproject.run_project
    got = evokernel.dry_match(entry, gitdir)
    assert opproject.run_project is before
    assert got["match"] == "dry-call", got
    assert got["inputs"] == {"x": [[4, 8], "float32"], "y": [[4, 8], "float32"]}
    assert got["attrs"] == {"alpha": 0.5} and got["outputs"] == {"z": [[4, 8], "float32"]}
    files[f"{root}/CppExtension/csrc/op.cpp"] = op_cpp.replace("double alpha", "double row_scale").replace(", alpha,", ", row_scale,")
    gitdir, commit = git_repo(tmp_path / "evo2", files)
    got = evokernel.dry_match({**entry, "commit": commit}, gitdir)
    assert got["match"] == "no-reference" and "row_scale" in got["match_detail"]

def test_evokernel_numbered_weights_are_the_models_weights_in_their_order():
    """SEAttention's op.cpp takes x, w1, w2: the weights of its fc = Sequential(Linear, ReLU, Linear, Sigmoid), fc.0 and
    fc.2, which no name spells. op.cpp parameters w1..wn (b1..bn) are the Model's n weights (biases) in the order it
    registers them, when op.cpp numbers exactly as many as the Model has, from 1; otherwise they stay unnamed."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel

    class SE(torch.nn.Module):
        def __init__(self, c=8, r=2, extra=False):
            super().__init__()
            self.fc = torch.nn.Sequential(torch.nn.Linear(c, c // r, bias=False), torch.nn.ReLU(),
                                          torch.nn.Linear(c // r, c, bias=False), torch.nn.Sigmoid())
            self.out = torch.nn.Linear(c, c, bias=False) if extra else None

        def forward(self, x):
            y = self.fc(x.mean((2, 3)))[..., None, None] * x
            return y if self.out is None else self.out(y.transpose(1, 3)).transpose(1, 3)
    x = torch.randn(2, 8, 3, 3)
    se = SE()
    params = [("const at::Tensor&", "x"), ("const at::Tensor&", "w1"), ("const at::Tensor&", "w2")]
    got = evokernel.bind_call(se, SE, (x,), (), params)
    assert got[0] is x and got[1] is se.fc[0].weight and got[2] is se.fc[2].weight
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"w1, w2 name no"):   # three weights, two numbered
        evokernel.bind_call(SE(extra=True), SE, (x,), (), params)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"w2, w3 name no"):   # not numbered from 1
        evokernel.bind_call(se, SE, (x,), (), [("const at::Tensor&", "x"), ("const at::Tensor&", "w2"),
                                                ("const at::Tensor&", "w3")])

EVO_SCALAR_LOCALS = """
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"
static at::Tensor OneOnDevice(const at::Tensor& like, double s_double) {
    float s = static_cast<float>(s_double);
    at::Tensor t = at::empty({1}, at::TensorOptions().dtype(at::kFloat));
    t.fill_(s);
    return t.to(like.device());
}
at::Tensor norm_impl(const at::Tensor& x, const at::Tensor& alpha, int64_t groups, double eps, double scale) {
    TORCH_CHECK(alpha.dim() == 1, "alpha must be [C]");
    at::Tensor g_t = at::empty({}, x.options().dtype(at::kInt));
    g_t.fill_(static_cast<int32_t>(groups));
    auto eps_t = at::empty({}, x.options());
    eps_t.fill_(static_cast<float>(eps));
    auto make_i32 = [&](int64_t v) -> at::Tensor {
        at::Tensor t = at::empty({1}, x.options().dtype(at::kInt));
        t.fill_(static_cast<int32_t>(v));
        return t;
    };
    at::Tensor c_t = make_i32(groups);
    at::Tensor s_t = OneOnDevice(x, scale);
    at::Tensor inv_t = at::empty({1}, x.options());
    inv_t.fill_(1.0f / static_cast<float>(x.size(1)));
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnNormCustom, x, alpha, g_t, eps_t, c_t, s_t, y);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("norm_custom", &norm_impl, "doc"); }
"""


def test_evokernel_op_inputs_op_cpp_makes_of_a_scalar_parameter_are_made_as_it_makes_them():
    """An op input that op.cpp makes of one scalar parameter (at::empty then fill_, through casts, of the dtype its
    options name; by a helper function or a lambda of the file) becomes a parameter of the bound function, made by
    bind_call as op.cpp makes it (LCT's int32 `groups`, GCT's `c`): pybind_layout then maps it to its op input, where
    before it mapped the tensor whose options it took (x); a tensor made of something else (1 / C) is left alone.
    A Model tensor of another rank than op.cpp's TORCH_CHECK requires goes without its 1s when that makes the rank."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    text, made = evokernel.scalar_locals(EVO_SCALAR_LOCALS)
    assert made == {"g_t": ("groups", (), "int32", "x"), "eps_t": ("eps", (), None, "x"),
                    "c_t": ("groups", (1,), "int32", None), "s_t": ("scale", (1,), "float32", None)}
    fn, params = evokernel.bound_function(text)
    assert fn == "norm_custom" and [n for t, n in params][-4:] == ["g_t", "eps_t", "c_t", "s_t"]
    assert evokernel.checked_ranks(EVO_SCALAR_LOCALS) == {"alpha": 1}
    layout = pybind_calls.pybind_layout(text, op("NormCustom", ["x", "alpha", "groups", "eps", "c", "s"], ["y"]), {})
    assert layout["inputs"] == [0, 1, 5, 6, 7, 8]

    class Norm(torch.nn.Module):
        def __init__(self, c, groups, eps, scale):
            super().__init__()
            self.alpha = torch.nn.Parameter(torch.randn(1, c, 1, 1))
            self.groups, self.eps, self.scale = groups, eps, scale

        def forward(self, x): return x * self.alpha * self.scale
    model = Norm(4, 2, 1e-5, 0.5)
    x = torch.randn(2, 4, 3, 3, dtype=torch.float16)
    got = evokernel.bind_call(model, Norm, (x,), (4, 2, 1e-5, 0.5), params, {}, [], made, evokernel.checked_ranks(text))
    assert got[0] is x and got[1].shape == (4,) and torch.equal(got[1], model.alpha.reshape(4))
    assert got[2] == 2 and got[3] == 1e-5 and got[4] == 0.5
    assert got[5].dtype == torch.int32 and got[5].shape == () and int(got[5]) == 2
    assert got[6].dtype == torch.float16 and float(got[6]) == pytest.approx(1e-5, rel=1e-2)   # x's options: x's dtype
    assert got[7].dtype == torch.int32 and got[7].tolist() == [2] and got[8].tolist() == [0.5]
    assert evokernel.scalar_locals(EVO_OP_CPP) == (EVO_OP_CPP, {})   # nothing of the kind: unchanged


def test_evokernel_names_a_module_by_its_initials_its_class_or_elimination():
    """A parameter's head may spell its module by the module's initials or class (gn_gamma = group_norm.weight,
    bn_weight = the BatchNorm's, lin_bias = the Linear's), in either order (w_squeeze = squeeze.weight); a norm's
    gamma / beta are a norm module's only; a plain weight / bias that two modules have is the one the other
    parameters leave; a value no parameter is sure of stays unnamed (no guess)."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gemm = torch.nn.Linear(4, 6)
            self.group_norm = torch.nn.GroupNorm(2, 6)
            self.squeeze = torch.nn.Linear(6, 3)

        def forward(self, x): return self.squeeze(self.group_norm(self.gemm(x)))
    m = Block()
    with torch.no_grad():
        for p in m.group_norm.parameters(): p.uniform_()
    x = torch.randn(2, 4)
    P = lambda *names: [("at::Tensor", n) for n in names]
    got = evokernel.bind_call(m, Block, (x,), (), P("x", "weight", "lin_bias", "gn_gamma", "gn_beta", "w_squeeze", "b_squeeze"))
    want = [x, m.gemm.weight, m.gemm.bias, m.group_norm.weight, m.group_norm.bias, m.squeeze.weight, m.squeeze.bias]
    assert [g is w for g, w in zip(got, want)] == [True] * 7
    # gamma / beta: the norm's; weight / bias then left to gemm once w_squeeze / b_squeeze take squeeze's
    got = evokernel.bind_call(m, Block, (x,), (), P("x", "weight", "bias", "gamma", "beta", "w_squeeze", "b_squeeze"))
    assert [g is w for g, w in zip(got, want)] == [True] * 7
    # without them, weight / bias may be gemm's or squeeze's: refused, not guessed
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"parameter\(s\) weight, bias name no"):
        evokernel.bind_call(m, Block, (x,), (), P("x", "weight", "bias", "gamma", "beta"))

    class Two(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv1d(2, 2, 1)
            self.norm = torch.nn.GroupNorm(1, 2)

        def forward(self, x): return self.norm(self.conv(x))
    t = Two()
    with torch.no_grad():
        for p in t.norm.parameters(): p.uniform_()
    y = torch.randn(1, 2, 3)
    got = evokernel.bind_call(t, Two, (y,), (), P("x", "weight", "bias", "gamma", "beta"))
    assert [g is w for g, w in zip(got, [y, t.conv.weight, t.conv.bias, t.norm.weight, t.norm.bias])] == [True] * 5


def test_ops_math_names_another_ops_host_header_from_the_repository_root_only(tmp_path):
    """hicann ops-math's op_host build has the repository's root on the include path (OP_TILING_INCLUDE) but not the
    op's category folder: circular_pad_grad's tiling header names
    `conversion/circular_pad/op_host/circular_pad_common_tiling.h`, whose struct it registers. That folder's headers
    come along under SIBLINGS/<their path> with an include-root marker at SIBLINGS/; a name that resolves only from
    the category folder (`circular_pad/op_host/...`, which ops-nn's build would find) is left to fail by its name."""
    files = {
        "conversion/circular_pad/op_host/circular_pad_common_tiling.h": "#pragma once\nstruct CommonTiling {};\n",
        "conversion/circular_pad/op_host/circular_pad_other.h": "#pragma once\n",
        "conversion/circular_pad/op_host/circular_pad_tiling.cpp": "int Pad() { return 0; }\n",
        "conversion/circular_pad_grad/op_host/arch22/circular_pad_grad_tiling.h":
            '#pragma once\n#include "conversion/circular_pad/op_host/circular_pad_common_tiling.h"\n',
        "conversion/mirror_pad/op_host/mirror_pad_tiling.h": "#pragma once\n",
        "conversion/mirror_pad_grad/op_host/mirror_pad_grad_tiling.h":
            '#pragma once\n#include "mirror_pad/op_host/mirror_pad_tiling.h"\n',
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    for op, want in (("conversion/circular_pad_grad", True), ("conversion/mirror_pad_grad", False)):
        dest = tmp_path / op.replace("/", "_")
        dest.mkdir()
        entry = {"repo": "hicann/ops-math", "commit": commit, "path": op, "kind": "op-project"}
        corpus._root_named_headers(entry, gitdir, dest, [f for f in files if f.startswith(op + "/")])
        got = sorted(p.relative_to(dest / corpus.SIBLINGS).as_posix() for p in (dest / corpus.SIBLINGS).rglob("*")
                     if p.is_file()) if (dest / corpus.SIBLINGS).exists() else []
        if want:
            assert got == ["ascendcraft_corpus_include_root.h", "conversion/circular_pad/op_host/circular_pad_common_tiling.h",
                           "conversion/circular_pad/op_host/circular_pad_other.h"], got
        else:
            assert got == [], got
        # ops-nn's build has the category folder too: the same name resolves there
        if not want:
            nn = tmp_path / "nn"
            nn.mkdir()
            corpus._root_named_headers(dict(entry, repo="hicann/ops-nn"), gitdir, nn, [f for f in files if f.startswith(op + "/")])
            assert (nn / corpus.SIBLINGS / "conversion/mirror_pad/op_host/mirror_pad_tiling.h").is_file()
            assert (nn / corpus.SIBLINGS / "conversion/ascendcraft_corpus_include_root.h").is_file()


EVO_QUALIFIED = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3)
        self.group_norm = nn.GroupNorm(groups, cout, eps=1e-4)
        self.bias = nn.Parameter(torch.randn(cout, 1, 1))
        self.multiply_weight = nn.Parameter(torch.randn(cout, 1, 1))
        self.scale = nn.Parameter(torch.randn(cout, 1, 1))

    def forward(self, x):
        x = self.group_norm(self.conv(x)) + self.bias
        return x * self.multiply_weight * self.scale

def get_inputs():
    return [torch.randn(2, 3, 6, 6)]

def get_init_inputs():
    return [3, 4, 2]
"""


def test_evokernel_binding_names_the_models_own_values_by_qualifier_abbreviation_rank_and_submodule_number():
    """An op.cpp parameter <qualifier>_<part> whose qualifier spells no module of the Model names the Model's own value
    <part> (post_bias = the Model's bias, not its conv's); one whose words abbreviate a value's words names that value
    (mul_w = multiply_weight); a trailing rank (scale_1d) names the value (at the rank op.cpp checks); a submodule's
    number names itself (eps = group_norm.eps); a scalar the extension takes as a tensor is made of its op input's one
    dtype (num_groups as int32). The qualifier of a module (conv_bias) still names that module's value."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    ns = {}
    exec(EVO_QUALIFIED, ns)
    Model = ns["Model"]
    model = Model(3, 4, 2)
    x = torch.randn(2, 3, 6, 6)
    names = ["x", "weight", "conv_bias", "gn_gamma", "gn_beta", "post_bias", "mul_w", "scale_1d", "num_groups", "eps"]
    params = [("const at::Tensor&", n) for n in names]
    got = evokernel.bind_call(model, Model, (x,), (3, 4, 2), params, {8: ["int32"], 9: ["float32"]},
                              evokernel.computed_names(EVO_QUALIFIED), ranks={"scale_1d": 1})
    assert got[0] is x and got[1] is model.conv.weight and got[2] is model.conv.bias
    assert got[3] is model.group_norm.weight and got[4] is model.group_norm.bias
    assert got[5] is model.bias and got[6] is model.multiply_weight
    assert got[7].shape == (4,) and torch.equal(got[7], model.scale.reshape(4))
    assert got[8].dtype == torch.int32 and got[8].tolist() == [2]
    assert got[9].dtype == torch.float32 and abs(got[9].item() - 1e-4) < 1e-9
    # a qualifier no module and no value answers to stays unbound: never guessed
    with pytest.raises(evokernel.EvoKernelUnbound, match="post_shift"):
        evokernel.bind_call(model, Model, (x,), (3, 4, 2), params[:5] + [("const at::Tensor&", "post_shift")] + params[6:],
                            {}, evokernel.computed_names(EVO_QUALIFIED), ranks={"scale_1d": 1})


EVO_HELPER_MADE = """
#include "pytorch_npu_helper.hpp"
static at::Tensor sum_taps(const at::Tensor& w) { return w.sum({2, 3}); }
at::Tensor convt_impl(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
    at::Tensor w_cpu = weight.to(at::kCPU).contiguous();
    at::Tensor sumw_cpu = sum_taps(w_cpu);
    at::Tensor sumw = sumw_cpu.to(x.device(), false).contiguous();
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({x.size(0), 1}, x.options());
    EXEC_NPU_CMD(aclnnConvtCustom, xc, sumw, bias, y);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("convt_custom", &convt_impl, "doc"); }
"""


def test_pybind_layout_takes_no_op_input_for_a_parameter_asked_only_its_device():
    """A local op input that names a parameter only to ask it something (x.device(), x.options(), x.size(0)) is not made
    of that parameter's elements: EvoKernel's sumw, which op.cpp computes with a helper of its own from the weight and
    moves to x's device, is no call argument (the layout is None: no reference), where it was taken for x. A local made
    of x's elements (x.contiguous()) still is x."""
    assert pybind_calls.pybind_layout(EVO_HELPER_MADE, op("ConvtCustom", ["x", "sumw", "bias"], ["y"]), {}) is None
    direct = EVO_HELPER_MADE.replace("xc, sumw, bias, y", "xc, weight, bias, y")
    assert pybind_calls.pybind_layout(direct, op("ConvtCustom", ["x", "sumw", "bias"], ["y"]), {})["inputs"] == [0, 1, 2]


def test_pybind_layout_gives_an_input_flattened_by_its_local_the_flat_shape():
    """A local that keeps a parameter's elements in place but views them as one dimension (EvoKernel's
    sf_flat = scaling_factor.view({Cout}).contiguous(), whose TilingFunc refuses anything but a 1-D [Cout]) reaches the
    op as that one dimension, whatever names its size; literal sizes as written; other views as the parameter is."""
    text = EVO_HELPER_MADE.replace("at::Tensor xc = x.contiguous();",
                                   "at::Tensor xc = x.contiguous();\n    const int64_t C = bias.size(0);\n"
                                   "    at::Tensor b_flat = bias.view({C}).contiguous();").replace("xc, sumw, bias, y", "xc, weight, b_flat, y")
    layout = pybind_calls.pybind_layout(text, op("ConvtCustom", ["x", "w", "b"], ["y"]), {})
    assert layout["inputs"] == [0, 1, 2] and layout["steps"] == {2: [("reshape", [-1])]}
    got = torch.randn(4, 1, 1)
    for name, args in layout["steps"][2]: got = getattr(got, name)(*args)
    assert got.shape == (4,)
    assert pybind_calls.reordering_steps("x.flatten()", "x", "") == [("reshape", [-1])]
    assert pybind_calls.reordering_steps("x.view({2, 8}).contiguous()", "x", "") == [("reshape", [2, 8])]
    assert pybind_calls.reordering_steps("x.view({a, b})", "x", "") is None
    assert pybind_calls.reordering_steps("x.contiguous()", "x", "") is None


def test_pybind_layout_reads_attributes_passed_after_the_outputs():
    """EvoKernel's SRM calls EXEC_NPU_CMD(aclnnSRMCustom, x, ..., y, eps): its output before its attribute. The bound
    function's own scalar parameter is the attribute and the local it makes the output, in whichever order they come
    (the layout mapped the attribute to y's making, empty_like(x), and the run took x's elements as eps)."""
    text = """
at::Tensor srm_impl(const at::Tensor& x, const at::Tensor& w, double eps) {
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSrmCustom, x, w, y, eps);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("srm_custom", &srm_impl, "doc"); }
"""
    layout = pybind_calls.pybind_layout(text, op("SrmCustom", ["x", "w"], ["y"], ["eps"]), {})
    assert layout["inputs"] == [0, 1] and layout["attrs"] == [2] and layout["results"] == ["y"]
    usual = text.replace("x, w, y, eps", "x, w, eps, y")
    assert pybind_calls.pybind_layout(usual, op("SrmCustom", ["x", "w"], ["y"], ["eps"]), {}) == layout


def test_a_failed_runs_first_error_names_its_line_where_it_has_one():
    "One wording for every source's run errors (corpus, MultiKernelBench, CATLASS): `kind at file:line: message`."
    from types import SimpleNamespace
    at = SimpleNamespace(kind="l0-overflow", message="LoadData needs 16384 bytes", file="/x/copy_l1_to_l0b.hpp", line=451)
    assert corpus.first_run_error([at]) == "l0-overflow at copy_l1_to_l0b.hpp:451: LoadData needs 16384 bytes"
    assert corpus.first_run_error([SimpleNamespace(kind="timeout", message="stopped", file="", line=None)]) == "timeout: stopped"
    assert corpus.first_run_error([]) == "run failed"


EVO_HELPER_RANKS = r"""
#include <torch/extension.h>
static void need_vector(const at::Tensor& t, const char* what, int64_t n)
{
    TORCH_CHECK(t.dim() == 1, what, " must be 1D");
    TORCH_CHECK(t.numel() == n, what, " has the wrong length");
}
at::Tensor scaled_impl(const at::Tensor& x, const at::Tensor& scale_1d, const at::Tensor& shift)
{
    TORCH_CHECK(x.dim() == 4, "x must be 4D");
    need_vector(scale_1d, "scale", x.size(1));
    need_vector(shift, "shift", x.size(1));
    auto y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnScaledCustom, x, scale_1d, shift, y);
    return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scaled_custom", &scaled_impl, "doc"); }
"""


def test_evokernel_ranks_checked_in_a_helper_function_count_for_the_argument_passed_there():
    """op.cpp may check a parameter's rank in a helper of its own (EvoKernel's Conv2dGroupNormScaleMaxPoolClamp:
    `check_1d_param(scale_1d, "scale", 64)`, whose body checks `t.dim() == 1`): the rank counts for the argument, so
    bind_call passes the Model's (C, 1, 1) scale as the (C,) tensor the TilingFunc requires."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    ranks = evokernel.checked_ranks(EVO_HELPER_RANKS)
    assert ranks["scale_1d"] == 1 and ranks["shift"] == 1 and ranks["x"] == 4
    ns = {}
    exec("import torch\nclass Model(torch.nn.Module):\n    def __init__(self, c):\n        super().__init__()\n"
         "        self.scale = torch.nn.Parameter(torch.randn(c, 1, 1))\n        self.shift = torch.nn.Parameter(torch.randn(c))\n"
         "    def forward(self, x):\n        return x * self.scale + self.shift.view(-1, 1, 1)\n", ns)
    model = ns["Model"](3)
    x = torch.randn(2, 3, 4, 4)
    params = evokernel.bound_function(EVO_HELPER_RANKS)[1]
    got = evokernel.bind_call(model, ns["Model"], (x,), (3,), params, {}, [], {}, ranks)
    assert [tuple(t.shape) for t in got] == [(2, 3, 4, 4), (3,), (3,)]


EVO_SPAN_REFERENCE = """
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d_model, n_heads):
        super(Model, self).__init__()   # as EMSA's reference: the name Model is the task's class while it is made
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.temp = nn.Parameter(torch.rand(1) + 0.5)

    def forward(self, x):
        \"\"\"Multi-head attention: projections, the attention core, the output projection.\"\"\"
        b, n, d = x.size()
        Q = self.W_q(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        K = self.W_k(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        V = self.W_v(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.d_k)
        attn = F.softmax(scores, dim=-1)
        out = torch.matmul(attn, V)
        out = out.transpose(1, 2).contiguous().view(b, n, d)
        out = self.W_o(out)
        return out


def get_inputs():
    return [torch.randn(2, 6, 16)]


def get_init_inputs():
    return [16, 4]
"""

EVO_SPAN_OP_CPP = """
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"
at::Tensor attn_core_impl_npu(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v) {
    TORCH_CHECK(q.device().type() == c10::DeviceType::PrivateUse1, "q must be on NPU");
    TORCH_CHECK(q.dim() == RANK && k.dim() == RANK && v.dim() == RANK, "q, k, v: [B,H,N,D]");
    TORCH_CHECK(q.is_contiguous(), "contiguous");
    at::Tensor y = at::empty_like(q);
    EXEC_NPU_CMD(aclnnAttnCoreCustom, q, k, v, y);
    return y;
}
TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) { m.impl("attn_core_custom", &attn_core_impl_npu); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("attn_core_custom", &attn_core_impl_npu, "attention core"); }
"""


def test_evokernel_op_that_is_a_span_of_the_forward_gets_its_locals_and_is_compared_with_the_spans_output():
    """op.cpp parameters named like forward locals (q, k, v of `Q = self.W_q(x).view(...).transpose(1, 2)`) with statements
    that read the Model's weights after the op (W_o): their ModelNew ran the forward in PyTorch up to the locals, the op,
    then the rest on its output. forward_span finds the span: it starts where the locals exist and op.cpp's own checks
    (its function run on their shapes) accept them, and ends at the one local the statements after it need of it, of the
    shape op.cpp allocates (after the last statement reading a weight the op takes); the op is compared with that local.
    Refused: the ordinary binding holds, op.cpp's checks refuse every point, a weight the op does not take read inside
    the span, a local of the span read after it, an output that is one of the op's inputs, an output shape found only
    before the statement reading a weight the op takes. The span may end at the forward's result; a forward argument
    get_inputs leaves out takes its default; of two locals spelled alike (b, B) the op's parameter names the tensor."""
    import sys
    import types
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    op_cpp = EVO_SPAN_OP_CPP.replace("RANK", "4")
    params = evokernel.bound_function(op_cpp)[1]

    def setup(text):
        ns = {}
        exec(text, ns)
        torch.manual_seed(0)
        model = ns["Model"](16, 4)
        bind = dict(dtypes={}, computed=evokernel.computed_names(text), made={}, ranks=evokernel.checked_ranks(op_cpp),
                    assigned=evokernel.forward_locals(text), alike=[])
        return model, ns["Model"], bind
    x = torch.randn(2, 6, 16)
    model, cls, bind = setup(EVO_SPAN_REFERENCE)
    assert evokernel.span_candidate(EVO_SPAN_REFERENCE, op_cpp)
    with pytest.raises(evokernel.EvoKernelUnbound, match=r"q, k, v name values the reference Model computes"):
        evokernel.bind_call(model, cls, (x,), (16, 4), params, **bind)   # as before this rule
    span = evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, EVO_SPAN_REFERENCE, op_cpp, 3)
    assert span is not None and span["output"] == "out"
    with torch.no_grad():
        heads = lambda w: w(x).view(2, 6, 4, 4).transpose(1, 2)
        q, k, v = heads(model.W_q), heads(model.W_k), heads(model.W_v)
        core = torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1) @ v
    assert all(torch.allclose(a, b) for a, b in zip(span["call"], (q, k, v)))
    assert span["reference"].shape == (2, 4, 6, 4) and torch.allclose(span["reference"], core, atol=1e-6)
    # the strings MultiKernelBench's step runs: the reference returns the span's output, ModelNew calls the op with its
    # inputs (a stand-in custom_ops_lib computing the core in PyTorch: then the two agree)
    lib = types.ModuleType("custom_ops_lib")
    lib.attn_core_custom = lambda q, k, v: torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1) @ v
    saved = sys.modules.get("custom_ops_lib")
    sys.modules["custom_ops_lib"] = lib
    try:
        reference = evokernel.span_reference(EVO_SPAN_REFERENCE, op_cpp, bind, 3)
        ns = {}
        exec(evokernel.model_src(reference, op_cpp, span=bind), ns)
        torch.manual_seed(0)
        ref = ns["Model"](16, 4)
        torch.manual_seed(0)
        new = ns["ModelNew"](16, 4)
        with torch.no_grad():
            assert torch.allclose(ref(x), core, atol=1e-6) and torch.allclose(new(x), core, atol=1e-6)
    finally:
        if saved is None: sys.modules.pop("custom_ops_lib")
        else: sys.modules["custom_ops_lib"] = saved
    # refused: the ordinary binding holds (an op on the forward's own input)
    x_cpp = op_cpp.replace("const at::Tensor& q, const at::Tensor& k, const at::Tensor& v", "const at::Tensor& x")
    x_cpp = x_cpp.replace("q, k, v, y", "x, y").replace("k.dim() == 4 && v.dim() == 4", "true")
    x_cpp = x_cpp.replace("q.", "x.").replace("empty_like(q)", "empty_like(x)")
    assert evokernel.forward_span(model, cls, (x,), (16, 4), evokernel.bound_function(x_cpp)[1], bind,
                                  EVO_SPAN_REFERENCE, x_cpp, 1) is None
    # refused: op.cpp's checks accept q, k, v at no point of the forward (a rank none of them has)
    five = EVO_SPAN_OP_CPP.replace("RANK", "5")
    assert evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, EVO_SPAN_REFERENCE, five, 3) is None
    # refused: a weight of the Model read inside the span (the op's output would have to be made before it)
    weighted = EVO_SPAN_REFERENCE.replace("/ math.sqrt(self.d_k)", "* self.temp")
    model, cls, bind = setup(weighted)
    assert evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, weighted, op_cpp, 3) is None
    # refused: the statements after the output read a local the span made (the op's part is not self-contained)
    leaky = EVO_SPAN_REFERENCE.replace("out = self.W_o(out)", "out = self.W_o(out) + attn.sum()")
    model, cls, bind = setup(leaky)
    assert evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, leaky, op_cpp, 3) is None
    # refused: the only output of the op's shape is one of its inputs (the op would be handed the answer)
    handed = EVO_SPAN_REFERENCE.replace("out = torch.matmul(attn, V)", "out = V.clone()")
    model, cls, bind = setup(handed)
    assert evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, handed, op_cpp, 3) is None
    # an op that takes the output projection's weights too (ViT's proj_weight, proj_bias) ends after the statement
    # that reads them; refused where op.cpp allocates the output at the shape before that statement
    model, cls, bind = setup(EVO_SPAN_REFERENCE)
    proj_cpp = op_cpp.replace("const at::Tensor& v)", "const at::Tensor& v, const at::Tensor& w_o_weight, "
                              "const at::Tensor& w_o_bias)").replace("q, k, v, y", "q, k, v, w_o_weight, w_o_bias, y")
    merged = proj_cpp.replace("at::empty_like(q)", "at::empty({q.size(0), q.size(2), q.size(1) * q.size(3)}, q.options())")
    proj_params = evokernel.bound_function(merged)[1]
    span = evokernel.forward_span(model, cls, (x,), (16, 4), proj_params, bind, EVO_SPAN_REFERENCE, merged, 5)
    assert span is not None and span["call"][3] is model.W_o.weight and span["call"][4] is model.W_o.bias
    with torch.no_grad():
        assert torch.allclose(span["reference"], model(x), atol=1e-6)
    assert evokernel.forward_span(model, cls, (x,), (16, 4), proj_params, bind, EVO_SPAN_REFERENCE, proj_cpp, 5) is None
    # the op's output may be the forward's result (no weight after it: the last statement), a forward argument
    # get_inputs leaves out takes its default, and of two locals spelled alike (b, B) a parameter names the tensor
    tail = (EVO_SPAN_REFERENCE.replace("        out = self.W_o(out)\n", "").replace("def forward(self, x)", "def forward(self, x, mask=None)")
            .replace("V = self.W_v", "B = self.W_v").replace("torch.matmul(attn, V)", "torch.matmul(attn, B)"))
    b_cpp = op_cpp.replace("at::empty_like(q)", "at::empty({q.size(0), q.size(2), q.size(1) * q.size(3)}, q.options())")
    b_cpp = b_cpp.replace("const at::Tensor& v", "const at::Tensor& b").replace("v.dim()", "b.dim()").replace(
        "q, k, v, y", "q, k, b, y")
    b_params = evokernel.bound_function(b_cpp)[1]
    model, cls, bind = setup(tail)
    span = evokernel.forward_span(model, cls, (x,), (16, 4), b_params, bind, tail, b_cpp, 3)
    assert span is not None and span["output"] == "_ev_result" and torch.allclose(span["call"][2], v)
    with torch.no_grad():
        assert torch.equal(span["reference"], model(x))


EVO_LINEAR_REFERENCE = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def feature_map(self, x):
        return F.elu(x) + 1

    def forward(self, x):
        b, n, d = x.size()
        Q = self.W_q(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        K = self.W_k(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        V = self.W_v(x).view(b, n, self.n_heads, self.d_k).transpose(1, 2)
        Q = self.feature_map(Q)
        K = self.feature_map(K)
        K = K.contiguous()
        KV = torch.einsum("bhnd,bhne->bhde", K, V)
        Z = 1.0 / (torch.einsum("bhnd,bhd->bhn", Q, K.sum(dim=2)) + 1e-6)
        out = torch.einsum("bhnd,bhde,bhn->bhne", Q, KV, Z)
        out = out.transpose(1, 2).contiguous().view(b, n, d)
        out = self.W_o(out)
        return out


def get_inputs():
    return [torch.randn(2, 6, 16)]


def get_init_inputs():
    return [16, 4]
"""


def test_evokernel_span_start_retried_where_an_input_local_changes():
    """LinearAttention's span rule (thirty-fifth round): the forward rebinds Q and K (the elu + 1 feature map) after the
    first point at which q, k, v exist, and their ModelNew ran that map in PyTorch, so the op mismatches at the first
    start. forward_span's `attempt` k takes the (k+1)-th start at which an input local took a new value (after V; after
    Q's map; after K's map; K.contiguous(), equal values, is none); span_retries runs the op at each later start until
    one matches: here the third (an op that maps q and k itself, as Cosformer's does its ReLU, matches at the first).
    An op that matches at no start stays a mismatch (the first start's), with the number of
    starts run in the note."""
    import sys
    import types
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "corpus"))
    import evokernel
    op_cpp = EVO_SPAN_OP_CPP.replace("RANK", "4").replace("attn_core", "linear_attn")
    params = evokernel.bound_function(op_cpp)[1]
    text = EVO_LINEAR_REFERENCE
    ns = {}
    exec(text, ns)
    torch.manual_seed(0)
    model, cls = ns["Model"](16, 4), ns["Model"]
    bind = dict(dtypes={}, computed=evokernel.computed_names(text), made={}, ranks=evokernel.checked_ranks(op_cpp),
                assigned=evokernel.forward_locals(text), alike=[])
    x = torch.randn(2, 6, 16)
    spans = [evokernel.forward_span(model, cls, (x,), (16, 4), params, bind, text, op_cpp, 3, k) for k in range(4)]
    assert [s and (s["start"], s["output"]) for s in spans] == [(4, "out"), (5, "out"), (6, "out"), None]
    assert all(torch.equal(s["reference"], spans[0]["reference"]) for s in spans[:3])
    with torch.no_grad():
        heads = lambda w: w(x).view(2, 6, 4, 4).transpose(1, 2)
        fq, fk = (torch.nn.functional.elu(heads(model.W_q)) + 1, torch.nn.functional.elu(heads(model.W_k)) + 1)
    assert torch.allclose(spans[2]["call"][0], fq) and torch.allclose(spans[2]["call"][1], fk)
    assert not torch.allclose(spans[1]["call"][1], fk)   # the second start: Q mapped, K not yet

    def linear(q, k, v):   # the kernel's computation: no feature map of its own
        kv, z = torch.einsum("bhnd,bhne->bhde", k, v), 1.0 / (torch.einsum("bhnd,bhd->bhn", q, k.sum(dim=2)) + 1e-6)
        return torch.einsum("bhnd,bhde,bhn->bhne", q, kv, z)

    def run_at(lib_fn):
        def attempt(k):   # the match step at start k, as match_evokernel makes it (a stand-in custom_ops_lib)
            lib = types.ModuleType("custom_ops_lib")
            lib.linear_attn_custom = lib_fn
            saved = sys.modules.get("custom_ops_lib")
            sys.modules["custom_ops_lib"] = lib
            try:
                space = {}
                exec(evokernel.model_src(evokernel.span_reference(text, op_cpp, bind, 3, k), op_cpp, span=bind), space)
                torch.manual_seed(0)
                ref = space["Model"](16, 4)
                torch.manual_seed(0)
                new = space["ModelNew"](16, 4)
                with torch.no_grad():
                    want = ref(x)
                    try:
                        got = new(x)
                    except evokernel.EvoKernelUnbound:
                        return dict(match="no-reference", match_detail="EvoKernelUnbound")
                ok = got.shape == want.shape and torch.allclose(got, want, atol=1e-2, rtol=1e-2)
                return dict(match="pass" if ok else "mismatch", match_detail=f"start {k}")   # mkb.match_mkb's words
            finally:
                if saved is None: sys.modules.pop("custom_ops_lib")
                else: sys.modules["custom_ops_lib"] = saved
        return attempt
    attempt = run_at(linear)
    first = attempt(0)
    assert first["match"] == "mismatch"
    out, note = evokernel.span_retries(first, attempt)
    assert out == dict(match="pass", match_detail="start 2") and "span start 3 of the 3 run" in note, (out, note)
    assert run_at(lambda q, k, v: linear(torch.nn.functional.elu(q) + 1, torch.nn.functional.elu(k) + 1, v))(0)["match"] == "pass"
    # an op that matches at no start (its output scaled by 1.5): the first start's mismatch, three starts run
    wrong = run_at(lambda q, k, v: 1.5 * linear(q, k, v))
    first = wrong(0)
    out, note = evokernel.span_retries(first, wrong)
    assert out is first and out["match"] == "mismatch" and "3 start(s) run, none matched; no start 4" in note, note


def test_a_shared_tiling_source_named_under_a_root_folder_variable_is_a_link_candidate(tmp_path):
    """cann-ops: the root CMakeLists.txt sets `OP_COMMON_DIR` to `${CMAKE_CURRENT_SOURCE_DIR}/src/common`, and every foreach
    op adds `${OP_COMMON_DIR}/src/foreach/op_tiling/foreach_tiling_func.cpp` (their tiling functions, one
    IMPL_OP_OPTILING each) to the shared optiling target; the root file adds `${CMAKE_CURRENT_SOURCE_DIR}/src/common/src/
    fallback_comm.cpp`. Both are candidates, and an op whose own op_host registers no tiling function is given the shared
    source that registers its type, as CANN's build links it. A variable no root `set` gives stays unread."""
    files = {
        "CMakeLists.txt": "set(OP_COMMON_DIR ${CMAKE_CURRENT_SOURCE_DIR}/src/common)\n"
            "target_sources(optiling PRIVATE\n    ${CMAKE_CURRENT_SOURCE_DIR}/src/common/src/fallback.cpp\n)\n",
        "src/common/src/fallback.cpp": "int Fallback() { return 1; }\n",
        "src/common/src/each/op_tiling/each_tiling_func.cpp":
            "namespace optiling {\nint Tile() { return 2; }\nIMPL_OP_OPTILING(EachAbs)\n}\n",
        "src/common/src/each/op_tiling/other.cpp": "int Other() { return 3; }\n",
        "src/each/each_abs/CMakeLists.txt": "target_sources(optiling PRIVATE\n"
            "    ${OP_COMMON_DIR}/src/each/op_tiling/each_tiling_func.cpp\n    ${NOT_SET}/src/each/op_tiling/other.cpp\n)\n",
        "src/each/each_abs/op_host/each_abs.cpp": "namespace ops {\nOP_ADD(EachAbs);\n}\n",
        "src/each/each_abs/op_kernel/each_abs.cpp": "// the kernel\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    assert corpus.optiling_sources(gitdir, commit) == (
        "src/common/src/fallback.cpp", "src/common/src/each/op_tiling/each_tiling_func.cpp")
    assert corpus.link_candidates(gitdir, commit, "src/each/each_abs", "Hayden727/cann-ops") == [
        "src/common/src/fallback.cpp", "src/common/src/each/op_tiling/each_tiling_func.cpp"]
    entry = {"source": "s", "repo": "Hayden727/cann-ops", "commit": commit, "path": "src/each/each_abs", "kind": "op-project"}
    dest = tmp_path / "dest"
    (dest / "op_host").mkdir(parents=True)
    assert corpus.dependency_tiling(entry, gitdir, dest, sorted(files)) == ["src/common/src/each/op_tiling/each_tiling_func.cpp"]


def test_an_op_defined_by_a_repository_macro_is_given_the_shared_tiling_source_of_its_folders_type(tmp_path):
    """cann-ops foreach_abs: its op_host holds only `FOREACH_OPDEF(HOST_CONFIG, UNARY, Abs, ...)`, a macro of the
    repository's whose OP_ADD pastes the type ForeachAbs, and no tiling function; the shared source that registers
    IMPL_OP_OPTILING(ForeachAbs) (under `${OP_COMMON_DIR}`) is its tiling, found by the type its folder names. A
    shared source that registers only other types is not brought."""
    files = {
        "CMakeLists.txt": "set(OP_COMMON_DIR ${CMAKE_CURRENT_SOURCE_DIR}/src/common)\n",
        "src/common/inc/each_proto.h": "#define EACH_OPDEF(NAME) OP_ADD(Each##NAME);\n",
        "src/common/src/each/each_tiling_func.cpp": "namespace optiling {\nIMPL_OP_OPTILING(EachAbs)\n}\n",
        "src/common/src/each/each_other_func.cpp": "namespace optiling {\nIMPL_OP_OPTILING(EachNeg)\n}\n",
        "src/each/each_abs/CMakeLists.txt": "target_sources(optiling PRIVATE\n"
            "    ${OP_COMMON_DIR}/src/each/each_tiling_func.cpp\n    ${OP_COMMON_DIR}/src/each/each_other_func.cpp\n)\n",
        "src/each/each_abs/op_host/each_abs.cpp": '#include "each_proto.h"\nnamespace ops {\nEACH_OPDEF(Abs)\n}\n',
        "src/each/each_abs/op_kernel/each_abs.cpp": "// the kernel\n",
        # an example op of the same type, built on its own (foreach_v2_example/foreach_norm): its copy is not the tiling
        "src/common/example/each_abs/CMakeLists.txt": "target_sources(optiling PRIVATE op_host/each_abs_tiling.cpp)\n",
        "src/common/example/each_abs/op_host/each_abs_tiling.cpp": "namespace optiling {\nIMPL_OP_OPTILING(EachAbs)\n}\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    entry = {"source": "s", "repo": "Hayden727/cann-ops", "commit": commit, "path": "src/each/each_abs", "kind": "op-project"}
    dest = tmp_path / "dest"
    (dest / "op_host").mkdir(parents=True)
    assert corpus.dependency_tiling(entry, gitdir, dest, sorted(files)) == ["src/common/src/each/each_tiling_func.cpp"]


def test_a_header_under_another_ops_folder_on_the_cmake_include_path_comes_along_with_that_folder_an_include_folder(tmp_path):
    # cann-ops conv2d_backprop_input_v2: its CMakeLists.txt puts src/conv/conv3d_backprop_input_v2/op_host on the optiling
    # target's path, and its tiling header includes "conv3d_backprop_input_v2_tiling.h" from there; conv2d_backprop_filter_v3
    # names "base/context_maker/kernel_run_context_maker.h" under src/conv/conv2d_transpose_v2/op_host. The kernel build
    # (which reads the tiling header) failed with "No such file" on both. A header the op has itself is its own.
    files = {
        "src/conv/op_b/CMakeLists.txt": (
            "target_sources(optiling PRIVATE op_host/op_b_tiling.cpp)\n"
            "target_include_directories(optiling PRIVATE\n  ${CMAKE_CURRENT_SOURCE_DIR}/op_host\n"
            "  ${CMAKE_SOURCE_DIR}/src/common/inc  # a shared folder: not another op's\n"
            "  ${CMAKE_SOURCE_DIR}/src/conv/op_a/op_host\n)\n"),
        "src/conv/op_b/op_host/op_b_tiling.h": ('#include "a_tiling.h"\n#include "base/maker/maker.h"\n'
                                                '#include "own.h"\n#include "nowhere.h"\n'),
        "src/conv/op_b/op_host/own.h": "#pragma once  // op_b's\n",
        "src/conv/op_b/op_host/op_b_tiling.cpp": '#include "op_b_tiling.h"\n',
        "src/conv/op_b/op_kernel/op_b.cpp": '#include "kernel_operator.h"\n',
        "src/conv/op_a/op_host/a_tiling.h": "#pragma once\n",
        "src/conv/op_a/op_host/own.h": "#pragma once  // op_a's\n",
        "src/conv/op_a/op_host/base/maker/maker.h": '#pragma once\n#include "pool.h"\n',
        "src/conv/op_a/op_host/base/maker/pool.h": "#pragma once\n",
        "src/conv/op_a/op_host/unnamed.h": "#pragma once\n",
    }
    gitdir, commit = git_repo(tmp_path / "repo", files)
    dest = tmp_path / "project"
    dest.mkdir()
    entry = {"source": "s", "repo": "Hayden727/cann-ops", "commit": commit, "path": "src/conv/op_b", "kind": "op-project"}
    corpus.materialise(entry, gitdir, dest)
    folder = dest / corpus.SIBLINGS / "src/conv/op_a/op_host"
    assert (folder / "ascendcraft_corpus_include_root.h").is_file()   # an include folder of the build
    for name in ("a_tiling.h", "base/maker/maker.h", "base/maker/pool.h"):
        assert (folder / name).is_file(), name                       # named, and what the copies name beside them
    assert not (folder / "own.h").exists()                           # the op's own header is the one it reads
    assert not (folder / "unnamed.h").exists()                       # nothing the op names
    assert (dest / "op_host/own.h").read_text() == "#pragma once  // op_b's\n"
