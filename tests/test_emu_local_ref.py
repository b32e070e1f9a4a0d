"""LocalTensor's element by reference, `t(i)` (AscendC's `PrimType& operator()(uint32_t)`), the way EvoKernel's
LinearAttentionCustom keeps its running sums: `ksum(i) = ksum(i) + kRow(i)` in scalar loops over UB. A write through
the reference is the element's (a vector operation reading it later sees the value and no ub-uninitialised note); an
index past GetSize() but inside the tensor's buffer warns once at its line and runs as the NPU runs it; past the buffer
it is an error naming the line; in trace mode each reference is one scalar read. Written here in that style."""
import numpy as np

from ascendcraft.emu import GM, build, op_names, run, trace

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void running_sum(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> inB, sumB, outB;
    pipe.InitBuffer(inB, 4 * 16 * sizeof(float));
    pipe.InitBuffer(sumB, 16 * sizeof(float));
    pipe.InitBuffer(outB, 16 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    yg.SetGlobalBuffer((__gm__ float*)y, 16);
    LocalTensor<float> in = inB.Get<float>(), sum = sumB.Get<float>(SUMLEN), out = outB.Get<float>();
    DataCopy(in, xg, 64);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 16; ++i) sum(i) = 0.0f;                  // ZERO: written through the reference
    for (uint32_t r = 0; r < 4; ++r) {
        LocalTensor<float> row = in[r * 16];
        for (uint32_t i = 0; i < 16; ++i) sum(i) = sum(i) + row(i);    // ACCUMULATE
    }
    sum(INDEX) = sum(INDEX) * 1.0f;                                    // EXTRA
    PipeBarrier<PIPE_ALL>();
    Muls(out, sum, 2.0f, 16);                                          // VREAD: what the references wrote
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, out, 16);
}
"""


def _run(sumlen: int, index: int):
    b = build({"running_sum.cpp": KERNEL.replace("SUMLEN", str(sumlen)).replace("INDEX", str(index))})
    assert b.ok, b.log[-2000:]
    x = (np.arange(64, dtype=np.float32) % 7) - 3
    return x, run(b, [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)


def _line(tag: str) -> int:
    return next(i + 1 for i, line in enumerate(KERNEL.splitlines()) if f"// {tag}" in line)


def test_writes_through_the_element_reference_are_the_elements_and_a_vector_read_sees_them():
    x, r = _run(16, 0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x.reshape(4, 16).sum(axis=0))
    assert not [d for d in r.diagnostics if d.kind in ("ub-uninitialised", "ub-out-of-range")], r.diagnostics


def test_an_element_reference_past_the_tensor_inside_its_buffer_warns_at_its_line():
    # sum is a view of 8 of its 16-float buffer: every index 8..15 is past GetSize() and inside the buffer (and so is
    # the Muls over 16 of it, which warns at its own line)
    x, r = _run(8, 0)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], 2 * x.reshape(4, 16).sum(axis=0))
    warned = [d for d in r.diagnostics if d.kind == "ub-out-of-range"]
    by_line = {d.line: d for d in warned}
    assert sorted(by_line) == [_line("ZERO"), _line("ACCUMULATE"), _line("VREAD")], r.diagnostics   # once a place
    assert all(d.severity == "warning" for d in warned)
    assert "inside the buffer" in by_line[_line("ZERO")].message and "inside the buffer" in by_line[_line("ACCUMULATE")].message


def test_an_element_reference_past_the_buffer_is_an_error_at_its_line():
    _, r = _run(16, 4096)
    assert not r.ok
    err = r.errors[0]
    assert err.kind == "ub-out-of-range" and err.line == _line("EXTRA") and err.file == "running_sum.cpp", err.render()


def test_each_element_reference_is_one_scalar_read_in_the_trace():
    b = build({"running_sum.cpp": KERNEL.replace("SUMLEN", "16").replace("INDEX", "0")})
    t = trace(b, [GM("x", np.zeros(64, np.float32)), GM("y", np.zeros(16, np.float32), "out")], block_dim=1, reuse=False)
    names = op_names()
    ops = np.array([names[o] for o in t.records["op"]])
    assert (ops == "GetValue").sum() == 16 + 4 * 16 * 3 + 2   # ZERO, ACCUMULATE (sum twice, row once), EXTRA
    assert (ops == "Muls").sum() == 1
