"""ConfusionTranspose / Transpose(dst, src, [tmp,] TransposeType, ConfusionTransposeTiling): TRANSPOSE_ND2ND_ONLY
transposes an [H, W] UB tensor to [W, H] (H = param1, W = param2, as GetConfusionTransposeTilingInfo fills them and as
ops-transformer's incre_flash_attention fills them itself), against NumPy; the other TransposeTypes stop with an error
that names them; ConfusionTransposeTiling embeds in a tiling struct (nsa_compress_attention's op_host tiling)."""
from pathlib import Path

import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

KERNEL = '''#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t H = 32, W = 48;
extern "C" __global__ __aicore__ void ct(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * H * W * sizeof(DTYPE) + 1024);
    LocalTensor<DTYPE> src = buf.Get<DTYPE>();
    LocalTensor<DTYPE> dst = src[H * W];
    LocalTensor<uint8_t> tmp = src[2 * H * W].template ReinterpretCast<uint8_t>();
    GlobalTensor<DTYPE> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE *)x, H * W);
    yGm.SetGlobalBuffer((__gm__ DTYPE *)y, H * W);
    DataCopy(src, xGm, H * W);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ConfusionTransposeTiling tiling;
    const uint32_t blockSize = 32 / sizeof(DTYPE);
    tiling.param0 = blockSize;
    tiling.param1 = H;                 // height of the source
    tiling.param2 = W;                 // width of the source
    tiling.param3 = H / 16;
    tiling.param4 = H * blockSize * sizeof(DTYPE) / 32;
    tiling.param5 = W / blockSize;
    CALL;
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, dst, H * W);
}
'''


def _build(dtype: str, call: str):
    src = KERNEL.replace("DTYPE", dtype).replace("CALL;", call)
    b = build({"ct.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    return b


@pytest.mark.parametrize("dtype, np_dtype", [("half", np.float16), ("float", np.float32)])
@pytest.mark.parametrize("call", [
    "ConfusionTranspose(dst, src, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);",
    "ConfusionTranspose(dst, src, tmp, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);",
    "AscendC::Transpose(dst, src, tmp, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);",
    "Transpose<DTYPE>(dst, src, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);",
])
def test_nd2nd_only_transposes_h_by_w(dtype, np_dtype, call):
    b = _build(dtype, call.replace("DTYPE", dtype))
    x = np.random.default_rng(1).standard_normal((32, 48)).astype(np_dtype)
    r = run(b, [GM("x", x), GM("y", np.zeros(32 * 48, np_dtype), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["y"].reshape(48, 32), x.T)


def test_another_transpose_type_stops_naming_it():
    b = _build("half", "ConfusionTranspose(dst, src, tmp, TransposeType::TRANSPOSE_NZ2ND_0213, tiling);")
    r = run(b, [GM("x", np.ones((32, 48), np.float16)), GM("y", np.zeros(32 * 48, np.float16), "out")], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and "TRANSPOSE_NZ2ND_0213 is not emulated" in errs[0].message


def test_a_height_that_is_not_a_multiple_of_16_is_an_error():
    b = _build("half", "tiling.param1 = 24; ConfusionTranspose(dst, src, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);")
    r = run(b, [GM("x", np.ones((32, 48), np.float16)), GM("y", np.zeros(32 * 48, np.float16), "out")], block_dim=1)
    errs = [d for d in r.diagnostics if d.is_error]
    assert not r.ok and "multiple of 16" in errs[0].message


def test_the_tiling_embeds_in_a_tiling_struct_on_both_sides():
    src = '''#include "kernel_operator.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(OpTiling)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF_STRUCT(ConfusionTransposeTiling, ct);
END_TILING_DATA_DEF;
}
static_assert(sizeof(ConfusionTransposeTiling) == 18 * sizeof(uint32_t), "eighteen params");
static_assert(std::is_same<optiling::ConfusionTransposeTiling, AscendC::tiling::ConfusionTransposeTiling>::value, "one type");
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    optiling::OpTiling t;
    t.ct.set_param17(5);
    AscendC::GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer((__gm__ uint32_t *)x, 8);
    o.SetValue(0, t.ct.get_param17());
}
'''
    b = build({"emb.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("x", np.zeros(8, np.uint32), "out")], block_dim=1)
    assert r.ok and r.outputs["x"][0] == 5


HOST = '''#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(OpTiling)
TILING_DATA_FIELD_DEF_STRUCT(ConfusionTransposeTiling, ct);
END_TILING_DATA_DEF;
}
#include <cstdio>
int main()
{
    optiling::OpTiling t;
    std::vector<int64_t> dims = {32, 48};
    ge::Shape shape(dims);
    uint32_t maxTmp = 9, minTmp = 9;
    AscendC::GetConfusionTransposeMaxMinTmpSize(shape, sizeof(float), 7, maxTmp, minTmp);
    AscendC::GetConfusionTransposeTilingInfo(shape, 0, sizeof(float), 7, t.ct);   // 7: TRANSPOSE_ND2ND_ONLY
    std::printf("%u %u %u %u %u %u %u %u\\n", t.ct.param0, t.ct.param1, t.ct.param2, t.ct.param3, t.ct.param4,
                t.ct.param5, maxTmp, minTmp);
    AscendC::GetTransposeTilingInfo(shape, 0, sizeof(float), 1, t.ct);            // TRANSPOSE_NZ2ND_0213: not emulated
    std::printf("%u %u\\n", t.ct.param1, t.ct.param2);
    return 0;
}
'''


def test_the_host_tiling_fills_nd2nd_only_and_names_other_types(tmp_path):
    import subprocess

    import ascendcraft
    include = Path(ascendcraft.__file__).parent / "runtime" / "include"
    (tmp_path / "host.cpp").write_text(HOST)
    c = subprocess.run(["g++", "-std=c++17", "-I", str(include), "-include", "ascendcraft_emu/op_host.h",
                        str(tmp_path / "host.cpp"), "-o", str(tmp_path / "host")], capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-3000:]
    r = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True)
    # float: 8 to a 32-byte block; H = 32, W = 48; H / 16 = 2; H * 8 * 4 / 32 = 32; W / 8 = 6; no temporary space
    assert r.stdout.splitlines() == ["8 32 48 2 32 6 0 0", "0 0"]
    assert "TransposeType 1 is not emulated" in r.stderr
