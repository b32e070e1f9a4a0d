"""Cases for `ascendcraft op`: TplScaleCustom, a tiling-template operator (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL). The
tiling function picks the dtype, the tile count and the squaring, and encodes them into the key: dtype | index of the
tile count in (1, 4) << 8 | square << 10; the run runs the kernel instance of that key."""
import torch

TOL = {torch.float32: 1e-5, torch.float16: 2e-3}


def reference(x, scale, square):
    y = x.float() * scale
    return (y * y if square else y).to(x.dtype)


def cases():
    g = torch.Generator().manual_seed(0)
    for dtype, n, square, key in ((torch.float32, 48 * 64, False, 0),             # one tile a core
                                  (torch.float32, 48 * 4 * 64, True, 1 << 8 | 1 << 10),   # four tiles, squared
                                  (torch.float16, 8 * 64, False, 1 | 1 << 8)):     # float16: four tiles
        x = torch.randn(n, generator=g).to(dtype)
        yield dict(name=f"{dtype}-{n}-{'square' if square else 'plain'}", inputs={"x": x},
                   attrs={"scale": 1.5, "square": square}, expect_key=key, atol=TOL[dtype], rtol=TOL[dtype])
