import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool1d; the padding is -inf, so it never wins a window."""

    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, return_indices: bool = False):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding,
                                    return_indices=return_indices)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 64
features = 192
sequence_length = 2048
kernel_size = 8
stride = 1
padding = 4
return_indices = False

# CI size: an odd length; windows over the padding at both ends.
SMALL = {"batch_size": 3, "features": 5, "sequence_length": 1027}


def get_inputs():
    x = torch.rand(batch_size, features, sequence_length)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding, return_indices]
