//! The checker's graded tests of lesson 05, run against the solution.

// The tests name the lesson crate `encoder_layer`; here the solution stands in for it.
extern crate encoder_layer_solution as encoder_layer;

#[path = "../suite/graded.rs"]
mod graded;
