"""An operand past its LocalTensor's end but inside the buffer the tensor came from (NPUKernelBench's Arange answer
casts 8 floats into `Get<float>(0)` of a 32-byte TBuf and reads its GetValue(0)), and a level-0 Compare whose mask asks only for elements of its
source while A2 reads the whole 256-byte repeat (CrossEntropyLossGrad compares 8 floats of a 32-byte tensor): both
passed on the 910B; each is a warning and the kernel runs as the NPU runs it. A write past its buffer
(tests/emu_kernels/broken/ub_out_of_range.cpp) and an operator whose count runs past its source
(test_emu_symbols.py) stay errors."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void past(GM_ADDR x, GM_ADDR n, GM_ADDR y, GM_ADDR m) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> one, small, ref, cmp, out;
    pipe.InitBuffer(inQ, 1, 8 * sizeof(int32_t));
    pipe.InitBuffer(one, sizeof(float));       // 4 bytes: AscendC rounds the buffer up to 32
    pipe.InitBuffer(small, 8 * sizeof(float));
    pipe.InitBuffer(ref, 64 * sizeof(float));
    pipe.InitBuffer(cmp, 32);
    pipe.InitBuffer(out, 8 * sizeof(float));
    GlobalTensor<float> xg, yg;
    GlobalTensor<int32_t> ng;
    GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    ng.SetGlobalBuffer((__gm__ int32_t*)n);
    yg.SetGlobalBuffer((__gm__ float*)y);
    mg.SetGlobalBuffer((__gm__ uint8_t*)m);
    LocalTensor<int32_t> nl = inQ.AllocTensor<int32_t>();
    DataCopy(nl, ng, 8);
    inQ.EnQue(nl);
    nl = inQ.DeQue<int32_t>();
    LocalTensor<float> start = one.Get<float>(0);
    Cast(start, nl, RoundMode::CAST_ROUND, 8);   // WRITE: 32 bytes into a 0-element view of its 32-byte buffer
    float first = start.GetValue(0);             // GET: element 0 of the 0-element view
    inQ.FreeTensor(nl);
    LocalTensor<float> s = small.Get<float>(), r = ref.Get<float>(), o = out.Get<float>();
    LocalTensor<uint8_t> c = cmp.Get<uint8_t>();
    DataCopy(s, xg, 8);
    Duplicate(r, 3.0f, 64);
    Duplicate(c.ReinterpretCast<half>(), (half)0, 16);
    Compare(c, s, r, CMPMODE::EQ, 8, 1, {1, 1, 1, 8, 8, 8});   // READ: mask 8 of the 32-byte s, A2 reads 256 bytes
    Adds(o, s, first, 8);
    DataCopy(yg, o, 8);
    DataCopy(mg, c, 32);
}
"""


def test_past_the_tensor_inside_its_buffer_or_a_compares_whole_repeat_warns_and_runs_as_the_npu():
    x = np.arange(8, dtype=np.float32)
    n = np.full(8, 5, np.int32)
    r = run(build({"past.cpp": KERNEL}), [GM("x", x), GM("n", n), GM("y", np.zeros(8, np.float32), "out"),
                                          GM("m", np.zeros(32, np.uint8), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 5)
    assert r.outputs["m"][0] == 1 << 3                            # x == 3 at element 3; the mask asked for 8 elements
    lines = KERNEL.splitlines()
    warned = {d.line: d for d in r.diagnostics if d.kind == "ub-out-of-range"}
    write = next(i + 1 for i, line in enumerate(lines) if "// WRITE" in line)
    read = next(i + 1 for i, line in enumerate(lines) if "// READ" in line)
    get = next(i + 1 for i, line in enumerate(lines) if "// GET" in line)
    assert sorted(warned) == [write, get, read] and all(d.severity == "warning" for d in warned.values())
    assert "inside the buffer" in warned[write].message and "ignores Compare's mask" in warned[read].message
