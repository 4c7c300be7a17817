//! The loss: cross-entropy with label smoothing.
//!
//! The loss: cross-entropy against label-smoothed targets, averaged over the tokens that
//! are not padding, and its gradient with respect to the logits.
//!
//! ```text
//! p_r = softmax(logits_r)                    one row r per target position
//! q_r = (1 − ε)·onehot(y_r) + ε/V            the smoothed target (PyTorch's definition)
//! L   = (1/N) Σ_{r: y_r ≠ PAD} −Σ_c q_rc log p_rc          N = number of such rows
//! ∂L/∂logits_r = (p_r − q_r)/N   for those rows, 0 for padding rows
//! ```
//!
//! With `ε = 0` this is the ordinary cross-entropy `−log p_{r, y_r}`. The definition is
//! PyTorch's `F.cross_entropy(logits, y, ignore_index=PAD, label_smoothing=ε)`; the
//! Annotated Transformer's smoothing differs (the book compares them). Book: chapter 06,
//! "The loss and label smoothing".

use crate::data::PAD;
use course_common::ndarray::Axis;
use course_common::{Float, Matrix};

// ANCHOR: smoothed_targets
/// The label-smoothed target distribution of each row: row `r` is
/// `(1 − ε)·onehot(targets[r]) + ε/V` over the `V = vocab` classes (the gold class
/// gets `1 − ε + ε/V`, every other class `ε/V`, padding included), and a row whose
/// target is [`PAD`] is all zeros: it is not a prediction to learn.
///
/// Panics if a target is not below `vocab`. Shape `(targets.len(), vocab)`. Book:
/// chapter 06, "The loss and label smoothing".
pub fn smoothed_targets(targets: &[usize], vocab: usize, smoothing: Float) -> Matrix {
    // TODO: ε/V everywhere plus 1 − ε on the gold class; a row whose target is PAD
    //       stays all zeros.
    // BEGIN SOLUTION: todo!("smoothed_targets")
    let mut q = Matrix::zeros((targets.len(), vocab)); // (n, vocab)
    for (mut row, &target) in q.rows_mut().into_iter().zip(targets) {
        assert!(
            target < vocab,
            "target {target} is outside the vocabulary of {vocab} tokens"
        );
        if target == PAD {
            continue;
        }
        row.fill(smoothing / vocab as Float);
        row[target] += 1.0 - smoothing;
    }
    q
    // END SOLUTION
}
// ANCHOR_END: smoothed_targets

/// A loss and its gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct Loss {
    /// The mean over the non-padding rows of `−Σ_c q_c log p_c`.
    pub value: Float,
    /// `∂value/∂logits`, the logits' shape: `(p − q)/N` on the non-padding rows and
    /// 0 on the padding rows.
    pub d_logits: Matrix,
    /// `N`, the number of rows whose target is not padding.
    pub tokens: usize,
}

// ANCHOR: log_softmax_rows
/// The row-wise log-softmax of `logits`, computed stably:
/// `logits − max − ln Σ exp(logits − max)`, row by row.
pub fn log_softmax_rows(logits: &Matrix) -> Matrix {
    // TODO: for each row: x − max − ln Σ exp(x − max).
    // BEGIN SOLUTION: todo!("log_softmax_rows")
    let mut out = logits.clone(); // (n, vocab)
    for mut row in out.rows_mut() {
        let max = row.fold(Float::NEG_INFINITY, |m, &x| m.max(x));
        let log_sum = row.iter().map(|&x| (x - max).exp()).sum::<Float>().ln();
        row.mapv_inplace(|x| x - max - log_sum);
    }
    out
    // END SOLUTION
}
// ANCHOR_END: log_softmax_rows

// ANCHOR: cross_entropy_loss
/// Cross-entropy between `softmax(logits)` and the smoothed targets, averaged over
/// the rows whose target is not [`PAD`], and its gradient with respect to the
/// logits.
///
/// `logits` is `(n, V)` and `targets` has `n` entries. With `log p` from
/// [`log_softmax_rows`] and `q` from [`smoothed_targets`]:
/// `value = −Σ q ⊙ log p / N` and `d_logits = (p − q)/N` on the rows whose target
/// is not padding (0 on the others), where `N` is the number of such rows. If every
/// target is padding, the loss is 0 with a zero gradient. Book: chapter 06, "The
/// loss and label smoothing".
pub fn cross_entropy_loss(logits: &Matrix, targets: &[usize], smoothing: Float) -> Loss {
    // TODO: q = smoothed_targets, log p = log_softmax_rows, N = the targets that
    //       are not PAD; value = −Σ q ⊙ log p / N; d_logits = (p − q)/N, 0 on PAD
    //       rows.
    // BEGIN SOLUTION: todo!("cross_entropy_loss")
    assert_eq!(
        logits.nrows(),
        targets.len(),
        "one target per row of the logits"
    );
    let q = smoothed_targets(targets, logits.ncols(), smoothing); // (n, vocab)
    let log_p = log_softmax_rows(logits); // (n, vocab)
    let tokens = targets.iter().filter(|&&t| t != PAD).count();
    let n = tokens.max(1) as Float;
    let value = -(&q * &log_p).sum() / n;
    let is_token = targets
        .iter()
        .map(|&t| if t == PAD { 0.0 } else { 1.0 })
        .collect::<course_common::Vector>()
        .insert_axis(Axis(1)); // (n, 1)
    let d_logits = (log_p.mapv(Float::exp) * &is_token - &q) / n; // (n, vocab)
    Loss {
        value,
        d_logits,
        tokens,
    }
    // END SOLUTION
}
// ANCHOR_END: cross_entropy_loss
