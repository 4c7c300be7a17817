//! Lesson 05: the encoder layer and the decoder layer.
//!
//! ```text
//! post-LN (the paper; the course's default):
//!     h = LayerNorm_1(x + SelfAttention(x)),   out = LayerNorm_2(h + FFN(h))
//! pre-LN (GPT-2 onward):
//!     h = x + SelfAttention(LayerNorm_1(x)),   out = h + FFN(LayerNorm_2(h))
//!
//! LayerNorm(x) = γ ⊙ (x − μ) / √(σ² + ε) + β     (μ, σ²: each row's own)
//! FFN(x)       = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2  (the same MLP on every row)
//! ```
//!
//! | name      | shape              | meaning                                     |
//! |-----------|--------------------|---------------------------------------------|
//! | `x`       | `(n, d_model)`     | one sequence, one row per token             |
//! | `memory`  | `(n_src, d_model)` | the encoder's output, read by the decoder   |
//! | `gamma`   | `(d_model,)`       | LayerNorm's learned scale, `beta` its shift |
//! | `hidden`  | `(n, d_ff)`        | the FFN's inner layer, after the ReLU       |
//! | `output`  | `(n, d_model)`     | every layer keeps the shape of its input    |
//!
//! LayerNorm and the FFN act on each row on its own, so they take any number of
//! rows (a whole batch of sequences stacked into one matrix, in lesson 06). The
//! layers that attend take one sequence at a time, like lesson 03's attention.
//!
//! The lesson is in four modules, one file each, in the order of the work:
//!
//! | file                  | what it holds                                             |
//! |-----------------------|-----------------------------------------------------------|
//! | `src/layer_norm.rs`   | LayerNorm: normalising each row, and its backward pass    |
//! | `src/feed_forward.rs` | the feed-forward network and its backward pass            |
//! | `src/encoder.rs`      | the encoder layer, post-LN or pre-LN, and its backward    |
//! | `src/decoder.rs`      | the decoder layer, with cross-attention, and its backward |
//!
//! This file only declares them and re-exports what they make public, so every item's
//! path is `encoder_layer::X`, whichever file holds it. The book explains every step in
//! chapter 05, "The encoder layer".
//!
//! # How to work on this lesson
//!
//! Every `todo!()` in the four modules is yours to replace; the `///` comment above
//! it is the contract (shapes, formula, where the book explains it). Work through
//! the modules in the order of the table, each from top to bottom: `src/layer_norm.rs`,
//! `src/feed_forward.rs`, `src/encoder.rs`, `src/decoder.rs`. The crate uses your
//! lessons 02 (`Linear`, the masks) and 03 (`MultiHeadAttention`). Check yourself with
//!
//! ```text
//! cargo test -p encoder-layer        # the visible tests in tests/visible.rs
//! cargo run -p checker -- watch      # the graded tests, re-run on every save
//! ```
//!
//! Don't change the signatures or the tests: grading uses only this `src/` folder,
//! with the course's own copy of everything else (lessons 02 and 03 included).

pub use attention::{Linear, LinearGrads, Mask, causal_mask, padding_mask};
pub use multi_head_attention::{MultiHeadAttention, MultiHeadForward, MultiHeadGrads};

use course_common::Float;

/// LayerNorm's ε, as in PyTorch's `nn.LayerNorm` (`eps=1e-5`): added to the
/// variance, inside the square root.
pub const LAYER_NORM_EPS: Float = 1e-5;

mod layer_norm;
pub use layer_norm::*;

mod feed_forward;
pub use feed_forward::*;

mod encoder;
pub use encoder::*;

mod decoder;
pub use decoder::*;
