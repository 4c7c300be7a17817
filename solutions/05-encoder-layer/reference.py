"""Reference values for lesson 05's graded tests, from PyTorch's nn.LayerNorm,
nn.TransformerEncoderLayer and nn.TransformerDecoderLayer.

It writes the values the graded suite (solutions/05-encoder-layer/suite/graded.rs) reads into
solutions/05-encoder-layer/suite/graded.json, in float64 (the format is
tools/reference/fixture.py's; `--check` compares instead of writing), and prints what it
checks on the way. CI never runs it: PyTorch is large.

How to run it, from the course's root, in a virtual environment (PyTorch is a large
download, about 5 GB with its CUDA libraries):

    python3 -m venv <a folder for the environment>
    <that folder>/bin/pip install torch numpy
    <that folder>/bin/python solutions/05-encoder-layer/reference.py

graded.json records the versions that computed it: torch 2.15.0 (the default PyPI wheel,
2.15.0+cu132, run on the CPU) and numpy 2.4.6, Python 3.11, in float64.
Everything is deterministic. Biases and LayerNorm parameters are numpy.linspace fills
(the same fills as course_harness::linspace_matrix); weight matrices and inputs are the
integer "scrambled" fill of the graded suites (its formula is below). Linspace matrices
would hide mistakes here: a linspace row is an arithmetic progression, which LayerNorm
maps to the same vector whatever the row, and with linspace weights every hidden unit of
the post-LN encoder's FFN is on, so a missing ReLU changes nothing. No random stream is
used. The layers are built with dropout=0.0 and put in eval mode; gradients stay enabled,
which keeps PyTorch off its inference fast path (the script checks the fast path too).

What it checks besides writing the values:
- nn.LayerNorm against the formula (biased variance, eps inside the square root), and
  the published fixtures it is compared with: codertimo/BERT-pytorch issue #30 ([1, 0, 0,
  0]), burn's 10-element fixture, candle's doc-test, CS231n's std < 1 property, burn's
  zero-gradient test, d2l's LayerNorm-vs-BatchNorm example, PyTorch issue #84356;
- that nn.TransformerEncoderLayer and nn.TransformerDecoderLayer, post-LN
  (norm_first=False) and pre-LN (norm_first=True), agree with the layers written out by
  hand (the same code, with switches, writes the wrong answers that common mistakes give,
  which the graded suite uses to name those mistakes);
- the decoder cannot see the future and ignores padded memory rows.
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import math

import numpy as np
import torch
import torch.nn as nn
from fixture import Fixture, finish

torch.set_default_dtype(torch.float64)
graded = Fixture("05-encoder-layer/graded.json", torch=torch.__version__)

E, H, F = 6, 2, 10  # d_model, n_heads, d_ff
D_K = E // H


def lin(rows, cols, start, end):
    """numpy.linspace(start, end, rows * cols).reshape(rows, cols), as a float64 tensor."""
    return torch.tensor(np.linspace(start, end, rows * cols).reshape(rows, cols))


def vec(start, end, n):
    return torch.tensor(np.linspace(start, end, n))


def scrambled(rows, cols, seed, scale):
    """The graded suites' fill with no linear structure: entry k = i*cols + j + seed maps
    to ((k^2 * 7 + k * 13 + 3) mod 97) / 48 - 1, times scale (exactly as in Rust)."""
    out = torch.zeros(rows, cols)
    for i in range(rows):
        for j in range(cols):
            k = i * cols + j + seed
            out[i, j] = (((k * k * 7 + k * 13 + 3) % 97) / 48.0 - 1.0) * scale
    return out


def show(what, m):
    """Prints a value the suite does not read (the book or a comment quotes it)."""
    print(f"{what}: {(m.detach() if torch.is_tensor(m) else np.asarray(m)).tolist()}")


def close(a, b, what, tol=1e-13):
    diff = (a - b).abs().max().item()
    assert diff < tol, f"{what}: max |difference| {diff:.2e}"
    return diff


print(f"torch {torch.__version__}, numpy {np.__version__}; float64")

# ---------------------------------------------------------------------------------------
# 1. LayerNorm
# ---------------------------------------------------------------------------------------


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """nn.LayerNorm by hand: biased variance, eps inside the square root."""
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    y = (x - mu) / torch.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma + beta
    return y


def annotated_layer_norm(x, eps=1e-6):
    """The Annotated Transformer's LayerNorm: torch's (unbiased) std, eps added to it."""
    return (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps)


def torch_layer_norm(x, gamma=None, beta=None, eps=1e-5):
    d = x.shape[-1]
    ln = nn.LayerNorm(d, eps=eps)
    with torch.no_grad():
        if gamma is not None:
            ln.weight.copy_(gamma)
            ln.bias.copy_(beta)
    y = ln(x)
    close(y, layer_norm(x, gamma, beta, eps), "nn.LayerNorm vs the formula")
    return y


print("---- 1. LayerNorm")
x = torch.tensor([[1.0, 0.0, 0.0, 0.0]])
graded.matrix("layer_norm_1_0_0_0", "nn.LayerNorm(4)([[1, 0, 0, 0]])", torch_layer_norm(x))
show("the Annotated Transformer's LayerNorm of [1, 0, 0, 0] (unbiased std, eps 1e-6 on the std)",
     annotated_layer_norm(x))

burn_x = torch.tensor([[-0.6897, -2.7106, 2.2222, -1.0330, -0.8933, 1.1765, 0.0601, 1.5252, -0.3630, 0.6728]])
graded.matrix("burn_fixture", "nn.LayerNorm(10) of burn's fixture, eps 1e-5 (burn publishes 4 decimals: "
              "-0.4990, -1.9680, 1.6178, ...)", torch_layer_norm(burn_x))
graded.matrix("burn_fixture_eps_0_1", "nn.LayerNorm(10, eps=0.1) of burn's fixture (burn publishes -0.4863, "
              "-1.9180, 1.5766, ...)", torch_layer_norm(burn_x, eps=0.1))
show("burn's fixture, the Annotated Transformer's LayerNorm", annotated_layer_norm(burn_x))

candle_x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [9.0, 8.0, 7.0]])
show("candle's doc-test rows", torch_layer_norm(candle_x))
print(f"1 / sqrt(2/3 + 1e-5) = {1 / math.sqrt(2 / 3 + 1e-5):.15g}")

x_gb = scrambled(3, 5, 1, 2.0)
gamma_gb, beta_gb = vec(0.5, 1.5, 5), vec(-0.3, 0.3, 5)
graded.matrix("layer_norm_gamma_beta", "nn.LayerNorm(5) with weight = linspace(0.5, 1.5, 5), bias = "
              "linspace(-0.3, 0.3, 5) of x = scrambled(3, 5, 1, 2.0)", torch_layer_norm(x_gb, gamma_gb, beta_gb))

# CS231n's observation: with eps inside the square root, the output's (biased) std is
# sqrt(var / (var + eps)) < 1; for var = eps it is sqrt(1/2).
for var in [1e-5, 1e-3, 1.0]:
    row = torch.tensor([[-1.0, 1.0]]) * math.sqrt(var)
    out = torch_layer_norm(row)
    print(f"row with variance {var:g}: output std {out.std(-1, unbiased=False).item():.15g}, "
          f"sqrt(var/(var+eps)) = {math.sqrt(var / (var + 1e-5)):.15g}")

# d2l's LayerNorm-vs-BatchNorm example (training mode: batch statistics).
X = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
print("d2l: X = [[1, 2], [2, 3]]")
show("  nn.LayerNorm(2)(X): each row normalised over its features", nn.LayerNorm(2)(X))
show("  nn.BatchNorm1d(2)(X) in training mode: each feature normalised over the batch", nn.BatchNorm1d(2)(X))

# PyTorch issue #84356: torch.std is unbiased, so it does not report 1 for LayerNorm's output.
y = torch_layer_norm(torch.tensor([[3.0, 5.0]]))
print(f"issue #84356: LayerNorm([3, 5]) = {y.tolist()}, torch.std = {y.std().item():.6f}, "
      f"biased std = {y.std(unbiased=False).item():.6f}")

# burn's backward test: x = [[0, 1], [3, 4]] @ [[6, 7], [9, 10]], loss = sum(LayerNorm(x)).
bx = (torch.tensor([[0.0, 1.0], [3.0, 4.0]]) @ torch.tensor([[6.0, 7.0], [9.0, 10.0]])).requires_grad_()
bln = nn.LayerNorm(2)
bln(bx).sum().backward()
print(f"burn's backward test: x = {bx.tolist()}")
print(f"  dx = {bx.grad.tolist()}, dgamma = {bln.weight.grad.tolist()}, dbeta = {bln.bias.grad.tolist()}")
graded.vector("burn_backward_d_gamma", "burn's backward test: the gradient of sum(nn.LayerNorm(2)(x)) for x = "
              "[[9, 10], [54, 61]] with respect to the weight (burn: [-2, 2])", bln.weight.grad)

# ---------------------------------------------------------------------------------------
# 2. The layers, with deterministic weights
# ---------------------------------------------------------------------------------------

P = {
    # nn.MultiheadAttention packs [W_q; W_k; W_v] into in_proj_weight (3E, E).
    "sa_in_w": scrambled(3 * E, E, 10, 0.6), "sa_in_b": vec(0.1, -0.2, 3 * E),
    "sa_out_w": scrambled(E, E, 20, 0.6), "sa_out_b": vec(-0.05, 0.05, E),
    "ca_in_w": scrambled(3 * E, E, 30, 0.6), "ca_in_b": vec(-0.15, 0.1, 3 * E),
    "ca_out_w": scrambled(E, E, 40, 0.6), "ca_out_b": vec(0.03, -0.04, E),
    "w1": scrambled(F, E, 50, 0.8), "b1": vec(0.1, -0.1, F),
    "w2": scrambled(E, F, 60, 0.5), "b2": vec(-0.05, 0.08, E),
    "g1": vec(0.8, 1.3, E), "be1": vec(-0.2, 0.1, E),
    "g2": vec(1.2, 0.7, E), "be2": vec(0.15, -0.05, E),
    "g3": vec(0.9, 1.1, E), "be3": vec(-0.1, 0.2, E),
}
print("---- 2. The layers' weights (d_model = 6, nhead = 2, dim_feedforward = 10)")
for name, value in P.items():
    print(f"  {name}: shape {tuple(value.shape)}, first {value.flatten()[0].item():.6g}, "
          f"last {value.flatten()[-1].item():.6g}")


def set_mha(mha, prefix):
    mha.in_proj_weight.copy_(P[prefix + "_in_w"])
    mha.in_proj_bias.copy_(P[prefix + "_in_b"])
    mha.out_proj.weight.copy_(P[prefix + "_out_w"])
    mha.out_proj.bias.copy_(P[prefix + "_out_b"])


def set_common(layer):
    set_mha(layer.self_attn, "sa")
    layer.linear1.weight.copy_(P["w1"])
    layer.linear1.bias.copy_(P["b1"])
    layer.linear2.weight.copy_(P["w2"])
    layer.linear2.bias.copy_(P["b2"])
    for i in (1, 2, 3):
        norm = getattr(layer, f"norm{i}", None)
        if norm is not None:
            norm.weight.copy_(P[f"g{i}"])
            norm.bias.copy_(P[f"be{i}"])


def encoder_layer(norm_first):
    layer = nn.TransformerEncoderLayer(E, H, dim_feedforward=F, dropout=0.0, activation="relu",
                                       layer_norm_eps=1e-5, batch_first=True, norm_first=norm_first)
    with torch.no_grad():
        set_common(layer)
    return layer.eval()


def decoder_layer(norm_first):
    layer = nn.TransformerDecoderLayer(E, H, dim_feedforward=F, dropout=0.0, activation="relu",
                                       layer_norm_eps=1e-5, batch_first=True, norm_first=norm_first)
    with torch.no_grad():
        set_common(layer)
        set_mha(layer.multihead_attn, "ca")
    return layer.eval()


# ---- By hand, with switches for the common mistakes.


def mha_by_hand(xq, xkv, prefix, allowed=None):
    """Multi-head attention; `allowed` is the course's mask convention (True = may attend)."""
    w_q, w_k, w_v = P[prefix + "_in_w"].split(E)
    b_q, b_k, b_v = P[prefix + "_in_b"].split(E)
    q, k, v = xq @ w_q.T + b_q, xkv @ w_k.T + b_k, xkv @ w_v.T + b_v
    outputs = []
    for h in range(H):
        cols = slice(h * D_K, (h + 1) * D_K)
        s = q[:, cols] @ k[:, cols].T / math.sqrt(D_K)
        if allowed is not None:
            s = s.masked_fill(~allowed, float("-inf"))
        outputs.append(torch.softmax(s, dim=-1) @ v[:, cols])
    return torch.cat(outputs, dim=1) @ P[prefix + "_out_w"].T + P[prefix + "_out_b"]


