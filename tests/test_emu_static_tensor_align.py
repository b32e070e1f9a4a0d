"""Where A2 needs a UB address aligned, and where it does not (issue 13: no stop stricter than the chip).

The API reference asks a static LocalTensor(pos, addr, tileSize) for a 32-byte aligned address and says nothing of its
length; CANN's CPU-debug build asserts both, the NPU checks neither when the tensor is made. What the chip refuses is a
vector or DMA instruction whose UB operand is not 32-byte aligned; the scalar unit's GetValue / SetValue takes any
element. hicann ops-math arg_max_with_value (SMALL_LAST, run on the 910B) makes a 40-byte static tensor. The kernels
here are written for these tests in that style."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = r'''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void static_align(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 16);
    AscendC::LocalTensor<float> in(AscendC::TPosition::VECCALC, 0, 64);
    AscendC::LocalTensor<float> out(AscendC::TPosition::VECCALC, OUT_ADDR, 10);   // ten floats: 40 bytes
    AscendC::LocalTensor<float> res(AscendC::TPosition::VECCALC, 2048, 16);
    AscendC::DataCopy(in, xg, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);
    COMPUTE
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
    for (int i = 0; i < 10; ++i) res.SetValue(i, out.GetValue(i) * 2.0f);
    for (int i = 10; i < 16; ++i) res.SetValue(i, 0.0f);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yg, res, 16);
}
'''
VECTOR = "AscendC::Adds(out, in, 1.0f, 10);"
SCALAR = "for (int i = 0; i < 10; ++i) out.SetValue(i, in.GetValue(i) + 1.0f);"


def _run(tmp_path, out_addr, compute, shift=0):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.replace("OUT_ADDR", str(out_addr)).replace("COMPUTE", compute))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.random.default_rng(13).standard_normal(64).astype(np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.float32), "out")], block_dim=1)
    want = np.zeros(16, np.float32)
    want[:10] = (x[shift:shift + 10] + 1) * 2
    return r, want


def _errors(r):
    return [d for d in r.diagnostics if d.is_error]


def test_a_static_tensor_of_40_bytes_at_an_aligned_address_runs_as_the_npu(tmp_path):
    r, want = _run(tmp_path, 1024, VECTOR)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_allclose(r.outputs["y"], want, rtol=1e-6)
    notes = [d for d in r.diagnostics if d.kind == "ub-misaligned"]   # CANN's CPU-debug build would stop: a warning
    assert len(notes) == 1 and not notes[0].is_error and "40 bytes" in notes[0].message
    assert "out(AscendC::TPosition::VECCALC" in notes[0].source_line


def test_a_vector_instruction_on_a_misaligned_static_tensor_stops_at_the_instruction(tmp_path):
    r, _ = _run(tmp_path, 1024 + 16, VECTOR)
    e = _errors(r)
    assert e and e[0].kind == "ub-misaligned" and "1040" in e[0].message and "Adds" in e[0].source_line, \
        [d.render() for d in r.diagnostics]
    # the constructor itself only notes the documented address rule
    assert any(d.kind == "ub-misaligned" and not d.is_error and "address 1040" in d.message for d in r.diagnostics)


def test_the_scalar_unit_reads_and_writes_a_misaligned_static_tensor(tmp_path):
    r, want = _run(tmp_path, 1024 + 4, SCALAR)
    assert r.ok, [d.render() for d in r.diagnostics]
    np.testing.assert_allclose(r.outputs["y"], want, rtol=1e-6)


@pytest.mark.parametrize("compute, stops", [
    ("AscendC::Adds(out, in[4], 1.0f, 10);", True),                               # src at UB byte 16
    ("AscendC::Adds(out, in[8], 1.0f, 10);", False),                              # src at UB byte 32
    ("for (int i = 0; i < 10; ++i) out.SetValue(i, in[4].GetValue(i) + 1.0f);", False),
])
def test_a_tensor_made_at_an_offset_is_checked_where_an_instruction_takes_it(tmp_path, compute, stops):
    shift = 8 if "in[8]" in compute else 4
    r, want = _run(tmp_path, 1024, compute, shift)
    if stops:
        e = _errors(r)
        assert e and e[0].kind == "ub-misaligned" and "UB offset 16" in e[0].message and "Adds" in e[0].source_line, \
            [d.render() for d in r.diagnostics]
    else:
        assert r.ok, [d.render() for d in r.diagnostics]
        np.testing.assert_allclose(r.outputs["y"], want, rtol=1e-6)
