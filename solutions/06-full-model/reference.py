"""Reference values for lesson 06's graded tests, from PyTorch and Python's datetime.

It writes the values the graded suite (solutions/06-full-model/suite/graded.rs) reads into
solutions/06-full-model/suite/graded.json, in float64 (the format is
tools/reference/fixture.py's; `--check` compares instead of writing), and prints what it
checks on the way. The visible tests (lessons/06-full-model/tests/visible.rs) keep a few of
the same values as literals. CI never runs it: PyTorch is large.

How to run it, from the course's root, in a virtual environment (PyTorch is a large
download, about 5 GB with its CUDA libraries):

    python3 -m venv <a folder for the environment>
    <that folder>/bin/pip install torch numpy
    <that folder>/bin/python solutions/06-full-model/reference.py

graded.json records the versions that computed it: torch 2.15.0 (CPU) and numpy 2.4.6,
Python 3.11, in float64. Everything is deterministic: no random stream is used.

What it computes:
1. weekdays of fixed dates (datetime, proleptic Gregorian calendar);
2. the paper's learning-rate schedule at a few steps;
3. F.cross_entropy with label smoothing and ignore_index (the course's loss), and the
   smoothed distributions of PyTorch and of the Annotated Transformer for comparison (the
   suite computes PyTorch's by hand);
4. torch.optim.Adam's first three steps on a small vector, and the same without bias
   correction (the mistake the graded test names);
5. a whole tiny Transformer built from nn.TransformerEncoderLayer /
   nn.TransformerDecoderLayer (post-LN, no final norms, dropout 0), nn.Embedding times
   sqrt(d_model) plus the sinusoidal table, and nn.Linear to the vocabulary, with every
   parameter set by the suite's deterministic fill in the course's parameter order: its
   logits, loss, some gradients, the gradient norm, and parameters after one step of
   clip_grad_norm_(1.0) + Adam(lr 0.01, betas (0.9, 0.98), eps 1e-9).
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import datetime
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from fixture import Fixture, finish

torch.set_default_dtype(torch.float64)
graded = Fixture("06-full-model/graded.json", torch=torch.__version__)


def show(what, m):
    """Prints a value the suite does not read."""
    print(f"{what}: {(m.detach() if torch.is_tensor(m) else np.asarray(m)).tolist()}")


print(f"torch {torch.__version__}, numpy {np.__version__}; float64")

# ---------------------------------------------------------------------------------------
# 1. Weekdays (datetime.weekday(): Monday = 0)
# ---------------------------------------------------------------------------------------
print("---- 1. weekdays, Monday = 0")
dates = [(2000, 1, 1), (1970, 1, 1), (2046, 6, 24), (1000, 1, 1), (2999, 12, 31), (1582, 10, 15),
         (1899, 3, 14), (1900, 3, 1), (2000, 2, 29), (2100, 3, 1), (1600, 2, 29), (2024, 2, 29)]
for y, m, d in dates:
    print(f"  {y:04}-{m:02}-{d:02}: {datetime.date(y, m, d).weekday()} "
          f"({datetime.date(y, m, d).strftime('%A').lower()})")
graded.integers("weekday", "datetime.date(y, m, d).weekday() (Monday = 0) of "
                + ", ".join(f"{y:04}-{m:02}-{d:02}" for y, m, d in dates),
                [datetime.date(y, m, d).weekday() for y, m, d in dates])

# ---------------------------------------------------------------------------------------
# 2. The schedule
# ---------------------------------------------------------------------------------------


def noam(step, d_model, warmup, factor=1.0):
    step = max(step, 1)
    return factor * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


print("---- 2. noam_rate(step, d_model, warmup, factor)")
for args in [(1, 512, 4000, 1.0), (4000, 512, 4000, 1.0), (20000, 512, 4000, 1.0),
             (0, 512, 4000, 1.0), (2000, 512, 4000, 1.0), (8000, 512, 4000, 1.0),
             (4000, 256, 4000, 1.0), (8000, 512, 8000, 1.0), (400, 512, 400, 0.5),
             (100, 32, 100, 3e-3 * math.sqrt(32 * 100))]:
    print(f"  noam{args} = {noam(*args)!r}")
# The graded suite's cases, in its order.
cases = [(1, 512, 4000, 1.0), (4000, 512, 4000, 1.0), (20000, 512, 4000, 1.0), (0, 512, 4000, 1.0),
         (2000, 512, 4000, 1.0), (4000, 256, 4000, 1.0), (400, 512, 400, 0.5)]
graded.vector("noam_rate", "noam(step, d_model, warmup, factor) for (step, d_model, warmup, factor) = "
              + ", ".join(str(args) for args in cases), [noam(*args) for args in cases])

# ---------------------------------------------------------------------------------------
# 3. The loss
# ---------------------------------------------------------------------------------------
print("---- 3. the loss")
# PyTorch's documented example: logits [2, 1, 0], target 0, label_smoothing 0.1. The
# course's PAD is token 0, so the same numbers are written with the columns rotated:
# logits [0, 2, 1] and target 1 (the gold class still has the logit 2).
lg = torch.tensor([[2.0, 1.0, 0.0]])
print(f"F.cross_entropy([[2, 1, 0]], [0], label_smoothing=0.1) = "
      f"{F.cross_entropy(lg, torch.tensor([0]), label_smoothing=0.1).item()!r}")
lg = torch.tensor([[0.0, 2.0, 1.0]])
graded.scalar("example_loss", "F.cross_entropy([[0, 2, 1]], [1], label_smoothing=0.1): PyTorch's documented "
              "example, its columns rotated so that the gold class is not PAD",
              F.cross_entropy(lg, torch.tensor([1]), label_smoothing=0.1))
graded.scalar("example_loss_without_smoothing", "F.cross_entropy([[0, 2, 1]], [1])",
              F.cross_entropy(lg, torch.tensor([1])))

# A batch with a padding row: V = 5, targets [2, 4, PAD, 3], smoothing 0.2.
logits = torch.tensor(np.linspace(-1.5, 2.0, 20).reshape(4, 5), requires_grad=True)
targets = torch.tensor([2, 4, 0, 3])
loss = F.cross_entropy(logits, targets, ignore_index=0, label_smoothing=0.2)
loss.backward()
what = ("F.cross_entropy(logits, targets, ignore_index=0, label_smoothing=0.2) of logits = "
        "linspace(-1.5, 2.0, 20).reshape(4, 5), targets [2, 4, PAD, 3]")
graded.scalar("padded_loss", what, loss)
graded.matrix("padded_loss_d_logits", f"{what}: its gradient with respect to the logits", logits.grad)
loss_all = F.cross_entropy(logits.detach(), targets, label_smoothing=0.2, reduction="none")
graded.scalar("padded_loss_over_all_rows", f"{what}, a mistake: averaged over all 4 rows, the PAD row's "
              "terms set to 0", loss_all[[0, 1, 3]].sum() / 4)

# The smoothed distribution: PyTorch's and the Annotated Transformer's.
V, eps = 5, 0.4
tgt = [2, 1, 0, 3]
q_torch = np.zeros((4, V))
q_annotated = np.zeros((4, V))
for r, t in enumerate(tgt):
    if t == 0:
        continue
    q_torch[r] = eps / V
    q_torch[r, t] += 1 - eps
    q_annotated[r] = eps / (V - 2)
    q_annotated[r, 0] = 0
    q_annotated[r, t] = 1 - eps
show("PyTorch's smoothed targets, V = 5, eps 0.4, targets [2, 1, PAD, 3]", q_torch)
show("the Annotated Transformer's LabelSmoothing(5, padding_idx=0, smoothing=0.4)", q_annotated)

# ---------------------------------------------------------------------------------------
# 4. Adam
# ---------------------------------------------------------------------------------------
print("---- 4. Adam(lr 0.1, betas (0.9, 0.98), eps 1e-9)")
p = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.Adam([p], lr=0.1, betas=(0.9, 0.98), eps=1e-9)
grads = [[0.1, -0.3, 0.0], [0.2, 0.1, -0.05], [-0.1, 0.2, 0.3]]
m = np.zeros(3)
v = np.zeros(3)
q = np.array([1.0, -2.0, 0.5])
steps, uncorrected = [], []
for t, g in enumerate(grads, start=1):
    p.grad = torch.tensor(g)
    opt.step()
    steps.append(p.detach().clone().numpy())
    g = np.array(g)
    m = 0.9 * m + 0.1 * g
    v = 0.98 * v + 0.02 * g * g
    q = q - 0.1 * m / (np.sqrt(v) + 1e-9)
    uncorrected.append(q.copy())
what = ("torch.optim.Adam(lr 0.1, betas (0.9, 0.98), eps 1e-9) from [1, -2, 0.5] with the gradients "
        + ", ".join(str(g) for g in grads))
graded.matrix("adam_steps", f"{what}: the parameters after each step, a row per step", np.array(steps))
graded.matrix("adam_steps_without_bias_correction", f"{what}, a mistake: the same without bias correction",
              np.array(uncorrected))

# ---------------------------------------------------------------------------------------
# 5. A whole tiny Transformer
# ---------------------------------------------------------------------------------------
VOCAB, D, H, FF, N, MAX_LEN = 7, 4, 2, 6, 2, 8


def scrambled_value(k):
    """The suite's fill: ((k^2 * 7 + k * 13 + 3) mod 97) / 48 - 1."""
    return ((k * k * 7 + k * 13 + 3) % 97) / 48.0 - 1.0