def ffn_by_hand(x, relu=True):
    hidden = x @ P["w1"].T + P["b1"]
    if relu:
        hidden = hidden.clamp(min=0.0)
    return hidden @ P["w2"].T + P["b2"]


def norm(i, x):
    return layer_norm(x, P[f"g{i}"], P[f"be{i}"])


def block(x, sublayer, i, pre, mistake=None):
    """One sublayer with its residual connection and LayerNorm number i."""
    if mistake == "no residual":
        return norm(i, sublayer(x)) if not pre else sublayer(norm(i, x))
    if not pre:
        return norm(i, x + sublayer(x))
    a = norm(i, x)
    if mistake == "residual from the normalised input":
        return a + sublayer(a)
    return x + sublayer(a)


def encoder_by_hand(x, pre, allowed=None, mistake=None):
    h = block(x, lambda a: mha_by_hand(a, a, "sa", allowed), 1, pre, mistake)
    relu = mistake != "no relu"
    return block(h, lambda a: ffn_by_hand(a, relu), 2, pre, mistake)


def decoder_by_hand(x, memory, pre, causal, memory_allowed, mistake=None):
    self_allowed = None if mistake == "no causal mask" else causal
    h1 = block(x, lambda a: mha_by_hand(a, a, "sa", self_allowed), 1, pre, mistake)
    if mistake == "cross-attention over the decoder's own input":
        cross = lambda a: mha_by_hand(a, a, "ca", None)  # noqa: E731
    elif mistake == "no memory mask":
        cross = lambda a: mha_by_hand(a, memory, "ca", None)  # noqa: E731
    else:
        cross = lambda a: mha_by_hand(a, memory, "ca", memory_allowed)  # noqa: E731
    h2 = block(h1, cross, 2, pre, mistake)
    return block(h2, ffn_by_hand, 3, pre, mistake)


