import torch
import torch.nn as nn


class Model(nn.Module):
    """Cumulative sum along `dim` of the elements where the torch.bool `mask` is True."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)


batch_size = 32768
input_shape = (32768,)
dim = 1

# CI size: odd row length (rows not 32-byte aligned; a bool row of 1023 bytes is not either),
# a row count that 48 cores cannot split evenly.
SMALL = {"batch_size": 37, "input_shape": (1023,)}


def get_inputs():
    x = torch.rand(batch_size, *input_shape)
    mask = torch.randint(0, 2, x.shape).bool()  # torch.bool, one byte per element
    return [x, mask]


def get_init_inputs():
    return [dim]
