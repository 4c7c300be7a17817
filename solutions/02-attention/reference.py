"""Reference values for lesson 02's graded tests, computed independently with NumPy.

Run it from the course's root with `python3 solutions/02-attention/reference.py` (NumPy
only): it writes the values the graded suite (solutions/02-attention/suite/graded.rs) reads
into solutions/02-attention/suite/graded.json, and those of the held-out suite (heldout.rs)
into heldout.json, in float64 (the format is tools/reference/fixture.py's; `--check`
compares instead of writing), and prints what it checks on the way. The visible tests
(lessons/02-attention/tests/visible.rs) keep one of the same values as a literal, rounded.
Inputs are deterministic fills (numpy.linspace), never a random stream.
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import numpy as np
from fixture import Fixture, finish

graded = Fixture("02-attention/graded.json")
heldout = Fixture("02-attention/heldout.json")


def softmax_rows(s):
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def attention(q, k, v, mask=None, scale=None):
    d_k = q.shape[1]
    scale = 1.0 / np.sqrt(d_k) if scale is None else scale
    s = q @ k.T * scale
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = softmax_rows(s)
    return w @ v, w


def lin(rows, cols, start, end):
    return np.linspace(start, end, rows * cols).reshape(rows, cols)


graded.matrix("softmax", "softmax_rows([[1, 2, 3], [1, 1, 1]])",
              softmax_rows(np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])))

# The three-word walk-through: two features, easy to follow by hand.
q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
k = q.copy()
v = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
out, w = attention(q, k, v)
graded.matrix("three_words_weights", "the three-word walk-through (d_k = 2): the weights", w)
graded.matrix("three_words_output", "the three-word walk-through (d_k = 2): the output", out)

# A wider fixture on which the 1/sqrt(d_k) scaling matters by a wide margin.
q = lin(3, 16, -1.0, 1.2)
k = lin(4, 16, 0.9, -1.1)
v = lin(4, 3, -0.5, 0.7)
out, w = attention(q, k, v)
graded.matrix("d_k_16_output", "attention of q = lin(3, 16, -1, 1.2), k = lin(4, 16, 0.9, -1.1), "
              "v = lin(4, 3, -0.5, 0.7): the output", out)
out_unscaled, w_unscaled = attention(q, k, v, scale=1.0)
out_by_dk, _ = attention(q, k, v, scale=1.0 / 16)
print("d_k = 16: margin between scaled and unscaled weights:", np.abs(w - w_unscaled).max())
print("d_k = 16: the output without the scaling differs by up to", np.abs(out - out_unscaled).max(),
      "and divided by d_k by up to", np.abs(out - out_by_dk).max())

# Linear: y = x W^T + b.
x = lin(2, 3, -1.0, 1.5)
weight = lin(4, 3, 0.3, -0.8)
bias = np.linspace(-0.1, 0.2, 4)
graded.matrix("linear_y", "Linear with weight = lin(4, 3, 0.3, -0.8), bias = linspace(-0.1, 0.2, 4) "
              "on x = lin(2, 3, -1, 1.5): y = x W^T + b", x @ weight.T + bias)

# One self-attention head with a causal mask.
x = lin(4, 5, -0.8, 0.9)
w_q, b_q = lin(3, 5, 0.4, -0.6), np.linspace(0.1, -0.1, 3)
w_k, b_k = lin(3, 5, -0.7, 0.5), np.linspace(-0.2, 0.3, 3)
w_v, b_v = lin(2, 5, 0.2, 0.9), np.linspace(0.05, -0.05, 2)
causal = np.tril(np.ones((4, 4), dtype=bool))
out, w = attention(x @ w_q.T + b_q, x @ w_k.T + b_k, x @ w_v.T + b_v, mask=causal)
graded.matrix("head_causal_weights", "one causal self-attention head on x = lin(4, 5, -0.8, 0.9): the weights", w)
graded.matrix("head_causal_output", "one causal self-attention head on x = lin(4, 5, -0.8, 0.9): the output", out)

# Linear with a square weight, where x W + b (the weight not transposed) also runs: the
# graded suite computes y by hand; the same here.
x = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
weight = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0]])
bias = np.array([0.5, -1.0, 0.0])
assert (x @ weight.T + bias == np.array([[7.5, -2.0, 4.0], [2.5, -3.0, -1.0]])).all()
print("linear, square weight: x W + b (the mistake) =", (x @ weight + bias).tolist())

# The head's key bias: shifting every key by b adds q_i . b to all of row i's scores, which
# the softmax ignores, so the loss does not depend on b_k (its gradient is exactly 0).
x = lin(4, 5, -0.8, 0.9)
upstream = lin(4, 2, 1.0, -0.5)


def head_loss(b_k):
    out, _ = attention(x @ w_q.T + b_q, x @ w_k.T + b_k, x @ w_v.T + b_v, mask=causal)
    return (out * upstream).sum()


h = 1e-5
d_b_k = np.array([(head_loss(b_k + h * e) - head_loss(b_k - h * e)) / (2 * h) for e in np.eye(3)])
print("head, causal: numerical d_b_k (exactly 0 in exact arithmetic):", d_b_k.tolist())

# ---------------------------------------------------------------------------------------
# Held-out fixtures (solutions/02-attention/suite/heldout.rs): the same properties on other
# numbers, so that a submission tuned to the graded fixtures gains nothing.
# ---------------------------------------------------------------------------------------
scores = lin(3, 4, -2.5, 4.0) ** 2 / 4.0
heldout.matrix("softmax", "softmax_rows(lin(3, 4, -2.5, 4.0)² / 4)", softmax_rows(scores))

q = lin(3, 4, 0.6, -1.3)
k = lin(5, 4, -0.9, 1.4)
v = lin(5, 2, 1.5, -0.5)
padding = np.array([[True, True, True, False, False]] * 3)
out, w = attention(q, k, v, mask=padding)
what = "cross-attention of q = lin(3, 4, 0.6, -1.3) over k = lin(5, 4, -0.9, 1.4), v = lin(5, 2, 1.5, -0.5), the last two keys padded"
heldout.matrix("cross_attention_weights", f"{what}: the weights", w)
heldout.matrix("cross_attention_output", f"{what}: the output", out)

x = lin(5, 2, -1.2, 0.8)
weight = lin(3, 2, 0.7, -0.4)
bias = np.array([0.25, 0.0, -0.75])
heldout.matrix("linear", "Linear (2 -> 3) with weight = lin(3, 2, 0.7, -0.4), bias = [0.25, 0, -0.75] "
               "on x = lin(5, 2, -1.2, 0.8)", x @ weight.T + bias)

finish(graded, heldout)
