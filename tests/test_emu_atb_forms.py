"""Forms of hicann/ascend-transformer-boost's kernels (ATB, CANN's transformer library) that the emulator takes, with
small kernels written here in ATB's style (never its code):

- a kernel source in a `.cce` file (ATB's matmul and attention kernels: CCE sources that ccec / bisheng compile as
  device C++), which may include another `.cce` file;
- the tiling read from a GM pointer argument field by field at byte offsets (`*(const __gm__ uint32_t *)(p + 4)`);
- `static constexpr T T_MIN = ... -3.38953e+38;` with T = bfloat16_t: the device compiler's bfloat16 is a literal type;
- the cube half of a kernel built per core type whose entry is larger than 99,999 bytes: readelf prints such a size in
  hex, and the half's symbols are renamed all the same (`aic_renames`)."""
import numpy as np

from ascendcraft.emu import GM, aic_renames, build, find_entries, read_sources, run

N = 256   # elements; a block of 32 B is 8 floats

# A vector kernel in ATB's layout: `extern "C" __global__ __aicore__`, the tiling a GM byte array read at offsets, the
# work in a class, the shared helper in a .cce header it includes.
HELPER_CCE = """
#pragma once
#include "kernel_operator.h"
struct ScaleTiling {
    uint32_t numel;
    float alpha;
    float beta;
};
inline __aicore__ void InitTilingData(const __gm__ uint8_t *p, ScaleTiling *t)
{
    t->numel = (*(const __gm__ uint32_t *)(p + 0));
    t->alpha = (*(const __gm__ float *)(p + 4));
    t->beta = (*(const __gm__ float *)(p + 8));
}
"""

KERNEL_CCE = """
#include "kernel_operator.h"
#include "scale_common.cce"

class AffineKernel {
public:
    __aicore__ inline void Init(__gm__ uint8_t *x, __gm__ uint8_t *y, const ScaleTiling &t)
    {
        t_ = t;
        xGm_.SetGlobalBuffer((__gm__ float *)x, t.numel);
        yGm_.SetGlobalBuffer((__gm__ float *)y, t.numel);
        pipe_.InitBuffer(buf_, 2 * t.numel * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> a = buf_.Get<float>();
        AscendC::LocalTensor<float> b = a[t_.numel];
        AscendC::DataCopy(a, xGm_, t_.numel);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(b, a, t_.alpha, t_.numel);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(b, b, t_.beta, t_.numel);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm_, b, t_.numel);
    }
private:
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
    AscendC::GlobalTensor<float> xGm_, yGm_;
    ScaleTiling t_;
};

extern "C" __global__ __aicore__ void affine(__gm__ uint8_t *x, __gm__ uint8_t *y, __gm__ uint8_t *tiling)
{
    ScaleTiling t;
    InitTilingData(tiling, &t);
    AffineKernel op;
    op.Init(x, y, t);
    op.Process();
}
"""


def tiling_bytes(numel: int, alpha: float, beta: float) -> np.ndarray:
    "The tiling as ATB's host code writes it: the struct's fields at their offsets, as bytes."
    return np.frombuffer(np.array([numel], np.uint32).tobytes() + np.array([alpha, beta], np.float32).tobytes(), np.uint8).copy()


def test_a_kernel_in_a_cce_file_is_found_built_and_run_against_numpy():
    sources = {"op_kernel/affine.cce": KERNEL_CCE, "op_kernel/scale_common.cce": HELPER_CCE}
    assert [e.name for e in find_entries(sources)] == ["affine"]   # the .cce file is a translation unit's source
    b = build(sources, "affine")
    assert b.ok, b.diagnostics
    x = np.linspace(-3, 5, N, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(N, np.float32), "out"), GM("tiling", tiling_bytes(N, 1.5, -0.25))],
            block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(1.5) + np.float32(-0.25))


def test_a_folder_of_cce_sources_is_read_like_cpp_ones(tmp_path):
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "affine.cce").write_text(KERNEL_CCE)
    (tmp_path / "k" / "scale_common.cce").write_text(HELPER_CCE)
    assert sorted(read_sources(tmp_path)) == ["k/affine.cce", "k/scale_common.cce"]


