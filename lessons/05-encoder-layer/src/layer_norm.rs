//! LayerNorm: each row normalised to mean 0 and variance 1, then scaled by `gamma` and
//! shifted by `beta`; and its backward pass. Book: chapter 05, "LayerNorm".

use crate::LAYER_NORM_EPS;
use course_common::ndarray::Axis;
use course_common::{Float, Matrix, Vector};

// ANCHOR: normalised
/// Each row of a matrix, standardised: what [`normalise_rows`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalised {
    /// `x̂ = (x − μ) / √(σ² + ε)`, row by row, `(n, d_model)`.
    pub x_hat: Matrix,
    /// `1 / √(σ² + ε)` of each row, `(n,)`: the backward pass needs it.
    pub inv_std: Vector,
}
// ANCHOR_END: normalised

// ANCHOR: normalise_rows
/// Standardises each row of `x` over its features: `x̂ = (x − μ) / √(σ² + ε)`.
///
/// `μ` is the row's mean and `σ²` its **biased** variance (divided by `d_model`,
/// not `d_model − 1`); `ε` goes inside the square root. That is PyTorch's
/// `nn.LayerNorm`. Each row is normalised on its own: rows never mix.
///
/// Shape: `(n, d_model)` in, `x_hat` `(n, d_model)` and `inv_std` `(n,)` out.
/// Panics if `x` has no columns. Book: chapter 05, "Layer normalisation".
pub fn normalise_rows(x: &Matrix, eps: Float) -> Normalised {
    // TODO: per row: the mean (`sum_axis(Axis(1))` / d_model), the centred rows,
    //       the biased variance (mean of the squares), inv_std = 1/√(var + eps),
    //       x_hat = centred × inv_std (`insert_axis(Axis(1))` broadcasts a column).
    todo!("normalise_rows")
}
// ANCHOR_END: normalise_rows

// ANCHOR: layer_norm
/// Layer normalisation over the features of each row: `γ ⊙ x̂ + β`.
///
/// As PyTorch's `nn.LayerNorm(d_model)`: `gamma` (its `weight`) starts at 1, `beta`
/// (its `bias`) at 0, and `eps` is 1e-5. Book: chapter 05, "Layer normalisation".
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm {
    /// The scale `γ`, `(d_model,)`.
    pub gamma: Vector,
    /// The shift `β`, `(d_model,)`.
    pub beta: Vector,
    /// `ε`, added to each row's variance before the square root.
    pub eps: Float,
}
// ANCHOR_END: layer_norm

// ANCHOR: layer_norm_grads
/// Gradients of a loss through a [`LayerNorm`].
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNormGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂γ`, `(d_model,)`.
    pub d_gamma: Vector,
    /// `∂L/∂β`, `(d_model,)`.
    pub d_beta: Vector,
}
// ANCHOR_END: layer_norm_grads

impl LayerNorm {
    /// A fresh LayerNorm, as `nn.LayerNorm(d_model)` starts: `γ = 1`, `β = 0`,
    /// `ε = 1e-5`.
    pub fn new(d_model: usize) -> Self {
        Self::from_parameters(Vector::ones(d_model), Vector::zeros(d_model))
    }

    /// A LayerNorm with the given `γ` and `β` and `ε = 1e-5`.
    ///
    /// Panics if they differ in length.
    pub fn from_parameters(gamma: Vector, beta: Vector) -> Self {
        assert_eq!(
            gamma.len(),
            beta.len(),
            "gamma and beta need one entry per feature each"
        );
        Self {
            gamma,
            beta,
            eps: LAYER_NORM_EPS,
        }
    }

    /// The number of features `d_model`.
    pub fn d_model(&self) -> usize {
        self.gamma.len()
    }

    /// The number of learned numbers: `γ` and `β`, `2·d_model`.
    pub fn parameter_count(&self) -> usize {
        self.gamma.len() + self.beta.len()
    }

    // ANCHOR: layer_norm_forward
    /// `y = γ ⊙ x̂ + β` with `x̂ = normalise_rows(x, ε).x_hat`: `(n, d_model)` in,
    /// `(n, d_model)` out, for any number of rows `n`.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        // TODO: normalise with `normalise_rows(x, self.eps)`, then scale by gamma
        //       and shift by beta (a Vector broadcasts over the rows).
        todo!("LayerNorm::forward")
    }
    // ANCHOR_END: layer_norm_forward

    // ANCHOR: layer_norm_backward
    /// The backward pass, from the forward's input `x` and the upstream gradient
    /// `d_y`, both `(n, d_model)`. With `g = d_y ⊙ γ` (the gradient of `x̂`) and
    /// `r = 1/√(σ² + ε)` of each row:
    ///
    /// ```text
    /// dβ = Σ_rows dY       dγ = Σ_rows dY ⊙ x̂
    /// dx = r · (g − mean_row(g) − x̂ ⊙ mean_row(g ⊙ x̂))
    /// ```
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> LayerNormGrads {
        // TODO: recompute x_hat and inv_std; d_beta and d_gamma are column sums;
        //       then g = d_y ⊙ gamma and the three-term formula above for d_x.
        todo!("LayerNorm::backward")
    }
    // ANCHOR_END: layer_norm_backward
}
