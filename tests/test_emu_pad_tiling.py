"""The host side of Pad / UnPad (lib/pad/pad_tiling.h, tiling/tiling_api.h): GetPadMaxMinTmpSize, PadTilingFunc,
GetUnPadMaxMinTmpSize, UnPadTilingFunc, as the asc-devkit pad / unpad examples call them; the tiling they fill drives
the emulated Pad to NumPy's result."""
import subprocess

import numpy as np

from ascendcraft.emu import GM, INCLUDE_DIR, build, run

HOST = r'''#include "lib/pad/pad_tiling.h"
#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    uint32_t mx = 7, mn = 7;
    AscendC::GetPadMaxMinTmpSize(ge::Shape({32, 30}), sizeof(float), mx, mn);
    std::printf("%u %u\n", mx, mn);
    AscendC::GetPadMaxMinTmpSize(ge::Shape({5, 20}), 2, mx, mn);
    std::printf("%u %u\n", mx, mn);
    optiling::PadTiling pt;
    AscendC::PadTilingFunc(ge::Shape({32, 32}), ge::Shape({32, 30}), mn, sizeof(float), pt);
    std::printf("%u %u %u\n", pt.get_srcHeight(), pt.get_srcWidth(), pt.get_srcOriWidth());
    platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    mx = mn = 7;
    AscendC::GetUnPadMaxMinTmpSize(*platform, ge::Shape({16, 64}), 2, mx, mn);
    AscendC::tiling::UnPadTiling ut;
    AscendC::UnPadTilingFunc(ge::Shape({16, 64}), 0, 2, ut);
    std::printf("%u %u %u %u\n", mx, mn, ut.get_srcHeight(), ut.get_srcWidth());
    mx = mn = 7;
    AscendC::GetPadMaxMinTmpSize(ge::Shape({16}), 4, mx, mn);
    std::printf("%u %u\n", mx, mn);
}
'''


def test_host_pad_tiling(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)
    rows = [list(map(int, line.split())) for line in out.stdout.splitlines()]
    # two 16-row lists of 32-byte blocks: once at least, once per 16 elements at most
    assert rows[0] == [(32 * 30 // 16) * 16 * 8 * 2 * 4, 16 * 8 * 2 * 4]
    assert rows[1] == [((100 + 15) // 16) * 16 * 16 * 2 * 2, 16 * 16 * 2 * 2]
    assert rows[2] == [32, 32, 30]
    assert rows[3] == [0, 0, 16, 64]                                  # A2's UnPad needs no temporaries
    assert rows[4] == [7, 7] and "srcShape must be 2-D" in out.stderr   # a 1-D shape: an error, sizes untouched


KERNEL = r'''#include "kernel_operator.h"
#include "lib/pad/pad.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void pad(GM_ADDR x, GM_ADDR y, GM_ADDR t)
{
    PadTiling tiling;
    uint32_t *tp = (uint32_t *)&tiling;
    for (uint32_t i = 0; i < sizeof(PadTiling) / 4; ++i) tp[i] = ((__gm__ uint32_t *)t)[i];
    const uint32_t H = tiling.srcHeight, W = tiling.srcWidth;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ib, ob, tb;
    pipe.InitBuffer(ib, H * W * 4);
    pipe.InitBuffer(ob, H * W * 4);
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, H * W);
    yg.SetGlobalBuffer((__gm__ float *)y, H * W);
    LocalTensor<float> a = ib.Get<float>(), o = ob.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(a, xg, H * W);
    PadParams params{0, 2, 0};
    Pad(o, a, params, tmp, tiling);
    DataCopy(yg, o, H * W);
}
'''


def test_pad_runs_on_the_host_tiling(tmp_path):
    "PadTilingFunc's tiling (an aligned width 32 whose last 2 columns are not data) drives Pad to NumPy's result."
    (tmp_path / "host.cpp").write_text(r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() { uint32_t mx, mn; AscendC::GetPadMaxMinTmpSize(ge::Shape({8, 30}), 4, mx, mn);
    optiling::PadTiling t; AscendC::PadTilingFunc(ge::Shape({8, 32}), ge::Shape({8, 30}), mn, 4, t);
    std::fwrite(&t, sizeof(t), 1, stdout); }''')
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    tiling = np.frombuffer(subprocess.run([str(tmp_path / "host")], capture_output=True, check=True).stdout, np.uint32)
    x = np.arange(8 * 32, dtype=np.float32).reshape(8, 32)
    r = run(build({"k.cpp": KERNEL}), [GM("x", x.reshape(-1)), GM("y", np.zeros(8 * 32, np.float32), "out"),
                                       GM("t", tiling.copy())], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    want = x.copy()
    want[:, 30:] = 0
    np.testing.assert_array_equal(r.outputs["y"].reshape(8, 32), want)
