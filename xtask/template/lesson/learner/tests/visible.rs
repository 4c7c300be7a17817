//! The visible tests of lesson {{padded}}: what "done" looks like.
//!
//! Run them with `cargo test -p {{crate}}`. The checker's graded tests check more;
//! `cargo run -p checker -- grade {{id}}` runs them. Don't edit this file to make it pass:
//! grading never reads it.

use course_common::ndarray::array;
use course_harness::{Tol, assert_matrix_close};
use {{module}}::scale;

#[test]
fn scale_triples_a_row() {
    // Worked by hand: 3 · [1, -1, 0.5] = [3, -3, 1.5].
    assert_matrix_close(
        "scale([[1, -1, 0.5]], 3)",
        &scale(&array![[1.0, -1.0, 0.5]], 3.0),
        &array![[3.0, -3.0, 1.5]],
        Tol::TIGHT,
        &[],
    );
}
