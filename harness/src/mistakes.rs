//! The wrong answers that common mistakes produce, so that a failing check can name the
//! mistake instead of printing numbers only.
//!
//! A lesson's visible tests and its graded suite use the same builders: whichever a
//! learner runs, the same mistake gets the same name. Each builder computes, from a test's
//! inputs, what the code returns when it makes that mistake (see
//! [`Misconception`]); a cause that several checks name is a
//! constant. There is one module per lesson, [`rnn`] (01), [`attention`] (02),
//! [`multi_head_attention`] (03), [`positional_encoding`] (04), [`encoder_layer`] (05)
//! and [`full_model`] (06).
//!
//! The harness depends on no lesson: a builder takes a layer's parameters as borrowed
//! matrices (a small struct of its own where there are several) and computes what it
//! needs of an earlier lesson (softmax, attention, `Linear`, LayerNorm) with the few lines
//! of its own helpers. A builder leaves out the mistakes that give the right answer for
//! the test's inputs, so that they never name a result that is merely imprecise.

use crate::Misconception;
use course_common::Matrix;

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
pub mod attention {
    use crate::Misconception;
    use course_common::ndarray::{Array2, Axis};
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

/// Lesson 01: the Elman RNN's step, forward pass, context vector and backpropagation
/// through time.
///
/// The builders take the cell's parameters as a [`Cell`](rnn::Cell) of borrowed matrices
/// (the harness knows no lesson's types) and compute the step themselves:
/// `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`, every weight `(d_out, d_in)`.
pub mod rnn {
    use super::differing;
    use crate::Misconception;
    use course_common::ndarray::{Axis, s};
    use course_common::{Float, Matrix, Vector};

    /// `h W_hh` instead of `h W_hhᵀ`: named by every check of the step.
    pub const W_HH_NOT_TRANSPOSED: &str = "W_hh was used as it is (h W_hh) instead of \
        transposed (h W_hhᵀ). The course stores every weight as (d_out, d_in), one row per \
        hidden unit, like PyTorch's nn.RNN; a square W_hh runs either way, so nothing else \
        warns you";

    /// Only the last state's upstream gradient used: named for every gradient of BPTT.
    pub const LAST_UPSTREAM_ONLY: &str = "only the last state's upstream gradient was used; \
        every state has its own row of d_states (a loss can read any of them), and the \
        gradient reaching state t is d_states[t] plus what step t + 1 sends back";

    /// Each state's upstream gradient replaced the carried one: named for every gradient
    /// of BPTT.
    pub const CARRY_DROPPED: &str = "each state's d_states row replaced the gradient \
        flowing back from later steps; add it instead: the gradient reaching state t is \
        d_states[t] plus what step t + 1 sends back";

    /// A step handed its own output as its previous state: named by BPTT's dW_hh checks.
    pub const OWN_OUTPUT_AS_PREVIOUS: &str = "step t was handed its own output states[t] as \
        its previous state, so dW_hh = dzᵀ h used the wrong h: the previous state of step t \
        is h0 at t = 0 and states[t − 1] after it";

    /// A cell's parameters: `W_xh` `(d_hidden, d_in)`, `W_hh` `(d_hidden, d_hidden)`, `b`.
    #[derive(Clone, Copy)]
    pub struct Cell<'a> {
        /// `W_xh`, `(d_hidden, d_in)`.
        pub w_xh: &'a Matrix,
        /// `W_hh`, `(d_hidden, d_hidden)`.
        pub w_hh: &'a Matrix,
        /// `b`, `(d_hidden,)`.
        pub b: &'a Vector,
    }

    impl Cell<'_> {
        /// The pre-activation `z = x W_xhᵀ + h W_hhᵀ + b`, `(n, d_hidden)`.
        pub fn pre_activation(&self, x: &Matrix, h: &Matrix) -> Matrix {
            x.dot(&self.w_xh.t()) + h.dot(&self.w_hh.t()) + self.b
        }

        /// One step, `tanh(z)`.
        pub fn step(&self, x: &Matrix, h: &Matrix) -> Matrix {
            self.pre_activation(x, h).mapv(Float::tanh)
        }
    }

    /// What `step(x, h)` returns with W_hh untransposed, without the bias, without the
    /// tanh, or without the previous state.
    pub fn step_mistakes(
        cell: &Cell,
        x: &Matrix,
        h: &Matrix,
    ) -> Vec<Misconception<'static>> {
        let z = cell.pre_activation(x, h);
        vec![
            Misconception {
                cause: W_HH_NOT_TRANSPOSED,
                result: (x.dot(&cell.w_xh.t()) + h.dot(cell.w_hh) + cell.b)
                    .mapv(Float::tanh),
            },
            Misconception {
                cause: "the bias was not added",
                result: (&z - cell.b).mapv(Float::tanh),
            },
            Misconception {
                cause: "the tanh was not applied: that is the pre-activation z, and the \
                        state is tanh(z)",
                result: z,
            },
            Misconception {
                cause: "the previous state h was left out; each step mixes the new token \
                        with the state it carries",
                result: (x.dot(&cell.w_xh.t()) + cell.b).mapv(Float::tanh),
            },
        ]
    }

    /// The wrong gradients of `step_backward`, one list per gradient (`d_b` as a
    /// `(1, d_hidden)` row).
    pub struct StepBackwardMistakes {
        /// For `d_x`: the four slips of tanh'.
        pub d_x: Vec<Misconception<'static>>,
        /// For `d_h`: the slips of tanh', and dz W_hhᵀ.
        pub d_h: Vec<Misconception<'static>>,
        /// For `d_w_xh`: the slips of tanh'.
        pub d_w_xh: Vec<Misconception<'static>>,
        /// For `d_w_hh`: the slips of tanh', hᵀ dz, and the new state in place of h.
        pub d_w_hh: Vec<Misconception<'static>>,
        /// For `d_b`: the slips of tanh'.
        pub d_b: Vec<Misconception<'static>>,
    }

    /// What `step_backward(x, h, h_next, d_h_next)` returns with tanh' taken from the
    /// wrong place (z, h, nowhere, 1 − h' unsquared) or a gradient transposed.
    pub fn step_backward_mistakes(
        cell: &Cell,
        x: &Matrix,
        h: &Matrix,
        h_next: &Matrix,
        d_h_next: &Matrix,
    ) -> StepBackwardMistakes {
        let z = cell.pre_activation(x, h);
        let d_z = d_h_next * &h_next.mapv(|v| 1.0 - v * v);
        let slips = [
            (
                "tanh' was evaluated at the pre-activation z (1 − z²); it is \
                 1 − tanh(z)² = 1 − h'², from the step's output h_next",
                d_h_next * &z.mapv(|v| 1.0 - v * v),
            ),
            (
                "tanh' was taken from the previous state (1 − h²); it is 1 − h'², from the \
                 step's output h_next",
                d_h_next * &h.mapv(|v| 1.0 - v * v),
            ),
            (
                "the tanh was skipped in the backward pass: multiply the upstream gradient \
                 by tanh' = 1 − h'² first",
                d_h_next.clone(),
            ),
            (
                "tanh' was computed as 1 − h' instead of 1 − h'² (squared): tanh'(z) = \
                 1 − tanh(z)², and tanh(z) is the step's output h'",
                d_h_next * &h_next.mapv(|v| 1.0 - v),
            ),
        ];
        let tanh_mistakes =
            |grad: &dyn Fn(&Matrix) -> Matrix| -> Vec<Misconception<'static>> {
                slips
                    .iter()
                    .map(|(cause, d_z)| Misconception {
                        cause,
                        result: grad(d_z),
                    })
                    .collect()
            };
        let mut d_h = tanh_mistakes(&|dz| dz.dot(cell.w_hh));
        d_h.push(Misconception {
            cause: "dh = dz W_hhᵀ: the forward multiplies h by W_hhᵀ, so the backward \
                    multiplies dz by W_hh (as Linear's dx = dY W)",
            result: d_z.dot(&cell.w_hh.t()),
        });
        let mut d_w_hh = tanh_mistakes(&|dz| dz.t().dot(h));
        d_w_hh.extend([
            Misconception {
                cause: "dW_hh = hᵀ dz is the transpose of the gradient: W_hh is \
                        (d_out, d_in), so dW_hh = dzᵀ h",
                result: h.t().dot(&d_z),
            },
            Misconception {
                cause: "dW_hh was built from the new state h' instead of the previous \
                        state h, which is what W_hh multiplies",
                result: d_z.t().dot(h_next),
            },
        ]);
        StepBackwardMistakes {
            d_x: tanh_mistakes(&|dz| dz.dot(cell.w_xh)),
            d_h,
            d_w_xh: tanh_mistakes(&|dz| dz.t().dot(x)),
            d_w_hh,
            d_b: tanh_mistakes(&|dz| dz.sum_axis(Axis(0)).insert_axis(Axis(0))),
        }
    }

    /// The states of `forward(xs, h0)`, `(T, d_hidden)`, row `t` after reading token `t`.
    pub fn states(cell: &Cell, xs: &Matrix, h0: &Vector) -> Matrix {
        let mut states = Matrix::zeros((xs.nrows(), cell.b.len()));
        let mut h = h0.clone().insert_axis(Axis(0));
        for t in 0..xs.nrows() {
            h = cell.step(&xs.slice(s![t..t + 1, ..]).to_owned(), &h);
            states.slice_mut(s![t, ..]).assign(&h.slice(s![0, ..]));
        }
        states
    }

    /// What `forward(xs, h0)` returns when every step starts from h0, or with the states
    /// shifted by one (h0 as row 0).
    pub fn forward_mistakes(
        cell: &Cell,
        xs: &Matrix,
        h0: &Vector,
    ) -> Vec<Misconception<'static>> {
        let h0_everywhere = Matrix::from_shape_fn((xs.nrows(), h0.len()), |(_, j)| h0[j]);
        let mut shifted = states(cell, xs, h0);
        if xs.nrows() > 0 {
            let earlier = shifted.slice(s![..-1, ..]).to_owned();
            shifted.slice_mut(s![1.., ..]).assign(&earlier);
            shifted.row_mut(0).assign(h0);
        }
        vec![
            Misconception {
                cause: "every step started from h0: the state must be carried, each step \
                        starts from the state the previous step returned",
                result: cell.step(xs, &h0_everywhere),
            },
            Misconception {
                cause: "the states are shifted by one: row t is the state after reading \
                        token t, and h0 is not one of the rows",
                result: shifted,
            },
        ]
    }

    /// What `encode` returns (as a `(1, d_hidden)` row) when the context is the first state
    /// or the mean of the `states`; none for a single state, where both are right.
    pub fn context_mistakes(states: &Matrix) -> Vec<Misconception<'static>> {
        if states.nrows() < 2 {
            return Vec::new();
        }
        vec![
            Misconception {
                cause: "the context is the first state; it is the last one, after the whole \
                        sentence was read",
                result: states.slice(s![..1, ..]).to_owned(),
            },
            Misconception {
                cause: "the context is the mean of the states; a seq2seq encoder hands over \
                        its last state only",
                result: states
                    .mean_axis(Axis(0))
                    .expect("two states or more")
                    .insert_axis(Axis(0)),
            },
        ]
    }

    /// What the Jacobian ∂h_T/∂h_0 at the origin (where it is W_hh^T, the T-th power)
    /// comes out as with W_hh transposed in the backward or the forward pass.
    pub fn origin_jacobian_mistakes(
        w_hh: &Matrix,
        steps: usize,
    ) -> Vec<Misconception<'static>> {
        let mut power = Matrix::eye(w_hh.nrows());
        for _ in 0..steps {
            power = power.dot(w_hh);
        }
        vec![Misconception {
            cause: "the gradient went back through W_hhᵀ instead of W_hh (dh = dz W_hh), or \
                    the forward used h W_hh instead of h W_hhᵀ",
            result: power.t().to_owned(),
        }]
    }

    /// The wrong gradients of `backward`, one list per gradient (`d_h0` and `d_b` as
    /// `(1, d_hidden)` rows); each list leaves out the slips that give the right answer
    /// for these inputs, so that they never name a correct result.
    pub struct BpttMistakes {
        /// For `d_xs`.
        pub d_xs: Vec<Misconception<'static>>,
        /// For `d_h0`.
        pub d_h0: Vec<Misconception<'static>>,
        /// For `d_w_xh`.
        pub d_w_xh: Vec<Misconception<'static>>,
        /// For `d_w_hh`.
        pub d_w_hh: Vec<Misconception<'static>>,
        /// For `d_b`.
        pub d_b: Vec<Misconception<'static>>,
    }

    /// A slip in backpropagation through time.
    #[derive(Clone, Copy, PartialEq)]
    enum Slip {
        None,
        LastUpstreamOnly,
        CarryDropped,
        Overwritten,
        LastStepOnly,
        OwnOutputAsPrevious,
    }

    /// What `backward(xs, h0, states, d_states)` returns when it uses only the last
    /// upstream gradient, replaces the carried gradient, overwrites or keeps only the
    /// last step's weight gradients, or hands a step its own output as previous state.
    pub fn bptt_mistakes(
        cell: &Cell,
        xs: &Matrix,
        h0: &Vector,
        d_states: &Matrix,
    ) -> BpttMistakes {
        let right = bptt_with(cell, xs, h0, d_states, Slip::None);
        let slips = [
            (
                Slip::Overwritten,
                "the gradient was overwritten at every step, so only step 0's share is \
                 left; the same weights are used by every step, so add (+=) each step's \
                 share",
            ),
            (
                Slip::LastStepOnly,
                "only the last step's share is there; the same weights are used by every \
                 step, so add (+=) the share of every step",
            ),
            (Slip::LastUpstreamOnly, LAST_UPSTREAM_ONLY),
            (Slip::CarryDropped, CARRY_DROPPED),
            (Slip::OwnOutputAsPrevious, OWN_OUTPUT_AS_PREVIOUS),
        ];
        let wrong: Vec<_> = slips
            .iter()
            .map(|&(slip, cause)| (cause, bptt_with(cell, xs, h0, d_states, slip)))
            .collect();
        let mistakes = |index: usize| {
            let all = wrong
                .iter()
                .map(|(cause, grads)| Misconception {
                    cause,
                    result: grads[index].clone(),
                })
                .collect();
            differing(&right[index], all)
        };
        BpttMistakes {
            d_xs: mistakes(0),
            d_h0: mistakes(1),
            d_w_xh: mistakes(2),
            d_w_hh: mistakes(3),
            d_b: mistakes(4),
        }
    }

    /// Backpropagation through time written out, with one slip: `[d_xs, d_h0, d_w_xh,
    /// d_w_hh, d_b]`.
    fn bptt_with(
        cell: &Cell,
        xs: &Matrix,
        h0: &Vector,
        d_states: &Matrix,
        slip: Slip,
    ) -> Vec<Matrix> {
        let len = xs.nrows();
        let row = |m: &Matrix, t: usize| m.slice(s![t..t + 1, ..]).to_owned();
        let states = states(cell, xs, h0);
        let (mut d_xs, mut d_w_xh, mut d_w_hh) = (
            Matrix::zeros(xs.dim()),
            Matrix::zeros(cell.w_xh.dim()),
            Matrix::zeros(cell.w_hh.dim()),
        );
        let mut d_b = Matrix::zeros((1, cell.b.len()));
        let mut d_h = Matrix::zeros((1, cell.b.len()));
        let backwards = (0..len).rev();
        for t in backwards {
            let own = row(d_states, t);
            match slip {
                Slip::LastUpstreamOnly if t + 1 < len => {}
                Slip::CarryDropped => d_h = own,
                _ => d_h += &own,
            }
            let h_prev = if slip == Slip::OwnOutputAsPrevious {
                row(&states, t)
            } else if t == 0 {
                h0.clone().insert_axis(Axis(0))
            } else {
                row(&states, t - 1)
            };
            let d_z = &d_h * &row(&states, t).mapv(|v| 1.0 - v * v);
            d_xs.row_mut(t).assign(&d_z.dot(cell.w_xh).row(0));
            let keep = match slip {
                Slip::Overwritten => t == 0,
                Slip::LastStepOnly => t + 1 == len,
                _ => true,
            };
            if keep {
                d_w_xh += &d_z.t().dot(&row(xs, t));
                d_w_hh += &d_z.t().dot(&h_prev);
                d_b += &d_z;
            }
            d_h = d_z.dot(cell.w_hh);
        }
        vec![d_xs, d_h, d_w_xh, d_w_hh, d_b]
    }
}

