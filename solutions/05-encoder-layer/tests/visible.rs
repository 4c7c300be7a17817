//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `encoder_layer`; here the solution stands in for it.
extern crate encoder_layer_solution as encoder_layer;

#[path = "../learner/tests/visible.rs"]
mod visible;
