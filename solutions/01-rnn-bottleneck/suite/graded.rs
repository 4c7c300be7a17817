//! Graded tests of lesson 01, the RNN bottleneck.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. They call only the lesson's public API,
//! so any correct implementation passes. Each test names the property it checks; every
//! fixture is a hand-computed value, a value from NumPy (float64, which
//! solutions/01-rnn-bottleneck/reference.py writes into `graded.json` beside this file), a numerical
//! gradient, or an exact mathematical property.
//!
//! The layout throughout is the course's: `h' = tanh(x W_xhᵀ + h W_hhᵀ + b)` with `W_xh`
//! `(d_hidden, d_in)` and `W_hh` `(d_hidden, d_hidden)`.
//!
//! Every call into the lesson goes through `observe` (in the helpers `step`,
//! `step_backward`, `forward`, `backward` and `encode` below), so that the checker's judge
//! can replay the values it returned (see `course_harness::tape`).

use course_common::ndarray::{Axis, array, s};
use course_common::{Float, Matrix, Vector};
use course_harness::causes::rnn::W_HH_NOT_TRANSPOSED;
use course_harness::gradient::{MAX_RELATIVE_ERROR, STEP, weighted_sum};
use course_harness::{
    Catalog, Cause, Groups, Misconception, Named, Reference, Tol, assert_all_finite,
    assert_gradient_close, assert_matrix_close, assert_same_shape, graded, linspace,
    linspace_matrix, named, numerical_gradient, observe, relative_error, tr,
};
#[cfg(feature = "builders")]
use course_mistakes::rnn::{
    Cell, bptt_mistakes, context_mistakes, forward_mistakes, origin_jacobian_mistakes,
    step_backward_mistakes, step_mistakes,
};
use rnn::{Rnn, RnnGrads, StepGrads, as_row, row};
use std::sync::LazyLock;

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named =
    Named::new(file!(), &[&MESSAGES], include_str!("graded.named.json"));

/// The values NumPy computed for these tests (see the module docs), by name.
static NUMPY: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse("01-rnn-bottleneck/graded.json", include_str!("graded.json"))
});

/// This suite's messages, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "01-rnn-bottleneck",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

/// The cell's parameters as the builders of wrong answers (`course_mistakes::rnn`)
/// take them.
#[cfg(feature = "builders")]
fn params(cell: &Rnn) -> Cell<'_> {
    Cell {
        w_xh: &cell.w_xh,
        w_hh: &cell.w_hh,
        b: &cell.b,
    }
}

/// Matrix versions of vectors, to compare them with the matrix checks.
fn as_matrix(v: &Vector) -> Matrix {
    v.clone().insert_axis(Axis(0))
}

// ---------------------------------------------------------------------------------------
// Calls into the lesson, each observed
// ---------------------------------------------------------------------------------------
//
// The cells are built with `Rnn::new`, which the lesson gives complete; the methods below
// are the learner's, so every call goes through `observe` and returns course types only.

/// `cell.step(x, h)`.
fn step(cell: &Rnn, x: &Matrix, h: &Matrix) -> Matrix {
    let _args = course_harness::call_args!(x, h);
    observe("Rnn::step", || cell.step(x, h))
}

// The lesson's gradient structs go on the tape through `observe_parts`, with the course's
// one way to take them apart.
course_harness::tape_structs! {
    StepGrads { d_x: Matrix, d_h: Matrix, d_w_xh: Matrix, d_w_hh: Matrix, d_b: Vector }
    RnnGrads { d_xs: Matrix, d_h0: Vector, d_w_xh: Matrix, d_w_hh: Matrix, d_b: Vector }
}

/// The numerical gradients of `Σ upstream ⊙ step(x, h)` with respect to x, h and each
/// parameter: what `step_backward` must return, from the step alone.
fn step_numerical_gradients(
    cell: &Rnn,
    x: &Matrix,
    h: &Matrix,
    upstream: &Matrix,
) -> StepGrads {
    let loss =
        |cell: &Rnn, x: &Matrix, h: &Matrix| weighted_sum(&step(cell, x, h), upstream);
    let with = |w_xh: &Matrix, w_hh: &Matrix, b: &Vector| {
        Rnn::new(w_xh.clone(), w_hh.clone(), b.clone())
    };
    StepGrads {
        d_x: numerical_gradient(|x| loss(cell, x, h), x, STEP),
        d_h: numerical_gradient(|h| loss(cell, x, h), h, STEP),
        d_w_xh: numerical_gradient(
            |w| loss(&with(w, &cell.w_hh, &cell.b), x, h),
            &cell.w_xh,
            STEP,
        ),
        d_w_hh: numerical_gradient(
            |w| loss(&with(&cell.w_xh, w, &cell.b), x, h),
            &cell.w_hh,
            STEP,
        ),
        d_b: numerical_gradient(
            |b| loss(&with(&cell.w_xh, &cell.w_hh, &b.row(0).to_owned()), x, h),
            &as_matrix(&cell.b),
            STEP,
        )
        .row(0)
        .to_owned(),
    }
}