/// Lesson 03: split and merge heads, multi-head attention's forward and backward passes,
/// its parameter count.
///
/// The builders take the layer as a [`Layer`](multi_head_attention::Layer) of borrowed
/// weights and compute attention themselves (with lesson 02's formulas, in
/// [`attention`]).
pub mod multi_head_attention {
    use super::attention::{attend, attend_backward, linear};
    use super::differing;
    use crate::Misconception;
    use course_common::ndarray::{Array2, Axis, concatenate, s};
    use course_common::{Float, Matrix, Vector};

    /// Heads cut from interleaved columns: named by split, merge, weights and outputs.
    pub const INTERLEAVED: &str = "the heads took interleaved columns (head i got columns \
        i, i + n_heads, i + 2·n_heads, ...), as a reshape to (n, d_k, n_heads) gives; head i \
        owns the contiguous block of columns i·d_k .. (i+1)·d_k, as a reshape to \
        (n, n_heads, d_k) gives, in the paper and in PyTorch";

    /// Heads cut from the row-major numbers, mixing tokens.
    pub const PLAIN_RESHAPE: &str = "the heads were cut by a plain reshape of the row-major \
        numbers (the (n, d_model) matrix read as (n_heads, n, d_k)), which puts several \
        tokens' features in one row of a head; head i is columns i·d_k .. (i+1)·d_k of every \
        row, a slice of the columns, and the rows (the tokens) stay as they are";

    /// The mask left out of the heads' attention: named by weights and outputs.
    pub const MASK_NOT_PASSED: &str = "the mask was not passed to the heads' attention: each \
        head's scaled_dot_product_attention must get the mask, so that the masked keys get \
        weight 0 in every head";

    /// Keys and values projected from the query input: named by outputs and shapes.
    pub const KV_FROM_QUERY: &str = "the keys and values were projected from the query \
        input: K and V come from key_value_input (the encoder's output, in \
        cross-attention), Q from query_input";

    /// What to do when the number of weight matrices is not the number of heads.
    pub const ONE_PER_HEAD: &str = "split Q, K and V into n_heads heads of d_k columns and \
        run lesson 02's attention once per head; forward returns one weight matrix per head";

    /// The heads handed `d_output` instead of `d_output W_o`: named by both input gradients.
    pub const NOT_THROUGH_W_O: &str = "the heads' upstream gradient was not sent back \
        through W_o: head i's d_output is its slice of dConcat = d_output W_o (W_o's backward \
        d_x), not a slice of d_output itself";

    const SCALED_BY_D_MODEL: &str = "the scores were divided by √d_model instead of √d_k: \
        each head's queries and keys are d_k = d_model / n_heads wide, and lesson 02's \
        attention already divides by the square root of their width";

