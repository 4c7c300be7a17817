//! Lesson 06: the label-smoothed loss, the schedule, clipping and Adam.
//!
//! The whole model's wrong logits are PyTorch's, recorded in the graded suite's
//! reference values; what is here are the builders of the loss's and the optimiser's
//! wrong results, which take plain matrices and numbers.

use crate::attention::masked_softmax;
use crate::differing;
use course_common::{Float, Matrix};
use course_harness::Cause;
use course_harness::Misconception;
use course_harness::causes::full_model::*;

/// The padding token, PAD (token 0 of every vocabulary of the course).
pub const PAD: usize = 0;

/// The leap years from `first` to `last`, for the suite's check that every sampled date
/// exists: recorded, so that the student edition's suite does not carry the rule that
/// `days_in_month` asks the learner to write.
pub fn leap_years(first: u32, last: u32) -> Vec<Float> {
    (first..=last)
        .filter(|y| {
            (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400)
        })
        .map(Float::from)
        .collect()
}

/// PyTorch's label smoothing: ε/V everywhere and 1 − ε more on the gold class, PAD
/// rows all 0.
pub fn smoothed(targets: &[usize], vocab: usize, smoothing: Float) -> Matrix {
    smoothed_with_pad_rows(targets, vocab, smoothing, false)
}

/// [`smoothed`], or (with `pad_rows_too`) with the PAD rows smoothed like the others,
/// their gold class PAD.
fn smoothed_with_pad_rows(
    targets: &[usize],
    vocab: usize,
    smoothing: Float,
    pad_rows_too: bool,
) -> Matrix {
    let uniform = smoothing / vocab as Float;
    Matrix::from_shape_fn((targets.len(), vocab), |(r, c)| {
        match (targets[r], c == targets[r]) {
            (PAD, _) if !pad_rows_too => 0.0,
            (_, true) => uniform + (1.0 - smoothing),
            (_, false) => uniform,
        }
    })
}

/// What `smoothed_targets(targets, vocab, ε)` returns as the Annotated Transformer's
/// LabelSmoothing, with ε/(V − 1) over the other classes, or with a smoothed PAD row.
pub fn smoothing_mistakes(
    targets: &[usize],
    vocab: usize,
    smoothing: Float,
) -> Vec<Misconception> {
    let rows = |fill: &dyn Fn(usize, usize) -> Float| {
        Matrix::from_shape_fn((targets.len(), vocab), |(r, c)| {
            if targets[r] == PAD {
                0.0
            } else {
                fill(targets[r], c)
            }
        })
    };
    let others = smoothing / (vocab - 1) as Float;
    let spread = |gold_share: Float| {
        rows(&|target, c| if c == target { gold_share } else { others })
    };
    let pad_row = smoothed_with_pad_rows(targets, vocab, smoothing, true);
    let mistakes = vec![
        Misconception {
            cause: Cause::harness("annotated-label-smoothing"),
            result: rows(&|target, c| {
                if c == target {
                    1.0 - smoothing
                } else if c == PAD {
                    0.0
                } else {
                    smoothing / (vocab - 2) as Float
                }
            }),
        },
        Misconception {
            cause: Cause::harness("pad-row-smoothed"),
            result: pad_row,
        },
        Misconception {
            cause: Cause::harness("smoothing-over-others"),
            result: spread(1.0 - smoothing),
        },
        Misconception {
            cause: Cause::harness("smoothing-over-v-minus-one"),
            result: spread(1.0 - smoothing + others),
        },
    ];
    differing(&smoothed(targets, vocab, smoothing), mistakes)
}

/// The loss and its gradient, `(value, d_logits)`, dividing by `divisor`, with the PAD
/// rows' p kept or not.
fn loss_with(
    logits: &Matrix,
    targets: &[usize],
    smoothing: Float,
    divisor: Float,
    zero_pad_rows: bool,
) -> (Float, Matrix) {
    let p = masked_softmax(logits);
    let q = smoothed(targets, logits.ncols(), smoothing);
    let value = -(&q * &p.mapv(Float::ln)).sum() / divisor;
    let mut d_logits = (p - &q) / divisor;
    if zero_pad_rows {
        for (mut row, &target) in d_logits.rows_mut().into_iter().zip(targets) {
            if target == PAD {
                row.fill(0.0);
            }
        }
    }
    (value, d_logits)
}

fn tokens(targets: &[usize]) -> Float {
    targets.iter().filter(|&&t| t != PAD).count().max(1) as Float
}

/// The wrong value of `cross_entropy_loss(logits, targets, ε).value` as a 1 × 1
/// result: the mean over every row (named with `course_harness::scalar_cause`).
pub fn loss_value_mistakes(
    logits: &Matrix,
    targets: &[usize],
    smoothing: Float,
) -> Vec<Misconception> {
    let rows = targets.len().max(1) as Float;
    let right = loss_with(logits, targets, smoothing, tokens(targets), true).0;
    let over_rows = loss_with(logits, targets, smoothing, rows, true).0;
    let mistakes = vec![Misconception {
        cause: LOSS_OVER_EVERY_ROW,
        result: Matrix::from_elem((1, 1), over_rows),
    }];
    differing(&Matrix::from_elem((1, 1), right), mistakes)
}

