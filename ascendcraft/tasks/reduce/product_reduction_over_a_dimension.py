import torch
import torch.nn as nn


class Model(nn.Module):
    """Product over dimension `dim` (the dimension is removed)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=self.dim)


batch_size = 128
dim1 = 4096
dim2 = 4096
reduce_dim = 1

# CI size: the reduction stays over the strided middle axis; an odd inner length. As at full size,
# every product of U[0,1) values is far below atol, so an all-zero output passes a plain allclose.
SMALL = {"batch_size": 5, "dim1": 37, "dim2": 1025}
# The signed draw uses random signs with magnitudes in [0.9, 1.1): products stay near 1.
SIGNED = "get_signed_inputs"


def get_inputs():
    x = torch.rand(batch_size, dim1, dim2)
    return [x]


def get_signed_inputs():
    (u,) = get_inputs()
    sign = torch.where(torch.rand(batch_size, dim1, dim2) < 0.5, -1.0, 1.0)
    return [sign * (0.9 + 0.2 * u)]


def get_init_inputs():
    return [reduce_dim]
