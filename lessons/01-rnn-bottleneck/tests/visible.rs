//! The visible tests of lesson 01: what "done" looks like.
//!
//! Run them with `cargo test -p rnn`. A failure says what was expected, what came back
//! and, when your result is what a common mistake gives, which mistake: the same checks
//! the graded tests use. The checker's graded tests check much more (every gradient, empty
//! sequences, the geometric bound on gradients);
//! `cargo run -p checker -- grade 01-rnn-bottleneck` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use course_common::ndarray::{Axis, array};
use course_common::{Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Groups, Named, Tol, assert_gradient_close_named, assert_matrix_close, linspace,
    linspace_matrix, named, numerical_gradient,
};
#[cfg(feature = "builders")]
use course_mistakes::rnn::{
    Cell, bptt_mistakes, context_mistakes, forward_mistakes, step_backward_mistakes,
    step_mistakes,
};
use rnn::{Rnn, row};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

/// CS231n's `rnn_step_forward` fixture, in the course's layout: CS231n's `Wx` is
/// `(d_in, d_hidden)`, ours is its transpose.
fn cs231n_cell() -> Rnn {
    Rnn::new(
        linspace_matrix(10, 4, -0.1, 0.9).t().to_owned(),
        linspace_matrix(4, 4, -0.3, 0.7).t().to_owned(),
        Vector::from(linspace(-0.2, 0.4, 4)),
    )
}

/// A cell's parameters, as the builders of common mistakes take them.
#[cfg(feature = "builders")]
fn params(cell: &Rnn) -> Cell<'_> {
    Cell {
        w_xh: &cell.w_xh,
        w_hh: &cell.w_hh,
        b: &cell.b,
    }
}

#[test]
fn one_step_matches_the_cs231n_fixture() {
    let cell = cs231n_cell();
    let x = linspace_matrix(3, 10, -0.4, 0.7);
    let h = linspace_matrix(3, 4, -0.2, 0.5);
    let next_h = cell.step(&x, &h);
    // Three independent rows (a batch of three sequences), each squashed into (-1, 1), as
    // CS231n's notebook prints them (8 decimals).
    let published = array![
        [-0.58172089, -0.50182032, -0.41232771, -0.31410098],
        [0.66854692, 0.79562378, 0.87755553, 0.92795967],
        [0.97934501, 0.99144213, 0.99646691, 0.99854353]
    ];
    assert_matrix_close(
        "Rnn::step on CS231n's fixture",
        &next_h,
        &published,
        Tol {
            abs: 6e-9,
            rel: 0.0,
        },
        &named!(NAMED, step_mistakes(&params(&cell), &x, &h)),
    );
}

fn small_cell() -> Rnn {
    Rnn::new(
        linspace_matrix(4, 3, -0.5, 0.7),
        linspace_matrix(4, 4, 0.6, -0.5),
        Vector::from(linspace(-0.1, 0.25, 4)),
    )
}

#[test]
fn forward_keeps_one_state_per_token_and_the_context_is_the_last() {
    let cell = small_cell();
    let xs = linspace_matrix(5, 3, -0.9, 1.2);
    let h0 = Vector::from(linspace(0.3, -0.4, 4));
    let states = cell.forward(&xs, &h0);
    // NumPy (solutions/01-rnn-bottleneck/reference.py): one state (a row) per token.
    let expected = array![
        [0.6639407599, 0.2343600703, -0.3115240031, -0.7080500397],
        [0.3765695486, 0.2484414105, 0.1109865836, -0.03084982658],
        [0.1510323383, 0.2062894633, 0.2602614494, 0.3126545754],
        [-0.3228719394, 0.09772494714, 0.4860883457, 0.7459730485],
        [-0.7338691281, -0.08464402632, 0.6453958879, 0.9245634622]
    ];
    assert_matrix_close(
        "Rnn::forward's states",
        &states,
        &expected,
        Tol {
            abs: 1e-9,
            rel: 0.0,
        },
        &named!(NAMED, forward_mistakes(&params(&cell), &xs, &h0)),
    );
    // The context vector is the last state.
    assert_matrix_close(
        "Rnn::encode (the context vector)",
        &cell.encode(&xs, &h0).insert_axis(Axis(0)),
        &row(&states, 4),
        Tol::TIGHT,
        &named!(
            NAMED,
            context_mistakes(&course_mistakes::rnn::states(&params(&cell), &xs, &h0))
        ),
    );
}

#[test]
fn an_empty_sentence_leaves_the_initial_state_as_the_context() {
    let cell = small_cell();
    let h0 = Vector::from(linspace(0.3, -0.4, 4));
    let nothing = Matrix::zeros((0, 3));
    assert_eq!(cell.forward(&nothing, &h0).dim(), (0, 4));
    assert_eq!(cell.encode(&nothing, &h0), h0);
}

