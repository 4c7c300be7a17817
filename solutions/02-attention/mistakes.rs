//! Lesson 02: softmax, attention, masks, `Linear`.

use course_common::ndarray::{Array2, Axis};
use course_common::{Float, Matrix, Vector};
use course_harness::Cause;
use course_harness::Misconception;
use course_harness::causes::attention::*;

/// Softmax along `axis` (0: columns, 1: rows), with the maximum subtracted.
pub fn softmax_along(scores: &Matrix, axis: usize) -> Matrix {
    let mut out = scores.clone();
    for mut lane in out.lanes_mut(Axis(axis)) {
        let max = lane.fold(Float::NEG_INFINITY, |m, &x| m.max(x));
        lane.mapv_inplace(|x| (x - max).exp());
        let sum = lane.sum();
        lane /= sum;
    }
    out
}

/// Softmax of each row that skips −∞ scores (masked keys), with all-zero weights for a
/// row that has nothing to attend to, as lesson 02's `softmax_rows`.
pub fn masked_softmax(scores: &Matrix) -> Matrix {
    let mut out = softmax_along(scores, 1);
    for (mut weights, lane) in out.rows_mut().into_iter().zip(scores.rows()) {
        // A row of −∞ softmaxes to NaN (−∞ − (−∞)); it gets no weight instead.
        if lane.iter().all(|&score| score == Float::NEG_INFINITY) {
            weights.fill(0.0);
        }
    }
    out
}

/// `x Wᵀ + b`: lesson 02's `Linear::forward`, weight `(d_out, d_in)`.
pub fn linear(x: &Matrix, weight: &Matrix, bias: &Vector) -> Matrix {
    x.dot(&weight.t()) + bias
}

/// Lesson 02's scaled dot-product attention: `(output, weights)`, with the keys that
/// `mask` forbids (`false`) given weight 0.
pub fn attend(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    mask: Option<&Array2<bool>>,
) -> (Matrix, Matrix) {
    let mut scores = q.dot(&k.t()) / (q.ncols() as Float).sqrt();
    if let Some(mask) = mask {
        scores.zip_mut_with(mask, |s, &allowed| {
            if !allowed {
                *s = Float::NEG_INFINITY;
            }
        });
    }
    let weights = masked_softmax(&scores);
    (weights.dot(v), weights)
}

/// The backward pass of [`attend`], from its `weights`: `(d_q, d_k, d_v)`.
pub fn attend_backward(
    q: &Matrix,
    k: &Matrix,
    v: &Matrix,
    weights: &Matrix,
    d_output: &Matrix,
) -> (Matrix, Matrix, Matrix) {
    let d_weights = d_output.dot(&v.t());
    let row_dots = (weights * &d_weights)
        .sum_axis(Axis(1))
        .insert_axis(Axis(1));
    let d_scores = weights * &(&d_weights - &row_dots) / (q.ncols() as Float).sqrt();
    (
        d_scores.dot(k),
        d_scores.t().dot(q),
        weights.t().dot(d_output),
    )
}

/// What `softmax_rows(scores)` returns with the softmax over columns.
pub fn softmax_mistakes(scores: &Matrix) -> Vec<Misconception> {
    vec![Misconception {
        cause: WRONG_AXIS,
        result: softmax_along(scores, 0),
    }]
}

/// The attention weights softmax(Q Kᵀ / s) for the wrong scales and the wrong axis.
pub fn weights_mistakes(q: &Matrix, k: &Matrix) -> Vec<Misconception> {
    let d_k = q.ncols() as Float;
    let raw = q.dot(&k.t());
    vec![
        Misconception {
            cause: Cause::harness("scores-not-scaled"),
            result: softmax_along(&raw, 1),
        },
        Misconception {
            cause: Cause::harness("scores-divided-by-d-k"),
            result: softmax_along(&(&raw / d_k), 1),
        },
        Misconception {
            cause: WRONG_AXIS,
            result: softmax_along(&(&raw / d_k.sqrt()), 0),
        },
    ]
}

/// The attention output for the same mistakes as [`weights_mistakes`].
pub fn attention_mistakes(q: &Matrix, k: &Matrix, v: &Matrix) -> Vec<Misconception> {
    weights_mistakes(q, k)
        .into_iter()
        .map(|m| Misconception {
            cause: m.cause,
            result: m.result.dot(v),
        })
        .collect()
}

/// What `softmax_rows_backward(weights, d_weights)` returns with half the Jacobian.
pub fn softmax_backward_mistakes(
    weights: &Matrix,
    d_weights: &Matrix,
) -> Vec<Misconception> {
    vec![
        Misconception {
            cause: Cause::harness("softmax-jacobian-diagonal-only"),
            result: weights * &weights.mapv(|w| 1.0 - w) * d_weights,
        },
        Misconception {
            cause: Cause::harness("softmax-rowsum-term-missing"),
            result: weights * d_weights,
        },
    ]
}

/// What `Linear::forward(x)` returns without the bias, with it on one row only, or
/// (for a square weight) with x W instead of x Wᵀ.
pub fn linear_mistakes(x: &Matrix, weight: &Matrix, bias: &Vector) -> Vec<Misconception> {
    let mut mistakes = vec![
        Misconception {
            cause: Cause::harness("bias-not-added"),
            result: x.dot(&weight.t()),
        },
        Misconception {
            cause: Cause::harness("bias-on-one-row"),
            result: {
                let mut y = x.dot(&weight.t());
                y.row_mut(0).scaled_add(1.0, bias);
                y
            },
        },
    ];
    if weight.is_square() {
        mistakes.push(Misconception {
            cause: Cause::harness("weight-not-transposed"),
            result: x.dot(weight) + bias,
        });
    }
    mistakes
}
