import torch
import torch.nn as nn


class Model(nn.Module):
    """One Adagrad step; returns only the updated parameter."""

    def __init__(self, lr: float = 1e-2, eps: float = 1e-10):
        super().__init__()
        self.lr = lr
        self.eps = eps

    def forward(self, param: torch.Tensor, grad: torch.Tensor, accum: torch.Tensor) -> torch.Tensor:
        accum = accum + grad.pow(2)
        return param - self.lr * grad / (accum.sqrt() + self.eps)


rows = 1024
cols = 4096

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"rows": 37, "cols": 1023}
# The accumulator must stay >= 0; the signed draw also makes it non-zero so that it matters.
SIGNED = "get_signed_inputs"


def get_inputs():
    param = torch.rand(rows, cols)
    grad = torch.rand_like(param)
    accum = torch.zeros_like(param)
    return [param, grad, accum]


def get_signed_inputs():
    param, grad, _ = get_inputs()
    accum = torch.rand_like(param)
    return [param * 2 - 1, grad * 2 - 1, accum]


def get_init_inputs():
    return []
