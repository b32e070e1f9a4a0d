"""The scalar unit's bit counting (GetBitCount / ScalarGetCountOfValue, CountLeadingZero / ScalarCountLeadingZero,
CountBitsCntSameAsSignBit, GetSFFValue / ScalarGetSFFValue), checked against Python's integers on values with signs
and edge cases (0, -1, the lowest int64)."""
import numpy as np

from ascendcraft.emu import GM, build, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bits(GM_ADDR x, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int64_t> xg, og;
    xg.SetGlobalBuffer((__gm__ int64_t *)x, 8);
    og.SetGlobalBuffer((__gm__ int64_t *)out, 8 * 8);
    for (int i = 0; i < 8; ++i) {
        const int64_t v = xg.GetValue(i);
        const uint64_t u = static_cast<uint64_t>(v);
        og.SetValue(i * 8 + 0, GetBitCount<1>(u));
        og.SetValue(i * 8 + 1, ScalarGetCountOfValue<0>(u));
        og.SetValue(i * 8 + 2, CountLeadingZero(u));
        og.SetValue(i * 8 + 3, ScalarCountLeadingZero(u));
        og.SetValue(i * 8 + 4, CountBitsCntSameAsSignBit(v));
        og.SetValue(i * 8 + 5, GetSFFValue<1>(u));
        og.SetValue(i * 8 + 6, ScalarGetSFFValue<0>(u));
        og.SetValue(i * 8 + 7, 0);
    }
}
'''


def _ref(v: int) -> list[int]:
    u = v & (2 ** 64 - 1)
    ones = bin(u).count("1")
    clz = 64 - u.bit_length()
    sign = u >> 63
    same = 0
    for b in range(62, -1, -1):
        if (u >> b) & 1 != sign: break
        same += 1
    same = -1 if same == 63 else same
    sff1 = (u & -u).bit_length() - 1 if u else -1
    z = ~u & (2 ** 64 - 1)
    sff0 = (z & -z).bit_length() - 1 if z else -1
    return [ones, 64 - ones, clz, clz, same, sff1, sff0, 0]


def test_scalar_bit_counts(tmp_path):
    src = tmp_path / "bits.cpp"
    src.write_text(KERNEL)
    b = build(src, entry="bits")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.array([0, -1, 28, 0x0F00000000000000, -(2 ** 63), 1, -6, 0x7FFFFFFFFFFFFFFF], np.int64)
    r = run(b, [GM("x", x), GM("out", np.zeros(64, np.int64), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    got = r.outputs["out"].reshape(8, 8)
    for i, v in enumerate(x.tolist()):
        assert got[i].tolist() == _ref(v), (v, got[i].tolist(), _ref(v))
    assert got[3, 4] == 3 and got[2, 5] == 2   # the documented examples: 0x0f00... -> 3 equal bits; 28 -> first 1 at 2
