"""What public kernels take for granted from CANN's headers besides the documented APIs, found by the conformance
corpus (examples/corpus): the APIs as function values (template arguments of the Foreach* kernels), the device
compiler's macros and type names, AscendCUtils, IsSameType, InitOutput, the tik2 namespace, <cmath> in scalar code,
the empty-in-device-builds ASSERT, and the advanced API header paths. Kernels written here in those styles."""
import numpy as np

from ascendcraft.emu import GM, Scalar, build, run

STYLES = r'''#include "kernel_operator.h"
#include "lib/math/kernel_operator_sin_intf.h"
#include "lib/normalization/rmsnorm.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"
using namespace tik2;

template <typename T> using BinaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T> using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T> using ScalarOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T> using TriangleOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);

template <typename T> using BinaryLevelZeroOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,
                                                    uint64_t, const uint8_t, const BinaryRepeatParams&);
template <typename T, BinaryLevelZeroOp<T>* op> __aicore__ inline void LevelZero(LocalTensor<T> d, LocalTensor<T> a, LocalTensor<T> b)
{
    op(d, a, b, 64, 1, {1, 1, 1, 8, 8, 8});
}

template <typename T, BinaryOp<T>* bin, UnaryOp<T>* un, ScalarOp<T>* sc, TriangleOp<T>* tri>
class Chain {
public:
    __aicore__ __forceinline__ void Run(LocalTensor<T> a, LocalTensor<T> b, LocalTensor<T> c, LocalTensor<T> d, int32_t n) {
        bin(c, a, b, n);    // a / b
        un(d, c, n);        // exp
        sc(d, d, (T)0.5f, n);
        tri(c, d, n);       // sin
    }
};

extern "C" __global__ __aicore__ void styles(GM_ADDR x, GM_ADDR y, GM_ADDR s, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * 64 * sizeof(float32_t));
    GlobalTensor<float32_t> xg, yg;
    GlobalTensor<int32_t> sg;
    xg.SetGlobalBuffer((__gm__ float32_t *)x, 128);
    yg.SetGlobalBuffer((__gm__ float32_t *)y, 64);
    sg.SetGlobalBuffer((__gm__ int32_t *)s, 8);
    LocalTensor<float> a = buf.Get<float>(), b = a[64], c = a[128], d = a[192];
    DataCopy(a, xg, 64);
    DataCopy(b, xg[64], 64);
    uint32_t tiles = n ASSERT(n % 8 == 0);    // empty on the device: the kernel still assigns n
    ASSERT(tiles != 0)                        // the statement form without its semicolon (NPUKernelBench MulSigmoid)
    if (likely(IsSameType<float, float32_t>::value && __CCE_AICORE__ == 220 && g_coreType == AIV)) {
        Chain<float, Div, Exp, Muls, Sin<float, false>> chain;
        chain.Run(a, b, c, d, 64);
        LevelZero<float, Sub>(c, c, b);
    }
    AscendCUtils::SetMask<float>(64);
    DataCopy(yg, c, 64);
    sg.SetValue(0, (int32_t)tiles);
    sg.SetValue(1, (int32_t)std::lround(sqrt(2.0) * 1000));     // <cmath> in scalar code
    sg.SetValue(2, AscendCUtils::GetC0Count(sizeof(half)));
    InitOutput(sg[3], 5, (int32_t)7);
    SetSysWorkspace(s);
    if (GetSysWorkSpacePtr() != s) sg.SetValue(0, -1);   // the workspace the kernel set comes back
}
'''


def test_public_kernel_styles_compile_and_compute():
    b = build({"styles.cpp": STYLES})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.random.default_rng(1).uniform(0.5, 1.5, 128).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("s", np.zeros(8, np.int32), "out"),
                Scalar(64, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"], np.sin(0.5 * np.exp(x[:64] / x[64:])) - x[64:], rtol=1e-5, atol=1e-6)
    assert list(r.outputs["s"]) == [64, 1414, 16, 7, 7, 7, 7, 7]
    # a failing ASSERT (compiled out of CANN's device builds) is a warning at its line; the kernel carries on
    bad = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("s", np.zeros(8, np.int32), "out"),
                  Scalar(63, "uint32_t")], block_dim=1)
    w = [d for d in bad.diagnostics if d.kind == "kernel-assert"]
    assert bad.ok and w[0].severity == "warning" and "n % 8 == 0" in w[0].message and "ASSERT" in w[0].source_line
    assert bad.outputs["s"][0] == 63


