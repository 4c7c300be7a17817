//! RMSNorm: each row divided by its root mean square, then scaled by a learned gain; no
//! mean subtracted, no shift. And its backward pass. Book: chapter 07, "RMSNorm".

use course_common::ndarray::Axis;
use course_common::{Float, Matrix, Vector};

/// `ε` of [`RmsNorm`], added to the mean square before the square root (as LLaMA's).
pub const RMS_NORM_EPS: Float = 1e-5;

// ANCHOR: rms_norm
/// Root-mean-square normalisation over the features of each row: `y = g ⊙ x / rms(x)`
/// with `rms(x) = √(mean(x²) + ε)`, as PyTorch's `nn.RMSNorm(d_model, eps=1e-5)`: the
/// gain `g` (its `weight`) starts at 1.
#[derive(Debug, Clone, PartialEq)]
pub struct RmsNorm {
    /// The gain `g`, `(d_model,)`.
    pub gain: Vector,
    /// `ε`, added to each row's mean square before the square root.
    pub eps: Float,
}
// ANCHOR_END: rms_norm

/// Gradients of a loss through an [`RmsNorm`].
#[derive(Debug, Clone, PartialEq)]
pub struct RmsNormGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂g`, `(d_model,)`.
    pub d_gain: Vector,
}

impl RmsNorm {
    /// A fresh RMSNorm: `g = 1`, `ε = 1e-5`.
    pub fn new(d_model: usize) -> Self {
        Self::from_gain(Vector::ones(d_model))
    }

    /// An RMSNorm with the gain `g` and `ε = 1e-5`.
    pub fn from_gain(gain: Vector) -> Self {
        Self {
            gain,
            eps: RMS_NORM_EPS,
        }
    }

    /// The number of features `d_model`.
    pub fn d_model(&self) -> usize {
        self.gain.len()
    }

    // ANCHOR: rms_norm_forward
    /// `y = g ⊙ x · r` with `r = 1/√(mean(x²) + ε)` of each row, the mean over the row's
    /// `d_model` features (not over `d_model − 1`, and `ε` inside the root):
    /// `(n, d_model)` in, `(n, d_model)` out. Rows never mix.
    pub fn forward(&self, x: &Matrix) -> Matrix {
        // TODO: the mean of the squares of each row, r = 1/√(ms + eps) (a column with
        //       `insert_axis(Axis(1))`), then x · r · gain.
        todo!("RmsNorm::forward")
    }
    // ANCHOR_END: rms_norm_forward

    // ANCHOR: rms_norm_backward
    /// The backward pass, from the forward's input `x` and the upstream gradient `d_y`,
    /// both `(n, d_model)`. With `x̂ = x · r`, `h = d_y ⊙ g` (the gradient of `x̂`) and the
    /// means over each row's features:
    ///
    /// ```text
    /// dg = Σ_rows dY ⊙ x̂
    /// dx = r · (h − x̂ ⊙ mean_row(h ⊙ x̂))
    /// ```
    ///
    /// LayerNorm's formula less its `− mean_row(h)` term: no mean was subtracted.
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> RmsNormGrads {
        // TODO: recompute r and x̂; d_gain is a column sum; then h = d_y ⊙ gain and the
        //       formula above for d_x.
        todo!("RmsNorm::backward")
    }
    // ANCHOR_END: rms_norm_backward
}
