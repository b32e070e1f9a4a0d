import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool3d with padding counted as zeros in the average (count_include_pad=True: divide by 27)."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.avg_pool = nn.AvgPool3d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.avg_pool(x)


batch_size = 16
channels = 32
depth = 128
height = 128
width = 256
kernel_size = 3
stride = 2
padding = 1

# CI size: odd sizes, so the last window of each axis overlaps the padding.
SMALL = {"batch_size": 2, "channels": 3, "depth": 15, "height": 17, "width": 33}


def get_inputs():
    x = torch.rand(batch_size, channels, depth, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
