// BEGIN STUB
// //! Lesson {{padded}}: {{title}}.
// END STUB
// BEGIN SOLUTION
//! Lesson {{padded}}: {{title}}, solved.
// END SOLUTION
//!
//! The formula and the shapes of the lesson go here, and the book chapter that explains
//! them: chapter {{padded}}, "{{title}}".
// BEGIN STUB
// //!
// //! # How to work on this lesson
// //!
// //! Every `todo!()` below is yours to replace; the `///` comment above it is the
// //! contract (shapes, formula, where the book explains it). Check yourself with
// //!
// //! ```text
// //! cargo test -p {{crate}}     # the visible tests in tests/visible.rs
// //! cargo run -p checker -- watch         # the graded tests, re-run on every save
// //! ```
// //!
// //! Don't change the signatures or the tests: grading uses only this `src/` folder,
// //! with the course's own copy of everything else.
// END STUB

use course_common::{Float, Matrix};

// ANCHOR: scale
/// Every entry of `x` multiplied by `factor`: `y = factor · x`, shape (n, d) → (n, d).
///
/// Book: chapter {{padded}}, "The route".
pub fn scale(x: &Matrix, factor: Float) -> Matrix {
    // TODO: multiply every entry by `factor`.
    // BEGIN SOLUTION: todo!("scale")
    x * factor
    // END SOLUTION
}
// ANCHOR_END: scale
