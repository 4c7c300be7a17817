//! The checker's graded tests of lesson 06, run against the solution.

// The tests name the lesson crate `transformer`; here the solution stands in for it.
extern crate transformer_solution as transformer;

#[path = "../../../checker/suites/06-full-model/graded.rs"]
mod graded;
