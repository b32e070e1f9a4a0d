"""A `__gm__` array a kernel source defines at namespace scope is the kernel's constant data in global memory (hicann
ops-math diag_v2's `constexpr __gm__ int32_t assistGmB32[4096] = {...}`, a mask table it DataCopies into UB; lin_space
and ops-transformer's moe_init_routing family have their own): a DataCopy from it is a GM read like one from a launch
buffer. Before, the driver knew only the launch's buffers and every such read was a gm-out-of-bounds error ("DataCopy
reads 16384 bytes of GM at offset -45257136298112 of 'tiling'"): diag_v2 did not run at all. A write into the table, or
a read past its end, is still out of bounds."""
import numpy as np

from ascendcraft.emu import GM, build, gm_arrays, run

TABLE = r'''
#include "kernel_operator.h"
using namespace AscendC;
#ifndef GM_TABLE_H
#define GM_TABLE_H
namespace table_ns {
constexpr __gm__ int32_t kTable[64] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
    32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60,
    61, 62, 63};
}  // namespace table_ns
#endif
extern "C" __global__ __aicore__ void gm_table(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> a, b;
    pipe.InitBuffer(a, 256 * sizeof(int32_t));
    pipe.InitBuffer(b, 256 * sizeof(int32_t));
    GlobalTensor<int32_t> xg, yg, tg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x, 64);
    yg.SetGlobalBuffer((__gm__ int32_t*)y, 64);
    tg.SetGlobalBuffer((__gm__ int32_t*)table_ns::kTable, 64);
    LocalTensor<int32_t> la = a.Get<int32_t>(), lb = b.Get<int32_t>();
    DataCopy(la, xg, 64);
    DataCopy(lb, tg, COUNT);
    PipeBarrier<PIPE_ALL>();
    Add(la, la, lb, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(WHERE, la, 64);
}
'''


def _run(count: int = 64, where: str = "yg"):
    b = build({"gm_table.cpp": TABLE.replace("COUNT", str(count)).replace("WHERE", where)}, "gm_table")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(64, dtype=np.int32) * 100
    return run(b, [GM("x", x), GM("y", np.zeros(64, np.int32), "out")], block_dim=1), x


def test_a_kernel_reads_its_own_gm_table_with_datacopy():
    r, x = _run()
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + np.arange(64, dtype=np.int32))


def test_a_read_past_the_table_or_a_write_into_it_is_out_of_bounds():
    r, _ = _run(count=128)      # 512 bytes from a 256-byte table
    assert not r.ok and [d.kind for d in r.diagnostics if d.is_error][:1] == ["gm-out-of-bounds"]
    r, _ = _run(where="tg")     # the table is constant data: never written
    assert not r.ok and [d.kind for d in r.diagnostics if d.is_error][:1] == ["gm-out-of-bounds"]


def test_the_arrays_found_are_those_at_namespace_scope_outside_conditional_branches():
    sources = {"k.cpp": '#include "a.h"\n#if X\n#include "b.h"\n#endif\nnamespace N {\n'
                        "constexpr __gm__ int t[4] = {1, 2, 3, 4};\nstruct S {\n  static constexpr __gm__ int u[2] = {1, 2};\n};\n}\n"
                        "__global__ void f() {\n  __gm__ int z[3] = {0};\n}\n",
               "a.h": "#ifndef A_H\n#define A_H\nconstexpr __gm__ int16_t assist[16] = {\n 0};\n#endif\n",
               "b.h": "constexpr __gm__ int other[2] = {0};\n"}
    assert gm_arrays(sources, ["k.cpp"]) == ["N::t", "assist"]


# cann-ops deep_norm_grad keeps a flag word its blocks poll in a `static volatile __gm__` array and reads and writes it
# in scalar code; the driver's declaration of the array did not compile ("invalid conversion from 'volatile void*' to
# 'const void*'") since the arrays were declared to the runtime (the thirtieth round), so the op no longer built
FLAG_WORD = r'''
#include "kernel_operator.h"
using namespace AscendC;
static volatile __gm__ uint32_t g_doneFlag[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
extern "C" __global__ __aicore__ void flag_word(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<int32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x, 8);
    yg.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    g_doneFlag[0]++;
    for (int i = 0; i < 8; ++i) yg.SetValue(i, xg.GetValue(i) + static_cast<int32_t>(g_doneFlag[0]));
}
'''


