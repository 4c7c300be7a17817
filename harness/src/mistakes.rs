//! The wrong answers that common mistakes produce, so that a failing check can name the
//! mistake instead of printing numbers only.
//!
//! A lesson's visible tests and its graded suite use the same builders: whichever a
//! learner runs, the same mistake gets the same name. Each builder computes, from a test's
//! inputs, what the code returns when it makes that mistake (see
//! [`Misconception`](crate::Misconception)).

/// Lesson 02: softmax, attention, masks, `Linear`.
pub mod attention {
    use crate::Misconception;
    use course_common::ndarray::Axis;
    use course_common::{Float, Matrix, Vector};

    /// The softmax over the wrong axis, named once for every check that can see it.
    pub const WRONG_AXIS: &str = "the softmax normalised each column instead of each row \
        (rows are queries: each query's weights over the keys must sum to 1)";

    /// Overflow in a softmax that does not subtract the row maximum.
    pub const NO_MAX_SUBTRACTION: &str = "exp(1000) overflows to infinity, and ∞/∞ is NaN: \
        subtract each row's maximum from its scores before exponentiating (the weights do \
        not change, since softmax only sees differences of scores)";

    /// A mask applied to the weights instead of the scores.
    pub const MASK_AFTER_SOFTMAX: &str = "the masked weights were set to 0 after the \
        softmax, so the rows no longer sum to 1: replace the masked scores with −∞ before \
        the softmax";

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

    /// What `softmax_rows(scores)` returns with the softmax over columns.
    pub fn softmax_mistakes(scores: &Matrix) -> Vec<Misconception<'static>> {
        vec![Misconception {
            cause: WRONG_AXIS,
            result: softmax_along(scores, 0),
        }]
    }

    /// The attention weights softmax(Q Kᵀ / s) for the wrong scales and the wrong axis.
    pub fn weights_mistakes(q: &Matrix, k: &Matrix) -> Vec<Misconception<'static>> {
        let d_k = q.ncols() as Float;
        let raw = q.dot(&k.t());
        vec![
            Misconception {
                cause: "the scores were not divided by √d_k",
                result: softmax_along(&raw, 1),
            },
            Misconception {
                cause: "the scores were divided by d_k instead of √d_k",
                result: softmax_along(&(&raw / d_k), 1),
            },
            Misconception {
                cause: WRONG_AXIS,
                result: softmax_along(&(&raw / d_k.sqrt()), 0),
            },
        ]
    }

    /// The attention output for the same mistakes as [`weights_mistakes`].
    pub fn attention_mistakes(
        q: &Matrix,
        k: &Matrix,
        v: &Matrix,
    ) -> Vec<Misconception<'static>> {
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
    ) -> Vec<Misconception<'static>> {
        vec![
            Misconception {
                cause: "only the diagonal of each row's Jacobian, w(1 − w), was used: every \
                        weight of a row depends on every score of the row, so the Jacobian \
                        is diag(w) − w wᵀ and dS = W ⊙ (dW − rowsum(W ⊙ dW))",
                result: weights * &weights.mapv(|w| 1.0 - w) * d_weights,
            },
            Misconception {
                cause: "the term rowsum(W ⊙ dW) was left out: dS = W ⊙ (dW − rowsum(W ⊙ dW)), \
                        with one sum per row broadcast back over the row",
                result: weights * d_weights,
            },
        ]
    }

    /// What `Linear::forward(x)` returns without the bias, with it on one row only, or
    /// (for a square weight) with x W instead of x Wᵀ.
    pub fn linear_mistakes(
        x: &Matrix,
        weight: &Matrix,
        bias: &Vector,
    ) -> Vec<Misconception<'static>> {
        let mut mistakes = vec![
            Misconception {
                cause: "the bias was not added",
                result: x.dot(&weight.t()),
            },
            Misconception {
                cause: "the bias was added to one row only; it belongs to every row",
                result: {
                    let mut y = x.dot(&weight.t());
                    y.row_mut(0).scaled_add(1.0, bias);
                    y
                },
            },
        ];
        if weight.is_square() {
            mistakes.push(Misconception {
                cause: "the output is x W + b, which reads the weight as (d_in, d_out); it is \
                        (d_out, d_in), one row per output feature as in PyTorch, so \
                        y = x Wᵀ + b (with a non-square weight, x W is a shape error)",
                result: x.dot(weight) + bias,
            });
        }
        mistakes
    }
}