# How each kind of tensor is filled: offset + scale * scrambled(i + 7k + 1) for entry i of
# tensor number k in the course's order. LayerNorm gains stay near 1 and biases small, so
# that the rows of the output differ (with gains near 0 every row looks alike).
KINDS = {"embedding": (0.0, 0.5), "weight": (0.0, 0.8), "bias": (0.0, 0.1),
         "gamma": (1.0, 0.3), "beta": (0.0, 0.1)}


def fill(length, k, kind):
    offset, scale = KINDS[kind]
    return torch.tensor([offset + scale * scrambled_value(i + 7 * k + 1) for i in range(length)])


def sinusoidal(max_len, d):
    pe = np.zeros((max_len, d))
    for pos in range(max_len):
        for i in range(d // 2):
            angle = pos / 10000.0 ** (2 * i / d)
            pe[pos, 2 * i] = math.sin(angle)
            pe[pos, 2 * i + 1] = math.cos(angle)
    return torch.tensor(pe)


src_emb = nn.Embedding(VOCAB, D)
tgt_emb = nn.Embedding(VOCAB, D)
enc = nn.ModuleList(nn.TransformerEncoderLayer(D, H, FF, dropout=0.0, batch_first=True)
                    for _ in range(N))
dec = nn.ModuleList(nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, batch_first=True)
                    for _ in range(N))
