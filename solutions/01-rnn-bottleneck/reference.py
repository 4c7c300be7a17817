"""Reference values for lesson 01's tests, computed independently with NumPy.

Run it from the course's root with `python3 solutions/01-rnn-bottleneck/reference.py` (NumPy only):
it writes the values the graded suite (solutions/01-rnn-bottleneck/suite/graded.rs) reads
into solutions/01-rnn-bottleneck/suite/graded.json, in float64 (the format is
tools/reference/fixture.py's; `--check` compares instead of writing), and prints what it
checks on the way. The visible tests (lessons/01-rnn-bottleneck/tests/visible.rs) keep a
few of the same values as literals, rounded. Inputs are deterministic fills
(numpy.linspace), never a random stream.

The course's layout for the RNN is PyTorch's (nn.RNN's weight_ih_l0 and weight_hh_l0):

    h' = tanh(x W_xh^T + h W_hh^T + b),   W_xh (d_hidden, d_in),   W_hh (d_hidden, d_hidden)

CS231n's assignment 3 writes the same step as tanh(x Wx + h Wh + b) with Wx (d_in, d_hidden),
so its matrices are the transposes of ours: W_xh = Wx^T, W_hh = Wh^T.
"""

import sys
from pathlib import Path

# The format every suite reads its values in, shared by the lessons' scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import numpy as np
from fixture import Fixture, finish

graded = Fixture("01-rnn-bottleneck/graded.json")


def lin(rows, cols, start, end):
    return np.linspace(start, end, rows * cols).reshape(rows, cols)


def step(x, h, w_xh, w_hh, b):
    return np.tanh(x @ w_xh.T + h @ w_hh.T + b)


def forward(xs, h0, w_xh, w_hh, b):
    states = []
    h = h0[None, :]
    for t in range(xs.shape[0]):
        h = step(xs[t : t + 1], h, w_xh, w_hh, b)
        states.append(h[0])
    return np.array(states).reshape(len(states), w_hh.shape[0])


# --- CS231n's rnn_step_forward fixture (RNN_Captioning.ipynb), in CS231n's own layout. ---
N, D, H = 3, 10, 4
x = np.linspace(-0.4, 0.7, num=N * D).reshape(N, D)
prev_h = np.linspace(-0.2, 0.5, num=N * H).reshape(N, H)
Wx = np.linspace(-0.1, 0.9, num=D * H).reshape(D, H)
Wh = np.linspace(-0.3, 0.7, num=H * H).reshape(H, H)
b = np.linspace(-0.2, 0.4, num=H)
cs231n = np.tanh(x @ Wx + prev_h @ Wh + b)
graded.matrix("step_cs231n", "CS231n's rnn_step_forward fixture (N, D, H = 3, 10, 4): next_h "
              "(its first row is the notebook's printed one)", cs231n)
# The same step in the course's layout gives the same numbers.
assert np.allclose(step(x, prev_h, Wx.T, Wh.T, b), cs231n, rtol=0, atol=1e-15)
published = np.array([-0.58172089, -0.50182032, -0.41232771, -0.31410098])
print("CS231n's step: max |ours - the notebook's printed first row| =", np.abs(cs231n[0] - published).max())

# --- A sequence: d_in = 3, d_hidden = 4, T = 5. ---
xs = lin(5, 3, -0.9, 1.2)
h0 = np.linspace(0.3, -0.4, 4)
w_xh = lin(4, 3, -0.5, 0.7)
w_hh = lin(4, 4, 0.6, -0.5)
b = np.linspace(-0.1, 0.25, 4)
graded.matrix("forward_states", "forward over xs = lin(5, 3, -0.9, 1.2) from h0 = linspace(0.3, -0.4, 4): "
              "the states (T = 5, d_hidden = 4), row t is h_(t+1)", forward(xs, h0, w_xh, w_hh, b))

# --- The bound fixture: W_hh = linspace(-0.35, 0.4) (5 x 5), its largest singular value. ---
w_hh_bound = lin(5, 5, -0.35, 0.4)
print("bound fixture: sigma_max(W_hh) =", f"{np.linalg.svd(w_hh_bound, compute_uv=False)[0]:.12}")

finish(graded)
