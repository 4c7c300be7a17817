//! The visible tests of lesson 01: what "done" looks like.
//!
//! Run them with `cargo test -p rnn`. The checker's graded tests check much more (every
//! gradient, empty sequences, the geometric bound on gradients);
//! `cargo run -p checker -- grade 01-rnn-bottleneck` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use course_common::ndarray::array;
use course_common::{Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{
    Tol, assert_gradient_close, assert_matrix_close, linspace, linspace_matrix,
    numerical_gradient,
};
use rnn::{Rnn, row};

/// CS231n's `rnn_step_forward` fixture, in the course's layout: CS231n's `Wx` is
/// `(d_in, d_hidden)`, ours is its transpose.
fn cs231n_cell() -> Rnn {
    Rnn::new(
        linspace_matrix(10, 4, -0.1, 0.9).t().to_owned(),
        linspace_matrix(4, 4, -0.3, 0.7).t().to_owned(),
        Vector::from(linspace(-0.2, 0.4, 4)),
    )
}

#[test]
fn one_step_matches_the_cs231n_fixture() {
    let x = linspace_matrix(3, 10, -0.4, 0.7);
    let h = linspace_matrix(3, 4, -0.2, 0.5);
    let next_h = cs231n_cell().step(&x, &h);
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
        &[],
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
    assert_eq!(states.dim(), (5, 4), "one state (a row) per token");
    // NumPy (tools/reference/lesson01_rnn.py): the first and the last state.
    let first = array![[0.6639407599, 0.2343600703, -0.3115240031, -0.7080500397]];
    let last = array![[-0.7338691281, -0.08464402632, 0.6453958879, 0.9245634622]];
    approx::assert_abs_diff_eq!(row(&states, 0), first, epsilon = 1e-9);
    approx::assert_abs_diff_eq!(row(&states, 4), last, epsilon = 1e-9);
    // The context vector is the last state.
    approx::assert_abs_diff_eq!(cell.encode(&xs, &h0), states.row(4), epsilon = 0.0);
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
    let d_x =
        numerical_gradient(|x| weighted_sum(&cell.step(x, &h), &upstream), &x, STEP);
    let d_h =
        numerical_gradient(|h| weighted_sum(&cell.step(&x, h), &upstream), &h, STEP);
    assert_gradient_close(
        "d_x",
        &grads.d_x,
        &d_x,
        "dx = dz W_xh, dz = dh' ⊙ (1 − h'²)",
    );
    assert_gradient_close("d_h", &grads.d_h, &d_h, "dh = dz W_hh");
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
    let loss = |xs: &Matrix| weighted_sum(&cell.forward(xs, &h0), &upstream);
    let d_xs = numerical_gradient(loss, &xs, STEP);
    assert_gradient_close(
        "d_xs",
        &grads.d_xs,
        &d_xs,
        "walk from the last step to the first; the gradient reaching state t is \
         d_states[t] plus what step t + 1 sends back",
    );
    let d_w_hh = numerical_gradient(
        |w| {
            let probe = Rnn::new(cell.w_xh.clone(), w.clone(), cell.b.clone());
            weighted_sum(&probe.forward(&xs, &h0), &upstream)
        },
        &cell.w_hh,
        STEP,
    );
    assert_gradient_close(
        "d_w_hh",
        &grads.d_w_hh,
        &d_w_hh,
        "every step uses the same W_hh: add up its gradient over the steps",
    );
}
