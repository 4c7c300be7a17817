//! `checker export-student`: the student edition builds, grades, and leaks nothing.

use crate::util::{checker, course_root};
use std::path::Path;
use std::process::Command;

/// Every lesson's suite folder, `solutions/<id>/suite/`, with the lesson's id.
fn suite_dirs() -> Vec<(String, std::path::PathBuf)> {
    let mut dirs: Vec<_> = std::fs::read_dir(course_root().join("solutions"))
        .unwrap()
        .flatten()
        .map(|lesson| {
            let id = lesson.file_name().to_string_lossy().into_owned();
            (id, lesson.path().join("suite"))
        })
        .filter(|(_, suite)| suite.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "the lessons have suites");
    dirs
}

/// Lines of the solutions that nothing a learner is meant to see shows (the stubs, their
/// tests and examples, the graded suites that call them, the hints that `checker hint`
/// gives step by step, in both languages): code that would give answers away.
fn solution_lines() -> Vec<String> {
    let root = course_root();
    let hints = suite_dirs().into_iter().flat_map(|(_, suite)| {
        let lesson = suite
            .parent()
            .expect("a suite is in its lesson's folder")
            .to_owned();
        [lesson.join("lesson.toml"), lesson.join("lesson.zh-CN.ftl")]
    });
    let shown: String = walkdir::WalkDir::new(root.join("lessons"))
        .into_iter()
        .chain(
            suite_dirs()
                .into_iter()
                .flat_map(|(_, suite)| walkdir::WalkDir::new(suite)),
        )
        .flatten()
        .filter(|e| e.file_type().is_file() && e.file_name() != "heldout.rs")
        .map(|e| e.into_path())
        .chain(hints)
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    let mut lines = Vec::new();
    // Every file of every solution's src/: lib.rs and the modules it declares.
    let sources = std::fs::read_dir(root.join("solutions"))
        .unwrap()
        .flatten()
        .flat_map(|lesson| walkdir::WalkDir::new(lesson.path().join("src")))
        .flatten()
        .filter(|e| e.file_type().is_file());
    for file in sources {
        let solution = std::fs::read_to_string(file.path()).unwrap_or_default();
        lines.extend(
            solution
                .lines()
                .map(str::trim)
                .filter(|line| line.len() >= 25 && !line.starts_with("//"))
                .filter(|line| !shown.contains(*line))
                .map(str::to_owned),
        );
    }
    assert!(
        lines.len() > 20,
        "the solutions have code the lessons do not show"
    );
    lines
}

/// The names of every held-out test.
fn heldout_names() -> Vec<String> {
    let mut names = Vec::new();
    for (_, suite) in suite_dirs() {
        let source =
            std::fs::read_to_string(suite.join("heldout.rs")).unwrap_or_default();
        let mut after_test = false;
        for line in source.lines().map(str::trim) {
            if line == "#[test]" {
                after_test = true;
            } else if let (true, Some(rest)) = (after_test, line.strip_prefix("fn ")) {
                names.push(rest.split('(').next().unwrap().to_owned());
                after_test = false;
            }
        }
    }
    assert!(!names.is_empty(), "the course has held-out tests");
    names
}

/// Every long number of the held-out reference values (`heldout.json`), as written: a short
/// one, such as 0.0, is in many files.
fn heldout_values() -> Vec<String> {
    let mut numbers = Vec::new();
    for (_, suite) in suite_dirs() {
        let Ok(text) = std::fs::read_to_string(suite.join("heldout.json")) else {
            continue;
        };
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        for value in json["values"].as_object().unwrap().values() {
            for number in value["data"].as_array().unwrap() {
                let number = number.to_string();
                if number.len() >= 12 {
                    numbers.push(number);
                }
            }
        }
    }
    assert!(
        !numbers.is_empty(),
        "the course has held-out reference values"
    );
    numbers
}