/// `cell.step_backward(x, h, h_next, d_h_next)`.
fn step_backward(
    cell: &Rnn,
    x: &Matrix,
    h: &Matrix,
    h_next: &Matrix,
    d_h_next: &Matrix,
) -> StepGrads {
    let _args = course_harness::call_args!(x, h, h_next, d_h_next);
    observe_parts("Rnn::step_backward", || {
        cell.step_backward(x, h, h_next, d_h_next)
    })
}

/// `cell.forward(xs, h0)`.
fn forward(cell: &Rnn, xs: &Matrix, h0: &Vector) -> Matrix {
    let _args = course_harness::call_args!(xs, h0);
    observe("Rnn::forward", || cell.forward(xs, h0))
}

/// `cell.backward(xs, h0, states, d_states)`.
fn backward(
    cell: &Rnn,
    xs: &Matrix,
    h0: &Vector,
    states: &Matrix,
    d_states: &Matrix,
) -> RnnGrads {
    let _args = course_harness::call_args!(xs, h0, states, d_states);
    observe_parts("Rnn::backward", || cell.backward(xs, h0, states, d_states))
}

/// `cell.encode(xs, h0)`.
fn encode(cell: &Rnn, xs: &Matrix, h0: &Vector) -> Vector {
    let _args = course_harness::call_args!(xs, h0);
    observe("Rnn::encode", || cell.encode(xs, h0))
}

/// Like `assert_gradient_close`, but if the gradient matches a known wrong one, the
/// message names that mistake.
#[track_caller]
fn assert_gradient(
    what: &str,
    analytic: &Matrix,
    numerical: &Matrix,
    hint: &str,
    mistakes: &[Misconception],
) {
    let named = mistakes.iter().find(|m| {
        m.result.dim() == analytic.dim()
            && relative_error(analytic, numerical) > MAX_RELATIVE_ERROR
            && relative_error(analytic, &m.result) <= MAX_RELATIVE_ERROR
    });
    match named {
        Some(mistake) => assert_gradient_close(
            what,
            analytic,
            numerical,
            &tr!(
                MESSAGES,
                "gradient-known-mistake",
                cause = mistake.cause,
                hint = hint
            ),
        ),
        None => assert_gradient_close(what, analytic, numerical, hint),
    }
}

// ---------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------

/// An `(n, n)` orthogonal matrix times `scale`, built here (not with the lesson's own
/// `orthogonal`, which a submission could change): the identity rotated in every plane
/// `(p, r)`, `p < r`, by the fixed angle `0.3 + 0.9 (p + 2r)`. Every singular value is
/// `|scale|`.
fn rotation(n: usize, scale: Float) -> Matrix {
    let mut q = Matrix::eye(n);
    for p in 0..n {
        for r in p + 1..n {
            let (sin, cos) = (0.3 + 0.9 * (p + 2 * r) as Float).sin_cos();
            let (row_p, row_r) = (q.row(p).to_owned(), q.row(r).to_owned());
            q.row_mut(p).assign(&(cos * &row_p - sin * &row_r));
            q.row_mut(r).assign(&(sin * &row_p + cos * &row_r));
        }
    }
    q * scale
}

/// The largest singular value of `m`, by power iteration on `mᵀ m` (built here, not
/// with the lesson's `spectral_norm`, which a submission could change).
fn largest_singular_value(m: &Matrix) -> Float {
    let mut v = Vector::from_shape_fn(m.ncols(), |i| 1.0 + 0.1 * i as Float);
    let mut rayleigh = 0.0;
    for _ in 0..2_000 {
        let norm = v.dot(&v).sqrt();
        if norm == 0.0 {
            return 0.0;
        }
        v /= norm;
        let w = m.t().dot(&m.dot(&v));
        rayleigh = v.dot(&w);
        v = w;
    }
    Float::sqrt(rayleigh)
}

