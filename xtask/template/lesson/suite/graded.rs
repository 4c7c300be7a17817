//! Graded tests of lesson {{padded}}, {{title}}.
//!
//! These run in the checker against a learner's `src/` and, through the solution crate's
//! `cargo test`, against the reference solution. Every call into the lesson goes through
//! `observe` (the wrappers below), so that the checker's judge can replay the values the
//! learner's code returned (see `course_harness::tape`). Every expected value is hand-computed
//! or an exact property.

use course_common::ndarray::array;
use course_common::{Float, Matrix};
use course_harness::{Catalog, Tol, assert_matrix_close, graded, observe, tr};
use {{module}} as lesson;

/// What a failed test says, in every language the course speaks.
static MESSAGES: Catalog = Catalog::new(
    "{{id}}",
    include_str!("locales/en/suite.ftl"),
    include_str!("locales/zh-CN/suite.ftl"),
);

fn scale(x: &Matrix, factor: Float) -> Matrix {
    observe("scale", || lesson::scale(x, factor))
}

/// Doubling a 2 × 2 matrix, worked by hand.
#[test]
fn scale_doubles_every_entry() {
    graded(|| {
        let got = scale(&array![[1.0, -2.0], [0.5, 3.0]], 2.0);
        assert_matrix_close(
            &tr!(MESSAGES, "scale-doubled"),
            &got,
            &array![[2.0, -4.0], [1.0, 6.0]],
            Tol::TIGHT,
            &[],
        );
    });
}
