import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool1d. Padding counts as zeros in the average (count_include_pad=True): every window
    divides by kernel_size, including the windows that overlap the padding."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super().__init__()
        self.avg_pool = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.avg_pool(x)


batch_size = 64
in_channels = 128
input_length = 65536
kernel_size = 8
stride = 1
padding = 4

# CI size: an odd length (the output is one longer than the input), windows over the padding at
# both ends.
SMALL = {"batch_size": 3, "in_channels": 5, "input_length": 4099}


def get_inputs():
    x = torch.rand(batch_size, in_channels, input_length)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
