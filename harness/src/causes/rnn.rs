use crate::Cause;

/// `h W_hh` instead of `h W_hhᵀ`: named by every check of the step.
pub const W_HH_NOT_TRANSPOSED: Cause = Cause::harness("w-hh-not-transposed");

/// Only the last state's upstream gradient used: named for every gradient of BPTT.
pub const LAST_UPSTREAM_ONLY: Cause = Cause::harness("last-upstream-only");

/// Each state's upstream gradient replaced the carried one: named for every gradient
/// of BPTT.
pub const CARRY_DROPPED: Cause = Cause::harness("carry-dropped");

/// A step handed its own output as its previous state: named by BPTT's dW_hh checks.
pub const OWN_OUTPUT_AS_PREVIOUS: Cause = Cause::harness("own-output-as-previous");