/// CS231n's `rnn_step_forward` fixture (N, D, H = 3, 10, 4), in the course's layout:
/// CS231n's `Wx` `(D, H)` and `Wh` `(H, H)` are our `W_xhᵀ` and `W_hhᵀ`.
fn cs231n_cell() -> Rnn {
    Rnn::new(
        linspace_matrix(10, 4, -0.1, 0.9).t().to_owned(),
        linspace_matrix(4, 4, -0.3, 0.7).t().to_owned(),
        Vector::from(linspace(-0.2, 0.4, 4)),
    )
}

/// A small cell, d_in = 3, d_hidden = 4, and the sequence it reads (T = 5).
fn small_cell() -> Rnn {
    Rnn::new(
        linspace_matrix(4, 3, -0.5, 0.7),
        linspace_matrix(4, 4, 0.6, -0.5),
        Vector::from(linspace(-0.1, 0.25, 4)),
    )
}

fn small_sequence() -> (Matrix, Vector) {
    (
        linspace_matrix(5, 3, -0.9, 1.2),
        Vector::from(linspace(0.3, -0.4, 4)),
    )
}

/// A cell whose W_hh has singular values 0.95, 0.7, 0.5, 0.2 exactly: an orthogonal
/// matrix (whose columns it scales) times a diagonal one.
fn contracting_cell() -> Rnn {
    let diagonal = Matrix::from_diag(&Vector::from(vec![0.95, 0.7, 0.5, 0.2]));
    Rnn::new(
        linspace_matrix(4, 3, 0.8, -0.6),
        rotation(4, 1.0).dot(&diagonal),
        Vector::from(linspace(0.2, -0.1, 4)),
    )
}

// ---------------------------------------------------------------------------------------
// One step
// ---------------------------------------------------------------------------------------

/// One step on CS231n's fixture gives the numbers its notebook prints (first row) and
/// NumPy computes (all three rows of the batch).
#[test]
fn step_matches_the_cs231n_fixture() {
    graded(|| {
        let cell = cs231n_cell();
        let x = linspace_matrix(3, 10, -0.4, 0.7);
        let h = linspace_matrix(3, 4, -0.2, 0.5);
        let expected = NUMPY.matrix("step_cs231n");
        assert_matrix_close(
            &tr!(MESSAGES, "label-step-cs231n"),
            &step(&cell, &x, &h),
            &expected,
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &named!(NAMED, step_mistakes(&params(&cell), &x, &h)),
        );
    });
}

/// Both weights are transposed, by hand: with W_xh = [[1, 2], [0, 1]], x = [1, −1],
/// W_hh = [[0.5, 0], [1, 0.5]], h = [2, 0] and b = [0.5, −0.5], the pre-activation is
/// [−1 + 1 + 0.5, −1 + 2 − 0.5] = [0.5, 0.5], so h' = [tanh 0.5, tanh 0.5].
#[test]
fn step_transposes_both_weights_on_a_hand_computed_example() {
    graded(|| {
        let cell = Rnn::new(
            array![[1.0, 2.0], [0.0, 1.0]],
            array![[0.5, 0.0], [1.0, 0.5]],
            Vector::from(vec![0.5, -0.5]),
        );
        let (x, h) = (array![[1.0, -1.0]], array![[2.0, 0.0]]);
        let t = |z: Float| z.tanh();
        let expected = array![[t(0.5), t(0.5)]];
        let mistakes = [
            Misconception {
                cause: Cause::new(&MESSAGES, "neither-weight-transposed"),
                result: array![[t(2.5), t(0.5)]],
            },
            Misconception {
                cause: Cause::new(&MESSAGES, "w-xh-not-transposed"),
                result: array![[t(2.5), t(2.5)]],
            },
            Misconception {
                cause: W_HH_NOT_TRANSPOSED,
                result: array![[t(0.5), t(-1.5)]],
            },
        ];
        assert_matrix_close(
            "step(x = [1, −1], h = [2, 0])",
            &step(&cell, &x, &h),
            &expected,
            Tol::TIGHT,
            &mistakes,
        );
    });
}

