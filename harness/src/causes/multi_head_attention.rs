use crate::{Cause, Misconception, scalar_cause};

/// Heads cut from interleaved columns: named by split, merge, weights and outputs.
pub const INTERLEAVED: Cause = Cause::harness("heads-interleaved");

/// Heads cut from the row-major numbers, mixing tokens.
pub const PLAIN_RESHAPE: Cause = Cause::harness("heads-plain-reshape");

/// The mask left out of the heads' attention: named by weights and outputs.
pub const MASK_NOT_PASSED: Cause = Cause::harness("mask-not-passed-to-heads");

/// Keys and values projected from the query input: named by outputs and shapes.
pub const KV_FROM_QUERY: Cause = Cause::harness("kv-from-query");

/// A projection used in place of another (the values projected with W_k, the queries
/// with W_k): named by outputs.
pub const VALUES_BY_W_K: Cause = Cause::harness("values-projected-by-w-k");

/// The queries projected with the key projection: named by outputs.
pub const QUERIES_BY_W_K: Cause = Cause::harness("queries-projected-by-w-k");

/// What to do when the number of weight matrices is not the number of heads.
pub const ONE_PER_HEAD: Cause = Cause::harness("one-weight-matrix-per-head");

/// The heads handed `d_output` instead of `d_output W_o`: named by both input gradients.
pub const NOT_THROUGH_W_O: Cause = Cause::harness("not-through-w-o");

/// The likely cause of a `parameter_count` that returned `got` where `expected` is right:
/// the wrong count among `candidates` (the builders' `parameter_count_mistakes`) that it
/// equals, or else how `got` relates to `expected` (twice it, its square, …) and the
/// general rule.
pub fn parameter_count_cause(
    got: usize,
    expected: usize,
    candidates: &[Misconception],
) -> String {
    use course_common::Float;
    match scalar_cause(got as Float, expected as Float, candidates) {
        Some(cause) => cause.text().to_owned(),
        None => crate::relations::or_relation(
            got as Float,
            expected as Float,
            Cause::harness("count-every-parameter").text(),
        ),
    }
}
