"""A `static __gm__` array member of a class template is the kernel's constant data in global memory, one table per
instance of the class (hicann ops-math lin_space: `constexpr static __gm__ T assistGm[256]` in `template <typename T>
class LinSpaceBase`, which its kernels derive from as `LinSpaceNeedCast<T1, T2> : public LinSpaceBase<T2>`, and DataCopy
from into UB). Before, the driver declared only namespace-scope tables (gm_arrays), and every read from such a member was
gm-out-of-bounds: lin_space stopped in 6 of 8 cases. A read past the member's end is still out of bounds."""
import numpy as np

from ascendcraft.emu import GM, build, gm_member_arrays, run

KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
namespace member_ns {
template <typename T>
class TableBase {
public:
    constexpr static __gm__ T kRamp[64] = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
        31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
        59, 60, 61, 62, 63};
};
template <typename TIn, typename TOut>
class AddRamp : public TableBase<TOut> {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        TBuf<> a, b;
        pipe.InitBuffer(a, 128 * sizeof(TOut));
        pipe.InitBuffer(b, 128 * sizeof(TOut));
        GlobalTensor<TOut> xg, yg, tg;
        xg.SetGlobalBuffer((__gm__ TOut*)x, 64);
        yg.SetGlobalBuffer((__gm__ TOut*)y, 64);
        tg.SetGlobalBuffer((__gm__ TOut*)this->kRamp, 64);
        LocalTensor<TOut> la = a.Get<TOut>(), lb = b.Get<TOut>();
        DataCopy(la, xg, 64);
        DataCopy(lb, tg, COUNT);
        PipeBarrier<PIPE_ALL>();
        Add(la, la, lb, 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg, la, 64);
    }
    TPipe pipe;
};
}  // namespace member_ns
extern "C" __global__ __aicore__ void gm_member(GM_ADDR x, GM_ADDR y)
{
    member_ns::AddRamp<int8_t, float> op;
    op.Run(x, y);
}
'''


def _run(count: int = 64):
    b = build({"gm_member.cpp": KERNEL.replace("COUNT", str(count))}, "gm_member")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(64, dtype=np.float32) * 100
    return run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out")], block_dim=1), x


def test_a_kernel_reads_a_static_gm_member_of_its_class_template_with_datacopy():
    r, x = _run()
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x + np.arange(64, dtype=np.float32))


def test_a_read_past_the_member_is_out_of_bounds():
    r, _ = _run(count=128)      # 512 bytes from a 256-byte table
    assert not r.ok and [d.kind for d in r.diagnostics if d.is_error][:1] == ["gm-out-of-bounds"]


def test_the_instances_are_the_ones_the_kernel_names_directly_or_through_a_derived_template():
    sources = {"k.cpp": '#include "base.h"\n#if X\n#include "other.h"\n#endif\n'
                        "template <typename A, typename B> class D : public N::Base<B> {};\n"
                        "__global__ void f() {\n  D<int8_t, half> d;\n  N::Base<float> e;\n  N::Base<MyType> g;\n}\n",
               "base.h": "namespace N {\ntemplate <typename T>\nstruct Base {\n  constexpr static __gm__ T t[4] = {0, 1, 2, 3};\n"
                         "  __aicore__ void g() {}\n};\n}\n",
               "other.h": "template <typename T> struct O {\n  static constexpr __gm__ T u[2] = {1, 2};\n};\nO<half> o;\n"}
    assert gm_member_arrays(sources, ["k.cpp"]) == ["N::Base<half>::t", "N::Base<float>::t"]
