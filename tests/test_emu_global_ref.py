"""GlobalTensor's element by reference, `gm(i)` (AscendC's `__gm__ PrimType& operator()(uint64_t)`; hicann
ops-transformer prompt_flash_attention reads a dequant scale with it), checked as a scalar read: the value, and an
index past the buffer is an error naming the line; and the pipe hints of the device compiler (`__inout_pipe__(MTE2)`
before a function, ops-transformer's moe kernels) compile to nothing."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline __inout_pipe__(MTE2) void Load(const LocalTensor<float>& t, const GlobalTensor<float>& g)
{
    DataCopy(t, g, 64);
}

extern "C" __global__ __aicore__ void scale_by_ref(GM_ADDR x, GM_ADDR s, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xg, sg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    sg.SetGlobalBuffer((__gm__ float *)s, 4);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    const float scale = sg(INDEX);
    LocalTensor<float> a = buf.Get<float>();
    Load(a, xg);
    PipeBarrier<PIPE_ALL>();
    Muls(a, a, scale, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, a, 64);
}
'''


def _run(index: str):
    b = build({"scale_by_ref.cpp": KERNEL.replace("INDEX", index)})
    assert b.ok, b.log[-2000:]
    x = np.arange(64, dtype=np.float32) - 30
    s = np.array([0.5, -3.0, 2.0, 7.0], np.float32)
    return x, s, run(b, [GM("x", x), GM("s", s), GM("y", np.empty(64, np.float32), "out")], block_dim=1)


def test_the_element_by_reference_is_read_from_gm():
    x, s, r = _run("2")
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], x * s[2])


def test_an_element_by_reference_past_the_buffer_is_an_error_at_its_line():
    _, _, r = _run("4096")
    assert not r.ok
    d = r.errors[0]
    assert d.kind == "gm-out-of-bounds" and d.line == 18 and d.file == "scale_by_ref.cpp", "\n".join(map(str, r.diagnostics))
