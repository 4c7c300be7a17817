//! Held-out tests of lesson 02, attention: in the instructor's edition only.
//!
//! They check the graded suite's properties again on other numbers, so that a submission
//! tuned to the graded fixtures (say, one that special-cases their inputs) gains nothing.
//! Reference values come from NumPy: solutions/02-attention/reference.py writes them into
//! `heldout.json` beside this file, which, like this suite, only the instructor's edition
//! has.
//!
//! Every call into the lesson goes through `observe` (in the helpers below), so that the
//! checker's judge can replay the values it returned (see `course_harness::tape`).
//!
//! What a test compares with, and the comparisons, are compiled only with the `judge`
//! feature (`#[cfg(feature = "judge")]`): the checker's judge has it, the build that runs
//! the learner's code does not, so that executable holds the inputs and the calls, and no
//! held-out answer that code could read from its own file or memory. A test so built
//! records every call whatever the values, and the judge decides.

// Without the judge's checks, what they would have used is unused.
#![cfg_attr(not(feature = "judge"), allow(unused))]

use attention::Linear;
use course_common::ndarray::{Array2, array};
use course_common::{Float, Matrix, Vector};
use course_harness::gradient::{STEP, weighted_sum};
use course_harness::{Catalog, graded, linspace_matrix, numerical_gradient, tr};
#[cfg(feature = "judge")]
use course_harness::{
    Reference, Tol, assert_all_finite, assert_gradient_close, assert_matrix_close,
};
#[cfg(feature = "judge")]
use std::sync::LazyLock;

/// The values NumPy computed for these tests (see the module docs), by name: the judge's
/// only.
#[cfg(feature = "judge")]
static NUMPY: LazyLock<Reference> = LazyLock::new(|| {
    Reference::parse("02-attention/heldout.json", include_str!("heldout.json"))
});

/// What the failing held-out tests say, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "02-attention heldout",
    include_str!("locales/en/heldout.ftl"),
    include_str!("locales/zh-CN/heldout.ftl"),
);

// The calls into the lesson, each observed (the graded suite's).
#[path = "calls.rs"]
mod calls;
use calls::*;

/// softmax of a (3, 4) fixture whose rows differ in spread matches NumPy.
#[test]
fn heldout_softmax_matches_numpy() {
    graded(|| {
        let scores = linspace_matrix(3, 4, -2.5, 4.0).mapv(|s| s * s / 4.0);
        let weights = softmax(&scores);
        #[cfg(feature = "judge")]
        {
            let expected = NUMPY.matrix("softmax");
            let tol = Tol {
                abs: 1e-9,
                rel: 0.0,
            };
            assert_matrix_close("softmax_rows", &weights, &expected, tol, &[]);
        }
    });
}

/// Cross-attention of 3 queries over 5 keys, the last two padding, matches NumPy; the
/// padded keys get exactly zero weight.
#[test]
fn heldout_cross_attention_with_padding_matches_numpy() {
    graded(|| {
        let q = linspace_matrix(3, 4, 0.6, -1.3);
        let k = linspace_matrix(5, 4, -0.9, 1.4);
        let v = linspace_matrix(5, 2, 1.5, -0.5);
        let mask = padding(3, &[true, true, true, false, false]);
        let attention = attend(&q, &k, &v, Some(&mask));
        #[cfg(feature = "judge")]
        {
            let expected_weights = NUMPY.matrix("cross_attention_weights");
            let expected_output = NUMPY.matrix("cross_attention_output");
            let tol = Tol {
                abs: 1e-9,
                rel: 0.0,
            };
            assert_matrix_close(
                &tr!(MESSAGES, "label-weights"),
                &attention.weights,
                &expected_weights,
                tol,
                &[],
            );
            assert_matrix_close(
                &tr!(MESSAGES, "label-output"),
                &attention.output,
                &expected_output,
                tol,
                &[],
            );
        }
    });
}

