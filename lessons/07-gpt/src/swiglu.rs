//! SwiGLU, the gated feed-forward of LLaMA and most models since: one projection, passed
//! through SiLU, gates another, element by element, before the projection back. And its
//! backward pass. Book: chapter 07, "SwiGLU".

use course_common::{Float, Matrix};

// ANCHOR: silu
/// SiLU (also called swish): `silu(a) = a · σ(a) = a / (1 + e^(−a))`.
pub fn silu(a: Float) -> Float {
    // TODO: a times the logistic sigmoid of a.
    todo!("silu")
}
// ANCHOR_END: silu

// ANCHOR: swiglu
/// The SwiGLU feed-forward, without biases. Its weights are stored as PyTorch's
/// `nn.Linear(in, out, bias=False)` stores them, `(out, in)`, and applied as `x Wᵀ`.
#[derive(Debug, Clone, PartialEq)]
pub struct SwiGlu {
    /// `W_gate`, `(d_ff, d_model)`: its output goes through SiLU.
    pub w_gate: Matrix,
    /// `W_up`, `(d_ff, d_model)`: its output is gated.
    pub w_up: Matrix,
    /// `W_down`, `(d_model, d_ff)`: back to the model's width.
    pub w_down: Matrix,
}
// ANCHOR_END: swiglu

/// What [`SwiGlu::forward`] computes on the way, kept for the backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct SwiGluForward {
    /// `a = x W_gateᵀ`, `(n, d_ff)`.
    pub gate: Matrix,
    /// `b = x W_upᵀ`, `(n, d_ff)`.
    pub up: Matrix,
    /// `h = SiLU(a) ⊙ b`, `(n, d_ff)`.
    pub hidden: Matrix,
    /// `y = h W_downᵀ`, `(n, d_model)`.
    pub output: Matrix,
}

/// Gradients of a loss through a [`SwiGlu`].
#[derive(Debug, Clone, PartialEq)]
pub struct SwiGluGrads {
    /// `∂L/∂x`, `(n, d_model)`.
    pub d_x: Matrix,
    /// `∂L/∂W_gate`, `(d_ff, d_model)`.
    pub d_w_gate: Matrix,
    /// `∂L/∂W_up`, `(d_ff, d_model)`.
    pub d_w_up: Matrix,
    /// `∂L/∂W_down`, `(d_model, d_ff)`.
    pub d_w_down: Matrix,
}

impl SwiGlu {
    /// A SwiGLU with these weights. Panics unless `w_gate` and `w_up` are both
    /// `(d_ff, d_model)` and `w_down` is `(d_model, d_ff)`.
    pub fn new(w_gate: Matrix, w_up: Matrix, w_down: Matrix) -> Self {
        assert_eq!(
            w_gate.dim(),
            w_up.dim(),
            "W_gate and W_up must both be (d_ff, d_model)"
        );
        assert_eq!(
            w_down.dim(),
            (w_gate.ncols(), w_gate.nrows()),
            "W_down must be (d_model, d_ff), the transpose of W_gate's shape"
        );
        Self {
            w_gate,
            w_up,
            w_down,
        }
    }

    /// `d_model`, the width in and out.
    pub fn d_model(&self) -> usize {
        self.w_gate.ncols()
    }

    /// `d_ff`, the hidden width.
    pub fn d_ff(&self) -> usize {
        self.w_gate.nrows()
    }

    // ANCHOR: swiglu_forward
    /// `a = x W_gateᵀ`, `b = x W_upᵀ`, `h = SiLU(a) ⊙ b`, `y = h W_downᵀ`:
    /// `(n, d_model)` in, every intermediate kept. The gate is the SiLU of `a`, the
    /// output of `W_gate`; `b` passes through untouched.
    pub fn forward(&self, x: &Matrix) -> SwiGluForward {
        // TODO: the two projections (`x.dot(&w.t())`), the hidden h with `silu` applied
        //       to the gate only, then the output.
        todo!("SwiGlu::forward")
    }
    // ANCHOR_END: swiglu_forward

    // ANCHOR: swiglu_backward
    /// The backward pass, from the forward's input `x` and the upstream gradient `d_y`,
    /// both `(n, d_model)`. With `σ` the logistic sigmoid and
    /// `SiLU'(a) = σ(a)·(1 + a·(1 − σ(a)))`:
    ///
    /// ```text
    /// dW_down = dYᵀ h          dh = dY W_down
    /// db = dh ⊙ SiLU(a)        da = dh ⊙ b ⊙ SiLU'(a)
    /// dW_gate = daᵀ x          dW_up = dbᵀ x
    /// dx = da W_gate + db W_up
    /// ```
    pub fn backward(&self, x: &Matrix, d_y: &Matrix) -> SwiGluGrads {
        // TODO: run forward for a, b and h; then the lines above, in that order.
        todo!("SwiGlu::backward")
    }
    // ANCHOR_END: swiglu_backward
}
