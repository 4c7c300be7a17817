//! Lesson 06: the full Transformer, trained on your CPU.
//!
//! ```text
//!   source tokens                         target tokens (BOS y_1 … y_n)
//!        │                                         │
//!   √d·E_src + PE                            √d·E_tgt + PE
//!        │                                         │
//!   encoder layer ×N  ──── memory ────►  decoder layer ×N   (causal + padding masks)
//!   (padding mask)                                 │
//!                                        Linear → logits → softmax
//!                                                  │
//!                      loss: cross-entropy with label smoothing, padding ignored
//! ```
//!
//! | name        | shape             | meaning                                        |
//! |-------------|-------------------|------------------------------------------------|
//! | `src`       | `B × S` tokens    | the sources, padded with `PAD`                 |
//! | `tgt_in`    | `B × T` tokens    | `BOS y_1 … y_n`, padded: the decoder's input   |
//! | `tgt_out`   | `B × T` tokens    | `y_1 … y_n EOS`, padded: what it must predict  |
//! | `memory`    | `(S, d_model)`    | the encoder's output for one source            |
//! | `logits`    | `(B·T, vocab)`    | every position of every target, stacked        |
//!
//! The lesson is in six modules, one file each, in the order of the work:
//!
//! | file               | what it holds                                               |
//! |--------------------|-------------------------------------------------------------|
//! | `src/data.rs`      | the task: dates, the vocabulary, batches                    |
//! | `src/model.rs`     | the model: initialisation, masks, stacks, forward, backward |
//! | `src/loss.rs`      | the loss: cross-entropy with label smoothing                |
//! | `src/optimizer.rs` | the optimiser: the warm-up schedule, clipping, Adam         |
//! | `src/training.rs`  | training: the step and the loop                             |
//! | `src/decoding.rs`  | generating: greedy decoding, the key/value cache            |
//!
//! This file only declares them and re-exports what they make public, so every item's
//! path is `transformer::X`, whichever file holds it. The book explains every step in
//! chapter 06, "The full model".
//!
//! # How to work on this lesson
//!
//! Every `todo!()` in the six modules is yours to replace; the `///` comment above
//! it is the contract (shapes, formula, where the book explains it). Work through
//! the modules in the order of the table, each from top to bottom: `src/data.rs`
//! (the calendar and the batches), `src/model.rs` (the initialisation, the masks,
//! the forward pass and the backward pass), `src/loss.rs`, `src/optimizer.rs`,
//! `src/training.rs` (the training step) and `src/decoding.rs`. Each function needs
//! only the ones before it, and the checker's next step names the file that holds
//! the function to fix. Check yourself with
//!
//! ```text
//! cargo test -p transformer        # the visible tests in tests/visible.rs
//! cargo run -p checker -- watch    # the graded tests, re-run on every save
//! ```
//!
//! and, once everything passes, train the model you wrote:
//!
//! ```text
//! cargo run --release -p transformer --example train_your_model
//! ```
//!
//! Don't change the signatures or the tests: grading uses only this `src/` folder,
//! with the course's own copy of everything else.

pub use attention::{Linear, LinearGrads, Mask, causal_mask, padding_mask};
pub use encoder_layer::{
    DecoderLayer, DecoderLayerForward, EncoderLayer, EncoderLayerForward, FeedForward,
    LayerNorm, MultiHeadAttention, NormPosition,
};
pub use positional_encoding::{Embedding, sinusoidal_table};
pub use rand_chacha::ChaCha8Rng;

// The lesson's six modules, in the order of the work (the table above): each is private,
// and its public items are the crate's, so every path is `transformer::X`.

mod data;
pub use data::*;

mod model;
pub use model::*;

mod loss;
pub use loss::*;

mod optimizer;
pub use optimizer::*;

mod training;
pub use training::*;

mod decoding;
pub use decoding::*;
