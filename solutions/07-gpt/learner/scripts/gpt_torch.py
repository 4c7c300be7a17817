"""Lesson 07's GPT written in PyTorch: load a checkpoint of your Rust model, or time a
training step.

It needs PyTorch, safetensors and NumPy (`pip install torch safetensors numpy`). Run it from
the course's root.

1. Check a checkpoint:

       python3 lessons/07-gpt/scripts/gpt_torch.py target/experiments/gpt.safetensors

   `cargo run --release -p gpt --example train_gpt` writes that file at the end of its run.
   This script reads the sizes from the file, builds the PyTorch module below with them,
   loads the weights with load_state_dict(strict=True), computes the logits of the probe's
   tokens and compares them with the logits your Rust model computed for the same tokens.
   If they agree to 1e-10 it exits with status 0, else with status 1 (status 2: the file
   could not be used). `--tokens 1,2,3` also prints the logits of those token ids, as JSON.

2. Time one training step, to compare with the Rust code:

       python3 lessons/07-gpt/scripts/gpt_torch.py --bench-step \\
           --config 769,96,4,3,256 --batch 16 --context 64 [--repeats 5]

   `--config` is vocab_size,d_model,n_heads,n_layers,d_ff. It builds the model (weights
   drawn from a normal distribution of standard deviation 0.02, the gains 1, seeded) and a
   random batch of B windows of T + 1 tokens (seeded), and times a whole step: the forward
   pass over the batch (B, T), the mean cross-entropy, the backward pass, clipping the
   gradient to norm 1 and one AdamW step (lr 1e-3, betas (0.9, 0.95), eps 1e-8, weight
   decay 0.1 on the matrices, not on the gains), on one thread, in float64 and in float32.
   Each is timed after 2 warm-up steps; the median of the repeats is reported. It prints
   one JSON object on stdout,
       {"torch": ..., "threads": 1, "float64_seconds": ..., "float32_seconds": ...,
        "batch": B, "context": T, "config": [...]},
   and everything else on stderr.

The checkpoint (safetensors: a JSON header, then the raw little-endian numbers; loading it
runs no code) holds

- every parameter as a float64 (F64) tensor, under its state_dict name: `embedding.weight`
  (vocab_size, d_model); for each block i, `blocks.{i}.norm_1.weight` (d_model),
  `blocks.{i}.attention.w_q.weight`, `w_k`, `w_v`, `w_o` (d_model, d_model),
  `blocks.{i}.norm_2.weight` (d_model), `blocks.{i}.feed_forward.w_gate.weight` and `w_up`
  (d_ff, d_model), `w_down` (d_model, d_ff); `norm_final.weight` (d_model). A matrix is
  stored as PyTorch stores nn.Linear's weight, (out, in), applied as x·Wᵀ;
- the sizes in the header's metadata, as strings: `vocab_size`, `d_model`, `n_heads`,
  `n_layers`, `d_ff`, `context`, and `format`;
- optionally a probe: `probe.tokens` (I64, (n,)), token ids, and `probe.logits` (F64,
  (n, vocab_size)), the logits the Rust model computed for them.

The module mirrors the lesson's Rust model, field for field:

    x_0      = embedding.weight[tokens]
    x_{l+1}  = block_l(x_l),  a pre-norm block:  h = x + Attention(norm_1(x));
                                                 y = h + SwiGLU(norm_2(h))
    logits   = norm_final(x_L) · embedding.weightᵀ  (the output head is tied to the embedding)

Every norm is an RMSNorm with a gain and eps = 1e-5; SwiGLU(b) = w_down(silu(w_gate(b)) ⊙
w_up(b)); the attention is causal multi-head self-attention: q, k, v = w_q(a), w_k(a),
w_v(a), head i is columns [i·d_head, (i+1)·d_head), RoPE on the q and k of every head (not
v) at positions 0..n-1, rotating the adjacent features (2j, 2j+1) by the angle p·ω_j with
ω_j = 10000^(−2j/d_head); softmax(q·kᵀ/√d_head) under the causal mask, times v; the heads
merged back into their columns; then w_o. No layer has a bias. The module takes the token
ids as a tensor (n,) or a batch (B, n) and gives logits (n, vocab_size) or (B, n, vocab_size).
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

# ---------------------------------------------------------------------------- the command

TRAIN = "cargo run --release -p gpt --example train_gpt"


def integers(text, what):
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what}: comma-separated whole numbers, like 1,2,3") from None


def command_line():
    """The script's options, parsed and checked before PyTorch is imported: `--help` and
    a mistyped command need no PyTorch."""
    parser = argparse.ArgumentParser(
        description="Load a checkpoint of lesson 07's Rust GPT in PyTorch and check its logits, "
                    "or time one training step in PyTorch.",
        epilog="See the top of this script for the checkpoint's layout and the model.")
    parser.add_argument("checkpoint", nargs="?", type=Path,
                        help="a checkpoint written by the Rust code (target/experiments/gpt.safetensors)")
    parser.add_argument("--tokens", type=lambda t: integers(t, "--tokens"),
                        help="also print the logits of these token ids: 1,2,3")
    parser.add_argument("--bench-step", action="store_true",
                        help="time one training step instead (needs --config, --batch, --context)")
    parser.add_argument("--config", type=lambda t: integers(t, "--config"),
                        help="vocab_size,d_model,n_heads,n_layers,d_ff")
    parser.add_argument("--batch", type=int, help="windows per step, B")
    parser.add_argument("--context", type=int, help="tokens per window, T")
    parser.add_argument("--repeats", type=int, default=5, help="timed steps (default 5)")
    args = parser.parse_args()

    if args.bench_step:
        if args.checkpoint or args.tokens:
            parser.error("--bench-step takes no checkpoint and no --tokens")
        if not (args.config and args.batch and args.context):
            parser.error("--bench-step needs --config, --batch and --context")
        if len(args.config) != 5 or min(args.config) < 1:
            parser.error("--config is five positive sizes: vocab_size,d_model,n_heads,n_layers,d_ff")
        d_model, n_heads = args.config[1], args.config[2]
        if d_model % n_heads != 0 or (d_model // n_heads) % 2 != 0:
            parser.error(f"n_heads = {n_heads} must divide d_model = {d_model} into heads of even width")
        if min(args.batch, args.context, args.repeats) < 1:
            parser.error("--batch, --context and --repeats must be at least 1")
        return args

    if args.checkpoint is None:
        parser.error(f"pass a checkpoint (`{TRAIN}` writes target/experiments/gpt.safetensors), "
                     f"or --bench-step")
    if args.config or args.batch or args.context:
        parser.error("--config, --batch and --context go with --bench-step; a checkpoint's sizes "
                     "are in the file")
    return args


# Run as a script, the command line is read (and `--help` answered) before PyTorch is
# imported; imported as a module (reference_torch.py imports the model), nothing is read.
if __name__ == "__main__":
    ARGS = command_line()

# -------------------------------------------------------------------------- PyTorch

try:
    import torch
    import torch.nn.functional as F
    from safetensors import SafetensorError, safe_open
    from torch import nn
except ImportError as missing:
    print(
        f"gpt_torch.py needs PyTorch and safetensors, and Python could not import them "
        f"({missing}). Install them with `pip install torch safetensors numpy` (if your "
        f"system's Python refuses, in a virtual environment: `python3 -m venv .venv`, then "
        f"`.venv/bin/pip install torch safetensors numpy`, and run this script with "
        f"`.venv/bin/python`), then run it again.",
        file=sys.stderr,
    )
    sys.exit(2)

EPS = 1e-5  # RMSNorm's epsilon
SIZES = ["vocab_size", "d_model", "n_heads", "n_layers", "d_ff"]  # Gpt's arguments, in order
TOLERANCE = 1e-10  # the largest difference from the Rust logits that counts as the same


# ------------------------------------------------------------------------------ the model


def rope(x):
    """RoPE on x of shape (..., n_heads, n, d_head), positions 0..n-1, with real cos and sin:
    the pair (x[2j], x[2j+1]) at position p becomes
    (x[2j]·cos − x[2j+1]·sin, x[2j]·sin + x[2j+1]·cos), the angle p·ω_j."""
    n, d_head = x.shape[-2:]
    # The angles in float64 whatever x's type, then rounded to it.
    omega = 10000.0 ** (-torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)  # (d_head/2,)
    angle = torch.arange(n, dtype=torch.float64)[:, None] * omega  # (n, d_head/2)
    cos = angle.cos().repeat_interleave(2, dim=-1).to(x.dtype)  # (n, d_head): cos_j at 2j, 2j+1
    sin = angle.sin().repeat_interleave(2, dim=-1).to(x.dtype)
    # The partner of each feature: at 2j, −x[2j+1]; at 2j+1, x[2j].
    partner = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).flatten(-2)
    return x * cos + partner * sin


class Attention(nn.Module):
    """Causal multi-head self-attention with RoPE on q and k."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model, bias=False)

    def split(self, m):
        """(..., n, d_model) → (..., n_heads, n, d_head): head i is columns
        [i·d_head, (i+1)·d_head)."""
        return m.unflatten(-1, (self.n_heads, self.d_head)).transpose(-3, -2)

    def heads(self, a):
        """q (with RoPE), k (with RoPE) and v, each (..., n_heads, n, d_head)."""
        return rope(self.split(self.w_q(a))), rope(self.split(self.w_k(a))), self.split(self.w_v(a))

    def forward(self, a):
        n = a.shape[-2]
        q, k, v = self.heads(a)
        scores = q @ k.transpose(-2, -1) / self.d_head**0.5  # (..., n_heads, n, n)
        future = torch.ones(n, n, dtype=torch.bool).triu(1)  # position t sees 0..t
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        merged = (weights @ v).transpose(-3, -2).flatten(-2)  # head i into its columns
        return self.w_o(merged)


