//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `attention`; here the solution stands in for it.
extern crate attention_solution as attention;

#[path = "../learner/tests/visible.rs"]
mod visible;
