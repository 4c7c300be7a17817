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
pub mod attention {
    use super::{Cause, kept};
    use crate::{MESSAGES, Misconception, tr};
    use course_common::ndarray::{Array2, Axis};
    use course_common::{Float, Matrix, Vector};

    /// The softmax over the wrong axis, named once for every check that can see it.
    pub const WRONG_AXIS: Cause = Cause(|| tr!(MESSAGES, "wrong-axis"));

    /// Overflow in a softmax that does not subtract the row maximum.
    pub const NO_MAX_SUBTRACTION: Cause = Cause(|| tr!(MESSAGES, "no-max-subtraction"));

    /// A mask applied to the weights instead of the scores.
    pub const MASK_AFTER_SOFTMAX: Cause = Cause(|| tr!(MESSAGES, "mask-after-softmax"));

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
            cause: &WRONG_AXIS,
            result: softmax_along(scores, 0),
        }]
    }

    /// The attention weights softmax(Q Kᵀ / s) for the wrong scales and the wrong axis.
    pub fn weights_mistakes(q: &Matrix, k: &Matrix) -> Vec<Misconception<'static>> {
        let d_k = q.ncols() as Float;
        let raw = q.dot(&k.t());
        vec![
            Misconception {
                cause: kept(tr!(MESSAGES, "scores-not-scaled")),
                result: softmax_along(&raw, 1),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "scores-divided-by-d-k")),
                result: softmax_along(&(&raw / d_k), 1),
            },
            Misconception {
                cause: &WRONG_AXIS,
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
                cause: kept(tr!(MESSAGES, "softmax-jacobian-diagonal-only")),
                result: weights * &weights.mapv(|w| 1.0 - w) * d_weights,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "softmax-rowsum-term-missing")),
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
                cause: kept(tr!(MESSAGES, "bias-not-added")),
                result: x.dot(&weight.t()),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "bias-on-one-row")),
                result: {
                    let mut y = x.dot(&weight.t());
                    y.row_mut(0).scaled_add(1.0, bias);
                    y
                },
            },
        ];
        if weight.is_square() {
            mistakes.push(Misconception {
                cause: kept(tr!(MESSAGES, "weight-not-transposed")),
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
    use super::{Cause, kept};
    use crate::{MESSAGES, Misconception, tr};
    use course_common::ndarray::{Axis, s};
    use course_common::{Float, Matrix, Vector};

    /// `h W_hh` instead of `h W_hhᵀ`: named by every check of the step.
    pub const W_HH_NOT_TRANSPOSED: Cause = Cause(|| tr!(MESSAGES, "w-hh-not-transposed"));

    /// Only the last state's upstream gradient used: named for every gradient of BPTT.
    pub const LAST_UPSTREAM_ONLY: Cause = Cause(|| tr!(MESSAGES, "last-upstream-only"));

    /// Each state's upstream gradient replaced the carried one: named for every gradient
    /// of BPTT.
    pub const CARRY_DROPPED: Cause = Cause(|| tr!(MESSAGES, "carry-dropped"));

    /// A step handed its own output as its previous state: named by BPTT's dW_hh checks.
    pub const OWN_OUTPUT_AS_PREVIOUS: Cause =
        Cause(|| tr!(MESSAGES, "own-output-as-previous"));

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
                cause: &W_HH_NOT_TRANSPOSED,
                result: (x.dot(&cell.w_xh.t()) + h.dot(cell.w_hh) + cell.b)
                    .mapv(Float::tanh),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "bias-not-added")),
                result: (&z - cell.b).mapv(Float::tanh),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "no-tanh")),
                result: z,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "previous-state-left-out")),
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
                kept(tr!(MESSAGES, "tanh-prime-at-z")),
                d_h_next * &z.mapv(|v| 1.0 - v * v),
            ),
            (
                kept(tr!(MESSAGES, "tanh-prime-from-previous-state")),
                d_h_next * &h.mapv(|v| 1.0 - v * v),
            ),
            (
                kept(tr!(MESSAGES, "tanh-skipped-in-backward")),
                d_h_next.clone(),
            ),
            (
                kept(tr!(MESSAGES, "tanh-prime-unsquared")),
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
            cause: kept(tr!(MESSAGES, "d-h-through-w-hh-transposed")),
            result: d_z.dot(&cell.w_hh.t()),
        });
        let mut d_w_hh = tanh_mistakes(&|dz| dz.t().dot(h));
        d_w_hh.extend([
            Misconception {
                cause: kept(tr!(MESSAGES, "d-w-hh-transposed")),
                result: h.t().dot(&d_z),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "d-w-hh-from-new-state")),
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
                cause: kept(tr!(MESSAGES, "every-step-from-h0")),
                result: cell.step(xs, &h0_everywhere),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "states-shifted")),
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
                cause: kept(tr!(MESSAGES, "context-first-state")),
                result: states.slice(s![..1, ..]).to_owned(),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "context-mean-of-states")),
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
            cause: kept(tr!(MESSAGES, "origin-jacobian-transposed")),
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
            (Slip::Overwritten, kept(tr!(MESSAGES, "bptt-overwritten"))),
            (
                Slip::LastStepOnly,
                kept(tr!(MESSAGES, "bptt-last-step-only")),
            ),
            (Slip::LastUpstreamOnly, LAST_UPSTREAM_ONLY.text()),
            (Slip::CarryDropped, CARRY_DROPPED.text()),
            (Slip::OwnOutputAsPrevious, OWN_OUTPUT_AS_PREVIOUS.text()),
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
    use super::{Cause, kept};
    use crate::{MESSAGES, Misconception, tr};
    use course_common::ndarray::{Array2, Axis, concatenate, s};
    use course_common::{Float, Matrix, Vector};

    /// Heads cut from interleaved columns: named by split, merge, weights and outputs.
    pub const INTERLEAVED: Cause = Cause(|| tr!(MESSAGES, "heads-interleaved"));

    /// Heads cut from the row-major numbers, mixing tokens.
    pub const PLAIN_RESHAPE: Cause = Cause(|| tr!(MESSAGES, "heads-plain-reshape"));

    /// The mask left out of the heads' attention: named by weights and outputs.
    pub const MASK_NOT_PASSED: Cause =
        Cause(|| tr!(MESSAGES, "mask-not-passed-to-heads"));

    /// Keys and values projected from the query input: named by outputs and shapes.
    pub const KV_FROM_QUERY: Cause = Cause(|| tr!(MESSAGES, "kv-from-query"));

    /// What to do when the number of weight matrices is not the number of heads.
    pub const ONE_PER_HEAD: Cause = Cause(|| tr!(MESSAGES, "one-weight-matrix-per-head"));

    /// The heads handed `d_output` instead of `d_output W_o`: named by both input gradients.
    pub const NOT_THROUGH_W_O: Cause = Cause(|| tr!(MESSAGES, "not-through-w-o"));

    const SCALED_BY_D_MODEL: Cause = Cause(|| tr!(MESSAGES, "scaled-by-d-model"));

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
                        cause: &INTERLEAVED,
                        result: x.select(Axis(1), &interleaved(head, d_k, n_heads)),
                    },
                    Misconception {
                        cause: &PLAIN_RESHAPE,
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
                cause: &INTERLEAVED,
                result: interleaved,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "heads-merged-in-reverse")),
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
                cause: &INTERLEAVED,
                result: written_out(layer, key_value_input, mask, interleaved, 1.0).0,
            },
            Misconception {
                cause: &SCALED_BY_D_MODEL,
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
                cause: kept(tr!(MESSAGES, "no-output-projection")),
                result: concat.clone(),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "output-projection-not-transposed")),
                result: concat.dot(layer.w_o.weight) + layer.w_o.bias,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "one-wide-head")),
                result: written_out(&one_head, key_value_input, mask, contiguous, 1.0).0,
            },
        ];
        if mask.is_none() && query_input != key_value_input {
            mistakes.push(Misconception {
                cause: &KV_FROM_QUERY,
                result: written_out(layer, query_input, None, contiguous, 1.0).0,
            });
        }
        if let Some(mask) = mask {
            mistakes.push(Misconception {
                cause: &MASK_NOT_PASSED,
                result: written_out(layer, key_value_input, None, contiguous, 1.0).0,
            });
            mistakes.push(Misconception {
                cause: kept(tr!(MESSAGES, "mask-inverted")),
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
                        cause: cause.text(),
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
                        cause: &NOT_THROUGH_W_O,
                        result: skipped_d_q.dot(layer.w_q.weight),
                    },
                    Misconception {
                        cause: kept(tr!(MESSAGES, "d-query-input-not-through-w-q")),
                        result: d_q,
                    },
                ],
            ),
            d_key_value_input: differing(
                &right_kv,
                vec![
                    Misconception {
                        cause: kept(tr!(MESSAGES, "value-path-alone")),
                        result: value_path,
                    },
                    Misconception {
                        cause: kept(tr!(MESSAGES, "key-path-alone")),
                        result: key_path,
                    },
                    Misconception {
                        cause: &NOT_THROUGH_W_O,
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
            kept(tr!(MESSAGES, "count-no-biases"))
        } else if got == 3 * d * d + 3 * d {
            kept(tr!(MESSAGES, "count-no-w-o"))
        } else if got == 4 * d * d / n_heads + 4 * d {
            kept(tr!(MESSAGES, "count-one-head"))
        } else {
            kept(tr!(MESSAGES, "count-every-parameter"))
        }
    }
}

