use super::attention::masked_softmax;
use super::differing;
use super::{Cause, kept};
use crate::{MESSAGES, Misconception, Tol, tr};
use course_common::{Float, Matrix};

/// The padding token, PAD (token 0 of every vocabulary of the course).
pub const PAD: usize = 0;

/// The embeddings left unscaled in the model.
pub const NO_EMBEDDING_SCALE: Cause = Cause(|| tr!(MESSAGES, "no-embedding-scale"));

/// No positional encoding in the model.
pub const NO_POSITIONS: Cause = Cause(|| tr!(MESSAGES, "no-positions"));

/// The decoder's self-attention without the causal mask.
pub const NO_CAUSAL_MASK: Cause = Cause(|| tr!(MESSAGES, "no-causal-mask"));

/// The encoder's self-attention without the source's padding mask.
pub const NO_ENCODER_MASK: Cause = Cause(|| tr!(MESSAGES, "no-encoder-mask"));

/// The cross-attention without the source's padding mask.
pub const NO_CROSS_MASK: Cause = Cause(|| tr!(MESSAGES, "no-cross-mask"));

/// Every layer fed the embeddings.
pub const SAME_INPUT: Cause = Cause(|| tr!(MESSAGES, "same-input"));

/// The loss divided by the number of rows.
pub const LOSS_OVER_EVERY_ROW: Cause = Cause(|| tr!(MESSAGES, "loss-over-every-row"));

/// An overflowing log-softmax.
pub const LOG_SOFTMAX_OVERFLOW: Cause = Cause(|| tr!(MESSAGES, "log-softmax-overflow"));

/// The warm-up with `max`.
pub const NOAM_MAX: Cause = Cause(|| tr!(MESSAGES, "noam-max"));

/// Adam without bias correction.
pub const NO_BIAS_CORRECTION: Cause = Cause(|| tr!(MESSAGES, "no-bias-correction"));

/// Adam's ε inside the square root.
pub const EPS_INSIDE_THE_ROOT: Cause = Cause(|| tr!(MESSAGES, "eps-inside-the-root"));

/// What to do when the memory's gradient is wrong.
pub const SUM_OF_D_MEMORY: Cause = Cause(|| tr!(MESSAGES, "sum-of-d-memory"));

/// What to do when a parameter's gradient is wrong.
pub const ADD_NEVER_ASSIGN: Cause = Cause(|| tr!(MESSAGES, "add-never-assign"));

/// Greedy decoding that does not start from BOS.
pub const START_FROM_BOS: Cause = Cause(|| tr!(MESSAGES, "start-from-bos"));

/// A cache that does not keep the earlier positions.
pub const CACHE_APPEND: Cause = Cause(|| tr!(MESSAGES, "cache-append"));

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
) -> Vec<Misconception<'static>> {
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
            cause: kept(tr!(MESSAGES, "annotated-label-smoothing")),
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
            cause: kept(tr!(MESSAGES, "pad-row-smoothed")),
            result: pad_row,
        },
        Misconception {
            cause: kept(tr!(MESSAGES, "smoothing-over-others")),
            result: spread(1.0 - smoothing),
        },
        Misconception {
            cause: kept(tr!(MESSAGES, "smoothing-over-v-minus-one")),
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

/// The likely cause of a wrong `cross_entropy_loss(logits, targets, ε).value` that
/// came back as `got`: the mean over every row; `None` if no known mistake gives it.
pub fn loss_value_cause(
    got: Float,
    logits: &Matrix,
    targets: &[usize],
    smoothing: Float,
) -> Option<&'static str> {
    let rows = targets.len().max(1) as Float;
    let right = loss_with(logits, targets, smoothing, tokens(targets), true).0;
    let over_rows = loss_with(logits, targets, smoothing, rows, true).0;
    ((over_rows - right).abs() > 1e-9 && (got - over_rows).abs() < 1e-6)
        .then(|| LOSS_OVER_EVERY_ROW.text())
}

/// What `cross_entropy_loss(logits, targets, ε).d_logits` is when the PAD rows keep
/// p/N, when it is divided by the number of rows, or both.
pub fn loss_gradient_mistakes(
    logits: &Matrix,
    targets: &[usize],
    smoothing: Float,
) -> Vec<Misconception<'static>> {
    let (n, rows) = (tokens(targets), targets.len().max(1) as Float);
    let gradient = |divisor, zero| loss_with(logits, targets, smoothing, divisor, zero).1;
    let mistakes = vec![
        Misconception {
            cause: kept(tr!(MESSAGES, "pad-row-gradient")),
            result: gradient(n, false),
        },
        Misconception {
            cause: kept(tr!(MESSAGES, "gradient-over-rows")),
            result: gradient(rows, true),
        },
        Misconception {
            cause: kept(tr!(MESSAGES, "pad-row-gradient-over-rows")),
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

/// The likely cause of a wrong `noam_rate(step, d_model, warmup, factor)` that came
/// back as `got`: step 0 not treated as step 1, `max` for `min`, or else the rule.
pub fn noam_cause(
    got: Float,
    step: usize,
    d_model: usize,
    warmup: usize,
    factor: Float,
) -> &'static str {
    let close = Tol {
        abs: 1e-15,
        rel: 1e-9,
    };
    if step == 0 && !got.is_finite() {
        kept(tr!(MESSAGES, "noam-step-zero-infinite"))
    } else if step == 0 && got == 0.0 {
        kept(tr!(MESSAGES, "noam-step-zero-zero"))
    } else if close.accepts(got, noam_with_max(step, d_model, warmup, factor)) {
        NOAM_MAX.text()
    } else if step < warmup {
        kept(tr!(MESSAGES, "noam-warm-up"))
    } else {
        kept(tr!(MESSAGES, "noam-rule"))
    }
}

/// What `clip_global_norm(grads, max_norm)` leaves in the tensors, flattened into
/// one row, when each tensor is clipped on its own.
pub fn clip_mistakes(grads: &[&[Float]], max_norm: Float) -> Vec<Misconception<'static>> {
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
            cause: kept(tr!(MESSAGES, "clipped-each-tensor")),
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
) -> Vec<Vec<Misconception<'static>>> {
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
                        cause: &NO_BIAS_CORRECTION,
                        result: row(&no_correction[t]),
                    },
                    Misconception {
                        cause: &EPS_INSIDE_THE_ROOT,
                        result: row(&eps_inside[t]),
                    },
                ],
            )
        })
        .collect()
}
