"""mhc_post with float32 streams: the task of ascendcraft/tasks/mhc/mhc_post.py, every stream tensor drawn in
float32 instead of bfloat16 (the paper times both). Not in the registry: pass this file's path where a task id goes."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """mHC post-mixing (DeepSeek manifold-constrained hyper-connections), per token t:

        Y[t, j, c] = H_post[t, j] * h[t, c] + sum_i H_res[t, i, j] * X[t, i, c]

    i.e. Y_t = H_res_t^T @ X_t + H_post_t (outer) h_t. H_res enters TRANSPOSED: entry [i, j] routes
    input stream i to output stream j. Accumulated in float32 (or wider, if the inputs are wider),
    then cast to the stream dtype.
    """

    def __init__(self):
        super().__init__()

    def forward(self, h: torch.Tensor, X: torch.Tensor, H_post: torch.Tensor, H_res: torch.Tensor) -> torch.Tensor:
        acc = torch.promote_types(X.dtype, torch.float32)
        routed = torch.einsum("tij,tic->tjc", H_res.to(acc), X.to(acc))
        injected = H_post.to(acc).unsqueeze(-1) * h.to(acc).unsqueeze(1)
        return (injected + routed).to(X.dtype)


num_tokens = 4096          # T
n_streams = 4              # n
HIDDEN_SIZES = (1280, 2560, 7168)
hidden = 2560              # C: one of HIDDEN_SIZES

# CI size: a token count that 48 cores cannot split evenly, the smallest real hidden size.
SMALL = {"num_tokens": 37, "hidden": 1280}
SIGNED = False  # the inputs are drawn with randn: already signed
OUTPUT_NAMES = ("Y",)


def get_inputs():
    h = torch.randn(num_tokens, hidden, dtype=torch.float32)
    X = torch.randn(num_tokens, n_streams, hidden, dtype=torch.float32)
    H_post = torch.randn(num_tokens, n_streams)
    H_res = torch.randn(num_tokens, n_streams, n_streams)  # general: neither symmetric nor doubly stochastic
    return [h, X, H_post, H_res]


def get_init_inputs():
    return []
