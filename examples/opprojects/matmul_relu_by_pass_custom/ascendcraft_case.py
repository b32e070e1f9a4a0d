"""Cases for `ascendcraft op run`: MatmulReluByPassCustom against torch (float32 accumulation of float16 inputs)."""
import torch


def reference(x, w, negative_slope=0.0):
    return torch.nn.functional.leaky_relu(x.float() @ w.float().T, negative_slope)


def cases():
    g = torch.Generator().manual_seed(29)
    # 800 rows: 50 tiles, 3 a group over 17 groups, the last group's 2 short (and the slots reused: back-pressure);
    # 32 rows: two groups of one tile each
    for m, n, k, slope, key in ((800, 64, 128, 0.0, 1), (32, 128, 256, 0.125, 2)):
        yield dict(name=f"{m}x{n}x{k}-slope{slope}", inputs={"x": torch.randn(m, k, generator=g).half(),
                                                            "w": torch.randn(n, k, generator=g).half()},
                   attrs={"negative_slope": slope}, expect_key=key, atol=1e-3, rtol=1e-3)
