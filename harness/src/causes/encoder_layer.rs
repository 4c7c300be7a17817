use crate::Cause;

/// γ and β exchanged: named by every LayerNorm check.
pub const GAMMA_BETA_SWAPPED: Cause = Cause::harness("gamma-beta-swapped");

/// GELU's tanh approximation in place of the ReLU.
pub const GELU_TANH: Cause = Cause::harness("gelu-tanh");

/// The exact GELU in place of the ReLU.
pub const GELU_ERF: Cause = Cause::harness("gelu-erf");

/// A post-LN layer that computed pre-LN.
pub const POST_NOT_PRE: Cause = Cause::harness("post-not-pre");

/// A pre-LN layer that computed post-LN.
pub const PRE_NOT_POST: Cause = Cause::harness("pre-not-post");

/// No residual connection anywhere.
pub const NO_RESIDUAL: Cause = Cause::harness("no-residual");

/// A layer whose FFN has no ReLU.
pub const NO_RELU: Cause = Cause::harness("no-relu");

/// Every pre-LN residual taken from the normalised input.
pub const RESIDUAL_FROM_NORM: Cause = Cause::harness("residual-from-norm");

/// The decoder's cross-attention queried with the layer's input.
pub const CROSS_QUERIES_FROM_INPUT: Cause = Cause::harness("cross-queries-from-input");

/// The decoder's self-attention without its mask.
pub const NO_CAUSAL_MASK: Cause = Cause::harness("self-mask-ignored");

/// The decoder's cross-attention without its mask.
pub const NO_MEMORY_MASK: Cause = Cause::harness("memory-mask-ignored");

/// The decoder's cross-attention over its own stream.
pub const CROSS_OVER_SELF: Cause = Cause::harness("cross-over-self");
