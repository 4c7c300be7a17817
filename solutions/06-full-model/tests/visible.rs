//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `transformer`; here the solution stands in for it.
extern crate transformer_solution as transformer;

#[path = "../learner/tests/visible.rs"]
mod visible;