# ---------------------------------------------------------------------------------------
# 3. The position-wise feed-forward network
# ---------------------------------------------------------------------------------------
print("---- 3. The feed-forward network: linear2(relu(linear1(x)))")
x_ffn = scrambled(3, E, 11, 1.0)
ref_layer = encoder_layer(False)
ffn_out = ref_layer.linear2(torch.relu(ref_layer.linear1(x_ffn)))
close(ffn_out, ffn_by_hand(x_ffn), "FFN")
graded.matrix("ffn", "linear2(relu(linear1(x))) of the layers' FFN, x = scrambled(3, 6, 11, 1.0)", ffn_out)
pre_act = x_ffn @ P["w1"].T + P["b1"]
print(f"FFN pre-activations: {int((pre_act > 0).sum())} of {pre_act.numel()} positive, "
      f"smallest |value| {pre_act.abs().min().item():.3g}")

# ---------------------------------------------------------------------------------------
# 4. The encoder layer
# ---------------------------------------------------------------------------------------
print("---- 4. nn.TransformerEncoderLayer(6, 2, 10, dropout=0.0, batch_first=True)")
x_enc = scrambled(4, E, 3, 1.0)
g_enc = lin(4, E, 0.5, -0.7)  # the upstream gradient: loss = sum(output * g_enc)
diffs = {}
# The names the suite reads: one per mistake the encoder layer's tests name.
MISTAKES = {"no residual": "no_residual", "no relu": "no_relu",
            "residual from the normalised input": "residual_from_norm",
            "no causal mask": "no_causal_mask", "no memory mask": "no_memory_mask",
            "cross-attention over the decoder's own input": "cross_over_self"}
