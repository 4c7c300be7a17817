//! The checker's held-out tests of lesson {{padded}}, run against the solution.

// The tests name the lesson crate `{{module}}`; here the solution stands in for it.
extern crate {{module}}_solution as {{module}};

#[path = "../suite/heldout.rs"]
mod heldout;
