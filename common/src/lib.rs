//! The definitions every lesson of the course shares.
//!
//! The whole course computes in one element type, [`Float`]. It is `f64`, for two reasons
//! the book develops in "Why f64" (chapter 02):
//!
//! - every backward pass of the course is checked against central differences, which in
//!   `f64` agree with a correct gradient to about `1e-8` and in `f32` only to about
//!   `1e-2`, too loose to tell a correct gradient from a slightly wrong one;
//! - the price is speed: an `f64` matrix product does about half the work per second of
//!   an `f32` one. `cargo xtask matmul` measures it on your machine; the course's models
//!   are small enough that training still takes about a minute.
//!
//! `f32` is the default of deep-learning frameworks; changing this alias is the one edit
//! that moves the course to it (the tests' tolerances are stated for `f64`).

pub use ndarray;

/// The element type of every vector and matrix in the course.
pub type Float = f64;

/// A matrix of [`Float`]s, row-major: one row per token (or per example), one column per
/// feature. Shapes in the course's docs are written `(rows, columns)`.
pub type Matrix = ndarray::Array2<Float>;

/// A vector of [`Float`]s, such as a bias or one row of a [`Matrix`].
pub type Vector = ndarray::Array1<Float>;

/// Where the example programs write what they make.
///
/// The lessons' examples measure the learner's own code. Their figures go to
/// `target/figures/` and their summaries to `target/experiments/` of the workspace, so
/// that a learner's run never replaces the book's figures. The maintainers' `cargo xtask
/// figures` runs the same examples on the reference solutions and points
/// `COURSE_FIGURES_DIR` at `book/src/figures/` (and `COURSE_EXPERIMENTS_DIR` likewise).
pub mod output {
    use std::path::PathBuf;

    /// The folder figures are written to (created if missing).
    pub fn figures_dir() -> PathBuf {
        folder("COURSE_FIGURES_DIR", "target/figures")
    }

    /// The folder experiment summaries are written to (created if missing).
    pub fn experiments_dir() -> PathBuf {
        folder("COURSE_EXPERIMENTS_DIR", "target/experiments")
    }

    fn folder(variable: &str, default: &str) -> PathBuf {
        let dir = std::env::var_os(variable).map_or_else(
            || {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("..")
                    .join(default)
            },
            PathBuf::from,
        );
        std::fs::create_dir_all(&dir).unwrap_or_else(|error| {
            panic!("could not create {}: {error}", dir.display())
        });
        dir.canonicalize().unwrap_or(dir)
    }
}
