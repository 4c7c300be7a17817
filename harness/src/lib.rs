//! What the course's tests are written with.
//!
//! - [`graded`] wraps the body of every graded test, and [`observe`] every call into the
//!   learner's code, so that the checker can run the learner's code in a sandbox and judge
//!   the values it returned in a process of its own (see the module docs of [`tape`]);
//!   where the judge is built on the reference solution, it also runs every call there
//!   and compares ([`reference_run`]).
//! - [`check`] holds assertions on floats and matrices whose failure messages say which
//!   property failed, what was expected, what came back, and the likely misconception.
//! - [`gradient`] computes numerical gradients by central differences, to check every
//!   backward pass of the course.
//! - [`causes`] names the likely causes of wrong results, by message id, and [`named`](mod@named)
//!   gives a check the wrong answers common mistakes produce (recorded beside each test
//!   file, computed by the maintainers' builders), so that visible and graded tests name
//!   the same mistake the same way.
//! - [`panics`] explains a panic in the learner's code: the function, the line of the
//!   lesson's source, and what the common ndarray and Rust panics mean.
//! - [`fixtures`] builds deterministic inputs (no random generator whose stream could
//!   change between crate versions) and reads the reference values the scripts of
//!   the lessons' `reference.py` computed ([`Reference`]).
//!
//! Every message a failed check shows exists in English and in Simplified Chinese
//! (`locales/`, read through [`course_i18n`]); the checker chooses the language of the judge
//! with `COURSE_LANG`. Suites keep their own messages the same way and use the same [`tr!`].

pub mod causes;
pub mod check;
pub mod fixtures;
pub mod gradient;
pub mod named;
pub mod panics;
pub mod reference_run;
pub mod relations;
pub mod report;
pub mod tape;

/// Re-exported so that the suites and the visible tests need no other dependency.
pub use course_i18n::{self, Catalog, tr};

/// The harness's own messages, in every language the course speaks.
pub(crate) static MESSAGES: Catalog = Catalog::new(
    "harness",
    include_str!("../locales/en/harness.ftl"),
    include_str!("../locales/zh-CN/harness.ftl"),
);

pub use causes::{Cause, CauseArg, Hint};
pub use check::{
    Checks, Misconception, Tol, assert_all_finite, assert_close, assert_ids_eq,
    assert_mask_eq, assert_matrix_close, assert_pair_counts_eq, assert_rows_sum_to_one,
    assert_same_shape, ids_row, scalar_cause, shown_apart,
};
pub use fixtures::{Reference, linspace, linspace_matrix, scrambled};
pub use gradient::{
    assert_gradient_close, assert_gradient_close_named, numerical_gradient,
    relative_error,
};
pub use named::{Groups, Named, distinguishable};
pub use report::graded;
pub use tape::{Held, Taped, object, object_any, observe, observe_any};

/// The course's types, for [`tape_structs!`]'s expansion in a suite.
#[doc(hidden)]
pub use course_common as __course_common;
