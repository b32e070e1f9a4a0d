import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A * s for a matrix A and a Python float s (not a tensor)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, s: float) -> torch.Tensor:
        return A * s


M = 65536
N = 16384

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"M": 129, "N": 1025}


def get_inputs():
    A = torch.rand(M, N)
    s = 3.14  # a Python float
    return [A, s]


def get_init_inputs():
    return []
