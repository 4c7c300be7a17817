//! Numerical gradients by central differences, to check backward passes.
//!
//! For a scalar function `f` of a matrix `x`, the derivative with respect to one entry is
//! approximated by
//!
//! ```text
//! df/dx_ij ≈ (f(x + h e_ij) - f(x - h e_ij)) / (2h)
//! ```
//!
//! whose error is O(h²) from truncation plus O(ε/h) from rounding (ε ≈ 1e-16 in `f64`).
//! With `h = 1e-5` both are around 1e-10, so a correct backward pass agrees with it to a
//! relative error near 1e-8, and a wrong one (a missing factor, a transposed matrix, a
//! forgotten term) misses by 1e-2 or more. A layer with many outputs is checked through a
//! scalar: `L = sum(f(x) ⊙ G)` for a fixed upstream gradient `G`, whose gradient is exactly
//! what the layer's backward pass returns when handed `G`.

use crate::causes::Hint;
use crate::{MESSAGES, Misconception, tr};
use course_common::{Float, Matrix, ndarray};

/// The step the course's gradient checks use.
pub const STEP: Float = 1e-5;

/// The relative error below which an analytic gradient counts as correct.
pub const MAX_RELATIVE_ERROR: Float = 1e-6;

/// The numerical gradient of the scalar `f` at `x`, by central differences with step `h`.
pub fn numerical_gradient(
    mut f: impl FnMut(&Matrix) -> Float,
    x: &Matrix,
    h: Float,
) -> Matrix {
    let mut probe = x.clone();
    let mut grad = Matrix::zeros(x.dim());
    for index in ndarray::indices(x.dim()) {
        let (row, col) = index;
        let original = probe[[row, col]];
        probe[[row, col]] = original + h;
        let plus = f(&probe);
        probe[[row, col]] = original - h;
        let minus = f(&probe);
        probe[[row, col]] = original;
        grad[[row, col]] = (plus - minus) / (2.0 * h);
    }
    grad
}

/// `sum(a ⊙ b)`: the scalar through which a matrix-valued function is gradient-checked.
pub fn weighted_sum(a: &Matrix, b: &Matrix) -> Float {
    (a * b).sum()
}

/// The relative error `‖a - b‖ / (‖a‖ + ‖b‖)` in the Frobenius norm (0 when both are 0).
///
/// A norm-wise error, unlike an entry-wise one, is not thrown off by entries that are zero
/// up to rounding.
pub fn relative_error(a: &Matrix, b: &Matrix) -> Float {
    let norm = |m: &Matrix| m.iter().map(|v| v * v).sum::<Float>().sqrt();
    let denominator = norm(a) + norm(b);
    if denominator == 0.0 {
        0.0
    } else {
        norm(&(a - b)) / denominator
    }
}

/// Panics unless the analytic gradient matches the numerical one within
/// [`MAX_RELATIVE_ERROR`].
#[track_caller]
pub fn assert_gradient_close(
    what: &str,
    analytic: &Matrix,
    numerical: &Matrix,
    hint: &(impl Hint + ?Sized),
) {
    assert_gradient_close_named(what, analytic, numerical, hint, &[]);
}

/// As [`assert_gradient_close`]; when the analytic gradient is what one of `mistakes`
/// returns, the failure names that mistake instead of the general `hint`.
#[track_caller]
pub fn assert_gradient_close_named(
    what: &str,
    analytic: &Matrix,
    numerical: &Matrix,
    hint: &(impl Hint + ?Sized),
    mistakes: &[Misconception],
) {
    crate::check::assert_same_shape_because(what, analytic, numerical.dim(), hint);
    let error = relative_error(analytic, numerical);
    if error.is_nan() || error > MAX_RELATIVE_ERROR {
        let cause = match crate::check::recognition(analytic, mistakes) {
            Some(recognised) => recognised,
            None => {
                hint.failed();
                // What the wrong gradient still has in common with the numerical one,
                // compared loosely: central differences agree to about 1e-7.
                let relation: String =
                    crate::relations::describe(analytic, numerical, 1e-4)
                        .iter()
                        .map(|line| format!("\n{line}"))
                        .collect();
                format!(
                    "{}{relation}",
                    tr!(MESSAGES, "likely-cause", hint = hint.text())
                )
            }
        };
        // The numerical gradient differentiates the learner's own forward pass: a wrong
        // forward makes a right backward fail here too. A hint that says so already is
        // not repeated.
        let forward_first = if hint
            .text()
            .contains(&tr!(MESSAGES, "gradient-forward-first-phrase"))
        {
            String::new()
        } else {
            format!("\n{}", tr!(MESSAGES, "gradient-forward-first"))
        };
        let message = tr!(
            MESSAGES,
            "gradient-mismatch",
            what = what,
            step = format!("{STEP:e}"),
            error = format!("{error:.2e}"),
            max = format!("{MAX_RELATIVE_ERROR:e}"),
        );
        panic!(
            "{message}\n{cause}{forward_first}\n{}{}",
            crate::check::show(&tr!(MESSAGES, "label-numerical"), numerical),
            crate::check::show(&tr!(MESSAGES, "label-yours"), analytic),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_common::ndarray::array;

    #[test]
    fn the_gradient_of_a_quadratic_is_exact_up_to_rounding() {
        // f(x) = sum(x²) has gradient 2x.
        let x = array![[1.0, -2.0], [0.5, 3.0]];
        let numeric = numerical_gradient(|m| m.iter().map(|v| v * v).sum(), &x, STEP);
        assert!(relative_error(&numeric, &(2.0 * &x)) < 1e-9);
    }

    #[test]
    fn a_wrong_gradient_fails_with_a_message() {
        let x = array![[1.0, -2.0]];
        let numeric = numerical_gradient(|m| m.iter().map(|v| v * v).sum(), &x, STEP);
        let result = std::panic::catch_unwind(|| {
            assert_gradient_close("d_x", &x, &numeric, "a missing factor of 2");
        });
        let message = result
            .unwrap_err()
            .downcast_ref::<String>()
            .cloned()
            .unwrap();
        assert!(message.contains("a missing factor of 2"), "{message}");
    }
}
