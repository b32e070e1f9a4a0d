"""A small Llama-style decoder block in plain PyTorch — the "your model" of the walkthrough.

Written by the AscendCraft authors for the walkthrough (nbs/55_own_operator.ipynb). The operator the
walkthrough takes to a kernel is `RMSNormResidual`: the residual add fused with the RMSNorm that
follows it, as every pre-norm decoder layer does twice per token.
"""
import math

import torch
from torch import nn


class RMSNormResidual(nn.Module):
    """h = x + residual; y = h / sqrt(mean(h ** 2, last dim) + eps) * weight. Returns (y, h): the
    normalised activations for the next sub-layer and the new residual stream."""

    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.eps = eps

    def forward(self, x: torch.Tensor, residual: torch.Tensor):
        h = x + residual
        y = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
        return y, h


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2, dim=-1)
    return torch.cat([-b, a], dim=-1)


def apply_rotary(q: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    "The rotary position embedding applied to queries or keys (batch, heads, seq, head_dim)."
    return q * cos + rotate_half(q) * sin


class Attention(nn.Module):
    def __init__(self, hidden: int, heads: int):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden, bias=False)
        self.out = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.head_dim), dim=-1)
        return self.out((att @ v).transpose(1, 2).reshape(b, s, -1))


class MLP(nn.Module):
    def __init__(self, hidden: int, inner: int):
        super().__init__()
        self.gate, self.up = nn.Linear(hidden, inner, bias=False), nn.Linear(hidden, inner, bias=False)
        self.down = nn.Linear(inner, hidden, bias=False)

    def forward(self, x):
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))


class Block(nn.Module):
    "One pre-norm decoder layer: the residual add and the norm after it are one `RMSNormResidual`."

    def __init__(self, hidden: int = 256, heads: int = 4, inner: int = 512):
        super().__init__()
        self.attn, self.mlp = Attention(hidden, heads), MLP(hidden, inner)
        self.norm1, self.norm2 = RMSNormResidual(hidden), RMSNormResidual(hidden)

    def forward(self, x, residual, cos, sin):
        y, h = self.norm1(x, residual)
        y, h = self.norm2(self.attn(y, cos, sin), h)
        return self.mlp(y), h


def rotary_tables(seq: int, head_dim: int, base: float = 10000.0):
    inv = base ** (-torch.arange(0, head_dim, 2).float() / head_dim)
    angles = torch.outer(torch.arange(seq).float(), inv)
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()
