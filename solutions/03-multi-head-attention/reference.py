"""Reference values for lesson 03's graded tests, computed with PyTorch's nn.MultiheadAttention.

It writes the values the graded suite (solutions/03-multi-head-attention/suite/graded.rs)
reads into solutions/03-multi-head-attention/suite/graded.json, in float64 (the format is
tools/reference/fixture.py's; `--check` compares instead of writing), and prints what it
checks on the way. CI never runs it: PyTorch is large.

How to run it, from the course's root, in a virtual environment (PyTorch is a large
download, about 5 GB with its CUDA libraries):

    python3 -m venv <a folder for the environment>
    <that folder>/bin/pip install torch numpy
    <that folder>/bin/python solutions/03-multi-head-attention/reference.py

graded.json records the versions that computed it: torch 2.15.0 (the default PyPI wheel,
2.15.0+cu132, run on the CPU) and numpy 2.4.6, Python 3.11, in float64.
Everything is deterministic: inputs and weights are numpy.linspace fills (the same fills as
course_harness::linspace_matrix), no random stream is used, and the module is in eval mode
with dropout 0.

What it checks besides writing the values:
- that nn.MultiheadAttention agrees with the formula written out by hand (split the
  projections into contiguous blocks of d_k columns, attend per head, concatenate, W_o);
- what the PyTorch code in the course's seed notes (seed 001) computes: its
  `.view(-1, num_heads, d_k)` without a batch/sequence split and a transpose makes every
  token attend over its own heads instead of over the other tokens, so its output differs
  from nn.MultiheadAttention; the corrected code (`.view(B, -1, H, d_k).transpose(1, 2)`)
  agrees with it. The seed's output is written too: the graded suite names that mistake.
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from fixture import Fixture, finish

torch.set_grad_enabled(False)
graded = Fixture("03-multi-head-attention/graded.json", torch=torch.__version__)

E, H = 6, 2  # d_model, n_heads
D_K = E // H


def lin(rows, cols, start, end):
    """numpy.linspace(start, end, rows * cols).reshape(rows, cols), as float64 tensor."""
    return torch.tensor(np.linspace(start, end, rows * cols).reshape(rows, cols), dtype=torch.float64)


def vec(start, end, n):
    return torch.tensor(np.linspace(start, end, n), dtype=torch.float64)


# The module, with deterministic weights. in_proj_weight is (3E, E): rows 0..E are W_q,
# E..2E are W_k, 2E..3E are W_v ("packed along dimension 0, in q, k, v order").
mha = nn.MultiheadAttention(E, H, batch_first=True, dtype=torch.float64)
mha.eval()
in_proj_weight = lin(3 * E, E, -0.6, 0.7)
in_proj_bias = vec(0.1, -0.2, 3 * E)
out_weight = lin(E, E, 0.5, -0.4)
out_bias = vec(-0.05, 0.05, E)
mha.in_proj_weight.copy_(in_proj_weight)
mha.in_proj_bias.copy_(in_proj_bias)
mha.out_proj.weight.copy_(out_weight)
mha.out_proj.bias.copy_(out_bias)
w_q, w_k, w_v = in_proj_weight.split(E)
b_q, b_k, b_v = in_proj_bias.split(E)


def by_hand(xq, xkv, allowed=None):
    """The formula, one head at a time; `allowed` uses the course's convention (True = may attend)."""
    q, k, v = xq @ w_q.T + b_q, xkv @ w_k.T + b_k, xkv @ w_v.T + b_v
    outputs, weights = [], []
    for h in range(H):
        cols = slice(h * D_K, (h + 1) * D_K)
        s = q[:, cols] @ k[:, cols].T / math.sqrt(D_K)
        if allowed is not None:
            s = s.masked_fill(~allowed, float("-inf"))
        w = torch.softmax(s, dim=-1)
        outputs.append(w @ v[:, cols])
        weights.append(w)
    return torch.cat(outputs, dim=1) @ out_weight.T + out_bias, weights


def run(key, name, xq, xkv, key_is_token=None):
    # PyTorch's key_padding_mask is True where a key must be IGNORED; the course's mask is
    # True where a query MAY attend. They are each other's negation.
    key_padding_mask = None if key_is_token is None else ~key_is_token[None, :]
    out, w = mha(
        xq[None], xkv[None], xkv[None],
        key_padding_mask=key_padding_mask,
        need_weights=True,
        average_attn_weights=False,
    )
    out, w = out[0], w[0]  # (n_q, E), (H, n_q, n_k)
    allowed = None if key_is_token is None else key_is_token[None, :].expand(xq.shape[0], -1)
    out_hand, w_hand = by_hand(xq, xkv, allowed)
    diff = max((out - out_hand).abs().max().item(), max((w[h] - w_hand[h]).abs().max().item() for h in range(H)))
    print(f"{key}: nn.MultiheadAttention vs the formula by hand, max |difference| = {diff:.1e}")
    assert diff < 1e-13
    graded.matrix(f"{key}_output", f"{name}: the output", out)
    for h in range(H):
        graded.matrix(f"{key}_weights_of_head_{h}", f"{name}: the weights of head {h}", w[h])
    # The default, need_weights=True with average_attn_weights=True, averages the heads.
    _, w_avg = mha(xq[None], xkv[None], xkv[None], key_padding_mask=key_padding_mask)
    assert (w_avg[0] - w.mean(dim=0)).abs().max().item() < 1e-15
    return out


