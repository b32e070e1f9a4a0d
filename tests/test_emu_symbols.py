"""LocalTensor's operator overloads (`z = x * g + b`, `mask = a >= b`: PreLayerNorm, AngleV2), the devkit's
implementation functions on raw pointers (DuplicateImpl / DataCopyUB2GMImpl / DataCopyPadGm2UBImpl: GeGluV2, DiagFlat,
ScatterElementsV2) and small helpers kernels reach for (AscendCUtils::SetMaskCount / ResetMask, GetScalarBitcodeValue,
ASSERT_MSG, kernel types named without AscendC::), checked against NumPy and with their misuses stopping at the
kernel line."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

SYMBOLS = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void symbols(GM_ADDR x, GM_ADDR g, GM_ADDR xi, GM_ADDR y, GM_ADDR m, GM_ADDR yi)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * 1024);
    GlobalTensor<float> xg, gg, yg; GlobalTensor<int32_t> xig, yig; GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    gg.SetGlobalBuffer((__gm__ float *)g, 64);
    xig.SetGlobalBuffer((__gm__ int32_t *)xi, 128);
    yg.SetGlobalBuffer((__gm__ float *)y, 384);
    mg.SetGlobalBuffer((__gm__ uint8_t *)m, 64);
    yig.SetGlobalBuffer((__gm__ int32_t *)yi, 128);
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all[0], b = all[64], t = all[128], z = all[192], q = all[256], s = all[320];
    a.SetSize(64); b.SetSize(64); t.SetSize(64); z.SetSize(64); q.SetSize(64); s.SetSize(64);
    LocalTensor<uint8_t> mask = all[384].ReinterpretCast<uint8_t>();
    mask.SetSize(32);
    LocalTensor<int32_t> i0 = all[512].ReinterpretCast<int32_t>(), i1 = all[576].ReinterpretCast<int32_t>(), i2 = all[640].ReinterpretCast<int32_t>();
    i0.SetSize(64); i1.SetSize(64); i2.SetSize(64);
    DataCopy(a, xg, 64);
    DataCopy(b, gg, 64);
    DataCopy(i0, xig, 64);
    DataCopy(i1, xig[64], 64);
    PipeBarrier<PIPE_ALL>();
    t = a * b;
    PipeBarrier<PIPE_V>();
    z = t + a;
    q = a - b;
    s = a / b;
    mask = a >= b;
    i2 = i0 & i1;
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, z, 64);
    DataCopy(yg[64], q, 64);
    DataCopy(yg[128], s, 64);
    DataCopy(mg, mask, 32);
    DataCopy(yig, i2, 64);
    i2 = i0 | i1;
    PipeBarrier<PIPE_ALL>();
    DataCopy(yig[64], i2, 64);
}
'''


@pytest.fixture(scope="module")
def symbols(tmp_path_factory):
    src = tmp_path_factory.mktemp("sym") / "symbols.cpp"
    src.write_text(SYMBOLS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def test_operators_run_the_apis_on_the_whole_tensor(symbols):
    rng = np.random.default_rng(5)
    x = rng.standard_normal(64).astype(np.float32)
    g = (rng.standard_normal(64) + 3).astype(np.float32)
    g[:8] = x[:8]                                    # equal elements: >= holds there
    xi = rng.integers(-2 ** 31, 2 ** 31, 128, dtype=np.int64).astype(np.int32)
    r = run(symbols, [GM("x", x), GM("g", g), GM("xi", xi), GM("y", np.zeros(384, np.float32), "out"),
                      GM("m", np.zeros(64, np.uint8), "out"), GM("yi", np.zeros(128, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y, m, yi = r.outputs["y"], r.outputs["m"], r.outputs["yi"]
    np.testing.assert_allclose(y[:64], x * g + x, rtol=1e-6)
    np.testing.assert_array_equal(y[64:128], x - g)
    np.testing.assert_allclose(y[128:192], x / g, rtol=1e-6)
    np.testing.assert_array_equal(np.unpackbits(m[:8], bitorder="little").astype(bool), x >= g)
    np.testing.assert_array_equal(yi[:64], xi[:64] & xi[64:])
    np.testing.assert_array_equal(yi[64:], xi[:64] | xi[64:])


def test_operator_on_a_short_source_stops_at_the_kernel_line(tmp_path):
    # the count is dst's size: a source view with fewer elements left in its buffer is read past its end
    src = tmp_path / "short_src.cpp"
    src.write_text(r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void short_src(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> big, small;
    pipe.InitBuffer(big, 1024);
    pipe.InitBuffer(small, 128);
    LocalTensor<float> d = big.Get<float>(), a = small.Get<float>();
    d.SetSize(64);
    Duplicate(a, 1.0f, 32);
    PipeBarrier<PIPE_V>();
    d = a * a;
}
""")
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", np.zeros(8, np.float32))], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "ub-out-of-range" and "short_src.cpp:13" in d.render(), d.render()