    /// One projection: weight `(d_out, d_in)` and bias, as lesson 02's `Linear`.
    #[derive(Clone, Copy)]
    pub struct LinearWeights<'a> {
        /// The weight, `(d_out, d_in)`.
        pub weight: &'a Matrix,
        /// The bias, `(d_out,)`.
        pub bias: &'a Vector,
    }

    /// A multi-head attention layer's number of heads and four projections.
    #[derive(Clone, Copy)]
    pub struct Layer<'a> {
        /// The number of heads.
        pub n_heads: usize,
        /// The query projection.
        pub w_q: LinearWeights<'a>,
        /// The key projection.
        pub w_k: LinearWeights<'a>,
        /// The value projection.
        pub w_v: LinearWeights<'a>,
        /// The output projection.
        pub w_o: LinearWeights<'a>,
    }

    /// Which columns of Q, K and V head `head` owns, given `d_k` and `n_heads`.
    type HeadColumns = fn(usize, usize, usize) -> Vec<usize>;

    fn contiguous(head: usize, d_k: usize, _n_heads: usize) -> Vec<usize> {
        (head * d_k..(head + 1) * d_k).collect()
    }

    fn interleaved(head: usize, d_k: usize, n_heads: usize) -> Vec<usize> {
        (0..d_k).map(|m| m * n_heads + head).collect()
    }

    /// Multi-head attention written out head by head, the heads owning `head_columns`,
    /// the queries multiplied by `score_scale`: `(output, concat, weights)`.
    fn by_definition(
        layer: &Layer,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Array2<bool>>,
        head_columns: HeadColumns,
        score_scale: Float,
    ) -> (Matrix, Matrix, Vec<Matrix>) {
        let project = |p: &LinearWeights, x: &Matrix, rows: &[usize]| {
            linear(
                x,
                &p.weight.select(Axis(0), rows),
                &p.bias.select(Axis(0), rows),
            )
        };
        let d_k = layer.w_q.weight.ncols() / layer.n_heads;
        let mut concat = Matrix::zeros((query_input.nrows(), layer.w_v.weight.nrows()));
        let mut weights = Vec::new();
        for head in 0..layer.n_heads {
            let columns = head_columns(head, d_k, layer.n_heads);
            let q = project(&layer.w_q, query_input, &columns) * score_scale;
            let k = project(&layer.w_k, key_value_input, &columns);
            let v = project(&layer.w_v, key_value_input, &columns);
            let (output, head_weights) = attend(&q, &k, &v, mask);
            for (position, &column) in columns.iter().enumerate() {
                concat.column_mut(column).assign(&output.column(position));
            }
            weights.push(head_weights);
        }
        let output = linear(&concat, layer.w_o.weight, layer.w_o.bias);
        (output, concat, weights)
    }

    /// Multi-head attention's output, written out head by head: each head's own rows of
    /// W_q, W_k, W_v, lesson 02's attention, the heads side by side, then W_o.
    pub fn forward(
        layer: &Layer,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Array2<bool>>,
    ) -> Matrix {
        by_definition(layer, query_input, key_value_input, mask, contiguous, 1.0).0
    }

    /// The gradients of [`forward`] for its two inputs, `(d_query_input,
    /// d_key_value_input)`, given the upstream gradient `d_output`.
    pub fn input_gradients(
        layer: &Layer,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Array2<bool>>,
        d_output: &Matrix,
    ) -> (Matrix, Matrix) {
        let (d_q, key_path, value_path) =
            input_paths(layer, query_input, key_value_input, mask, d_output, true);
        (d_q.dot(layer.w_q.weight), key_path + value_path)
    }

    /// What `split_heads(x, n_heads)` returns with interleaved columns or a plain reshape,
    /// one list per head.
    pub fn split_mistakes(
        x: &Matrix,
        n_heads: usize,
    ) -> Vec<Vec<Misconception<'static>>> {
        let (n, d_k) = (x.nrows(), x.ncols() / n_heads);
        let flat: Vec<Float> = x.iter().copied().collect();
        (0..n_heads)
            .map(|head| {
                let right = x.slice(s![.., head * d_k..(head + 1) * d_k]).to_owned();
                let reshaped = Matrix::from_shape_vec(
                    (n, d_k),
                    flat[head * n * d_k..(head + 1) * n * d_k].to_vec(),
                )
                .expect("n · d_k numbers");
                let mistakes = vec![
                    Misconception {
                        cause: INTERLEAVED,
                        result: x.select(Axis(1), &interleaved(head, d_k, n_heads)),
                    },
                    Misconception {
                        cause: PLAIN_RESHAPE,
                        result: reshaped,
                    },
                ];
                differing(&right, mistakes)
            })
            .collect()
    }

    /// What `merge_heads(heads)` returns with the heads' columns interleaved or the heads
    /// in reverse order.
    pub fn merge_mistakes(heads: &[Matrix]) -> Vec<Misconception<'static>> {
        let Some(first) = heads.first() else {
            return Vec::new();
        };
        let (n_heads, d_k) = (heads.len(), first.ncols());
        let side_by_side = |heads: Vec<&Matrix>| {
            let views: Vec<_> = heads.iter().map(|h| h.view()).collect();
            concatenate(Axis(1), &views).expect("heads of the same shape")
        };
        let right = side_by_side(heads.iter().collect());
        let mut interleaved = Matrix::zeros(right.dim());
        for (head, values) in heads.iter().enumerate() {
            for m in 0..d_k {
                interleaved
                    .column_mut(m * n_heads + head)
                    .assign(&values.column(m));
            }
        }
        let mistakes = vec![
            Misconception {
                cause: INTERLEAVED,
                result: interleaved,
            },
            Misconception {
                cause: "the heads were merged in reverse order (the last head first): head \
                        i goes back to columns i·d_k .. (i+1)·d_k, head 0 on the left, \
                        where split_heads took it from",
                result: side_by_side(heads.iter().rev().collect()),
            },
        ];
        differing(&right, mistakes)
    }

    /// What `forward(query_input, key_value_input, mask).output` is with interleaved heads,
    /// scores scaled by √d_model, no W_o or W_o untransposed, one wide head, keys and
    /// values from the query input (no mask, two inputs), or the mask not passed or
    /// inverted.
    pub fn output_mistakes(
        layer: &Layer,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Array2<bool>>,
    ) -> Vec<Misconception<'static>> {
        let written_out = |layer: &Layer, kv: &Matrix, mask, columns, scale| {
            by_definition(layer, query_input, kv, mask, columns, scale)
        };
        let d_model = layer.w_q.weight.ncols() as Float;
        let d_k = d_model / layer.n_heads as Float;
        let (right, concat, _) =
            written_out(layer, key_value_input, mask, contiguous, 1.0);
        let one_head = Layer {
            n_heads: 1,
            ..*layer
        };
        let mut mistakes = vec![
            Misconception {
                cause: INTERLEAVED,
                result: written_out(layer, key_value_input, mask, interleaved, 1.0).0,
            },
            Misconception {
                cause: SCALED_BY_D_MODEL,
                result: written_out(
                    layer,
                    key_value_input,
                    mask,
                    contiguous,
                    (d_k / d_model).sqrt(),
                )
                .0,
            },
            Misconception {
                cause: "the output projection W_o was not applied: the output is the heads' \
                        outputs side by side, then W_o (concat W_oᵀ + b_o)",
                result: concat.clone(),
            },
            Misconception {
                cause: "the output projection's weight was not transposed (concat W_o + \
                        b_o); a Linear layer computes x Wᵀ + b",
                result: concat.dot(layer.w_o.weight) + layer.w_o.bias,
            },
            Misconception {
                cause: "the attention ran once over the full d_model-wide Q, K and V (one \
                        head) instead of once per head on d_k-wide slices",
                result: written_out(&one_head, key_value_input, mask, contiguous, 1.0).0,
            },
        ];
        if mask.is_none() && query_input != key_value_input {
            mistakes.push(Misconception {
                cause: KV_FROM_QUERY,
                result: written_out(layer, query_input, None, contiguous, 1.0).0,
            });
        }
        if let Some(mask) = mask {
            mistakes.push(Misconception {
                cause: MASK_NOT_PASSED,
                result: written_out(layer, key_value_input, None, contiguous, 1.0).0,
            });
            mistakes.push(Misconception {
                cause: "the mask was inverted: in the course `true` means \"may attend\" \
                        (PyTorch's key_padding_mask uses the opposite, True = ignore)",
                result: written_out(
                    layer,
                    key_value_input,
                    Some(&mask.mapv(|allowed| !allowed)),
                    contiguous,
                    1.0,
                )
                .0,
            });
        }
        differing(&right, mistakes)
    }

    /// What each head's weights of `forward(query_input, key_value_input, mask)` are with
    /// interleaved heads, scores scaled by √d_model, or the mask not passed; one list per
    /// head.
    pub fn weights_mistakes(
        layer: &Layer,
        query_input: &Matrix,
        key_value_input: &Matrix,
        mask: Option<&Array2<bool>>,
    ) -> Vec<Vec<Misconception<'static>>> {
        let d_model = layer.w_q.weight.ncols() as Float;
        let d_k = d_model / layer.n_heads as Float;
        let weights = |mask, columns, scale| {
            by_definition(layer, query_input, key_value_input, mask, columns, scale).2
        };
        let right = weights(mask, contiguous, 1.0);
        let mut wrong = vec![
            (INTERLEAVED, weights(mask, interleaved, 1.0)),
            (
                SCALED_BY_D_MODEL,
                weights(mask, contiguous, (d_k / d_model).sqrt()),
            ),
        ];
        if mask.is_some() {
            wrong.push((MASK_NOT_PASSED, weights(None, contiguous, 1.0)));
        }
        right
            .iter()
            .enumerate()
            .map(|(head, right)| {
                let mistakes = wrong
                    .iter()
                    .map(|(cause, weights)| Misconception {
                        cause,
                        result: weights[head].clone(),
                    })
                    .collect();
                differing(right, mistakes)
            })
            .collect()
    }

    /// The wrong gradients of `backward` for its two inputs.
    pub struct InputGradientMistakes {
        /// For `d_query_input`: not through W_o, or dQ not through W_q.
        pub d_query_input: Vec<Misconception<'static>>,
        /// For `d_key_value_input`: the value path or the key path alone, or not through
        /// W_o.
        pub d_key_value_input: Vec<Misconception<'static>>,
    }

    /// `(dQ, the key path dK W_k, the value path dV W_v)`, with the heads' upstream
    /// gradient sent back through W_o or not.
    fn input_paths(
        layer: &Layer,
        x_q: &Matrix,
        x_kv: &Matrix,
        mask: Option<&Array2<bool>>,
        d_output: &Matrix,
        through_w_o: bool,
    ) -> (Matrix, Matrix, Matrix) {
        let d_k = layer.w_q.weight.ncols() / layer.n_heads;
        let q = linear(x_q, layer.w_q.weight, layer.w_q.bias);
        let k = linear(x_kv, layer.w_k.weight, layer.w_k.bias);
        let v = linear(x_kv, layer.w_v.weight, layer.w_v.bias);
        let d_concat = if through_w_o {
            d_output.dot(layer.w_o.weight)
        } else {
            d_output.clone()
        };
        let (mut d_q, mut d_keys, mut d_values) = (
            Matrix::zeros(q.dim()),
            Matrix::zeros(k.dim()),
            Matrix::zeros(v.dim()),
        );
        for head in 0..layer.n_heads {
            let columns = s![.., head * d_k..(head + 1) * d_k];
            let (q_h, k_h, v_h) = (
                q.slice(columns).to_owned(),
                k.slice(columns).to_owned(),
                v.slice(columns).to_owned(),
            );
            let weights = attend(&q_h, &k_h, &v_h, mask).1;
            let d_out = d_concat.slice(columns).to_owned();
            let (dq, dk, dv) = attend_backward(&q_h, &k_h, &v_h, &weights, &d_out);
            d_q.slice_mut(columns).assign(&dq);
            d_keys.slice_mut(columns).assign(&dk);
            d_values.slice_mut(columns).assign(&dv);
        }
        (
            d_q,
            d_keys.dot(layer.w_k.weight),
            d_values.dot(layer.w_v.weight),
        )
    }

    /// What `backward` returns for `d_query_input` and `d_key_value_input` when the heads'
    /// upstream gradient skips W_o, d_query_input is dQ itself, or d_key_value_input is
    /// one path alone.
    pub fn input_gradient_mistakes(
        layer: &Layer,
        x_q: &Matrix,
        x_kv: &Matrix,
        mask: Option<&Array2<bool>>,
        d_output: &Matrix,
    ) -> InputGradientMistakes {
        let (d_q, key_path, value_path) =
            input_paths(layer, x_q, x_kv, mask, d_output, true);
        let (skipped_d_q, skipped_key, skipped_value) =
            input_paths(layer, x_q, x_kv, mask, d_output, false);
        let right_q = d_q.dot(layer.w_q.weight);
        let right_kv = &key_path + &value_path;
        InputGradientMistakes {
            d_query_input: differing(
                &right_q,
                vec![
                    Misconception {
                        cause: NOT_THROUGH_W_O,
                        result: skipped_d_q.dot(layer.w_q.weight),
                    },
                    Misconception {
                        cause: "d_query_input is dQ itself, not sent back through W_q: the \
                                forward computed Q = query_input W_qᵀ + b_q, so the backward \
                                gives d_query_input = dQ W_q (W_q's backward d_x)",
                        result: d_q,
                    },
                ],
            ),
            d_key_value_input: differing(
                &right_kv,
                vec![
                    Misconception {
                        cause: "your d_key_value_input is the value path alone (dV W_v): \
                                the key/value input also feeds W_k, so add dK W_k",
                        result: value_path,
                    },
                    Misconception {
                        cause: "your d_key_value_input is the key path alone (dK W_k): the \
                                key/value input also feeds W_v, so add dV W_v",
                        result: key_path,
                    },
                    Misconception {
                        cause: NOT_THROUGH_W_O,
                        result: skipped_key + skipped_value,
                    },
                ],
            ),
        }
    }

    /// The likely cause of a wrong `parameter_count` of a layer of `n_heads` heads on
    /// `d_model` features that returned `got` (the general rule when no known mistake
    /// gives `got`).
    pub fn parameter_count_cause(
        got: usize,
        d_model: usize,
        n_heads: usize,
    ) -> &'static str {
        let d = d_model;
        if got == 4 * d * d {
            "the biases were not counted (4 of d_model each)"
        } else if got == 3 * d * d + 3 * d {
            "the output projection W_o was not counted"
        } else if got == 4 * d * d / n_heads + 4 * d {
            "the weights were counted for one head only; W_q, W_k, W_v and W_o are \
             d_model × d_model whatever the number of heads"
        } else {
            "count every weight and bias of the four projections (weight.len() + \
             bias.len() for each)"
        }
    }
}

