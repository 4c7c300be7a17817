//! The wrong answers that common mistakes produce, so that a failing check can name the
//! mistake instead of printing numbers only.
//!
//! A lesson's visible tests and its graded suite use the same builders: whichever a
//! learner runs, the same mistake gets the same name. Each builder computes, from a test's
//! inputs, what the code returns when it makes that mistake (see
//! [`Misconception`]); a cause that several checks name is a
//! constant. There is one module per lesson, each in a file of its own under `mistakes/`:
//! [`rnn`] (01), [`attention`] (02), [`multi_head_attention`] (03),
//! [`positional_encoding`] (04), [`encoder_layer`] (05) and [`full_model`] (06).
//!
//! The harness depends on no lesson: a builder takes a layer's parameters as borrowed
//! matrices (a small struct of its own where there are several) and computes what it
//! needs of an earlier lesson (softmax, attention, `Linear`, LayerNorm) with the few lines
//! of its own helpers. A builder leaves out the mistakes that give the right answer for
//! the test's inputs, so that they never name a result that is merely imprecise.
//!
//! Every cause is a message of the harness's catalog (`locales/`), in the judge's
//! language. A [`Misconception`] holds its cause as text that lives as long as the process
//! ([`kept`]): the language is chosen once per process, so each cause is translated once.

use crate::Misconception;
use course_common::Matrix;
use std::collections::HashSet;
use std::fmt;
use std::sync::Mutex;

/// A likely cause that several checks name: a message of the harness's catalog, read in
/// this process's language when it is used.
///
/// It reads as the text it stands for: `&CAUSE` is a `&'static str` where one is expected,
/// `{CAUSE}` in a format string and `cause = CAUSE` in [`tr!`](crate::tr) give its text.
#[derive(Clone, Copy)]
pub struct Cause(fn() -> String);

impl Cause {
    /// The cause's text in this process's language.
    pub fn text(self) -> &'static str {
        kept((self.0)())
    }
}

impl std::ops::Deref for Cause {
    type Target = str;
    fn deref(&self) -> &str {
        self.text()
    }
}

impl AsRef<str> for Cause {
    fn as_ref(&self) -> &str {
        self.text()
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.text(), f)
    }
}

impl From<Cause> for course_i18n::Arg {
    fn from(cause: Cause) -> Self {
        cause.text().into()
    }
}

/// `text`, kept for the rest of the process, so that a [`Misconception`] built from a
/// translated message can outlive the builder. Each distinct text is kept once: the
/// causes are a fixed set of messages in one language.
pub fn kept(text: String) -> &'static str {
    static KEPT: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let kept = kept.get_or_insert_with(HashSet::new);
    match kept.get(text.as_str()) {
        Some(&text) => text,
        None => {
            let text: &'static str = Box::leak(text.into_boxed_str());
            kept.insert(text);
            text
        }
    }
}

/// The misconceptions whose result differs from `right`: a mistake that gives the right
/// answer for a test's inputs must never name a result.
fn differing(
    right: &Matrix,
    mistakes: Vec<Misconception<'static>>,
) -> Vec<Misconception<'static>> {
    mistakes
        .into_iter()
        .filter(|m| {
            m.result.dim() != right.dim()
                || crate::gradient::relative_error(&m.result, right) > 1e-9
        })
        .collect()
}

/// Lesson 02: softmax, attention, masks, `Linear`.
pub mod attention;

/// Lesson 01: the Elman RNN's step, forward pass, context vector and backpropagation
/// through time.
///
/// The builders take the cell's parameters as a [`Cell`](rnn::Cell) of borrowed matrices
/// (the harness knows no lesson's types) and compute the step themselves:
/// `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`, every weight `(d_out, d_in)`.
pub mod rnn;

/// Lesson 03: split and merge heads, multi-head attention's forward and backward passes,
/// its parameter count.
///
/// The builders take the layer as a [`Layer`](multi_head_attention::Layer) of borrowed
/// weights and compute attention themselves (with lesson 02's formulas, in
/// [`attention`]).
pub mod multi_head_attention;

/// Lesson 04: the frequencies, the sinusoidal table, the embedding and its backward pass,
/// adding the encoding, the embedding-to-encoding ratio.
pub mod positional_encoding;

/// Lesson 05: LayerNorm and its backward pass, the feed-forward network, the encoder and
/// decoder layers, post-LN and pre-LN.
///
/// The builders take the layers as [`Norm`](encoder_layer::Norm), [`Ffn`](encoder_layer::Ffn),
/// [`Encoder`](encoder_layer::Encoder) and [`Decoder`](encoder_layer::Decoder) of borrowed
/// weights, and compute LayerNorm, the FFN and multi-head attention themselves.
pub mod encoder_layer;

/// Lesson 06: the full model's masks, the label-smoothed loss, the schedule, clipping,
/// Adam, the backward pass and cached decoding.
///
/// The whole model's wrong logits are PyTorch's, pasted in the graded suite; what is
/// here are their causes, named the same in the visible tests' checks of the masks, and
/// the builders of the loss's and the optimiser's wrong results, which take plain
/// matrices and numbers.
pub mod full_model;
