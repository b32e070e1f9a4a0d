import torch
import torch.nn as nn


class Model(nn.Module):
    """One RMSprop step; returns only the updated parameter."""

    def __init__(self, lr: float = 1e-3, alpha: float = 0.99, eps: float = 1e-8):
        super().__init__()
        self.lr = lr
        self.alpha = alpha
        self.eps = eps

    def forward(self, param: torch.Tensor, grad: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        v = self.alpha * v + (1 - self.alpha) * grad.pow(2)
        return param - self.lr * grad / (v.sqrt() + self.eps)


rows = 2048
cols = 2048

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"rows": 37, "cols": 1023}
# v must stay >= 0; the signed draw also makes it non-zero so that it matters.
SIGNED = "get_signed_inputs"


def get_inputs():
    param = torch.rand(rows, cols)
    grad = torch.rand_like(param)
    v = torch.zeros_like(param)
    return [param, grad, v]


def get_signed_inputs():
    param, grad, _ = get_inputs()
    v = torch.rand_like(param) * 0.01
    return [param * 2 - 1, grad * 2 - 1, v]


def get_init_inputs():
    return []
