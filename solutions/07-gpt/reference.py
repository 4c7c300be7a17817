"""Reference values for lesson 07's graded tests, computed independently with NumPy.

Run it from the course's root with `python3 solutions/07-gpt/reference.py` (NumPy only): it
writes the values the graded suite (solutions/07-gpt/suite/graded.rs) reads into
solutions/07-gpt/suite/graded.json, in float64 (the format is tools/reference/fixture.py's;
`--check` compares instead of writing), and prints what it checks on the way. Inputs are
deterministic (the course's `scrambled` fill, numpy.linspace or literals).

Each value is computed another way than the lesson computes it:
- BPE: a trainer that recounts with collections.Counter and breaks ties with min() over
  (-count, pair); encoding by scanning the merges in rank order, one pass each;
- RMSNorm: the forward as written; the backward as the full Jacobian, assembled entry by
  entry from ∂y_j/∂x_k = g_j·r·(δ_jk − x_j·x_k·r²/d), then dY·J;
- RoPE: each pair (x[2i], x[2i+1]) as the complex number x[2i] + i·x[2i+1], multiplied by
  e^{i·p·ω_i}; its backward as the transpose of the rotation matrix;
- SwiGLU: the forward as written; every gradient checked against central differences;
- causal self-attention with RoPE: written with every head at once (arrays of shape
  (h, n, d_head)), RoPE as complex multiplication, and its gradients by hand, each checked
  against central differences;
- the schedule, vectorised over all steps with numpy.where; AdamW, PyTorch's update
  written over whole arrays (decay, then the moments); the filters by numpy.argsort (a
  stable sort of −p); the baselines with numpy.bincount and numpy.add.at.
"""

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "reference"))
import numpy as np
from fixture import Fixture, finish

graded = Fixture("07-gpt/graded.json")
EOT = "<|endoftext|>"


def scrambled(rows, cols, seed, scale):
    """course_harness::scrambled: entry k = i·cols + j + seed is ((7k² + 13k + 3) mod 97)/48 − 1."""
    k = np.arange(rows * cols).reshape(rows, cols) + seed
    return (((k * k * 7 + k * 13 + 3) % 97) / 48.0 - 1.0) * scale


# ---------------------------------------------------------------------------------- BPE


def train(text, n_merges):
    docs = [list(d.encode("utf-8")) for d in text.split(EOT)]
    merges = []
    for r in range(n_merges):
        counts = Counter()
        for d in docs:
            counts.update(zip(d, d[1:]))
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))
        new = 256 + r
        for i, d in enumerate(docs):
            out, j = [], 0
            while j < len(d):
                if j + 1 < len(d) and (d[j], d[j + 1]) == pair:
                    out.append(new)
                    j += 2
                else:
                    out.append(d[j])
                    j += 1
            docs[i] = out
        merges.append(pair)
    return merges


def encode(merges, text):
    ids = []
    for n, piece in enumerate(text.split(EOT)):
        if n:
            ids.append(256 + len(merges))
        seq = list(piece.encode("utf-8"))
        for r, pair in enumerate(merges):  # rank order; a merge never makes an earlier pair
            out, j = [], 0
            while j < len(seq):
                if j + 1 < len(seq) and (seq[j], seq[j + 1]) == pair:
                    out.append(256 + r)
                    j += 2
                else:
                    out.append(seq[j])
                    j += 1
            seq = out
        ids.extend(seq)
    return ids


CORPUS = (
    "the cat sat on the mat. the cat ate the rat. "
    + EOT
    + "注意力机制让模型关注重要的词。注意力，注意力！"
    + EOT
    + "a mat, a hat, a cat; that is that."
)
merges = train(CORPUS, 30)
graded.integers("bpe_merges", "train(CORPUS, 30), flat (first, second, ...)",
                np.array(merges).reshape(-1))
for name, text in [
    ("seen", "the cat sat on the mat."),
    ("unseen", "that hat is the rat's 🐀"),
    ("chinese", "注意力，模型！"),
    ("eot", "a cat" + EOT + "注意" + EOT),
]:
    ids = encode(merges, text)
    graded.integers(f"bpe_encode_{name}", f"encode of {text!r} with the 30 merges", ids)
# Decoding: the bytes of each id, built from the merges.
vocab = [bytes([b]) for b in range(256)] + [b""] * len(merges)
for r, (a, b) in enumerate(merges):
    vocab[256 + r] = vocab[a] + vocab[b]
vocab.append(EOT.encode())
for name, text in [("seen", "the cat sat on the mat."), ("eot", "a cat" + EOT + "注意" + EOT)]:
    assert b"".join(vocab[i] for i in encode(merges, text)) == text.encode()
print(f"BPE: {len(merges)} merges; first {merges[:4]}; round trips hold")