for norm_first, name, key in [(False, "post-LN", "encoder_post"), (True, "pre-LN", "encoder_pre")]:
    layer = encoder_layer(norm_first)
    xg = x_enc.clone().requires_grad_()
    out = layer(xg[None])[0]
    (out * g_enc).sum().backward()
    diffs[f"encoder {name}"] = close(out, encoder_by_hand(x_enc, norm_first), f"encoder {name}")
    what = f"nn.TransformerEncoderLayer(6, 2, 10, norm_first={norm_first}) ({name}) of x = scrambled(4, 6, 3, 1.0)"
    graded.matrix(key, f"{what}: the output", out)
    gradient = f"{what}, the loss sum(output * lin(4, 6, 0.5, -0.7))"
    graded.matrix(f"{key}_d_x", f"{gradient}: its gradient with respect to x", xg.grad)
    graded.vector(f"{key}_d_gamma_1", f"{gradient}: its gradient with respect to norm1.weight", layer.norm1.weight.grad)
    graded.vector(f"{key}_d_b_1", f"{gradient}: its gradient with respect to linear1.bias (ffn.w_1)",
                  layer.linear1.bias.grad)
    ffn_in = layer.norm1(x_enc + layer.self_attn(x_enc, x_enc, x_enc)[0]) if not norm_first else \
        layer.norm2(x_enc + layer.self_attn(*[layer.norm1(x_enc)] * 3)[0])
    pre_act = ffn_in @ P["w1"].T + P["b1"]
    print(f"encoder {name}: {int((pre_act > 0).sum())} of {pre_act.numel()} FFN units on")
    for mistake in ["no residual", "no relu"] + (["residual from the normalised input"] if norm_first else []):
        graded.matrix(f"mistake_{key}_{MISTAKES[mistake]}", f"{what} written out by hand with a mistake, {mistake}: "
                      "the output", encoder_by_hand(x_enc, norm_first, mistake=mistake))
    with torch.no_grad():  # PyTorch's inference fast path, where it applies
        fast = layer(x_enc[None])[0]
    print(f"encoder {name}: no_grad (fast path if taken) vs slow path max |difference| "
          f"{(fast - out).abs().max().item():.1e}")

