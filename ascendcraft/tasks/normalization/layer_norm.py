import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the last three dimensions, with weight (ones) and bias (zeros) of that shape."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)


batch_size = 64
features = 64
dim1 = 256
dim2 = 256

# CI size: odd sizes everywhere; a normalised block of 5 * 31 * 33 = 5115 elements.
SMALL = {"batch_size": 3, "features": 5, "dim1": 31, "dim2": 33}


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [(features, dim1, dim2)]
