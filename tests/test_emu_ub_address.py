"""Where a block's Unified Buffer sits in the emulator's address space, as the kernels that keep UB addresses in 32 bits
see it. hicann ops-math's arg_max_with_value / arg_min_with_value pass `static_cast<uint32_t>(src.GetPhyAddr())` to
vgather as its source address, and write other UB addresses as small numbers (`(__ubuf__ T*)TMP_UB_OFFSET`); the
emulator reads a number below the UB's size as an offset, and another below 2^32 as the low 32 bits of a host address in
the UB. The UB used to come from the host's malloc, so its low 32 bits changed with address-space randomisation: in
about one run of 64 a kept address fell below the UB's size and was read as an offset (the op gathered the poison
instead of its chunk indices, a different wrong index each time the run was repeated). Now every block's UB starts
at a host address whose low 32 bits are 0x40000000 (emu_ub.cpp ub_allocate): a kept address is that plus its offset, in
every run and every block. Kernels written here in the ops' style (fixed UB addresses, raw pointers from GetPhyAddr())."""
import numpy as np

from ascendcraft.emu import GM, build, run

RNG = np.random.default_rng(2026)
UB_LOW32 = 0x40000000   # the low 32 bits of every block's UB start (emu_core.cpp kUbLow32)
SRC_AT = 101632         # the UB offset of arg_min_with_value's chunk indices, whose kept address fell below 192 KiB

