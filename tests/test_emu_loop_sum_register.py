"""A float sum that a GM-read loop carries stays in a register in the default kernel build (fortieth round, evo).

EvoKernel's scalar GEMMs (MatmulGroupNormLeakyReluSum: per output, `acc = bias; for k: acc += x.GetValue(..) *
w.GetValue(..)`) spent their time on one instruction: the inlined `GlobalTensor::GetValue` (runtime.h, `gm_get`) calls
`gm_get_checked` on its rare path, and at -O1 g++ does not save a register around a call (`-fcaller-saves` is on from
-O2), so every float live across that call, the sum included, was kept in a stack slot: each step an `addss` from the
slot and a `movss` back, the next step waiting on that store. The default cxxflags now have `-fcaller-saves`: the sum
stays in an xmm register and is saved only around the call when the call is made.

The kernel here is written in that style (a bias, then a dot product of an x row and a w row read with GetValue). Mode
0 reads two buffers (the inlined path); mode 1 reads five in turn, more than the four ranges the inlined read keeps, so
every read makes the call and the sum must survive it each step. Both are compared with the same float32 sums made in
the same order in NumPy; the default build's code for the kernel is then read (objdump) for an `addss` from a stack slot
whose result goes back to that slot. Built with the cxxflags before this round (no `-fcaller-saves`), the last check
fails (the values are the same: only where the sum lives differs).
"""
import re
import shutil
import subprocess

import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, Scalar, build, run

K, ROWS = 96, 8
KERNEL = r'''#include "kernel_operator.h"
class RowSums {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR c, GM_ADDR d, GM_ADDR y, uint32_t k, uint32_t rows)
    {
        k_ = k;
        rows_ = rows;
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        wGm_.SetGlobalBuffer((__gm__ float *)w);
        bGm_.SetGlobalBuffer((__gm__ float *)b);
        cGm_.SetGlobalBuffer((__gm__ float *)c);
        dGm_.SetGlobalBuffer((__gm__ float *)d);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
    }
    __aicore__ inline float Dot(uint32_t r)   // two buffers: x and a w row
    {
        float acc = bGm_.GetValue(r);
        for (uint32_t i = 0; i < k_; ++i) acc += xGm_.GetValue(i) * wGm_.GetValue((uint64_t)r * k_ + i);
        return acc;
    }
    __aicore__ inline float Five(uint32_t r)   // five buffers in turn: each read past the inlined read's four ranges
    {
        float acc = bGm_.GetValue(r);
        for (uint32_t i = 0; i < k_; ++i) {
            const float p = xGm_.GetValue(i) * wGm_.GetValue((uint64_t)r * k_ + i);
            const float q = cGm_.GetValue(i) * dGm_.GetValue(i);
            acc += p - q * bGm_.GetValue(r);
        }
        return acc;
    }
    __aicore__ inline void Process(uint32_t mode)
    {
        for (uint32_t r = 0; r < rows_; ++r) yGm_.SetValue(r, mode == 0 ? Dot(r) : Five(r));
    }
private:
    AscendC::GlobalTensor<float> xGm_, wGm_, bGm_, cGm_, dGm_, yGm_;
    uint32_t k_{0}, rows_{0};
};
extern "C" __global__ __aicore__ void row_sums(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR c, GM_ADDR d, GM_ADDR y,
                                               uint32_t k, uint32_t rows, uint32_t mode)
{
    RowSums op;
    op.Init(x, w, b, c, d, y, k, rows);
    op.Process(mode);
}
'''


def _inputs():
    rng = np.random.default_rng(40)
    return {n: rng.standard_normal(s).astype(np.float32) for n, s in
            (("x", K), ("w", (ROWS, K)), ("b", ROWS), ("c", K), ("d", K))}


def _expected(v, mode):
    "The kernel's float32 sums, step by step in its order."
    out = np.empty(ROWS, np.float32)
    for r in range(ROWS):
        acc = v["b"][r]
        for i in range(K):
            p = v["x"][i] * v["w"][r, i]
            acc = acc + p if mode == 0 else acc + (p - (v["c"][i] * v["d"][i]) * v["b"][r])
        out[r] = acc
    return out


def _stack_slot_sums(binary) -> list[str]:
    "The `addss` instructions of the kernel's code that add from a stack slot and store the result back to that slot."
    asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", str(binary)], capture_output=True, text=True,
                         check=True).stdout
    body = re.search(r"<row_sums[^>]*>:\n(.*?)\n\n", asm, re.S)
    assert body, "the kernel's function row_sums is not in the binary's disassembly"
    lines = [l.split(":", 1)[1].strip() for l in body.group(1).splitlines() if ":" in l]
    found = []
    for i, ins in enumerate(lines):
        m = re.match(r"addss\s+(-?0x[0-9a-f]+)?\(%rsp\),(%xmm\d+)", ins)
        if m and any(re.fullmatch(rf"movss\s+{re.escape(m.group(2))},{re.escape(m.group(1) or '')}\(%rsp\)", nxt)
                     for nxt in lines[i + 1:i + 4]):
            found.append(ins)
    return found


@pytest.mark.parametrize("mode", [0, 1])
def test_a_gm_read_loops_sum_is_right_with_reads_inline_and_through_the_call(mode):
    v = _inputs()
    b = build({"row_sums.cpp": KERNEL})
    assert b.ok, b.diagnostics
    args = [GM("x", v["x"]), GM("w", v["w"]), GM("b", v["b"]), GM("c", v["c"]), GM("d", v["d"]),
            GM("y", None, "out", shape=(ROWS,), dtype=np.float32), Scalar(K, "uint32"), Scalar(ROWS, "uint32"),
            Scalar(mode, "uint32")]
    r = run(b, args, block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], _expected(v, mode), rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(shutil.which("objdump") is None, reason="objdump (binutils) is needed to read the kernel's code")
def test_the_default_build_keeps_a_loops_float_sum_out_of_the_stack():
    b = build({"row_sums.cpp": KERNEL})
    assert b.ok and b.binary, b.diagnostics
    assert _stack_slot_sums(b.binary) == [], (
        f"with cxxflags {load_settings().cxxflags!r} the kernel's loop adds its sum from a stack slot and stores it back "
        "each step (-fcaller-saves missing?)")
