//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `multi_head_attention`; here the solution stands in for it.
extern crate multi_head_attention_solution as multi_head_attention;

#[path = "../learner/tests/visible.rs"]
mod visible;