#[test]
fn step_backward_matches_numerical_gradients() {
    let cell = small_cell();
    let x = linspace_matrix(2, 3, 0.8, -0.6);
    let h = linspace_matrix(2, 4, -0.5, 0.4);
    let upstream = linspace_matrix(2, 4, 1.0, -0.3);
    let h_next = cell.step(&x, &h);
    let grads = cell.step_backward(&x, &h, &h_next, &upstream);
    let mistakes = named!(NAMED, Groups::from(step_backward_mistakes(&params(&cell), &x, &h, &params(&cell).step(&x, &h), &upstream)) => Groups);
    let loss =
        |cell: &Rnn, x: &Matrix, h: &Matrix| weighted_sum(&cell.step(x, h), &upstream);
    let d_x = numerical_gradient(|x| loss(&cell, x, &h), &x, STEP);
    let d_h = numerical_gradient(|h| loss(&cell, &x, h), &h, STEP);
    let d_w_hh = numerical_gradient(
        |w| {
            loss(
                &Rnn::new(cell.w_xh.clone(), w.clone(), cell.b.clone()),
                &x,
                &h,
            )
        },
        &cell.w_hh,
        STEP,
    );
    assert_gradient_close_named(
        "step_backward d_x",
        &grads.d_x,
        &d_x,
        "dx = dz W_xh, dz = dh' ⊙ (1 − h'²). (If the step's test fails too, fix Rnn::step \
         first: the numerical gradient uses it.)",
        &mistakes["d_x"],
    );
    assert_gradient_close_named(
        "step_backward d_h",
        &grads.d_h,
        &d_h,
        "dh = dz W_hh",
        &mistakes["d_h"],
    );
    assert_gradient_close_named(
        "step_backward d_w_hh",
        &grads.d_w_hh,
        &d_w_hh,
        "dW_hh = dzᵀ h, with h the previous state",
        &mistakes["d_w_hh"],
    );
    // Two rows in the batch, four hidden units: db has one entry per hidden unit.
    let d_b = numerical_gradient(
        |b| {
            loss(
                &Rnn::new(cell.w_xh.clone(), cell.w_hh.clone(), b.row(0).to_owned()),
                &x,
                &h,
            )
        },
        &cell.b.clone().insert_axis(Axis(0)),
        STEP,
    );
    assert_gradient_close_named(
        "step_backward d_b",
        &grads.d_b.clone().insert_axis(Axis(0)),
        &d_b,
        "db = dz summed over the rows (the batch): one entry per hidden unit",
        &mistakes["d_b"],
    );
}

#[test]
fn backpropagation_through_time_matches_numerical_gradients() {
    let cell = small_cell();
    let xs = linspace_matrix(5, 3, -0.9, 1.2);
    let h0 = Vector::from(linspace(0.3, -0.4, 4));
    // A loss on every state, not just the last.
    let upstream = linspace_matrix(5, 4, 0.5, -1.0);
    let states = cell.forward(&xs, &h0);
    let grads = cell.backward(&xs, &h0, &states, &upstream);
    let mistakes = named!(NAMED, Groups::from(bptt_mistakes(&params(&cell), &xs, &h0, &upstream)) => Groups);
    let loss = |cell: &Rnn, xs: &Matrix| weighted_sum(&cell.forward(xs, &h0), &upstream);
    let d_xs = numerical_gradient(|xs| loss(&cell, xs), &xs, STEP);
    assert_gradient_close_named(
        "backward d_xs",
        &grads.d_xs,
        &d_xs,
        "walk from the last step to the first; the gradient reaching state t is \
         d_states[t] plus what step t + 1 sends back. (If the forward test fails too, fix \
         Rnn::forward first: the numerical gradient uses it.)",
        &mistakes["d_xs"],
    );
    // Every step uses the same weights: their gradients add up over the steps.
    let d_w_xh = numerical_gradient(
        |w| loss(&Rnn::new(w.clone(), cell.w_hh.clone(), cell.b.clone()), &xs),
        &cell.w_xh,
        STEP,
    );
    assert_gradient_close_named(
        "backward d_w_xh",
        &grads.d_w_xh,
        &d_w_xh,
        "every step uses the same W_xh: add up its gradient over the steps",
        &mistakes["d_w_xh"],
    );
    let d_w_hh = numerical_gradient(
        |w| loss(&Rnn::new(cell.w_xh.clone(), w.clone(), cell.b.clone()), &xs),
        &cell.w_hh,
        STEP,
    );
    assert_gradient_close_named(
        "backward d_w_hh",
        &grads.d_w_hh,
        &d_w_hh,
        "every step uses the same W_hh: add up its gradient over the steps; at step 0 the \
         previous state is h0",
        &mistakes["d_w_hh"],
    );
}