DEVKIT = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void devkit(GM_ADDR x, GM_ADDR y, GM_ADDR bits)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_VECTOR_CORE);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    GlobalTensor<int16_t> yg; yg.SetGlobalBuffer((__gm__ int16_t *)y, 512);
    GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float *)x, 40);
    GlobalTensor<uint32_t> bg; bg.SetGlobalBuffer((__gm__ uint32_t *)bits, 8);
    LocalTensor<int16_t> t = buf.Get<int16_t>();
    LocalTensor<float> f = buf.GetWithOffset<float>(64, 2048);
    AscendCUtils::SetMaskCount<int16_t>();
    AscendCUtils::SetMask<int16_t>(0, 200);
    AscendCUtils::SetMaskNorm<int16_t>();
    AscendCUtils::ResetMask();
    DuplicateImpl<int16_t>((__ubuf__ int16_t *)t.GetPhyAddr(), 7, 256);
    DuplicateImpl<int16_t>((__ubuf__ int16_t *)t.GetPhyAddr(256), -3, 128, 2, 1, 8);
    ASSERT_MSG(t.GetSize() >= 512, "size %u", t.GetSize());
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(e);
    WaitFlag<HardEvent::V_MTE3>(e);
    DataCopyUB2GMImpl((__gm__ int16_t *)yg.GetPhyAddr(), (__ubuf__ int16_t *)t.GetPhyAddr(), {1, 32, 0, 0});
    DataCopyExtParams ext{1, 40 * sizeof(float), 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, 0, 8, 0.0f};
    DataCopyPadGm2UBImpl((__ubuf__ float *)f.GetPhyAddr(), (__gm__ float *)xg.GetPhyAddr(), ext, pad);
    PipeBarrier<PIPE_ALL>();
    bg.SetValue(0, GetScalarBitcodeValue(f.GetValue(0)));
    bg.SetValue(1, GetScalarBitcodeValue(half(1.0f)));
    bg.SetValue(2, GetScalarBitcodeValue(f.GetValue(39)));
}
"""


def test_devkit_functions_on_raw_pointers(tmp_path):
    src = tmp_path / "devkit.cpp"
    src.write_text(DEVKIT)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.linspace(-2, 2, 40).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(512, np.int16), "out"), GM("bits", np.zeros(8, np.uint32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    y, bits = r.outputs["y"], r.outputs["bits"]
    np.testing.assert_array_equal(y[:256], 7)
    np.testing.assert_array_equal(y[256:512], -3)    # mask form: 2 repeats of 128 lanes
    assert bits[0] == x[:1].view(np.uint32)[0] and bits[2] == x[39:40].view(np.uint32)[0]
    assert bits[1] == np.array([1.0], np.float16).view(np.uint16)[0]


def test_raw_pointer_outside_the_ub_is_an_error(tmp_path):
    src = tmp_path / "raw_bad.cpp"
    src.write_text(r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_bad(GM_ADDR y)
{
    DuplicateImpl<int16_t>((__ubuf__ int16_t *)y, 0, 16);
}
""")
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.zeros(16, np.int16), "out")], block_dim=1)
    assert not r.ok
    d = r.diagnostics[0]
    assert d.kind == "ub-out-of-range" and "raw_bad.cpp:5" in d.render() and "DuplicateImpl" in d.render(), d.render()


