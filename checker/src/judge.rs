//! The judge: the course's own build of each suite, which decides every verdict.
//!
//! The judge is the graded suites compiled against the reference solutions (in the
//! instructor's edition), built once per course into `target/checker/judge-target/` and
//! shared by every grading (rebuilt only when the course changes). It is trusted code and
//! runs as it is. For each test, the checker hands it the tape the learner's sandboxed
//! run recorded; the judge replays the test body with those values (see
//! `course_harness::tape`) and writes `pass`, or `fail` and the teaching message. It runs
//! no learner code: the learner's process only ever contributes values.
//!
//! Where the course has no reference solutions (the student edition, which a learner
//! grades for themselves), the judge is the learner's own test executable replaying its
//! own tape, in a sandbox like the record run's: there is no answer there to protect.
//!
//! Built on the reference solutions, the judge also runs each call the test makes on the
//! reference, with the same inputs, and fails a test whose checks pass but whose values
//! differ from the reference's (`course_harness::reference_run`): a test's checks look at
//! chosen properties, the comparison at every value.
//!
//! `checker verify` builds a second judge on the stubs (`lessons/`, every body a
//! `todo!()`): the solutions must still score 100% with it, which proves that every call
//! a suite makes into a lesson goes through the tape (a call outside it would hit a
//! `todo!()`), so no verdict silently uses the reference's values for the learner's.

use crate::compile::{self, Toolchain};
use crate::course::{Course, ExpectedTest};
use crate::messages::{INSTRUCTOR, MESSAGES};
use crate::process::{self, Limits};
use crate::sandbox::{Bind, Sandbox};
use crate::scratch::{Origin, Scratch};
use anyhow::{Context, Result};
use course_harness::report::{Verdict, parse_verdict};
use course_harness::tape::{REFERENCE_ENV, REPLAY_ENV};
use course_i18n::tr;
use course_manifest::Lesson;
use rand::RngExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A built judge: its test executables by lesson id and tier.
#[derive(Debug, Default)]
pub struct Judge {
    executables: HashMap<(String, String), PathBuf>,
    /// Why a lesson's judge did not build, by lesson id (a defect of the course).
    pub failures: HashMap<String, String>,
}

impl Judge {
    /// Builds the judge of `lessons` from `origin` (the reference solutions, or the stubs
    /// for verify).
    pub fn build(
        course: &Course,
        toolchain: &Toolchain,
        origin: Origin,
        timeout: Duration,
        lessons: &[&Lesson],
    ) -> Result<Self> {
        let key = match origin {
            Origin::Stub => "judge-on-stubs",
            _ => "judge",
        };
        let scratch = Scratch::prepare_trusted(course, origin, key)?;
        let target = course.scratch_dir().join("judge-target");
        let ids: Vec<&str> = lessons.iter().map(|lesson| lesson.id.as_str()).collect();
        let build =
            compile::build_trusted(course, toolchain, &scratch, &target, timeout, &ids)
                .with_context(|| tr!(INSTRUCTOR, "judge-could-not-build"))?;
        let mut judge = Judge::default();
        for ((dir, tier), executable) in build.executables {
            if let Some(id) = dir.file_name() {
                judge
                    .executables
                    .insert((id.to_string_lossy().into_owned(), tier), executable);
            }
        }
        for lesson in lessons {
            let dir = scratch.lesson_dir(lesson);
            if let Some(errors) =
                build.errors.get(&dir).or(build.failures.get(&scratch.dir))
            {
                judge.failures.insert(lesson.id.clone(), errors.clone());
            }
        }
        Ok(judge)
    }

    /// The judge's executable for a lesson's tier, if it built.
    pub fn executable(&self, lesson: &Lesson, test: &ExpectedTest) -> Option<&Path> {
        self.executables
            .get(&(lesson.id.clone(), test.tier.stem().to_owned()))
            .map(PathBuf::as_path)
    }
}

/// Replays the recorded `tapes` (test name, tape) in the judge executable `judge`, all in
/// one process on `threads` threads, and returns each test's verdict (`None` where the
/// judge ended without one, a defect).
///
/// The course's judge is trusted code and runs as it is; where the judge is the learner's
/// own executable (an edition without reference solutions), `sandbox` contains it. Where
/// the judge was built on the reference solutions, `on_reference` has it run every
/// observed call there too and compare (see `course_harness::reference_run`).
pub fn replay(
    judge: &Path,
    tapes: &[(&str, &[u8])],
    scratch: &Path,
    sandbox: Option<&Sandbox>,
    on_reference: bool,
    threads: usize,
    timeout: Duration,
) -> Result<HashMap<String, Verdict>> {
    let run_dir = scratch.join(format!("{:032x}", rand::rng().random::<u128>()));
    std::fs::create_dir_all(&run_dir).with_context(|| {
        let path = run_dir.display().to_string();
        tr!(INSTRUCTOR, "file-could-not-create", path = path)
    })?;
    for (name, tape) in tapes {
        std::fs::write(run_dir.join(format!("{name}.tape")), tape)?;
    }
    let mut command = Command::new(judge);
    command
        .arg("--exact")
        .args(tapes.iter().map(|(name, _)| name))
        .arg(format!("--test-threads={}", threads.max(1)))
        .current_dir(&run_dir)
        .env(REPLAY_ENV, &run_dir)
        .env(REFERENCE_ENV, if on_reference { "1" } else { "0" })
        // The teaching messages the judge writes are in the checker's language.
        .env(course_i18n::LANG_VAR, course_i18n::current().tag())
        .env("RUST_BACKTRACE", "0")
        .env("INSTA_UPDATE", "no")
        .env("CI", "true");
    let binds = [
        Bind::ReadOnly(judge.to_path_buf()),
        Bind::ReadWrite(run_dir.clone()),
    ];
    let command = match sandbox {
        Some(sandbox) => sandbox.wrap(command, &binds, true)?,
        None => command,
    };
    let limits = Limits {
        timeout,
        memory_bytes: Some(4 << 30),
        output_bytes: 64 << 10,
        account: None,
        end_account: false,
        file_bytes: Some(64 << 20),
        cpu_seconds: None,
    };
    process::run(command, b"", limits, None)
        .with_context(|| tr!(MESSAGES, "grade-could-not-run-judge"))?;
    let mut verdicts = HashMap::new();
    for (name, _) in tapes {
        let verdict = std::fs::read_to_string(run_dir.join(format!("{name}.verdict")))
            .ok()
            .and_then(|text| parse_verdict(&text));
        if let Some(verdict) = verdict {
            verdicts.insert((*name).to_owned(), verdict);
        }
    }
    let _ = std::fs::remove_dir_all(&run_dir);
    Ok(verdicts)
}