fn assert_nothing_leaks(what: &str, text: &str, secrets: &[String]) {
    for secret in secrets {
        assert!(!text.contains(secret.as_str()), "{what} leaks `{secret}`");
    }
}

#[test]
fn the_student_edition_builds_grades_and_leaks_nothing() {
    let out = tempfile::tempdir().unwrap();
    let edition = out.path().join("course");
    let status = checker()
        .arg("export-student")
        .arg(&edition)
        .output()
        .unwrap();
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );

    // No solutions, held-out suites, reference scripts or maintainer tooling.
    for absent in [
        "solutions",
        "mistakes",
        "measurements",
        "tools",
        "xtask",
        ".ci",
        "checker/tests",
    ] {
        assert!(
            !edition.join(absent).exists(),
            "the student edition has {absent}/"
        );
    }
    // The graded suites with the reference values they read, in checker/suites/<id>/.
    for (id, suite) in suite_dirs() {
        let shipped = Path::new("checker/suites").join(&id);
        for file in ["graded.rs", "graded.json", "graded.named.json"] {
            if suite.join(file).is_file() {
                assert!(
                    std::fs::read(edition.join(shipped.join(file))).ok()
                        == std::fs::read(suite.join(file)).ok(),
                    "the student edition's {} is not the course's",
                    shipped.join(file).display()
                );
            }
        }
    }
    let mut secrets = solution_lines();
    secrets.extend(heldout_names());
    secrets.extend(heldout_values());
    for entry in walkdir::WalkDir::new(&edition).into_iter().flatten() {
        if !entry.file_type().is_file() {
            continue;
        }
        for held_out in ["heldout.rs", "heldout.json"] {
            assert_ne!(entry.file_name(), held_out, "{}", entry.path().display());
        }
        if let Ok(text) = std::fs::read_to_string(entry.path()) {
            assert_nothing_leaks(&entry.path().display().to_string(), &text, &secrets);
        }
    }

    // The Classroom workflow grades with the course's grader, not the student's tests.
    let workflow =
        std::fs::read_to_string(edition.join(".github/workflows/classroom.yml")).unwrap();
    for needle in [
        "COURSE_GRADER_REPOSITORY",
        "COURSE_GRADER_TOKEN",
        "--format classroom",
        // GitHub's Ubuntu runners need the AppArmor restriction lifted for bubblewrap.
        "apparmor_restrict_unprivileged_userns=0",
    ] {
        assert!(workflow.contains(needle), "the workflow lacks {needle}");
    }

    // It builds, and its checker grades the untouched stubs at 0.
    let target = course_root().join("target").join("export-test");
    let cargo = |args: &[&str]| {
        let output = Command::new(env!("CARGO"))
            .current_dir(&edition)
            .env("CARGO_TARGET_DIR", &target)
            .args(args)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "cargo {args:?}:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    cargo(&["build", "-q", "-p", "checker"]);
    let binary = std::fs::read(target.join("debug").join("checker")).unwrap();
    assert_nothing_leaks(
        "the student edition's checker binary",
        &String::from_utf8_lossy(&binary),
        &secrets,
    );
    let graded = cargo(&[
        "run",
        "-q",
        "-p",
        "checker",
        "--",
        "grade",
        "02-attention",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&graded.stdout).unwrap();
    let lesson = &json["lessons"][0];
    assert_eq!(
        (lesson["id"].as_str(), lesson["passed"].as_u64()),
        (Some("02-attention"), Some(0))
    );
    assert!(lesson["total"].as_u64().unwrap() > 0);
    let tiers: Vec<&str> = lesson["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tier"].as_str().unwrap())
        .collect();
    assert!(
        tiers.iter().all(|t| *t == "graded"),
        "the student edition runs only the graded tier"
    );
    assert!(
        !Path::new(&edition)
            .join("lessons/02-attention/target")
            .exists(),
        "grading wrote into the lessons"
    );
}
