"""The device compiler's raw compare, select and conversion intrinsics (raw_vector_compare.h) as hicann ops-math's
arg_max_with_value / arg_min_with_value write them: vcmpv_* into a bit mask, vcmpvs_* against a scalar, vcmp_* into the
compare-mask register, set_cmpmask, vsel in its three modes (the register's bits; a selMask tensor and the register's
scalar; the selMask's UB address in the register), vcmin / vcmax with an Order_t over rows loaded with
copy_gm_to_ubuf_align and a pad value from set_mov_pad_val, vreducev2 in counter mode with get_rsvd_cnt, and the
vconv_* forms with their rounding. Each checked against NumPy; kernels written here in the ops' style (fixed UB
addresses, LocalTensors made at them, raw pointers from GetPhyAddr())."""
import numpy as np

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(1337)
N = 256   # floats: 4 repeats of 64

# x, y [256] float. mx: max(x, y) through vcmpv_gt's bit mask and vsel mode 2 (the mask's UB address in the register,
# as the ops' RawCompareSelect writes it); bits: x >= 0.5 (vcmpvs_ge); lo: min(x, y) of the first 64 through vcmp_lt
# into the register and vsel mode 0; sc: x where x >= 0.5, else -1 (vsel mode 1: the bits as selMask tensor, the
# scalar the register's, set_cmpmask of a buffer holding it); eqb: x == x[0] on int32 bits (vcmpv_eq, int32_t).
CMP = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_cmp(GM_ADDR x, GM_ADDR y, GM_ADDR mx, GM_ADDR bits, GM_ADDR lo, GM_ADDR sc,
                                              GM_ADDR eqb) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    constexpr uint32_t MASK_AT = 4096, DESC_AT = 4608;
    __ubuf__ float* xu = reinterpret_cast<__ubuf__ float*>((uintptr_t)0);
    __ubuf__ float* yu = reinterpret_cast<__ubuf__ float*>((uintptr_t)1024);
    __ubuf__ float* mxu = reinterpret_cast<__ubuf__ float*>((uintptr_t)2048);
    __ubuf__ uint8_t* mask = reinterpret_cast<__ubuf__ uint8_t*>((uintptr_t)MASK_AT);
    __ubuf__ uint8_t* bitsu = reinterpret_cast<__ubuf__ uint8_t*>((uintptr_t)4352);
    __ubuf__ uint32_t* desc = reinterpret_cast<__ubuf__ uint32_t*>((uintptr_t)DESC_AT);
    __ubuf__ float* lou = reinterpret_cast<__ubuf__ float*>((uintptr_t)5120);
    __ubuf__ float* scu = reinterpret_cast<__ubuf__ float*>((uintptr_t)6144);
    __ubuf__ float* scalar = reinterpret_cast<__ubuf__ float*>((uintptr_t)7168);
    __ubuf__ uint8_t* eq = reinterpret_cast<__ubuf__ uint8_t*>((uintptr_t)7680);
    __ubuf__ int32_t* first = reinterpret_cast<__ubuf__ int32_t*>((uintptr_t)8192);
    copy_gm_to_ubuf(xu, (__gm__ float*)x, 0, 1, N_ * 4 / 32, 0, 0);
    copy_gm_to_ubuf(yu, (__gm__ float*)y, 0, 1, N_ * 4 / 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    vcmpv_gt(mask, xu, yu, N_ / 64, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 8);
    vector_dup(desc, (uint32_t)MASK_AT, 1, 1, 1, 8, 0);
    pipe_barrier(PIPE_V);
    set_cmpmask(desc);
    pipe_barrier(PIPE_V);
    set_vector_mask(0, N_);
    vsel(mxu, xu, yu, 1, 1, 1, 1, 8, 8, 8, static_cast<uint8_t>(SELMODE::VSEL_TENSOR_TENSOR_MODE));
    pipe_barrier(PIPE_V);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    vcmpvs_ge(bitsu, xu, 0.5f, N_ / 64, 1, 1, 8, 8);
    vcmp_lt(xu, yu, 1, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    vsel(lou, xu, yu, 1, 1, 1, 1, 8, 8, 8);
    set_mask_count();
    set_vector_mask(0, 64);
    vector_dup(scalar, -1.0f, 1, 1, 1, 8, 0);
    vector_dup(first, (int32_t)FIRST_BITS, 1, 1, 1, 8, 0);
    pipe_barrier(PIPE_V);
    set_cmpmask(scalar);
    pipe_barrier(PIPE_V);
    set_vector_mask(0, N_);
    vsel(scu, xu, bitsu, 1, 1, 1, 1, 8, 8, 8, static_cast<uint8_t>(SELMODE::VSEL_TENSOR_SCALAR_MODE));
    pipe_barrier(PIPE_V);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    vcmpv_eq(eq, reinterpret_cast<__ubuf__ int32_t*>(xu), first, 1, 1, 1, 0, 8, 8, 0);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)mx, mxu, 0, 1, N_ * 4 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ uint8_t*)bits, bitsu, 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)lo, lou, 0, 1, 8, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)sc, scu, 0, 1, N_ * 4 / 32, 0, 0);
    copy_ubuf_to_gm((__gm__ uint8_t*)eqb, eq, 0, 1, 1, 0, 0);
}
"""


def _cmp_source(first_bits: int) -> str:
    return CMP.replace("N_", str(N)).replace("FIRST_BITS", str(first_bits))


def test_raw_compares_and_the_three_select_modes_match_numpy():
    x = RNG.standard_normal(N).astype(np.float32)
    y = RNG.standard_normal(N).astype(np.float32)
    x[[5, 70, 200]] = x[0]   # equal bit patterns for the int32_t compare
    b = build({"k.cpp": _cmp_source(int(x[:1].view(np.int32)[0]))})
    assert b.ok, b.diagnostics
    r = run(b, [GM("x", x), GM("y", y), GM("mx", np.zeros(N, np.float32), "out"), GM("bits", np.zeros(32, np.uint8), "out"),
                GM("lo", np.zeros(64, np.float32), "out"), GM("sc", np.zeros(N, np.float32), "out"),
                GM("eqb", np.zeros(32, np.uint8), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["mx"], np.maximum(x, y))
    np.testing.assert_array_equal(r.outputs["bits"], np.packbits(x >= 0.5, bitorder="little"))
    np.testing.assert_array_equal(r.outputs["lo"], np.minimum(x[:64], y[:64]))
    np.testing.assert_array_equal(r.outputs["sc"], np.where(x >= 0.5, x, np.float32(-1)))
    np.testing.assert_array_equal(r.outputs["eqb"][:8], np.packbits(x[:64].view(np.int32) == x[:1].view(np.int32)[0],
                                                                    bitorder="little"))


# Rows of 13 floats (R = 4) loaded as the ops' LoadRows does: one burst a row, right-padded to 16 with the pad value
# set_mov_pad_val put in the register (+inf for the min, -inf for the max, so the pads never win). vcmin VALUE_INDEX
# (value, index bits pairs), then vreducev2 pattern 1 in counter mode keeps the values and get_rsvd_cnt counts them;
# vcmin ONLY_INDEX and vcmax ONLY_VALUE / ONLY_INDEX give the other columns.
ARG = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_arg(GM_ADDR x, GM_ADDR pairs, GM_ADDR mins, GM_ADDR cnt, GM_ADDR amin,
                                              GM_ADDR maxv, GM_ADDR amax) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    constexpr uint32_t R = 4, AXIS = 13, W = 16;
    LocalTensor<float> lowRows(TPosition::VECCALC, 0, R * W);
    LocalTensor<float> highRows(TPosition::VECCALC, 512, R * W);
    LocalTensor<float> red(TPosition::VECCALC, 1024, 64);
    LocalTensor<float> kept(TPosition::VECCALC, 1280, 64);
    LocalTensor<uint32_t> count(TPosition::VECCALC, 1536, 8);
    LocalTensor<float> idxMin(TPosition::VECCALC, 1792, 64);
    LocalTensor<float> valMax(TPosition::VECCALC, 2048, 64);
    LocalTensor<float> idxMax(TPosition::VECCALC, 2304, 64);
    __ubuf__ float* lowPtr = reinterpret_cast<__ubuf__ float*>(lowRows.GetPhyAddr());
    __ubuf__ float* highPtr = reinterpret_cast<__ubuf__ float*>(highRows.GetPhyAddr());
    set_mov_pad_val(0x7f800000u);   // +inf
    copy_gm_to_ubuf_align_b32(lowPtr, (__gm__ float*)x, 0, R, AXIS * sizeof(float), 0, W - AXIS, 0, 0);
    set_mov_pad_val(0xff800000u);   // -inf
    copy_gm_to_ubuf_align_b32(highPtr, (__gm__ float*)x, 0, R, AXIS * sizeof(float), 0, W - AXIS, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_mask_norm();
    set_vector_mask(0, 0xffffULL);
    vcmin(reinterpret_cast<__ubuf__ float*>(red.GetPhyAddr()), lowPtr, R, 1, 1, W / 8, Order_t::VALUE_INDEX);
    vcmin(reinterpret_cast<__ubuf__ float*>(idxMin.GetPhyAddr()), lowPtr, R, 1, 1, W / 8, Order_t::ONLY_INDEX);
    vcmax(reinterpret_cast<__ubuf__ float*>(valMax.GetPhyAddr()), highPtr, R, 1, 1, W / 8, Order_t::ONLY_VALUE);
    vcmax(reinterpret_cast<__ubuf__ float*>(idxMax.GetPhyAddr()), highPtr, R, 1, 1, W / 8, Order_t::ONLY_INDEX);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 2 * R);
    __ubuf__ uint32_t* s = reinterpret_cast<__ubuf__ uint32_t*>(red.GetPhyAddr());
    vreducev2(reinterpret_cast<__ubuf__ uint32_t*>(kept.GetPhyAddr()), s, s, 1, 1, 1, 8, 8);
    uint64_t rsvd = get_rsvd_cnt();
    pipe_barrier(PIPE_V);
    set_vector_mask(0, 8);
    vector_dup(reinterpret_cast<__ubuf__ uint32_t*>(count.GetPhyAddr()), (uint32_t)rsvd, 1, 1, 1, 8, 0);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)pairs, reinterpret_cast<__ubuf__ float*>(red.GetPhyAddr()), 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)mins, reinterpret_cast<__ubuf__ float*>(kept.GetPhyAddr()), 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)amin, reinterpret_cast<__ubuf__ float*>(idxMin.GetPhyAddr()), 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)maxv, reinterpret_cast<__ubuf__ float*>(valMax.GetPhyAddr()), 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ float*)amax, reinterpret_cast<__ubuf__ float*>(idxMax.GetPhyAddr()), 0, 1, 1, 0, 0);
    copy_ubuf_to_gm((__gm__ uint32_t*)cnt, reinterpret_cast<__ubuf__ uint32_t*>(count.GetPhyAddr()), 0, 1, 1, 0, 0);
}
"""


