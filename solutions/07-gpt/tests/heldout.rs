//! The checker's held-out tests of lesson 07, run against the solution.

// The tests name the lesson crate `gpt`; here the solution stands in for it.
extern crate gpt_solution as gpt;

#[path = "../suite/heldout.rs"]
mod heldout;