/// The backward pass of one step agrees with central differences for x, h, W_xh, W_hh
/// and b, on CS231n's fixture (a batch of three rows, d_in ≠ d_hidden).
#[test]
fn step_backward_matches_numerical_gradients() {
    graded(|| {
        let cell = cs231n_cell();
        let x = linspace_matrix(3, 10, -0.4, 0.7);
        let h = linspace_matrix(3, 4, -0.2, 0.5);
        let upstream = linspace_matrix(3, 4, 0.9, -1.1);
        let h_next = step(&cell, &x, &h);
        let StepGrads {
            d_x,
            d_h,
            d_w_xh,
            d_w_hh,
            d_b,
        } = step_backward(&cell, &x, &h, &h_next, &upstream);

        // What the usual slips give, to name them.
        let mistakes = named!(NAMED, Groups::from(step_backward_mistakes(&params(&cell), &x, &h, &params(&cell).step(&x, &h), &upstream)) => Groups);

        let StepGrads {
            d_x: num_x,
            d_h: num_h,
            d_w_xh: num_w_xh,
            d_w_hh: num_w_hh,
            d_b: num_b,
        } = step_numerical_gradients(&cell, &x, &h, &upstream);
        let num_b = as_matrix(&num_b);

        let label = |name: &str| tr!(MESSAGES, "label-step-gradient", name = name);
        assert_gradient(
            &label("d_x"),
            &d_x,
            &num_x,
            &tr!(MESSAGES, "hint-step-d-x"),
            &mistakes["d_x"],
        );
        assert_gradient(
            &label("d_h"),
            &d_h,
            &num_h,
            "dh = dz W_hh",
            &mistakes["d_h"],
        );
        assert_gradient(
            &label("d_w_xh"),
            &d_w_xh,
            &num_w_xh,
            &tr!(MESSAGES, "hint-step-d-w-xh"),
            &mistakes["d_w_xh"],
        );
        assert_gradient(
            &label("d_w_hh"),
            &d_w_hh,
            &num_w_hh,
            &tr!(MESSAGES, "hint-step-d-w-hh"),
            &mistakes["d_w_hh"],
        );
        assert_gradient(
            &label("d_b"),
            &as_matrix(&d_b),
            &num_b,
            &tr!(MESSAGES, "hint-step-d-b"),
            &mistakes["d_b"],
        );
    });
}

// ---------------------------------------------------------------------------------------
// A whole sequence
// ---------------------------------------------------------------------------------------

/// The forward pass over five tokens matches NumPy, state by state.
#[test]
fn forward_matches_the_reference_states() {
    graded(|| {
        let cell = small_cell();
        let (xs, h0) = small_sequence();
        let expected = NUMPY.matrix("forward_states");
        let mistakes = named!(NAMED, forward_mistakes(&params(&cell), &xs, &h0));
        let states = forward(&cell, &xs, &h0);
        assert_same_shape(
            &tr!(MESSAGES, "label-forward-states-shape", len = 5, hidden = 4),
            &states,
            (5, 4),
        );
        assert_matrix_close(
            &tr!(MESSAGES, "label-forward-states"),
            &states,
            &expected,
            Tol {
                abs: 1e-9,
                rel: 0.0,
            },
            &mistakes,
        );
    });
}

/// Each state is one step from the one before: `states[t] = step(x_t, states[t − 1])`,
/// and `states[0] = step(x_0, h0)`.
#[test]
fn each_state_is_one_step_from_the_previous_one() {
    graded(|| {
        let cell = contracting_cell();
        let xs = linspace_matrix(7, 3, 1.0, -1.3);
        let h0 = Vector::from(linspace(-0.5, 0.5, 4));
        let states = forward(&cell, &xs, &h0);
        assert_same_shape(
            &tr!(MESSAGES, "label-forward-states-shape", len = 7, hidden = 4),
            &states,
            (7, 4),
        );
        for t in 0..7 {
            let previous = if t == 0 {
                as_row(&h0)
            } else {
                row(&states, t - 1)
            };
            assert_matrix_close(
                &tr!(MESSAGES, "label-state-against-step", t = t),
                &row(&states, t),
                &step(&cell, &row(&xs, t), &previous),
                Tol::TIGHT,
                &[],
            );
        }
    });
}

