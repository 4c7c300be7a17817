//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `rnn`; here the solution stands in for it.
extern crate rnn_solution as rnn;

#[path = "../learner/tests/visible.rs"]
mod visible;
