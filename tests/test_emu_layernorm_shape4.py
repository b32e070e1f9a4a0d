"""The LayerNorm family's host tilings take the documented 4-D srcShape {B, S, storageHLength, originHLength}
(LayerNorm-Tiling, LayerNormGrad-Tiling, LayerNormGradBeta-Tiling in the API reference), as the asc-devkit layernorm
example passes it ({2, 32, 16, 16}); a 3-D [B, S, H] keeps its meaning (origin H = H)."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

HOST = r'''#include "tiling/tiling_api.h"
#include <cstdio>
int main() {
    for (auto dims : {std::vector<int64_t>({2, 32, 16, 16}), std::vector<int64_t>({2, 4, 16, 10}),
                      std::vector<int64_t>({2, 32, 16})}) {
        ge::Shape shape(dims);
        uint32_t mx = 0, mn = 0;
        AscendC::GetLayerNormMaxMinTmpSize(shape, 4, false, mx, mn);
        optiling::LayerNormTiling ln;
        AscendC::GetLayerNormNDTilingInfo(shape, mn, 4, false, ln);
        optiling::LayerNormGradTiling g;
        AscendC::GetLayerNormGradNDTilingInfo(shape, 4096, 4, false, g);
        optiling::LayerNormGradBetaTiling gb;
        AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 4096, 4, false, gb);
        float inv = 0;
        uint32_t bits = g.get_lastDimValueBack();
        std::memcpy(&inv, &bits, 4);
        std::printf("%u %u %u %u %u %g | %u %u %u %u %g | %u %u %u\n", mx / mn, ln.get_bLength(), ln.get_sLength(),
                    ln.get_hLength(), ln.get_originalHLength(), ln.get_lastDimValueBack(), g.get_bLength(),
                    g.get_sLength(), g.get_hLength(), g.get_originalHLength(), inv, gb.get_bLength(), gb.get_sLength(),
                    gb.get_bshLength());
    }
}
'''


def test_layernorm_tilings_read_the_4d_shape(tmp_path):
    (tmp_path / "host.cpp").write_text(HOST)
    made = subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True).stdout.splitlines()
    # {B, S, storageH, originH}: 64 rows of 16, not 1024 rows (B folded from the leading three dims)
    assert out[0].split() == "64 2 32 16 16 0.0625 | 2 32 16 16 0.0625 | 2 32 1024".split()
    # an origin H below the stored H: the mean's divisor is the origin H
    assert out[1].split() == "8 2 4 16 10 0.1 | 2 4 16 10 0.1 | 2 4 128".split()
    assert out[2].split() == "64 2 32 16 16 0.0625 | 2 32 16 16 0.0625 | 2 32 1024".split()
