//! The command line: exit statuses, output shapes, hints.

use crate::util::{Submission, checker};
use std::path::Path;

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
    let submission = Submission::started();
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
fn an_untouched_stub_is_not_started_without_a_build_and_an_edited_one_is_graded() {
    // course.toml records the stub's fingerprint: the untouched stub is known to score
    // nothing (`checker verify` runs it), so it is reported without being built.
    let untouched = Submission::stub().grade();
    let lesson = &untouched.json["lessons"][0];
    assert_eq!(lesson["status"], "not_started", "{lesson}");
    assert_eq!(lesson["passed"], 0);
    for test in lesson["tests"].as_array().unwrap() {
        assert_eq!(test["status"], "not_started", "{test}");
        assert_eq!(test["function"], "softmax_rows", "{test}");
    }
    // One more line, and it is the learner's code: built and run, its tests reaching the
    // todo!()s one by one.
    let graded = Submission::started().grade();
    let lesson = &graded.json["lessons"][0];
    assert_eq!(lesson["status"], "graded", "{lesson}");
    let functions: std::collections::BTreeSet<&str> = lesson["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"].as_str())
        .collect();
    assert!(
        functions.contains("Linear::forward") && functions.contains("softmax_rows"),
        "each test reached its own first todo!(): {functions:?}"
    );
}

#[test]
fn hints_are_for_the_first_function_that_fails_one_at_a_time() {
    // One test, because the hints shown are kept per course, not per run.
    let hint = |args: &[&str], lessons: Option<&Path>| {
        let mut command = checker();
        command.arg("hint").args(args);
        if let Some(dir) = lessons {
            command.arg("--lessons-dir").arg(dir);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // The course's stubs: every function is a todo!(), and the first graded test calls
    // `softmax_rows`. Lessons can be named by number, crate or folder.
    hint(&["02", "--reset"], None);
    let first = hint(&["02"], None);
    assert!(first.contains("Hints for `softmax_rows`"), "{first}");
    assert!(
        first.contains("1/2. ") && !first.contains("2/2. "),
        "{first}"
    );
    let second = hint(&["attention"], None);
    assert!(
        second.contains("1/2. ") && second.contains("2/2. "),
        "{second}"
    );
    let all = hint(&["02-attention", "--all"], None);
    for function in [
        "`softmax_rows_backward`",
        "`Linear::forward`",
        "`SelfAttentionHead::backward`",
    ] {
        assert!(all.contains(function), "--all shows {function}: {all}");
    }

    // A solved lesson whose `Linear::forward` forgets the bias: the hint is for it.
    let submission = Submission::solved();
    submission.inject(
        "pub fn forward(&self, x: &Matrix) -> Matrix {",
        "return x.dot(&self.weight.t());",
    );
    let linear = hint(&["02"], Some(submission.path()));
    assert!(linear.contains("Hints for `Linear::forward`"), "{linear}");
    assert!(linear.contains("points at `Linear::forward`"), "{linear}");
    hint(&["02", "--reset"], None);
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

#[test]
fn compiler_errors_point_at_the_learner_s_own_file() {
    let submission = Submission::solved();
    submission.inject("pub fn softmax_rows(", "let oops: u32 = 1.5;");
    let graded = submission.grade();
    let message = graded.lesson()["message"].as_str().unwrap_or_default();
    let file = format!("{}/02-attention/src/lib.rs:", submission.path().display());
    assert!(message.contains(&file), "expected `{file}` in:\n{message}");
}

#[test]
fn a_failure_an_earlier_lesson_may_cause_names_that_lesson_s_function_first() {
    // Lesson 02 divides the scores by d_k instead of √d_k; lesson 03 is solved. Graded on
    // the learner's own lesson 02 (as in the student edition), lesson 03's failures point
    // back at lesson 02's function, which this run grades too.
    let submission = Submission::solved();
    let lib = submission.path().join("02-attention/src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    let buggy = text.replacen("/ d_k.sqrt();", "/ d_k;", 1);
    assert_ne!(text, buggy, "the solution divides by d_k.sqrt()");
    std::fs::write(&lib, buggy).unwrap();
    let solved_03 =
        crate::util::course_root().join("solutions/03-multi-head-attention/src/lib.rs");
    submission.write(
        "03-multi-head-attention/src/lib.rs",
        &std::fs::read_to_string(solved_03).unwrap(),
    );
    let output = checker()
        .args([
            "grade",
            "03",
            "--whole-stack",
            "--format",
            "json",
            "--lessons-dir",
        ])
        .arg(submission.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let tests = json["lessons"][0]["tests"].as_array().unwrap();
    let failing: Vec<&str> = tests
        .iter()
        .filter(|t| t["passed"] == false)
        .map(|t| t["message"].as_str().unwrap())
        .collect();
    assert!(
        !failing.is_empty(),
        "the bug in lesson 02 fails tests of lesson 03"
    );
    for message in failing {
        assert!(
            message.starts_with("This lesson runs on your lesson 02-attention")
                && message.contains("`scaled_dot_product_attention`"),
            "{message}"
        );
    }
}