out = nn.Linear(D, VOCAB)

# The course's order (Transformer::parameters), as (name, setter) pairs.
order = []


kinds = []


def add(entry, kind):
    order.append(entry)
    kinds.append(kind)


def mha_entries(mha):
    # w_q, w_k, w_v: rows 0..D, D..2D, 2D..3D of the packed in_proj_weight.
    for i in range(3):
        add((mha.in_proj_weight, slice(i * D, (i + 1) * D)), "weight")
        add((mha.in_proj_bias, slice(i * D, (i + 1) * D)), "bias")
    add(mha.out_proj.weight, "weight")
    add(mha.out_proj.bias, "bias")


def linear_entries(linear):
    add(linear.weight, "weight")
    add(linear.bias, "bias")


def norm_entries(norm):
    add(norm.weight, "gamma")
    add(norm.bias, "beta")


add(src_emb.weight, "embedding")
add(tgt_emb.weight, "embedding")
for layer in enc:
    mha_entries(layer.self_attn)
    linear_entries(layer.linear1)
    linear_entries(layer.linear2)
    norm_entries(layer.norm1)
    norm_entries(layer.norm2)
for layer in dec:
    mha_entries(layer.self_attn)
    mha_entries(layer.multihead_attn)
    linear_entries(layer.linear1)
    linear_entries(layer.linear2)
    norm_entries(layer.norm1)
    norm_entries(layer.norm2)
    norm_entries(layer.norm3)
linear_entries(out)
print(f"---- 5. the tiny model: {len(order)} tensors in the course's order")


def view(entry):
    if isinstance(entry, tuple):
        tensor, rows = entry
        return tensor[rows]
    return entry


with torch.no_grad():
    for k, entry in enumerate(order):
        target = view(entry)
        target.copy_(fill(target.numel(), k, kinds[k]).reshape(target.shape))

