"""Cases for `ascendcraft op run`: MatmulBiasReluCustom against torch (float32 accumulation of float16 inputs)."""
import torch


def reference(a, b, bias):
    return torch.relu(a.float() @ b.float() + bias)


def cases():
    g = torch.Generator().manual_seed(15)
    # 200 rows do not split evenly over the cores' tiles; 256 x 64 is one block per core
    for m, n, k in ((200, 256, 128), (64, 96, 64)):
        yield dict(name=f"{m}x{n}x{k}", inputs={"a": torch.randn(m, k, generator=g).half(), "b": torch.randn(k, n, generator=g).half(),
                                                 "bias": torch.randn(n, generator=g)},
                   expect_key=1, atol=1e-3, rtol=1e-3)