# ------------------------------------------------------------------------------ RMSNorm
EPS = 1e-5
x = scrambled(3, 5, 2, 1.5)
gain = np.linspace(0.6, 1.4, 5)
up = scrambled(3, 5, 11, 1.0)
d = x.shape[1]
r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + EPS)
y = x * r * gain
dx = np.zeros_like(x)
for t in range(x.shape[0]):
    J = np.empty((d, d))
    for j in range(d):
        for k in range(d):
            J[j, k] = gain[j] * r[t, 0] * ((j == k) - x[t, j] * x[t, k] * r[t, 0] ** 2 / d)
    dx[t] = up[t] @ J
dg = (up * x * r).sum(axis=0)
graded.matrix("rms_x", "scrambled(3, 5, 2, 1.5)", x)
graded.vector("rms_gain", "linspace(0.6, 1.4, 5)", gain)
graded.matrix("rms_upstream", "scrambled(3, 5, 11, 1.0)", up)
graded.matrix("rms_forward", "RMSNorm(x) with that gain, eps = 1e-5", y)
graded.matrix("rms_d_x", "dY·J, J the Jacobian of each row", dx)
graded.vector("rms_d_gain", "Σ_rows dY ⊙ x·r", dg)

# --------------------------------------------------------------------------------- RoPE


def rope(x, start, sign=1.0):
    n, dh = x.shape
    omega = 10000.0 ** (-np.arange(0, dh, 2) / dh)
    z = x[:, 0::2] + 1j * x[:, 1::2]
    pos = np.arange(start, start + n)[:, None]
    w = z * np.exp(1j * sign * pos * omega)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = w.real, w.imag
    return out


xr = scrambled(4, 8, 5, 1.0)
ur = scrambled(4, 8, 17, 1.0)
graded.matrix("rope_x", "scrambled(4, 8, 5, 1.0)", xr)
graded.matrix("rope_upstream", "scrambled(4, 8, 17, 1.0)", ur)
graded.matrix("rope_start_0", "apply_rope(x, 0)", rope(xr, 0))
graded.matrix("rope_start_7", "apply_rope(x, 7)", rope(xr, 7))
# The backward as the transpose of each row's rotation matrix, built by columns.
back = np.empty_like(ur)
for t in range(4):
    R = np.stack([rope(np.eye(8)[k:k + 1], 7 + t)[0] for k in range(8)], axis=1)
    back[t] = R.T @ ur[t]
graded.matrix("rope_backward_start_7", "Rᵀ dY per row, at positions 7 to 10", back)
assert np.abs(back - rope(ur, 7, -1.0)).max() < 1e-12
print("RoPE: complex form, transpose = inverse rotation: hold")

# ------------------------------------------------------------------------------- SwiGLU


def silu(a):
    return a / (1.0 + np.exp(-a))


xs = scrambled(3, 4, 3, 1.2)
wg, wu, wd = scrambled(6, 4, 7, 0.8), scrambled(6, 4, 23, 0.8), scrambled(4, 6, 41, 0.8)
us = scrambled(3, 4, 31, 1.0)


def ffn(x, wg=wg, wu=wu, wd=wd):
    return (silu(x @ wg.T) * (x @ wu.T)) @ wd.T


def numeric(f, m, h=1e-6):
    g = np.zeros_like(m)
    for idx in np.ndindex(m.shape):
        p, q = m.copy(), m.copy()
        p[idx] += h
        q[idx] -= h
        g[idx] = ((f(p) * us).sum() - (f(q) * us).sum()) / (2 * h)
    return g


a, b = xs @ wg.T, xs @ wu.T
sig = 1 / (1 + np.exp(-a))
dh = us @ wd
da = dh * b * sig * (1 + a * (1 - sig))
db = dh * silu(a)
grads = {
    "d_x": da @ wg + db @ wu,
    "d_w_gate": da.T @ xs,
    "d_w_up": db.T @ xs,
    "d_w_down": us.T @ (silu(a) * b),
}
numerics = {
    "d_x": numeric(ffn, xs),
    "d_w_gate": numeric(lambda w: ffn(xs, wg=w), wg),
    "d_w_up": numeric(lambda w: ffn(xs, wu=w), wu),
    "d_w_down": numeric(lambda w: ffn(xs, wd=w), wd),
}
for k in grads:
    err = np.abs(grads[k] - numerics[k]).max()
    assert err < 1e-8, (k, err)
for name, m, what in [("x", xs, "scrambled(3, 4, 3, 1.2)"), ("w_gate", wg, "scrambled(6, 4, 7, 0.8)"),
                      ("w_up", wu, "scrambled(6, 4, 23, 0.8)"), ("w_down", wd, "scrambled(4, 6, 41, 0.8)"),
                      ("upstream", us, "scrambled(3, 4, 31, 1.0)")]:
    graded.matrix(f"swiglu_{name}", what, m)
