"""Cases for `ascendcraft op run`: RowNormCustom against PyTorch's softmax and an RMS normalisation with gamma."""
import torch


def reference(x, gamma, kind=0, epsilon=1e-6):
    if kind == 0:
        return torch.softmax(x.float(), dim=-1).to(x.dtype)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + epsilon) * gamma.float()).to(x.dtype)


def cases():
    g = torch.Generator().manual_seed(3)
    for dtype, tol in ((torch.float32, 1e-5), (torch.float16, 2e-3)):
        for kind, key in ((0, 1), (1, 2)):
            x = torch.randn(100, 64, generator=g).to(dtype)
            gamma = (torch.rand(64, generator=g) + 0.5).to(dtype)
            yield dict(name=f"{'softmax' if kind == 0 else 'rmsnorm'}-{str(dtype)[6:]}", inputs={"x": x, "gamma": gamma},
                       attrs={"kind": kind, "epsilon": 1e-5}, expect_key=key, atol=tol, rtol=tol)