/// An empty sequence has no states; its context vector is h0 (nothing was read); its
/// gradients are empty for the inputs and zero for h0 and every parameter.
#[test]
fn an_empty_sequence_has_no_states_and_its_context_is_h0() {
    graded(|| {
        let cell = small_cell();
        let (_, h0) = small_sequence();
        let nothing = Matrix::zeros((0, 3));
        let states = forward(&cell, &nothing, &h0);
        assert_same_shape(&tr!(MESSAGES, "label-forward-empty"), &states, (0, 4));
        let context = encode(&cell, &nothing, &h0);
        assert!(
            context == h0,
            "{}",
            tr!(
                MESSAGES,
                "encode-empty-not-h0",
                h0 = h0.to_string(),
                context = context.to_string()
            )
        );
        let RnnGrads {
            d_xs,
            d_h0,
            d_w_xh,
            d_w_hh,
            d_b,
        } = backward(&cell, &nothing, &h0, &states, &Matrix::zeros((0, 4)));
        let of_empty = |name: &str| tr!(MESSAGES, "label-gradient-of-empty", name = name);
        assert_same_shape(&of_empty("d_xs"), &d_xs, (0, 3));
        let zero = |name: &str, m: &Matrix, shape: (usize, usize)| {
            let what = of_empty(name);
            assert_matrix_close(&what, m, &Matrix::zeros(shape), Tol::TIGHT, &[]);
        };
        zero("d_h0", &as_matrix(&d_h0), (1, 4));
        zero("d_w_xh", &d_w_xh, (4, 3));
        zero("d_w_hh", &d_w_hh, (4, 4));
        zero("d_b", &as_matrix(&d_b), (1, 4));
    });
}

/// A sequence of one token is one step: its single state is `step(x_0, h0)`, its
/// context is that state, and its gradients are those of `step_backward`.
#[test]
fn a_one_token_sequence_is_one_step() {
    graded(|| {
        let cell = small_cell();
        let (xs, h0) = small_sequence();
        let x0 = row(&xs, 0);
        let h_1 = step(&cell, &x0, &as_row(&h0));
        let states = forward(&cell, &x0, &h0);
        assert_matrix_close(
            &tr!(MESSAGES, "label-forward-one-token"),
            &states,
            &h_1,
            Tol::TIGHT,
            &[],
        );
        assert_matrix_close(
            &tr!(MESSAGES, "label-encode-one-token"),
            &as_matrix(&encode(&cell, &x0, &h0)),
            &h_1,
            Tol::TIGHT,
            &[],
        );
        let upstream = array![[0.3, -1.0, 0.6, 0.25]];
        // What the step's gradients are, from the step itself: numerically, not from
        // step_backward, so that a wrong step_backward is not blamed on backward.
        let step = step_numerical_gradients(&cell, &x0, &as_row(&h0), &upstream);
        let bptt = backward(&cell, &x0, &h0, &states, &upstream);
        // dW_hh with the step's own output in place of the state before it (h0 here).
        let own_output = named!(NAMED, Groups::from(bptt_mistakes(&params(&cell), &x0, &h0, &upstream)) => Groups)["d_w_hh"].to_vec();
        let pairs: [(&str, &Matrix, &Matrix, &[Misconception]); 5] = [
            ("d_xs", &bptt.d_xs, &step.d_x, &[]),
            ("d_h0", &as_matrix(&bptt.d_h0), &step.d_h, &[]),
            ("d_w_xh", &bptt.d_w_xh, &step.d_w_xh, &[]),
            ("d_w_hh", &bptt.d_w_hh, &step.d_w_hh, &own_output),
            ("d_b", &as_matrix(&bptt.d_b), &as_matrix(&step.d_b), &[]),
        ];
        for (name, got, expected, mistakes) in pairs {
            assert_gradient(
                &tr!(MESSAGES, "label-backward-one-token", name = name),
                got,
                expected,
                &tr!(MESSAGES, "hint-backward-one-token"),
                mistakes,
            );
        }
    });
}

/// The context vector is the last state, for every length from 1 to 6, and it is not
/// the first state or the mean of the states.
#[test]
fn the_context_vector_is_the_last_state() {
    graded(|| {
        let cell = contracting_cell();
        let xs = linspace_matrix(6, 3, -1.0, 1.0);
        let h0 = Vector::from(linspace(0.5, -0.5, 4));
        for len in 1..=6 {
            let prefix = xs.slice(s![..len, ..]).to_owned();
            let states = forward(&cell, &prefix, &h0);
            assert_matrix_close(
                &tr!(MESSAGES, "label-encode-first-tokens", len = len),
                &as_matrix(&encode(&cell, &prefix, &h0)),
                &row(&states, len - 1),
                Tol::TIGHT,
                &named!(
                    NAMED,
                    context_mistakes(&course_mistakes::rnn::states(
                        &params(&cell),
                        &prefix,
                        &h0
                    ))
                ),
            );
        }
    });
}

