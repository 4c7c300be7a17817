//! How the judge tells the checker whether a graded test passed.
//!
//! Every graded test runs twice under the checker (see [`crate::tape`]): once in a
//! sandbox against the learner's code, recording the values it returns, and once in the
//! judge, the course's own build of the suite, replaying them. Only the judge's run
//! decides, and it writes its verdict beside the test's tape (`<test name>.verdict` in the
//! folder `COURSE_TAPE_REPLAY` names): `pass`, or `fail`, the label of the last call into
//! the lesson before the failure (`in: softmax_rows`) and the failed check's teaching
//! message. The learner's process writes no report: nothing it prints, writes or exits
//! with is read as a verdict.
//!
//! Outside the checker (a plain `cargo test`), [`graded`] simply runs the body.

use crate::reference_run::first_difference;
use crate::tape::{last_call, panic_message, record_end, replay_dir, test_name};
use crate::{MESSAGES, tr};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// The first line of a passing verdict.
pub const PASS: &str = "pass";
/// The first line of a failing verdict.
pub const FAIL: &str = "fail";
/// What starts a failing verdict's second line, before the label of the last call; its
/// third line lists the causes the checks named ([`NAMED`]), its message follows.
const CALL: &str = "in: ";
/// The line of a failed verdict that lists the causes its checks named.
const NAMED: &str = "named: ";
/// The line of a failed verdict whose test's own checks passed and a value differed from
/// the reference solution's: a finding less specific than a failed check.
const BY_REFERENCE: &str = "by: reference";

/// Runs the body of a graded test and, in the judge, reports its verdict.
///
/// The body of every test in the checker's suites is wrapped in it:
///
/// ```
/// # use course_harness::{graded, observe};
/// fn weights_rows_sum_to_one() {
///     graded(|| {
///         // ... call the lesson inside `observe`, then check what came back ...
///     });
/// }
/// # weights_rows_sum_to_one();
/// ```
///
/// A panic in the body fails the test as usual; in the judge its message (the teaching
/// message of the failed check) is also written to the verdict file. A body that passes
/// in a judge that compares with the reference still fails where a value the learner
/// returned differs from the reference's (see [`crate::reference_run`]).
pub fn graded(body: impl FnOnce()) {
    let Some(dir) = replay_dir() else {
        // In a record run, the end of the body is marked on the tape, pass or fail.
        let outcome = catch_unwind(AssertUnwindSafe(body));
        record_end();
        if let Err(payload) = outcome {
            // A panic that left the learner's code says where and what it means (the
            // checker shows the judge's verdict; a plain `cargo test` shows this).
            let message = panic_message(payload.as_ref());
            let explained = crate::panics::explained(&message);
            if explained != message {
                resume_unwind(Box::new(explained));
            }
            resume_unwind(payload);
        }
        return;
    };
    let verdict_path = dir.join(format!("{}.verdict", test_name()));
    let outcome = catch_unwind(AssertUnwindSafe(body));
    let named = crate::causes::take_named();
    // The test's own checks passed: every value the learner returned must also be the
    // reference's (where the judge compares with it; see `reference_run`).
    let outcome = match outcome {
        Ok(()) => match first_difference() {
            None => Ok(()),
            Some((label, message)) => Err((Some(label), message, true)),
        },
        Err(payload) => Err((
            last_call(),
            crate::panics::explained(&panic_message(payload.as_ref())),
            false,
        )),
    };
    let text = match &outcome {
        Ok(()) => format!("{PASS}\n"),
        Err((call, message, by_reference)) => format!(
            "{FAIL}\n{CALL}{}\n{NAMED}{}\n{}{message}",
            call.clone().unwrap_or_default(),
            named.join(" "),
            if *by_reference {
                format!("{BY_REFERENCE}\n")
            } else {
                String::new()
            }
        ),
    };
    if let Err(err) = std::fs::write(&verdict_path, text) {
        panic!(
            "{}",
            tr!(MESSAGES, "verdict-write-failed", error = err.to_string())
        );
    }
    if let Err((_, message, _)) = outcome {
        resume_unwind(Box::new(message));
    }
}

/// A verdict read back from the judge's verdict file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the test body ran to its end without a failed check.
    pub passed: bool,
    /// The failure message; empty for a pass.
    pub message: String,
    /// For a failure, the label of the last call into the lesson before it, if any.
    pub call: Option<String>,
    /// The causes the failed test's checks named, by key (`harness:wrong-axis`; see
    /// [`crate::Cause::key`]), in the order they were found.
    pub named: Vec<String>,
    /// Whether the test's own checks passed and it failed because a value differed from
    /// the reference solution's ([`crate::reference_run`]): a finding that says less
    /// than a failed check, so a report shows a failed check first.
    pub by_reference: bool,
}

/// Parses a verdict file's text, or `None` when it is malformed.
pub fn parse_verdict(text: &str) -> Option<Verdict> {
    if let Some(rest) = text
        .strip_prefix(FAIL)
        .and_then(|rest| rest.strip_prefix('\n'))
    {
        let (call, rest) = rest.strip_prefix(CALL)?.split_once('\n')?;
        let (named, message) = rest.strip_prefix(NAMED)?.split_once('\n')?;
        let (by_reference, message) = match message.strip_prefix(BY_REFERENCE) {
            Some(rest) => (true, rest.strip_prefix('\n')?),
            None => (false, message),
        };
        return Some(Verdict {
            passed: false,
            message: message.to_owned(),
            call: (!call.is_empty()).then(|| call.to_owned()),
            named: named.split_whitespace().map(str::to_owned).collect(),
            by_reference,
        });
    }
    (text == format!("{PASS}\n")).then(|| Verdict {
        passed: true,
        message: String::new(),
        call: None,
        named: Vec::new(),
        by_reference: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_is_a_pass_or_a_failure_with_its_message() {
        assert!(parse_verdict("pass\n").unwrap().passed);
        let verdict = parse_verdict(
            "fail\nin: softmax_rows\nnamed: harness:wrong-axis 02:x\nrow 2 sums to 1.37\nmore",
        )
        .unwrap();
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "row 2 sums to 1.37\nmore");
        assert_eq!(verdict.call.as_deref(), Some("softmax_rows"));
        assert_eq!(verdict.named, ["harness:wrong-axis", "02:x"]);
        assert!(!verdict.by_reference);
        let verdict = parse_verdict(
            "fail\nin: Rnn::backward\nnamed: \nby: reference\nd_w_xh differs",
        )
        .unwrap();
        assert!(verdict.by_reference);
        assert_eq!(verdict.message, "d_w_xh differs");
        let verdict = parse_verdict("fail\nin: \nnamed: \nno call").unwrap();
        assert_eq!((verdict.call, verdict.message.as_str()), (None, "no call"));
        assert!(verdict.named.is_empty());
        assert_eq!(parse_verdict("fail\nno call line"), None);
        assert_eq!(parse_verdict("fail\nin: x\nno named line"), None);
        assert_eq!(parse_verdict(""), None);
        assert_eq!(parse_verdict("pass\nextra"), None);
    }
}
