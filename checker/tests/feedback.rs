//! What a learner reads when their code is wrong: the failing test's first message.

use crate::util::Submission;

/// A panic in the learner's code (here an index one past the last row, in `softmax_rows`)
/// reaches the learner with the function, what it was given, the line of their file, and
/// what ndarray's words mean, not as ndarray's words alone.
#[test]
fn a_panic_in_the_learner_s_code_names_the_function_the_line_and_the_meaning() {
    let submission = Submission::solved();
    submission.inject(
        "pub fn softmax_rows(",
        "let _past_the_end = scores.row(scores.nrows());",
    );
    let lib = std::fs::read_to_string(
        submission
            .path()
            .join(crate::util::LESSON)
            .join("src/lib.rs"),
    )
    .unwrap();
    let line = lib
        .lines()
        .position(|l| l.contains("_past_the_end"))
        .unwrap()
        + 1;
    let graded = submission.grade();
    let test = graded.test("softmax_matches_hand_computed_values");
    let message = test["message"].as_str().unwrap();
    assert_eq!(test["passed"], false, "{test}");
    for needle in [
        // The function, what it was given, and the learner's line.
        format!(
            "`softmax_rows(scores: (2, 3))` panicked at lessons/02-attention/src/lib.rs:{line}"
        ),
        "collapse_axis: Index".to_owned(),
        "What it means: an index (".to_owned(),
        "past the end of an axis".to_owned(),
    ] {
        assert!(
            message.contains(&needle),
            "expected `{needle}` in:\n{message}"
        );
    }
}

/// A `todo!()` is a panic too, but it means "not started", which the checker says itself:
/// it is not explained as a mistake.
#[test]
fn a_todo_is_still_not_started() {
    let graded = Submission::started().grade();
    let test = graded.test("softmax_matches_hand_computed_values");
    let message = test["message"].as_str().unwrap();
    assert!(!message.contains("panicked at lessons/"), "{message}");
}
