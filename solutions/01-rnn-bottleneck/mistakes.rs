//! Lesson 01: the Elman RNN's step, forward pass, context vector and backpropagation
//! through time.
//!
//! The builders take the cell's parameters as a [`Cell`] of borrowed matrices
//! (this crate knows no lesson's types) and compute the step themselves:
//! `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)`, every weight `(d_out, d_in)`.

use crate::differing;
use course_common::ndarray::{Axis, s};
use course_common::{Float, Matrix, Vector};
use course_harness::Cause;
use course_harness::causes::rnn::*;
use course_harness::{Groups, Misconception};

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
pub fn step_mistakes(cell: &Cell, x: &Matrix, h: &Matrix) -> Vec<Misconception> {
    let z = cell.pre_activation(x, h);
    vec![
        Misconception {
            cause: W_HH_NOT_TRANSPOSED,
            result: (x.dot(&cell.w_xh.t()) + h.dot(cell.w_hh) + cell.b).mapv(Float::tanh),
        },
        Misconception {
            cause: Cause::harness("bias-not-added"),
            result: (&z - cell.b).mapv(Float::tanh),
        },
        Misconception {
            cause: Cause::harness("no-tanh"),
            result: z,
        },
        Misconception {
            cause: Cause::harness("previous-state-left-out"),
            result: (x.dot(&cell.w_xh.t()) + cell.b).mapv(Float::tanh),
        },
    ]
}

/// The wrong gradients of `step_backward`, one list per gradient (`d_b` as a
/// `(1, d_hidden)` row).
pub struct StepBackwardMistakes {
    /// For `d_x`: the four slips of tanh'.
    pub d_x: Vec<Misconception>,
    /// For `d_h`: the slips of tanh', and dz W_hhᵀ.
    pub d_h: Vec<Misconception>,
    /// For `d_w_xh`: the slips of tanh'.
    pub d_w_xh: Vec<Misconception>,
    /// For `d_w_hh`: the slips of tanh', hᵀ dz, and the new state in place of h.
    pub d_w_hh: Vec<Misconception>,
    /// For `d_b`: the slips of tanh'.
    pub d_b: Vec<Misconception>,
}

impl From<StepBackwardMistakes> for Groups {
    fn from(mistakes: StepBackwardMistakes) -> Groups {
        Groups::new([
            ("d_x", mistakes.d_x),
            ("d_h", mistakes.d_h),
            ("d_w_xh", mistakes.d_w_xh),
            ("d_w_hh", mistakes.d_w_hh),
            ("d_b", mistakes.d_b),
        ])
    }
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
            Cause::harness("tanh-prime-at-z"),
            d_h_next * &z.mapv(|v| 1.0 - v * v),
        ),
        (
            Cause::harness("tanh-prime-from-previous-state"),
            d_h_next * &h.mapv(|v| 1.0 - v * v),
        ),
        (Cause::harness("tanh-skipped-in-backward"), d_h_next.clone()),
        (
            Cause::harness("tanh-prime-unsquared"),
            d_h_next * &h_next.mapv(|v| 1.0 - v),
        ),
    ];
    let tanh_mistakes = |grad: &dyn Fn(&Matrix) -> Matrix| -> Vec<Misconception> {
        slips
            .iter()
            .map(|(cause, d_z)| Misconception {
                cause: *cause,
                result: grad(d_z),
            })
            .collect()
    };
    let mut d_h = tanh_mistakes(&|dz| dz.dot(cell.w_hh));
    d_h.push(Misconception {
        cause: Cause::harness("d-h-through-w-hh-transposed"),
        result: d_z.dot(&cell.w_hh.t()),
    });
    let mut d_w_hh = tanh_mistakes(&|dz| dz.t().dot(h));
    d_w_hh.extend([
        Misconception {
            cause: Cause::harness("d-w-hh-transposed"),
            result: h.t().dot(&d_z),
        },
        Misconception {
            cause: Cause::harness("d-w-hh-from-new-state"),
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
pub fn forward_mistakes(cell: &Cell, xs: &Matrix, h0: &Vector) -> Vec<Misconception> {
    let h0_everywhere = Matrix::from_shape_fn((xs.nrows(), h0.len()), |(_, j)| h0[j]);
    let mut shifted = states(cell, xs, h0);
    if xs.nrows() > 0 {
        let earlier = shifted.slice(s![..-1, ..]).to_owned();
        shifted.slice_mut(s![1.., ..]).assign(&earlier);
        shifted.row_mut(0).assign(h0);
    }
    vec![
        Misconception {
            cause: Cause::harness("every-step-from-h0"),
            result: cell.step(xs, &h0_everywhere),
        },
        Misconception {
            cause: Cause::harness("states-shifted"),
            result: shifted,
        },
    ]
}

/// What `encode` returns (as a `(1, d_hidden)` row) when the context is the first state
/// or the mean of the `states`; none for a single state, where both are right.
pub fn context_mistakes(states: &Matrix) -> Vec<Misconception> {
    if states.nrows() < 2 {
        return Vec::new();
    }
    vec![
        Misconception {
            cause: Cause::harness("context-first-state"),
            result: states.slice(s![..1, ..]).to_owned(),
        },
        Misconception {
            cause: Cause::harness("context-mean-of-states"),
            result: states
                .mean_axis(Axis(0))
                .expect("two states or more")
                .insert_axis(Axis(0)),
        },
    ]
}

/// What the Jacobian ∂h_T/∂h_0 at the origin (where it is W_hh^T, the T-th power)
/// comes out as with W_hh transposed in the backward or the forward pass.
pub fn origin_jacobian_mistakes(w_hh: &Matrix, steps: usize) -> Vec<Misconception> {
    let mut power = Matrix::eye(w_hh.nrows());
    for _ in 0..steps {
        power = power.dot(w_hh);
    }
    vec![Misconception {
        cause: Cause::harness("origin-jacobian-transposed"),
        result: power.t().to_owned(),
    }]
}

/// The wrong gradients of `backward`, one list per gradient (`d_h0` and `d_b` as
/// `(1, d_hidden)` rows); each list leaves out the slips that give the right answer
/// for these inputs, so that they never name a correct result.
pub struct BpttMistakes {
    /// For `d_xs`.
    pub d_xs: Vec<Misconception>,
    /// For `d_h0`.
    pub d_h0: Vec<Misconception>,
    /// For `d_w_xh`.
    pub d_w_xh: Vec<Misconception>,
    /// For `d_w_hh`.
    pub d_w_hh: Vec<Misconception>,
    /// For `d_b`.
    pub d_b: Vec<Misconception>,
}

impl From<BpttMistakes> for Groups {
    fn from(mistakes: BpttMistakes) -> Groups {
        Groups::new([
            ("d_xs", mistakes.d_xs),
            ("d_h0", mistakes.d_h0),
            ("d_w_xh", mistakes.d_w_xh),
            ("d_w_hh", mistakes.d_w_hh),
            ("d_b", mistakes.d_b),
        ])
    }
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
        (Slip::Overwritten, Cause::harness("bptt-overwritten")),
        (Slip::LastStepOnly, Cause::harness("bptt-last-step-only")),
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
                cause: *cause,
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