/// Lesson 04: the frequencies, the sinusoidal table, the embedding and its backward pass,
/// adding the encoding, the embedding-to-encoding ratio.
pub mod positional_encoding {
    use super::differing;
    use crate::Misconception;
    use course_common::ndarray::{Axis, s};
    use course_common::{Float, Matrix};

    /// Cosine at the even columns: named by the table's checks.
    pub const SWAPPED: &str = "sine and cosine are swapped: column 2i must hold \
        sin(pos·ω_i) and column 2i + 1 cos(pos·ω_i) (your table has the cosine at the even \
        columns)";

    /// The tensor2tensor layout: named by the table's checks.
    pub const CONCATENATED: &str = "the table is concatenated, [sin(pos·ω_0), …, \
        sin(pos·ω_{d/2−1}), cos(pos·ω_0), …] (the tensor2tensor layout), not interleaved as \
        in the paper: column 2i is a sine and column 2i + 1 the cosine of the same frequency";

    /// Every frequency 1: named by the frequencies' and the table's checks.
    pub const INTEGER_DIVISION: &str = "the exponent 2i/d_model was computed in integer \
        arithmetic (2 * i / d_model is 0 for every i < d_model/2, so every frequency is 1): \
        convert to Float before dividing";

    /// Frequencies that fall too slowly: named by the frequencies' and the table's checks.
    pub const EXPONENT_I: &str = "the exponent is i/d_model instead of 2i/d_model: the \
        frequencies fall too slowly";

    /// A frequency per column instead of per pair.
    pub const EXPONENT_COLUMN: &str = "the exponent uses the column index j (j/d_model) for \
        both columns of a pair; the cosine at column 2i + 1 must use the same frequency as \
        the sine at column 2i, exponent 2i/d_model";

    /// Twice the column index in the exponent.
    pub const EXPONENT_TWO_COLUMNS: &str = "the exponent is 2j/d_model with the column \
        index j; the paper's i is the pair index (j / 2 rounded down), so the exponent is \
        2·(j/2)/d_model";

    /// Frequencies above 1: named by the frequencies' and the table's checks.
    pub const POSITIVE_EXPONENT: &str = "the position was multiplied by 10000^(2i/d_model) \
        instead of divided by it: ω_i = 10000^(−2i/d_model) ≤ 1";

    /// Positions from 1.
    pub const FROM_ONE: &str = "positions were counted from 1; the first row of the table \
        is position 0 (sin 0 = 0, cos 0 = 1)";

    /// ω_i = 10000^(−2i/d_model).
    pub fn omega(i: usize, d_model: usize) -> Float {
        (10_000.0 as Float).powf(-((2 * i) as Float) / d_model as Float)
    }

    /// A `(max_len, d_model)` table whose entry (pos, col) is `entry(pos, col)`.
    fn table_with(
        max_len: usize,
        d_model: usize,
        entry: impl Fn(Float, usize) -> Float,
    ) -> Matrix {
        Matrix::from_shape_fn((max_len, d_model), |(pos, col)| entry(pos as Float, col))
    }

    fn sin_or_cos(col: usize, angle: Float) -> Float {
        if col.is_multiple_of(2) {
            angle.sin()
        } else {
            angle.cos()
        }
    }

    /// The sinusoidal table, written out: column 2i is sin(pos·ω_i), column 2i + 1
    /// cos(pos·ω_i).
    pub fn reference_table(max_len: usize, d_model: usize) -> Matrix {
        table_with(max_len, d_model, |pos, col| {
            sin_or_cos(col, pos * omega(col / 2, d_model))
        })
    }

    /// What `frequencies(d_model)` returns (as a `(1, d_model/2)` row) with the exponent
    /// in integer arithmetic, i/d_model, or positive.
    pub fn frequency_mistakes(d_model: usize) -> Vec<Misconception<'static>> {
        let d: Float = d_model as Float;
        let row = |f: &dyn Fn(usize) -> Float| {
            Matrix::from_shape_fn((1, d_model / 2), |(_, i)| f(i))
        };
        let right = row(&|i| omega(i, d_model));
        let mistakes = vec![
            Misconception {
                cause: INTEGER_DIVISION,
                result: row(&|_| 1.0),
            },
            Misconception {
                cause: EXPONENT_I,
                result: row(&|i| (10_000.0 as Float).powf(-(i as Float) / d)),
            },
            Misconception {
                cause: POSITIVE_EXPONENT,
                result: row(&|i| 1.0 / omega(i, d_model)),
            },
        ];
        differing(&right, mistakes)
    }

    /// What `sinusoidal_table(max_len, d_model)` returns with sine and cosine swapped, the
    /// concatenated layout, a wrong exponent, or positions from 1.
    pub fn table_mistakes(max_len: usize, d_model: usize) -> Vec<Misconception<'static>> {
        let d: Float = d_model as Float;
        let half = d_model / 2;
        let with_frequency = |omega: &dyn Fn(usize) -> Float| {
            table_with(max_len, d_model, |pos, col| {
                sin_or_cos(col, pos * omega(col))
            })
        };
        let mistakes = vec![
            Misconception {
                cause: SWAPPED,
                result: table_with(max_len, d_model, |pos, col| {
                    sin_or_cos(col + 1, pos * omega(col / 2, d_model))
                }),
            },
            Misconception {
                cause: CONCATENATED,
                result: table_with(max_len, d_model, |pos, col| {
                    if col < half {
                        (pos * omega(col, d_model)).sin()
                    } else {
                        (pos * omega(col - half, d_model)).cos()
                    }
                }),
            },
            Misconception {
                cause: INTEGER_DIVISION,
                result: with_frequency(&|_| 1.0),
            },
            Misconception {
                cause: EXPONENT_I,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-((col / 2) as Float) / d)
                }),
            },
            Misconception {
                cause: EXPONENT_COLUMN,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-(col as Float) / d)
                }),
            },
            Misconception {
                cause: EXPONENT_TWO_COLUMNS,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-2.0 * col as Float / d)
                }),
            },
            Misconception {
                cause: POSITIVE_EXPONENT,
                result: with_frequency(&|col| 1.0 / omega(col / 2, d_model)),
            },
            Misconception {
                cause: FROM_ONE,
                result: table_with(max_len, d_model, |pos, col| {
                    sin_or_cos(col, (pos + 1.0) * omega(col / 2, d_model))
                }),
            },
        ];
        differing(&reference_table(max_len, d_model), mistakes)
    }

    /// [`table_mistakes`] restricted to the given rows, to compare with a fixture that
    /// lists only some positions.
    pub fn table_mistakes_at_rows(
        rows: &[usize],
        d_model: usize,
    ) -> Vec<Misconception<'static>> {
        let max_len = rows.iter().max().map_or(0, |&r| r + 1);
        table_mistakes(max_len, d_model)
            .into_iter()
            .map(|m| Misconception {
                cause: m.cause,
                result: m.result.select(Axis(0), rows),
            })
            .collect()
    }

    /// What `Embedding::forward(tokens)` returns for the embedding `weight` with the rows
    /// unscaled, scaled by d_model, or divided by √d_model.
    pub fn embedding_mistakes(
        weight: &Matrix,
        tokens: &[usize],
    ) -> Vec<Misconception<'static>> {
        let rows = weight.select(Axis(0), tokens);
        let d_model = weight.ncols() as Float;
        let right = &rows * d_model.sqrt();
        let mistakes = vec![
            Misconception {
                cause: "the rows were not multiplied by scale() = √d_model",
                result: rows.clone(),
            },
            Misconception {
                cause: "the rows were multiplied by d_model instead of √d_model",
                result: &rows * d_model,
            },
            Misconception {
                cause: "the rows were divided by √d_model instead of multiplied",
                result: &rows / d_model.sqrt(),
            },
        ];
        differing(&right, mistakes)
    }

    /// What `Embedding::backward(tokens, d_out)` returns for a vocabulary of `vocab` tokens
    /// when a repeated token keeps its last or its first occurrence only, or without the
    /// factor √d_model.
    pub fn embedding_backward_mistakes(
        vocab: usize,
        tokens: &[usize],
        d_out: &Matrix,
    ) -> Vec<Misconception<'static>> {
        let scale = (d_out.ncols() as Float).sqrt();
        let scatter = |keep: &dyn Fn(&mut Matrix, usize, usize)| {
            let mut d_weight = Matrix::zeros((vocab, d_out.ncols()));
            for (t, &token) in tokens.iter().enumerate() {
                keep(&mut d_weight, t, token);
            }
            d_weight
        };
        let right = scatter(&|d, t, token| {
            d.row_mut(token).scaled_add(scale, &d_out.row(t));
        });
        let mut seen = vec![false; vocab];
        let mut first_only = Matrix::zeros((vocab, d_out.ncols()));
        for (t, &token) in tokens.iter().enumerate() {
            if !std::mem::replace(&mut seen[token], true) {
                first_only.row_mut(token).assign(&(&d_out.row(t) * scale));
            }
        }
        let mistakes = vec![
            Misconception {
                cause: "a repeated token's gradient was overwritten (`=`) instead of added \
                        (`+=`): only its last occurrence counts. A token used three times \
                        collects the gradient of all three uses",
                result: scatter(&|d, t, token| {
                    d.row_mut(token).assign(&(&d_out.row(t) * scale));
                }),
            },
            Misconception {
                cause: "only the first occurrence of a repeated token was counted; every \
                        occurrence adds its row of d_out",
                result: first_only,
            },
            Misconception {
                cause: "the gradient was not multiplied by scale() = √d_model; forward \
                        multiplies every looked-up row by it, so the backward pass must too",
                result: &right / scale,
            },
        ];
        differing(&right, mistakes)
    }

    /// What `add_positional_encoding(x, table, start)` returns with the first position's
    /// encoding on every row, the positions shifted by one, or `start` ignored.
    pub fn add_mistakes(
        x: &Matrix,
        table: &Matrix,
        start: usize,
    ) -> Vec<Misconception<'static>> {
        let n = x.nrows();
        if start + n > table.nrows() {
            return Vec::new();
        }
        let rows = |from: usize| x + &table.slice(s![from..from + n, ..]);
        let mut mistakes = vec![Misconception {
            cause: "every row got the encoding of the first position; row t needs \
                    table[start + t]",
            result: x + &table.row(start),
        }];
        if start + n < table.nrows() {
            mistakes.push(Misconception {
                cause: "the positions were shifted by one (table[start + t + 1]); the first \
                        row is position start",
                result: rows(start + 1),
            });
        }
        mistakes.push(Misconception {
            cause: "`start` was ignored: row t must get table[start + t], which matters \
                    when a decoder adds one token at position start",
            result: rows(0),
        });
        differing(&rows(start), mistakes)
    }

    /// What `embed_with_positions(embedding, tokens, table)` returns for the embedding
    /// `weight` with the encoding scaled too, or the embeddings unscaled.
    pub fn embed_with_positions_mistakes(
        weight: &Matrix,
        tokens: &[usize],
        table: &Matrix,
    ) -> Vec<Misconception<'static>> {
        let scale = (weight.ncols() as Float).sqrt();
        let rows = weight.select(Axis(0), tokens);
        let pe = table.slice(s![0..tokens.len(), ..]).to_owned();
        let mistakes = vec![
            Misconception {
                cause: "the encoding was scaled too (√d_model · (E + PE)); the scale belongs \
                        to the embedding only",
                result: (&rows + &pe) * scale,
            },
            Misconception {
                cause: "the embeddings were not multiplied by √d_model",
                result: &rows + &pe,
            },
        ];
        differing(&(&rows * scale + &pe), mistakes)
    }

    /// The likely cause of a wrong `embedding_to_encoding_ratio(embedding, table)` that
    /// returned `got`, for the embedding `weight`: the rows unscaled, the mean of the row
    /// norms, or total norms; `None` if no known mistake gives `got`.
    pub fn ratio_cause(
        got: Float,
        weight: &Matrix,
        table: &Matrix,
    ) -> Option<&'static str> {
        let norms = |m: &Matrix| m.map_axis(Axis(1), |row| row.dot(&row).sqrt());
        let rms = |m: &Matrix| (norms(m).mapv(|n| n * n).mean().unwrap_or(0.0)).sqrt();
        let mean = |m: &Matrix| norms(m).mean().unwrap_or(0.0);
        let total = |m: &Matrix| m.iter().map(|v| v * v).sum::<Float>().sqrt();
        let scaled = weight * (weight.ncols() as Float).sqrt();
        let right = rms(&scaled) / rms(table);
        [
            (
                rms(weight) / rms(table),
                "the embedding rows were not multiplied by scale() = √d_model: compare the \
                 rows as the model sees them",
            ),
            (
                mean(&scaled) / mean(table),
                "the mean of the row norms was used; the ratio uses the root mean square of \
                 the row norms, sqrt(mean ‖row‖²)",
            ),
            (
                total(&scaled) / total(table),
                "the total (Frobenius) norms were compared without dividing by the number of \
                 rows; when the vocabulary and the table differ in size, compare the average \
                 row",
            ),
        ]
        .into_iter()
        .find(|(value, _)| (value - right).abs() > 1e-9 && (got - value).abs() < 1e-6)
        .map(|(_, cause)| cause)
    }
}

