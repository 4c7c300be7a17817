//! The checker's graded tests of lesson 06, run against the solution.

// The tests name the lesson crate `transformer`; here the solution stands in for it.
extern crate transformer_solution as transformer;

#[path = "../suite/graded.rs"]
mod graded;