params = list(src_emb.parameters()) + list(tgt_emb.parameters()) + list(enc.parameters()) \
    + list(dec.parameters()) + list(out.parameters())
print(f"  {sum(p.numel() for p in params)} parameters")

PAD = 0
src = torch.tensor([[3, 4, 5, 6], [5, 3, PAD, PAD]])
tgt_in = torch.tensor([[1, 4, 6, 5], [1, 6, PAD, PAD]])
tgt_out = torch.tensor([[4, 6, 5, 2], [6, 2, PAD, PAD]])
pe = sinusoidal(MAX_LEN, D)


def forward(scale=True, positions=True, causal_mask=True, encoder_mask=True,
            cross_mask=True, every_layer_sees_the_embedding=False):
    """The model; the switches turn off one piece each, to print the wrong answers that
    common mistakes give (the graded suite names them)."""
    factor = math.sqrt(D) if scale else 1.0
    x0 = src_emb(src) * factor + (pe[: src.shape[1]] if positions else 0.0)
    x = x0
    for layer in enc:
        layer.train()
        x = layer(x0 if every_layer_sees_the_embedding else x,
                  src_key_padding_mask=(src == PAD) if encoder_mask else None)
    T = tgt_in.shape[1]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1) if causal_mask else None
    y0 = tgt_emb(tgt_in) * factor + (pe[:T] if positions else 0.0)
    y = y0
    for layer in dec:
        layer.train()
        y = layer(y0 if every_layer_sees_the_embedding else y, x, tgt_mask=causal,
                  tgt_key_padding_mask=(tgt_in == PAD),
                  memory_key_padding_mask=(src == PAD) if cross_mask else None)
    return out(y).reshape(-1, VOCAB)


logits = forward()
loss = F.cross_entropy(logits, tgt_out.reshape(-1), ignore_index=PAD, label_smoothing=0.1)
MODEL = "the tiny Transformer on the suite's batch"
graded.matrix("tiny_model_logits", f"{MODEL}: the logits (B*T, V)", logits)
graded.scalar("tiny_model_loss", f"{MODEL}: the loss, F.cross_entropy(..., ignore_index=PAD, "
              "label_smoothing=0.1)", loss)
with torch.no_grad():
    for key, name, kwargs in [
        ("no_scale", "the embeddings not multiplied by sqrt(d_model)", {"scale": False}),
        ("no_positions", "no positional encoding", {"positions": False}),
        ("no_causal_mask", "no causal mask in the decoder", {"causal_mask": False}),
        ("no_encoder_mask", "the source's padding not masked in the encoder", {"encoder_mask": False}),
        ("no_cross_mask", "the source's padding not masked in the cross-attention", {"cross_mask": False}),
        ("same_input", "every layer given the embeddings instead of the layer below's output",
         {"every_layer_sees_the_embedding": True}),
    ]:
        graded.matrix(f"tiny_model_logits_{key}", f"{MODEL}, a mistake, {name}: the logits", forward(**kwargs))
loss.backward()
# Four tensors, by their names in the course's order (Transformer::parameters) and their
# number k there: decoder[1].cross_attention.w_k.weight is k = 2 + 32 + 26 + 8 + 2 = 70.
named = {
    "src_embedding.weight": 0,
    "encoder[0].norm_1.gamma": 14,
    "decoder[1].cross_attention.w_k.weight": 70,
    "output.bias": 87,
}


def grad_of(entry):
    if isinstance(entry, tuple):
        tensor, rows = entry
        return tensor.grad[rows]
    return entry.grad


for name, k in named.items():
    graded.vector(f"gradient of {name}", f"{MODEL}: the gradient of the loss with respect to {name} "
                  f"(tensor {k} of the course's order), flattened", grad_of(order[k]).reshape(-1))
norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
graded.scalar("tiny_model_gradient_norm", f"{MODEL}: the gradient's norm before clipping", norm)
opt = torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.98), eps=1e-9)
opt.step()
for name, k in named.items():
    graded.vector(f"{name} after one step", f"{MODEL}: {name} after clip_grad_norm_(1.0) and one step of "
                  "Adam(lr 0.01, betas (0.9, 0.98), eps 1e-9), flattened", view(order[k]).detach().reshape(-1))

finish(graded)
