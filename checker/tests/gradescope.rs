//! `checker gradescope`: the bundle, run locally against a folder laid out like
//! `/autograder`, with the code under test running as the unprivileged `nobody`.

use crate::util::{LESSON, Submission, checker, course_root};
use std::process::Command;

#[test]
fn the_bundle_grades_a_fake_autograder_folder_into_results_json() {
    let out = tempfile::tempdir().unwrap();
    let bundle = out.path().join("bundle");
    let made = checker().arg("gradescope").arg(&bundle).output().unwrap();
    assert_eq!(
        made.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    for file in [
        "setup.sh",
        "run_autograder",
        "autograder.zip",
        "course/course.toml",
    ] {
        assert!(bundle.join(file).exists(), "the bundle has {file}");
    }
    let archive = std::fs::File::open(bundle.join("autograder.zip")).unwrap();
    let names: Vec<String> = zip::ZipArchive::new(archive)
        .unwrap()
        .file_names()
        .map(|name| name.unwrap().into_owned())
        .collect();
    assert!(names.iter().any(|n| n == "run_autograder"));
    assert!(
        names.iter().any(|n| n.starts_with("course/solutions/")),
        "grading needs the references"
    );

    // /autograder/submission: the solved lesson, whose code tries to write the results.
    let root = out.path().join("autograder");
    let results = root.join("results");
    let submission = Submission::solved();
    submission.inject(
        "pub fn padding_mask(",
        &format!(
            "let _ = std::fs::write({:?}, \"{{\\\"score\\\": 1000}}\");",
            results.join("pwned.json")
        ),
    );
    let lessons = root.join("submission").join("lessons");
    std::fs::create_dir_all(&lessons).unwrap();
    std::fs::rename(submission.path().join(LESSON), lessons.join(LESSON)).unwrap();

    // Switching users needs root (as on Gradescope, and in CI); elsewhere the tests run as
    // ourselves and the results folder cannot be protected.
    let as_root = nix::unistd::geteuid().is_root();
    let run = Command::new(bundle.join("run_autograder"))
        .env("AUTOGRADER_ROOT", &root)
        .env("COURSE_DIR", course_root())
        .env("CHECKER", env!("CARGO_BIN_EXE_checker"))
        .env("RUN_AS", if as_root { "nobody" } else { "" })
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = std::fs::read_to_string(results.join("checker.log")).unwrap_or_default();
    let text =
        std::fs::read_to_string(results.join("results.json")).expect("results.json");
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}\n{log}"));
    let tests = json["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("no tests: {text}\n{log}"));
    let sum: f64 = tests.iter().map(|t| t["score"].as_f64().unwrap()).sum();
    assert!((json["score"].as_f64().unwrap() - sum).abs() < 1e-9);
    for test in tests {
        for key in [
            "name",
            "score",
            "max_score",
            "status",
            "output",
            "visibility",
        ] {
            assert!(!test[key].is_null(), "{key} missing in {test}");
        }
    }
    let lesson: Vec<&serde_json::Value> = tests
        .iter()
        .filter(|t| t["name"].as_str().unwrap().starts_with(LESSON))
        .collect();
    assert!(lesson.iter().all(|t| t["status"] == "passed"), "{text}");
    assert!(
        lesson.iter().any(|t| t["visibility"] == "after_published"),
        "held-out tests are hidden until published"
    );
    assert!(
        !results.join("pwned.json").exists(),
        "the code under test wrote into the results folder"
    );
}