/// Lesson 05: LayerNorm and its backward pass, the feed-forward network, the encoder and
/// decoder layers, post-LN and pre-LN.
///
/// The builders take the layers as [`Norm`](encoder_layer::Norm), [`Ffn`](encoder_layer::Ffn),
/// [`Encoder`](encoder_layer::Encoder) and [`Decoder`](encoder_layer::Decoder) of borrowed
/// weights, and compute LayerNorm, the FFN and multi-head attention themselves.
pub mod encoder_layer {
    use super::attention::linear;
    use super::differing;
    use super::multi_head_attention::{self, Layer, LinearWeights};
    use crate::Misconception;
    use course_common::ndarray::{Array2, Axis};
    use course_common::{Float, Matrix, Vector};

    type Mask = Array2<bool>;

    /// γ and β exchanged: named by every LayerNorm check.
    pub const GAMMA_BETA_SWAPPED: &str = "γ and β were swapped: γ (gamma) multiplies x̂ and \
        β (beta) is added, y = γ ⊙ x̂ + β";

    /// GELU's tanh approximation in place of the ReLU.
    pub const GELU_TANH: &str = "the activation is GELU (tanh approximation, as in BERT and \
        GPT-2); the paper's FFN, and the course's, uses the ReLU: max(0, x W_1ᵀ + b_1)";

    /// The exact GELU in place of the ReLU.
    pub const GELU_ERF: &str = "the activation is GELU (x·Φ(x)); the paper's FFN, and the \
        course's, uses the ReLU: max(0, x W_1ᵀ + b_1)";

    /// A post-LN layer that computed pre-LN.
    pub const POST_NOT_PRE: &str = "this is the pre-LN layer's output, with \
        NormPosition::Post: post-LN normalises after the residual addition, \
        h = norm_1(x + SA(x)), out = norm_2(h + FFN(h))";

    /// A pre-LN layer that computed post-LN.
    pub const PRE_NOT_POST: &str = "this is the post-LN layer's output, with \
        NormPosition::Pre: pre-LN normalises the sublayer's input only, \
        h = x + SA(norm_1(x)), out = h + FFN(norm_2(h))";

    /// No residual connection anywhere.
    pub const NO_RESIDUAL: &str = "the residual connections are missing: each block adds its \
        input to its sublayer's output (x + SA(..), h + FFN(..))";

    /// A layer whose FFN has no ReLU.
    pub const NO_RELU: &str = "the FFN has no ReLU (check FeedForward::forward)";

    /// Every pre-LN residual taken from the normalised input.
    pub const RESIDUAL_FROM_NORM: &str = "the residual added the normalised input: pre-LN is \
        x + SA(norm_1(x)), with the raw x on the residual path, not norm_1(x) + SA(norm_1(x))";

    /// The decoder's cross-attention queried with the layer's input.
    pub const CROSS_QUERIES_FROM_INPUT: &str = "the cross-attention's queries came from the \
        layer's input x; they come from the first block's output: \
        cross_attention.forward(h_1, memory, memory_mask) in post-LN, \
        cross_attention.forward(norm_2(h_1), memory, memory_mask) in pre-LN";

    /// The decoder's self-attention without its mask.
    pub const NO_CAUSAL_MASK: &str = "the self-attention ignored self_mask, so every target \
        position saw the whole target sequence, the future included: pass self_mask to \
        self_attention.forward";

    /// The decoder's cross-attention without its mask.
    pub const NO_MEMORY_MASK: &str = "the cross-attention ignored memory_mask, so the padded \
        source position got attention: pass memory_mask to cross_attention.forward";

    /// The decoder's cross-attention over its own stream.
    pub const CROSS_OVER_SELF: &str = "the cross-attention's keys and values came from the \
        decoder's own stream; they come from the encoder's output: \
        cross_attention.forward(query_input, memory, memory_mask)";