def test_a_direct_call_keeps_its_source_line_next_to_the_function_value_form():
    src = STYLES.replace("        bin(c, a, b, n);    // a / b", "        bin(c, a, b, n);")
    src = src.replace("    AscendCUtils::SetMask<float>(64);", "    Div(d, a, b, 72);")  # d holds the last 64 floats of the buffer
    b = build({"styles.cpp": src})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    x = np.ones(128, np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("s", np.zeros(8, np.int32), "out"),
                Scalar(64, "uint32_t")], block_dim=1)
    d = r.errors[0]
    assert d.kind == "ub-out-of-range" and "Div(d, a, b, 72)" in d.source_line


PADDED = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void padded(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 12);
    yGm.SetGlobalBuffer((__gm__ half *)y, 16);
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, xGm, READ);     // READ halves of a 12-half (24-byte) tensor
    Muls(t, t, (half)2, 16);
    DataCopy(yGm, t, 16);
}
'''


def test_reads_of_the_allocations_padding_are_legal_and_beyond_it_an_error():
    x = np.arange(12, dtype=np.float16)
    ok = run(build({"padded.cpp": PADDED.replace("READ", "32")}), [GM("x", x), GM("y", np.zeros(16, np.float16), "out")],
             block_dim=1)    # 64 bytes: 24 rounded up to 32, plus 32, as aclrtMalloc allocates
    assert ok.ok, "\n".join(d.render() for d in ok.diagnostics)
    np.testing.assert_array_equal(ok.outputs["y"][:12], 2 * x)
    bad = run(build({"padded.cpp": PADDED.replace("READ", "48")}), [GM("x", x), GM("y", np.zeros(16, np.float16), "out")],
              block_dim=1)
    assert [d.kind for d in bad.errors] == ["gm-out-of-bounds"] and "reads 96 bytes" in bad.errors[0].message


VCADD = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void vc(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(out, 16 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 16);
    LocalTensor<float> t = buf.Get<float>(), o = out.Get<float>();
    DataCopy(t, xGm, 256);
    Duplicate(o, 0.0f, 16);
    AscendCUtils::SetMask<float>(64);
    vcadd((__ubuf__ float *)o.GetPhyAddr(), (__ubuf__ float *)t.GetPhyAddr(), 4, 1, 1, 8, false);   // a sum per repeat
    vcadd(nullptr, (__ubuf__ float *)t.GetPhyAddr(), 4, 1, 1, 8, true);                              // all into ACC
    uint64_t acc = get_acc_val();
    o.SetValue(8, *reinterpret_cast<float *>(&acc));
    DataCopy(yGm, o, 16);
}
'''