# ATB group_topk's form: the lowest value of the element type as a class's static constexpr member, T = bfloat16_t or
# half, initialised from a double; the kernel writes it out so the test can read the value the conversion gave.
TMIN_KERNEL = """
#include "kernel_operator.h"
template <typename T>
struct Limits {
    static constexpr T T_MIN = std::is_same_v<T, half> ? -65504 : -3.38953e+38;
    static constexpr T T_ONE_THIRD = 1.0 / 3.0;
};
extern "C" __global__ __aicore__ void write_limits(__gm__ uint8_t *out)
{
    AscendC::GlobalTensor<bfloat16_t> o;
    o.SetGlobalBuffer((__gm__ bfloat16_t *)out, 16);
    constexpr float asFloat = Limits<bfloat16_t>::T_MIN;   // a constant expression: converts at compile time
    static_assert(asFloat < -3.3e38f, "bfloat16's lowest value");
    o.SetValue(0, Limits<bfloat16_t>::T_MIN);
    o.SetValue(1, Limits<bfloat16_t>::T_ONE_THIRD);
    AscendC::DataCacheCleanAndInvalid<bfloat16_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(o);
}
"""


def bf16_bits(x: float) -> int:
    "bfloat16's bits of a float32, rounded to nearest even (the reference for the emulator's conversion)."
    u = int(np.array([x], np.float32).view(np.uint32)[0])
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def test_a_static_constexpr_bfloat16_member_from_a_double_converts_at_compile_time():
    b = build({"k.cpp": TMIN_KERNEL}, "write_limits")
    assert b.ok, b.diagnostics
    r = run(b, [GM("out", np.zeros(16, np.uint16), "inout")], block_dim=1)
    assert r.ok, r.diagnostics
    got = r.outputs["out"].view(np.uint16)
    assert int(got[0]) == bf16_bits(-3.38953e+38) == 0xFF7F      # bfloat16's lowest finite value
    assert int(got[1]) == bf16_bits(1.0 / 3.0) == 0x3EAB


def test_the_cube_halfs_entry_is_renamed_whatever_the_size_readelf_prints():
    "readelf -gsW prints a size above 99,999 bytes in hex (0x23ac3): the entry is still a definition to rename."
    readelf = """
Symbol table '.symtab' contains 5 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
    27: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND _ZN11ascendcraft3emu15cube_copy_nd2nzEv
    28: 0000000000000000   566 FUNC    WEAK   DEFAULT   11 _ZN8gm_to_l1C1Ev
    29: 0000000000000000 0x23ac3 FUNC    GLOBAL DEFAULT    3 pp_matmul_big
    30: 0000000000000000 0x186a0 OBJECT  GLOBAL DEFAULT    4 big_table
"""
    renamed = dict(aic_renames(readelf))
    assert sorted(renamed) == ["_ZN8gm_to_l1C1Ev", "big_table", "pp_matmul_big"]
    assert renamed["pp_matmul_big"] == "pp_matmul_big__ascendcraft_aic"


