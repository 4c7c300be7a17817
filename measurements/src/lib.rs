//! The course's own measurements, run on the reference solutions.
//!
//! A chapter asks the learner to run the measurement programs of their own lesson crate
//! (`cargo run -p <lesson crate> --example NAME`), on the code they wrote. A program that
//! has to compute, on the way, something a lesson asks a learner to write cannot be one
//! of those: the student edition would carry a correct implementation of that function
//! for anyone to read. Those programs are this crate's examples instead:
//!
//! - `sequential_steps` (chapter 01) times one self-attention head, lesson 02's answer,
//!   and an RNN forward pass with its input projections batched, lesson 01's;
//! - `gradient_highway` (chapter 05) initialises a stack with lesson 06's Xavier rule and
//!   runs the pre-LN layer and the layer without its skips, variants of lesson 05's layer;
//! - `length_sweep` (chapter 06) trains lesson 01's RNN as an encoder–decoder, with
//!   backpropagation through time written out for batches (lesson 01's `backward`).
//!
//! `cargo xtask figures` and `cargo xtask experiments` run the ones `course.toml` names,
//! like the lessons' own; the chapters quote their output and name the command.