def test_raw_argmin_argmax_over_padded_rows_match_numpy():
    b = build({"k.cpp": ARG})
    assert b.ok, b.diagnostics
    # all values in [1, 2): a pad of 0 (the register ignored) would be every row's minimum, at index 13
    x = RNG.uniform(1, 2, (4, 13)).astype(np.float32)
    outs = {n: np.zeros(8, np.float32) for n in ("pairs", "mins", "amin", "maxv", "amax")}
    gm = [GM(n, v, "out") for n, v in outs.items()]
    r = run(b, [GM("x", x.ravel())] + gm[:2] + [GM("cnt", np.zeros(8, np.uint32), "out")] + gm[2:], block_dim=1)
    assert r.ok, r.diagnostics
    o = r.outputs
    pairs = o["pairs"].reshape(4, 2)
    np.testing.assert_array_equal(pairs[:, 0], x.min(axis=1))
    np.testing.assert_array_equal(pairs[:, 1].view(np.uint32), x.argmin(axis=1))
    np.testing.assert_array_equal(o["mins"][:4], x.min(axis=1))          # vreducev2 pattern 1 in counter mode: the values
    assert o["cnt"][0] == 4                                              # get_rsvd_cnt: 4 of the 8 kept
    np.testing.assert_array_equal(o["amin"][:4].view(np.uint32), x.argmin(axis=1))
    np.testing.assert_array_equal(o["maxv"][:4], x.max(axis=1))
    np.testing.assert_array_equal(o["amax"][:4].view(np.uint32), x.argmax(axis=1))


