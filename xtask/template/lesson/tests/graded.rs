//! The checker's graded tests of lesson {{padded}}, run against the solution.

// The tests name the lesson crate `{{module}}`; here the solution stands in for it.
extern crate {{module}}_solution as {{module}};

#[path = "../suite/graded.rs"]
mod graded;
