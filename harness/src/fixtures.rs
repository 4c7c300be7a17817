//! Deterministic inputs for tests.
//!
//! The course's fixtures never come from a random generator: a generator's stream may
//! change between crate versions (rand documents `StdRng` as non-portable), and then a
//! correct submission would fail. Like CS231n's assignments, tests fill matrices with
//! evenly spaced values instead, which are irregular enough to catch transposes and
//! swapped arguments when rows and columns differ.

use course_common::{Float, Matrix, ndarray};

/// `n` evenly spaced values from `start` to `end` inclusive, like `numpy.linspace`.
pub fn linspace(start: Float, end: Float, n: usize) -> Vec<Float> {
    match n {
        0 => Vec::new(),
        1 => vec![start],
        _ => (0..n)
            .map(|i| start + (end - start) * i as Float / (n - 1) as Float)
            .collect(),
    }
}

/// A `(rows, cols)` matrix filled row by row with `linspace(start, end, rows * cols)`,
/// like `numpy.linspace(start, end, rows * cols).reshape(rows, cols)`.
pub fn linspace_matrix(rows: usize, cols: usize, start: Float, end: Float) -> Matrix {
    ndarray::Array::from_shape_vec((rows, cols), linspace(start, end, rows * cols))
        .expect("linspace gives exactly rows * cols values")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy() {
        assert_eq!(linspace(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        let m = linspace_matrix(2, 3, -0.5, 0.5);
        assert_eq!(m[[1, 2]], 0.5);
        assert_eq!(m[[0, 1]], -0.3);
    }
}
