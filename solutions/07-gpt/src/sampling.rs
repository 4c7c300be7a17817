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
    // BEGIN SOLUTION: todo!("softmax_with_temperature")
    assert!(
        temperature > 0.0,
        "the temperature must be positive (0 means greedy: take the argmax instead)"
    );
    let max = logits.iter().copied().fold(Float::NEG_INFINITY, Float::max);
    let exps: Vec<Float> = logits
        .iter()
        .map(|&l| ((l - max) / temperature).exp())
        .collect();
    let sum: Float = exps.iter().sum();
    exps.iter().map(|e| e / sum).collect()
    // END SOLUTION
}
// ANCHOR_END: softmax_with_temperature

// ANCHOR: top_k_filter
/// `probs` with all but the `k` most probable tokens set to 0, then renormalised to sum
/// to 1. Among equal probabilities the lower token id ranks first. `k = 0` or
/// `k ≥ probs.len()` keeps every token.
pub fn top_k_filter(probs: &[Float], k: usize) -> Vec<Float> {
    // TODO: order the ids by probability (descending, ids ascending on ties), keep the
    //       first k, zero the rest, divide by the kept sum.
    // BEGIN SOLUTION: todo!("top_k_filter")
    if k == 0 || k >= probs.len() {
        return probs.to_vec();
    }
    let order = by_probability(probs);
    let mut kept = vec![0.0; probs.len()];
    for &id in &order[..k] {
        kept[id] = probs[id];
    }
    renormalise(kept)
    // END SOLUTION
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
    // BEGIN SOLUTION: todo!("top_p_filter")
    let mut kept = vec![0.0; probs.len()];
    let mut cumulative = 0.0;
    for id in by_probability(probs) {
        kept[id] = probs[id];
        cumulative += probs[id];
        if cumulative >= p {
            break;
        }
    }
    renormalise(kept)
    // END SOLUTION
}
// ANCHOR_END: top_p_filter

// BEGIN SOLUTION
/// The token ids, most probable first, the lower id first among equals.
fn by_probability(probs: &[Float]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    order
}

/// `kept` divided by its sum.
fn renormalise(kept: Vec<Float>) -> Vec<Float> {
    let sum: Float = kept.iter().sum();
    kept.into_iter().map(|q| q / sum).collect()
}
// END SOLUTION
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
    // BEGIN SOLUTION: todo!("sample_next")
    assert!(
        !logits.is_empty(),
        "there must be at least one token to choose from"
    );
    if sampling.temperature == 0.0 {
        return by_probability(logits)[0];
    }
    let probs = softmax_with_temperature(logits, sampling.temperature);
    let probs = top_p_filter(&top_k_filter(&probs, sampling.top_k), sampling.top_p);
    let mut cumulative = 0.0;
    let mut last = 0;
    for (id, &q) in probs.iter().enumerate() {
        if q > 0.0 {
            cumulative += q;
            last = id;
            if cumulative > u {
                return id;
            }
        }
    }
    last
    // END SOLUTION
}
// ANCHOR_END: sample_next
