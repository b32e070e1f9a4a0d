import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over dim 1: exp(x - max) / sum(exp(x - max))."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


batch_size = 4096
dim = 393216

# CI size keeps both traps of the full task: a row of 65537 floats (256 KiB, odd) does not fit
# in the 192 KiB UB, and every output (~1/65537 = 1.5e-5) is below atol = 1e-4, so an all-zero
# output would pass a plain allclose.
SMALL = {"batch_size": 3, "dim": 65537}


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
