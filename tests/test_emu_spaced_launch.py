"""A kernel launch spelled `<< <...>> >`, as a formatter spaces it: the CANN 8.0.RC3 samples' GreaterEqual and LessEqual
(operator_contrib/*Sample, in the copy the corpus has) launch their kernel from the op_kernel's `*_do` wrapper with
`greater_equal << <blockDim, l2ctrl, stream >> > (x1, x2, y, workspace, tiling);`. The emulator blanks a launch
statement of an op kernel (launch_statements) and turns a host program's launch into a call (host_launch_calls); both
read only the unspaced `<<<...>>>` before, and the build stopped at `expected primary-expression before '<'`.

The kernel is written for the test in the samples' style: y = (x1 >= x2) as int8 over 2 blocks, with its `_do` wrapper."""
import numpy as np

from ascendcraft.emu import GM, build, host_launch_calls, launch_statements, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ge_spaced(GM_ADDR x1, GM_ADDR x2, GM_ADDR y)
{
    constexpr int32_t n = 256;
    GlobalTensor<float> a, b;
    GlobalTensor<int8_t> o;
    a.SetGlobalBuffer((__gm__ float*)x1 + n * GetBlockIdx(), n);
    b.SetGlobalBuffer((__gm__ float*)x2 + n * GetBlockIdx(), n);
    o.SetGlobalBuffer((__gm__ int8_t*)y + n * GetBlockIdx(), n);
    for (int32_t i = 0; i < n; i++) {
        o.SetValue(i, a.GetValue(i) >= b.GetValue(i) ? 1 : 0);
    }
}

#ifndef ASCENDC_CPU_DEBUG
void ge_spaced_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x1, uint8_t* x2, uint8_t* y)
{
  ge_spaced << <blockDim, l2ctrl, stream >> > (x1, x2, y);
}
#endif
'''


def test_a_spaced_launch_statement_is_blanked_in_place():
    text = "void f(void* s) {\n  k << <8, nullptr, s >> > (a,\n      b);\n  int z = 1 << 3;\n}\n"
    out = launch_statements(text)
    assert out.split("\n")[1].strip() == "" and out.split("\n")[2].strip() == ""
    assert "int z = 1 << 3;" in out and len(out) == len(text)


def test_a_spaced_host_launch_becomes_a_launch_call():
    text = "int main() {\n    add_custom << <blockDim, nullptr, stream >> > (x, y, z);\n}\n"
    launched = []
    out = host_launch_calls(text, launched)
    assert 'ascendcraft_host::launch("add_custom", blockDim, x, y, z);' in out and launched == ["add_custom"]


def test_an_op_kernel_with_a_spaced_launch_wrapper_builds_and_runs():
    rng = np.random.default_rng(3)
    x1 = rng.integers(-3, 3, 512).astype(np.float32)
    x2 = np.where(rng.integers(0, 2, 512) == 0, x1, rng.integers(-3, 3, 512)).astype(np.float32)
    b = build({"ge.cpp": KERNEL}, "ge_spaced")
    assert b.ok, [d.render() for d in b.diagnostics]
    r = run(b, [GM("x1", x1), GM("x2", x2), GM("y", np.zeros(512, np.int8), "out")], block_dim=2)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], (x1 >= x2).astype(np.int8))