// ---------------------------------------------------------------------------------------
// Backpropagation through time
// ---------------------------------------------------------------------------------------

/// Backpropagation through time agrees with central differences for every input and the
/// initial state, with a loss that reads every state.
#[test]
fn bptt_gradients_of_the_inputs_and_h0_match_numerical_gradients() {
    graded(|| {
        let cell = small_cell();
        let (xs, h0) = small_sequence();
        let upstream = linspace_matrix(5, 4, 0.5, -1.0);
        let states = forward(&cell, &xs, &h0);
        let grads = backward(&cell, &xs, &h0, &states, &upstream);
        assert_same_shape("d_xs", &grads.d_xs, (5, 3));
        assert_all_finite("d_xs", &grads.d_xs, &tr!(MESSAGES, "hint-check-every-step"));

        let loss =
            |xs: &Matrix, h0: &Vector| weighted_sum(&forward(&cell, xs, h0), &upstream);
        let num_xs = numerical_gradient(|xs| loss(xs, &h0), &xs, STEP);
        let num_h0 = numerical_gradient(
            |h| loss(&xs, &h.row(0).to_owned()),
            &as_matrix(&h0),
            STEP,
        );
        let mistakes = named!(NAMED, Groups::from(bptt_mistakes(&params(&cell), &xs, &h0, &upstream)) => Groups);
        assert_gradient(
            "BPTT d_xs",
            &grads.d_xs,
            &num_xs,
            &tr!(MESSAGES, "hint-bptt-d-xs"),
            &mistakes["d_xs"],
        );
        assert_gradient(
            "BPTT d_h0",
            &as_matrix(&grads.d_h0),
            &num_h0,
            &tr!(MESSAGES, "hint-bptt-d-h0"),
            &mistakes["d_h0"],
        );
    });
}

/// The weights are shared by every step, so their gradients are sums over the steps;
/// they agree with central differences.
#[test]
fn bptt_gradients_of_the_weights_are_summed_over_the_steps() {
    graded(|| {
        let cell = small_cell();
        let (xs, h0) = small_sequence();
        let upstream = linspace_matrix(5, 4, 0.5, -1.0);
        let states = forward(&cell, &xs, &h0);
        let grads = backward(&cell, &xs, &h0, &states, &upstream);
        let loss = |cell: &Rnn| weighted_sum(&forward(cell, &xs, &h0), &upstream);
        let num_w_xh = numerical_gradient(
            |w| loss(&Rnn::new(w.clone(), cell.w_hh.clone(), cell.b.clone())),
            &cell.w_xh,
            STEP,
        );
        let num_w_hh = numerical_gradient(
            |w| loss(&Rnn::new(cell.w_xh.clone(), w.clone(), cell.b.clone())),
            &cell.w_hh,
            STEP,
        );
        let num_b = numerical_gradient(
            |b| {
                loss(&Rnn::new(
                    cell.w_xh.clone(),
                    cell.w_hh.clone(),
                    b.row(0).to_owned(),
                ))
            },
            &as_matrix(&cell.b),
            STEP,
        );
        let mistakes = named!(NAMED, Groups::from(bptt_mistakes(&params(&cell), &xs, &h0, &upstream)) => Groups);
        assert_gradient(
            "BPTT d_w_xh",
            &grads.d_w_xh,
            &num_w_xh,
            &tr!(MESSAGES, "hint-bptt-d-w-xh"),
            &mistakes["d_w_xh"],
        );
        assert_gradient(
            "BPTT d_w_hh",
            &grads.d_w_hh,
            &num_w_hh,
            &tr!(MESSAGES, "hint-bptt-d-w-hh"),
            &mistakes["d_w_hh"],
        );
        assert_gradient(
            "BPTT d_b",
            &as_matrix(&grads.d_b),
            &num_b,
            &tr!(MESSAGES, "hint-bptt-d-b"),
            &mistakes["d_b"],
        );
    });
}

