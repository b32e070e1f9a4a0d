import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softplus: log(1 + exp(x)), linear above the threshold 20 (beta = 1)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.softplus(x)


batch_size = 4096
dim = 393216

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"batch_size": 37, "dim": 4099}
SIGNED = 30.0  # x in [-30, 30): both the linear branch above 20 and the vanishing tail below 0


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