/// The attention backward agrees with central differences on cross-attention with a
/// padding mask and a fully masked query, without NaN anywhere.
#[test]
fn heldout_cross_attention_backward_matches_numerical_gradients() {
    graded(|| {
        let q = linspace_matrix(3, 4, 0.6, -1.3);
        let k = linspace_matrix(5, 4, -0.9, 1.4);
        let v = linspace_matrix(5, 2, 1.5, -0.5);
        let mut mask = padding(3, &[true, false, true, true, false]);
        mask.row_mut(2).fill(false);
        let upstream = linspace_matrix(3, 2, -0.7, 0.9);
        let forward = attend(&q, &k, &v, Some(&mask));
        let grads = attend_backward(&q, &k, &v, &forward.weights, &upstream);
        #[cfg(feature = "judge")]
        for (what, grad) in [
            ("d_q", &grads.d_q),
            ("d_k", &grads.d_k),
            ("d_v", &grads.d_v),
        ] {
            assert_all_finite(what, grad, &tr!(MESSAGES, "fully-masked-gradient-hint"));
        }
        let loss = |q: &Matrix, k: &Matrix, v: &Matrix| {
            weighted_sum(&attend(q, k, v, Some(&mask)).output, &upstream)
        };
        let d_q = numerical_gradient(|q| loss(q, &k, &v), &q, STEP);
        let d_k = numerical_gradient(|k| loss(&q, k, &v), &k, STEP);
        let d_v = numerical_gradient(|v| loss(&q, &k, v), &v, STEP);
        #[cfg(feature = "judge")]
        {
            let hint = &tr!(MESSAGES, "backward-hint");
            assert_gradient_close("d_q", &grads.d_q, &d_q, hint);
            assert_gradient_close("d_k", &grads.d_k, &d_k, hint);
            assert_gradient_close("d_v", &grads.d_v, &d_v, hint);
        }
    });
}

/// A (5, 2) → (5, 3) Linear layer matches NumPy, and its backward agrees with central
/// differences.
#[test]
fn heldout_linear_matches_numpy_and_its_gradients() {
    graded(|| {
        let layer = Linear::new(
            linspace_matrix(3, 2, 0.7, -0.4),
            Vector::from(vec![0.25, 0.0, -0.75]),
        );
        let x = linspace_matrix(5, 2, -1.2, 0.8);
        let output = linear_forward(&layer, &x);
        #[cfg(feature = "judge")]
        {
            let expected = NUMPY.matrix("linear");
            let tol = Tol {
                abs: 1e-8,
                rel: 0.0,
            };
            assert_matrix_close("Linear::forward", &output, &expected, tol, &[]);
        }
        let upstream = linspace_matrix(5, 3, 1.0, -1.0);
        let grads = linear_backward(&layer, &x, &upstream);
        let d_x = numerical_gradient(
            |x| weighted_sum(&linear_forward(&layer, x), &upstream),
            &x,
            STEP,
        );
        let d_w = numerical_gradient(
            |w| {
                weighted_sum(
                    &linear_forward(&Linear::new(w.clone(), layer.bias.clone()), &x),
                    &upstream,
                )
            },
            &layer.weight,
            STEP,
        );
        #[cfg(feature = "judge")]
        {
            assert_gradient_close("d_x", &grads.d_x, &d_x, "dx = dY W");
            assert_gradient_close("d_weight", &grads.d_weight, &d_w, "dW = dYᵀ x");
        }
    });
}

/// The smallest cases: one position sees only itself, and a sequence of one attends to
/// itself with weight exactly 1.
#[test]
fn heldout_a_single_position_attends_to_itself() {
    graded(|| {
        let mask = causal(1);
        #[cfg(feature = "judge")]
        assert!(
            mask == Array2::from_elem((1, 1), true),
            "{}",
            tr!(MESSAGES, "causal-mask-one", got = format!("{mask:?}"))
        );
        let x = array![[0.3, -1.7, 2.2]];
        let attention = attend(&x, &x, &x, Some(&mask));
        #[cfg(feature = "judge")]
        {
            let one: Matrix = array![[1.0 as Float]];
            assert_matrix_close(
                &tr!(MESSAGES, "single-position-label-weights"),
                &attention.weights,
                &one,
                Tol::TIGHT,
                &[],
            );
            assert_matrix_close(
                &tr!(MESSAGES, "single-position-label-output"),
                &attention.output,
                &x,
                Tol::TIGHT,
                &[],
            );
        }
    });
}
