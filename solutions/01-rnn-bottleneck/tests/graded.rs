//! The checker's graded tests of lesson 01, run against the solution.

// The tests name the lesson crate `rnn`; here the solution stands in for it.
extern crate rnn_solution as rnn;

#[path = "../suite/graded.rs"]
mod graded;
