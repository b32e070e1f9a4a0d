"""mhc_post_grad with float32 streams: the task of ascendcraft/tasks/mhc/mhc_post_grad.py, every stream tensor drawn in
float32 instead of bfloat16 (the paper times both). Not in the registry: pass this file's path where a task id goes."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Backward of mhc_post. Given G = dL/dY [T, n, C], per token t:

        dh[t, c]        = sum_j H_post[t, j] * G[t, j, c]        (dh_t = H_post_t @ G_t)
        dX[t, i, c]     = sum_j H_res[t, i, j] * G[t, j, c]      (dX_t = H_res_t @ G_t)
        dH_post[t, j]   = sum_c G[t, j, c] * h[t, c]
        dH_res[t, i, j] = sum_c X[t, i, c] * G[t, j, c]          (dH_res_t = X_t @ G_t^T)

    Accumulated in float32 (or wider); dh and dX are returned in the stream dtype, dH_post and
    dH_res in the dtype of H_post / H_res.
    """

    def __init__(self):
        super().__init__()

    def forward(self, G: torch.Tensor, X: torch.Tensor, h: torch.Tensor, H_post: torch.Tensor, H_res: torch.Tensor):
        acc = torch.promote_types(G.dtype, torch.float32)
        g, x, hh = G.to(acc), X.to(acc), h.to(acc)
        dh = torch.einsum("tj,tjc->tc", H_post.to(acc), g)
        dX = torch.einsum("tij,tjc->tic", H_res.to(acc), g)
        dH_post = torch.einsum("tjc,tc->tj", g, hh)
        dH_res = torch.einsum("tic,tjc->tij", x, g)
        return dh.to(h.dtype), dX.to(X.dtype), dH_post.to(H_post.dtype), dH_res.to(H_res.dtype)


num_tokens = 4096          # T
n_streams = 4              # n
HIDDEN_SIZES = (1280, 2560, 7168)
hidden = 2560              # C: one of HIDDEN_SIZES

# CI size: a token count that 48 cores cannot split evenly, the smallest real hidden size.
SMALL = {"num_tokens": 37, "hidden": 1280}
SIGNED = False  # the inputs are drawn with randn: already signed
OUTPUT_NAMES = ("dh", "dX", "dH_post", "dH_res")


def get_inputs():
    G = torch.randn(num_tokens, n_streams, hidden, dtype=torch.float32)
    X = torch.randn(num_tokens, n_streams, hidden, dtype=torch.float32)
    h = torch.randn(num_tokens, hidden, dtype=torch.float32)
    H_post = torch.randn(num_tokens, n_streams)
    H_res = torch.randn(num_tokens, n_streams, n_streams)  # general: neither symmetric nor doubly stochastic
    return [G, X, h, H_post, H_res]


def get_init_inputs():
    return []