def test_the_raw_vcadd_intrinsic_and_the_accumulator():
    x = np.random.default_rng(2).uniform(-1, 1, 256).astype(np.float32)
    r = run(build({"vc.cpp": VCADD}), [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["y"][:4], x.reshape(4, 64).sum(1), rtol=1e-5)
    np.testing.assert_allclose(r.outputs["y"][8], x.sum(), rtol=1e-5)


# The CTRL register through the device compiler's raw intrinsics (cann-ops batch_mat_mul_v3: set_ctrl(sbitset1(get_ctrl(),
# 51))): bit 56 is the vector mask's mode, so set_ctrl switches SetMaskCount / SetMaskNorm and get_ctrl reads it back;
# other bits read back as written.
CTRL = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ctrl(GM_ADDR x, GM_ADDR y, GM_ADDR flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, out;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    pipe.InitBuffer(out, 256 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> fGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    fGm.SetGlobalBuffer((__gm__ int32_t *)flags, 8);
    LocalTensor<float> t = buf.Get<float>(), o = out.Get<float>();
    DataCopy(t, xGm, 256);
    Duplicate(o, 0.0f, 256);
    PipeBarrier<PIPE_ALL>();
    fGm.SetValue(0, (get_ctrl() >> 56) & 1);                 // normal mode at the start
    SetMaskCount();
    fGm.SetValue(1, (get_ctrl() >> 56) & 1);                 // SetMaskCount shows in bit 56
    set_ctrl(sbitset1(get_ctrl(), 51));
    fGm.SetValue(2, (get_ctrl() >> 51) & 1);                 // an undescribed bit reads back
    fGm.SetValue(3, (get_ctrl() >> 56) & 1);                 // and the mode is still counter
    set_ctrl(sbitset0(get_ctrl(), 56));                      // = SetMaskNorm
    fGm.SetValue(4, (get_ctrl() >> 56) & 1);
    set_ctrl(sbitset1(get_ctrl(), 56));                      // = SetMaskCount: the next mask is an element count
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Add<float, false>(o, t, t, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, o, 256);
}
'''


def test_get_ctrl_and_set_ctrl_drive_the_mask_mode_and_keep_other_bits():
    x = np.random.default_rng(3).uniform(-1, 1, 256).astype(np.float32)
    r = run(build({"ctrl.cpp": CTRL}), [GM("x", x), GM("y", np.zeros(256, np.float32), "out"),
                                        GM("flags", np.full(8, 7, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["flags"][:5].tolist() == [0, 1, 1, 1, 0]
    want = np.zeros(256, np.float32)
    want[:100] = 2 * x[:100]                                 # counter mode: 100 elements, not a 64-lane bit mask
    np.testing.assert_array_equal(r.outputs["y"], want)


# Integer division by zero in scalar code: x86 traps, the NPU does not (catlass's BlockMmad computes `i % 0` in a value
# it never uses, NPUKernelBench GMM/OptimizedMatmul). The emulation carries on with quotient 0 and the dividend as the
# remainder, and warns once. The divisors come from GM, so the compiler cannot fold them away; register and memory
# operands, 32 and 64 bits, signed and unsigned, and INT_MIN / -1 (the other x86 divide error).
DIVZERO = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void divz(GM_ADDR d, GM_ADDR y)
{
    GlobalTensor<int32_t> dz;
    GlobalTensor<int64_t> out;
    dz.SetGlobalBuffer((__gm__ int32_t *)d, 4);
    out.SetGlobalBuffer((__gm__ int64_t *)y + GetBlockIdx() * 8, 8);
    int32_t zero = dz.GetValue(0), minus1 = dz.GetValue(1), a = dz.GetValue(2) + GetBlockIdx();
    volatile int64_t z64 = dz.GetValue(0);
    uint32_t uz = static_cast<uint32_t>(dz.GetValue(0));
    out.SetValue(0, a / zero);
    out.SetValue(1, a % zero);
    out.SetValue(2, (int64_t{1} << 40) / z64);
    out.SetValue(3, ((int64_t{1} << 40) + 5) % z64);
    out.SetValue(4, (static_cast<uint32_t>(a) + 3u) % uz);
    out.SetValue(5, dz.GetValue(3) / minus1);            // INT32_MIN / -1: wraps
    out.SetValue(6, a / (zero + 7));                     // an ordinary division still divides
}
'''


def test_integer_division_by_zero_carries_on_like_the_npu_with_one_warning():
    d = np.array([0, -1, 100, np.iinfo(np.int32).min], np.int32)
    r = run(build({"divz.cpp": DIVZERO}), [GM("d", d), GM("y", np.full(16, -7, np.int64), "out")], block_dim=2)
    assert r.ok, "\n".join(x.render() for x in r.diagnostics)
    for blk in range(2):
        a = 100 + blk
        assert r.outputs["y"][blk * 8: blk * 8 + 7].tolist() == [0, a, 0, (1 << 40) + 5, a + 3, np.iinfo(np.int32).min, a // 7]
    warns = [x for x in r.diagnostics if x.kind == "int-div-by-zero"]
    assert len(warns) == 1 and not warns[0].is_error and "quotient of 0" in warns[0].message


# Coordinates and flat layouts (asc-devkit matmul_l2cache): a layout's offset of a coordinate is sum(coord[i] *
# stride[i]); the kernel writes, for every (row, col) of a 3 x 5 grid, its offset in a row-major 3 x 5 layout and in a
# column-major one (strides 1, 3), and reads a Coord's components back with Std::get.
LAYOUT = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void lay(GM_ADDR y)
{
    GlobalTensor<int64_t> out;
    out.SetGlobalBuffer((__gm__ int64_t *)y, 32);
    auto rowMajor = MakeLayout(MakeShape(3, 5), MakeStride(5, 1));
    auto colMajor = MakeLayout(MakeShape(3, 5), MakeStride(int64_t{1}, int64_t{3}));
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 5; ++c) {
            Coord<int64_t, int64_t> at = MakeCoord(r, c);
            out.SetValue(rowMajor(at), colMajor(at));
        }
    Coord<int64_t, int64_t, int64_t> three = MakeCoord(int64_t{7}, int64_t{8}, int64_t{9});
    out.SetValue(16, Std::get<0>(three) * 100 + Std::get<1>(three) * 10 + Std::get<2>(three));
    out.SetValue(17, Std::get<1>(rowMajor.GetShape()) * 10 + Std::get<0>(rowMajor.GetStride()));
}
'''


def test_coordinates_and_flat_layouts_give_offsets():
    r = run(build({"lay.cpp": LAYOUT}), [GM("y", np.full(32, -1, np.int64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    rows, cols = np.meshgrid(np.arange(3), np.arange(5), indexing="ij")
    assert r.outputs["y"][:15].tolist() == (rows + 3 * cols).reshape(-1).tolist()   # the column-major offset, row-major order
    assert r.outputs["y"][16] == 789 and r.outputs["y"][17] == 55


CLZ = r'''#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void clz_kernel(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<uint64_t> xGm;
    GlobalTensor<int64_t> yGm;
    xGm.SetGlobalBuffer((__gm__ uint64_t *)x, 6);
    yGm.SetGlobalBuffer((__gm__ int64_t *)y, 12);
    for (int i = 0; i < 6; ++i) {
        const uint64_t v = xGm.GetValue(i);
        yGm.SetValue(i, clz(v));                                 // the raw scalar instruction
        yGm.SetValue(6 + i, v ? 63 - clz(v) : -1);               // lightning_indexer: the highest set bit
    }
}
'''


def test_the_raw_clz_counts_leading_zero_bits_of_64():
    # sgl-kernel-npu's lightning_indexer: `const uint64_t pow = 63 - clz(value);` (the instruction AscendC's
    # CountLeadingZero wraps; 64 for 0)
    x = np.array([0, 1, 2, 255, 1 << 40, (1 << 64) - 1], np.uint64)
    r = run(build({"clz.cpp": CLZ}), [GM("x", x), GM("y", np.zeros(12, np.int64), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["y"].tolist() == [64, 63, 62, 56, 23, 0, -1, 0, 1, 7, 40, 63]


FP8_TRAITS = r'''#include "kernel_operator.h"
#include <type_traits>
template <class Element> struct ElemPerC0 { static constexpr int32_t value = 32 / sizeof(Element); };
template <> struct ElemPerC0<AscendC::fp8_e8m0_t> { static constexpr int32_t value = 2; };   // an MX scale: 2 per C0
extern "C" __global__ __aicore__ void fp8_traits(GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    yGm.SetValue(0, ElemPerC0<half>::value);
    yGm.SetValue(1, ElemPerC0<fp8_e8m0_t>::value);
    yGm.SetValue(2, std::is_same_v<fp8_e4m3fn_t, uint8_t> && std::is_same_v<fp4x2_e2m1_t, uint8_t>);
    yGm.SetValue(3, sizeof(fp8_e5m2_t) + sizeof(fp4x2_e1m2_t));
}
'''


def test_the_fp8_storage_types_are_bytes_on_a2():
    # the devkit declares Ascend 950's fp8 / packed fp4 types as uint8_t on every other architecture; sgl-kernel-npu's
    # sparse_attention_score (built for A2/A3) specialises its layout templates for AscendC::fp8_e8m0_t
    r = run(build({"fp8.cpp": FP8_TRAITS}), [GM("y", np.zeros(4, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    assert r.outputs["y"].tolist() == [16, 2, 1, 2]
