"""And / Or's count form on types other than int16_t / uint16_t. A2's API code (asc-devkit's dav_c220 binary impl,
read for behaviour) sets counter mode with `count` and runs the int16_t instruction on the reinterpreted addresses
whatever T is, so `count` int16_t lanes (2 * count bytes) are combined. The API reference documents this for int32_t /
uint32_t on A2 ("count twice the element count"); those run silently. Any other type (uint8_t masks, as
cann-ops-adv-vllm's SelectPosition ORs the bit masks CompareScalar wrote) is outside the documented types: under run
rules RunRules(vector_mask="warning") (in CHIP, run_project's default, for CANN's kernels) a `vector-mask` warning once per place, run as
A2 runs it; under "error" (emu.run's default, the judge's) it stays `unsupported`.

The same holds for a Compare / CompareScalar result tensor that is not uint8_t: the NPU build writes the mask's bytes
through the tensor's address (its dst type check is CPU-debug only). linnlh's BallQuery keeps its masks in
LocalTensor<float> buffers, ANDs them (And's count form on float) and reads the bits as a uint64_t."""
import numpy as np

from ascendcraft.emu import GM, RunRules, build, run

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bits(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR z, GM_ADDR m, GM_ADDR n, GM_ADDR w) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb, tc, td, tm, tn;
    pipe.InitBuffer(ta, 64 * sizeof(int32_t));
    pipe.InitBuffer(tb, 64 * sizeof(int32_t));
    pipe.InitBuffer(tc, 64 * sizeof(int32_t));
    pipe.InitBuffer(td, 64 * sizeof(int32_t));
    pipe.InitBuffer(tm, 64);
    pipe.InitBuffer(tn, 64);
    GlobalTensor<int32_t> ag, bg, yg, zg;
    GlobalTensor<uint8_t> mg, ng, wg;
    ag.SetGlobalBuffer((__gm__ int32_t*)a);
    bg.SetGlobalBuffer((__gm__ int32_t*)b);
    yg.SetGlobalBuffer((__gm__ int32_t*)y);
    zg.SetGlobalBuffer((__gm__ int32_t*)z);
    mg.SetGlobalBuffer((__gm__ uint8_t*)m);
    ng.SetGlobalBuffer((__gm__ uint8_t*)n);
    wg.SetGlobalBuffer((__gm__ uint8_t*)w);
    LocalTensor<int32_t> la = ta.Get<int32_t>(), lb = tb.Get<int32_t>(), lc = tc.Get<int32_t>(), ld = td.Get<int32_t>();
    LocalTensor<uint8_t> lm = tm.Get<uint8_t>(), ln = tn.Get<uint8_t>();
    DataCopy(la, ag, 64);
    DataCopy(lb, bg, 64);
    DataCopy(lm, mg, 64);
    DataCopy(ln, ng, 64);
    Duplicate(ld, 7, 64);
    PipeBarrier<PIPE_ALL>();
    Or(lc, la, lb, 2 * 64);                                   // OR32: documented, count doubled: all 64 int32
    And(ld, la, lb, 64);                                      // AND32: count 64: the first 32 int32 only
    Or(lm, lm, ln, 32);                                       // OR8: 32 int16 lanes, all 64 bytes
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lc, 64);
    DataCopy(zg, ld, 64);
    DataCopy(wg, lm, 64);
}
"""


def _line(tag: str) -> int:
    return next(i + 1 for i, line in enumerate(KERNEL.splitlines()) if f"// {tag}" in line)


RNG = np.random.default_rng(7)
A = RNG.integers(-2**31, 2**31 - 1, 64, dtype=np.int64).astype(np.int32)
B = RNG.integers(-2**31, 2**31 - 1, 64, dtype=np.int64).astype(np.int32)
M = RNG.integers(0, 256, 64, dtype=np.uint8)
N = RNG.integers(0, 256, 64, dtype=np.uint8)


def _args():
    return [GM("a", A), GM("b", B), GM("y", np.zeros(64, np.int32), "out"), GM("z", np.zeros(64, np.int32), "out"),
            GM("m", M), GM("n", N), GM("w", np.zeros(64, np.uint8), "out")]


def test_int32_runs_on_int16_lanes_as_documented_and_uint8_as_a2_runs_it_under_the_warning():
    r = run(build({"bits.cpp": KERNEL}), _args(), block_dim=1, rules=RunRules(vector_mask="warning"))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], A | B)
    np.testing.assert_array_equal(r.outputs["z"], np.concatenate([(A & B)[:32], np.full(32, 7, np.int32)]))
    np.testing.assert_array_equal(r.outputs["w"], M | N)
    warned = [d for d in r.diagnostics if d.kind == "vector-mask"]
    assert [d.line for d in warned] == [_line("OR8")] and warned[0].severity == "warning"
    assert "uint8_t" in warned[0].message and "32 int16_t lanes (64 bytes)" in warned[0].message


def test_uint8_is_unsupported_by_default_and_int32_is_not():
    r = run(build({"bits.cpp": KERNEL}), _args(), block_dim=1)
    assert not r.ok
    assert [(d.kind, d.line) for d in r.errors][:1] == [("unsupported", _line("OR8"))], [d.render() for d in r.errors]
    assert "Or is not supported for uint8_t" in r.errors[0].message


MASKS = r"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void masks(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> tx, t1, t2, tb;
    pipe.InitBuffer(tx, 64 * sizeof(float));
    pipe.InitBuffer(t1, 64 * sizeof(float));
    pipe.InitBuffer(t2, 64 * sizeof(float));
    pipe.InitBuffer(tb, 32);
    GlobalTensor<float> xg;
    GlobalTensor<uint64_t> yg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ uint64_t*)y);
    LocalTensor<float> lx = tx.Get<float>(), m1 = t1.Get<float>(), m2 = t2.Get<float>();
    LocalTensor<uint64_t> lb = tb.Get<uint64_t>();
    DataCopy(lx, xg, 64);
    PipeBarrier<PIPE_ALL>();
    CompareScalar(m1, lx, 0.25f, CMPMODE::GE, 64);            // GE: the mask's 8 bytes written through a float tensor
    CompareScalar(m2, lx, 0.75f, CMPMODE::LT, 64);
    And(m1, m1, m2, 4);                                       // AND: 4 int16_t lanes, the 64 bits
    PipeBarrier<PIPE_ALL>();
    uint64_t bits = m1.ReinterpretCast<uint64_t>().GetValue(0);
    Duplicate(lb.ReinterpretCast<int32_t>(), 0, 8);
    PipeBarrier<PIPE_ALL>();
    lb.SetValue(0, bits);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, lb, 4);
}
"""


def _mline(tag: str) -> int:
    return next(i + 1 for i, line in enumerate(MASKS.splitlines()) if f"// {tag}" in line)


X = RNG.uniform(0, 1, 64).astype(np.float32)


def test_a_compare_mask_through_a_float_tensor_runs_as_on_the_npu_under_the_warning():
    r = run(build({"masks.cpp": MASKS}), [GM("x", X), GM("y", np.zeros(4, np.uint64), "out")], block_dim=1,
            rules=RunRules(vector_mask="warning"))
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    inside = (X >= 0.25) & (X < 0.75)
    assert int(r.outputs["y"][0]) == sum(1 << i for i in range(64) if inside[i])
    warned = {d.line for d in r.diagnostics if d.kind == "vector-mask"}
    assert warned == {_mline("GE"), _mline("GE") + 1, _mline("AND")}, warned


def test_a_compare_mask_through_a_float_tensor_is_unsupported_by_default():
    r = run(build({"masks.cpp": MASKS}), [GM("x", X), GM("y", np.zeros(4, np.uint64), "out")], block_dim=1)
    assert not r.ok and [(d.kind, d.line) for d in r.errors][:1] == [("unsupported", _mline("GE"))]
