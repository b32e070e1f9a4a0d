"""CompareScalar / Compare into a result tensor that is not uint8_t (a float buffer kept as the mask's bytes, as a contest
kernel does: linnlh/ascendc-perf-s2 BallQuery). The official headers take any result type (the NPU build writes the
mask's bytes through it; their CPU-debug build asserts uint8_t when the kernel runs), so the kernel compiles and the
call stops with `unsupported` at its line when it runs; a uint8_t view of the same buffer runs as before."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t LEN = 64;

extern "C" __global__ __aicore__ void near_points(GM_ADDR d, GM_ADDR bits)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> dBuf, maskBuf;
    pipe.InitBuffer(dBuf, LEN * sizeof(float));
    pipe.InitBuffer(maskBuf, LEN * sizeof(float));
    GlobalTensor<float> dGm;
    GlobalTensor<uint8_t> bitsGm;
    dGm.SetGlobalBuffer((__gm__ float *)d, LEN);
    bitsGm.SetGlobalBuffer((__gm__ uint8_t *)bits, 32);
    LocalTensor<float> dist = dBuf.Get<float>();
    LocalTensor<float> mask = maskBuf.Get<float>();
    DataCopy(dist, dGm, LEN);
    PipeBarrier<PIPE_ALL>();
    CompareScalar(MASK_TARGET, dist, 4.0f, CMPMODE::LT, LEN, 1, {1, 1, 8, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(bitsGm, mask.ReinterpretCast<uint8_t>(), 32);
}
'''


def _built(tmp_path, target):
    src = tmp_path / "near_points.cpp"
    src.write_text(KERNEL.replace("MASK_TARGET", target))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def _args(d):
    return [GM("d", d), GM("bits", np.zeros(32, np.uint8), "out")]


def test_a_float_result_tensor_compiles_and_stops_at_the_call(tmp_path):
    b = _built(tmp_path, "mask")
    r = run(b, _args(np.arange(64, dtype=np.float32)), block_dim=1)
    e = [x for x in r.diagnostics if x.is_error]
    assert e and e[0].kind == "unsupported" and "uint8_t result tensor" in e[0].message
    assert "CompareScalar(mask" in e[0].source_line


def test_a_uint8_view_of_the_same_buffer_writes_the_bits(tmp_path):
    b = _built(tmp_path, "mask.ReinterpretCast<uint8_t>()")
    d = np.array([1.0, 9.0, 3.0, 4.0] * 16, np.float32)
    r = run(b, _args(d), block_dim=1)
    assert r.ok, r.diagnostics
    got = np.unpackbits(r.outputs["bits"][:8], bitorder="little").astype(bool)
    assert (got == (d < 4.0)).all()
