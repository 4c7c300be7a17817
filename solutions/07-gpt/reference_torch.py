"""Reference values for lesson 07's whole model (a small GPT), computed independently with PyTorch.

Run it from the course's root with `python3 solutions/07-gpt/reference_torch.py` (it needs
torch, numpy and safetensors): it writes the values the model's tests read into
solutions/07-gpt/suite/graded.torch.json, in float64 (the format is tools/reference/fixture.py's;
`--check` writes nothing and compares with the committed file instead), and prints what it
checks on the way.

The model is the torch.nn.Module `Gpt` of learner/scripts/gpt_torch.py (the script the
learners get as lessons/07-gpt/scripts/gpt_torch.py, which loads the checkpoints their Rust
model writes and times a training step; this script imports the module from it), run here
in float64. It is built from PyTorch's own layers: nn.Embedding, nn.RMSNorm (eps = 1e-5),
nn.Linear without bias (weights stored (out, in), applied as x·Wᵀ). Its state_dict() names
are the names of the values below. It is

    x_0      = embedding.weight[tokens]
    x_{l+1}  = block_l(x_l),  a pre-norm block:  h = x + Attention(norm_1(x));
                                                 y = h + SwiGLU(norm_2(h))
    logits   = norm_final(x_L) · embedding.weightᵀ  (the output head is tied to the embedding)
    loss     = F.cross_entropy(logits, targets), the mean over positions, natural log

with SwiGLU(b) = w_down(silu(w_gate(b)) ⊙ w_up(b)) and causal multi-head self-attention:
q, k, v = w_q(a), w_k(a), w_v(a), head i is columns [i·d_head, (i+1)·d_head); RoPE on the q
and k of every head (not v) at positions 0..n-1, rotating the adjacent features (2j, 2j+1)
by p·ω_j with ω_j = 10000^(−2j/d_head), written with real cos/sin tensors (the NumPy
reference, reference.py, writes it as complex multiplication); softmax(q·kᵀ/√d_head) under
a causal mask, times v; the heads merged back into their columns; then w_o. RMSNorm is
checked once against its formula, and attention against F.scaled_dot_product_attention.

The tiny model of the fixture: vocab_size 11, d_model 8, n_heads 2, n_layers 2, d_ff 12.
Its parameters in order k = 0, 1, 2, ... (embedding.weight; for each block norm_1, w_q,
w_k, w_v, w_o, norm_2, w_gate, w_up, w_down; norm_final) are filled with the course's
`scrambled`: a matrix (rows, cols) with scrambled(rows, cols, 100 + 7k, 0.5), a gain of
length d with 1 + scrambled(1, d, 100 + 7k, 0.3). The window is the tokens
[3, 7, 1, 3, 10, 0, 5, 2]: the inputs are the first 7, the targets the last 7.

The values written, all computed by PyTorch (the gradients by its autograd), independently
of the Rust code:
- every parameter under its own name (so the Rust tests read the same weights);
- `inputs`, `targets`;
- `logits` (7, 11), the model's logits for the inputs; `loss`, the cross-entropy;
- `d_logits`, ∂loss/∂logits (autograd, with retain_grad on the logits);
- `grad.<name>` for every parameter, ∂loss/∂parameter; each of them is also checked in this
  script against central differences (step 1e-6, tolerance 1e-8);
- `stream.1` (7, 8), the stream after block 0 (the input of block 1);
- block 0 alone, on block_x = scrambled(5, 8, 13, 1.0) with block_upstream =
  scrambled(5, 8, 53, 1.0): `block_residual` (h = x + Attention(norm_1(x))), `block_output`, and for L = Σ block(x) ⊙ upstream, `block.d_x` and
  `block.grad.<name>` for its nine parameters (named without the `blocks.0.` prefix), also
  checked against central differences.

(Loading a checkpoint of the Rust model into this module and comparing its logits is
gpt_torch.py's job: `python3 solutions/07-gpt/learner/scripts/gpt_torch.py FILE.safetensors`.)
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
sys.path.insert(0, str(Path(__file__).resolve().parent / "learner" / "scripts"))
import numpy as np
import torch
import torch.nn.functional as F
from fixture import Fixture, finish
from gpt_torch import EPS, Gpt

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def scrambled(rows, cols, seed, scale):
    """course_harness::scrambled: entry k = i·cols + j + seed is ((7k² + 13k + 3) mod 97)/48 − 1."""
    k = np.arange(rows * cols).reshape(rows, cols) + seed
    return (((k * k * 7 + k * 13 + 3) % 97) / 48.0 - 1.0) * scale


# ---------------------------------------------------------------------------- the fixture


def central_difference(f, tensor, step=1e-6):
    """∂f/∂tensor entry by entry, (f(t + h) − f(t − h)) / 2h, f evaluated without autograd."""
    grad = torch.zeros_like(tensor)
    with torch.no_grad():
        for idx in np.ndindex(tuple(tensor.shape)):
            keep = tensor[idx].item()
            tensor[idx] = keep + step
            up = f().item()
            tensor[idx] = keep - step
            down = f().item()
            tensor[idx] = keep
            grad[idx] = (up - down) / (2 * step)
    return grad


def agrees(what, autograd, numeric, tolerance=1e-8):
    gap = (autograd - numeric).abs().max().item()
    assert gap < tolerance, (what, gap)
    return gap


def write_fixture():
    fixture = Fixture("07-gpt/graded.torch.json", torch=torch.__version__)
    vocab_size, d_model, n_heads, n_layers, d_ff = 11, 8, 2, 2, 12
    model = Gpt(vocab_size, d_model, n_heads, n_layers, d_ff)

    # The parameters, in the fixed order k = 0, 1, 2, ...
    names = ["embedding.weight"]
    for i in range(n_layers):
        names += [f"blocks.{i}.{part}.weight" for part in [
            "norm_1", "attention.w_q", "attention.w_k", "attention.w_v", "attention.w_o",
            "norm_2", "feed_forward.w_gate", "feed_forward.w_up", "feed_forward.w_down"]]
    names.append("norm_final.weight")
    assert list(model.state_dict().keys()) == names, list(model.state_dict().keys())
    params = dict(model.named_parameters())
    with torch.no_grad():
        for k, name in enumerate(names):
            p = params[name]
            assert p.dtype == torch.float64
            seed = 100 + 7 * k
            if p.ndim == 2:
                rows, cols = p.shape
                p.copy_(torch.from_numpy(scrambled(rows, cols, seed, 0.5)))
                fixture.matrix(name, f"parameter {k}: scrambled({rows}, {cols}, {seed}, 0.5)", p)
            else:
                (d,) = p.shape
                p.copy_(torch.from_numpy(1.0 + scrambled(1, d, seed, 0.3).reshape(-1)))
                fixture.vector(name, f"parameter {k}: 1 + scrambled(1, {d}, {seed}, 0.3), flat", p)

    window = [3, 7, 1, 3, 10, 0, 5, 2]
    inputs, targets = torch.tensor(window[:-1]), torch.tensor(window[1:])
    fixture.integers("inputs", f"the first 7 tokens of the window {window}", inputs.numpy())
    fixture.integers("targets", f"the last 7 tokens of the window {window}", targets.numpy())

    # nn.RMSNorm is the formula; attention agrees with PyTorch's own.
    with torch.no_grad():
        norm = model.blocks[0].norm_1
        x = torch.from_numpy(scrambled(5, 8, 13, 1.0))
        formula = norm.weight * x / torch.sqrt((x * x).mean(dim=-1, keepdim=True) + EPS)
        assert (norm(x) - formula).abs().max() < 1e-14
        attention = model.blocks[0].attention
        q, k, v = attention.heads(norm(x))
        sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        sdpa = attention.w_o(sdpa.transpose(0, 1).reshape(5, d_model))
        assert (attention(norm(x)) - sdpa).abs().max() < 1e-14
    print("nn.RMSNorm matches its formula; attention matches scaled_dot_product_attention")

    # The logits, the loss and their gradients.
    logits = model(inputs)
    logits.retain_grad()
    loss = F.cross_entropy(logits, targets)
    loss.backward()
    fixture.matrix("logits", "the model's logits for the inputs", logits)
    fixture.scalar("loss", "F.cross_entropy(logits, targets), mean over the 7 positions", loss)
    fixture.matrix("d_logits", "∂loss/∂logits (autograd)", logits.grad)
    for name in names:
        grad = params[name].grad
        what = f"∂loss/∂{name} (autograd)"
        (fixture.matrix if grad.ndim == 2 else fixture.vector)(f"grad.{name}", what, grad)
    with torch.no_grad():
        fixture.matrix("stream.1", "the stream after block 0 (the input of block 1)",
                       model.streams(inputs)[1])
    print(f"loss {loss.item()!r}")

    # Every gradient against central differences.
    loss_of = lambda: F.cross_entropy(model(inputs), targets)
    worst = max(agrees(name, params[name].grad, central_difference(loss_of, params[name].data))
                for name in names)
    print(f"the {len(names)} gradients of the loss agree with central differences "
          f"(largest gap {worst:.2g})")

    # Block 0 alone.
    block = model.blocks[0]
    x = torch.from_numpy(scrambled(5, 8, 13, 1.0)).requires_grad_()
    upstream = torch.from_numpy(scrambled(5, 8, 53, 1.0))
    out = block(x)
    block_params = dict(block.named_parameters())
    grads = torch.autograd.grad((out * upstream).sum(), [x, *block_params.values()])
    fixture.matrix("block_x", "scrambled(5, 8, 13, 1.0)", x)
    fixture.matrix("block_upstream", "scrambled(5, 8, 53, 1.0)", upstream)
    fixture.matrix("block_output", "block 0 applied to block_x", out)
    with torch.no_grad():
        residual = x + block.attention(block.norm_1(x))
    fixture.matrix("block_residual", "h = x + attention(norm_1(x)) of block 0 on block_x", residual)
    fixture.matrix("block.d_x", "∂L/∂x, L = Σ block(x) ⊙ upstream (autograd)", grads[0])
    for (name, p), grad in zip(block_params.items(), grads[1:]):
        what = f"∂L/∂{name} of block 0, L = Σ block(x) ⊙ upstream (autograd)"
        (fixture.matrix if grad.ndim == 2 else fixture.vector)(f"block.grad.{name}", what, grad)
    block_loss = lambda: (block(x.data) * upstream).sum()
    worst = agrees("block.d_x", grads[0], central_difference(block_loss, x.data))
    for (name, p), grad in zip(block_params.items(), grads[1:]):
        worst = max(worst, agrees(name, grad, central_difference(block_loss, p.data)))
    print(f"block 0 alone: d_x and the 9 gradients agree with central differences "
          f"(largest gap {worst:.2g})")

    finish(fixture)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with solutions/07-gpt/suite/graded.torch.json instead of writing")
    parser.parse_args()
    write_fixture()


if __name__ == "__main__":
    main()
