//! Held-out tests of lesson {{padded}}: the instructor's edition only. Their expected values
//! and checks are compiled only into the judge (the `judge` feature), so the executable
//! that runs a learner's code holds no answer.

use course_common::ndarray::array;
#[cfg(feature = "judge")]
use course_harness::{Tol, assert_matrix_close};
use course_harness::{graded, observe};
use {{module}} as lesson;

/// Scaling by zero gives zeros of the same shape.
#[test]
fn heldout_scale_by_zero_gives_zeros() {
    graded(|| {
        let x = array![[1.5, -2.0, 4.0]];
        let got = observe("scale", || lesson::scale(&x, 0.0));
        #[cfg(feature = "judge")]
        assert_matrix_close("scale(x, 0)", &got, &array![[0.0, 0.0, 0.0]], Tol::TIGHT, &[]);
        #[cfg(not(feature = "judge"))]
        let _ = got;
    });
}