graded.matrix("swiglu_output", "(SiLU(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ", ffn(xs))
for k, v in grads.items():
    graded.matrix(f"swiglu_{k}", f"{k}, checked against central differences", v)
print("SwiGLU: analytic gradients agree with central differences")

# ----------------------------------------------------------------------- the schedule
steps = np.arange(0, 131)
warm, total, hi, lo = 10, 110, 3e-3, 2e-4
progress = np.clip((steps - warm) / (total - warm), 0.0, 1.0)
rates = np.where(steps < warm, hi * (steps + 1) / warm,
                 lo + (hi - lo) * 0.5 * (1 + np.cos(np.pi * progress)))
graded.vector("cosine_rates", "cosine_rate(step, 10, 110, 3e-3, 2e-4) for step 0..=130", rates)

# -------------------------------------------------------------------------------- AdamW
params = [np.array([0.5, -1.5, 2.0, 0.25]), np.array([1.0, 0.8]), np.array([-0.3, 0.7, 0.1])]
decays = [True, False, True]
grads = [
    [np.array([0.1, -0.2, 0.05, 0.0]), np.array([0.3, -0.1]), np.array([0.0, 0.02, -0.4])],
    [np.array([-0.05, 0.1, 0.2, 0.3]), np.array([0.0, 0.2]), np.array([0.1, -0.1, 0.0])],
    [np.array([0.2, 0.0, -0.1, 0.1]), np.array([-0.2, 0.05]), np.array([0.3, 0.0, 0.2])],
]
lrs = [0.01, 0.02, 0.015]
b1, b2, eps, wd = 0.9, 0.95, 1e-8, 0.1
m = [np.zeros_like(p) for p in params]
v = [np.zeros_like(p) for p in params]
p = [q.copy() for q in params]
for t, (g, lr) in enumerate(zip(grads, lrs), start=1):
    for k in range(3):
        if decays[k]:
            p[k] = p[k] * (1 - lr * wd)
        m[k] = b1 * m[k] + (1 - b1) * g[k]
        v[k] = b2 * v[k] + (1 - b2) * g[k] ** 2
        p[k] = p[k] - lr * (m[k] / (1 - b1 ** t)) / (np.sqrt(v[k] / (1 - b2 ** t)) + eps)
graded.vector("adamw_after_3", "the three tensors, flat, after three AdamW steps", np.concatenate(p))

# ----------------------------------------------------------------------------- sampling
logits = np.array([1.2, -0.3, 2.5, 0.0, 2.5, -1.1, 0.7, 1.9])
for t in (0.7, 1.5):
    z = logits / t
    e = np.exp(z - z.max())
    graded.vector(f"softmax_t{str(t).replace('.', '_')}", f"softmax(logits / {t})", e / e.sum())
e = np.exp(logits - logits.max())
probs = e / e.sum()
graded.vector("probs", "softmax(logits)", probs)
order = np.argsort(-probs, kind="stable")  # ties: the lower id first


def keep(ids):
    out = np.zeros_like(probs)
    out[ids] = probs[ids]
    return out / out.sum()


for k in (1, 3, 5):
    graded.vector(f"top_k_{k}", f"top_k_filter(probs, {k})", keep(order[:k]))
for pp in (0.3, 0.75, 0.95):
    c = np.cumsum(probs[order])
    n = int(np.argmax(c >= pp)) + 1
    graded.vector(f"top_p_{str(pp).replace('.', '_')}", f"top_p_filter(probs, {pp})", keep(order[:n]))
us = np.linspace(0.01, 0.99, 25)
q = keep(order[:5])  # top-k first, renormalised; then the nucleus of what is left
q_order = np.argsort(-q, kind="stable")
n = int(np.argmax(np.cumsum(q[q_order]) >= 0.9)) + 1
filtered = np.zeros_like(q)
filtered[q_order[:n]] = q[q_order[:n]]
filtered /= filtered.sum()
graded.vector("sample_us", "the draws u", us)
for name, dist in [("plain", probs), ("k5_p0_9", filtered)]:
    c = np.cumsum(dist)
    graded.integers(f"sample_{name}", f"the first id whose cumulative probability exceeds u, {name}",
                    np.array([int(np.argmax(c > u)) for u in us]))

# --------------------------------------------------------------------- the baselines
text = CORPUS.encode("utf-8")
cut = int(len(text) * 0.8)
train_b, test_b = text[:cut], text[cut:]
uni = np.bincount(np.frombuffer(train_b, dtype=np.uint8), minlength=256) + 1.0
uni = uni / uni.sum()
tb = np.frombuffer(test_b, dtype=np.uint8)
graded.scalar("unigram_bpb", "unigram_bits_per_byte(train, test), 80/20 split of CORPUS",
              -np.log2(uni[tb]).mean())
