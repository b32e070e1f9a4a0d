"""A buffer's place kept and set again (AscendC's TBuffAddr): TBuf::GetBufferAddr(tensor.GetBufferHandle()) and
LocalTensor::SetAddr, as hicann ops-transformer's mla_prolog keeps its L1 / L0 views in a struct and sets them on other
tensors. The view set this way reads and writes the buffer's bytes; a TBuffAddr the kernel made up stops the run."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

struct Places {
    TBuffAddr whole;
    TBuffAddr upper;
};

extern "C" __global__ __aicore__ void kept_places(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 128);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    LocalTensor<float> t = buf.Get<float>();
    Places p;
    p.whole = buf.GetBufferAddr(t.GetBufferHandle());
    p.upper = buf.GetBufferAddr(t[64].GetBufferHandle());
    LocalTensor<float> a, b;
    a.SetAddr(MADE_UP p.whole);
    b.SetAddr(p.upper);
    DataCopy(a, xg, 128);
    PipeBarrier<PIPE_ALL>();
    Muls(b, b, 3.0f, 64);            // the upper half, through the second view
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 128);            // read back through the TBuf's own tensor
}
'''


def _run(made_up: bool):
    b = build({"kept_places.cpp": KERNEL.replace("MADE_UP p.whole", "TBuffAddr{}" if made_up else "p.whole")})
    assert b.ok, b.log[-2000:]
    x = np.arange(128, dtype=np.float32) - 50
    return x, run(b, [GM("x", x), GM("y", np.empty(128, np.float32), "out")], block_dim=1)


def test_views_set_from_kept_places_use_the_buffers_bytes():
    x, r = _run(False)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"], np.concatenate([x[:64], 3 * x[64:]]))


def test_the_matmul_librarys_align_helpers():
    b = build({"align.cpp": '#include "kernel_operator.h"\n#include "lib/matmul_intf.h"\nusing namespace AscendC;\n'
                            'static_assert(Align(13u, 8u) == 16u && Align(16, 8) == 16 && Align(5, 0) == 0, "up");\n'
                            'static_assert(AlignDown(13u, 8u) == 8u && AlignDown(7, 0) == 0, "down");\n'
                            'extern "C" __global__ __aicore__ void align_k(GM_ADDR x) { (void)x; }\n'})
    assert b.ok, b.log[-2000:]


def test_a_made_up_place_stops_the_run_at_set_addr():
    _, r = _run(True)
    assert not r.ok and any("SetAddr" in d.message for d in r.errors), "\n".join(map(str, r.diagnostics))
