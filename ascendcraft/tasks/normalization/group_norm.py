import torch
import torch.nn as nn


class Model(nn.Module):
    """GroupNorm: statistics per (sample, group of channels) over the group's channels and H*W."""

    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


batch_size = 128
features = 64
num_groups = 8
dim1 = 512
dim2 = 512

# CI size: 3 channels per group (odd), odd spatial sizes.
SMALL = {"batch_size": 3, "features": 12, "num_groups": 4, "dim1": 31, "dim2": 33}


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [features, num_groups]
