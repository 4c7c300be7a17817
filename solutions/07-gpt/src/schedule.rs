//! AdamW and the learning-rate schedule of today's language models: a linear warm-up,
//! then a cosine decay to a floor. Book: chapter 07, "AdamW and the cosine schedule".

use course_common::Float;

// ANCHOR: cosine_rate
/// The learning rate at `step` (counted from 0): a linear warm-up over the first `warmup`
/// steps, then half a cosine from `max_lr` down to `min_lr` at step `total`, and `min_lr`
/// after it:
///
/// ```text
/// step < warmup:          max_lr · (step + 1) / warmup
/// warmup ≤ step ≤ total:  min_lr + (max_lr − min_lr) · (1 + cos(π · progress)) / 2,
///                         progress = (step − warmup) / (total − warmup)
/// step > total:           min_lr
/// ```
///
/// (as nanoGPT's `get_lr`). Panics unless `warmup < total`. Lesson 06's Noam rate decays
/// as 1/√step for ever; this one reaches its floor at a step chosen in advance.
pub fn cosine_rate(
    step: usize,
    warmup: usize,
    total: usize,
    max_lr: Float,
    min_lr: Float,
) -> Float {
    // TODO: the three cases above; count progress in Float.
    // BEGIN SOLUTION: todo!("cosine_rate")
    assert!(
        warmup < total,
        "the warm-up ({warmup} steps) must end before the last step ({total})"
    );
    if step < warmup {
        return max_lr * (step + 1) as Float / warmup as Float;
    }
    if step > total {
        return min_lr;
    }
    let progress = (step - warmup) as Float / (total - warmup) as Float;
    min_lr + (max_lr - min_lr) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
    // END SOLUTION
}
// ANCHOR_END: cosine_rate

// ANCHOR: adamw
/// AdamW (Loshchilov and Hutter, 2019): Adam whose weight decay is decoupled from the
/// gradient, and its state.
#[derive(Debug, Clone, PartialEq)]
pub struct AdamW {
    /// The decay of the first moment, `β₁` (0.9).
    pub beta1: Float,
    /// The decay of the second moment, `β₂` (0.95, as GPT-3 and nanoGPT).
    pub beta2: Float,
    /// Added to `√v̂` (1e-8, PyTorch's default).
    pub eps: Float,
    /// The weight decay `λ` (0.1).
    pub weight_decay: Float,
    /// Whether each tensor decays: weight matrices do, gains (RMSNorm's) do not.
    pub decays: Vec<bool>,
    /// The number of updates made so far, `t`.
    pub step: u64,
    /// The first moment `m` of every tensor, flattened.
    pub m: Vec<Vec<Float>>,
    /// The second moment `v` of every tensor.
    pub v: Vec<Vec<Float>>,
}
// ANCHOR_END: adamw

impl AdamW {
    /// AdamW for these parameters (only their sizes are used), with `decays[k]` saying
    /// whether tensor `k` decays: `β₁ = 0.9`, `β₂ = 0.95`, `ε = 1e-8`, `λ = 0.1`,
    /// `m = v = 0`. Panics unless there is one flag per tensor.
    pub fn new(params: &[&[Float]], decays: &[bool]) -> Self {
        assert_eq!(
            params.len(),
            decays.len(),
            "one decay flag per parameter tensor"
        );
        let zeros = || params.iter().map(|p| vec![0.0; p.len()]).collect();
        Self {
            beta1: 0.9,
            beta2: 0.95,
            eps: 1e-8,
            weight_decay: 0.1,
            decays: decays.to_vec(),
            step: 0,
            m: zeros(),
            v: zeros(),
        }
    }

    // ANCHOR: adamw_update
    /// One update of every parameter with learning rate `lr`, from `grads` (the same
    /// tensors, in the same order, as `params`). Increment `step` to `t`; then, for every
    /// entry `θ` with gradient `g`, exactly as PyTorch's `torch.optim.AdamW`:
    ///
    /// ```text
    /// θ ← θ − lr·λ·θ                      (only if the tensor decays; before the rest)
    /// m ← β₁ m + (1 − β₁) g               v ← β₂ v + (1 − β₂) g²
    /// θ ← θ − lr · m̂ / (√v̂ + ε)           m̂ = m / (1 − β₁ᵗ),  v̂ = v / (1 − β₂ᵗ)
    /// ```
    ///
    /// The decay never enters `m` or `v`: with Adam plus an L2 term (`g + λθ`), the
    /// division by `√v̂` would shrink the decay of the parameters with large gradients.
    /// Panics if the tensors do not match the state.
    pub fn update(&mut self, params: &mut [&mut [Float]], grads: &[&[Float]], lr: Float) {
        // TODO: step += 1; per tensor k and entry i: decay θ if self.decays[k], then
        //       Adam's update of m, v and θ with the bias corrections for t = step.
        // BEGIN SOLUTION: todo!("AdamW::update")
        assert_eq!(
            params.len(),
            self.m.len(),
            "one tensor per parameter tensor"
        );
        assert_eq!(
            grads.len(),
            self.m.len(),
            "one gradient tensor per parameter tensor"
        );
        self.step += 1;
        let t = self.step as i32;
        let correction1 = 1.0 - self.beta1.powi(t);
        let correction2 = 1.0 - self.beta2.powi(t);
        for (k, (param, grad)) in params.iter_mut().zip(grads).enumerate() {
            assert_eq!(
                param.len(),
                grad.len(),
                "tensor {k}: gradient and parameter sizes differ"
            );
            let decay = if self.decays[k] {
                lr * self.weight_decay
            } else {
                0.0
            };
            let (m, v) = (&mut self.m[k], &mut self.v[k]);
            for i in 0..param.len() {
                let g = grad[i];
                param[i] -= decay * param[i];
                m[i] = self.beta1 * m[i] + (1.0 - self.beta1) * g;
                v[i] = self.beta2 * v[i] + (1.0 - self.beta2) * g * g;
                let m_hat = m[i] / correction1;
                let v_hat = v[i] / correction2;
                param[i] -= lr * m_hat / (v_hat.sqrt() + self.eps);
            }
        }
        // END SOLUTION
    }
    // ANCHOR_END: adamw_update
}
