"""Cases for `ascendcraft op`: ForeachScaleCustom over tensor lists of different lengths (x and y are ParamType(DYNAMIC))."""
import torch

ATOL = {torch.float32: 1e-5, torch.float16: 1e-2}


def reference(x, alpha=1.0):
    return [(alpha * t.float()).to(t.dtype) for t in x]


def cases():
    g = torch.Generator().manual_seed(0)
    for dtype, sizes, key in ((torch.float16, (256, 64, 1024), 1), (torch.float32, (128, 2048), 2)):
        x = [torch.randn(n, generator=g).to(dtype) for n in sizes]
        yield dict(name=f"{dtype}-{len(sizes)}", inputs={"x": x}, attrs={"alpha": -0.5}, expect_key=key,
                   atol=ATOL[dtype], rtol=ATOL[dtype])
