use crate::Cause;

/// The softmax over the wrong axis, named once for every check that can see it.
pub const WRONG_AXIS: Cause = Cause::harness("wrong-axis");

/// Overflow in a softmax that does not subtract the row maximum.
pub const NO_MAX_SUBTRACTION: Cause = Cause::harness("no-max-subtraction");

/// A mask applied to the weights instead of the scores.
pub const MASK_AFTER_SOFTMAX: Cause = Cause::harness("mask-after-softmax");
