use crate::{Cause, Misconception, Tol};
use course_common::Float;

/// The embeddings left unscaled in the model.
pub const NO_EMBEDDING_SCALE: Cause = Cause::harness("no-embedding-scale");

/// No positional encoding in the model.
pub const NO_POSITIONS: Cause = Cause::harness("no-positions");

/// The decoder's self-attention without the causal mask.
pub const NO_CAUSAL_MASK: Cause = Cause::harness("no-causal-mask");

/// The encoder's self-attention without the source's padding mask.
pub const NO_ENCODER_MASK: Cause = Cause::harness("no-encoder-mask");

/// The cross-attention without the source's padding mask.
pub const NO_CROSS_MASK: Cause = Cause::harness("no-cross-mask");

/// Every layer fed the embeddings.
pub const SAME_INPUT: Cause = Cause::harness("same-input");

/// The loss divided by the number of rows.
pub const LOSS_OVER_EVERY_ROW: Cause = Cause::harness("loss-over-every-row");

/// An overflowing log-softmax.
pub const LOG_SOFTMAX_OVERFLOW: Cause = Cause::harness("log-softmax-overflow");

/// The warm-up with `max`.
pub const NOAM_MAX: Cause = Cause::harness("noam-max");

/// Adam without bias correction.
pub const NO_BIAS_CORRECTION: Cause = Cause::harness("no-bias-correction");

/// Adam's ε inside the square root.
pub const EPS_INSIDE_THE_ROOT: Cause = Cause::harness("eps-inside-the-root");

/// What to do when the memory's gradient is wrong.
pub const SUM_OF_D_MEMORY: Cause = Cause::harness("sum-of-d-memory");

/// What to do when a parameter's gradient is wrong.
pub const ADD_NEVER_ASSIGN: Cause = Cause::harness("add-never-assign");

/// Greedy decoding that does not start from BOS.
pub const START_FROM_BOS: Cause = Cause::harness("start-from-bos");

/// A cache that does not keep the earlier positions.
pub const CACHE_APPEND: Cause = Cause::harness("cache-append");

/// The likely cause of a wrong `noam_rate(step, …, warmup, …)` that came back as `got`:
/// step 0 not treated as step 1, a wrong value among `candidates` (the builders'
/// `noam_mistakes`: `max` for `min`), or else the warm-up or the rule.
pub fn noam_cause(
    got: Float,
    step: usize,
    warmup: usize,
    candidates: &[Misconception],
) -> Cause {
    let close = Tol {
        abs: 1e-15,
        rel: 1e-9,
    };
    if step == 0 && !got.is_finite() {
        Cause::harness("noam-step-zero-infinite").named()
    } else if step == 0 && got == 0.0 {
        Cause::harness("noam-step-zero-zero").named()
    } else if let Some(m) = candidates
        .iter()
        .find(|m| m.result.len() == 1 && close.accepts(got, m.result[[0, 0]]))
    {
        m.cause.named()
    } else if step < warmup {
        Cause::harness("noam-warm-up")
    } else {
        Cause::harness("noam-rule")
    }
}
