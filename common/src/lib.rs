//! The definitions every lesson of the course shares.
//!
//! The whole course computes in one element type, [`Float`]. It is `f64`, for two reasons
//! the book develops in "Why f64" (chapter 02):
//!
//! - numerical gradient checks with central differences are meaningful to about `1e-7` in
//!   `f64` but only to about `1e-2` in `f32`, and every backward pass of the course is
//!   checked that way;
//! - on a CPU, ndarray's `f64` matrix product runs at roughly half its `f32` speed, which
//!   for the course's small models is the difference between 20 and 40 seconds of training,
//!   not between possible and impossible.
//!
//! `f32` is the default of deep-learning frameworks; changing this alias is the one edit
//! that moves the course to it (the tolerances of the tests are stated for `f64`).

pub use ndarray;

/// The element type of every vector and matrix in the course.
pub type Float = f64;

/// A matrix of [`Float`]s, row-major: one row per token (or per example), one column per
/// feature. Shapes in the course's docs are written `(rows, columns)`.
pub type Matrix = ndarray::Array2<Float>;

/// A vector of [`Float`]s, such as a bias or one row of a [`Matrix`].
pub type Vector = ndarray::Array1<Float>;