# ATB laser_attention's first statement, `SetSysWorkspaceForce(workspace);`: the system workspace becomes the given
# pointer, also after the kernel set another one, and GetSysWorkSpacePtr returns it.
FORCE_KERNEL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void force_ws(__gm__ uint8_t *flags, __gm__ uint8_t *other, __gm__ uint8_t *workspace)
{
    AscendC::GlobalTensor<int32_t> fg;
    fg.SetGlobalBuffer((__gm__ int32_t *)flags, 8);
    AscendC::SetSysWorkspace(other);
    AscendC::SetSysWorkspaceForce(workspace);
    fg.SetValue(0, AscendC::GetSysWorkSpacePtr() == workspace ? 1 : 0);
    AscendC::SetSysWorkspaceForce(other);
    fg.SetValue(1, AscendC::GetSysWorkSpacePtr() == other ? 1 : 0);
}
"""


def test_set_sys_workspace_force_sets_the_system_workspace():
    from ascendcraft.emu import Workspace
    b = build({"k.cpp": FORCE_KERNEL}, "force_ws")
    assert b.ok, b.diagnostics
    r = run(b, [GM("flags", np.zeros(8, np.int32), "out"), GM("other", np.zeros(8, np.int32), "inout"),
                Workspace(1024)], block_dim=1)
    assert r.ok, r.diagnostics
    assert r.outputs["flags"][:2].tolist() == [1, 1]


# ATB's mixed kernels: an `ffts_addr` argument given to set_ffts_base_addr first thing, and the kernel binary's metadata
# records in `.ascend.meta.<kernel>` sections, one per core type's pass. Written around this suite's own mixed GEMM +
# ReLU (emu_kernels/good/cross_mixed.cpp: the cube core hands its tiles to the vector cores through GM).
ATB_STYLE_ENTRY = """
#if defined(__DAV_C220_CUBE__)
static const struct FunLevelMixCoreType matmul_relu_atb_mix_aic_section
__attribute__ ((used, section (".ascend.meta.matmul_relu_atb_mix_aic"))) = {
    {{F_TYPE_KTYPE, sizeof(unsigned int)}, K_TYPE_MIX_AIC_MAIN},
    {{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}, 1, 2}
};
#endif
#if defined(__DAV_C220_VEC__)
static const struct FunLevelMixCoreType matmul_relu_atb_mix_aiv_section
__attribute__ ((used, section (".ascend.meta.matmul_relu_atb_mix_aiv"))) = {
    {{F_TYPE_KTYPE, sizeof(unsigned int)}, K_TYPE_MIX_AIC_MAIN},
    {{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}, 1, 2}
};
#endif
extern "C" __global__ __aicore__ void matmul_relu_atb(GM_ADDR ffts_addr, GM_ADDR a, GM_ADDR bt, GM_ADDR y, GM_ADDR ws,
                                                      uint32_t n, uint32_t k, uint32_t tiles)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    set_ffts_base_addr((uint64_t)ffts_addr);
    RunMatmulRelu<Bug::None>(a, bt, y, ws, n, k, tiles);
}
"""


def test_an_atb_style_mixed_kernel_with_ffts_base_and_meta_records_matches_numpy():
    from pathlib import Path

    from ascendcraft.emu import Scalar
    fixture = (Path(__file__).parent / "emu_kernels" / "good" / "cross_mixed.cpp").read_text()
    b = build({"k.cpp": fixture + ATB_STYLE_ENTRY}, "matmul_relu_atb")
    assert b.ok, b.diagnostics
    groups, tiles, n, k = 2, 2, 32, 64
    m = groups * tiles * 16
    rng = np.random.default_rng(3535)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bt = rng.standard_normal((n, k)).astype(np.float16)
    r = run(b, [GM("ffts", np.zeros(64, np.uint8)), GM("a", a), GM("bt", bt), GM("y", np.empty((m, n), np.float32), "out"),
                GM("ws", np.empty(groups * 2 * 16 * n, np.float32), "workspace"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t"), Scalar(tiles, "uint32_t")], block_dim=groups)
    assert r.ok and not r.diagnostics, r.diagnostics
    np.testing.assert_allclose(r.outputs["y"], np.maximum(a.astype(np.float64) @ bt.astype(np.float64).T, 0),
                               rtol=1e-5, atol=1e-4)


# ATB gmm_deq_swiglu_quant_gmm_deq's L2-cache run configuration, defined by the kernel itself in its cube pass; its
# field is the devkit's, a uint64_t the kernel may read and write.
RUN_CFG_KERNEL = """
#include "kernel_operator.h"
__gm__ struct OpSystemRunCfg g_opSystemRunCfg{0};
extern "C" __global__ __aicore__ void run_cfg(__gm__ uint8_t *out)
{
    AscendC::GlobalTensor<uint64_t> o;
    o.SetGlobalBuffer((__gm__ uint64_t *)out, 4);
    g_opSystemRunCfg.l2Cacheoffset += 40;
    o.SetValue(0, g_opSystemRunCfg.l2Cacheoffset + 2);
    o.SetValue(1, sizeof(OpSystemRunCfg));
    o.SetValue(2, sizeof(FunLevelKType) + sizeof(FunLevelCrossCoreType));
}
"""


def test_the_run_configuration_struct_a_kernel_defines_has_the_devkits_field():
    b = build({"k.cpp": RUN_CFG_KERNEL}, "run_cfg")
    assert b.ok, b.diagnostics
    r = run(b, [GM("out", np.zeros(4, np.uint64), "inout")], block_dim=1)
    assert r.ok, r.diagnostics
    assert r.outputs["out"][:3].tolist() == [42, 8, 8 + 16]


def test_a_gxx_crash_is_an_error_at_the_kernels_line_that_says_it_is_gxxs():
    "g++'s own crash (ATB moe_gate_corr's catlass v1.4.0 under g++ 12) is reported where the kernel's code led to it."
    from ascendcraft.emu import parse_compiler_output
    sources = {"op_kernel/tile.cpp": "#include \"kernel_operator.h\"\n\nvoid tile() {\n    LoadData<float, config>(a, b, p);\n}\n"}
    log = """In file included from /emu/include/ascendcraft_emu/kernel_api.h:36:
/emu/include/ascendcraft_emu/cube.h: In instantiation of 'void Tile::operator()()':
/root/build/src/op_kernel/tile.cpp:4:28:   required from here
/emu/include/ascendcraft_emu/cube.h:419:13: internal compiler error: Segmentation fault
  419 | inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p, SrcLoc loc = {}) {
      |             ^~~~~~~~
0x7f0f96de504f ???
Please submit a full bug report, with preprocessed source (by using -freport-bug).
"""
    (d,) = parse_compiler_output(log, sources, root="/root/build/src")
    assert (d.kind, d.is_error, d.file, d.line) == ("compile-error", True, "op_kernel/tile.cpp", 4)
    assert d.message == "g++ internal compiler error: Segmentation fault"
    assert "compiler bug" in d.hint
