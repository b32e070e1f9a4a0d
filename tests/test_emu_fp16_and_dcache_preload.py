"""Two things public kernels use that the emulator lacked (round 40, newsrc):

- `__fp16`, the clang spelling of the device's half (bisheng is a clang: `__fp16` is a storage-only half on every
  target, the same built-in type as its `half`). A model port keeps a scale in one and hands it to Muls on half
  tensors; g++ on x86 had no such name, so the kernel did not compile.
- `DataCachePreload(GlobalTensor<uint64_t>, offset)`, a data-cache hint A2 has (int16_t / int64_t offsets): no byte
  changes; another offset type compiles (the official template takes any) and stops with `unsupported` when it runs.
"""
import numpy as np

from ascendcraft.emu import GM, build, run

FP16_KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

class HalveAndShift {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, 64);
        yGm.SetGlobalBuffer((__gm__ half *)y, 64);
        pipe.InitBuffer(buf, 2 * 64 * sizeof(half));
        factor = 0.5;                 // a double literal into the storage type
        shift = factor * 3;           // arithmetic on __fp16 goes through float: 1.5
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> a = buf.Get<half>();
        LocalTensor<half> b = a[64];
        DataCopy(a, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Muls(b, a, factor, 64);
        Adds(b, b, (half)shift, 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, b, 64);
    }
private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    GlobalTensor<half> xGm, yGm;
    __fp16 factor;
    __fp16 shift;
};

extern "C" __global__ __aicore__ void halve_and_shift(GM_ADDR x, GM_ADDR y)
{
    HalveAndShift op;
    op.Init(x, y);
    op.Process();
}
'''


def test_fp16_scalar_scales_half_tensors(tmp_path):
    src = tmp_path / "halve_and_shift.cpp"
    src.write_text(FP16_KERNEL)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.linspace(-8, 8, 64).astype(np.float16)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float16), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    want = (x * np.float16(0.5)).astype(np.float16) + np.float16(1.5)
    assert (r.outputs["y"] == want).all(), r.outputs["y"]


PRELOAD_KERNEL = r'''#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sum_after_preload(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<uint64_t> lines;
    lines.SetGlobalBuffer((__gm__ uint64_t *)x, 16);
    DataCachePreload(lines, OFFSET);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 32);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    float acc = 0;
    for (int32_t i = 0; i < 32; i++) acc += xGm.GetValue(i);
    yGm.SetValue(0, acc);
}
'''


def _preload(tmp_path, offset):
    src = tmp_path / "sum_after_preload.cpp"
    src.write_text(PRELOAD_KERNEL.replace("OFFSET", offset))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(32, dtype=np.float32)
    return x, run(b, [GM("x", x), GM("y", np.zeros(8, np.float32), "out")], block_dim=1)


def test_data_cache_preload_changes_no_bytes(tmp_path):
    for offset in ("int64_t(0)", "(int16_t)64"):
        x, r = _preload(tmp_path, offset)
        assert r.ok, r.diagnostics
        assert r.outputs["y"][0] == x.sum(), r.outputs["y"]


def test_data_cache_preload_with_an_int32_offset_stops_where_it_runs(tmp_path):
    _, r = _preload(tmp_path, "(int32_t)0")
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "unsupported" and "int16_t or int64_t cacheOffset" in e[0].message, r.diagnostics
    assert "DataCachePreload(lines" in e[0].source_line
