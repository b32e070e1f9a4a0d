import torch
import torch.nn as nn


class Model(nn.Module):
    """BatchNorm2d in TRAINING mode: per-channel batch mean and biased variance over (N, H, W).

    The module is never put in eval mode, so the running statistics are not used (weight 1, bias 0,
    eps 1e-5).
    """

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 64
features = 64
dim1 = 512
dim2 = 512

# CI size: odd spatial sizes (rows not 32-byte aligned), an odd channel count.
SMALL = {"batch_size": 3, "features": 13, "dim1": 31, "dim2": 33}


def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]


def get_init_inputs():
    return [features]
