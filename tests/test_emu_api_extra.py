"""The vector APIs added for ordinary A2 kernels, each checked against an independent NumPy model of
the documented behaviour: bitwise And/Or/Not, shifts (arithmetic, logical, roundEn), AddRelu/SubRelu,
FusedMulAdd, MulAddDst (same type and half -> float, 64 lanes per repeat), Brcb, Gatherb, the 16 x 16
Transpose, Sin/Cos/Floor/Ceil/Round/Trunc, and the values of ReduceMin, WholeReduceMin and
BlockReduceMax/Min. Also: their A2 dtype rules are compile errors (or run-time errors where AscendC's own headers
accept the call and check the type when it runs), their run-time rules diagnostics,
and each is a priced instruction in the trace."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, build, op_names, run, trace
from ascendcraft.soc import load_soc

GOOD = Path(__file__).parent / "emu_kernels" / "good"
RNG = np.random.default_rng(11)
N = 256


@pytest.fixture(scope="module")
def extra():
    xf, yf, zf = (RNG.standard_normal(N).astype(np.float32) * 3 for _ in range(3))
    xr = (RNG.standard_normal(N) * 10).astype(np.float32)
    xr[:6] = [3.5, -3.5, -3.4, 3.9, -3.9, -0.2]
    xr[70] = xr[200] = -99.0                       # ReduceMin: the first occurrence is index 70
    xh, yh = (RNG.standard_normal(N).astype(np.float16) for _ in range(2))
    xi = RNG.integers(-2000, 2000, N).astype(np.int16)
    xi[:4] = [17, -17, -32768, 32767]
    yi = RNG.integers(-2000, 2000, N).astype(np.int16)
    x32 = RNG.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    x32[:3] = [3, -3, -1]
    ins = dict(xf=xf, yf=yf, zf=zf, xr=xr, xh=xh, yh=yh, xi=xi, yi=yi, x32=x32)
    outs = [GM("of", np.empty(15 * N, np.float32), "out"), GM("oh", np.empty(6 * N, np.float16), "out"),
            GM("oi", np.empty(12 * N, np.int16), "out"), GM("o32", np.empty(4 * 64, np.int32), "out"),
            GM("red", np.empty(96, np.float32), "out"), GM("redh", np.empty(32, np.float16), "out")]
    r = run(build(GOOD / "api_extra.cpp"), [GM(k, v) for k, v in ins.items()] + outs, block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    o = r.outputs
    slots = dict(f=o["of"].reshape(15, N), h=o["oh"].reshape(6, N), i=o["oi"].reshape(12, N), w=o["o32"].reshape(4, 64))
    return ins, slots, o["red"], o["redh"], (ins, outs, o)


def lanes(n_per_repeat: int, on: int, total: int = N) -> np.ndarray:
    "True for the first `on` lanes of every repeat of `n_per_repeat` lanes."
    return np.arange(total) % n_per_repeat < on


# ---- bitwise and shifts ----------------------------------------------------------------------------
def test_and_or_not(extra):
    ins, s, *_ = extra
    xi, yi = ins["xi"], ins["yi"]
    np.testing.assert_array_equal(s["i"][0], xi & yi)
    np.testing.assert_array_equal(s["i"][1], np.where(lanes(128, 64), xi | yi, -7))   # bit mask: lanes 0..63
    np.testing.assert_array_equal(s["i"][2], ~xi)
    np.testing.assert_array_equal(s["i"][3].view(np.uint16), ~xi.view(np.uint16))


def test_shifts_arithmetic_logical_and_rounding(extra):
    ins, s, *_ = extra
    xi, w = ins["xi"], ins["x32"]
    np.testing.assert_array_equal(s["i"][5], (xi.astype(np.int32) << 3).astype(np.int16))   # high bits drop off
    np.testing.assert_array_equal(s["i"][6], xi >> 2)                                          # arithmetic: -17 >> 2 = -5
    rounded = (xi.astype(np.int32) >> 5) + ((xi.astype(np.int32) >> 4) & 1)                   # + the last bit shifted out
    np.testing.assert_array_equal(s["i"][7], rounded.astype(np.int16))
    assert s["i"][7][0] == 1                                                                   # the documented 17 >> 5 -> 1
    np.testing.assert_array_equal(s["i"][8].view(np.uint16), xi.view(np.uint16) >> 4)          # logical for unsigned
    np.testing.assert_array_equal(s["w"][0].view(np.uint32), w.view(np.uint32) << np.uint32(7))
    np.testing.assert_array_equal(s["w"][1], w >> 3)
    np.testing.assert_array_equal(s["w"][2], np.zeros(64, np.int32))                           # uint32 >> 32 = 0
    want = np.where(np.arange(64) < 32, (w >> 1) + (w & 1), -7)
    np.testing.assert_array_equal(s["w"][3], want)
    assert list(s["w"][3][:3]) == [2, -1, 0]                                                   # 3 -> 2, -3 -> -1, -1 -> 0


# ---- fused arithmetic --------------------------------------------------------------------------------
def test_add_relu_sub_relu(extra):
    ins, s, *_ = extra
    x, y = ins["xf"], ins["yf"]
    np.testing.assert_array_equal(s["f"][0], np.maximum(x + y, 0))
    np.testing.assert_array_equal(s["f"][1], np.where(lanes(64, 32), np.maximum(x - y, 0), -7))
    h = (ins["xh"].astype(np.float32) + ins["yh"].astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(s["h"][0], np.maximum(h, 0))
    np.testing.assert_array_equal(s["i"][4], np.maximum(ins["xi"] + ins["yi"], 0))


def test_fused_mul_add_and_mul_add_dst(extra):
    ins, s, *_ = extra
    x, y, z = ins["xf"], ins["yf"], ins["zf"]
    np.testing.assert_allclose(s["f"][2], x * z + y, rtol=1e-6, atol=1e-6)           # FusedMulAdd: src0 * dst + src1
    np.testing.assert_allclose(s["f"][3], x * y + z, rtol=1e-6, atol=1e-6)           # MulAddDst: src0 * src1 + dst
    hx, hy = ins["xh"].astype(np.float32), ins["yh"].astype(np.float32)
    np.testing.assert_allclose(s["f"][4], hx * hy + z, rtol=1e-6, atol=1e-6)         # half sources, float dst
    head = np.arange(N) < 128                                                        # 2 repeats of 64 lanes
    np.testing.assert_allclose(s["f"][5], np.where(head, hx * hy + z, z), rtol=1e-6, atol=1e-6)
    fma_h = (hy * hx + hx).astype(np.float16)
    np.testing.assert_allclose(s["h"][1].astype(np.float32), np.where(lanes(128, 64), fma_h, ins["xh"]), rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(s["h"][2].astype(np.float32), hy * hy + hx, rtol=1e-3, atol=1e-3)


# ---- data movement -------------------------------------------------------------------------------------
def test_brcb_fills_one_block_per_element(extra):
    ins, s, *_ = extra
    x, xi = ins["xf"], ins["xi"]
    np.testing.assert_array_equal(s["f"][12], np.repeat(x[:32], 8))
    blocks = s["f"][13].reshape(32, 8)
    np.testing.assert_array_equal(blocks[0:16:2], np.repeat(x[:8], 8).reshape(8, 8))   # block stride 2
    assert (blocks[1:16:2] == -7).all() and (blocks[16:] == -7).all()
    np.testing.assert_array_equal(s["i"][10], np.repeat(xi[:16], 16))


def test_gatherb_copies_whole_blocks(extra):
    ins, s, *_ = extra
    xb = ins["xf"].view(np.uint32).reshape(32, 8)
    np.testing.assert_array_equal(s["f"][14].view(np.uint32).reshape(32, 8), xb[::-1])
    ib = ins["xi"].view(np.uint16).reshape(16, 16)
    np.testing.assert_array_equal(s["i"][11].view(np.uint16).reshape(16, 16), ib[[(k * 5) % 16 for k in range(16)]])


def test_transpose_16x16(extra):
    ins, s, *_ = extra
    np.testing.assert_array_equal(s["h"][3].reshape(16, 16), ins["xh"].reshape(16, 16).T)
    np.testing.assert_array_equal(s["i"][9].reshape(16, 16), ins["xi"].reshape(16, 16).T)   # in place


# ---- advanced math ---------------------------------------------------------------------------------------
def test_sin_cos(extra):
    ins, s, *_ = extra
    x = ins["xf"].astype(np.float64)
    np.testing.assert_allclose(s["f"][6], np.sin(x), atol=1e-6)
    np.testing.assert_allclose(s["f"][7], np.cos(x), atol=1e-6)
    np.testing.assert_allclose(s["h"][4].astype(np.float32), np.sin(ins["xh"].astype(np.float64)), atol=1e-3)


def test_floor_ceil_round_trunc(extra):
    ins, s, *_ = extra
    r = ins["xr"]
    np.testing.assert_array_equal(s["f"][8], np.floor(r))
    np.testing.assert_array_equal(s["f"][9], np.ceil(r))
    np.testing.assert_array_equal(s["f"][10], np.sign(r) * np.floor(np.abs(r) + 0.5))   # halves away from zero
    np.testing.assert_array_equal(s["f"][11], np.trunc(r))
    assert list(s["f"][10][:3]) == [4.0, -4.0, -3.0] and list(s["f"][11][3:5]) == [3.0, -3.0]   # the documented examples
    np.testing.assert_array_equal(s["h"][5], np.floor(ins["yh"]))


# ---- reductions: values, not just a clean run --------------------------------------------------------------
def test_reduce_min_value_and_first_index(extra):
    ins, _, red, redh, _ = extra
    r, xh = ins["xr"], ins["xh"]
    assert red[0] == -99.0 and red[1:2].view(np.uint32)[0] == 70
    assert red[8] == r.min()
    assert redh[0] == xh.min() and redh[1:2].view(np.uint16)[0] == int(np.argmin(xh))


def test_whole_reduce_min_per_repeat(extra):
    ins, _, red, *_ = extra
    rows = ins["xr"].reshape(4, 64)
    pairs = red[16:24].reshape(4, 2)
    np.testing.assert_array_equal(pairs[:, 0], rows.min(1))
    np.testing.assert_array_equal(pairs[:, 1].view(np.uint32), rows.argmin(1))
    np.testing.assert_array_equal(red[24:28], rows.min(1))                 # ORDER_ONLY_VALUE


def test_block_reduce_max_min_per_32_bytes(extra):
    ins, _, red, redh, _ = extra
    blocks = ins["xr"].reshape(32, 8)
    np.testing.assert_array_equal(red[32:64], blocks.max(1))
    masked = np.where(lanes(64, 60).reshape(32, 8), blocks, np.inf)         # mask 60: block 7 of each repeat has 4 lanes
    np.testing.assert_array_equal(red[64:96], masked.min(1))
    np.testing.assert_array_equal(redh[16:32], ins["xh"].reshape(16, 16).max(1))


def test_new_runtime_code_is_clean_under_asan_and_ubsan(extra):
    ins, outs, plain = extra[-1]
    b = build(GOOD / "api_extra.cpp", sanitize=True)
    assert b.ok and b.sanitize, b.diagnostics
    r = run(b, [GM(k, v) for k, v in ins.items()] + outs, block_dim=1)
    assert r.ok, (r.diagnostics, r.stderr[-2000:])
    for name, want in plain.items():
        np.testing.assert_array_equal(r.outputs[name], want, err_msg=name)


# ---- rules: dtypes at compile time, ranges and alignment at run time ----------------------------------------
KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR y) {{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> f = b.Get<float>();
    Duplicate(f, 1.0f, 1024);
    {body}
    DataCopy(yGm, f, 256);
}}
'''


@pytest.mark.parametrize("body,api,types", [
    ("And(f, f, f[256], 64, 1, {1, 1, 1, 8, 8, 8});", "And", "int16_t and uint16_t"),     # level 0: checked at compile time
    ("Not(f, f, 256);", "Not", "int16_t and uint16_t"),
    ("ShiftLeft(f, f, 1.0f, 256);", "ShiftLeft", "uint16_t, int16_t, uint32_t and int32_t"),
    ("LocalTensor<int32_t> i = f.ReinterpretCast<int32_t>(); AddRelu(i, i, i[256], 256);", "AddRelu", "half, int16_t and float"),
    ("Floor(f.ReinterpretCast<int32_t>(), f.ReinterpretCast<int32_t>(), 256);", "Floor", "half and float"),
    ("LocalTensor<int8_t> c = f.ReinterpretCast<int8_t>(); MulAddDst(c, c, c[256], 64);", "MulAddDst", "(float, half)"),
])
def test_a2_dtype_rules_are_compile_errors(tmp_path, body, api, types):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.format(body=body))
    b = build(src)
    assert not b.ok
    msgs = [d for d in b.diagnostics if d.is_error]
    assert any(f"{api} on Ascend 910B (A2) supports" in d.message and types in d.message for d in msgs), msgs
    assert any(d.line == 11 and "Cast first" in d.hint for d in msgs), msgs     # at the kernel's own line, with the dtype hint


@pytest.mark.parametrize("body,kind,words", [
    ("LocalTensor<int16_t> i = f.ReinterpretCast<int16_t>(); ShiftRight(i, i, (int16_t)17, 256);", "shift-range", "0..16"),
    ("LocalTensor<uint32_t> u = f.ReinterpretCast<uint32_t>(); SetFlag<HardEvent::V_S>(EVENT_ID0);"
     " WaitFlag<HardEvent::V_S>(EVENT_ID0); u.SetValue(0, 40u);"   # the store waits for Duplicate's vector write
     " SetFlag<HardEvent::S_V>(EVENT_ID0); WaitFlag<HardEvent::S_V>(EVENT_ID0); Gatherb(u[256], u[512], u, 1, {1, 8});",
     "ub-misaligned", "offset[0] = 40"),
    ("LocalTensor<uint32_t> u = f.ReinterpretCast<uint32_t>(); Gatherb(u[256], u[512], u, 1, {1, 8});",
     "ub-out-of-range", "past the end of src0"),
    ("Brcb(f[960], f, 2, {1, 8});", "ub-out-of-range", "dst"),
    ("LocalTensor<half> h = f[2].ReinterpretCast<half>(); Transpose(h, h);", "ub-misaligned", "not 32-byte aligned"),
    # element types AscendC's headers accept and check only when the kernel runs (tests/test_api_parity.py has them all)
    ("And(f, f, f[256], 256);", "unsupported", "And is not supported for float on Ascend 910B (A2): it takes int16_t and uint16_t"),
    ("Gatherb(f, f, f.ReinterpretCast<uint32_t>(), 1, {1, 8});", "unsupported", "it takes uint16_t and uint32_t only"),
    ("Transpose(f, f);", "unsupported", "Transpose is not supported for float"),
    ("LocalTensor<half> h = f.ReinterpretCast<half>(); MulAddDst(h, f, f[256], 64);", "unsupported",
     "(dst, src) = (half, half), (float, float) and (float, half)"),
])
def test_run_time_rules(tmp_path, body, kind, words):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.format(body=body))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("y", np.empty(256, np.float32), "out")], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert errs and errs[0].kind == kind and words in errs[0].message and errs[0].line == 11, errs


# ---- trace: every new API is an instruction the SoC profile prices ---------------------------------------------
NEW_APIS = ["And", "Or", "Not", "ShiftLeft", "ShiftRight", "AddRelu", "SubRelu", "MulAddDst", "FusedMulAdd", "Brcb",
            "Gatherb", "Transpose", "Sin", "Cos", "Floor", "Ceil", "Round", "Trunc"]


def test_new_apis_are_traced_and_priced():
    soc = load_soc("Ascend910B2")
    unpriced = [a for a in NEW_APIS if soc.vector_op_cycles(a) is None]
    assert not unpriced, f"no [vector_ops] entry in Ascend910B2.toml for {unpriced}"
    assert set(NEW_APIS) <= set(op_names())
    outs = [GM(n, a, "out") for n, a in [("of", np.empty(15 * N, np.float32)), ("oh", np.empty(6 * N, np.float16)),
                                         ("oi", np.empty(12 * N, np.int16)), ("o32", np.empty(4 * 64, np.int32)),
                                         ("red", np.empty(96, np.float32)), ("redh", np.empty(32, np.float16))]]
    ins = [GM(n, np.empty(k, d)) for n, k, d in [("xf", N, np.float32), ("yf", N, np.float32), ("zf", N, np.float32),
                                                 ("xr", N, np.float32), ("xh", N, np.float16), ("yh", N, np.float16),
                                                 ("xi", N, np.int16), ("yi", N, np.int16), ("x32", 64, np.int32)]]
    t = trace(build(GOOD / "api_extra.cpp"), ins + outs, block_dim=1)
    seen = {t.op_names[i] for i in np.unique(t.records["op"])}
    assert set(NEW_APIS) <= seen, set(NEW_APIS) - seen
    brcb = t.records[t.records["op"] == t.op_index("Brcb")]
    assert list(brcb["repeats"]) == [4, 1, 2] and list(brcb["elems"]) == [4 * 64, 64, 2 * 128]
    mad = t.records[t.records["op"] == t.op_index("MulAddDst")]
    assert list(mad["repeats"])[:3] == [4, 4, 2]      # float, half -> float (64 lanes a repeat), level 0


# ---- unknown names: a real API the emulation lacks, or a spelling slip -----------------------------------------
def test_hint_for_a_real_but_unemulated_api_and_for_a_typo(tmp_path):
    from ascendcraft.emu import UNEMULATED_APIS
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.format(body="Lgamma(f, f, f[256], 256); Addd(f, f, f[256], 256); AscendC::BatchNorm<float>(f, f);"))
    errs = {d.message.split("'")[1]: d for d in build(src).diagnostics if d.is_error and "'" in d.message}
    assert errs["Lgamma"].line == 11 and errs["Lgamma"].hint == (
        "Lgamma is an AscendC API, but the CPU emulation does not provide it; " + UNEMULATED_APIS["Lgamma"])
    assert "is not a member of 'AscendC'" in errs["BatchNorm"].message and "ReduceSum" in errs["BatchNorm"].hint
    assert errs["Addd"].hint == "declare it, or check the spelling of the AscendC API"


def test_every_listed_unemulated_api_is_really_missing(tmp_path):
    "Each name in UNEMULATED_APIS is undeclared in the headers (an API that becomes emulated must leave the list)."
    from ascendcraft.emu import UNEMULATED_APIS
    assert not set(UNEMULATED_APIS) & set(op_names())
    names, hinted = list(UNEMULATED_APIS), set()
    for start in range(0, len(names), 25):                      # builds stop after 30 errors
        src = tmp_path / f"k{start}.cpp"
        src.write_text(KERNEL.format(body="\n".join(f"    AscendC::{n}(f);" for n in names[start:start + 25])))
        hinted |= {d.message.split("'")[1] for d in build(src).diagnostics
                   if d.is_error and "the CPU emulation does not provide it" in d.hint}
    assert hinted == set(UNEMULATED_APIS), set(UNEMULATED_APIS) - hinted
