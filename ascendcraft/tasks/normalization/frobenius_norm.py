import torch
import torch.nn as nn


class Model(nn.Module):
    """x divided by the Frobenius norm of the whole tensor, sqrt(sum(x ** 2))."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = torch.norm(x, p="fro")
        return x / norm


batch_size = 128
features = 64
dim1 = 512
dim2 = 512

# CI size: odd spatial sizes, a total that 48 cores cannot split evenly. (The full size's other
# trap - outputs below atol - needs ~3e8 elements and cannot be kept small.)
SMALL = {"batch_size": 3, "features": 7, "dim1": 63, "dim2": 65}


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return []
