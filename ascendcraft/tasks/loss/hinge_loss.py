import torch
import torch.nn as nn


class Model(nn.Module):
    """Hinge loss: mean(clamp(1 - predictions * targets, min=0)), a 0-dim tensor.

    `targets` has shape (batch_size,) and broadcasts along the LAST dimension of `predictions`:
    target j multiplies column j (the shapes only work because the matrix is square).
    """

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


batch_size = 32768
input_shape = (32768,)
dim = 1

# CI size: still square (the target vector must match the last dimension) and odd.
SMALL = {"batch_size": 389, "input_shape": (389,)}
# Targets are +-1 labels and must stay so: only the predictions are made signed.
SIGNED = "get_signed_inputs"


def get_inputs():
    predictions = torch.rand(batch_size, *input_shape)
    targets = torch.randint(0, 2, (batch_size,)).float() * 2 - 1
    return [predictions, targets]


def get_signed_inputs():
    predictions, targets = get_inputs()
    # predictions in [-2, 2): both sides of the hinge. In place, the same float operations as `predictions * 4 - 2`
    # (the same bits), without two more 4 GiB tensors at the full shape.
    return [predictions.mul_(4).sub_(2), targets]


def get_init_inputs():
    return []