class FeedForward(nn.Module):
    """SwiGLU: w_down(silu(w_gate(b)) ⊙ w_up(b))."""

    def __init__(self, d_model, d_ff):
        super().__init__()
        self.w_gate = nn.Linear(d_model, d_ff, bias=False)
        self.w_up = nn.Linear(d_model, d_ff, bias=False)
        self.w_down = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, b):
        return self.w_down(F.silu(self.w_gate(b)) * self.w_up(b))


class Block(nn.Module):
    """A pre-norm block: h = x + Attention(norm_1(x)); y = h + SwiGLU(norm_2(h))."""

    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.norm_1 = nn.RMSNorm(d_model, eps=EPS)
        self.attention = Attention(d_model, n_heads)
        self.norm_2 = nn.RMSNorm(d_model, eps=EPS)
        self.feed_forward = FeedForward(d_model, d_ff)

    def forward(self, x):
        h = x + self.attention(self.norm_1(x))
        return h + self.feed_forward(self.norm_2(h))


class Gpt(nn.Module):
    """Embedding, n_layers blocks, a final RMSNorm and the head tied to the embedding."""

    def __init__(self, vocab_size, d_model, n_heads, n_layers, d_ff):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, d_ff) for _ in range(n_layers))
        self.norm_final = nn.RMSNorm(d_model, eps=EPS)

    def streams(self, tokens):
        """The stream before each block and after the last: n_layers + 1 tensors
        (..., n, d_model)."""
        x = [self.embedding(tokens)]
        for block in self.blocks:
            x.append(block(x[-1]))
        return x

    def forward(self, tokens):
        """The logits (..., n, vocab_size) of a tensor of token ids, (n,) or (B, n)."""
        return self.norm_final(self.streams(tokens)[-1]) @ self.embedding.weight.T