// ---------------------------------------------------------------------------------------
// Why gradients vanish or explode
// ---------------------------------------------------------------------------------------

/// The Jacobian ∂h_T/∂h_t, read from `backward`: row k is the d_h0 of a run from h_t over
/// the remaining tokens with upstream e_k on the last state.
fn jacobian_from_backward(cell: &Rnn, xs: &Matrix, h_start: &Vector) -> Matrix {
    let (len, n) = (xs.nrows(), cell.d_hidden());
    let states = forward(cell, xs, h_start);
    let mut jacobian = Matrix::zeros((n, n));
    for k in 0..n {
        let mut upstream = Matrix::zeros((len, n));
        upstream[[len - 1, k]] = 1.0;
        let grads = backward(cell, xs, h_start, &states, &upstream);
        assert_eq!(grads.d_h0.len(), n, "{}", tr!(MESSAGES, "d-h0-length"));
        jacobian.row_mut(k).assign(&grads.d_h0);
    }
    jacobian
}

/// At the origin (zero inputs, zero bias, h0 = 0) every state is 0, tanh' = 1, and the
/// network is linear: ∂h_T/∂h_0 = W_hh^T exactly (the T-th matrix power). With
/// W_hh = 0.5 Q (Q orthogonal), its largest singular value is 0.5^T: the bound
/// ‖∂h_T/∂h_0‖ ≤ σ_max(W_hh)^T is reached.
#[test]
fn at_the_origin_the_jacobian_is_the_power_of_w_hh() {
    graded(|| {
        let (n, len, sigma) = (5, 6, 0.5);
        let cell = Rnn::new(
            linspace_matrix(n, 2, -1.0, 1.0),
            rotation(n, sigma),
            Vector::zeros(n),
        );
        let xs = Matrix::zeros((len, 2));
        let jacobian = jacobian_from_backward(&cell, &xs, &Vector::zeros(n));
        let mut power = Matrix::eye(n);
        for _ in 0..len {
            power = power.dot(&cell.w_hh);
        }
        assert_matrix_close(
            &tr!(MESSAGES, "label-origin-jacobian"),
            &jacobian,
            &power,
            Tol::TIGHT,
            &named!(NAMED, origin_jacobian_mistakes(&cell.w_hh, len)),
        );
        let norm = largest_singular_value(&jacobian);
        let bound = sigma.powi(len as i32);
        assert!(
            (norm - bound).abs() <= 1e-12,
            "{}",
            tr!(
                MESSAGES,
                "origin-singular-value",
                bound = bound.to_string(),
                norm = norm.to_string()
            )
        );
    });
}

/// Away from the origin, ∂h_T/∂h_t (read from `backward`) agrees with central
/// differences and obeys ‖∂h_T/∂h_t‖ ≤ σ_max(W_hh)^(T−t), since |tanh'| ≤ 1; here
/// σ_max(W_hh) = 0.95, so the gradient reaching early states shrinks geometrically.
#[test]
fn the_jacobian_obeys_the_geometric_bound() {
    graded(|| {
        let cell = contracting_cell();
        let len = 8;
        let xs = linspace_matrix(len, 3, -1.2, 0.9);
        let h0 = Vector::from(linspace(0.4, -0.6, 4));
        let states = forward(&cell, &xs, &h0);
        for t in 0..len {
            // Start at h_t (h0, or the state after token t − 1) and read tokens t...
            let h_t = if t == 0 {
                h0.clone()
            } else {
                states.row(t - 1).to_owned()
            };
            let rest = xs.slice(s![t.., ..]).to_owned();
            let jacobian = jacobian_from_backward(&cell, &rest, &h_t);
            let mut numerical = Matrix::zeros((4, 4));
            for k in 0..4 {
                let unit = numerical_gradient(
                    |h| forward(&cell, &rest, &h.row(0).to_owned())[[len - t - 1, k]],
                    &as_matrix(&h_t),
                    STEP,
                );
                numerical.row_mut(k).assign(&unit.row(0));
            }
            assert_gradient_close(
                &tr!(MESSAGES, "label-jacobian-rows", len = len, t = t),
                &jacobian,
                &numerical,
                &tr!(MESSAGES, "hint-jacobian"),
            );
            let norm = largest_singular_value(&jacobian);
            let bound = (0.95 as Float).powi((len - t) as i32);
            assert!(
                norm <= bound * (1.0 + 1e-9),
                "{}",
                tr!(
                    MESSAGES,
                    "jacobian-exceeds-bound",
                    len = len,
                    t = t,
                    norm = norm.to_string(),
                    power = len - t,
                    bound = bound.to_string()
                )
            );
        }
    });
}