pairs = np.zeros((256, 256))
a = np.frombuffer(train_b, dtype=np.uint8)
np.add.at(pairs, (a[:-1], a[1:]), 1.0)
cond = (pairs + 1.0) / (pairs.sum(axis=1, keepdims=True) + 256.0)
bits = -np.log2(uni[tb[0]]) - np.log2(cond[tb[:-1], tb[1:]]).sum()
graded.scalar("bigram_bpb", "bigram_bits_per_byte(train, test), 80/20 split of CORPUS", bits / len(tb))
graded.integers("split", "the byte at which the split cuts CORPUS", [cut])
print(f"baselines on the 80/20 split: unigram {-np.log2(uni[tb]).mean():.4f}, bigram {bits / len(tb):.4f} bits per byte")

# ---------------------------------------------------------- causal self-attention + RoPE
def rope_heads(t, sign=1.0):
    """RoPE on (h, n, d_head), positions 0..n-1, as complex multiplication."""
    h, n, dh = t.shape
    omega = 10000.0 ** (-np.arange(0, dh, 2) / dh)
    z = t[..., 0::2] + 1j * t[..., 1::2]
    z = z * np.exp(1j * sign * np.arange(n)[:, None] * omega)
    out = np.empty_like(t)
    out[..., 0::2], out[..., 1::2] = z.real, z.imag
    return out


def attn_forward(x, wq, wk, wv, wo, h):
    n, d = x.shape
    dh = d // h
    split = lambda m: m.reshape(n, h, dh).transpose(1, 0, 2)  # (h, n, dh)
    q, k, v = rope_heads(split(x @ wq.T)), rope_heads(split(x @ wk.T)), split(x @ wv.T)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dh)
    s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    o = a @ v
    merged = o.transpose(1, 0, 2).reshape(n, d)
    return merged @ wo.T, (q, k, v, a, merged)


def attn_backward(x, wq, wk, wv, wo, h, dy):
    n, d = x.shape
    dh = d // h
    _, (q, k, v, a, merged) = attn_forward(x, wq, wk, wv, wo, h)
    merge = lambda t: t.transpose(1, 0, 2).reshape(n, d)
    d_wo = dy.T @ merged
    do = (dy @ wo).reshape(n, h, dh).transpose(1, 0, 2)
    dv = a.transpose(0, 2, 1) @ do
    da = do @ v.transpose(0, 2, 1)
    ds = a * (da - (da * a).sum(axis=-1, keepdims=True)) / np.sqrt(dh)
    dq = rope_heads(ds @ k, -1.0)
    dk = rope_heads(ds.transpose(0, 2, 1) @ q, -1.0)
    dq, dk, dv = merge(dq), merge(dk), merge(dv)
    return {"d_x": dq @ wq + dk @ wk + dv @ wv, "d_w_q": dq.T @ x, "d_w_k": dk.T @ x,
            "d_w_v": dv.T @ x, "d_w_o": d_wo}


xa = scrambled(5, 8, 13, 1.0)
wts = {name: scrambled(8, 8, seed, 0.5) for name, seed in
       [("w_q", 19), ("w_k", 29), ("w_v", 37), ("w_o", 43)]}
ua = scrambled(5, 8, 53, 1.0)
out, _ = attn_forward(xa, wts["w_q"], wts["w_k"], wts["w_v"], wts["w_o"], 2)
g = attn_backward(xa, wts["w_q"], wts["w_k"], wts["w_v"], wts["w_o"], 2, ua)
loss = lambda **kw: (attn_forward(kw.get("x", xa), kw.get("w_q", wts["w_q"]), kw.get("w_k", wts["w_k"]),
                                  kw.get("w_v", wts["w_v"]), kw.get("w_o", wts["w_o"]), 2)[0] * ua).sum()
for name, base in [("x", xa)] + list(wts.items()):
    num = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        p_, m_ = base.copy(), base.copy()
        p_[idx] += 1e-6
        m_[idx] -= 1e-6
        num[idx] = (loss(**{name: p_}) - loss(**{name: m_})) / 2e-6
    err = np.abs(num - g[f"d_{name}"]).max()
    assert err < 1e-8, (name, err)
graded.matrix("attn_x", "scrambled(5, 8, 13, 1.0)", xa)
for name, seed in [("w_q", 19), ("w_k", 29), ("w_v", 37), ("w_o", 43)]:
    graded.matrix(f"attn_{name}", f"scrambled(8, 8, {seed}, 0.5)", wts[name])
graded.matrix("attn_upstream", "scrambled(5, 8, 53, 1.0)", ua)
graded.matrix("attn_output", "causal self-attention with RoPE, 2 heads of width 4", out)
for k_, v_ in g.items():
    graded.matrix(f"attn_{k_}", f"{k_}, checked against central differences", v_)
print("causal self-attention with RoPE: gradients agree with central differences")

finish(graded)
