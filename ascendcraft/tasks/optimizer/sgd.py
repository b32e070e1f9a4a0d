import torch
import torch.nn as nn


class Model(nn.Module):
    """One SGD-with-momentum step; returns only the updated parameter."""

    def __init__(self, momentum: float = 0.9, lr: float = 1e-2):
        super().__init__()
        self.momentum = momentum
        self.lr = lr

    def forward(self, param: torch.Tensor, grad: torch.Tensor, velocity: torch.Tensor) -> torch.Tensor:
        velocity = self.momentum * velocity + grad
        return param - self.lr * velocity


rows = 1024
cols = 4096

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"rows": 37, "cols": 1023}
# The signed draw gives a random signed velocity, so that the momentum term matters.
SIGNED = "get_signed_inputs"


def get_inputs():
    param = torch.rand(rows, cols)
    grad = torch.rand(rows, cols)
    velocity = torch.zeros_like(param)
    return [param, grad, velocity]


def get_signed_inputs():
    param, grad, _ = get_inputs()
    velocity = torch.rand_like(param) * 2 - 1
    return [param * 2 - 1, grad * 2 - 1, velocity]


def get_init_inputs():
    return []
