"""Cast between half and int4b_t in its mask / repeat forms (level 0), and the raw intrinsics behind them:
vconv_s42f16 (int4b_t -> half) and vconv_f162s4[r|f|c|a|z] (half -> int4b_t), under the current mask register.
A repeat is sized by the wider type (128 lanes: 256 bytes of half, 64 bytes of int4b_t); the strides count 32-byte
blocks for both operands, so the int4b_t operand's lanes fill its blocks 64 to a block, two per byte (the even one in
the low half). The counter-mode form is the one cann-ops weight_quant_batch_matmul_v2 uses (`set_mask_count();
set_vector_mask(0, n); vconv_s42f16(dst, src, 1, 1, 1, 8, 2)`). Every result is checked against a NumPy model of
those semantics; a mask that splits a byte is an error at its line."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
// q [256] bytes (512 int4b_t) -> y [512] half, the first n through the raw intrinsic in counter mode (repeat 1 is
// ignored there); y is -100 elsewhere
extern "C" __global__ __aicore__ void s42f16_count(GM_ADDR q, GM_ADDR y, int32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    constexpr uint32_t N = 512;
    GlobalTensor<uint8_t> qGm;
    GlobalTensor<half> yGm;
    qGm.SetGlobalBuffer((__gm__ uint8_t *)q, N / 2);
    yGm.SetGlobalBuffer((__gm__ half *)y, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bq, by;
    pipe.InitBuffer(bq, N / 2);
    pipe.InitBuffer(by, N * 2);
    LocalTensor<uint8_t> ql = bq.Get<uint8_t>();
    LocalTensor<half> yl = by.Get<half>();
    DataCopy(ql, qGm, N / 2);
    Duplicate(yl, (half)-100.0, N);
    PipeBarrier<PIPE_ALL>();
    set_mask_count();
    set_vector_mask(0, n);
    vconv_s42f16((__ubuf__ half *)yl.GetPhyAddr(), (__ubuf__ int4b_t *)ql.GetPhyAddr(), 1, 1, 1, 8, 2);
    set_mask_norm();
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, N);
}
// level-0 Cast int4b_t -> half, 2 repeats of mask 128 with strides: dst blocks 2 apart, repeats 16 apart; src blocks
// 3 apart, repeats 5 apart. q [512] bytes, y [1024] half (-100 where nothing is written)
extern "C" __global__ __aicore__ void s42f16_strided(GM_ADDR q, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<uint8_t> qGm;
    GlobalTensor<half> yGm;
    qGm.SetGlobalBuffer((__gm__ uint8_t *)q, 512);
    yGm.SetGlobalBuffer((__gm__ half *)y, 1024);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bq, by;
    pipe.InitBuffer(bq, 512);
    pipe.InitBuffer(by, 2048);
    LocalTensor<uint8_t> ql = bq.Get<uint8_t>();
    LocalTensor<half> yl = by.Get<half>();
    DataCopy(ql, qGm, 512);
    Duplicate(yl, (half)-100.0, 1024);
    PipeBarrier<PIPE_ALL>();
    Cast(yl, ql.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 128, 2, {2, 3, 16, 5});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 1024);
}
// raw half -> int4b_t with CAST_FLOOR (vconv_f162s4f) under a bit mask set on the mask register, 2 repeats, dst repeats
// 2 blocks apart and src 8 (the contiguous form); q starts as `init`, so the lanes the mask leaves off keep it
extern "C" __global__ __aicore__ void f162s4_bits(GM_ADDR x, GM_ADDR init, GM_ADDR q)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<half> xGm;
    GlobalTensor<uint8_t> iGm, qGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 256);
    iGm.SetGlobalBuffer((__gm__ uint8_t *)init, 128);
    qGm.SetGlobalBuffer((__gm__ uint8_t *)q, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bq;
    pipe.InitBuffer(bx, 512);
    pipe.InitBuffer(bq, 128);
    LocalTensor<half> xl = bx.Get<half>();
    LocalTensor<uint8_t> ql = bq.Get<uint8_t>();
    DataCopy(xl, xGm, 256);
    DataCopy(ql, iGm, 128);
    PipeBarrier<PIPE_ALL>();
    set_vector_mask(0xF0F03333CCCC0FF0ull, 0x0F3CC3F033CCFF00ull);
    vconv_f162s4f((__ubuf__ int4b_t *)ql.GetPhyAddr(), (__ubuf__ half *)xl.GetPhyAddr(), 2, 1, 1, 2, 8);
    set_vector_mask(~0ull, ~0ull);
    PipeBarrier<PIPE_ALL>();
    DataCopy(qGm, ql, 128);
}
// a continuous mask of 7 lanes: the 7th int4b_t shares its byte with an 8th the mask leaves off
extern "C" __global__ __aicore__ void s42f16_odd_mask(GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bq, by;
    pipe.InitBuffer(bq, 64);
    pipe.InitBuffer(by, 256);
    LocalTensor<uint16_t> ql = bq.Get<uint16_t>();
    Duplicate(ql, (uint16_t)0x2121, 32);
    PipeBarrier<PIPE_V>();
    Cast(by.Get<half>(), ql.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 7, 1, {1, 1, 8, 2});
}
'''
LINE_ODD = next(i for i, t in enumerate(KERNEL.split("\n"), 1) if "CAST_NONE, 7, 1" in t)


def nibbles(q: np.ndarray) -> np.ndarray:
    "The int4b_t values of bytes `q`, two a byte, the even element from the low half (signed 4-bit)."
    q = q.view(np.uint8).astype(np.int64)
    v = np.empty(2 * q.size, np.int64)
    v[0::2], v[1::2] = q & 0xF, q >> 4
    return np.where(v >= 8, v - 16, v)


def lanes(repeats: int, lo: int, hi: int):
    "The (repeat, lane) pairs a level-0 instruction computes under mask bits lo (lanes 0-63) and hi (64-127)."
    return [(r, l) for r in range(repeats) for l in range(128) if ((hi if l >= 64 else lo) >> (l % 64)) & 1]


def half_at(r, l, blk, rep):   # element index of a half operand's lane: 16 halves a 32-byte block
    return (r * rep + (l // 16) * blk) * 16 + l % 16


def int4_at(r, l, blk, rep):   # (byte, shift) of an int4b_t operand's lane: 64 lanes a 32-byte block, 2 a byte
    return (r * rep + (l // 64) * blk) * 32 + (l // 2) % 32, 4 * (l % 2)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    src = tmp_path_factory.mktemp("vconv_s4") / "vconv_s4.cpp"
    src.write_text(KERNEL)
    return {e: build(src, entry=e) for e in ("s42f16_count", "s42f16_strided", "f162s4_bits", "s42f16_odd_mask")}


@pytest.mark.parametrize("n", [512, 300, 128, 2])
def test_raw_s42f16_counter_mode(built, n):
    b = built["s42f16_count"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    q = np.random.default_rng(n).integers(0, 256, 256).astype(np.uint8)
    r = run(b, [GM("q", q), GM("y", np.empty(512, np.float16), "out"), n], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = np.full(512, -100, np.float16)
    want[:n] = nibbles(q)[:n]
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_level0_strides(built):
    b = built["s42f16_strided"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    q = np.random.default_rng(7).integers(0, 256, 512).astype(np.uint8)
    r = run(b, [GM("q", q), GM("y", np.empty(1024, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = np.full(1024, -100, np.float16)
    for rr, l in lanes(2, 2**64 - 1, 2**64 - 1):
        byte, shift = int4_at(rr, l, 3, 5)
        v = (int(q[byte]) >> shift) & 0xF
        want[half_at(rr, l, 2, 16)] = v - 16 if v >= 8 else v
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_raw_f162s4_bit_mask(built):
    b = built["f162s4_bits"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(8)
    x = rng.uniform(-11, 11, 256).astype(np.float16)
    init = rng.integers(0, 256, 128).astype(np.uint8)
    r = run(b, [GM("x", x), GM("init", init), GM("q", np.empty(128, np.uint8), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    want = init.astype(np.int64)
    on = lanes(2, 0x0F3CC3F033CCFF00, 0xF0F03333CCCC0FF0)
    for rr, l in on:
        byte, shift = int4_at(rr, l, 1, 2)
        v = int(np.clip(np.floor(np.float64(x[half_at(rr, l, 1, 8)])), -8, 7)) & 0xF
        want[byte] = (want[byte] & ~(0xF << shift)) | (v << shift)
    assert 0 < len(on) < 256
    np.testing.assert_array_equal(r.outputs["q"], want.astype(np.uint8))


def test_mask_splitting_a_byte_is_an_error(built):
    b = built["s42f16_odd_mask"]
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.zeros(1, np.float16))], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == "vector-mask" and "int4b_t" in errs[0].message and errs[0].line == LINE_ODD, errs
