//! Running one graded test: the learner's code in the sandbox, the verdict from the judge.
//!
//! 1. The test executable built against the learner's crate runs the one test in a
//!    sandbox (see [`crate::sandbox`]), recording each value the learner's code returns on
//!    a pipe (its tape, `course_harness::tape`), under a time limit, a memory limit and a
//!    cap on its output and tape.
//! 2. The judge ([`crate::judge`]) replays that tape in the course's own build of the test,
//!    which computes everything else and decides.
//!
//! A test passes only when the judge says so *and* the learner's process ended normally.
//! Everything the learner's process can do on its own (exit early, crash, loop, print,
//! write) can only make a test fail, with the likeliest explanation the evidence allows.

use crate::course::ExpectedTest;
use crate::explain;
use crate::judge;
use crate::process::{self, Limits, TAPE_FD};
use crate::report::{TestResult, TestStatus};
use crate::sandbox::{Bind, Sandbox};
use anyhow::Result;
use course_harness::tape::{RECORD_ENV, TAPE_ENDED, TAPE_MISMATCH};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The most a test's tape may hold: far more than any test of the course records.
const MAX_TAPE_BYTES: usize = 64 << 20;

/// How long the judge may take to replay one test: it runs no learner code.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(120);

/// What running a test needs besides the test itself.
pub struct Context<'a> {
    /// The sandbox learner code runs in.
    pub sandbox: &'a Sandbox,
    /// The limits of the learner's process.
    pub limits: Limits,
    /// A folder the checker owns, for the judge's files.
    pub scratch: &'a Path,
}

/// Runs the test `test` of the learner's executable `binary`, has `judge` (the judge's
/// executable for the test) decide, and returns the result.
pub fn run_test(
    binary: &Path,
    judge: &Path,
    test: &ExpectedTest,
    context: &Context<'_>,
) -> Result<TestResult> {
    let name = test.name.as_str();
    let limits = context.limits;
    let mut command = Command::new(binary);
    command
        .args(["--exact", name, "--test-threads=1", "--nocapture"])
        .env_clear()
        .env(RECORD_ENV, format!("fd:{TAPE_FD}"))
        .env("RUST_BACKTRACE", "0")
        .env("INSTA_UPDATE", "no")
        .env("CI", "true")
        .env("PATH", "/usr/bin:/bin");
    if context.sandbox.is_active() {
        command.current_dir("/tmp");
    } else {
        // Without a sandbox the test runs in a folder of its own under the checker's
        // scratch space (owned by the --run-as account, if any).
        let dir = context.scratch.join("cwd");
        std::fs::create_dir_all(&dir)?;
        if let Some(account) = limits.account {
            account.own(&dir)?;
        }
        command.current_dir(&dir);
    }
    let command =
        context
            .sandbox
            .wrap(command, &[Bind::ReadOnly(binary.to_path_buf())], false)?;
    let mut finished = process::run(command, b"", limits, Some(MAX_TAPE_BYTES))?;
    if context.sandbox.is_active() {
        finished.status = finished.status.map(process::unwrap_sandbox_status);
    }
    let stderr = finished.stderr_text();

    let (status, message) = match (&finished.status, &finished.tape) {
        (None, _) => (
            TestStatus::Timeout,
            format!(
                "The test did not finish within {} s and was stopped. Likely cause: an \
                 endless loop, a very slow algorithm, or code waiting for input.",
                limits.timeout.as_secs()
            ),
        ),
        (Some(_), None) => (
            TestStatus::Crash,
            format!(
                "The test's process wrote more than {} MiB of results, far more than any \
                 test asks for: it was not graded.",
                MAX_TAPE_BYTES >> 20
            ),
        ),
        (Some(exit), Some(tape)) => {
            let verdict = judge::replay(
                judge,
                test,
                tape,
                context.scratch,
                (judge == binary).then_some(context.sandbox),
                JUDGE_TIMEOUT,
            )?;
            match verdict {
                None => (
                    TestStatus::Crash,
                    "The grader's judge could not decide this test (a defect of the course, \
                     not of your code): please report it."
                        .to_owned(),
                ),
                Some(verdict) if verdict.passed && exit.success() => {
                    (TestStatus::Pass, String::new())
                }
                Some(verdict) if verdict.passed => (
                    TestStatus::Crash,
                    format!(
                        "The checks passed, but the test's process then ended with {}; a \
                         test passes only when its process ends normally.",
                        process::describe_status(exit)
                    ),
                ),
                Some(verdict) if verdict.message.starts_with(TAPE_ENDED) => {
                    explain::no_report(exit, &stderr, limits)
                }
                Some(verdict) if verdict.message.starts_with(TAPE_MISMATCH) => (
                    TestStatus::Fail,
                    format!(
                        "The values your code's process recorded do not match the calls \
                         the test makes ({}). A test's process must not write to the \
                         grader's channel (file descriptor {TAPE_FD}).",
                        verdict.message
                    ),
                ),
                Some(verdict) => explain::failure(&verdict.message),
            }
        }
    };
    Ok(TestResult {
        name: name.to_owned(),
        tier: test.tier,
        passed: status == TestStatus::Pass,
        status,
        message,
    })
}