/// What `cross_entropy_loss(logits, targets, ε).d_logits` is when the PAD rows keep
/// p/N, when it is divided by the number of rows, or both.
pub fn loss_gradient_mistakes(
    logits: &Matrix,
    targets: &[usize],
    smoothing: Float,
) -> Vec<Misconception> {
    let (n, rows) = (tokens(targets), targets.len().max(1) as Float);
    let gradient = |divisor, zero| loss_with(logits, targets, smoothing, divisor, zero).1;
    let mistakes = vec![
        Misconception {
            cause: Cause::harness("pad-row-gradient"),
            result: gradient(n, false),
        },
        Misconception {
            cause: Cause::harness("gradient-over-rows"),
            result: gradient(rows, true),
        },
        Misconception {
            cause: Cause::harness("pad-row-gradient-over-rows"),
            result: gradient(rows, false),
        },
    ];
    differing(&gradient(n, true), mistakes)
}

/// The schedule written out with `max` in place of `min`.
pub fn noam_with_max(step: usize, d_model: usize, warmup: usize, factor: Float) -> Float {
    let s = step.max(1) as Float;
    factor
        * (d_model as Float).powf(-0.5)
        * s.powf(-0.5).max(s * (warmup as Float).powf(-1.5))
}

/// The wrong value of `noam_rate(step, d_model, warmup, factor)` as a 1 × 1 result:
/// `max` for `min` (named with `course_harness::causes::full_model::noam_cause`).
pub fn noam_mistakes(
    step: usize,
    d_model: usize,
    warmup: usize,
    factor: Float,
) -> Vec<Misconception> {
    vec![Misconception {
        cause: NOAM_MAX,
        result: Matrix::from_elem((1, 1), noam_with_max(step, d_model, warmup, factor)),
    }]
}

/// What `clip_global_norm(grads, max_norm)` leaves in the tensors, flattened into
/// one row, when each tensor is clipped on its own.
pub fn clip_mistakes(grads: &[&[Float]], max_norm: Float) -> Vec<Misconception> {
    let norm = |values: &[Float]| values.iter().map(|g| g * g).sum::<Float>().sqrt();
    let scaled = |values: &[Float], norm: Float| -> Vec<Float> {
        let scale = if norm > max_norm {
            max_norm / norm
        } else {
            1.0
        };
        values.iter().map(|g| g * scale).collect()
    };
    let all: Vec<Float> = grads.iter().flat_map(|g| g.iter().copied()).collect();
    let row = |values: Vec<Float>| {
        Matrix::from_shape_vec((1, values.len()), values).expect("a row")
    };
    let each: Vec<Float> = grads.iter().flat_map(|g| scaled(g, norm(g))).collect();
    differing(
        &row(scaled(&all, norm(&all))),
        vec![Misconception {
            cause: Cause::harness("clipped-each-tensor"),
            result: row(each),
        }],
    )
}

/// Adam (β₁ = 0.9, β₂ = 0.98, ε = 1e-9) on one tensor, from `params`, one update per
/// entry of `grads`: the parameters after each update, with or without the bias
/// correction, with ε added to √v̂ or inside the root.
fn adam_with(
    params: &[Float],
    grads: &[&[Float]],
    lr: Float,
    bias_correction: bool,
    eps_inside: bool,
) -> Vec<Vec<Float>> {
    let (beta1, beta2, eps): (Float, Float, Float) = (0.9, 0.98, 1e-9);
    let mut params = params.to_vec();
    let mut m = vec![0.0; params.len()];
    let mut v = vec![0.0; params.len()];
    let mut after = Vec::new();
    for (t, g) in grads.iter().enumerate() {
        let t = t as i32 + 1;
        let (c1, c2) = if bias_correction {
            (1.0 - beta1.powi(t), 1.0 - beta2.powi(t))
        } else {
            (1.0, 1.0)
        };
        for i in 0..params.len() {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let (m_hat, v_hat) = (m[i] / c1, v[i] / c2);
            let denominator = if eps_inside {
                (v_hat + eps).sqrt()
            } else {
                v_hat.sqrt() + eps
            };
            params[i] -= lr * m_hat / denominator;
        }
        after.push(params.clone());
    }
    after
}

/// Adam with ε inside the square root, m̂ / √(v̂ + ε): the parameters after each of
/// the updates by `grads`.
pub fn adam_eps_inside_the_root(
    params: &[Float],
    grads: &[&[Float]],
    lr: Float,
) -> Vec<Vec<Float>> {
    adam_with(params, grads, lr, true, true)
}

/// What the parameters (one row) are after each of the updates by `grads` without
/// the bias correction or with ε inside the square root: one list per update.
pub fn adam_mistakes(
    params: &[Float],
    grads: &[&[Float]],
    lr: Float,
) -> Vec<Vec<Misconception>> {
    let row = |values: &Vec<Float>| {
        Matrix::from_shape_vec((1, values.len()), values.clone()).expect("a row")
    };
    let right = adam_with(params, grads, lr, true, false);
    let no_correction = adam_with(params, grads, lr, false, false);
    let eps_inside = adam_with(params, grads, lr, true, true);
    (0..grads.len())
        .map(|t| {
            differing(
                &row(&right[t]),
                vec![
                    Misconception {
                        cause: NO_BIAS_CORRECTION,
                        result: row(&no_correction[t]),
                    },
                    Misconception {
                        cause: EPS_INSIDE_THE_ROOT,
                        result: row(&eps_inside[t]),
                    },
                ],
            )
        })
        .collect()
}
