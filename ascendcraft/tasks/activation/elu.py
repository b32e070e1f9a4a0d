import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ELU: x where x > 0, alpha * (exp(x) - 1) elsewhere."""

    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.elu(x, alpha=self.alpha)


batch_size = 4096
dim = 393216

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"batch_size": 37, "dim": 4099}
# Signed draw x -> (2x - 1) * 4 so that the exp branch (x <= 0) is exercised well into saturation.
SIGNED = 4.0


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return [1.0]  # alpha
