import torch
import torch.nn as nn


class Model(nn.Module):
    """One LAMB-style step: r = m / (sqrt(v) + eps), trust = ||param|| / (||r|| + eps) with GLOBAL
    L2 norms over the whole tensors, param - lr * trust * r."""

    def __init__(self, lr: float = 1e-3, eps: float = 1e-6):
        super().__init__()
        self.lr = lr
        self.eps = eps

    def forward(self, param: torch.Tensor, m: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        r = m / (v.sqrt() + self.eps)
        trust_ratio = param.norm(p=2) / (r.norm(p=2) + self.eps)
        return param - self.lr * trust_ratio * r


rows = 512
cols = 4096

# CI size: odd row length (rows not 32-byte aligned), a row count that 48 cores cannot split evenly.
SMALL = {"rows": 37, "cols": 1023}
# v is a second moment and must stay positive: only param and m are made signed.
SIGNED = "get_signed_inputs"


def get_inputs():
    param = torch.rand(rows, cols)
    m = torch.rand_like(param)
    v = torch.abs(torch.rand_like(param)) + 1e-3
    return [param, m, v]


def get_signed_inputs():
    param, m, v = get_inputs()
    return [param * 2 - 1, m * 2 - 1, v]


def get_init_inputs():
    return []