# --------------------------------------------------------------------- the checkpoint mode


class Unusable(Exception):
    """The checkpoint cannot be used; the message says why and what to do."""


def read_checkpoint(path):
    """The sizes (a dict), the format string, the parameters (a dict of tensors) and the probe
    ((tokens, logits) or None) of the checkpoint at `path`."""
    again = f"Write the checkpoint again with `{TRAIN}`, or pass the file that run wrote."
    if path.is_dir():
        raise Unusable(f"{path} is a folder; pass the checkpoint file itself, such as "
                       f"target/experiments/gpt.safetensors.")
    if not path.is_file():
        raise Unusable(f"There is no file {path}. {TRAIN} writes target/experiments/gpt.safetensors "
                       f"at the end of its run: run it first, or pass the path of your checkpoint.")
    try:
        with safe_open(str(path), framework="pt") as file:
            metadata = file.metadata() or {}
            tensors = {name: file.get_tensor(name) for name in file.keys()}
    except (SafetensorError, OSError, ValueError, TypeError, RuntimeError) as error:
        raise Unusable(f"{path} is not a readable safetensors file ({error}). {again}") from None

    sizes = {}
    for key in SIZES:
        try:
            sizes[key] = int(metadata[key])
        except (KeyError, ValueError):
            found = ", ".join(f"{k}={v!r}" for k, v in sorted(metadata.items())) or "nothing"
            raise Unusable(f"{path} is a safetensors file, but its metadata has no whole number "
                           f"`{key}` (it holds {found}), so it is not a checkpoint of lesson "
                           f"07's model. {again}") from None
        if sizes[key] < 1:
            raise Unusable(f"{path}: the size `{key}` in its metadata is {sizes[key]}. {again}")
    d_model, n_heads = sizes["d_model"], sizes["n_heads"]
    if d_model % n_heads != 0 or (d_model // n_heads) % 2 != 0:
        raise Unusable(f"{path}: n_heads = {n_heads} does not divide d_model = {d_model} into "
                       f"heads of even width, which RoPE needs. {again}")

    probe = {name: tensors.pop(name) for name in ["probe.tokens", "probe.logits"] if name in tensors}
    if probe:
        if len(probe) == 1:
            raise Unusable(f"{path} has `{next(iter(probe))}` but not its partner: a probe is "
                           f"`probe.tokens` and `probe.logits` together. {again}")
        ids, logits = probe["probe.tokens"], probe["probe.logits"]
        vocab_size = sizes["vocab_size"]
        if ids.dtype != torch.int64 or ids.ndim != 1:
            raise Unusable(f"{path}: `probe.tokens` is {describe(ids)}; it should be I64 (n,). {again}")
        if logits.dtype != torch.float64 or tuple(logits.shape) != (len(ids), vocab_size):
            raise Unusable(f"{path}: `probe.logits` is {describe(logits)}; with {len(ids)} probe "
                           f"tokens it should be F64 ({len(ids)}, {vocab_size}). {again}")
        if len(ids) == 0 or ids.min() < 0 or ids.max() >= vocab_size:
            raise Unusable(f"{path}: `probe.tokens` holds no token ids, or ids outside "
                           f"0..{vocab_size - 1}. {again}")
        probe = (ids, logits)
    return sizes, metadata.get("format"), tensors, probe or None


def describe(tensor):
    """`tensor`'s type and shape as safetensors names them: F64 (3, 4)."""
    names = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16",
             torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32"}
    return f"{names.get(tensor.dtype, str(tensor.dtype))} {tuple(tensor.shape)}"


def build(path, sizes, parameters):
    """The Gpt of these sizes in float64, with the checkpoint's parameters loaded."""
    model = Gpt(*(sizes[key] for key in SIZES)).to(torch.float64)
    expected = model.state_dict()
    problems = []
    for name, tensor in expected.items():
        if name not in parameters:
            problems.append(f"it has no tensor `{name}`")
        elif parameters[name].dtype != torch.float64 or parameters[name].shape != tensor.shape:
            problems.append(f"`{name}` is {describe(parameters[name])}, the model needs "
                            f"F64 {tuple(tensor.shape)}")
    extra = sorted(set(parameters) - set(expected))
    if extra:
        problems.append(f"it has tensors the model does not: {', '.join(f'`{n}`' for n in extra[:5])}"
                        + (f" and {len(extra) - 5} more" if len(extra) > 5 else ""))
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        config = ", ".join(f"{key} {sizes[key]}" for key in SIZES)
        raise Unusable(f"{path} is not a checkpoint of the model its metadata describes ({config}): "
                       f"{shown}. Write the checkpoint again with `{TRAIN}` (its save_checkpoint "
                       f"writes every parameter as F64 under its name).")
    model.load_state_dict(parameters, strict=True)
    return model


def check_checkpoint(path, tokens):
    """Loads the checkpoint, compares with its probe; returns the exit status."""
    torch.set_default_dtype(torch.float64)
    sizes, format_, parameters, probe = read_checkpoint(path)
    model = build(path, sizes, parameters)
    count = sum(p.numel() for p in model.parameters())
    print(f"{path}: " + ", ".join(f"{key} {sizes[key]}" for key in SIZES)
          + (f" (format: {format_})" if format_ else ""))
    print(f"loaded {count:,} parameters into the PyTorch module (load_state_dict, strict)")

    if tokens and (min(tokens) < 0 or max(tokens) >= sizes["vocab_size"]):
        raise Unusable(f"--tokens: every id must be in 0..{sizes['vocab_size'] - 1}, "
                       f"the model's vocabulary; got {tokens}.")
    status = 0
    if probe is not None:
        ids, expected = probe
        with torch.no_grad():
            logits = model(ids)
        gap = (logits - expected).abs()
        largest = gap.max().item()
        relative = (gap / expected.abs().clamp_min(torch.finfo(torch.float64).tiny)).max().item()
        print(f"the probe: {len(ids)} tokens, logits ({len(ids)}, {sizes['vocab_size']})")
        print(f"largest absolute difference from the Rust logits: {largest:.3g}")
        print(f"largest relative difference: {relative:.3g}")
        if largest <= TOLERANCE:  # False for a NaN too
            print(f"PyTorch reproduces the Rust model's logits "
                  f"(largest difference {largest:.3g} ≤ {TOLERANCE:g})")
        else:
            print(f"FAILED: PyTorch's logits differ from the Rust model's by up to {largest:.3g}, "
                  f"more than {TOLERANCE:g}. The weights loaded, so the two compute different "
                  f"functions: look for what your Rust model does differently from the "
                  f"description at the top of this script (the RoPE pairs and angles, the "
                  f"RMSNorm's eps, the causal mask, the tied head), and run lesson 07's tests.")
            status = 1
    elif not tokens:
        print(f"the checkpoint has no probe (`probe.tokens`, `probe.logits`) to compare with; "
              f"pass --tokens 1,2,3 to print the logits of those ids, or write it again with "
              f"`{TRAIN}`, which saves a probe")

    if tokens:
        with torch.no_grad():
            logits = model(torch.tensor(tokens, dtype=torch.int64))
        print(json.dumps({"tokens": tokens, "logits": logits.tolist()}))  # floats as repr()
    return status


# ------------------------------------------------------------------------- the bench mode


def init_weights(model, seed):
    """Every matrix (the embedding included) drawn from N(0, 0.02²), every gain 1."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            if p.ndim == 2:
                p.copy_(torch.randn(p.shape, generator=generator, dtype=torch.float64) * 0.02)
            else:
                p.fill_(1.0)


def time_steps(config, dtype, batch, context, repeats, warmups=2, seed=0):
    """The seconds of each of `repeats` training steps (after `warmups`), and the last loss."""
    vocab_size = config[0]
    model = Gpt(*config).to(torch.float64)
    init_weights(model, seed)
    model = model.to(dtype)
    generator = torch.Generator().manual_seed(seed + 1)
    windows = torch.randint(0, vocab_size, (batch, context + 1), generator=generator)
    inputs, targets = windows[:, :-1], windows[:, 1:]  # (B, T) each
    matrices = [p for p in model.parameters() if p.ndim == 2]
    gains = [p for p in model.parameters() if p.ndim == 1]
    optimizer = torch.optim.AdamW(
        [{"params": matrices, "weight_decay": 0.1}, {"params": gains, "weight_decay": 0.0}],
        lr=1e-3, betas=(0.9, 0.95), eps=1e-8)

    def step():
        optimizer.zero_grad(set_to_none=True)
        logits = model(inputs)  # (B, T, vocab_size)
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        return loss.item()

    for _ in range(warmups):
        step()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        loss = step()
        seconds.append(time.perf_counter() - start)
    return seconds, loss


def bench_step(config, batch, context, repeats):
    torch.set_num_threads(1)
    result = {"torch": torch.__version__, "threads": torch.get_num_threads()}
    count = sum(p.numel() for p in Gpt(*config).parameters())
    print(f"config {config} ({count:,} parameters), batch {batch} × context {context}, "
          f"{repeats} timed steps after 2 warm-up steps, one thread", file=sys.stderr)
    for name, dtype in [("float64", torch.float64), ("float32", torch.float32)]:
        seconds, loss = time_steps(config, dtype, batch, context, repeats)
        median = statistics.median(seconds)
        print(f"{name}: median {median * 1e3:.1f} ms per step (fastest {min(seconds) * 1e3:.1f}, "
              f"slowest {max(seconds) * 1e3:.1f}); last loss {loss:.4f}", file=sys.stderr)
        result[f"{name}_seconds"] = median
    result.update(batch=batch, context=context, config=config)
    print(json.dumps(result))
    return 0


# ------------------------------------------------------------------------------ running


def main(args):
    if args.bench_step:
        return bench_step(args.config, args.batch, args.context, args.repeats)
    try:
        return check_checkpoint(args.checkpoint, args.tokens)
    except Unusable as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(ARGS))
