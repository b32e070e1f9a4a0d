"""The L0C -> GM copy in its other AscendC spellings, on the low-level GEMM of cube_gemm.cpp: DataCopy with
DataCopyCO12DstParams (nz2ndEn with SetFixpipeNz2ndFlag, or the register whole with SetNdParaImpl; DEQF16 with SetFixpipePreQuantFlag's scalar, which the NPU takes
with 10 mantissa bits) and the older Fixpipe(FixpipeParams<T>) (bursts of 16 columns, burstLen in 32-byte blocks)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

GEMM = Path(__file__).parent / "emu_kernels" / "good" / "cube_gemm.cpp"
FIXPIPE = "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
QUANT = ("        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;\n"
         "        else p.quantPre = QuantMode_t::NoQuant;\n")
SCALE = np.float32(1 / 3)        # 0x3EAAAAAB: the NPU uses 0x3EAAA000

FORMS = {
    "datacopy": """        SetFixpipeNz2ndFlag(1, 0, 0);
        DataCopyCO12DstParams d;
        d.nSize = N; d.mSize = M; d.srcStride = m1 * 16; d.dstStride = N; d.nz2ndEn = true;
        if constexpr (std::is_same<CT, int32_t>::value && std::is_same<OT, half>::value) {
            d.quantPre = QuantMode_t::DEQF16;
            SetFixpipePreQuantFlag(static_cast<uint64_t>(0x3EAAAAABu));
        } else if constexpr (std::is_same<OT, half>::value) d.quantPre = QuantMode_t::F322F16;
        DataCopy(cGm, c1, d);
""",
    # the ND_PARA register whole (SetNdParaImpl, as ops-transformer's attention-grad cube code sets it): one ND matrix
    # in bits 15:0; the strides above it (unused for one matrix) must not leak into the count
    "datacopy_nd_para": """        SetNdParaImpl((uint64_t{7} << 32) | (uint64_t{5} << 16) | 1);
        DataCopyCO12DstParams d;
        d.nSize = N; d.mSize = M; d.srcStride = m1 * 16; d.dstStride = N; d.nz2ndEn = true;
        if constexpr (std::is_same<CT, int32_t>::value && std::is_same<OT, half>::value) {
            d.quantPre = QuantMode_t::DEQF16;
            SetFixpipePreQuantFlag(static_cast<uint64_t>(0x3EAAAAABu));
        } else if constexpr (std::is_same<OT, half>::value) d.quantPre = QuantMode_t::F322F16;
        DataCopy(cGm, c1, d);
""",
    "fixpipe_params": """        FixpipeParams<CT> f(static_cast<uint16_t>(n1), static_cast<uint16_t>(M * 16 * sizeof(CT) / 32), 0, N);
        f.nz2ndParams = Nz2NdParams(true, 1, 0, 0, static_cast<uint16_t>(N));
        if constexpr (std::is_same<CT, int32_t>::value && std::is_same<OT, half>::value)
            f.quantParams = QuantParams(QuantMode_t::DEQF16, static_cast<uint64_t>(0x3EAAAAABu));
        else if constexpr (std::is_same<OT, half>::value) f.quantParams = QuantParams(QuantMode_t::F322F16);
        Fixpipe(cGm, c1, f);
""",
}
DEQ_ENTRY = """
extern "C" __global__ __aicore__ void gemm_i8_deq(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k)
{
    CubeGemm<int8_t, int32_t, half, true, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}
"""


def _kernel(tmp_path, form):
    src = GEMM.read_text()
    assert FIXPIPE in src and QUANT in src
    src = src.replace(QUANT, "").replace(FIXPIPE, FORMS[form]) + DEQ_ENTRY
    path = tmp_path / f"{form}.cpp"
    path.write_text(src)
    return path


@pytest.mark.parametrize("form", sorted(FORMS))
def test_half_gemm_out_through_the_other_l0c_copies(form, tmp_path):
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(2)
    a, bm = rng.standard_normal((m, k)).astype(np.float16), rng.standard_normal((k, n)).astype(np.float16)
    b = build(_kernel(tmp_path, form), entry="gemm_f16")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float16), "out"), Scalar(m, "uint32_t"),
                Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"].astype(np.float64), a.astype(np.float64) @ bm.astype(np.float64),
                               rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_int8_gemm_dequantised_to_half_with_a_10_bit_scale(form, tmp_path):
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(4)
    a, bm = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
    acc = (a.astype(np.int64) @ bm.astype(np.int64)).astype(np.float32)
    hw = np.uint32(0x3EAAA000).view(np.float32)
    assert np.uint32(0x3EAAAAAB).view(np.float32) == SCALE
    ref = (acc * hw).astype(np.float16)
    assert (ref != (acc * SCALE).astype(np.float16)).any()
    b = build(_kernel(tmp_path, form), entry="gemm_i8_deq")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("c", np.zeros((m, n), np.float16), "out"),
                Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], ref)
