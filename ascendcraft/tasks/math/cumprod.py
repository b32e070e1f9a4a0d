import torch
import torch.nn as nn


class Model(nn.Module):
    """Inclusive cumulative product along `dim`."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


batch_size = 32768
input_shape = (32768,)
dim = 1

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"batch_size": 37, "input_shape": (1023,)}
# Products of U[0,1) values underflow after a few hundred columns, so most of the plain check is
# blind. The signed draw uses random signs with magnitudes in [0.9, 1.1): every column stays
# informative and sign flips are tested.
SIGNED = "get_signed_inputs"


def get_inputs():
    return [torch.rand(batch_size, *input_shape)]


def get_signed_inputs():
    (u,) = get_inputs()
    sign = torch.where(torch.rand(batch_size, *input_shape) < 0.5, -1.0, 1.0)
    return [sign * (0.9 + 0.2 * u)]


def get_init_inputs():
    return [dim]