    /// A LayerNorm's parameters.
    #[derive(Clone, Copy)]
    pub struct Norm<'a> {
        /// γ, `(d_model,)`.
        pub gamma: &'a Vector,
        /// β, `(d_model,)`.
        pub beta: &'a Vector,
        /// ε, inside the square root.
        pub eps: Float,
    }

    /// The feed-forward network's two layers.
    #[derive(Clone, Copy)]
    pub struct Ffn<'a> {
        /// The first layer, `(d_ff, d_model)`.
        pub w_1: LinearWeights<'a>,
        /// The second layer, `(d_model, d_ff)`.
        pub w_2: LinearWeights<'a>,
    }

    /// Where a layer's LayerNorms sit.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Position {
        /// After each residual addition: `norm(x + F(x))`.
        Post,
        /// Before each sublayer: `x + F(norm(x))`.
        Pre,
    }

    /// An encoder layer's parts.
    #[derive(Clone, Copy)]
    pub struct Encoder<'a> {
        /// The self-attention.
        pub self_attention: Layer<'a>,
        /// The feed-forward network.
        pub ffn: Ffn<'a>,
        /// The first LayerNorm.
        pub norm_1: Norm<'a>,
        /// The second LayerNorm.
        pub norm_2: Norm<'a>,
        /// Post-LN or pre-LN.
        pub position: Position,
    }

    /// A decoder layer's parts.
    #[derive(Clone, Copy)]
    pub struct Decoder<'a> {
        /// The masked self-attention.
        pub self_attention: Layer<'a>,
        /// The cross-attention over the memory.
        pub cross_attention: Layer<'a>,
        /// The feed-forward network.
        pub ffn: Ffn<'a>,
        /// The first LayerNorm.
        pub norm_1: Norm<'a>,
        /// The second LayerNorm.
        pub norm_2: Norm<'a>,
        /// The third LayerNorm.
        pub norm_3: Norm<'a>,
        /// Post-LN or pre-LN.
        pub position: Position,
    }

    /// The mean of each row, as a column.
    fn row_mean(m: &Matrix) -> Matrix {
        (m.sum_axis(Axis(1)) / m.ncols() as Float).insert_axis(Axis(1))
    }

    /// Each row normalised over its features; `unbiased` divides the variance by d − 1,
    /// `eps_on_std` adds ε to the standard deviation instead of the variance.
    fn variant(x: &Matrix, unbiased: bool, eps_on_std: bool, eps: Float) -> Matrix {
        let d = x.ncols() as Float;
        let centred = x - &row_mean(x);
        let divisor = if unbiased { d - 1.0 } else { d };
        let variance =
            (centred.mapv(|v| v * v).sum_axis(Axis(1)) / divisor).insert_axis(Axis(1));
        let scale = if eps_on_std {
            variance.mapv(|v| 1.0 / (v.sqrt() + eps))
        } else {
            variance.mapv(|v| 1.0 / (v + eps).sqrt())
        };
        centred * &scale
    }

    /// x̂: each row minus its mean, over √(σ² + ε) with σ² the biased variance.
    pub fn normalise(x: &Matrix, eps: Float) -> Matrix {
        variant(x, false, false, eps)
    }

    /// LayerNorm, `γ ⊙ x̂ + β`.
    pub fn layer_norm(x: &Matrix, norm: &Norm) -> Matrix {
        normalise(x, norm.eps) * norm.gamma + norm.beta
    }

    /// What `LayerNorm::forward(x)` (or, with γ = 1 and β = 0, `normalise_rows`) returns
    /// with the unbiased variance or std, ε on the std or left out, the columns
    /// normalised, or γ and β left out, swapped or applied first.
    pub fn layer_norm_mistakes(x: &Matrix, norm: &Norm) -> Vec<Misconception<'static>> {
        let (gamma, beta, eps) = (norm.gamma, norm.beta, norm.eps);
        let affine = |m: Matrix| m * gamma + beta;
        let x_hat = normalise(x, eps);
        let mut mistakes = vec![
            Misconception {
                cause: "the standard deviation was the unbiased one (÷(d_model − 1), what \
                        torch.std computes) with ε added to it, as the Annotated \
                        Transformer's LayerNorm does; nn.LayerNorm (and the course) divide \
                        the variance by d_model and put ε inside the square root: \
                        (x − μ) / √(σ² + ε)",
                result: affine(variant(x, true, true, eps)),
            },
            Misconception {
                cause: "this is the Annotated Transformer's LayerNorm (unbiased std, ε = \
                        1e-6 added to the std); nn.LayerNorm divides the variance by d_model \
                        and puts ε inside the square root: (x − μ) / √(σ² + ε)",
                result: affine(variant(x, true, true, 1e-6)),
            },
            Misconception {
                cause: "the variance was the unbiased one (÷(d_model − 1)); LayerNorm uses \
                        the biased variance, the mean of the squared deviations (÷ d_model)",
                result: affine(variant(x, true, false, eps)),
            },
            Misconception {
                cause: "ε was added to the standard deviation, (x − μ) / (σ + ε); it belongs \
                        inside the square root, (x − μ) / √(σ² + ε)",
                result: affine(variant(x, false, true, eps)),
            },
            Misconception {
                cause: "ε was left out: (x − μ) / √(σ² + ε) with ε = self.eps",
                result: affine(variant(x, false, false, 0.0)),
            },
        ];
        if x.nrows() > 1 {
            mistakes.push(Misconception {
                cause: "each column was normalised over the rows (BatchNorm's axis) instead \
                        of each row over its features: LayerNorm computes one mean and one \
                        variance per row (per token)",
                result: affine(normalise(&x.t().to_owned(), eps).t().to_owned()),
            });
        }
        mistakes.extend([
            Misconception {
                cause: GAMMA_BETA_SWAPPED,
                result: &x_hat * beta + gamma,
            },
            Misconception {
                cause: "β was not added: y = γ ⊙ x̂ + β",
                result: &x_hat * gamma,
            },
            Misconception {
                cause: "γ was not applied: y = γ ⊙ x̂ + β",
                result: &x_hat + beta,
            },
            Misconception {
                cause: "γ and β were applied before normalising, which the normalisation \
                        then undoes; they come after: y = γ ⊙ x̂ + β",
                result: normalise(&(x * gamma + beta), eps),
            },
        ]);
        differing(&layer_norm(x, norm), mistakes)
    }

    /// The misconceptions ordered by how close each is to `got`, the closest first. On a
    /// row like [1, 0, 0, 0] some wrong formulas agree to 1e-9 (the unbiased variance with
    /// ε inside the root, and the unbiased std with ε added to it), closer than the 1e-6
    /// within which a misconception is recognised: the closest one is the mistake made.
    pub fn nearest_first<'a>(
        got: &Matrix,
        mut mistakes: Vec<Misconception<'a>>,
    ) -> Vec<Misconception<'a>> {
        let distance = |m: &Misconception<'_>| {
            if m.result.dim() == got.dim() {
                (&m.result - got)
                    .iter()
                    .fold(0.0 as Float, |worst, d| worst.max(d.abs()))
            } else {
                Float::INFINITY
            }
        };
        mistakes.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
        mistakes
    }

    /// LayerNorm's backward pass for x, by hand.
    fn layer_norm_backward(x: &Matrix, norm: &Norm, d_y: &Matrix) -> Matrix {
        let centred = x - &row_mean(x);
        let r = row_mean(&centred.mapv(|v| v * v)).mapv(|v| 1.0 / (v + norm.eps).sqrt());
        let x_hat = &centred * &r;
        let g = d_y * norm.gamma;
        (&g - &row_mean(&g) - &x_hat * &row_mean(&(&g * &x_hat))) * &r
    }

    /// The wrong gradients of `LayerNorm::backward`.
    pub struct LayerNormBackwardMistakes {
        /// For `d_x`: μ and σ² as constants, one of their terms missing, γ missing.
        pub d_x: Vec<Misconception<'static>>,
        /// For `d_gamma` (a `(1, d_model)` row): dY ⊙ x instead of dY ⊙ x̂.
        pub d_gamma: Vec<Misconception<'static>>,
    }

    /// What `LayerNorm::backward(x, d_y)` returns with μ and σ² treated as constants, the
    /// variance's or the mean's term missing, γ missing, or dγ summed with x.
    pub fn layer_norm_backward_mistakes(
        x: &Matrix,
        norm: &Norm,
        d_y: &Matrix,
    ) -> LayerNormBackwardMistakes {
        let centred = x - &row_mean(x);
        let r = row_mean(&centred.mapv(|v| v * v)).mapv(|v| 1.0 / (v + norm.eps).sqrt());
        let x_hat = &centred * &r;
        let g = d_y * norm.gamma;
        let d_x = vec![
            Misconception {
                cause: "μ and σ² were treated as constants (dx = g/σ): both depend on every \
                        entry of the row, which adds the terms − mean(g) and − x̂ ⊙ \
                        mean(g ⊙ x̂)",
                result: &g * &r,
            },
            Misconception {
                cause: "the variance's term is missing: dx = r·(g − mean(g) − x̂ ⊙ \
                        mean(g ⊙ x̂))",
                result: (&g - &row_mean(&g)) * &r,
            },
            Misconception {
                cause: "the mean's term is missing: dx = r·(g − mean(g) − x̂ ⊙ mean(g ⊙ x̂))",
                result: (&g - &(&x_hat * &row_mean(&(&g * &x_hat)))) * &r,
            },
            Misconception {
                cause: "γ is missing: the gradient that reaches x̂ is g = dY ⊙ γ",
                result: (d_y - &row_mean(d_y) - &x_hat * &row_mean(&(d_y * &x_hat))) * &r,
            },
        ];
        let d_gamma = vec![Misconception {
            cause: "dγ summed dY ⊙ x instead of dY ⊙ x̂ (the normalised input)",
            result: (d_y * x).sum_axis(Axis(0)).insert_axis(Axis(0)),
        }];
        LayerNormBackwardMistakes {
            d_x: differing(&layer_norm_backward(x, norm, d_y), d_x),
            d_gamma: differing(
                &(d_y * &x_hat).sum_axis(Axis(0)).insert_axis(Axis(0)),
                d_gamma,
            ),
        }
    }

    /// GELU by its tanh approximation (BERT's, GPT-2's).
    fn gelu_tanh(v: Float) -> Float {
        let c: Float = (2.0 / std::f64::consts::PI).sqrt();
        0.5 * v * (1.0 + (c * (v + 0.044715 * v * v * v)).tanh())
    }

    /// The exact GELU, x·Φ(x) = x·(1 + erf(x/√2))/2, with erf from Numerical Recipes'
    /// erfc (fractional error below 1.2e-7, well inside the tolerance used to name a
    /// mistake).
    fn gelu_erf(v: Float) -> Float {
        let x = v / std::f64::consts::SQRT_2;
        let z = x.abs();
        let t = 1.0 / (1.0 + 0.5 * z);
        let poly = -z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587
                                        + t * (-0.82215223 + t * 0.17087277))))))));
        let erfc = t * poly.exp();
        let erf = if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 };
        0.5 * v * (1.0 + erf)
    }

    /// The FFN with `activation` in place of the ReLU: `(hidden, output)`.
    fn ffn_with(
        ffn: &Ffn,
        x: &Matrix,
        activation: fn(Float) -> Float,
    ) -> (Matrix, Matrix) {
        let hidden = linear(x, ffn.w_1.weight, ffn.w_1.bias).mapv(activation);
        let output = linear(&hidden, ffn.w_2.weight, ffn.w_2.bias);
        (hidden, output)
    }

    fn relu(v: Float) -> Float {
        v.max(0.0)
    }

    /// The FFN, `max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2`.
    pub fn feed_forward(ffn: &Ffn, x: &Matrix) -> Matrix {
        ffn_with(ffn, x, relu).1
    }

    /// The wrong results of `FeedForward::forward`.
    pub struct FfnMistakes {
        /// For `hidden`: the pre-activation, GELU.
        pub hidden: Vec<Misconception<'static>>,
        /// For `output`: no ReLU, a ReLU on the output too, GELU.
        pub output: Vec<Misconception<'static>>,
    }

    /// What `FeedForward::forward(x)` returns without the ReLU, with GELU in its place, or
    /// with a ReLU on the output too.
    pub fn ffn_mistakes(ffn: &Ffn, x: &Matrix) -> FfnMistakes {
        let (hidden, output) = ffn_with(ffn, x, relu);
        let (pre_activation, no_relu) = ffn_with(ffn, x, |v| v);
        let (tanh_hidden, tanh_output) = ffn_with(ffn, x, gelu_tanh);
        let (erf_hidden, erf_output) = ffn_with(ffn, x, gelu_erf);
        FfnMistakes {
            hidden: differing(
                &hidden,
                vec![
                    Misconception {
                        cause: "the ReLU is missing, or `hidden` holds the pre-activation; \
                                it is the ReLU's output, max(0, x W_1ᵀ + b_1), which is also \
                                what w_2 takes as input",
                        result: pre_activation,
                    },
                    Misconception {
                        cause: GELU_TANH,
                        result: tanh_hidden,
                    },
                    Misconception {
                        cause: GELU_ERF,
                        result: erf_hidden,
                    },
                ],
            ),
            output: differing(
                &output,
                vec![
                    Misconception {
                        cause: "the ReLU is missing: FFN(x) = max(0, x W_1ᵀ + b_1) W_2ᵀ + b_2",
                        result: no_relu,
                    },
                    Misconception {
                        cause: "a ReLU was applied to the output too; only the hidden layer \
                                has one, so the FFN's output can be negative",
                        result: output.mapv(relu),
                    },
                    Misconception {
                        cause: GELU_TANH,
                        result: tanh_output,
                    },
                    Misconception {
                        cause: GELU_ERF,
                        result: erf_output,
                    },
                ],
            ),
        }
    }

    /// The FFN's backward pass for x, by hand, with the ReLU's gradient or without it.
    fn ffn_backward(
        ffn: &Ffn,
        x: &Matrix,
        d_output: &Matrix,
        relu_gradient: bool,
    ) -> Matrix {
        let hidden = linear(x, ffn.w_1.weight, ffn.w_1.bias).mapv(relu);
        let d_hidden = d_output.dot(ffn.w_2.weight);
        let d_pre = if relu_gradient {
            d_hidden * &hidden.mapv(|h| if h > 0.0 { 1.0 } else { 0.0 })
        } else {
            d_hidden
        };
        d_pre.dot(ffn.w_1.weight)
    }

    /// What `FeedForward::backward(x, forward, d_output).d_x` is without the ReLU's
    /// gradient.
    pub fn ffn_backward_mistakes(
        ffn: &Ffn,
        x: &Matrix,
        d_output: &Matrix,
    ) -> Vec<Misconception<'static>> {
        differing(
            &ffn_backward(ffn, x, d_output, true),
            vec![Misconception {
                cause: "the ReLU's gradient is missing: it passes the gradient where the unit \
                        was on (hidden > 0) and blocks it (0) where it was off",
                result: ffn_backward(ffn, x, d_output, false),
            }],
        )
    }

    /// What a block adds back around its sublayer: its input (right), the normalised
    /// input (pre-LN only: a mistake) or nothing (a mistake).
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Skip {
        Input,
        Normalised,
        Nothing,
    }

    /// One residual block: post-LN `norm(skip + F(input))`, pre-LN `skip + F(norm(input))`.
    fn block(
        position: Position,
        input: &Matrix,
        norm: &Norm,
        skip: Skip,
        sublayer: impl Fn(&Matrix) -> Matrix,
    ) -> Matrix {
        let added = |normalised: &Matrix, f: Matrix| match skip {
            Skip::Input => input + &f,
            Skip::Normalised => normalised + &f,
            Skip::Nothing => f,
        };
        match position {
            Position::Post => layer_norm(&added(input, sublayer(input)), norm),
            Position::Pre => {
                let a = layer_norm(input, norm);
                let f = sublayer(&a);
                added(&a, f)
            }
        }
    }

    /// The causes that name one block's residual mistakes.
    struct Block {
        post_missing: &'static str,
        pre_missing: &'static str,
        pre_normalised: &'static str,
    }

    /// A block's causes, from its sublayer's name, its input's, its LayerNorm's and its
    /// sublayer's symbol.
    macro_rules! block_causes {
        ($name:literal, $input:literal, $norm:literal, $f:literal) => {
            Block {
                post_missing: concat!(
                    "the residual around the ",
                    $name,
                    " is missing: the block is ",
                    $norm,
                    "(",
                    $input,
                    " + ",
                    $f,
                    "(",
                    $input,
                    ")), not ",
                    $norm,
                    "(",
                    $f,
                    "(",
                    $input,
                    "))"
                ),
                pre_missing: concat!(
                    "the residual around the ",
                    $name,
                    " is missing: the block is ",
                    $input,
                    " + ",
                    $f,
                    "(",
                    $norm,
                    "(",
                    $input,
                    ")), not ",
                    $f,
                    "(",
                    $norm,
                    "(",
                    $input,
                    "))"
                ),
                pre_normalised: concat!(
                    "the residual around the ",
                    $name,
                    " added the normalised input: \
                     pre-LN is ",
                    $input,
                    " + ",
                    $f,
                    "(",
                    $norm,
                    "(",
                    $input,
                    ")), with the \
                     raw ",
                    $input,
                    " on the residual path, not ",
                    $norm,
                    "(",
                    $input,
                    ") + ",
                    $f,
                    "(",
                    $norm,
                    "(",
                    $input,
                    "))"
                ),
            }
        };
    }

    const ENCODER_BLOCKS: [Block; 2] = [
        block_causes!("self-attention", "x", "norm_1", "SA"),
        block_causes!("FFN", "h", "norm_2", "FFN"),
    ];

    const DECODER_BLOCKS: [Block; 3] = [
        block_causes!("self-attention", "x", "norm_1", "SA"),
        block_causes!("cross-attention", "h_1", "norm_2", "CA"),
        block_causes!("FFN", "h_2", "norm_3", "FFN"),
    ];

    /// One residual dropped, or (pre-LN) taken from the normalised input, for each block
    /// of a layer computed by `layer(skips)`.
    fn residual_mistakes<const N: usize>(
        position: Position,
        blocks: &[Block; N],
        layer: impl Fn([Skip; N]) -> Matrix,
    ) -> Vec<Misconception<'static>> {
        let mut mistakes = Vec::new();
        for (i, causes) in blocks.iter().enumerate() {
            let mut skips = [Skip::Input; N];
            skips[i] = Skip::Nothing;
            let cause = match position {
                Position::Post => causes.post_missing,
                Position::Pre => causes.pre_missing,
            };
            mistakes.push(Misconception {
                cause,
                result: layer(skips),
            });
            if position == Position::Pre {
                skips[i] = Skip::Normalised;
                mistakes.push(Misconception {
                    cause: causes.pre_normalised,
                    result: layer(skips),
                });
            }
        }
        mistakes
    }

    /// The other position.
    fn other(position: Position) -> Position {
        match position {
            Position::Post => Position::Pre,
            Position::Pre => Position::Post,
        }
    }

    /// A slip in a whole layer.
    #[derive(Clone, Copy)]
    struct Slips<const N: usize> {
        position: Position,
        skips: [Skip; N],
        relu: bool,
        self_mask: bool,
        memory_mask: bool,
        queries_from_input: bool,
        cross_over_self: bool,
    }

    impl<const N: usize> Slips<N> {
        fn none(position: Position) -> Self {
            Self {
                position,
                skips: [Skip::Input; N],
                relu: true,
                self_mask: true,
                memory_mask: true,
                queries_from_input: false,
                cross_over_self: false,
            }
        }
    }

    fn encoder_with(
        layer: &Encoder,
        x: &Matrix,
        mask: Option<&Mask>,
        slips: Slips<2>,
    ) -> Matrix {
        let mask = mask.filter(|_| slips.self_mask);
        let activation: fn(Float) -> Float = if slips.relu { relu } else { |v| v };
        let h = block(slips.position, x, &layer.norm_1, slips.skips[0], |a| {
            multi_head_attention::forward(&layer.self_attention, a, a, mask)
        });
        block(slips.position, &h, &layer.norm_2, slips.skips[1], |a| {
            ffn_with(&layer.ffn, a, activation).1
        })
    }

    /// What `EncoderLayer::forward(x, mask).output` is with the other LayerNorm position,
    /// no residuals, no ReLU, a residual missing or (pre-LN) taken from the normalised
    /// input, or the mask not passed.
    pub fn encoder_mistakes(
        layer: &Encoder,
        x: &Matrix,
        mask: Option<&Mask>,
    ) -> Vec<Misconception<'static>> {
        let position = layer.position;
        let right = Slips::none(position);
        let with = |slips: Slips<2>| encoder_with(layer, x, mask, slips);
        let mut mistakes = vec![
            Misconception {
                cause: match position {
                    Position::Post => POST_NOT_PRE,
                    Position::Pre => PRE_NOT_POST,
                },
                result: with(Slips::none(other(position))),
            },
            Misconception {
                cause: NO_RESIDUAL,
                result: with(Slips {
                    skips: [Skip::Nothing; 2],
                    ..right
                }),
            },
            Misconception {
                cause: NO_RELU,
                result: with(Slips {
                    relu: false,
                    ..right
                }),
            },
        ];
        if position == Position::Pre {
            mistakes.push(Misconception {
                cause: RESIDUAL_FROM_NORM,
                result: with(Slips {
                    skips: [Skip::Normalised; 2],
                    ..right
                }),
            });
        }
        mistakes.extend(residual_mistakes(position, &ENCODER_BLOCKS, |skips| {
            with(Slips { skips, ..right })
        }));
        if mask.is_some() {
            mistakes.push(Misconception {
                cause: "the mask did not reach the self-attention: pass it to \
                        self_attention.forward",
                result: with(Slips {
                    self_mask: false,
                    ..right
                }),
            });
        }
        differing(&with(right), mistakes)
    }

    /// The encoder layer's gradient for x, by hand; `key_value_gradient: false` leaves the
    /// self-attention's d_key_value_input out.
    fn encoder_d_x(
        layer: &Encoder,
        x: &Matrix,
        mask: Option<&Mask>,
        d_output: &Matrix,
        key_value_gradient: bool,
    ) -> Matrix {
        let attention = &layer.self_attention;
        let through_attention = |a: &Matrix, d: &Matrix| {
            let (d_query, d_key_value) =
                multi_head_attention::input_gradients(attention, a, a, mask, d);
            if key_value_gradient {
                d_query + d_key_value
            } else {
                d_query
            }
        };
        let (norm_1, norm_2) = (&layer.norm_1, &layer.norm_2);
        match layer.position {
            Position::Post => {
                let norm_1_input =
                    x + &multi_head_attention::forward(attention, x, x, mask);
                let h = layer_norm(&norm_1_input, norm_1);
                let norm_2_input = &h + &feed_forward(&layer.ffn, &h);
                let d_n2 = layer_norm_backward(&norm_2_input, norm_2, d_output);
                let d_h = &d_n2 + &ffn_backward(&layer.ffn, &h, &d_n2, true);
                let d_n1 = layer_norm_backward(&norm_1_input, norm_1, &d_h);
                &d_n1 + &through_attention(x, &d_n1)
            }
            Position::Pre => {
                let a = layer_norm(x, norm_1);
                let h = x + &multi_head_attention::forward(attention, &a, &a, mask);
                let b = layer_norm(&h, norm_2);
                let d_b = ffn_backward(&layer.ffn, &b, d_output, true);
                let d_h = d_output + &layer_norm_backward(&h, norm_2, &d_b);
                let d_a = through_attention(&a, &d_h);
                &d_h + &layer_norm_backward(x, norm_1, &d_a)
            }
        }
    }

    /// What `EncoderLayer::backward(x, forward, d_output).d_x` is without the
    /// self-attention's d_key_value_input.
    pub fn encoder_d_x_mistakes(
        layer: &Encoder,
        x: &Matrix,
        mask: Option<&Mask>,
        d_output: &Matrix,
    ) -> Vec<Misconception<'static>> {
        differing(
            &encoder_d_x(layer, x, mask, d_output, true),
            vec![Misconception {
                cause: "d_key_value_input was left out of d_x: the self-attention's one \
                        input fed its queries, its keys and its values, so the gradient \
                        that comes back to it is d_query_input + d_key_value_input",
                result: encoder_d_x(layer, x, mask, d_output, false),
            }],
        )
    }

    fn decoder_with(
        layer: &Decoder,
        x: &Matrix,
        memory: &Matrix,
        self_mask: Option<&Mask>,
        memory_mask: Option<&Mask>,
        slips: Slips<3>,
    ) -> Matrix {
        let self_mask = self_mask.filter(|_| slips.self_mask);
        let memory_mask =
            memory_mask.filter(|_| slips.memory_mask && !slips.cross_over_self);
        let activation: fn(Float) -> Float = if slips.relu { relu } else { |v| v };
        let h_1 = block(slips.position, x, &layer.norm_1, slips.skips[0], |a| {
            multi_head_attention::forward(&layer.self_attention, a, a, self_mask)
        });
        let h_2 = block(slips.position, &h_1, &layer.norm_2, slips.skips[1], |a| {
            let queries = if slips.queries_from_input { x } else { a };
            let keys = if slips.cross_over_self {
                queries
            } else {
                memory
            };
            multi_head_attention::forward(
                &layer.cross_attention,
                queries,
                keys,
                memory_mask,
            )
        });
        block(slips.position, &h_2, &layer.norm_3, slips.skips[2], |a| {
            ffn_with(&layer.ffn, a, activation).1
        })
    }

    /// What `DecoderLayer::forward(x, memory, self_mask, memory_mask).output` is with the
    /// other LayerNorm position, a mask ignored, the cross-attention over the decoder's
    /// own stream or queried with x, no residuals, no ReLU, or a residual missing or
    /// (pre-LN) taken from the normalised input.
    pub fn decoder_mistakes(
        layer: &Decoder,
        x: &Matrix,
        memory: &Matrix,
        self_mask: Option<&Mask>,
        memory_mask: Option<&Mask>,
    ) -> Vec<Misconception<'static>> {
        let position = layer.position;
        let right = Slips::none(position);
        let with = |slips: Slips<3>| {
            decoder_with(layer, x, memory, self_mask, memory_mask, slips)
        };
        let mut mistakes = vec![Misconception {
            cause: match position {
                Position::Post => POST_NOT_PRE,
                Position::Pre => PRE_NOT_POST,
            },
            result: with(Slips::none(other(position))),
        }];
        if self_mask.is_some() {
            mistakes.push(Misconception {
                cause: NO_CAUSAL_MASK,
                result: with(Slips {
                    self_mask: false,
                    ..right
                }),
            });
        }
        if memory_mask.is_some() {
            mistakes.push(Misconception {
                cause: NO_MEMORY_MASK,
                result: with(Slips {
                    memory_mask: false,
                    ..right
                }),
            });
        }
        mistakes.push(Misconception {
            cause: CROSS_OVER_SELF,
            result: with(Slips {
                cross_over_self: true,
                ..right
            }),
        });
        if position == Position::Pre {
            mistakes.push(Misconception {
                cause: RESIDUAL_FROM_NORM,
                result: with(Slips {
                    skips: [Skip::Normalised; 3],
                    ..right
                }),
            });
        }
        mistakes.extend([
            Misconception {
                cause: NO_RESIDUAL,
                result: with(Slips {
                    skips: [Skip::Nothing; 3],
                    ..right
                }),
            },
            Misconception {
                cause: NO_RELU,
                result: with(Slips {
                    relu: false,
                    ..right
                }),
            },
            Misconception {
                cause: CROSS_QUERIES_FROM_INPUT,
                result: with(Slips {
                    queries_from_input: true,
                    ..right
                }),
            },
        ]);
        mistakes.extend(residual_mistakes(position, &DECODER_BLOCKS, |skips| {
            with(Slips { skips, ..right })
        }));
        differing(&with(right), mistakes)
    }
}