# Each block: its 64 floats of x into UB at SRC_AT, its 64 byte offsets at 1024; vgather from the UB address kept in
# 32 bits (the ops' RawGather) into 2048; a copy of the result through a UB address written as a number (184 KiB, the
# ops' TMP_UB_OFFSET) to y. `kept` gets the low 32 bits of the UB addresses of offset 0 and SRC_AT.
KEPT = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ub_kept(GM_ADDR x, GM_ADDR off, GM_ADDR y, GM_ADDR kept) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t b = GetBlockIdx();
    LocalTensor<float> base(TPosition::VECCALC, 0, 64);
    LocalTensor<float> src(TPosition::VECCALC, SRC_AT_, 64);
    LocalTensor<uint32_t> offsets(TPosition::VECCALC, 1024, 64);
    LocalTensor<float> dst(TPosition::VECCALC, 2048, 64);
    __ubuf__ float* tmp = reinterpret_cast<__ubuf__ float*>((uintptr_t)(184 * 1024));
    copy_gm_to_ubuf(reinterpret_cast<__ubuf__ float*>(src.GetPhyAddr()), (__gm__ float*)x + b * 64, 0, 1, 8, 0, 0);
    copy_gm_to_ubuf(reinterpret_cast<__ubuf__ uint32_t*>(offsets.GetPhyAddr()), (__gm__ uint32_t*)off + b * 64, 0, 1, 8,
                    0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    uint32_t srcAddr = static_cast<uint32_t>(reinterpret_cast<uint64_t>(src.GetPhyAddr()));
    set_mask_norm();
    set_vector_mask(0, ~0ULL);
    vgather(reinterpret_cast<__ubuf__ uint32_t*>(dst.GetPhyAddr()), reinterpret_cast<__ubuf__ uint32_t*>(offsets.GetPhyAddr()),
            srcAddr, 8, 1);
    pipe_barrier(PIPE_V);
    copy_ubuf_to_ubuf(tmp, reinterpret_cast<__ubuf__ float*>(dst.GetPhyAddr()), 0, 1, 8, 0, 0);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y + b * 64, tmp, 0, 1, 8, 0, 0);
    GlobalTensor<uint32_t> k;
    k.SetGlobalBuffer((__gm__ uint32_t*)kept + b * 8, 8);
    k.SetValue(0, static_cast<uint32_t>(reinterpret_cast<uint64_t>(base.GetPhyAddr())));
    k.SetValue(1, srcAddr);
}
""".replace("SRC_AT_", str(SRC_AT))


def _run(b, blocks, **kw):
    x = RNG.standard_normal(64 * blocks).astype(np.float32)
    idx = np.concatenate([RNG.permutation(64) for _ in range(blocks)]).astype(np.uint32)
    r = run(b, [GM("x", x), GM("off", idx * 4), GM("y", np.zeros(64 * blocks, np.float32), "out"),
                GM("kept", np.zeros(8 * blocks, np.uint32), "out")], block_dim=blocks, **kw)
    assert r.ok, r.diagnostics
    want = np.concatenate([x[64 * i:64 * (i + 1)][idx[64 * i:64 * (i + 1)]] for i in range(blocks)])
    return r, want


def test_a_ub_address_kept_in_32_bits_is_the_same_in_every_run_and_block():
    b = build({"k.cpp": KEPT})
    assert b.ok, b.diagnostics
    for _ in range(3):   # each run a new kernel process, its memory placed anew by the host
        r, want = _run(b, 4)
        kept = r.outputs["kept"].reshape(4, 8)[:, :2]
        np.testing.assert_array_equal(kept, np.tile([UB_LOW32, UB_LOW32 + SRC_AT], (4, 1)))
        np.testing.assert_array_equal(r.outputs["y"], want)


def test_the_gather_from_a_kept_address_matches_numpy_with_a_larger_ub_and_another_poison():
    b = build({"k.cpp": KEPT})
    assert b.ok, b.diagnostics
    r, want = _run(b, 2, ub_bytes=256 * 1024, poison=0x00)
    assert (r.outputs["kept"].reshape(2, 8)[:, :2] >= 256 * 1024).all()
    np.testing.assert_array_equal(r.outputs["kept"].reshape(2, 8)[:, 1], UB_LOW32 + SRC_AT)
    np.testing.assert_array_equal(r.outputs["y"], want)


# vsel mode 2 reads the selMask's UB address from the compare-mask register's first 32 bits; here the kernel puts the
# low 32 bits of the mask tensor's GetPhyAddr() there (the mask high in the UB, at MASK_AT), not a small number.
# mx = max(x, y) of 256 floats through vcmpv_gt's bits.
SEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void ub_kept_sel(GM_ADDR x, GM_ADDR y, GM_ADDR mx) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    LocalTensor<float> xt(TPosition::VECCALC, 0, 256);
    LocalTensor<float> yt(TPosition::VECCALC, 1024, 256);
    LocalTensor<float> mt(TPosition::VECCALC, 2048, 256);
    LocalTensor<uint8_t> mask(TPosition::VECCALC, MASK_AT_, 64);
    LocalTensor<uint32_t> desc(TPosition::VECCALC, 4096, 8);
    __ubuf__ float* xu = reinterpret_cast<__ubuf__ float*>(xt.GetPhyAddr());
    __ubuf__ float* yu = reinterpret_cast<__ubuf__ float*>(yt.GetPhyAddr());
    __ubuf__ float* mxu = reinterpret_cast<__ubuf__ float*>(mt.GetPhyAddr());
    copy_gm_to_ubuf(xu, (__gm__ float*)x, 0, 1, 32, 0, 0);
    copy_gm_to_ubuf(yu, (__gm__ float*)y, 0, 1, 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    vcmpv_gt(reinterpret_cast<__ubuf__ uint8_t*>(mask.GetPhyAddr()), xu, yu, 4, 1, 1, 1, 8, 8, 8);
    pipe_barrier(PIPE_V);
    set_mask_count();
    set_vector_mask(0, 8);
    vector_dup(reinterpret_cast<__ubuf__ uint32_t*>(desc.GetPhyAddr()),
               static_cast<uint32_t>(reinterpret_cast<uint64_t>(mask.GetPhyAddr())), 1, 1, 1, 8, 0);
    pipe_barrier(PIPE_V);
    set_cmpmask(reinterpret_cast<__ubuf__ uint32_t*>(desc.GetPhyAddr()));
    pipe_barrier(PIPE_V);
    set_vector_mask(0, 256);
    vsel(mxu, xu, yu, 1, 1, 1, 1, 8, 8, 8, static_cast<uint8_t>(SELMODE::VSEL_TENSOR_TENSOR_MODE));
    pipe_barrier(PIPE_V);
    set_mask_norm();
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)mx, mxu, 0, 1, 32, 0, 0);
}
""".replace("MASK_AT_", str(150 * 1024))


def test_vsel_mode_2_with_the_masks_address_kept_in_32_bits_matches_numpy():
    b = build({"k.cpp": SEL})
    assert b.ok, b.diagnostics
    for poison in (0xA5, 0xFF):
        x, y = RNG.standard_normal(256).astype(np.float32), RNG.standard_normal(256).astype(np.float32)
        r = run(b, [GM("x", x), GM("y", y), GM("mx", np.zeros(256, np.float32), "out")], block_dim=1, poison=poison)
        assert r.ok, r.diagnostics
        np.testing.assert_array_equal(r.outputs["mx"], np.maximum(x, y))
