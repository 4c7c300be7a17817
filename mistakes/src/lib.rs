//! The wrong answers that common mistakes produce, computed from a test's inputs, so that
//! a failing check can name the mistake instead of printing numbers only.
//!
//! Each lesson's builders live in its own folder, `solutions/NN-name/mistakes.rs`, beside
//! its list of plausible mistakes (`mistakes.toml`, which `cargo xtask mistakes` applies to
//! the solution); this crate gathers them. Only the solutions' tests link it (their
//! `builders` feature): they call the builders through [`course_harness::named!`], which
//! checks the results against the record beside each test file, and `cargo xtask named`
//! records them again. Everyone else, the learner's crate, the student edition and the
//! checker's grading builds, reads the record: computing a wrong answer takes most of the
//! right computation, and that code must not ship where a learner can read or call it.
//!
//! A builder takes a layer's parameters as borrowed matrices (a small struct of its own
//! where there are several) and computes what it needs of an earlier lesson (softmax,
//! attention, `Linear`, LayerNorm) with the few lines of that lesson's builders. It leaves
//! out the mistakes that give the right answer for the test's inputs, so that they never
//! name a result that is merely imprecise. Every cause is a [`Cause`]: a message id of the
//! harness's catalog, constants in [`course_harness::causes`].

use course_common::Matrix;
use course_harness::Misconception;

/// The misconceptions whose result differs from `right`: a mistake that gives the right
/// answer for a test's inputs must never name a result.
fn differing(right: &Matrix, mistakes: Vec<Misconception>) -> Vec<Misconception> {
    mistakes
        .into_iter()
        .filter(|m| {
            m.result.dim() != right.dim()
                || course_harness::relative_error(&m.result, right) > 1e-9
        })
        .collect()
}

/// Lesson 01: the Elman RNN's step, forward pass, context vector and backpropagation
/// through time.
///
/// The builders take the cell's parameters as a [`Cell`](rnn::Cell) of borrowed matrices
/// (this crate knows no lesson's types) and compute the step themselves:
/// `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`, every weight `(d_out, d_in)`.
#[path = "../../solutions/01-rnn-bottleneck/mistakes.rs"]
pub mod rnn;

/// Lesson 02: softmax, attention, masks, `Linear`.
#[path = "../../solutions/02-attention/mistakes.rs"]
pub mod attention;

/// Lesson 03: split and merge heads, multi-head attention's forward and backward passes,
/// its parameter count.
///
/// The builders take the layer as a [`Layer`](multi_head_attention::Layer) of borrowed
/// weights and compute attention themselves (with lesson 02's formulas, in
/// [`attention`]).
#[path = "../../solutions/03-multi-head-attention/mistakes.rs"]
pub mod multi_head_attention;

/// Lesson 04: the frequencies, the sinusoidal table, the embedding and its backward pass,
/// adding the encoding, the embedding-to-encoding ratio.
#[path = "../../solutions/04-positional-encoding/mistakes.rs"]
pub mod positional_encoding;

/// Lesson 05: LayerNorm and its backward pass, the feed-forward network, the encoder and
/// decoder layers, post-LN and pre-LN.
///
/// The builders take the layers as [`Norm`](encoder_layer::Norm), [`Ffn`](encoder_layer::Ffn),
/// [`Encoder`](encoder_layer::Encoder) and [`Decoder`](encoder_layer::Decoder) of borrowed
/// weights, and compute LayerNorm, the FFN and multi-head attention themselves.
#[path = "../../solutions/05-encoder-layer/mistakes.rs"]
pub mod encoder_layer;

/// Lesson 06: the label-smoothed loss, the schedule, clipping and Adam.
///
/// The whole model's wrong logits are PyTorch's, recorded in the graded suite's
/// reference values; what is here are the builders of the loss's and the optimiser's
/// wrong results, which take plain matrices and numbers.
#[path = "../../solutions/06-full-model/mistakes.rs"]
pub mod full_model;

pub use course_harness::Cause;