def test_a_volatile_gm_array_is_declared_and_its_scalar_reads_and_writes_run():
    assert gm_arrays({"k.cpp": FLAG_WORD}, ["k.cpp"]) == ["g_doneFlag"]
    b = build({"flag_word.cpp": FLAG_WORD}, "flag_word")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(8, dtype=np.int32) * 10
    r = run(b, [GM("x", x), GM("y", np.zeros(8, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + 1)


# A `__gm__` array whose element type is not const is GM the kernel may write through the API too (DataCopy into a
# GlobalTensor over it, GlobalTensor::SetValue), as the NPU allows: before, every kernel-own array was declared
# read-only and such a write was reported as out of bounds. Each block here copies its slice of x into its own part of
# the array, adds 7 to the first element with SetValue, copies the part back out and into y. `OFFSET` chooses the part:
# `blk * 64` gives each block its own bytes; `0` makes both blocks write the same bytes with different values, which the
# usual cross-block check reports as for an output. A `const` (not constexpr) table stays read-only.
SCRATCH = r'''
#include "kernel_operator.h"
using namespace AscendC;
namespace scratch_ns {
__gm__ int32_t g_scratch[2 * 64] = {0};
static const __gm__ int32_t kReadOnly[64] = {0};
}  // namespace scratch_ns
extern "C" __global__ __aicore__ void gm_scratch(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<> a;
    pipe.InitBuffer(a, 64 * sizeof(int32_t));
    const int64_t blk = GetBlockIdx();
    GlobalTensor<int32_t> xg, yg, sg;
    xg.SetGlobalBuffer((__gm__ int32_t*)x + blk * 64, 64);
    yg.SetGlobalBuffer((__gm__ int32_t*)y + blk * 64, 64);
    sg.SetGlobalBuffer((__gm__ int32_t*)(TARGET) + OFFSET, 64);
    LocalTensor<int32_t> la = a.Get<int32_t>();
    DataCopy(la, xg, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(sg, la, 64);
    PipeBarrier<PIPE_ALL>();
    sg.SetValue(0, sg.GetValue(0) + 7);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(sg);
    Duplicate(la, 0, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(la, sg, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, la, 64);
}
'''


def _run_scratch(offset: str = "blk * 64", target: str = "scratch_ns::g_scratch"):
    src = SCRATCH.replace("OFFSET", offset).replace("TARGET", target)
    b = build({"gm_scratch.cpp": src}, "gm_scratch")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(128, dtype=np.int32) * 3 + 1
    return run(b, [GM("x", x), GM("y", np.zeros(128, np.int32), "out")], block_dim=2), x


def test_a_kernel_writes_its_own_non_const_gm_array_through_a_global_tensor_and_reads_it_back():
    assert gm_arrays({"k.cpp": SCRATCH}, ["k.cpp"]) == ["scratch_ns::g_scratch", "scratch_ns::kReadOnly"]
    r, x = _run_scratch()
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.copy()
    want[[0, 64]] += 7
    np.testing.assert_array_equal(r.outputs["y"], want)
    assert "g_scratch" not in r.outputs and "scratch_ns::g_scratch" not in r.outputs   # no output of the launch


def test_two_blocks_writing_the_same_bytes_of_a_gm_array_with_different_values_is_an_overlap():
    r, _ = _run_scratch(offset="0")
    errors = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errors and errors[0].kind == "gm-overlap", "\n".join(d.render() for d in r.diagnostics)
    assert "scratch_ns::g_scratch" in errors[0].render()


def test_a_write_into_a_const_gm_array_is_still_an_error_that_names_it():
    r, _ = _run_scratch(target="const_cast<int32_t*>(scratch_ns::kReadOnly)")
    errors = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and errors and errors[0].kind == "gm-out-of-bounds", "\n".join(d.render() for d in r.diagnostics)
    assert "scratch_ns::kReadOnly" in errors[0].render() and "read-only" in errors[0].render()
