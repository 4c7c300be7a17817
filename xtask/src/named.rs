//! `cargo xtask named [NN]`: record the named mistakes' wrong answers beside the tests.
//!
//! The builders of the wrong answers (the `course-mistakes` crate, each lesson's part in
//! `solutions/NN-name/mistakes.rs`) are compiled only into the solutions' tests; every
//! other build of a test file reads what they computed from the `.named.json` beside it
//! (see `course_harness::named`). This task runs each solution's tests with
//! `COURSE_NAMED_WRITE` set, so that every builder call writes its result there. The
//! solutions' ordinary `cargo test` checks the record, so CI fails until this has run
//! after a change of a builder or of a test's inputs.

use anyhow::{Result, bail};
use course_manifest::Manifest;
use std::path::Path;
use std::process::Command;

/// What makes the builders record (`course_harness::named::WRITE_ENV`): the workspace
/// root, against which each test file's path is resolved.
const WRITE_ENV: &str = "COURSE_NAMED_WRITE";

/// Records the named mistakes of every lesson whose id starts with `only` (all without).
pub fn run(root: &Path, only: Option<&str>) -> Result<()> {
    let manifest = Manifest::load(&root.join("course.toml"))?;
    let lessons: Vec<_> = manifest
        .lessons
        .iter()
        .filter(|lesson| only.is_none_or(|only| lesson.id.starts_with(only)))
        .collect();
    if lessons.is_empty() {
        bail!("no lesson's id starts with {only:?}: see course.toml for the ids");
    }
    for lesson in lessons {
        let package = format!("{}-solution", lesson.crate_name);
        eprintln!("recording the named mistakes of {} ({package})", lesson.id);
        // The record is read at compile time: the tests are built against the files as
        // they are, then each builder call rewrites its file.
        crate::run_command(
            Command::new("cargo")
                .current_dir(root)
                .args(["test", "-q", "-p", &package, "--tests"])
                .env(WRITE_ENV, root),
        )?;
    }
    // The visible tests' records are in each lesson's learner folder: lessons/ gets them.
    crate::stubs::run(root, false)?;
    eprintln!("done: commit the changed .named.json files");
    Ok(())
}
