//! `checker class --report --history`: the class report's counts are the gradebook's, a
//! second run shows the trends, and an interrupted run loses no finished one.

use crate::util::{LESSON, Submission, checker, fixture};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// Moves the lesson of `submission` into `dir/student/`.
fn enrol(dir: &Path, student: &str, submission: &Submission) {
    let to = dir.join(student).join(LESSON);
    if to.exists() {
        std::fs::remove_dir_all(&to).unwrap();
    }
    std::fs::create_dir_all(dir.join(student)).unwrap();
    std::fs::rename(submission.path().join(LESSON), to).unwrap();
}

/// The solution of the lesson with `find` replaced by `replace` once: a learner's mistake.
fn solved_but(find: &str, replace: &str) -> Submission {
    let submission = Submission::solved();
    let lib = submission.path().join(LESSON).join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    assert_eq!(
        text.matches(find).count(),
        1,
        "`{find}` once in the solution"
    );
    std::fs::write(&lib, text.replacen(find, replace, 1)).unwrap();
    submission
}

/// Grades the class with a report and a history, returns (gradebook, report, stderr).
fn grade(dir: &Path, out: &Path, history: &Path, label: &str) -> (Value, Value, String) {
    let gradebook = out.join("gradebook.json");
    let output = checker()
        .args(["class", "--format", "json", "--test-timeout", "3"])
        .arg("--out")
        .arg(&gradebook)
        .arg("--report")
        .arg(out.join("report"))
        .arg("--history")
        .arg(history)
        .args(["--run-label", label])
        .args(crate::util::without_sandbox())
        .arg(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let read = |path: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    (
        read(&gradebook),
        read(&out.join("report/report.json")),
        stderr,
    )
}

/// What the report should say, computed from the gradebook alone.
struct Expected {
    /// Per lesson, the histogram of every student's score.
    histograms: BTreeMap<String, [u64; 10]>,
    /// Per lesson and test, (passed, graded students).
    tests: BTreeMap<(String, String), (u64, u64)>,
    /// Per named mistake, its students.
    mistakes: BTreeMap<String, BTreeSet<String>>,
}

fn expected(gradebook: &Value) -> Expected {
    let mut expected = Expected {
        histograms: BTreeMap::new(),
        tests: BTreeMap::new(),
        mistakes: BTreeMap::new(),
    };
    let lessons: Vec<String> = gradebook["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    for student in gradebook["students"].as_array().unwrap() {
        let name = student["student"].as_str().unwrap();
        let graded: Vec<Value> = student["report"]["lessons"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for id in &lessons {
            let lesson = graded.iter().find(|l| l["id"] == id.as_str());
            let score = lesson.map_or(0.0, |l| l["score"].as_f64().unwrap());
            // Scores are small fractions: 3/10 lands in bin 3, 1 in the last.
            let bin = ((score * 10.0 + 1e-9).floor() as usize).min(9);
            expected.histograms.entry(id.clone()).or_insert([0; 10])[bin] += 1;
            let Some(lesson) = lesson else { continue };
            for test in lesson["tests"].as_array().unwrap() {
                let key = (id.clone(), test["name"].as_str().unwrap().to_owned());
                let counts = expected.tests.entry(key).or_insert((0, 0));
                counts.0 += u64::from(test["passed"].as_bool().unwrap());
                counts.1 += 1;
                if lesson["status"] == "graded" && test["passed"] == false {
                    for key in test["named"].as_array().into_iter().flatten() {
                        expected
                            .mistakes
                            .entry(key.as_str().unwrap().to_owned())
                            .or_default()
                            .insert(name.to_owned());
                    }
                }
            }
        }
    }
    expected
}

/// Every difference between the report and what the gradebook says it should say.
fn differences(report: &Value, expected: &Expected) -> Vec<String> {
    let mut problems = Vec::new();
    for lesson in report["lessons"].as_array().unwrap() {
        let id = lesson["id"].as_str().unwrap().to_owned();
        let histogram: Vec<u64> = lesson["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        if histogram != expected.histograms[&id] {
            problems.push(format!(
                "{id}: histogram {histogram:?}, the gradebook says {:?}",
                expected.histograms[&id]
            ));
        }
        for test in lesson["tests"].as_array().unwrap() {
            let key = (id.clone(), test["name"].as_str().unwrap().to_owned());
            let got = (
                test["passed"].as_u64().unwrap(),
                test["total"].as_u64().unwrap(),
            );
            if expected.tests.get(&key) != Some(&got) {
                problems.push(format!(
                    "{key:?}: {got:?}, the gradebook says {:?}",
                    expected.tests.get(&key)
                ));
            }
        }
    }
    let reported: BTreeMap<String, BTreeSet<String>> = report["misconceptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let students = m["students"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
                .collect();
            (m["key"].as_str().unwrap().to_owned(), students)
        })
        .collect();
    if reported != expected.mistakes {
        problems.push(format!(
            "misconceptions {reported:?}, the gradebook says {:?}",
            expected.mistakes
        ));
    }
    problems
}

#[test]
fn the_report_counts_what_the_gradebook_says_and_a_second_run_shows_the_trend() {
    let class = tempfile::tempdir().unwrap();
    let dir = class.path().join("class");
    std::fs::create_dir_all(&dir).unwrap();
    let out = class.path().join("out");
    let history = class.path().join("history.sqlite");
    // ada: solved. bo: the softmax over the columns (a listed, named mistake). cy: the
    // stub. dee: nothing. A student named with markup, solved.
    enrol(&dir, "ada", &Submission::solved());
    let columns = (
        "for mut row in weights.rows_mut() {",
        "for mut row in weights.columns_mut() {",
    );
    enrol(&dir, "bo", &solved_but(columns.0, columns.1));
    enrol(&dir, "cy", &Submission::stub());
    std::fs::create_dir_all(dir.join("dee")).unwrap();
    let marked_up = "<img src=x onerror=alert(1)>";
    enrol(&dir, marked_up, &Submission::solved());

    let (gradebook, report, stderr) = grade(&dir, &out.join("1"), &history, "week 1");
    let problems = differences(&report, &expected(&gradebook));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let wrong_axis = "harness:wrong-axis";
    let first = &report["misconceptions"][0];
    assert_eq!(first["key"], wrong_axis, "{report:#}");
    assert_eq!(first["students"], serde_json::json!(["bo"]));
    assert_eq!(first["function"], "softmax_rows");
    assert!(stderr.contains(&format!("1 × {wrong_axis}")), "{stderr}");
    let stuck: Vec<(String, String)> = report["stuck"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["student"].as_str().unwrap().into(),
                s["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    for expected in [("cy", "not_started"), ("dee", "not_submitted")] {
        let expected = (expected.0.to_owned(), expected.1.to_owned());
        assert!(stuck.contains(&expected), "{expected:?} in {stuck:?}");
    }
    let page = std::fs::read_to_string(out.join("1/report/index.html")).unwrap();
    assert!(
        !page.contains(marked_up) && page.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "a student's name is text on the page, never markup"
    );
    for fetch in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "<script",
    ] {
        assert!(
            !page.contains(fetch),
            "nothing is fetched, nothing run: {fetch}"
        );
    }

    // A week later, bo has fixed the softmax.
    enrol(&dir, "bo", &Submission::solved());
    let (gradebook, report, _) = grade(&dir, &out.join("2"), &history, "week 2");
    let problems = differences(&report, &expected(&gradebook));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let trends = &report["history"];
    let labels: Vec<&str> = trends["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["week 1", "week 2"]);
    assert_eq!(
        trends["misconceptions"][wrong_axis],
        serde_json::json!([1, 0])
    );
    let bo = trends["students"]["bo"].as_array().unwrap();
    assert!(
        bo[0].as_f64().unwrap() < bo[1].as_f64().unwrap(),
        "{trends:#}"
    );
}

#[test]
fn a_class_run_killed_part_way_leaves_every_finished_run_in_a_valid_history() {
    let class = tempfile::tempdir().unwrap();
    let history = class.path().join("history.sqlite");
    // A finished run first: one empty submission, graded at once.
    let quick = class.path().join("quick");
    std::fs::create_dir_all(quick.join("ann")).unwrap();
    let run = |dir: &Path| {
        checker()
            .args(["class", "--test-timeout", "3", "--history"])
            .arg(&history)
            .args(crate::util::without_sandbox())
            .arg(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    assert!(run(&quick).wait().unwrap().success());

    // Then a run killed while it grades a slow submission, once its quick one is recorded.
    let slow = class.path().join("slow");
    std::fs::create_dir_all(slow.join("ann")).unwrap();
    let looping = Submission::solved();
    looping.inject("pub fn padding_mask(", &fixture("endless_loop"));
    enrol(&slow, "bob", &looping);
    let mut child = run(&slow);
    let recorded = |connection: &rusqlite::Connection| -> i64 {
        connection
            .query_row(
                "SELECT count(*) FROM students JOIN runs ON runs.id = students.run
                 WHERE runs.id = 2 AND student = 'ann'",
                [],
                |row| row.get(0),
            )
            .unwrap_or(0)
    };
    let start = Instant::now();
    loop {
        let connection = rusqlite::Connection::open(&history).unwrap();
        if recorded(&connection) == 1 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "ann was never recorded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    let connection = rusqlite::Connection::open(&history).unwrap();
    let check: String = connection
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let runs: Vec<(i64, bool)> = connection
        .prepare("SELECT id, finished_at IS NOT NULL FROM runs ORDER BY id")
        .unwrap()
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        runs,
        [(1, true), (2, false)],
        "the finished run is kept, the killed one marked"
    );
    let first_run: i64 = connection
        .query_row("SELECT count(*) FROM students WHERE run = 1", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(first_run, 1);
    assert_eq!(
        recorded(&connection),
        1,
        "what the killed run graded is kept"
    );
}
