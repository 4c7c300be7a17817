//! How a graded test proves to the checker that it passed.
//!
//! A test's exit status proves nothing (`std::process::exit(0)` in the code under test
//! exits 0 with the assertions never run) and neither does libtest's text, which code under
//! test can forge by writing to the process's standard output. So the checker runs every
//! graded test in its own process with two things in hand:
//!
//! - `COURSE_GRADING_REPORT`, an environment variable naming a file to write the verdict to;
//! - a fresh random nonce, written to the test's standard input.
//!
//! [`graded`] reads the nonce *before* it calls any code under test (which leaves standard
//! input at its end), runs the test body, and only if every check held writes the nonce to
//! the report file. A failure is reported without the nonce, so that code under test which
//! watches the report file learns nothing it could forge a pass with. A test whose process
//! ends without a report carrying the right nonce has failed, whatever its exit status or
//! its output said.
//!
//! This is deterrence, not a sandbox: code in the same process could in principle dig the
//! nonce out of memory. The book's chapter on grading says what the grader defends against
//! and what it does not.
//!
//! Outside the checker (a plain `cargo test`), `COURSE_GRADING_REPORT` is unset and
//! [`graded`] simply runs the body.

use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// The environment variable that names the report file of a graded run.
pub const REPORT_ENV: &str = "COURSE_GRADING_REPORT";

/// The first line of a passing report's verdict.
pub const PASS: &str = "pass";
/// The first line of a failing report's verdict.
pub const FAIL: &str = "fail";

/// Runs the body of a graded test and, under the checker, reports its verdict.
///
/// The body of every test in the checker's suites is wrapped in it:
///
/// ```
/// # use course_harness::graded;
/// fn weights_rows_sum_to_one() {
///     graded(|| {
///         // ... call the lesson, assert ...
///     });
/// }
/// # weights_rows_sum_to_one();
/// ```
///
/// A panic in the body fails the test as usual; under the checker its message (the
/// teaching message of the failed check) is also written to the report.
pub fn graded(body: impl FnOnce()) {
    let Some(report_path) = std::env::var_os(REPORT_ENV) else {
        body();
        return;
    };
    // Read the nonce before any code under test runs.
    let mut nonce = String::new();
    let read = std::io::stdin().lock().read_line(&mut nonce);
    let nonce = nonce.trim().to_owned();
    if read.is_err() || nonce.is_empty() {
        panic!("graded test started without a nonce on standard input");
    }

    let outcome = catch_unwind(AssertUnwindSafe(body));
    let text = match &outcome {
        Ok(()) => format!("{nonce}\n{PASS}\n"),
        Err(payload) => format!("{FAIL}\n{}", panic_message(payload.as_ref())),
    };
    if let Err(err) = std::fs::write(&report_path, text) {
        panic!("could not write the grading report: {err}");
    }
    if let Err(payload) = outcome {
        resume_unwind(payload);
    }
}

/// The text of a panic payload, as `panic!` and `assert!` produce it.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "the test panicked with a value that is not text".to_owned()
    }
}

/// A verdict read back from a report file, as the checker parses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the test body ran to its end without a failed check.
    pub passed: bool,
    /// The failure message; empty for a pass.
    pub message: String,
}

/// Parses a report file's text: a pass only if it carries `nonce`, a failure with its
/// message, or `None` for a missing, malformed or forged report.
pub fn parse_report(text: &str, nonce: &str) -> Option<Verdict> {
    if let Some(message) = text
        .strip_prefix(FAIL)
        .and_then(|rest| rest.strip_prefix('\n'))
    {
        return Some(Verdict {
            passed: false,
            message: message.to_owned(),
        });
    }
    let mut lines = text.lines();
    let passed = lines.next()? == nonce && lines.next()? == PASS;
    passed.then(|| Verdict {
        passed: true,
        message: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_needs_the_nonce_and_a_failure_carries_its_message() {
        assert!(parse_report("abc\npass\n", "abc").unwrap().passed);
        let verdict = parse_report("fail\nrow 2 sums to 1.37\nmore", "abc").unwrap();
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "row 2 sums to 1.37\nmore");
    }

    #[test]
    fn a_pass_with_a_wrong_or_missing_nonce_is_rejected() {
        assert_eq!(parse_report("abd\npass\n", "abc"), None);
        assert_eq!(parse_report("\npass\n", "abc"), None);
        assert_eq!(parse_report("", "abc"), None);
        assert_eq!(parse_report("abc\nok\n", "abc"), None);
        assert_eq!(
            parse_report("fail\npass\n", "fail"),
            Some(Verdict {
                passed: false,
                message: "pass\n".into()
            })
        );
    }
}
