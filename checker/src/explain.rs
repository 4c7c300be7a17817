//! Turning how a test failed into what the learner should look at.
//!
//! The graded tests' own messages already name the property and the likely mistake; this
//! module handles what they cannot: a stub that is still `todo!()`, a panic inside
//! ndarray, and processes that died without reporting.

use crate::process::{self, Limits};
use crate::report::TestStatus;
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
            "a function this test needs".to_owned()
        } else {
            format!("`{what}`")
        };
        return (
            TestStatus::NotStarted,
            format!(
                "{what} is still a todo!(): implement it following its /// contract."
            ),
        );
    }
    let hint = if message.contains("not compatible for matrix multiplication") {
        Some(
            "a matrix product got operands whose inner dimensions differ. Write down each \
             operand's (rows, columns) from the /// contract; a transpose (`.t()`) is \
             probably missing or extra.",
        )
    } else if message.contains("could not broadcast") {
        Some(
            "an elementwise operation got arrays whose shapes do not broadcast. A row vector \
             broadcasts over rows as shape (1, n); a column as (n, 1) (`insert_axis`).",
        )
    } else if message.contains("index out of bounds")
        || message.contains("ndarray: index")
    {
        Some("an index past the end of an array: check loop bounds against the shapes.")
    } else if message.contains("attempt to") && message.contains("overflow") {
        Some("integer arithmetic overflowed (for example 0 - 1 on a usize).")
    } else {
        None
    };
    let text = match hint {
        Some(hint) => format!("{message}\nLikely cause: {hint}"),
        None => message.to_owned(),
    };
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
        format!(
            "The test crashed with a stack overflow ({how}). Likely cause: a function that \
             calls itself without ever stopping."
        )
    } else if stderr.contains("memory allocation of")
        || stderr.contains("capacity overflow")
    {
        let limit = limits.memory_bytes.map(|b| format!("{} MiB", b >> 20));
        format!(
            "The test ran out of memory ({how}; the limit is {}). Likely cause: a matrix or \
             vector far larger than the shapes in the contract call for.",
            limit.unwrap_or_else(|| "the machine's".to_owned())
        )
    } else if exit.success() {
        format!(
            "The test's process ended ({how}) before its checks finished: something called \
             std::process::exit. A test passes only when its checks run to the end."
        )
    } else {
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!(
            "The test's process ended with {how} before its checks finished.{}",
            if tail.is_empty() {
                String::new()
            } else {
                format!("\nIts last output:\n{}", tail.join("\n"))
            }
        )
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

    #[test]
    fn a_shape_panic_gets_a_hint() {
        let (status, message) = failure(
            "ndarray: inputs 2 × 3 and 4 × 3 are not compatible for matrix multiplication",
        );
        assert_eq!(status, TestStatus::Fail);
        assert!(message.contains("transpose"), "{message}");
    }
}
