"""A kernel's own `complex64` (hicann ops-math tile: `using complex64 = uint64_t;` under its own guard). The official A2
headers declare no complex64, so CANN builds such a kernel, and the op's DT_COMPLEX64 column (DTYPE_X = complex64)
then names the kernel's type. The emulation's complex64 (a pair of floats, for kernels that use DTYPE_X = complex64
without declaring it: test_emu_corpus_styles) stays out of such a build instead of clashing with it."""
import numpy as np
import pytest

from ascendcraft.config import load_settings
from ascendcraft.emu import GM, OWN_COMPLEX64_RE, build, run

# 16 complex64 elements moved as the kernel's own 8-byte integer type: each element's bits reversed end to end would
# not survive a float conversion, so a copy through any float type would change some of them
OWN = r'''#include "kernel_operator.h"
#ifndef MY_COMPLEX64_DEFINED
#define MY_COMPLEX64_DEFINED
{decl}
#endif
using namespace AscendC;
extern "C" __global__ __aicore__ void copy_c64(GM_ADDR x, GM_ADDR y)
{
    static_assert(sizeof(DTYPE_X) == 8, "the kernel's complex64 is 8 bytes");
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16 * sizeof(DTYPE_X));
    GlobalTensor<DTYPE_X> xg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x, 16);
    yg.SetGlobalBuffer((__gm__ DTYPE_X *)y, 16);
    LocalTensor<DTYPE_X> t = buf.Get<DTYPE_X>();
    DataCopy(t, xg, 16);
    PipeBarrier<PIPE_ALL>();
    DTYPE_X first = t.GetValue(0);
    t.SetValue(15, first);                            // the kernel's type is an integer: plain assignment of its bits
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 16);
}
'''


@pytest.mark.parametrize("decl", ["using complex64 = uint64_t;", "typedef uint64_t complex64;"], ids=["using", "typedef"])
def test_a_kernel_that_declares_complex64_builds_with_its_own_type(decl):
    s = load_settings()
    b = build({"copy_c64.cpp": OWN.replace("{decl}", decl)}, settings=s.replace(cxxflags=f"{s.cxxflags} -DDTYPE_X=complex64"))
    assert b.ok, "\n".join(d.render() for d in b.errors)
    rng = np.random.default_rng(9)
    x = rng.integers(0, 2**63, 16, dtype=np.uint64)
    x[3] = 0x7FF8_0000_0000_0001     # a float NaN's bits in each half would not survive a float copy
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.uint64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.copy()
    want[15] = x[0]
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_only_a_declaration_of_the_name_counts():
    own = ["using complex64 = uint64_t;", "  typedef unsigned long long complex64;", "struct complex64 { float r, i; };",
           "class complex64;"]
    used = ["using T = complex64;", "complex64 x = y;", "using complex64_t = uint64_t;", "struct complex64x {};",
            "static_assert(sizeof(complex64) == 8);"]
    assert all(OWN_COMPLEX64_RE.search(t) for t in own)
    assert not any(OWN_COMPLEX64_RE.search(t) for t in used)
