//! The lesson's test with GPT-2's vocabulary, run against the solution.

// The tests name the lesson crate `gpt`; here the solution stands in for it.
extern crate gpt_solution as gpt;

#[path = "../learner/tests/gpt2_vocabulary.rs"]
mod gpt2_vocabulary;
