// BEGIN STUB
// //! Lesson 07: A GPT of your own.
// END STUB
// BEGIN SOLUTION
//! Lesson 07: A GPT of your own, solved.
// END SOLUTION
//!
//! From the 2017 Transformer of lessons 02 to 06 to the decoder-only language models of
//! today, in build order:
//!
//! 1. [`bpe`]: a byte-level BPE tokenizer. Text becomes bytes (ids 0 to 255); training
//!    merges the most frequent adjacent pair again and again, each merge a new id
//!    (256, 257, ...); encoding applies the merges in the order they were learned;
//!    decoding joins the tokens' bytes. The end-of-text token comes after the merges
//!    and is never merged.
//! 2. What changed in the block since 2017:
//!    - [`rms_norm`]: `y = g ⊙ x / √(mean(x²) + ε)`, row by row, `(n, d_model)`;
//!    - [`rope`]: rotary position embeddings, each pair of features `(2i, 2i + 1)` of a
//!      query or key at position `p` rotated by the angle `p·ω_i`, with lesson 04's
//!      frequencies `ω_i = 10000^(−2i/d_head)`; `(n, d_head)`;
//!    - [`swiglu`]: the gated feed-forward `y = (SiLU(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ`,
//!      `(n, d_model)` → `(n, d_ff)` → `(n, d_model)`;
//!    - [`self_attention`]: causal multi-head self-attention from lessons 02 and 03, with RoPE
//!      on each head's queries and keys, `(n, d_model)` → `(n, d_model)`.
//!
//!    Each with its backward pass.
//! 3. Training and sampling, around the model:
//!    - [`schedule`]: the warm-up and cosine learning rate, and AdamW, Adam with its weight
//!      decay decoupled: `θ ← θ − lr·λ·θ`, then Adam's step;
//!    - [`baselines`]: bits per byte, `nats / (bytes · ln 2)`, and the byte unigram and
//!      bigram models any language model must beat.
//!    - [`sampling`]: `softmax(logits / T)`, top-k and top-p filtering, and the next token
//!      from a uniform draw `u`, greedy at `T = 0`.
//! 4. The model:
//!    - [`model`]: pre-norm blocks `h = x + Attention(RMSNorm(x))`,
//!      `y = h + SwiGLU(RMSNorm(h))`; the GPT, `logits = RMSNorm(x_L) Eᵀ` with the head
//!      tied to the embedding `E`; the next-token cross-entropy; the backward pass of it
//!      all;
//!    - [`generate`]: one token at a time with a key/value cache whose keys are stored
//!      already turned by RoPE.
//!
//! `Gpt::shaped_parameters` and `Gpt::from_parameters` turn a model into named tensors and
//! back, for the checkpoints the examples save in the safetensors format (the course's
//! `course-checkpoint` crate), which PyTorch loads.
//!
//! Book: chapter 07, "A GPT of your own".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Check yourself with
// //!
// //! ```text
// //! cargo test -p gpt     # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch         # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else.
// END STUB

// Part 1: the tokenizer.
pub mod bpe;

// Part 2: what changed in the block since 2017.
pub mod rms_norm;

pub mod rope;

pub mod swiglu;

pub mod self_attention;

// Part 3: training and sampling, around the model.
pub mod schedule;

pub mod baselines;

pub mod sampling;

// Part 4: the model, its loss and its backward pass; generation with a cache.
pub mod model;

pub mod generate;

pub use bpe::{Bpe, END_OF_TEXT, count_pairs, merge_pair, train_bpe};
pub use rms_norm::{RMS_NORM_EPS, RmsNorm, RmsNormGrads};
pub use rope::{apply_rope, rope_backward};
pub use swiglu::{SwiGlu, SwiGluForward, SwiGluGrads, silu};

pub use self_attention::{
    CausalSelfAttention, CausalSelfAttentionForward, CausalSelfAttentionGrads,
};

pub use baselines::{bigram_bits_per_byte, bits_per_byte, unigram_bits_per_byte};
pub use sampling::{
    Sampling, sample_next, softmax_with_temperature, top_k_filter, top_p_filter,
};
pub use schedule::{AdamW, cosine_rate};

pub use generate::KvCache;
pub use model::{
    Block, BlockForward, BlockGrads, Config, Gpt, GptForward, add_gradients, last_row,
    next_token_loss,
};
pub use transformer::{Loss, clip_global_norm};
