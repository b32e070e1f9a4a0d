"""The pattern reductions of adv_api/reduce/reduce.h (ReduceSum / ReduceMean / ReduceMax / ReduceMin / ReduceProd /
ReduceAny / ReduceAll with Pattern::Reduce::AR and RA) against NumPy, with the A2 rules: AR / RA only, each API's
element types, srcInnerPad true, source and destination sizes, the sharedTmpBuffer minimum of the host's
GetReduce<Op>MaxMinTmpSize; and the host sizes themselves."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

KERNEL = """#include "kernel_operator.h"
#include "adv_api/reduce/reduce.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void red(GM_ADDR x, GM_ADDR y)
{{
    using T = {T};
    constexpr uint32_t FIRST = {first}, LAST = {last}, PAD = {pad}, OUT = {out};
    TPipe pipe;
    TBuf<TPosition::VECCALC> ibuf, obuf, tbuf;
    pipe.InitBuffer(ibuf, FIRST * PAD * sizeof(T));
    pipe.InitBuffer(obuf, {k} * OUT * sizeof(T));
    pipe.InitBuffer(tbuf, {tmp});
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, FIRST * PAD);
    yGm.SetGlobalBuffer((__gm__ T *)y, {k} * OUT);
    LocalTensor<T> a = ibuf.Get<T>(), out = obuf.Get<T>();
    LocalTensor<uint8_t> tmp = tbuf.Get<uint8_t>();
    DataCopy(a, xGm, FIRST * PAD);
    uint32_t shape[] = {{FIRST, LAST}};
{calls}
    DataCopy(yGm, out, {k} * OUT);
}}
"""


def kernel(T, es, first, last, calls, ra, tmp=65536):
    pad = -(-last * es // 32) * 32 // es
    out = last if ra else first
    out = -(-out * es // 32) * 32 // es          # each result row 32-byte aligned for the DataCopy out
    body = "\n".join(f"    {{ LocalTensor<T> d = out[{i} * OUT]; {c}; }}" for i, c in enumerate(calls))
    return KERNEL.format(T=T, first=first, last=last, pad=pad, out=out, k=len(calls), calls=body, tmp=tmp), pad, out


NP = {"ReduceSum": np.sum, "ReduceMean": np.mean, "ReduceMax": np.max, "ReduceMin": np.min, "ReduceProd": np.prod,
      "ReduceAny": np.max, "ReduceAll": np.min}
FLOAT_APIS = list(NP)


def _run(T, dtype, first, last, apis, ra, x, with_tmp=True, tmp=65536):
    es = np.dtype(dtype).itemsize
    pat = "RA" if ra else "AR"
    calls = [f"{api}<T, Pattern::Reduce::{pat}>(d, a, {'tmp, ' if with_tmp else ''}shape, true)" for api in apis]
    src, pad, out = kernel(T, es, first, last, calls, ra, tmp)
    b = build({"k.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    padded = np.zeros((first, pad), dtype)
    padded[:, :last] = x
    r = run(b, [GM("x", padded.reshape(-1)), GM("y", np.zeros(len(apis) * out, dtype), "out")], block_dim=1)
    return r, (r.outputs["y"].reshape(len(apis), out)[:, :(last if ra else first)] if r.ok else None)


@pytest.mark.parametrize("ra", [False, True], ids=["AR", "RA"])
@pytest.mark.parametrize("first,last", [(8, 100), (5, 64), (3, 7)])
def test_float_reductions_match_numpy(ra, first, last):
    rng = np.random.default_rng(first * last)
    x = rng.uniform(0.5, 1.5, (first, last)).astype(np.float32)
    r, got = _run("float", np.float32, first, last, FLOAT_APIS, ra, x, with_tmp=(first != 5))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    for i, api in enumerate(FLOAT_APIS):
        want = NP[api](x.astype(np.float64), axis=0 if ra else 1)
        np.testing.assert_allclose(got[i], want, rtol=2e-6, err_msg=api)


@pytest.mark.parametrize("ra", [False, True], ids=["AR", "RA"])
def test_half_max_min_mean(ra):
    x = np.linspace(-4, 4, 16 * 40).reshape(16, 40).astype(np.float16)
    r, got = _run("half", np.float16, 16, 40, ["ReduceMax", "ReduceMin", "ReduceMean"], ra, x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    ax = 0 if ra else 1
    np.testing.assert_array_equal(got[0], x.max(axis=ax))
    np.testing.assert_array_equal(got[1], x.min(axis=ax))
    np.testing.assert_allclose(got[2].astype(np.float64), x.astype(np.float64).mean(axis=ax), atol=2e-3)


@pytest.mark.parametrize("ra", [False, True], ids=["AR", "RA"])
def test_uint8_any_all(ra):
    x = np.zeros((6, 40), np.uint8)
    x[1, 3] = x[4, :] = 1
    x[:, 7] = 1
    r, got = _run("uint8_t", np.uint8, 6, 40, ["ReduceAny", "ReduceAll"], ra, x)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    ax = 0 if ra else 1
    np.testing.assert_array_equal(got[0], x.any(axis=ax).astype(np.uint8))
    np.testing.assert_array_equal(got[1], x.all(axis=ax).astype(np.uint8))


@pytest.mark.parametrize("call,msg", [
    ("ReduceSum<half, Pattern::Reduce::AR>(d, a, tmp, shape, true)", "ReduceSum on Ascend 910B (A2) supports float only"),
    ("ReduceMax<int32_t, Pattern::Reduce::AR>(d, a, tmp, shape, true)", "ReduceMax on Ascend 910B (A2) supports half and float only"),
    ("ReduceMax<float, Pattern::Reduce::ARA>(d, a, tmp, shape, true)", "ReduceMax on Ascend 910B (A2) supports the AR and RA patterns only"),
])
def test_a2_rules_at_compile_time(call, msg):
    T = "int32_t" if "int32_t" in call else ("half" if "<half" in call else "float")
    src, _, _ = kernel(T, 4, 4, 16, [call.replace("<half,", "<T,").replace("<int32_t,", "<T,").replace("<float,", "<T,")], False)
    b = build({"k.cpp": src})
    assert not b.ok and msg in b.errors[0].message, [d.message for d in b.errors]


def test_run_time_rules():
    x = np.ones((8, 128), np.float32)
    src, pad, out = kernel("float", 4, 8, 128, ["ReduceSum<T, Pattern::Reduce::AR>(d, a, tmp, shape, false)"], False)
    r = run(build({"k.cpp": src}), [GM("x", x.reshape(-1)), GM("y", np.zeros(out, np.float32), "out")], block_dim=1)
    assert [d.kind for d in r.errors] == ["adv-shape"] and "srcInnerPad must be true" in r.errors[0].message
    # the host's minimum for ReduceSum AR {8, 128} float is 8 * 64 * 4 = 2048 bytes: 1024 is too small
    r, _ = _run("float", np.float32, 8, 128, ["ReduceSum"], False, x, tmp=1024)
    assert [d.kind for d in r.errors] == ["adv-tmp-space"] and "2048 bytes" in r.errors[0].message
    r, got = _run("float", np.float32, 8, 128, ["ReduceSum"], False, x, tmp=2048)
    assert r.ok and np.array_equal(got[0], np.full(8, 128, np.float32))
    src, pad, out = kernel("float", 4, 8, 128, ["ReduceMax<T, Pattern::Reduce::RA>(d, a, tmp, shape, true)"], True)
    src = src.replace("d = out[0 * OUT]", "d = out[0 * OUT][120]")      # 128 results do not fit in the last 8
    r = run(build({"k.cpp": src}), [GM("x", x.reshape(-1)), GM("y", np.zeros(out, np.float32), "out")], block_dim=1)
    assert [d.kind for d in r.errors] == ["adv-size"] and "dstTensor holds 8 elements" in r.errors[0].message


HOST = r'''#include "lib/reduce/reduce_tiling.h"
#include "tiling/tiling_api.h"
#include <cstdio>
#define SHOW(API, F, L, DT, PAT, PAD, REUSE) { uint32_t mx = 7, mn = 7; \
    AscendC::Get##API##MaxMinTmpSize(ge::Shape({F, L}), ge::DT, AscendC::ReducePattern::PAT, PAD, REUSE, mx, mn); \
    std::printf("%u %u\n", mx, mn); }
int main() {
    SHOW(ReduceSum, 8, 128, DT_FLOAT, AR, true, false)
    SHOW(ReduceSum, 8, 64, DT_FLOAT, AR, true, false)
    SHOW(ReduceSum, 8, 100, DT_FLOAT, RA, true, false)
    SHOW(ReduceMax, 8, 100, DT_FLOAT16, RA, true, false)
    SHOW(ReduceMax, 4, 100, DT_FLOAT16, AR, true, false)
    SHOW(ReduceMin, 4, 16, DT_FLOAT16, AR, true, false)
    SHOW(ReduceMin, 4, 300, DT_FLOAT16, AR, true, false)
    SHOW(ReduceProd, 4, 100, DT_FLOAT, AR, true, false)
    SHOW(ReduceAny, 6, 40, DT_UINT8, AR, true, true)
    SHOW(ReduceSum, 8, 128, DT_FLOAT, AR, true, true)
    SHOW(ReduceSum, 8, 128, DT_FLOAT16, AR, true, false)
    SHOW(ReduceMean, 8, 128, DT_FLOAT, AR, false, false)
}
'''


def test_host_tmp_sizes(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    got = [tuple(map(int, line.split())) for line in out.stdout.splitlines()]
    want = [8 * 64 * 4,                  # AR: half of the power-of-two split of last, per row, in float
            0,                           # AR of at most 64 floats a row: none
            4 * 104 * 4,                 # RA: half of the split of first (8 -> 4) rows of last padded to 8 floats
            4 * 224,                     # RA half: 4 rows of 200 bytes padded to 224
            4 * 32,                      # AR half, a row longer than a block, shorter than a repeat: a block per row
            0,                           # AR half, a row within one 32-byte block
            4 * 256,                     # AR half, a row of a repeat (128 halves) or more: a repeat per row
            (64 + 4 * 8) * 4 + 256,      # ReduceProd AR
            64 * 2 + 6 * 32]             # ReduceAny uint8 AR (isReuseSource does not matter)
    assert got[:9] == [(w, w) for w in want]
    assert got[9] == (0, 0)              # isReuseSource: the source is the scratch space
    assert got[10] == (7, 7) and got[11] == (7, 7)      # half ReduceSum, isSrcInnerPad false: errors, sizes untouched
    assert "only supports float type" in out.stderr and "isSrcInnerPad must be true" in out.stderr
