"""The device compiler's raw mask-register intrinsics (set_mask_count / set_mask_norm / set_vector_mask), which
kernels ported from the devkit's implementations call (NPUKernelBench BatchNormV3, cann-ops dynamic_rnn), act as
SetMaskCount / SetMaskNorm / SetVectorMask."""
import numpy as np

from ascendcraft.emu import GM, build, run

MASKS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void masks(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256 * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256);
    yg.SetGlobalBuffer((__gm__ float *)y, 512);
    LocalTensor<float> a = buf.Get<float>(), c = a[256], n = a[512];
    DataCopy(a, xg, 256);
    Duplicate(c, 0.0f, 256);
    Duplicate(n, 0.0f, 256);
    PipeBarrier<PIPE_ALL>();
    set_mask_count();
    set_vector_mask(0, 100);                                              // counter mode: 100 elements
    Adds<float, false>(c, a, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
    set_mask_norm();
    set_vector_mask(0, 0xF0ull);                                          // normal mode: lanes 4..7 of each repeat
    Adds<float, false>(n, a, 1.0f, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, c, 256);
    DataCopy(yg[256], n, 256);
}
'''


def test_raw_mask_intrinsics_drive_the_mask_register(tmp_path):
    src = tmp_path / "masks.cpp"
    src.write_text(MASKS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(256, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(512, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y = r.outputs["y"]
    want = np.zeros(256, np.float32)
    want[:100] = x[:100] + 1
    np.testing.assert_array_equal(y[:256], want)
    want2 = np.zeros(256, np.float32)
    for rep in range(2):
        want2[64 * rep + 4:64 * rep + 8] = x[64 * rep + 4:64 * rep + 8] + 1
    np.testing.assert_array_equal(y[256:], want2)