# The conversions of the ops' RawCast, 64 elements each in counter mode (dst / src repeat strides 8 / 4 widening, 4 / 8
# narrowing): int32 -> float; float -> int32 to nearest even and floor; half -> int32 to nearest even; float -> half,
# bfloat16 and int16 to nearest even; int16 -> float and half; bfloat16 -> float.
CONV = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_conv(GM_ADDR f, GM_ADDR i, GM_ADDR h, GM_ADDR s, GM_ADDR bf, GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __ubuf__ float* fu = reinterpret_cast<__ubuf__ float*>((uintptr_t)0);
    __ubuf__ int32_t* iu = reinterpret_cast<__ubuf__ int32_t*>((uintptr_t)256);
    __ubuf__ half* hu = reinterpret_cast<__ubuf__ half*>((uintptr_t)512);
    __ubuf__ int16_t* su = reinterpret_cast<__ubuf__ int16_t*>((uintptr_t)640);
    __ubuf__ bfloat16_t* bu = reinterpret_cast<__ubuf__ bfloat16_t*>((uintptr_t)768);
    __ubuf__ uint8_t* o = reinterpret_cast<__ubuf__ uint8_t*>((uintptr_t)1024);   // ten slots of 256 bytes
    copy_gm_to_ubuf(fu, (__gm__ float*)f, 0, 1, 8, 0, 0);
    copy_gm_to_ubuf(iu, (__gm__ int32_t*)i, 0, 1, 8, 0, 0);
    copy_gm_to_ubuf(hu, (__gm__ half*)h, 0, 1, 4, 0, 0);
    copy_gm_to_ubuf(su, (__gm__ int16_t*)s, 0, 1, 4, 0, 0);
    copy_gm_to_ubuf(bu, (__gm__ bfloat16_t*)bf, 0, 1, 4, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_mask_count();
    set_vector_mask(0, 64);
    vconv_s322f32((__ubuf__ float*)(o + 0 * 256), iu, 1, 1, 1, 8, 8);
    vconv_f322s32r((__ubuf__ int32_t*)(o + 1 * 256), fu, 1, 1, 1, 8, 8);
    vconv_f322s32f((__ubuf__ int32_t*)(o + 2 * 256), fu, 1, 1, 1, 8, 8);
    vconv_f162s32r((__ubuf__ int32_t*)(o + 3 * 256), hu, 1, 1, 1, 8, 4);
    vconv_f322f16r((__ubuf__ half*)(o + 4 * 256), fu, 1, 1, 1, 4, 8);
    vconv_f322bf16r((__ubuf__ bfloat16_t*)(o + 5 * 256), fu, 1, 1, 1, 4, 8);
    vconv_f322s16r((__ubuf__ int16_t*)(o + 6 * 256), fu, 1, 1, 1, 4, 8);
    vconv_s162f32((__ubuf__ float*)(o + 7 * 256), su, 1, 1, 1, 8, 4);
    vconv_s162f16((__ubuf__ half*)(o + 8 * 256), su, 1, 1, 1, 4, 8);
    vconv_bf162f32((__ubuf__ float*)(o + 9 * 256), bu, 1, 1, 1, 8, 4);
    pipe_barrier(PIPE_V);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ uint8_t*)out, o, 0, 1, 10 * 256 / 32, 0, 0);
}
"""


def _bf16_rne(v: np.ndarray) -> np.ndarray:
    u = v.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def test_raw_conversions_round_as_their_suffix_says():
    b = build({"k.cpp": CONV})
    assert b.ok, b.diagnostics
    f = np.concatenate([np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, -3.7], np.float32),
                        RNG.uniform(-300, 300, 56).astype(np.float32)])
    i = RNG.integers(-2**24, 2**24, 64).astype(np.int32)
    h = np.concatenate([np.array([0.5, 1.5, 2.5, -2.5], np.float16), RNG.uniform(-500, 500, 60).astype(np.float16)])
    s = RNG.integers(-2000, 2000, 64).astype(np.int16)
    bf = _bf16_rne(RNG.standard_normal(64).astype(np.float32) * 10)
    r = run(b, [GM("f", f), GM("i", i), GM("h", h), GM("s", s), GM("bf", bf), GM("out", np.zeros(640, np.uint32), "out")],
            block_dim=1)
    assert r.ok, r.diagnostics
    slot = [r.outputs["out"].view(np.uint8)[k * 256:(k + 1) * 256] for k in range(10)]
    np.testing.assert_array_equal(slot[0].view(np.float32), i.astype(np.float32))
    np.testing.assert_array_equal(slot[1].view(np.int32), np.rint(f).astype(np.int32))      # 0.5 -> 0, 2.5 -> 2
    np.testing.assert_array_equal(slot[2].view(np.int32), np.floor(f).astype(np.int32))
    np.testing.assert_array_equal(slot[3].view(np.int32), np.rint(h.astype(np.float32)).astype(np.int32))
    np.testing.assert_array_equal(slot[4][:128].view(np.float16), f.astype(np.float16))
    np.testing.assert_array_equal(slot[5][:128].view(np.uint16), _bf16_rne(f))
    np.testing.assert_array_equal(slot[6][:128].view(np.int16), np.rint(f).astype(np.int16))
    np.testing.assert_array_equal(slot[7].view(np.float32), s.astype(np.float32))
    np.testing.assert_array_equal(slot[8][:128].view(np.float16), s.astype(np.float16))
    np.testing.assert_array_equal(slot[9].view(np.float32), (bf.astype(np.uint32) << 16).view(np.float32))


def test_vsel_in_a_mode_that_does_not_exist_is_a_named_error():
    b = build({"k.cpp": _cmp_source(0).replace("static_cast<uint8_t>(SELMODE::VSEL_TENSOR_TENSOR_MODE)", "3")})
    assert b.ok, b.diagnostics
    z = np.zeros(N, np.float32)
    r = run(b, [GM("x", z), GM("y", z), GM("mx", z.copy(), "out"), GM("bits", np.zeros(32, np.uint8), "out"),
                GM("lo", np.zeros(64, np.float32), "out"), GM("sc", z.copy(), "out"),
                GM("eqb", np.zeros(32, np.uint8), "out")], block_dim=1)
    assert not r.ok
    d = next(d for d in r.diagnostics if d.is_error)
    assert "vsel" in d.message and "mode" in d.hint, d


# The ops' RawGather: vgather's source address is `static_cast<uint32_t>(src.GetPhyAddr())` plus a byte offset. On the
# NPU every UB address fits in 32 bits; here GetPhyAddr() is a host address, whose low 32 bits name the same place.
GATHER = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_gather(GM_ADDR x, GM_ADDR off, GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    LocalTensor<float> src(TPosition::VECCALC, 0, 128);
    LocalTensor<uint32_t> offsets(TPosition::VECCALC, 1024, 64);
    LocalTensor<float> dst(TPosition::VECCALC, 2048, 64);
    copy_gm_to_ubuf(reinterpret_cast<__ubuf__ float*>(src.GetPhyAddr()), (__gm__ float*)x, 0, 1, 16, 0, 0);
    copy_gm_to_ubuf(reinterpret_cast<__ubuf__ uint32_t*>(offsets.GetPhyAddr()), (__gm__ uint32_t*)off, 0, 1, 8, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    uint32_t srcAddr = static_cast<uint32_t>(reinterpret_cast<uint64_t>(src.GetPhyAddr())) + 64 * sizeof(float);
    set_mask_norm();
    set_vector_mask(0, ~0ULL);
    vgather(reinterpret_cast<__ubuf__ uint32_t*>(dst.GetPhyAddr()), reinterpret_cast<__ubuf__ uint32_t*>(offsets.GetPhyAddr()),
            srcAddr, 8, 1);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, reinterpret_cast<__ubuf__ float*>(dst.GetPhyAddr()), 0, 1, 8, 0, 0);
}
"""


def test_vgather_from_a_ub_address_kept_in_32_bits_matches_numpy():
    b = build({"k.cpp": GATHER})
    assert b.ok, b.diagnostics
    x = RNG.standard_normal(128).astype(np.float32)
    idx = RNG.permutation(64).astype(np.uint32)
    r = run(b, [GM("x", x), GM("off", idx * 4), GM("y", np.zeros(64, np.float32), "out")], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x[64:][idx])