/// The gradient of the last state with respect to the first token vanishes for a
/// contracting W_hh: ‖∂h_T/∂x_0‖ ≤ σ_max(W_hh)^(T−1) · σ_max(W_xh), so the gradient of
/// Σ h_T (an upstream of ones, norm √d_hidden) for x_0 is at most √d_hidden times that.
/// With σ_max(W_hh) = 0.5 and T = 20 it is below 2·10⁻⁶ of the last token's.
#[test]
fn the_gradient_for_the_first_token_vanishes_when_w_hh_contracts() {
    graded(|| {
        let (n, len) = (6, 20);
        let cell = Rnn::new(
            linspace_matrix(n, 3, -0.7, 0.8),
            rotation(n, 0.5),
            Vector::from(linspace(0.1, -0.1, n)),
        );
        let xs = linspace_matrix(len, 3, -1.0, 1.0);
        let h0 = Vector::zeros(n);
        let states = forward(&cell, &xs, &h0);
        let mut upstream = Matrix::zeros((len, n));
        upstream.row_mut(len - 1).fill(1.0);
        let grads = backward(&cell, &xs, &h0, &states, &upstream);
        let norm = |t: usize| grads.d_xs.row(t).dot(&grads.d_xs.row(t)).sqrt();
        let (first, last) = (norm(0), norm(len - 1));
        let bound = (0.5 as Float).powi(len as i32 - 1)
            * largest_singular_value(&cell.w_xh)
            * (n as Float).sqrt();
        assert!(
            last > 0.1,
            "{}",
            tr!(
                MESSAGES,
                "last-token-gradient-zero",
                last = last.to_string()
            )
        );
        assert!(
            first <= bound && first < 2e-6 * last,
            "{}",
            tr!(
                MESSAGES,
                "first-token-gradient-too-large",
                bound = format!("{bound:.3e}"),
                first = format!("{first:.3e}"),
                last = format!("{last:.3e}")
            )
        );
    });
}

/// Two sentences that differ only in their first token end in nearly the same state:
/// the distance between their states shrinks at least like σ_max(W_hh)^(t) (tanh is
/// 1-Lipschitz), so after 15 steps with σ_max = 0.5 the context vectors are within
/// 0.5¹⁴ of each other's distance after the first step.
#[test]
fn two_sentences_that_differ_in_their_first_token_become_indistinguishable() {
    graded(|| {
        let (n, len) = (6, 15);
        let cell = Rnn::new(
            linspace_matrix(n, 3, -0.7, 0.8),
            rotation(n, 0.5),
            Vector::from(linspace(0.1, -0.1, n)),
        );
        let xs = linspace_matrix(len, 3, -1.0, 1.0);
        let mut other = xs.clone();
        other.row_mut(0).assign(&array![2.0, -2.0, 1.0]);
        let h0 = Vector::zeros(n);
        let (a, b) = (forward(&cell, &xs, &h0), forward(&cell, &other, &h0));
        assert_same_shape(&tr!(MESSAGES, "label-forward-states"), &a, (len, n));
        let distance = |t: usize| {
            let d = &a.row(t) - &b.row(t);
            d.dot(&d).sqrt()
        };
        let start = distance(0);
        assert!(
            start > 0.5,
            "{}",
            tr!(
                MESSAGES,
                "first-states-too-close",
                start = start.to_string()
            )
        );
        for t in 1..len {
            let bound = start * (0.5 as Float).powi(t as i32);
            assert!(
                distance(t) <= bound * (1.0 + 1e-9),
                "{}",
                tr!(
                    MESSAGES,
                    "states-not-converging",
                    tokens = t + 1,
                    distance = distance(t).to_string(),
                    t = t,
                    start = format!("{start:.4}"),
                    bound = format!("{bound:.3e}")
                )
            );
        }
        let end = encode(&cell, &xs, &h0) - encode(&cell, &other, &h0);
        assert!(
            end.dot(&end).sqrt() < 1e-4 * start,
            "{}",
            tr!(MESSAGES, "contexts-differ", difference = end.to_string())
        );
    });
}
