"""Static Tensor programming (the asc-devkit single-source examples): LocalMemAllocator<Hardware::UB> hands out
LocalTensors one after the other from UB address 0, and LocalTensor(TPosition, addr, tileSize) places one by hand.
Checked against NumPy, against the addresses AscendC documents (GetCurAddr moves by the tensor's bytes), and with the
documented misuses (a tensor past the end of its memory) stopping at the call; a length that is not whole 32-byte
blocks moves the allocator to an unaligned address, and the first instruction there stops (tests/
test_emu_static_tensor_align.py has the rule)."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void static_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR addrs)
{
    constexpr uint32_t n = 256;
    AscendC::GlobalTensor<float> xg, yg, zg;
    AscendC::GlobalTensor<uint32_t> ag;
    xg.SetGlobalBuffer((__gm__ float *)x + AscendC::GetBlockIdx() * n, n);
    yg.SetGlobalBuffer((__gm__ float *)y + AscendC::GetBlockIdx() * n, n);
    zg.SetGlobalBuffer((__gm__ float *)z + AscendC::GetBlockIdx() * n, n);
    ag.SetGlobalBuffer((__gm__ uint32_t *)addrs, 8);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    uint32_t a0 = ub.GetCurAddr();
    AscendC::LocalTensor<float> xl = ub.Alloc<float, n>();
    uint32_t a1 = ub.GetCurAddr();
    AscendC::LocalTensor<float> yl = ub.Alloc<AscendC::TPosition::VECIN, float>(n);
    uint32_t a2 = ub.GetCurAddr();
    AscendC::LocalTensor<half> hl = ub.Alloc<half>(48);
    uint32_t a3 = ub.GetCurAddr();
    AscendC::LocalTensor<float> zl(AscendC::TPosition::VECOUT, a3, n);     // by hand, after the allocator's tensors
    AscendC::DataCopy(xl, xg, n);
    AscendC::DataCopy(yl, yg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Add(zl, xl, yl, n);
    AscendC::Mul(zl, zl, xl, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zg, zl, n);
    if (AscendC::GetBlockIdx() == 0) {
        ag.SetValue(0, a0); ag.SetValue(1, a1); ag.SetValue(2, a2); ag.SetValue(3, a3);
        ag.SetValue(4, (uint32_t)(xl.GetSize())); ag.SetValue(5, (uint32_t)hl.GetSize());
        ag.SetValue(6, (uint32_t)(zl.GetPhyAddr() - xl.GetPhyAddr())); ag.SetValue(7, (uint32_t)yl.GetPosition());
    }
}
'''


def _args(x, y):
    return [GM("x", x), GM("y", y), GM("z", np.zeros_like(x), "out"), GM("addrs", np.zeros(8, np.uint32), "out")]


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    src = tmp_path_factory.mktemp("st") / "static_add.cpp"
    src.write_text(KERNEL)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


def test_allocator_tensors_compute_as_numpy_and_sit_where_ascendc_puts_them(kernel):
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal(512).astype(np.float32), rng.standard_normal(512).astype(np.float32)
    r = run(kernel, _args(x, y), block_dim=2)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_allclose(r.outputs["z"], (x + y) * x, rtol=1e-6)
    # from UB address 0, each Alloc moves the next address by exactly its bytes (48 halves = 96 bytes)
    assert r.outputs["addrs"].tolist() == [0, 1024, 2048, 2144, 256, 48, 2144, 9]   # 9 = TPosition::VECIN


def test_an_allocator_moved_off_the_32_byte_grid_stops_at_the_first_instruction_there(tmp_path):
    "48 halves are 96 bytes; 40 are 80, so zl lands at 2048 + 80 = 2128: made with a note, refused by Add (the NPU's rule)."
    src = tmp_path / "odd.cpp"
    src.write_text(KERNEL.replace("ub.Alloc<half>(48)", "ub.Alloc<half>(40)"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.ones(256, np.float32)
    r = run(b, _args(x, x), block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == "ub-misaligned" and "UB offset 2128" in e[0].message, [d.render() for d in r.diagnostics]
    assert "AscendC::Add(zl, xl, yl, n)" in e[0].source_line
    notes = [d.source_line for d in r.diagnostics if d.kind == "ub-misaligned" and not d.is_error]
    assert any("ub.Alloc<half>(40)" in n for n in notes) and any("zl(AscendC::TPosition::VECOUT" in n for n in notes)


@pytest.mark.parametrize("edit, kind, words, line", [
    ("zl(AscendC::TPosition::VECOUT, a3, n)", "ub-out-of-range", "past the 196608 bytes of UB on Ascend 910B",
     "zl(AscendC::TPosition::VECOUT, 196608 - 512, n)"),
    ("ub.Alloc<float, n>()", "ub-out-of-range", "past the 196608 bytes of UB on Ascend 910B", "ub.Alloc<float, 50000>()"),
])
def test_a_misplaced_static_tensor_stops_at_its_line(tmp_path, edit, kind, words, line):
    src = tmp_path / "bad.cpp"
    src.write_text(KERNEL.replace(edit, line))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.ones(256, np.float32)
    r = run(b, _args(x, x), block_dim=1)
    e = [d for d in r.diagnostics if d.is_error]
    assert e and e[0].kind == kind and words in e[0].message and line in e[0].source_line, [d.render() for d in e]


def test_the_allocator_checks_the_position_against_its_memory(tmp_path):
    "As in AscendC, a logical position of another memory does not compile (a static_assert)."
    src = tmp_path / "pos.cpp"
    src.write_text(KERNEL.replace("ub.Alloc<AscendC::TPosition::VECIN, float>(n)", "ub.Alloc<AscendC::TPosition::A1, float>(n)"))
    b = build(src)
    assert not b.ok and any("hardware pos not matched" in d.message for d in b.diagnostics)


ATOMIC = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void atomic_then_plain(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 128);
    AscendC::LocalMemAllocator<> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, 64>();
    AscendC::DataCopy(a, xg, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::SetAtomicAdd<float>();
    AscendC::DataCopy(yg, a, 64);              // adds x to y[0:64]
    AscendC::DisableDmaAtomic();
    AscendC::DataCopy(yg[64], a, 64);          // overwrites y[64:128]
}
'''


def test_disable_dma_atomic_ends_the_atomic_add(tmp_path):
    "The devkit examples' DisableDmaAtomic: after it, a copy to GM overwrites again (as SetAtomicNone)."
    src = tmp_path / "atomic.cpp"
    src.write_text(ATOMIC)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x, y = np.arange(64, dtype=np.float32), np.full(128, 10, np.float32)
    r = run(b, [GM("x", x), GM("y", y, "inout")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], np.concatenate([x + 10, x]))


PAD = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void pad_value(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half *)x, 40);
    yg.SetGlobalBuffer((__gm__ half *)y, 64);
    AscendC::LocalMemAllocator<> ub;
    AscendC::LocalTensor<half> a = ub.Alloc<half, 64>();
    AscendC::DataCopyExtParams copy{2, 20 * sizeof(half), 0, 0, 0};   // 2 rows of 20 halves from GM
    AscendC::DataCopyPadExtParams<half> pad{false, 0, 12, (half)7};    // isPad false: paddingValue is not used
    AscendC::SetPadValue((half)1.5f);
    AscendC::DataCopyPad(a, xg, copy, pad);                            // each row: 20 values, then 12 x 1.5
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, a, 64);
}
'''


def test_set_pad_value_fills_the_padding_of_a_datacopypad_without_ispad(tmp_path):
    "asc-devkit data_copy_pad scenario 1: SetPadValue gives the value; isPad = true would use paddingValue instead."
    src = tmp_path / "pad.cpp"
    src.write_text(PAD)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(40, dtype=np.float16)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float16), "out")], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    row = lambda k: np.concatenate([x[20 * k:20 * k + 20], np.full(12, 1.5, np.float16)])
    np.testing.assert_array_equal(r.outputs["y"], np.concatenate([row(0), row(1)]))
    src.write_text(PAD.replace("pad{false,", "pad{true,"))             # isPad: the paddingValue, 7
    b = build(src)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float16), "out")], block_dim=1)
    assert r.ok and (r.outputs["y"][20:32] == 7).all() and (r.outputs["y"][52:] == 7).all()
