"""Cases for `ascendcraft op run`: inputs, attributes and the PyTorch reference of ScaleAddCustom."""
import torch

ATOL = {torch.float32: 1e-5, torch.float16: 1e-2}


def reference(x, y, alpha=1.0):
    return (x.float() + alpha * y.float()).to(x.dtype)


def cases():
    g = torch.Generator().manual_seed(0)
    for dtype, n, key in ((torch.float32, 48 * 512, 1), (torch.float32, 8 * 40960, 2), (torch.float16, 16 * 1024, 1)):
        x, y = torch.randn(n, generator=g).to(dtype), torch.randn(n, generator=g).to(dtype)
        yield dict(name=f"{dtype}-{n}", inputs={"x": x, "y": y}, attrs={"alpha": 0.5}, expect_key=key,
                   atol=ATOL[dtype], rtol=ATOL[dtype])
