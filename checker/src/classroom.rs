//! GitHub Classroom: the workflow the student edition carries, and the results format its
//! grading reporter reads (`checker grade --format classroom`).
//!
//! The reporter reads, for each runner, a base64-encoded JSON document: `{"version": 1,
//! "status", "max_score", "tests": [{"name", "status", "score", "message", ...}]}`. The
//! workflow checks out the course's own grader repository next to the submission, so the
//! tests that count are not the ones in the student's repository.

use crate::report::{CourseReport, LESSON_POINTS};
use serde::Serialize;

/// The workflow, as `export-student` writes it to `.github/workflows/classroom.yml`.
pub const WORKFLOW: &str = include_str!("classroom/classroom.yml");

#[derive(Serialize)]
struct Results {
    version: u32,
    status: &'static str,
    max_score: f64,
    tests: Vec<TestEntry>,
}

#[derive(Serialize)]
struct TestEntry {
    name: String,
    status: &'static str,
    score: f64,
    message: String,
    test_code: String,
    filename: String,
    line_no: u32,
    duration: u32,
}

/// The report in the format of Classroom's grading reporter.
pub fn results(report: &CourseReport) -> String {
    let mut tests = Vec::new();
    for lesson in &report.lessons {
        let points = lesson.points_per_test();
        for test in &lesson.tests {
            let message = lesson.message_for(test);
            tests.push(TestEntry {
                name: format!("{}: {}", lesson.id, test.name),
                status: if test.passed { "pass" } else { "fail" },
                score: if test.passed { points } else { 0.0 },
                message,
                test_code: format!("checker grade {}", lesson.id),
                filename: format!(
                    "{}/{}/{}.rs",
                    course_manifest::EXPORTED_SUITES,
                    lesson.id,
                    test.tier.stem()
                ),
                line_no: 0,
                duration: 0,
            });
        }
    }
    let all_pass = tests.iter().all(|t| t.status == "pass");
    let results = Results {
        version: 1,
        status: if all_pass { "pass" } else { "fail" },
        max_score: LESSON_POINTS * report.lessons.len() as f64,
        tests,
    };
    serde_json::to_string(&results).expect("results always serialise")
}

#[cfg(test)]
mod workflow_tests {
    #[test]
    fn the_grader_checkout_does_not_leave_its_token_behind() {
        let grader = super::WORKFLOW
            .split("- name:")
            .find(|step| step.contains("token: ${{ secrets.COURSE_GRADER_TOKEN }}"))
            .expect("a step checks out the grader");
        assert!(grader.contains("persist-credentials: false"), "{grader}");
    }
}