/// Lesson 04: the frequencies, the sinusoidal table, the embedding and its backward pass,
/// adding the encoding, the embedding-to-encoding ratio.
pub mod positional_encoding {
    use super::differing;
    use super::{Cause, kept};
    use crate::{MESSAGES, Misconception, tr};
    use course_common::ndarray::{Axis, s};
    use course_common::{Float, Matrix};

    /// Cosine at the even columns: named by the table's checks.
    pub const SWAPPED: Cause = Cause(|| tr!(MESSAGES, "sin-cos-swapped"));

    /// The tensor2tensor layout: named by the table's checks.
    pub const CONCATENATED: Cause = Cause(|| tr!(MESSAGES, "table-concatenated"));

    /// Every frequency 1: named by the frequencies' and the table's checks.
    pub const INTEGER_DIVISION: Cause = Cause(|| tr!(MESSAGES, "integer-division"));

    /// Frequencies that fall too slowly: named by the frequencies' and the table's checks.
    pub const EXPONENT_I: Cause = Cause(|| tr!(MESSAGES, "exponent-i"));

    /// A frequency per column instead of per pair.
    pub const EXPONENT_COLUMN: Cause = Cause(|| tr!(MESSAGES, "exponent-column"));

    /// Twice the column index in the exponent.
    pub const EXPONENT_TWO_COLUMNS: Cause =
        Cause(|| tr!(MESSAGES, "exponent-two-columns"));

