"""Cases for `ascendcraft op`: ScaleByScalarCustom, whose definition a macro writes (include/ewise/ewise_opdef.h).
The scalar is a one-element float32 tensor for float16 and float32 x alike: the dtype the definition computes."""
import torch

ATOL = {torch.float32: 1e-5, torch.float16: 1e-2}


def reference(x, scalar):
    return (x.float() * scalar.float()[0]).to(x.dtype)


def cases():
    g = torch.Generator().manual_seed(0)
    for dtype, n, key in ((torch.float16, 4 * 1024, 1), (torch.float32, 96 * 1024, 2)):
        x = torch.randn(n, generator=g).to(dtype)
        yield dict(name=f"{dtype}-{n}", inputs={"x": x, "scalar": torch.tensor([-1.75])}, expect_key=key,
                   atol=ATOL[dtype], rtol=ATOL[dtype])
