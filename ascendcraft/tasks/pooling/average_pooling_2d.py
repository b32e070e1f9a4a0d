import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool2d with stride = kernel_size (stride None); rows and columns that do not fill a whole
    window at the far edge are dropped."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.avg_pool = nn.AvgPool2d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.avg_pool(x)


batch_size = 16
channels = 64
height = 512
width = 512
kernel_size = 11

# CI size: like 512 = 46 * 11 + 6, the sizes leave a remainder (130 = 11 * 11 + 9, 127 = 11 * 11 + 6).
SMALL = {"batch_size": 2, "channels": 3, "height": 130, "width": 127}


def get_inputs():
    x = torch.rand(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size]