/// Lesson 06: the full model's masks, the label-smoothed loss, the schedule, clipping,
/// Adam, the backward pass and cached decoding.
///
/// The whole model's wrong logits are PyTorch's, pasted in the graded suite; what is
/// here are their causes, named the same in the visible tests' checks of the masks, and
/// the builders of the loss's and the optimiser's wrong results, which take plain
/// matrices and numbers.
pub mod full_model {
    use super::attention::masked_softmax;
    use super::differing;
    use crate::{Misconception, Tol};
    use course_common::{Float, Matrix};

    /// The padding token, PAD (token 0 of every vocabulary of the course).
    pub const PAD: usize = 0;

    /// The embeddings left unscaled in the model.
    pub const NO_EMBEDDING_SCALE: &str = "the embeddings were not multiplied by √d_model \
        (lesson 04's Embedding does it: use embed_with_positions)";

    /// No positional encoding in the model.
    pub const NO_POSITIONS: &str = "no positional encoding was added (embed_with_positions \
        with model.positions)";

    /// The decoder's self-attention without the causal mask.
    pub const NO_CAUSAL_MASK: &str = "the decoder's self-attention has no causal mask \
        (target_mask)";

    /// The encoder's self-attention without the source's padding mask.
    pub const NO_ENCODER_MASK: &str = "the encoder's self-attention does not mask the \
        source's padding (key_padding_mask(S, src))";

