//! The lesson's visible tests, run against the solution.

// The tests name the lesson crate `{{module}}`; here the solution stands in for it.
extern crate {{module}}_solution as {{module}};

#[path = "../learner/tests/visible.rs"]
mod visible;