    /// Frequencies above 1: named by the frequencies' and the table's checks.
    pub const POSITIVE_EXPONENT: Cause = Cause(|| tr!(MESSAGES, "positive-exponent"));

    /// Positions from 1.
    pub const FROM_ONE: Cause = Cause(|| tr!(MESSAGES, "positions-from-one"));

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
                cause: &INTEGER_DIVISION,
                result: row(&|_| 1.0),
            },
            Misconception {
                cause: &EXPONENT_I,
                result: row(&|i| (10_000.0 as Float).powf(-(i as Float) / d)),
            },
            Misconception {
                cause: &POSITIVE_EXPONENT,
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
                cause: &SWAPPED,
                result: table_with(max_len, d_model, |pos, col| {
                    sin_or_cos(col + 1, pos * omega(col / 2, d_model))
                }),
            },
            Misconception {
                cause: &CONCATENATED,
                result: table_with(max_len, d_model, |pos, col| {
                    if col < half {
                        (pos * omega(col, d_model)).sin()
                    } else {
                        (pos * omega(col - half, d_model)).cos()
                    }
                }),
            },
            Misconception {
                cause: &INTEGER_DIVISION,
                result: with_frequency(&|_| 1.0),
            },
            Misconception {
                cause: &EXPONENT_I,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-((col / 2) as Float) / d)
                }),
            },
            Misconception {
                cause: &EXPONENT_COLUMN,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-(col as Float) / d)
                }),
            },
            Misconception {
                cause: &EXPONENT_TWO_COLUMNS,
                result: with_frequency(&|col| {
                    (10_000.0 as Float).powf(-2.0 * col as Float / d)
                }),
            },
            Misconception {
                cause: &POSITIVE_EXPONENT,
                result: with_frequency(&|col| 1.0 / omega(col / 2, d_model)),
            },
            Misconception {
                cause: &FROM_ONE,
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
                cause: kept(tr!(MESSAGES, "rows-not-scaled")),
                result: rows.clone(),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "rows-times-d-model")),
                result: &rows * d_model,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "rows-divided-by-scale")),
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
                cause: kept(tr!(MESSAGES, "repeated-token-overwritten")),
                result: scatter(&|d, t, token| {
                    d.row_mut(token).assign(&(&d_out.row(t) * scale));
                }),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "repeated-token-first-only")),
                result: first_only,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "embedding-gradient-not-scaled")),
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
            cause: kept(tr!(MESSAGES, "first-position-everywhere")),
            result: x + &table.row(start),
        }];
        if start + n < table.nrows() {
            mistakes.push(Misconception {
                cause: kept(tr!(MESSAGES, "positions-shifted")),
                result: rows(start + 1),
            });
        }
        mistakes.push(Misconception {
            cause: kept(tr!(MESSAGES, "start-ignored")),
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
                cause: kept(tr!(MESSAGES, "encoding-scaled-too")),
                result: (&rows + &pe) * scale,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "embeddings-not-scaled")),
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
                kept(tr!(MESSAGES, "ratio-rows-not-scaled")),
            ),
            (
                mean(&scaled) / mean(table),
                kept(tr!(MESSAGES, "ratio-mean-of-norms")),
            ),
            (
                total(&scaled) / total(table),
                kept(tr!(MESSAGES, "ratio-total-norms")),
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
    use super::{Cause, kept};
    use crate::{MESSAGES, Misconception, tr};
    use course_common::ndarray::{Array2, Axis};
    use course_common::{Float, Matrix, Vector};

    type Mask = Array2<bool>;

    /// γ and β exchanged: named by every LayerNorm check.
    pub const GAMMA_BETA_SWAPPED: Cause = Cause(|| tr!(MESSAGES, "gamma-beta-swapped"));

    /// GELU's tanh approximation in place of the ReLU.
    pub const GELU_TANH: Cause = Cause(|| tr!(MESSAGES, "gelu-tanh"));

    /// The exact GELU in place of the ReLU.
    pub const GELU_ERF: Cause = Cause(|| tr!(MESSAGES, "gelu-erf"));

    /// A post-LN layer that computed pre-LN.
    pub const POST_NOT_PRE: Cause = Cause(|| tr!(MESSAGES, "post-not-pre"));

    /// A pre-LN layer that computed post-LN.
    pub const PRE_NOT_POST: Cause = Cause(|| tr!(MESSAGES, "pre-not-post"));

    /// No residual connection anywhere.
    pub const NO_RESIDUAL: Cause = Cause(|| tr!(MESSAGES, "no-residual"));

    /// A layer whose FFN has no ReLU.
    pub const NO_RELU: Cause = Cause(|| tr!(MESSAGES, "no-relu"));

    /// Every pre-LN residual taken from the normalised input.
    pub const RESIDUAL_FROM_NORM: Cause = Cause(|| tr!(MESSAGES, "residual-from-norm"));

    /// The decoder's cross-attention queried with the layer's input.
    pub const CROSS_QUERIES_FROM_INPUT: Cause =
        Cause(|| tr!(MESSAGES, "cross-queries-from-input"));

    /// The decoder's self-attention without its mask.
    pub const NO_CAUSAL_MASK: Cause = Cause(|| tr!(MESSAGES, "self-mask-ignored"));

    /// The decoder's cross-attention without its mask.
    pub const NO_MEMORY_MASK: Cause = Cause(|| tr!(MESSAGES, "memory-mask-ignored"));

    /// The decoder's cross-attention over its own stream.
    pub const CROSS_OVER_SELF: Cause = Cause(|| tr!(MESSAGES, "cross-over-self"));

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
                cause: kept(tr!(MESSAGES, "unbiased-std-plus-eps")),
                result: affine(variant(x, true, true, eps)),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "annotated-layer-norm")),
                result: affine(variant(x, true, true, 1e-6)),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "unbiased-variance")),
                result: affine(variant(x, true, false, eps)),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "eps-on-std")),
                result: affine(variant(x, false, true, eps)),
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "eps-left-out")),
                result: affine(variant(x, false, false, 0.0)),
            },
        ];
        if x.nrows() > 1 {
            mistakes.push(Misconception {
                cause: kept(tr!(MESSAGES, "columns-normalised")),
                result: affine(normalise(&x.t().to_owned(), eps).t().to_owned()),
            });
        }
        mistakes.extend([
            Misconception {
                cause: &GAMMA_BETA_SWAPPED,
                result: &x_hat * beta + gamma,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "beta-not-added")),
                result: &x_hat * gamma,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "gamma-not-applied")),
                result: &x_hat + beta,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "affine-before-normalising")),
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
                cause: kept(tr!(MESSAGES, "mean-variance-as-constants")),
                result: &g * &r,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "variance-term-missing")),
                result: (&g - &row_mean(&g)) * &r,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "mean-term-missing")),
                result: (&g - &(&x_hat * &row_mean(&(&g * &x_hat)))) * &r,
            },
            Misconception {
                cause: kept(tr!(MESSAGES, "gamma-missing-in-backward")),
                result: (d_y - &row_mean(d_y) - &x_hat * &row_mean(&(d_y * &x_hat))) * &r,
            },
        ];
        let d_gamma = vec![Misconception {
            cause: kept(tr!(MESSAGES, "d-gamma-with-x")),
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
                        cause: kept(tr!(MESSAGES, "hidden-pre-activation")),
                        result: pre_activation,
                    },
                    Misconception {
                        cause: &GELU_TANH,
                        result: tanh_hidden,
                    },
                    Misconception {
                        cause: &GELU_ERF,
                        result: erf_hidden,
                    },
                ],
            ),
            output: differing(
                &output,
                vec![
                    Misconception {
                        cause: kept(tr!(MESSAGES, "ffn-no-relu")),
                        result: no_relu,
                    },
                    Misconception {
                        cause: kept(tr!(MESSAGES, "relu-on-output")),
                        result: output.mapv(relu),
                    },
                    Misconception {
                        cause: &GELU_TANH,
                        result: tanh_output,
                    },
                    Misconception {
                        cause: &GELU_ERF,
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
                cause: kept(tr!(MESSAGES, "relu-gradient-missing")),
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

    /// One residual block, as its residual mistakes name it: its sublayer's name, its
    /// input's, its LayerNorm's and its sublayer's symbol.
    struct Block {
        name: Cause,
        input: &'static str,
        norm: &'static str,
        f: &'static str,
    }

    impl Block {
        /// Post-LN without the residual: `norm(F(input))`.
        fn post_missing(&self) -> &'static str {
            kept(tr!(
                MESSAGES,
                "residual-post-missing",
                name = self.name,
                input = self.input,
                norm = self.norm,
                f = self.f,
            ))
        }

        /// Pre-LN without the residual: `F(norm(input))`.
        fn pre_missing(&self) -> &'static str {
            kept(tr!(
                MESSAGES,
                "residual-pre-missing",
                name = self.name,
                input = self.input,
                norm = self.norm,
                f = self.f,
            ))
        }

        /// Pre-LN with the normalised input on the residual path.
        fn pre_normalised(&self) -> &'static str {
            kept(tr!(
                MESSAGES,
                "residual-pre-normalised",
                name = self.name,
                input = self.input,
                norm = self.norm,
                f = self.f,
            ))
        }
    }

    const SELF_ATTENTION: Cause = Cause(|| tr!(MESSAGES, "block-self-attention"));
    const CROSS_ATTENTION: Cause = Cause(|| tr!(MESSAGES, "block-cross-attention"));
    const FFN: Cause = Cause(|| tr!(MESSAGES, "block-ffn"));

    const ENCODER_BLOCKS: [Block; 2] = [
        Block {
            name: SELF_ATTENTION,
            input: "x",
            norm: "norm_1",
            f: "SA",
        },
        Block {
            name: FFN,
            input: "h",
            norm: "norm_2",
            f: "FFN",
        },
    ];

    const DECODER_BLOCKS: [Block; 3] = [
        Block {
            name: SELF_ATTENTION,
            input: "x",
            norm: "norm_1",
            f: "SA",
        },
        Block {
            name: CROSS_ATTENTION,
            input: "h_1",
            norm: "norm_2",
            f: "CA",
        },
        Block {
            name: FFN,
            input: "h_2",
            norm: "norm_3",
            f: "FFN",
        },
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
                Position::Post => causes.post_missing(),
                Position::Pre => causes.pre_missing(),
            };
            mistakes.push(Misconception {
                cause,
                result: layer(skips),
            });
            if position == Position::Pre {
                skips[i] = Skip::Normalised;
                mistakes.push(Misconception {
                    cause: causes.pre_normalised(),
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
                    Position::Post => POST_NOT_PRE.text(),
                    Position::Pre => PRE_NOT_POST.text(),
                },
                result: with(Slips::none(other(position))),
            },
            Misconception {
                cause: &NO_RESIDUAL,
                result: with(Slips {
                    skips: [Skip::Nothing; 2],
                    ..right
                }),
            },
            Misconception {
                cause: &NO_RELU,
                result: with(Slips {
                    relu: false,
                    ..right
                }),
            },
        ];
        if position == Position::Pre {
            mistakes.push(Misconception {
                cause: &RESIDUAL_FROM_NORM,
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
                cause: kept(tr!(MESSAGES, "mask-not-reaching-self-attention")),
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
                cause: kept(tr!(MESSAGES, "d-key-value-input-left-out")),
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
                Position::Post => POST_NOT_PRE.text(),
                Position::Pre => PRE_NOT_POST.text(),
            },
            result: with(Slips::none(other(position))),
        }];
        if self_mask.is_some() {
            mistakes.push(Misconception {
                cause: &NO_CAUSAL_MASK,
                result: with(Slips {
                    self_mask: false,
                    ..right
                }),
            });
        }
        if memory_mask.is_some() {
            mistakes.push(Misconception {
                cause: &NO_MEMORY_MASK,
                result: with(Slips {
                    memory_mask: false,
                    ..right
                }),
            });
        }
        mistakes.push(Misconception {
            cause: &CROSS_OVER_SELF,
            result: with(Slips {
                cross_over_self: true,
                ..right
            }),
        });
        if position == Position::Pre {
            mistakes.push(Misconception {
                cause: &RESIDUAL_FROM_NORM,
                result: with(Slips {
                    skips: [Skip::Normalised; 3],
                    ..right
                }),
            });
        }
        mistakes.extend([
            Misconception {
                cause: &NO_RESIDUAL,
                result: with(Slips {
                    skips: [Skip::Nothing; 3],
                    ..right
                }),
            },
            Misconception {
                cause: &NO_RELU,
                result: with(Slips {
                    relu: false,
                    ..right
                }),
            },
            Misconception {
                cause: &CROSS_QUERIES_FROM_INPUT,
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
    pub const LOG_SOFTMAX_OVERFLOW: Cause =
        Cause(|| tr!(MESSAGES, "log-softmax-overflow"));

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
        let gradient =
            |divisor, zero| loss_with(logits, targets, smoothing, divisor, zero).1;
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
}
