//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `rnn`; here the solution stands in for it.
extern crate rnn_solution as rnn;

#[path = "../../../lessons/01-rnn-bottleneck/tests/visible.rs"]
mod visible;
