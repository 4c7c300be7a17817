//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `positional_encoding`; here the solution stands in for it.
extern crate positional_encoding_solution as positional_encoding;

#[path = "../learner/tests/visible.rs"]
mod visible;
