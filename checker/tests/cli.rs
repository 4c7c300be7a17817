//! The command line: exit statuses, output shapes, hints.

use crate::util::{Submission, checker};

#[test]
fn an_unknown_lesson_exits_2_and_lists_the_lessons() {
    let output = checker().args(["grade", "99-nope"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("there is no lesson `99-nope`")
            && stderr.contains("02-attention"),
        "{stderr}"
    );
}

#[test]
fn a_missing_lessons_folder_exits_2_and_says_what_it_needs() {
    let output = checker()
        .args(["grade", "--lessons-dir", "/no/such/folder"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("there is no folder /no/such/folder")
            && stderr.contains("laid out like lessons/"),
        "{stderr}"
    );
}

#[test]
fn the_json_report_has_the_stable_shape() {
    let graded = Submission::stub().grade();
    let json = &graded.json;
    assert!(json["score"].is_f64());
    let lesson = &json["lessons"][0];
    assert_eq!(lesson["id"], "02-attention");
    for key in ["passed", "total"] {
        assert!(lesson[key].is_u64(), "{key}: {lesson}");
    }
    assert!(lesson["score"].is_f64());
    let test = &lesson["tests"][0];
    assert!(
        test["name"].is_string()
            && test["passed"].is_boolean()
            && test["message"].is_string(),
        "{test}"
    );
}

#[test]
fn grading_the_same_submission_twice_prints_the_same_bytes() {
    let submission = Submission::stub();
    let first = submission.grade().output.stdout;
    let second = submission.grade().output.stdout;
    assert!(first == second, "two gradings of one submission differ");
}

#[test]
fn the_progress_table_points_at_the_first_todo() {
    let submission = Submission::all_stubs();
    let output = checker()
        .arg("--lessons-dir")
        .arg(submission.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("02  Attention"), "{stdout}");
    assert!(stdout.contains("0%  not started"), "{stdout}");
    assert!(stdout.contains("Overall 0%"), "{stdout}");
    let next = stdout
        .lines()
        .find(|l| l.starts_with("Open "))
        .unwrap_or_default();
    assert!(
        next.contains("/src/lib.rs: `") && next.contains("` is still a todo!()"),
        "the next step names the file and the function: {stdout}"
    );
}

#[test]
fn hints_come_one_at_a_time_and_can_start_over() {
    let hint = |args: &[&str]| {
        let output = checker().arg("hint").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let count = |text: &str| text.lines().filter(|l| l.contains("/5. ")).count();
    hint(&["02-attention", "--reset"]);
    assert_eq!(count(&hint(&["02-attention"])), 1);
    assert_eq!(count(&hint(&["02-attention"])), 2);
    assert_eq!(count(&hint(&["02-attention", "--all"])), 5);
    hint(&["02-attention", "--reset"]);
}

#[test]
fn watch_mode_refuses_to_run_without_a_terminal() {
    let output = checker().arg("watch").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("needs an interactive terminal")
    );
}

#[test]
fn the_classroom_format_is_what_the_grading_reporter_reads() {
    let submission = Submission::solved();
    let output = checker()
        .args([
            "grade",
            "02-attention",
            "--format",
            "classroom",
            "--lessons-dir",
        ])
        .arg(submission.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (json["version"].as_u64(), json["status"].as_str()),
        (Some(1), Some("pass"))
    );
    assert_eq!(json["max_score"].as_f64(), Some(10.0));
    let tests = json["tests"].as_array().unwrap();
    let total: f64 = tests.iter().map(|t| t["score"].as_f64().unwrap()).sum();
    assert!(
        (total - 10.0).abs() < 1e-9,
        "a solved lesson earns its 10 points: {total}"
    );
    assert!(
        tests
            .iter()
            .all(|t| t["status"] == "pass" && t["name"].is_string())
    );
}

#[test]
fn a_lesson_is_graded_on_reference_earlier_lessons_unless_the_whole_stack_is_asked_for() {
    // Lesson 03 solved, on top of lesson 02's untouched stub.
    let submission = Submission::stub();
    let solved =
        crate::util::course_root().join("solutions/03-multi-head-attention/src/lib.rs");
    submission.write(
        "03-multi-head-attention/src/lib.rs",
        &std::fs::read_to_string(solved).unwrap(),
    );
    let score = |extra: &[&str]| {
        let output = checker()
            .args(["grade", "03-multi-head-attention", "--format", "json"])
            .args(extra)
            .arg("--lessons-dir")
            .arg(submission.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        json["lessons"][0]["score"].as_f64().unwrap()
    };
    assert_eq!(
        score(&[]),
        1.0,
        "graded on the reference lesson 02, lesson 03 stands alone"
    );
    let whole_stack = score(&["--whole-stack"]);
    assert!(
        whole_stack < 0.5,
        "on the learner's own stub of lesson 02, what calls attention fails: {whole_stack}"
    );
}
