// BEGIN STUB
// //! Lesson 07: A GPT of your own.
// END STUB
// BEGIN SOLUTION
//! Lesson 07: A GPT of your own, solved.
// END SOLUTION
//!
//! From the 2017 Transformer of lessons 02 to 06 to the decoder-only language models of
//! today, in build order. This release of the lesson holds its first two parts:
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
//!      `(n, d_model)` → `(n, d_ff)` → `(n, d_model)`.
//!
//! Each with its backward pass. Book: chapter 07, "A GPT of your own".
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

pub mod bpe;
pub mod rms_norm;
pub mod rope;
pub mod swiglu;

pub use bpe::{Bpe, END_OF_TEXT, count_pairs, merge_pair, train_bpe};
pub use rms_norm::{RMS_NORM_EPS, RmsNorm, RmsNormGrads};
pub use rope::{apply_rope, rope_backward};
pub use swiglu::{SwiGlu, SwiGluForward, SwiGluGrads, silu};
