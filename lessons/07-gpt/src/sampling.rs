//! Choosing the next token from the model's logits: temperature, top-k and top-p
//! (nucleus) filtering, and a draw by the inverse of the cumulative distribution.
//! Book: chapter 07, "Sampling".

use course_common::Float;

// ANCHOR: softmax_with_temperature
/// The probabilities `softmax(logits / T)`: `T < 1` sharpens the distribution, `T > 1`
/// flattens it, `T = 1` leaves it. Subtract the largest logit first (the result is the
/// same, and `exp` cannot overflow). Panics unless `temperature > 0` (temperature 0 is
/// greedy decoding, which [`sample_next`] handles without dividing).
pub fn softmax_with_temperature(logits: &[Float], temperature: Float) -> Vec<Float> {
    // TODO: assert temperature > 0; z = logits / T; p = exp(z − max z) / Σ exp(z − max z).
    todo!("softmax_with_temperature")
}
// ANCHOR_END: softmax_with_temperature

// ANCHOR: top_k_filter
/// `probs` with all but the `k` most probable tokens set to 0, then renormalised to sum
/// to 1. Among equal probabilities the lower token id ranks first. `k = 0` or
/// `k ≥ probs.len()` keeps every token.
pub fn top_k_filter(probs: &[Float], k: usize) -> Vec<Float> {
    // TODO: order the ids by probability (descending, ids ascending on ties), keep the
    //       first k, zero the rest, divide by the kept sum.
    todo!("top_k_filter")
}
// ANCHOR_END: top_k_filter

// ANCHOR: top_p_filter
/// Nucleus filtering (Holtzman et al., 2020): keep the most probable tokens, in order of
/// probability (the lower id first on ties), up to and including the first one at which
/// their cumulative probability reaches `p`; zero the rest and renormalise. The most
/// probable token is always kept; `p ≥ 1` keeps every token.
pub fn top_p_filter(probs: &[Float], p: Float) -> Vec<Float> {
    // TODO: walk the ids by probability, adding each to the kept set and its probability
    //       to a running sum; stop after the one that brings the sum to p or above.
    todo!("top_p_filter")
}
// ANCHOR_END: top_p_filter

/// How [`sample_next`] chooses: `temperature` 0 is greedy; `top_k` 0 and `top_p` 1 turn
/// their filters off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// Divides the logits; 0 takes the argmax.
    pub temperature: Float,
    /// Keep only the `top_k` most probable tokens (0: all).
    pub top_k: usize,
    /// Keep only the nucleus of probability `top_p` (1: all).
    pub top_p: Float,
}

impl Sampling {
    /// Greedy decoding: always the most probable token.
    pub const GREEDY: Sampling = Sampling {
        temperature: 0.0,
        top_k: 0,
        top_p: 1.0,
    };
}

// ANCHOR: sample_next
/// The next token, from `logits` and a uniform draw `u` in [0, 1) (from a seeded
/// generator, so that a run can be repeated).
///
/// Temperature 0: the argmax (the lowest id among equal maxima), whatever `u`.
/// Otherwise: `softmax_with_temperature`, then `top_k_filter`, then `top_p_filter`, then
/// the first id whose cumulative probability exceeds `u` (the inverse of the cumulative
/// distribution; if rounding leaves `u` above the total, the last id with a nonzero
/// probability).
pub fn sample_next(logits: &[Float], sampling: &Sampling, u: Float) -> usize {
    // TODO: greedy when temperature is 0; else the three steps, then walk the cumulative
    //       sum until it exceeds u.
    todo!("sample_next")
}
// ANCHOR_END: sample_next
