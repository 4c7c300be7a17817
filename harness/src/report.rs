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
//! input at its end), runs the test body, and only then writes the nonce and the verdict
//! to the report file. A test whose process ends without a report carrying the right nonce
//! has failed, whatever its exit status or its output said.
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
    let (verdict, message) = match &outcome {
        Ok(()) => (PASS, String::new()),
        Err(payload) => (FAIL, panic_message(payload.as_ref())),
    };
    let text = format!("{nonce}\n{verdict}\n{message}");
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

/// Parses a report file's text, accepting it only if it carries `nonce`.
///
/// Returns `None` for a missing, malformed or forged report.
pub fn parse_report(text: &str, nonce: &str) -> Option<Verdict> {
    let mut lines = text.splitn(3, '\n');
    if lines.next()? != nonce {
        return None;
    }
    let passed = match lines.next()? {
        PASS => true,
        FAIL => false,
        _ => return None,
    };
    let message = lines.next().unwrap_or_default().to_owned();
    Some(Verdict { passed, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_with_the_right_nonce_parses() {
        let verdict = parse_report("abc\nfail\nrow 2 sums to 1.37\nmore", "abc").unwrap();
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "row 2 sums to 1.37\nmore");
        assert!(parse_report("abc\npass\n", "abc").unwrap().passed);
    }

    #[test]
    fn a_report_with_a_wrong_or_missing_nonce_is_rejected() {
        assert_eq!(parse_report("abd\npass\n", "abc"), None);
        assert_eq!(parse_report("\npass\n", "abc"), None);
        assert_eq!(parse_report("", "abc"), None);
        assert_eq!(parse_report("abc\nok\n", "abc"), None);
    }
}
