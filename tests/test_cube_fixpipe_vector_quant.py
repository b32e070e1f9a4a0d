"""Fixpipe's per-channel dequantisation (VDEQF16: int32 -> half, one scale per output column) on the low-level int8 GEMM
of cube_gemm.cpp. The scales are uint64_t words, each a float in its low 32 bits of which the NPU keeps 10 mantissa
bits (as DEQF16's scalar); they reach the Fixpipe through the Fixpipe buffer (GM -> L1 with DataCopy, L1 -> C2PIPE2GM
with DataCopy in 128-byte bursts, then SetFixPipeConfig) or as the cbufWorkspace argument (in L1). A VDEQF16 with no
vector named, or one shorter than nSize, is an error at the Fixpipe's line."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, Scalar, build, run

GEMM = Path(__file__).parent / "emu_kernels" / "good" / "cube_gemm.cpp"
FIXPIPE = "        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);\n"
QUANT = ("        if constexpr (std::is_same<OT, half>::value) p.quantPre = QuantMode_t::F322F16;\n"
         "        else p.quantPre = QuantMode_t::NoQuant;\n")
# the scales: GM -> L1 (C1), as the API reference's example does; `channels` of them
TO_L1 = """        GlobalTensor<uint64_t> sGm;
        sGm.SetGlobalBuffer((__gm__ uint64_t *)g_scales, N);
        TBuf<TPosition::C1> scalesL1;
        pipe.InitBuffer(scalesL1, (N * 8 + 127) / 128 * 128);
        LocalTensor<uint64_t> s1 = scalesL1.Get<uint64_t>();
        DataCopy(s1, sGm, (g_channels * 8 + 31) / 32 * 4);
        p.quantPre = QuantMode_t::VDEQF16;
"""
FORMS = {
    "fixpipe_buffer": TO_L1 + """        TBuf<TPosition::C2PIPE2GM> scalesFb;
        pipe.InitBuffer(scalesFb, (g_channels * 8 + 127) / 128 * 128);
        LocalTensor<uint64_t> sf = scalesFb.Get<uint64_t>();
        DataCopy(sf, s1, DataCopyParams(1, static_cast<uint16_t>((g_channels * 8 + 127) / 128), 0, 0));
        SetFixPipeConfig(sf);
        PipeBarrier<PIPE_FIX>();
        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);
""",
    "workspace": TO_L1 + """        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, s1[0], p);
""",
    "not_set": TO_L1 + """        Fixpipe<OT, CT, CFG_ROW_MAJOR>(cGm, c1, p);   // no SetFixPipeConfig
""",
}
ENTRY = """
__gm__ uint8_t *g_scales = nullptr;
uint32_t g_channels = 0;
extern "C" __global__ __aicore__ void gemm_i8_vdeq(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR s, uint32_t m, uint32_t n,
                                                   uint32_t k, uint32_t channels)
{
    g_scales = s;
    g_channels = channels;
    CubeGemm<int8_t, int32_t, half, true, false> op;
    op.Init(a, b, c, m, n, k);
    op.Process();
}
"""


def _build(tmp_path, form):
    src = GEMM.read_text()
    assert FIXPIPE in src and QUANT in src
    src = src.replace("#include \"kernel_operator.h\"\n", "#include \"kernel_operator.h\"\nextern __gm__ uint8_t *g_scales;\n"
                      "extern uint32_t g_channels;\n", 1)
    src = src.replace(QUANT, "").replace(FIXPIPE, FORMS[form]) + ENTRY
    path = tmp_path / f"{form}.cpp"
    path.write_text(src)
    b = build(path, entry="gemm_i8_vdeq")
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b, src


def _run(b, m, n, k, channels, seed=6):
    rng = np.random.default_rng(seed)
    a, bm = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
    scales = rng.uniform(0.001, 0.01, n).astype(np.float32)
    words = np.zeros(max(n, channels), np.uint64)
    words[:n] = scales.view(np.uint32).astype(np.uint64)
    r = run(b, [GM("a", a), GM("b", np.ascontiguousarray(bm.T)), GM("c", np.zeros((m, n), np.float16), "out"),
                GM("s", words), Scalar(m, "uint32_t"), Scalar(n, "uint32_t"), Scalar(k, "uint32_t"),
                Scalar(channels, "uint32_t")], block_dim=1)
    kept = (scales.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)   # 10 mantissa bits, as the NPU keeps
    acc = (a.astype(np.int64) @ bm.astype(np.int64)).astype(np.float32)
    return r, (acc * kept).astype(np.float16), (acc * scales).astype(np.float16)


@pytest.mark.parametrize("form", ["fixpipe_buffer", "workspace"])
def test_vdeqf16_scales_each_output_column_by_its_channel(form, tmp_path):
    b, _ = _build(tmp_path, form)
    r, want, full_precision = _run(b, 32, 48, 64, 48)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["c"], want)
    assert (want != full_precision).any()          # the 10-bit scales are what the numbers show


def test_vdeqf16_without_a_vector_is_an_error_at_the_fixpipe(tmp_path):
    b, src = _build(tmp_path, "not_set")
    r, _, _ = _run(b, 32, 48, 64, 48)
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "fixpipe-quant" and "SetFixPipeConfig" in err.message + err.hint
    assert "// no SetFixPipeConfig" in src.splitlines()[err.line - 1]


def test_vdeqf16_with_fewer_channels_than_columns_is_an_error(tmp_path):
    b, _ = _build(tmp_path, "fixpipe_buffer")
    r, _, _ = _run(b, 32, 48, 64, 16)      # 16 scales moved into the Fixpipe buffer for 48 columns
    err = next(d for d in r.diagnostics if d.is_error)
    assert err.kind == "fixpipe-quant" and "48 channels" in err.message and "holds 16" in err.message
