//! Turning how a test failed into what the learner should look at.
//!
//! The graded tests' own messages already name the property and the likely mistake, and
//! explain a panic (the harness's `panics`); this module handles what they cannot: a stub
//! that is still `todo!()`, and processes that died without reporting.

use crate::messages::MESSAGES;
use crate::process::{self, Limits};
use crate::report::TestStatus;
use course_i18n::tr;
use std::process::ExitStatus;

/// The name a `todo!("name")` panic gives, from its message: `Some("")` for a bare
/// `todo!()`, `None` for any other panic.
pub fn todo_name(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("not yet implemented")?;
    Some(rest.trim_start_matches(':').trim())
}

/// The function of the lesson a call label names: `Linear::forward` of
/// `Linear::forward (outputs)`, `cross_entropy_loss` of `cross_entropy_loss(..).value`.
pub fn function_of(label: &str) -> Option<String> {
    let name: String = label
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let name = name.trim_end_matches(':');
    (!name.is_empty()).then(|| name.to_owned())
}

/// The status and message of a test whose report says it failed with `message`.
pub fn failure(message: &str) -> (TestStatus, String) {
    if let Some(what) = todo_name(message) {
        let what = if what.is_empty() {
            tr!(MESSAGES, "todo-unnamed")
        } else {
            format!("`{what}`")
        };
        return (
            TestStatus::NotStarted,
            tr!(MESSAGES, "still-todo", what = what),
        );
    }
    // A panic's meaning is the harness's to say (`course_harness::panics`): it is in the
    // message already.
    let text = message.to_owned();
    (TestStatus::Fail, text)
}

/// The status and message of a test whose process ended without a valid report.
pub fn no_report(
    exit: &ExitStatus,
    stderr: &str,
    limits: Limits,
) -> (TestStatus, String) {
    let how = process::describe_status(exit);
    let message = if stderr.contains("has overflowed its stack") {
        tr!(MESSAGES, "crash-stack-overflow", how = &how)
    } else if stderr.contains("memory allocation of")
        || stderr.contains("capacity overflow")
    {
        let limit = limits
            .memory_bytes
            .map(|b| tr!(MESSAGES, "crash-limit-mib", mib = b >> 20))
            .unwrap_or_else(|| tr!(MESSAGES, "crash-limit-machine"));
        tr!(MESSAGES, "crash-out-of-memory", how = &how, limit = limit)
    } else if exit.success() {
        tr!(MESSAGES, "crash-exited", how = &how)
    } else {
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let ended = tr!(MESSAGES, "crash-ended", how = &how);
        if tail.is_empty() {
            ended
        } else {
            let last = tr!(MESSAGES, "crash-last-output");
            format!("{ended}\n{last}\n{}", tail.join("\n"))
        }
    };
    (TestStatus::Crash, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_todo_is_reported_as_not_started_with_its_name() {
        let (status, message) = failure("not yet implemented: softmax_rows");
        assert_eq!(status, TestStatus::NotStarted);
        assert_eq!(
            message,
            "`softmax_rows` is still a todo!(): implement it following its /// contract."
        );
    }

    #[test]
    fn a_call_label_names_its_function() {
        assert_eq!(
            function_of("Linear::forward").as_deref(),
            Some("Linear::forward")
        );
        assert_eq!(
            function_of("cross_entropy_loss(..).value").as_deref(),
            Some("cross_entropy_loss")
        );
        assert_eq!(
            function_of("Transformer::forward (loss)").as_deref(),
            Some("Transformer::forward")
        );
        assert_eq!(function_of(" odd"), None);
    }
}
