"""Kernels that test the tiling key in the preprocessor, as CANN's public operators do (`#if TILING_KEY_VAR == 1 ...
#elif ...`, `#if defined(TILING_KEY_VAR) && TILING_KEY_VAR == K`): CANN compiles one kernel binary per tiling key with
TILING_KEY_VAR defined as that key's literal. The emulator builds such a kernel for the key a launch has (run(tiling_key=)
or the host tiling function's SetTilingKey), one cached build per key; a key none of the conditions names, whose blocks
write nothing, is a `tiling-key` error naming it. A kernel testing the key with TILING_KEY_IS in C++ still reads it at
run time from one build."""
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.emu import GM, Tiling, Workspace, build, build_for_key, key_var_conditions, run, trace
from ascendcraft.opproject import run_project

KERNEL = """/* y = x + 1 (key 1), 2 x (key 2), -x (key SCALE_NEG_KEY = 30), chosen by the preprocessor per tiling key. */
#include "kernel_operator.h"
#include "pp_keys.h"

using namespace AscendC;

constexpr int32_t N = 256;

extern "C" __global__ __aicore__ void pp_keyed(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * N, N);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * N, N);
    pipe.InitBuffer(inQueue, 1, N * sizeof(float));
    pipe.InitBuffer(outQueue, 1, N * sizeof(float));
#if TILING_KEY_VAR == 1 || TILING_KEY_VAR == 2 || \\
    TILING_KEY_VAR == SCALE_NEG_KEY
    LocalTensor<float> a = inQueue.AllocTensor<float>();
    DataCopy(a, xGm, N);
    inQueue.EnQue(a);
    a = inQueue.DeQue<float>();
    LocalTensor<float> b = outQueue.AllocTensor<float>();
#if TILING_KEY_VAR == 1
    Adds(b, a, 1.0f, N);
#elif TILING_KEY_VAR == 2
    Muls(b, a, 2.0f, N);
#elif defined(TILING_KEY_VAR) && (TILING_KEY_VAR == SCALE_NEG_KEY)
    Muls(b, a, -1.0f, N);
#endif
    outQueue.EnQue(b);
    inQueue.FreeTensor(a);
    b = outQueue.DeQue<float>();
    DataCopy(yGm, b, N);
    outQueue.FreeTensor(b);
#endif
}
"""
HEADER = "#pragma once\n#define SCALE_NEG_KEY 30\n"
SOURCES = {"pp_keyed.cpp": KERNEL, "pp_keys.h": HEADER}
HOST = """#include <cstdint>
extern "C" void ascendcraft_set_tiling_key(uint64_t key);
extern "C" int ascendcraft_tiling(const int64_t* args, int nargs, void*, uint64_t, uint32_t* blockDim, uint64_t* ws)
{
    if (nargs < 2) return 1;
    ascendcraft_set_tiling_key(static_cast<uint64_t>(args[0]));   // what a TilingFunc's SetTilingKey does
    *blockDim = static_cast<uint32_t>(args[1]);
    *ws = 0;
    return 0;
}
"""
X = np.random.default_rng(12).standard_normal((2, 256)).astype(np.float32)
WANT = {1: X + 1, 2: 2 * X, 30: -X}


def args(host: bool = False):
    return [GM("x", X), GM("y", np.empty_like(X), "out"), Workspace() if host else Workspace(0),
            Tiling() if host else Tiling(b"\0" * 8)]


def test_the_conditions_and_the_keys_they_name_are_found():
    c = key_var_conditions(SOURCES)
    assert c.file == "pp_keyed.cpp" and c.line == KERNEL.splitlines().index("#if TILING_KEY_VAR == 1 || TILING_KEY_VAR == 2 || \\") + 1
    assert c.keys == ["1", "2", "SCALE_NEG_KEY"] and c.complete
    ne = key_var_conditions({"k.cpp": "#if defined(TILING_KEY_VAR) && TILING_KEY_VAR != 3\n#endif\n"})
    assert ne.keys == [] and not ne.complete           # a test other than `==`: the named keys are no complete list
    assert key_var_conditions({"k.cpp": "// #if TILING_KEY_VAR == 1\nif (TILING_KEY_IS(1)) {}\n"}) is None
    # only what the kernel's translation unit includes counts (not another SoC's kernel file beside it)
    other = {**SOURCES, "pp_keyed_apt.cpp": "#if TILING_KEY_VAR == 9\n#endif\n"}
    assert key_var_conditions(other, "pp_keyed.cpp").keys == ["1", "2", "SCALE_NEG_KEY"]
    text = (Path(__file__).parent / "emu_kernels" / "tiling_key" / "keyed.cpp").read_text()
    assert build({"keyed.cpp": text, "keyed_apt.cpp": "#if TILING_KEY_VAR == 9\n#endif\n"}, "keyed").tiling_key_var is None


@pytest.mark.parametrize("key", sorted(WANT))
def test_each_key_runs_the_branch_the_preprocessor_keeps(key):
    b = build(SOURCES)
    assert b.ok, b.log[-2000:]
    assert b.tiling_key_var == 0                        # built for the default key until a launch names another
    r = run(b, args(), block_dim=2, tiling_key=key)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    assert r.tiling_key == key
    np.testing.assert_allclose(r.outputs["y"], WANT[key], rtol=1e-6)


def test_one_build_per_key_cached():
    b = build(SOURCES)
    one, two = build_for_key(b, 1), build_for_key(b, 2)
    assert one.ok and two.ok and one.tiling_key_var == 1 and two.tiling_key_var == 2 and one.binary != two.binary
    again = build_for_key(b, 1)
    assert again.cached and again.binary == one.binary
    assert build_for_key(one, 1) is one


