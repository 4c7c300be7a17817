//! Training: the step and the loop.
//!
//! Training: one step (forward, loss, backward, clip, Adam), and the loop that repeats it
//! over any source of batches.
//!
//! The loop takes its batches from a closure, so the same code trains the date model of
//! the experiment or any other sequence-to-sequence task (copying, reversing) built as
//! [`Batch`]es. Book: chapter 06, "The training step".

use crate::data::Batch;
use crate::loss::cross_entropy_loss;
use crate::model::Transformer;
use crate::optimizer::{Adam, clip_global_norm, noam_factor, noam_rate};
use course_common::Float;

/// How to train.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// The number of updates.
    pub steps: usize,
    /// The number of (source, target) pairs per batch.
    pub batch_size: usize,
    /// The learning rate at the top of the warm-up, reached at step `warmup`.
    pub peak_lr: Float,
    /// The number of warm-up steps.
    pub warmup: usize,
    /// The largest global gradient norm; larger gradients are scaled down to it.
    pub clip_norm: Float,
    /// The label smoothing `ε` of the loss (0 for none).
    pub label_smoothing: Float,
    /// Adam's `β₁`.
    pub beta1: Float,
    /// Adam's `β₂`.
    pub beta2: Float,
    /// Adam's `ε`.
    pub adam_eps: Float,
}

impl TrainConfig {
    /// The date experiment's settings: 3000 steps of 64 pairs, a peak learning rate
    /// of 3e-3 after 100 warm-up steps then `∝ 1/√step`, clipping at 1, no label
    /// smoothing, Adam(0.9, 0.98, 1e-9).
    pub fn dates() -> Self {
        Self {
            steps: 3000,
            batch_size: 64,
            peak_lr: 3e-3,
            warmup: 100,
            clip_norm: 1.0,
            label_smoothing: 0.0,
            beta1: 0.9,
            beta2: 0.98,
            adam_eps: 1e-9,
        }
    }

    /// The learning rate at `step` (from 1) for a model of width `d_model`: the
    /// paper's schedule, [`noam_rate`], with the factor that makes its peak
    /// `peak_lr`.
    pub fn learning_rate(&self, step: usize, d_model: usize) -> Float {
        let factor = noam_factor(self.peak_lr, d_model, self.warmup);
        noam_rate(step, d_model, self.warmup, factor)
    }
}

/// What one training step measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepReport {
    /// The step, from 1.
    pub step: usize,
    /// The loss of the batch, before the update.
    pub loss: Float,
    /// The global norm of the gradient, before clipping.
    pub grad_norm: Float,
    /// The learning rate used.
    pub lr: Float,
    /// The number of target tokens (not padding) the loss averaged over.
    pub tokens: usize,
}

// ANCHOR: train_step
/// One step of training on `batch`, with learning rate `lr`:
///
/// 1. `model.forward(batch)`;
/// 2. [`cross_entropy_loss`] of its logits against `batch.targets()`, with
///    `smoothing`;
/// 3. `model.backward` of the loss's `d_logits`: the gradient, a model-shaped
///    value;
/// 4. [`clip_global_norm`] of the gradient's tensors (`parameters_mut()`) to
///    `clip_norm`;
/// 5. `adam.update` of the model's tensors (`parameters_mut()`) with the gradient's
///    (`parameters()`).
///
/// Returns the loss (before the update), the gradient norm (before clipping), `lr`
/// and the number of target tokens; `step` is `adam.step` after the update. Book:
/// chapter 06, "The training step".
pub fn train_step(
    model: &mut Transformer,
    adam: &mut Adam,
    batch: &Batch,
    lr: Float,
    clip_norm: Float,
    smoothing: Float,
) -> StepReport {
    // TODO: forward, cross_entropy_loss, backward, clip the gradient, update with
    //       Adam; report the loss, the norm before clipping, lr and the number of
    //       tokens.
    // BEGIN SOLUTION: todo!("train_step")
    let forward = model.forward(batch);
    let loss = cross_entropy_loss(&forward.logits, &batch.targets(), smoothing);
    let mut grads = model.backward(batch, &forward, &loss.d_logits);
    let grad_norm = clip_global_norm(&mut grads.parameters_mut(), clip_norm);
    adam.update(&mut model.parameters_mut(), &grads.parameters(), lr);
    StepReport {
        step: adam.step as usize,
        loss: loss.value,
        grad_norm,
        lr,
        tokens: loss.tokens,
    }
    // END SOLUTION
}
// ANCHOR_END: train_step

/// Trains `model` for `config.steps` steps: `next_batch(step)` gives each step's
/// batch (steps count from 1), [`TrainConfig::learning_rate`] its learning rate,
/// and `on_step` sees every step's report as soon as it is made. Returns every
/// report.
pub fn train(
    model: &mut Transformer,
    config: &TrainConfig,
    mut next_batch: impl FnMut(usize) -> Batch,
    mut on_step: impl FnMut(&StepReport),
) -> Vec<StepReport> {
    let mut adam = Adam::with_betas(
        &model.parameters(),
        config.beta1,
        config.beta2,
        config.adam_eps,
    );
    let d_model = model.config.d_model;
    let mut reports = Vec::with_capacity(config.steps);
    for step in 1..=config.steps {
        let batch = next_batch(step);
        let lr = config.learning_rate(step, d_model);
        let report = train_step(
            model,
            &mut adam,
            &batch,
            lr,
            config.clip_norm,
            config.label_smoothing,
        );
        on_step(&report);
        reports.push(report);
    }
    reports
}
