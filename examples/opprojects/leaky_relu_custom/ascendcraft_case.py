"""Cases for `ascendcraft op run`: LeakyReluCustom against torch.nn.functional.leaky_relu."""
import torch


def reference(x, negative_slope=0.01):
    return torch.nn.functional.leaky_relu(x.float(), negative_slope).to(x.dtype)


def cases():
    g = torch.Generator().manual_seed(1)
    # 48 cores x 2 units: even (key 1); 100 units over 48 cores: uneven (key 2); float16 uneven
    for dtype, n, key in ((torch.float32, 48 * 2 * 64, 1), (torch.float32, 100 * 64, 2), (torch.float16, 50 * 128, 2)):
        yield dict(name=f"{dtype}-{n}", inputs={"x": torch.randn(n, generator=g).to(dtype)}, attrs={"negative_slope": 0.2},
                   expect_key=key, atol=1e-3 if dtype == torch.float16 else 1e-6, rtol=1e-3 if dtype == torch.float16 else 1e-6)
