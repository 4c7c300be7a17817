//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `gpt`; here the solution stands in for it.
extern crate gpt_solution as gpt;

#[path = "../learner/tests/visible.rs"]
mod visible;
