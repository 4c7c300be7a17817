//! The optimiser: the warm-up schedule, clipping, Adam.
//!
//! How the parameters move: the paper's warm-up schedule, clipping by the global norm,
//! and Adam.
//!
//! ```text
//! lr(step) = factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)
//! g ← g · min(1, max_norm / ‖g‖)                  ‖g‖ over every tensor at once
//! m ← β₁ m + (1 − β₁) g      v ← β₂ v + (1 − β₂) g²
//! θ ← θ − lr · m̂ / (√v̂ + ε)  m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)
//! ```
//!
//! Every function takes the parameters (or gradients) as a list of flat tensors, the
//! form [`Transformer::parameters`](crate::Transformer::parameters) gives. Book: chapter
//! 06, "Adam and the warm-up".

use course_common::Float;

// ANCHOR: noam_rate
/// The learning rate of the paper's schedule (section 5.3) at `step`:
/// `factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5)`.
///
/// It rises linearly for `warmup` steps, peaks at `step = warmup` with
/// `factor / √(d_model · warmup)`, then decays as `1/√step`. Steps count from 1;
/// step 0 is treated as step 1 (the Annotated Transformer does the same). With
/// `d_model = 512`, `warmup = 4000`, `factor = 1`: step 1 gives 1.747e-7, step 4000
/// gives 6.988e-4. Book: chapter 06, "Adam and the warm-up".
pub fn noam_rate(step: usize, d_model: usize, warmup: usize, factor: Float) -> Float {
    // TODO: factor · d_model^−0.5 · min(step^−0.5, step · warmup^−1.5), with step 0
    //       counted as step 1.
    todo!("noam_rate")
}
// ANCHOR_END: noam_rate

/// The `factor` of [`noam_rate`] that makes the peak, at `step = warmup`, equal to
/// `peak_lr`: `peak_lr · √(d_model · warmup)`.
pub fn noam_factor(peak_lr: Float, d_model: usize, warmup: usize) -> Float {
    peak_lr * ((d_model * warmup) as Float).sqrt()
}

// ANCHOR: clip_global_norm
/// Scales every tensor of `grads` by the same factor so that their **global** norm,
/// `√(Σ over every entry of every tensor of g²)`, is at most `max_norm`; returns
/// the norm before clipping.
///
/// If the norm is already at most `max_norm`, nothing changes. Otherwise every
/// entry is multiplied by `max_norm / norm`: the direction of the whole gradient is
/// kept, only its length shrinks. (Clipping each tensor on its own would change the
/// direction.) Book: chapter 06, "Clipping".
pub fn clip_global_norm(grads: &mut [&mut [Float]], max_norm: Float) -> Float {
    // TODO: the norm over every entry of every tensor; above max_norm, multiply
    //       every entry by max_norm / norm. Return the norm before clipping.
    todo!("clip_global_norm")
}
// ANCHOR_END: clip_global_norm

/// The Adam optimiser (Kingma and Ba, 2015), with bias correction, and its state.
#[derive(Debug, Clone, PartialEq)]
pub struct Adam {
    /// The decay of the first moment, `β₁` (0.9).
    pub beta1: Float,
    /// The decay of the second moment, `β₂` (0.98 in the paper; PyTorch's default
    /// is 0.999).
    pub beta2: Float,
    /// Added to `√v̂` so that a zero second moment does not divide by 0 (1e-9).
    pub eps: Float,
    /// The number of updates made so far, `t`.
    pub step: u64,
    /// The first moment `m` of every tensor, the parameters' shapes, flattened.
    pub m: Vec<Vec<Float>>,
    /// The second moment `v` of every tensor.
    pub v: Vec<Vec<Float>>,
}

impl Adam {
    /// Adam for the given parameters (only their sizes are used) with the paper's
    /// settings: `β₁ = 0.9`, `β₂ = 0.98`, `ε = 1e-9`, and `m = v = 0`.
    pub fn new(params: &[&[Float]]) -> Self {
        Self::with_betas(params, 0.9, 0.98, 1e-9)
    }

    /// Adam with the given `β₁`, `β₂` and `ε`, and `m = v = 0`.
    pub fn with_betas(
        params: &[&[Float]],
        beta1: Float,
        beta2: Float,
        eps: Float,
    ) -> Self {
        let zeros = || params.iter().map(|p| vec![0.0; p.len()]).collect();
        Self {
            beta1,
            beta2,
            eps,
            step: 0,
            m: zeros(),
            v: zeros(),
        }
    }

    // ANCHOR: adam_update
    /// One update of every parameter with learning rate `lr`, from the gradients
    /// `grads` (the same tensors, in the same order, as `params`).
    ///
    /// Increment `step` (to `t`), then for every entry, with its gradient `g`:
    ///
    /// ```text
    /// m ← β₁ m + (1 − β₁) g          v ← β₂ v + (1 − β₂) g²
    /// θ ← θ − lr · m̂ / (√v̂ + ε)      m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)
    /// ```
    ///
    /// Without the bias correction, `m` and `v` start near 0 and the first steps
    /// would be far too small (by a factor `(1 − β₁)/√(1 − β₂) ≈ 0.71` at `t = 1`).
    /// With it, the first step moves every parameter whose gradient is not tiny by
    /// almost exactly `lr`, against the sign of its gradient. Panics if the tensors
    /// do not match the optimiser's state. Book: chapter 06, "Adam and the
    /// warm-up".
    pub fn update(&mut self, params: &mut [&mut [Float]], grads: &[&[Float]], lr: Float) {
        // TODO: step += 1; for every entry, update m and v, correct their bias with
        //       t = step, and move the parameter by −lr · m̂ / (√v̂ + ε).
        todo!("Adam::update")
    }
    // ANCHOR_END: adam_update
}
