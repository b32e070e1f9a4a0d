import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d; the padding is -inf, so it never wins a window."""

    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 32
channels = 64
height = 512
width = 512
kernel_size = 4
stride = 1
padding = 1

# CI size: odd sizes; border windows over the padding.
SMALL = {"batch_size": 2, "channels": 3, "height": 63, "width": 65}


def get_inputs():
    x = torch.rand(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