def test_assert_msg_stops_with_its_message(tmp_path):
    src = tmp_path / "amsg.cpp"
    src.write_text(r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void amsg(GM_ADDR y)
{
    int32_t osize = 0;
    ASSERT_MSG(osize != 0, "Division by zero error! %d", osize);
}
""")
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.zeros(8, np.int16), "out")], block_dim=1)
    assert not r.ok
    text = r.diagnostics[0].render()
    assert "amsg.cpp:6" in text and "Division by zero error! 0" in text, text


def test_raw_max_min_register(tmp_path):
    # get_max_min_cnt: the last max/min reduction's value bits in the low half, its index in the high 32 bits
    src = tmp_path / "mmc.cpp"
    src.write_text(r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mmc(GM_ADDR x, GM_ADDR xh, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    GlobalTensor<float> xg; GlobalTensor<half> xhg; GlobalTensor<uint64_t> og;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    xhg.SetGlobalBuffer((__gm__ half *)xh, 128);
    og.SetGlobalBuffer((__gm__ uint64_t *)out, 4);
    LocalTensor<float> a = buf.GetWithOffset<float>(64, 0), d = buf.GetWithOffset<float>(64, 256), w = buf.GetWithOffset<float>(64, 512);
    LocalTensor<half> h = buf.GetWithOffset<half>(128, 1024), hd = buf.GetWithOffset<half>(64, 1536), hw = buf.GetWithOffset<half>(128, 2048);
    DataCopy(a, xg, 64);
    DataCopy(h, xhg, 128);
    PipeBarrier<PIPE_ALL>();
    ReduceMax(d, a, w, 64, true);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    og.SetValue(0, (uint64_t)get_max_min_cnt());
    ReduceMin(hd, h, hw, 128, true);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    og.SetValue(1, (uint64_t)get_max_min_cnt());
}
""")
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(9)
    x = rng.standard_normal(64).astype(np.float32)
    xh = rng.standard_normal(128).astype(np.float16)
    r = run(b, [GM("x", x), GM("xh", xh), GM("out", np.zeros(4, np.uint64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    o = r.outputs["out"]
    i = int(np.argmax(x))
    assert o[0] & 0xFFFFFFFF == x[i:i + 1].view(np.uint32)[0] and o[0] >> 32 == i
    j = int(np.argmin(xh))
    assert o[1] & 0xFFFF == xh[j:j + 1].view(np.uint16)[0] and o[1] >> 32 == j


INTRINSICS = r"""#include "kernel_operator.h"
using namespace AscendC;
// Row maxima and sums of ROWS rows of 64 floats, reduced twice in counter mode as hicann ops-transformer's MoE gating
// kernels do (BlockReduce*IntrinsicsImpl on raw pointers: 8 floats a block -> 1), and a padding Duplicate.
constexpr int32_t ROWS = 3, COLS = 64;
extern "C" __global__ __aicore__ void intrinsics(GM_ADDR x, GM_ADDR mx, GM_ADDR sm, GM_ADDR pad)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    GlobalTensor<float> xg, mg, sg, pg;
    xg.SetGlobalBuffer((__gm__ float *)x, ROWS * COLS);
    mg.SetGlobalBuffer((__gm__ float *)mx, 8);
    sg.SetGlobalBuffer((__gm__ float *)sm, 8);
    pg.SetGlobalBuffer((__gm__ float *)pad, 64);
    LocalTensor<float> src = buf.Get<float>();
    LocalTensor<float> tmp = src[256], mx8 = src[512], sm8 = src[576], p = src[640];
    DataCopy(src, xg, ROWS * COLS);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(mx8, 0.0f, 8);
    Duplicate(sm8, 0.0f, 8);
    PipeBarrier<PIPE_V>();
    AscendCUtils::SetMaskCount<float>();
    SetVectorMask<float, MaskMode::COUNTER>(0, ROWS * COLS);
    BlockReduceMaxIntrinsicsImpl((__ubuf__ float *)tmp.GetPhyAddr(), (__ubuf__ float *)src.GetPhyAddr(), 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, ROWS * 8);
    BlockReduceMaxIntrinsicsImpl((__ubuf__ float *)mx8.GetPhyAddr(), (__ubuf__ float *)tmp.GetPhyAddr(), 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, ROWS * COLS);
    BlockReduceSumIntrinsicsImpl((__ubuf__ float *)tmp.GetPhyAddr(), (__ubuf__ float *)src.GetPhyAddr(), 1, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float, MaskMode::COUNTER>(0, ROWS * 8);
    BlockReduceSumIntrinsicsImpl((__ubuf__ float *)sm8.GetPhyAddr(), (__ubuf__ float *)tmp.GetPhyAddr(), 1, 1, 1, 8);
    AscendCUtils::SetMaskNorm<float>();
    SetVectorMask<float, MaskMode::NORMAL>(0, 0xFFFF);                       // 16 lanes of each 64-float repeat
    DuplicateIntrinsicsImpl((__ubuf__ float *)p.GetPhyAddr(), -1.5f, 1, 1, 8);
    ResetMask();
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(mg, mx8, 8);
    DataCopy(sg, sm8, 8);
    DataCopy(pg, p, 16);
}
"""


def test_block_reduce_and_duplicate_intrinsics_on_raw_pointers(tmp_path):
    src = tmp_path / "intrinsics.cpp"
    src.write_text(INTRINSICS)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(5).standard_normal((3, 64)).astype(np.float32)
    r = run(b, [GM("x", x), GM("mx", np.zeros(8, np.float32), "out"), GM("sm", np.zeros(8, np.float32), "out"),
                GM("pad", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["mx"][:3], x.max(axis=1))
    np.testing.assert_allclose(r.outputs["sm"][:3], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(r.outputs["pad"][:16], -1.5)
