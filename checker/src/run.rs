//! Running one graded test in its own process, and deciding whether it passed.
//!
//! A test passes only on positive proof: its process wrote a report carrying the nonce the
//! checker handed it, saying its assertions ran to the end, and then exited successfully
//! (see `course_harness::report`). Everything else fails, with the likeliest explanation
//! the evidence allows: a timeout, a stack overflow, the memory limit, an early exit.

use crate::course::ExpectedTest;
use crate::explain;
use crate::process::{self, Limits};
use crate::report::{TestResult, TestStatus};
use anyhow::Result;
use course_harness::report::{REPORT_ENV, parse_report};
use rand::RngExt;
use std::path::Path;
use std::process::Command;

/// Runs the test `test` of the test executable `binary` and grades it.
///
/// `scratch` is a folder the checker owns, for the report file.
pub fn run_test(
    binary: &Path,
    test: &ExpectedTest,
    scratch: &Path,
    limits: Limits,
) -> Result<TestResult> {
    let name = test.name.as_str();
    let nonce = format!("{:032x}", rand::rng().random::<u128>());
    std::fs::create_dir_all(scratch)?;
    if let Some(account) = limits.account {
        account.own(scratch)?;
    }
    let report_path = scratch.join(format!("{name}.report"));
    let _ = std::fs::remove_file(&report_path);

    let mut command = Command::new(binary);
    command
        .args(["--exact", name, "--test-threads=1", "--nocapture"])
        .current_dir(scratch)
        .env_clear()
        .env(REPORT_ENV, &report_path)
        .env("RUST_BACKTRACE", "0")
        .env("INSTA_UPDATE", "no")
        .env("CI", "true");
    for kept in ["PATH", "HOME", "LANG", "TMPDIR"] {
        if let Some(value) = std::env::var_os(kept) {
            command.env(kept, value);
        }
    }
    let finished = process::run(command, format!("{nonce}\n").as_bytes(), limits)?;
    let report = std::fs::read_to_string(&report_path).ok();
    let _ = std::fs::remove_file(&report_path);
    let verdict = report
        .as_deref()
        .and_then(|text| parse_report(text, &nonce));
    let stderr = finished.stderr_text();

    let (status, message) = match (&finished.status, verdict) {
        (None, _) => (
            TestStatus::Timeout,
            format!(
                "The test did not finish within {} s and was stopped. Likely cause: an \
                 endless loop, a very slow algorithm, or code waiting for input.",
                limits.timeout.as_secs()
            ),
        ),
        (Some(exit), Some(verdict)) if verdict.passed && exit.success() => {
            (TestStatus::Pass, String::new())
        }
        (Some(exit), Some(verdict)) if verdict.passed => (
            TestStatus::Crash,
            format!(
                "The checks passed, but the test's process then ended with {}; a test passes \
                 only when its process ends normally.",
                process::describe_status(exit)
            ),
        ),
        (Some(_), Some(verdict)) => explain::failure(&verdict.message),
        (Some(exit), None) => explain::no_report(exit, &stderr, limits),
    };
    Ok(TestResult {
        name: name.to_owned(),
        tier: test.tier,
        passed: status == TestStatus::Pass,
        status,
        message,
    })
}
