//! Checks of the lesson's given helpers (complete in the stub too, so not graded): the
//! orthogonal matrices and the spectral norm that the chapter's measurements rely on.

use course_common::ndarray::array;
use course_common::{Float, Matrix, Vector};
use course_harness::{Tol, assert_close, assert_matrix_close, linspace_matrix};
use rnn_solution::{Rnn, as_row, orthogonal, row, spectral_norm};

#[test]
fn orthogonal_matrices_have_orthonormal_rows_scaled_by_the_scale() {
    for (n, scale) in [(1, 1.0), (2, 0.5), (5, 1.0), (8, 2.0), (64, 0.9)] {
        let w = orthogonal(n, scale);
        let gram = w.dot(&w.t());
        let expected = Matrix::eye(n) * (scale * scale);
        assert_matrix_close(
            &format!("W Wᵀ of orthogonal({n}, {scale})"),
            &gram,
            &expected,
            Tol::TIGHT,
            &[],
        );
        let gram_t = w.t().dot(&w);
        assert_matrix_close("Wᵀ W", &gram_t, &expected, Tol::TIGHT, &[]);
    }
}

#[test]
fn orthogonal_matrices_are_not_the_identity_and_are_reproducible() {
    let w = orthogonal(6, 1.0);
    assert_eq!(w, orthogonal(6, 1.0));
    // Every entry is moved away from the identity's: a real rotation in every plane.
    let off = (&w - &Matrix::eye(6)).mapv(Float::abs);
    assert!(off.iter().all(|&v| v > 1e-3), "{w:?}");
    // For n = 2 it is the one rotation, by the angle 0.7 + φ (φ = 0.618...).
    let angle: Float = 0.7 + 0.618_033_988_749_895;
    let (sin, cos) = angle.sin_cos();
    assert_matrix_close(
        "orthogonal(2, 1)",
        &orthogonal(2, 1.0),
        &array![[cos, -sin], [sin, cos]],
        Tol::TIGHT,
        &[],
    );
    assert_eq!(orthogonal(0, 3.0).dim(), (0, 0));
    // For n = 3, the rotations in the planes (0, 1), (0, 2), (1, 2), by 0.7 + φ·(p·n + r),
    // applied in that order (each on the left).
    let rotation = |p: usize, r: usize| {
        let (sin, cos) = (0.7 + 0.618_033_988_749_895 * (p * 3 + r) as Float).sin_cos();
        let mut g = Matrix::eye(3);
        g[[p, p]] = cos;
        g[[p, r]] = -sin;
        g[[r, p]] = sin;
        g[[r, r]] = cos;
        g
    };
    let expected = rotation(1, 2).dot(&rotation(0, 2)).dot(&rotation(0, 1)) * 1.5;
    assert_matrix_close(
        "orthogonal(3, 1.5)",
        &orthogonal(3, 1.5),
        &expected,
        Tol::TIGHT,
        &[],
    );
}

#[test]
fn spectral_norm_finds_the_largest_singular_value() {
    // A diagonal matrix: its largest |entry|.
    assert_close(
        "σ_max(diag(0.3, -2, 1.5))",
        spectral_norm(&array![[0.3, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 1.5]]),
        2.0,
        Tol::TIGHT,
    );
    // A scaled orthogonal matrix: the scale.
    assert_close(
        "σ_max(orthogonal(7, 0.5))",
        spectral_norm(&orthogonal(7, 0.5)),
        0.5,
        Tol::TIGHT,
    );
    // NumPy: numpy.linalg.svd(numpy.linspace(-0.35, 0.4, 25).reshape(5, 5))[1][0].
    assert_close(
        "σ_max(linspace 5 x 5)",
        spectral_norm(&linspace_matrix(5, 5, -0.35, 0.4)),
        1.11219164405,
        Tol::TIGHT,
    );
    // A non-square matrix: [[3, 0], [4, 0], [0, 1]] maps e₁ to length 5.
    assert_close(
        "σ_max of a 3 x 2 matrix",
        spectral_norm(&array![[3.0, 0.0], [4.0, 0.0], [0.0, 1.0]]),
        5.0,
        Tol::TIGHT,
    );
    assert_eq!(spectral_norm(&Matrix::zeros((3, 3))), 0.0);
    assert_eq!(spectral_norm(&Matrix::zeros((0, 0))), 0.0);
}

#[test]
fn a_cell_knows_its_widths() {
    let cell = Rnn::new(
        Matrix::zeros((4, 3)),
        Matrix::zeros((4, 4)),
        Vector::zeros(4),
    );
    assert_eq!((cell.d_in(), cell.d_hidden()), (3, 4));
}

#[test]
#[should_panic(expected = "W_hh must be (d_hidden, d_hidden)")]
fn a_cell_rejects_a_w_hh_of_the_wrong_shape() {
    Rnn::new(
        Matrix::zeros((4, 3)),
        Matrix::zeros((3, 3)),
        Vector::zeros(4),
    );
}

#[test]
#[should_panic(expected = "the bias needs one entry per hidden unit")]
fn a_cell_rejects_a_bias_of_the_wrong_length() {
    Rnn::new(
        Matrix::zeros((4, 3)),
        Matrix::zeros((4, 4)),
        Vector::zeros(3),
    );
}

#[test]
fn row_and_as_row_make_one_row_matrices() {
    let m = linspace_matrix(3, 2, 0.0, 5.0);
    assert_eq!(row(&m, 1), array![[2.0, 3.0]]);
    assert_eq!(as_row(&Vector::from(vec![1.0, 2.0])), array![[1.0, 2.0]]);
}