def test_a_key_with_no_branch_is_a_named_error():
    r = run(build(SOURCES), args(), block_dim=2, tiling_key=7)
    assert not r.ok
    d = r.errors[0]
    assert d.kind == "tiling-key" and d.context["tiling_key"] == 7 and d.context["keys"] == "1, 2, 30"
    assert "tiling key 7" in d.message and "#if TILING_KEY_VAR" in d.message
    assert d.file == "pp_keyed.cpp" and d.line == key_var_conditions(SOURCES).line
    assert "tiling_key=" in d.hint
    # and the default key, 0, which no condition names either
    r = run(build(SOURCES), args(), block_dim=2)
    assert [d.kind for d in r.errors] == ["tiling-key"] and r.errors[0].context["tiling_key"] == 0


def test_the_host_tiling_function_chooses_the_key_and_its_build():
    b = build({**SOURCES, "host.cpp": HOST})
    assert b.ok and b.tiling_key_var == 0
    for key in (2, 30):
        r = run(b, args(host=True), host_args=[key, 2])
        assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
        assert r.tiling_key == key and r.block_dim == 2
        np.testing.assert_allclose(r.outputs["y"], WANT[key], rtol=1e-6)
    r = run(b, args(host=True), host_args=[5, 2])        # SetTilingKey(5): no branch for it
    assert [d.kind for d in r.errors] == ["tiling-key"] and r.errors[0].context["tiling_key"] == 5


def test_trace_mode_builds_the_key_too():
    t = trace(build(SOURCES), args(), block_dim=2, tiling_key=2)
    assert t.count("Muls") == 2 and t.count("Adds") == 0


def test_a_kernel_testing_the_key_at_run_time_keeps_one_build():
    text = (Path(__file__).parent / "emu_kernels" / "tiling_key" / "keyed.cpp").read_text()
    b = build({"keyed.cpp": text})
    assert b.ok and b.tiling_key_var is None and build_for_key(b, 2) is b
    r = run(b, args(), block_dim=2, tiling_key=2)
    assert r.ok and r.tiling_key == 2
    np.testing.assert_allclose(r.outputs["y"], 2 * X, rtol=1e-6)


LEAKY = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "leaky_relu_custom"


@pytest.fixture
def pp_project(tmp_path):
    "leaky_relu_custom with its kernel's TILING_KEY_IS branches written as #if TILING_KEY_VAR == 1 / #elif == 2."
    folder = tmp_path / "leaky_relu_custom"
    shutil.copytree(LEAKY, folder)
    kernel = folder / "op_kernel" / "leaky_relu_custom.cpp"
    text = kernel.read_text()
    old = ["    if (TILING_KEY_IS(1)) {", "    } else if (TILING_KEY_IS(2)) {", "    } else {\n        return;\n    }"]
    new = ["#if TILING_KEY_VAR == 1", "#elif TILING_KEY_VAR == 2", "#else\n    return;\n#endif"]
    for o, n in zip(old, new):
        assert o in text
        text = text.replace(o, n)
    kernel.write_text(text)
    return folder


def _leaky(x, negative_slope=0.01):
    return torch.nn.functional.leaky_relu(x.float(), negative_slope).to(x.dtype)


def test_an_op_project_runs_the_key_its_tiling_function_sets(pp_project):
    g = torch.Generator().manual_seed(3)
    for n, key in ((48 * 2 * 64, 1), (100 * 64, 2)):    # even split over 48 cores: key 1; uneven: key 2
        x = torch.randn(n, generator=g)
        r = run_project(pp_project, {"x": x}, attrs={"negative_slope": 0.2}, reference=_leaky)
        assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
        assert r.tiling_key == key
        np.testing.assert_allclose(r.outputs["y"], _leaky(x, 0.2).numpy(), rtol=1e-6, atol=1e-6)
    r = run_project(pp_project, {"x": torch.randn(100 * 64, generator=g)}, attrs={"negative_slope": 0.2}, tiling_key=4,
                    reference=_leaky)
    assert not r.run.ok
    errors = [d for d in r.run.diagnostics if d.is_error]
    assert errors and errors[0].kind == "tiling-key" and "tiling key 4" in errors[0].message
    assert errors[0].context["keys"] == "1, 2"


PTR_KERNEL = """/* y = scale * x, the scale read through a pointer to the tiling struct (the arg_max_with_value style). */
#include "kernel_operator.h"
using namespace AscendC;

struct ScaleTiling {
    float scale;
    uint32_t n;
};

__aicore__ inline float ScaleOf(__tiling_data_ptr__ ScaleTiling* t) { return t->scale; }

extern "C" __global__ __aicore__ void ptr_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_PTR_WITH_STRUCT(ScaleTiling, tilingData, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t n = tilingData->n;
    pipe.InitBuffer(buf, n * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * n, n);
    LocalTensor<float> a = buf.Get<float>();
    DataCopy(a, xGm, n);
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, ScaleOf(tilingData), n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, a, n);
}
"""


def test_a_tiling_pointer_declared_with_the_generated_headers_qualifier():
    "`__tiling_data_ptr__` (CANN's generated kernel header: `__gm__ const`) qualifies the pointer a kernel passes on."
    tiling = np.array([1.5], np.float32).tobytes() + np.array([256], np.uint32).tobytes()
    r = run(build({"ptr_scale.cpp": PTR_KERNEL}),
            [GM("x", X), GM("y", np.empty_like(X), "out"), Workspace(0), Tiling(tiling)], block_dim=2)
    assert r.ok and not r.diagnostics, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["y"], 1.5 * X, rtol=1e-6)