x_pad = scrambled(5, E, 13, 1.0)
key_is_token = torch.tensor([True, True, True, False, False])
allowed = key_is_token[None, :].expand(5, -1)
layer = encoder_layer(False)
out_pad = layer(x_pad[None], src_key_padding_mask=~key_is_token[None, :])[0]
diffs["encoder post-LN, padded"] = close(out_pad, encoder_by_hand(x_pad, False, allowed), "padded encoder")
what = "nn.TransformerEncoderLayer(6, 2, 10) (post-LN) of x = scrambled(5, 6, 13, 1.0)"
graded.matrix("encoder_padded", f"{what}, src_key_padding_mask = [F, F, F, T, T]: the output", out_pad)
graded.matrix("mistake_encoder_padded_no_mask", f"{what} written out by hand without the mask: the output",
              encoder_by_hand(x_pad, False))
with torch.no_grad():
    fast = layer(x_pad[None], src_key_padding_mask=~key_is_token[None, :])[0]
print(f"padded encoder, no_grad vs with gradients: max |difference| {(fast - out_pad).abs().max().item():.1e}"
      " (the padded positions' own rows are computed too: they attend to the real tokens)")

# ---------------------------------------------------------------------------------------
# 5. The decoder layer
# ---------------------------------------------------------------------------------------
print("---- 5. nn.TransformerDecoderLayer(6, 2, 10, dropout=0.0, batch_first=True)")
x_dec = scrambled(4, E, 5, 1.0)
memory = scrambled(5, E, 7, 1.0)
g_dec = lin(4, E, -0.6, 0.8)
source_is_token = torch.tensor([True, True, True, True, False])
causal = torch.ones(4, 4, dtype=torch.bool).tril()
memory_allowed = source_is_token[None, :].expand(4, -1)
for norm_first, name, key in [(False, "post-LN", "decoder_post"), (True, "pre-LN", "decoder_pre")]:
    layer = decoder_layer(norm_first)
    xg, mg = x_dec.clone().requires_grad_(), memory.clone().requires_grad_()
    # PyTorch's masks are True where attending is NOT allowed.
    out = layer(xg[None], mg[None], tgt_mask=~causal, memory_key_padding_mask=~source_is_token[None, :])[0]
    (out * g_dec).sum().backward()
    hand = decoder_by_hand(x_dec, memory, norm_first, causal, memory_allowed)
    diffs[f"decoder {name}"] = close(out, hand, f"decoder {name}")
    what = (f"nn.TransformerDecoderLayer(6, 2, 10, norm_first={norm_first}) ({name}) of x = scrambled(4, 6, 5, 1.0) "
            "and memory = scrambled(5, 6, 7, 1.0), causal tgt_mask, memory_key_padding_mask = [F, F, F, F, T]")
    graded.matrix(key, f"{what}: the output", out)
    gradient = f"{what}, the loss sum(output * lin(4, 6, -0.6, 0.8))"
    graded.matrix(f"{key}_d_x", f"{gradient}: its gradient with respect to x", xg.grad)
    graded.matrix(f"{key}_d_memory", f"{gradient}: its gradient with respect to the memory", mg.grad)
    graded.vector(f"{key}_d_gamma_3", f"{gradient}: its gradient with respect to norm3.weight", layer.norm3.weight.grad)
    graded.vector(f"{key}_d_b_o_cross", f"{gradient}: its gradient with respect to multihead_attn.out_proj.bias "
                  "(cross_attention.w_o)", layer.multihead_attn.out_proj.bias.grad)
    assert mg.grad[4].abs().max().item() == 0.0, "the padded memory row gets no gradient"
    mistakes = ["no causal mask", "no memory mask", "cross-attention over the decoder's own input", "no residual"]
    if norm_first:
        mistakes.append("residual from the normalised input")
    for mistake in mistakes:
        graded.matrix(f"mistake_{key}_{MISTAKES[mistake]}", f"{what}, written out by hand with a mistake, {mistake}: "
                      "the output", decoder_by_hand(x_dec, memory, norm_first, causal, memory_allowed, mistake))
    # The future cannot leak: change the last target token, rows 0..2 stay exactly.
    x_changed = x_dec.clone()
    x_changed[3] = torch.tensor([5.0, -3.0, 2.0, 0.5, -1.0, 4.0])
    out_changed = layer(x_changed[None], memory[None], tgt_mask=~causal,
                        memory_key_padding_mask=~source_is_token[None, :])[0]
    print(f"decoder {name}: changing target row 3 changes rows 0-2 by "
          f"{(out_changed[:3] - out[:3]).abs().max().item():.1e}")
    memory_changed = memory.clone()
    memory_changed[4] = 100.0
    out_mem = layer(x_dec[None], memory_changed[None], tgt_mask=~causal,
                    memory_key_padding_mask=~source_is_token[None, :])[0]
    print(f"decoder {name}: changing the padded memory row changes the output by "
          f"{(out_mem - out).abs().max().item():.1e}")

print("---- nn.Transformer*Layer vs the layers written out by hand, max |difference|:")
for name, diff in diffs.items():
    print(f"  {name}: {diff:.1e}")

finish(graded)
