//! The checker's graded tests of lesson 02, run against the solution.

// The tests name the lesson crate `attention`; here the solution stands in for it.
extern crate attention_solution as attention;

#[path = "../suite/graded.rs"]
mod graded;
