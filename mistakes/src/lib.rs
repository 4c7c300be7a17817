//! The wrong answers that common mistakes produce, computed from a test's inputs, so that
//! a failing check can name the mistake instead of printing numbers only.
//!
//! Each lesson's builders live in its own folder, `solutions/NN-name/mistakes.rs`, beside
//! its list of plausible mistakes (`mistakes.toml`, which `cargo xtask mistakes` applies to
//! the solution); this crate gathers them. Only the solutions' tests link it (their
//! `builders` feature): they call the builders through [`course_harness::named!`], which
//! checks the results against the record beside each test file, and `cargo xtask named`
//! records them again. Everyone else, the learner's crate, the student edition and the
//! checker's grading builds, reads the record: computing a wrong answer takes most of the
//! right computation, and that code must not ship where a learner can read or call it.
//!
//! A builder takes a layer's parameters as borrowed matrices (a small struct of its own
//! where there are several) and computes what it needs of an earlier lesson (softmax,
//! attention, `Linear`, LayerNorm) with the few lines of that lesson's builders. It leaves
//! out the mistakes that give the right answer for the test's inputs, so that they never
//! name a result that is merely imprecise. Every cause is a [`Cause`]: a message id of the
//! harness's catalog, constants in [`course_harness::causes`].

use course_common::Matrix;
use course_harness::Misconception;

/// The misconceptions whose result differs from `right`: a mistake that gives the right
/// answer for a test's inputs must never name a result.
fn differing(right: &Matrix, mistakes: Vec<Misconception>) -> Vec<Misconception> {
    mistakes
        .into_iter()
        .filter(|m| course_harness::distinguishable(&m.result, right))
        .collect()
}

/// The mistakes, less each that gives the same result as one listed before it on this
/// input ([`course_harness::distinguishable`]): a check can then name only one of them,
/// and the first is the one it names. A builder whose mistakes can coincide lists first
/// the cause that is true of all of them (the unbiased variance, before where ε was put),
/// so that the name given is right whichever was made; elsewhere the maintainers' runs
/// reject a list whose mistakes an input cannot tell apart.
fn told_apart(mistakes: Vec<Misconception>) -> Vec<Misconception> {
    let mut kept: Vec<Misconception> = Vec::new();
    for mistake in mistakes {
        if kept
            .iter()
            .all(|k| course_harness::distinguishable(&k.result, &mistake.result))
        {
            kept.push(mistake);
        }
    }
    kept
}

// Every lesson's builders, `solutions/<id>/mistakes.rs`, as a module named after the
// lesson's crate (`attention`, `multi_head_attention`): the build script lists them from
// course.toml, so that a new lesson's builders need no line here.
include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

pub use course_harness::Cause;