    /// The cross-attention without the source's padding mask.
    pub const NO_CROSS_MASK: &str = "the cross-attention does not mask the source's padding \
        (key_padding_mask(T, src) as the decoder layers' memory mask)";

    /// Every layer fed the embeddings.
    pub const SAME_INPUT: &str = "every layer was given the embeddings instead of the output \
        of the layer below it";

    /// The loss divided by the number of rows.
    pub const LOSS_OVER_EVERY_ROW: &str = "the loss is the mean over every row, padding \
        included: divide by the number of targets that are not padding, not by the number of \
        rows";

    /// An overflowing log-softmax.
    pub const LOG_SOFTMAX_OVERFLOW: &str = "exp(1000) overflows; compute the log-softmax as \
        x − max − ln Σ exp(x − max): subtract the row maximum";

    /// The warm-up with `max`.
    pub const NOAM_MAX: &str = "the schedule took the max instead of the min of step^−0.5 \
        and step · warmup^−1.5 (`max` instead of `min`): the min is what rises linearly \
        during the warm-up and decays as 1/√step after it";

    /// Adam without bias correction.
    pub const NO_BIAS_CORRECTION: &str = "no bias correction: divide m by 1 − β₁ᵗ and v by \
        1 − β₂ᵗ (t counts from 1)";

    /// Adam's ε inside the square root.
    pub const EPS_INSIDE_THE_ROOT: &str = "ε was put inside the square root, m̂ / √(v̂ + ε); \
        Adam adds it to the root, θ ← θ − lr · m̂ / (√v̂ + ε)";

    /// What to do when the memory's gradient is wrong.
    pub const SUM_OF_D_MEMORY: &str = "every decoder layer reads the same memory, so its \
        gradient is the SUM of every layer's d_memory";

    /// What to do when a parameter's gradient is wrong.
    pub const ADD_NEVER_ASSIGN: &str = "walk the layers backwards, feed each layer's \
        backward the input it had in the forward pass, and ADD every layer's gradients (and \
        every pair's) into the gradient model: += , never =";

    /// Greedy decoding that does not start from BOS.
    pub const START_FROM_BOS: &str = "decoding must start from BOS, never PAD (issue #127 of \
        the Annotated Transformer: starting from PAD), as in training";

    /// A cache that does not keep the earlier positions.
    pub const CACHE_APPEND: &str = "the cache must keep the keys and values of every earlier \
        position (append with push_row, never replace), and the positional encoding must use \
        cache.position, which decode_step increments";

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
                cause: "this is the Annotated Transformer's LabelSmoothing (1 − ε on the gold \
                        class, ε/(V − 2) elsewhere, 0 on the padding column); the course uses \
                        PyTorch's definition, (1 − ε)·onehot + ε/V over every class",
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
                cause: "the row whose target is PAD must be all zeros: it is not a prediction",
                result: pad_row,
            },
            Misconception {
                cause: "ε was spread as ε/(V − 1) over the other classes with 1 − ε on the \
                        gold class; the course uses PyTorch's definition, (1 − ε)·onehot + \
                        ε/V: every class (the gold one too) gets ε/V, and the gold class \
                        1 − ε + ε/V",
                result: spread(1.0 - smoothing),
            },
            Misconception {
                cause: "ε was spread as ε/(V − 1) instead of ε/V; the course uses PyTorch's \
                        definition, (1 − ε)·onehot + ε/V, so each row sums to 1",
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
            .then_some(LOSS_OVER_EVERY_ROW)
    }

    /// What `cross_entropy_loss(logits, targets, ε).d_logits` is when the PAD rows keep
    /// p/N, when it is divided by the number of rows, or both.
    pub fn loss_gradient_mistakes(
        logits: &Matrix,
        targets: &[usize],
        smoothing: Float,
    ) -> Vec<Misconception<'static>> {
        let (n, rows) = (tokens(targets), targets.len().max(1) as Float);
        let gradient =
            |divisor, zero| loss_with(logits, targets, smoothing, divisor, zero).1;
        let mistakes = vec![
            Misconception {
                cause: "the padding row's gradient is not 0: it kept p/N; a row whose \
                        target is PAD adds nothing to the loss, so its gradient is 0 \
                        (multiply p by the rows' is-token mask before subtracting q)",
                result: gradient(n, false),
            },
            Misconception {
                cause: "the gradient was divided by the number of rows instead of the \
                        number of tokens that are not padding",
                result: gradient(rows, true),
            },
            Misconception {
                cause: "the padding row's gradient is not 0 and the gradient was divided by \
                        the number of rows instead of the number of tokens",
                result: gradient(rows, false),
            },
        ];
        differing(&gradient(n, true), mistakes)
    }

    /// The schedule written out with `max` in place of `min`.
    pub fn noam_with_max(
        step: usize,
        d_model: usize,
        warmup: usize,
        factor: Float,
    ) -> Float {
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
            "step 0 gives 0^−0.5 = ∞: use max(step, 1)"
        } else if step == 0 && got == 0.0 {
            "step 0 gives min(0^−0.5, 0 · warmup^−1.5) = min(∞, 0) = 0: treat step 0 as \
             step 1, max(step, 1)"
        } else if close.accepts(got, noam_with_max(step, d_model, warmup, factor)) {
            NOAM_MAX
        } else if step < warmup {
            "the warm-up part is step · warmup^−1.5, a straight line that meets step^−0.5 \
             at step = warmup"
        } else {
            "factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)"
        }
    }

    /// What `clip_global_norm(grads, max_norm)` leaves in the tensors, flattened into
    /// one row, when each tensor is clipped on its own.
    pub fn clip_mistakes(
        grads: &[&[Float]],
        max_norm: Float,
    ) -> Vec<Misconception<'static>> {
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
                cause: "each tensor was clipped on its own; the paper's clipping (and \
                        PyTorch's clip_grad_norm_) uses one norm over every tensor, so the \
                        direction of the whole gradient is kept",
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
}