print(f"torch {torch.__version__}, numpy {np.__version__}; E = {E}, H = {H}, d_k = {D_K}")
print("in_proj_weight = lin(18, 6, -0.6, 0.7), in_proj_bias = linspace(0.1, -0.2, 18)")
print("out_proj.weight = lin(6, 6, 0.5, -0.4), out_proj.bias = linspace(-0.05, 0.05, 6)")
MODULE = "nn.MultiheadAttention(6, 2, batch_first=True) with the fixture's weights"

x_self = lin(4, E, -1.5, 1.2)
out_self = run("self_attention", f"{MODULE}, self-attention of x = lin(4, 6, -1.5, 1.2)", x_self, x_self)

x_q, x_kv = lin(2, E, 0.9, -1.3), lin(5, E, -1.1, 1.4)
run("cross_attention", f"{MODULE}, cross-attention of x_q = lin(2, 6, 0.9, -1.3) over x_kv = lin(5, 6, -1.1, 1.4)",
    x_q, x_kv)

x_pad = lin(5, E, 1.0, -0.8)
key_is_token = torch.tensor([True, True, True, False, False])
run("padded_self_attention", f"{MODULE}, self-attention of x = lin(5, 6, 1.0, -0.8), "
    "key_padding_mask = [F, F, F, T, T]", x_pad, x_pad, key_is_token)


# ---- The seed's code (seed 001), copied as it is, with the module's weights.
class SeedMultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model, dtype=torch.float64)
        self.W_k = nn.Linear(d_model, d_model, dtype=torch.float64)
        self.W_v = nn.Linear(d_model, d_model, dtype=torch.float64)
        self.W_o = nn.Linear(d_model, d_model, dtype=torch.float64)

    def forward(self, q, k, v, mask=None):
        q = self.W_q(q).view(-1, self.num_heads, self.d_k)
        k = self.W_k(k).view(-1, self.num_heads, self.d_k)
        v = self.W_v(v).view(-1, self.num_heads, self.d_k)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        attn = F.softmax(scores, dim=-1)
        output = torch.matmul(attn, v)
        output = output.transpose(1, 2).contiguous().view(-1, self.d_model)
        return self.W_o(output)


class FixedMultiHeadAttention(SeedMultiHeadAttention):
    """The seed's class with the split and merge corrected, for (B, L, E) inputs."""

    def forward(self, q, k, v, mask=None):
        B = q.shape[0]
        # (B, L, E) -> (B, L, H, d_k) -> (B, H, L, d_k): heads become a batch dimension.
        q = self.W_q(q).view(B, -1, self.num_heads, self.d_k).transpose(1, 2)
        k = self.W_k(k).view(B, -1, self.num_heads, self.d_k).transpose(1, 2)
        v = self.W_v(v).view(B, -1, self.num_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)  # (B, H, L_q, L_k)
        if mask is not None:
            scores = scores.masked_fill(mask.unsqueeze(1) == 0, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        output = torch.matmul(attn, v)  # (B, H, L_q, d_k)
        # (B, H, L_q, d_k) -> (B, L_q, H, d_k) -> (B, L_q, E): the heads side by side.
        output = output.transpose(1, 2).contiguous().view(B, -1, self.d_model)
        return self.W_o(output)


def with_weights(cls):
    m = cls(E, H)
    for layer, w, b in [(m.W_q, w_q, b_q), (m.W_k, w_k, b_k), (m.W_v, w_v, b_v), (m.W_o, out_weight, out_bias)]:
        layer.weight.copy_(w)
        layer.bias.copy_(b)
    return m


seed, fixed = with_weights(SeedMultiHeadAttention), with_weights(FixedMultiHeadAttention)
x = x_self[None]  # (1, 4, E)
out_seed = seed(x, x, x)
out_fixed = fixed(x, x, x)
print("seed 001's MultiHeadAttention on the self-attention input:")
print(f"  seed code: output shape {tuple(out_seed.shape)} (the batch dimension is gone),")
print(f"    max |difference| from nn.MultiheadAttention = {(out_seed - out_self).abs().max().item():.3f}")
print(f"  corrected code: max |difference| = {(out_fixed[0] - out_self).abs().max().item():.1e}")
assert (out_fixed[0] - out_self).abs().max().item() < 1e-13
# What the seed computes: each token's query, key and value are cut into H pieces of d_k,
# and the H pieces of one token attend over each other (an (H, H) weight matrix per token),
# then the transpose interleaves the result's columns before W_o.
scores = (x_self @ w_q.T + b_q).view(-1, H, D_K) @ (x_self @ w_k.T + b_k).view(-1, H, D_K).transpose(-2, -1)
print(f"  seed code: its attention weights have shape {tuple(scores.shape)} (token, head, head)")
graded.matrix("seed_code_self_attention", "the output of seed 001's MultiHeadAttention code on the self-attention "
              "input, with the same weights (attention over heads, not positions)", out_seed)
x2 = torch.cat([x, x.flip(1)])  # a batch of two sequences
print(f"  seed code on a batch of 2 sequences of 4: output shape {tuple(seed(x2, x2, x2).shape)}")
try:
    seed(x_q[None], x_kv[None], x_kv[None])
    print("  seed code on cross-attention (2 queries, 5 keys): ran")
except RuntimeError as err:
    print(f"  seed code on cross-attention (2 queries, 5 keys): RuntimeError: {str(err).splitlines()[0]}")
print(f"  corrected code on cross-attention: max |difference| = "
      f"{(fixed(x_q[None], x_kv[None], x_kv[None])[0] - by_hand(x_q, x_kv)[0]).abs().max().item():.1e}")

finish(graded)
