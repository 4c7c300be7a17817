"""Reference values for lesson 04's graded tests, computed independently with NumPy.

Run it from the course's root with `python3 solutions/04-positional-encoding/reference.py` (NumPy
only): it writes the values the graded suite (solutions/04-positional-encoding/suite/
graded.rs) reads into solutions/04-positional-encoding/suite/graded.json, in float64 (the
format is tools/reference/fixture.py's; `--check` compares instead of writing), and prints
what it checks on the way. Inputs are deterministic (numpy.linspace or literals), never a
random stream.

The table is computed twice, from the paper's formula as written
(pos / 10000^(2i/d_model)) and the way the PyTorch tutorial and the Annotated Transformer
do it (div_term = exp(arange(0, d, 2) * -ln(10000) / d)), and the two must agree.
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import numpy as np
from fixture import Fixture, finish

graded = Fixture("04-positional-encoding/graded.json")


def table_paper(max_len, d_model):
    """PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same): interleaved."""
    pe = np.zeros((max_len, d_model))
    for pos in range(max_len):
        for i in range(d_model // 2):
            angle = pos / 10000.0 ** (2 * i / d_model)
            pe[pos, 2 * i] = np.sin(angle)
            pe[pos, 2 * i + 1] = np.cos(angle)
    return pe


def table_torch_style(max_len, d_model):
    """The PyTorch tutorial's vectorised form (seed 001's PositionalEncoding)."""
    position = np.arange(max_len, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * (-np.log(10000.0) / d_model))
    pe = np.zeros((max_len, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def lin(rows, cols, start, end):
    return np.linspace(start, end, rows * cols).reshape(rows, cols)


for d in (6, 8, 16):
    a, b = table_paper(1001, d), table_torch_style(1001, d)
    assert np.abs(a - b).max() < 1e-12, "the two forms of the table disagree"

# burn's d_model = 6 fixture (crates/burn-nn pos_encoding.rs, "values taken from the
# pytorch reference implementation"), to 5 decimals: the graded suite has burn's table.
burn = np.array([
    [0.00000, 1.00000, 0.00000, 1.00000, 0.00000, 1.00000],
    [0.84147, 0.54030, 0.04640, 0.99892, 0.00215, 1.00000],
    [0.90930, -0.41615, 0.09270, 0.99569, 0.00431, 0.99999],
    [0.14112, -0.98999, 0.13880, 0.99032, 0.00646, 0.99998],
    [-0.99999, 0.00443, 0.48868, 0.87246, 0.02370, 0.99972],
])
pe6 = table_paper(12, 6)
print("d_model = 6, rows 0, 1, 2, 3, 11: max |ours - burn's 5-decimal table| =",
      np.abs(pe6[[0, 1, 2, 3, 11]] - burn).max())

pe8 = table_paper(101, 8)
graded.matrix("table_8_rows", "the table for d_model = 8: rows 0, 1, 2, 3, 4, 5, 37 and 100",
              pe8[[0, 1, 2, 3, 4, 5, 37, 100]])

pe16 = table_paper(1001, 16)
graded.matrix("table_16_rows", "the table for d_model = 16: rows 1, 7, 50, 99 and 1000",
              pe16[[1, 7, 50, 99, 1000]])

print("frequencies for d_model = 8:", [10000.0 ** (-2 * i / 8) for i in range(4)])
graded.vector("frequencies_16", "the frequencies for d_model = 16, 10000^(-2i/16) for i = 0..8",
              [10000.0 ** (-2 * i / 16) for i in range(8)])
print("wavelengths 2*pi/omega for d_model = 16:",
      [f"{2 * np.pi * 10000.0 ** (2 * i / 16):.6}" for i in range(8)])

# <PE(p), PE(p + k)> = sum_i cos(k omega_i) depends only on k; ||PE(p)||^2 = d/2.
distances = (1, 3, 10, 25)
closed = [np.sum(np.cos(k * 10000.0 ** (-2 * np.arange(8) / 16))) for k in distances]
for k, dot in zip(distances, closed):
    dots = [pe16[p] @ pe16[p + k] for p in (0, 5, 20, 400)]
    print(f"d = 16, k = {k}: <PE(p), PE(p+k)> - sum_i cos(k w_i) for p = 0, 5, 20, 400: "
          + ", ".join(f"{x - dot:.1e}" for x in dots))
graded.vector("dot_at_distance", "d_model = 16: <PE(p), PE(p + k)> = sum_i cos(k w_i) for k = 1, 3, 10 "
              "and 25", closed)
print("d = 16: ||PE(p)||^2 for p = 0, 7, 999:",
      [f"{pe16[p] @ pe16[p]:.12}" for p in (0, 7, 999)])

# The embedding-to-encoding ratio: sqrt(mean_v ||sqrt(d) E_v||^2) / sqrt(mean_p ||PE_p||^2).
w = lin(4, 6, -1.0, 1.0)
t = table_paper(10, 6)
scaled = np.sqrt(6) * w
ratio = np.sqrt((scaled ** 2).sum(1).mean()) / np.sqrt((t ** 2).sum(1).mean())
graded.scalar("ratio", "the embedding-to-encoding ratio of weight = lin(4, 6, -1, 1) and the table "
              "(10, 6): root-mean-square row norms", ratio)
print(f"ratio, weight = lin(4, 6, -1, 1), table (10, 6): {ratio:.10}")
print(f"  without the sqrt(d) scale: {ratio / np.sqrt(6):.10}")
mean_of_norms = np.linalg.norm(scaled, axis=1).mean() / np.linalg.norm(t, axis=1).mean()
print(f"  mean of norms instead of root-mean-square: {mean_of_norms:.10}")
frobenius = np.linalg.norm(scaled) / np.linalg.norm(t)
print(f"  Frobenius norms, not divided by the row counts: {frobenius:.10}")

# The seed's example: 猫追狗 and 狗追猫 through one self-attention head whose three
# projections are the identity (Q = K = V = X, d_k = 4), without and with the encoding.
emb = np.array([
    [0.6, -0.2, 0.5, 0.1],   # 猫
    [-0.4, 0.7, 0.0, -0.5],  # 追
    [0.3, 0.4, -0.6, 0.2],   # 狗
])


def softmax_rows(s):
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def identity_head(x):
    w = softmax_rows(x @ x.T / np.sqrt(x.shape[1]))
    return w @ x, w


cat_chases_dog, dog_chases_cat = [0, 1, 2], [2, 1, 0]
pe4 = table_paper(3, 4)
for with_pe in (False, True):
    # Embeddings are scaled by sqrt(d_model) = 2.
    x1 = 2.0 * emb[cat_chases_dog] + (pe4 if with_pe else 0)
    x2 = 2.0 * emb[dog_chases_cat] + (pe4 if with_pe else 0)
    (o1, w1), (o2, w2) = identity_head(x1), identity_head(x2)
    label = "with" if with_pe else "without"
    what = f"self-attention (Q = K = V = X) of the embeddings, {label} the encoding"
    graded.matrix(f"cat_chases_dog_{label}_positions", f"{what}, of 猫追狗: the output", o1)
    if with_pe:
        graded.matrix(f"dog_chases_cat_{label}_positions", f"{what}, of 狗追猫: the output", o2)
    print(f"{label} PE: max |out(狗追猫) - rows of out(猫追狗) reversed| ="
          f" {np.abs(o2 - o1[::-1]).max():.6}; 追's row differs by"
          f" {np.abs(o2[1] - o1[1]).max():.6}")

# A general head (lesson 02's Linear: y = x W^T + b) on five tokens, permuted.
emb = lin(6, 8, -0.45, 0.5)
w_q, b_q = lin(4, 8, 0.5, -0.6), np.linspace(0.1, -0.1, 4)
w_k, b_k = lin(4, 8, -0.4, 0.7), np.linspace(-0.2, 0.2, 4)
w_v, b_v = lin(3, 8, 0.8, -0.3), np.linspace(0.05, -0.05, 3)


def head(x):
    q, k, v = x @ w_q.T + b_q, x @ w_k.T + b_k, x @ w_v.T + b_v
    w = softmax_rows(q @ k.T / np.sqrt(4))
    return w @ v, w


tokens, perm = np.array([3, 0, 5, 1, 4]), np.array([2, 4, 0, 3, 1])
pe8 = table_paper(5, 8)
for with_pe in (False, True):
    extra = pe8 if with_pe else 0
    o1, w1 = head(np.sqrt(8) * emb[tokens] + extra)
    o2, w2 = head(np.sqrt(8) * emb[tokens[perm]] + extra)
    label = "with" if with_pe else "without"
    print(f"five tokens, {label} PE: max |out(P x) - P out(x)| ="
          f" {np.abs(o2 - o1[perm]).max():.6}, max |W(P x) - P W(x) P^T| ="
          f" {np.abs(w2 - w1[perm][:, perm]).max():.6}")

finish(graded)
