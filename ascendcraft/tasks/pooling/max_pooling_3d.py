import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool3d; the padding is -inf, so it never wins a window."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 16
channels = 32
dim1 = 128
dim2 = 128
dim3 = 128
kernel_size = 3
stride = 2
padding = 1

# CI size: odd sizes; border windows over the padding.
SMALL = {"batch_size": 2, "channels": 3, "dim1": 15, "dim2": 17, "dim3": 19}


def get_inputs():
    x = torch.rand(batch_size, channels, dim1, dim2, dim3)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
