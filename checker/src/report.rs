//! The results of grading, as the terminal shows them and `--format json` prints them.
//!
//! The JSON shape is stable: `{"score", "lessons": [{"id", "passed", "total", "score",
//! "tests": [{"name", "passed", "message"}]}]}`, with more fields alongside. It holds no
//! timings, so grading the same submission twice prints the same bytes.

use crate::course::{ExpectedTest, Tier};
use crate::messages::MESSAGES;
use course_i18n::tr;
use serde::Serialize;

/// How one graded test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestStatus {
    /// Its checks ran to the end and held.
    Pass,
    /// A check failed.
    Fail,
    /// It reached a `todo!()`.
    NotStarted,
    /// It ran past its time limit.
    Timeout,
    /// Its process died or exited without reporting.
    Crash,
    /// The lesson did not compile, so the test could not run.
    NotBuilt,
}

/// One graded test's result.
#[derive(Debug, Clone, Serialize)]
pub struct TestResult {
    /// The test's name, which states the property it checks.
    pub name: String,
    /// The tier of the suite that holds it.
    pub tier: Tier,
    /// Whether it passed.
    pub passed: bool,
    /// How it ended.
    pub status: TestStatus,
    /// What went wrong and the likely cause; empty for a pass.
    pub message: String,
    /// The lesson's function the failure points at (`softmax_rows`, `Linear::backward`):
    /// the one still a `todo!()`, or the last one the test called before its check
    /// failed. Hints are offered for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// The mistakes the failed test's checks recognised, by cause key
    /// (`harness:mask-after-softmax`): the learner's result was that mistake's wrong
    /// answer. Empty for a pass and for a failure no check could name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub named: Vec<String>,
    /// Whether the test's own checks passed and it failed because a value the learner's
    /// code returned differed from the reference solution's on the same call: a finding
    /// that locates less than a failed check, so a failed check is shown first.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_reference: bool,
}

/// What happened to a lesson as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LessonStatus {
    /// It compiled and its tests ran.
    Graded,
    /// Its source is the lesson's stub exactly as the course ships it: every test counts
    /// as not started, without a build (`checker verify` proves every stub scores nothing).
    NotStarted,
    /// Its code did not compile.
    DoesNotCompile,
    /// The submission has no folder (or no `src/lib.rs`) for it.
    Missing,
    /// The build failed for a reason outside the lesson's code.
    BuildFailed,
}

/// One lesson's results.
#[derive(Debug, Clone, Serialize)]
pub struct LessonReport {
    /// The lesson id, e.g. `02-attention`.
    pub id: String,
    /// The lesson title.
    pub title: String,
    /// What happened to the lesson as a whole.
    pub status: LessonStatus,
    /// Why the lesson could not be graded, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Tests passed.
    pub passed: usize,
    /// Tests expected.
    pub total: usize,
    /// `passed / total`, from 0 to 1.
    pub score: f64,
    /// Every expected test, in the suite's order.
    pub tests: Vec<TestResult>,
}

/// The results of one grading run.
#[derive(Debug, Clone, Serialize)]
pub struct CourseReport {
    /// The mean of the lessons' scores, from 0 to 1.
    pub score: f64,
    /// The graded lessons, in course order.
    pub lessons: Vec<LessonReport>,
}

impl LessonReport {
    /// A lesson whose every expected test failed for one reason.
    pub fn unbuilt(
        id: &str,
        title: &str,
        status: LessonStatus,
        message: String,
        expected: &[ExpectedTest],
    ) -> Self {
        let tests = failed_alike(expected, TestStatus::NotBuilt, "", None);
        Self::from_tests(id, title, status, Some(message), tests)
    }

    /// A lesson whose source is its untouched stub, in which `first` (the first function
    /// of its file) is where to start.
    pub fn untouched(
        id: &str,
        title: &str,
        first: &str,
        expected: &[ExpectedTest],
    ) -> Self {
        let todo = tr!(MESSAGES, "still-todo", what = format!("`{first}`"));
        let tests = failed_alike(expected, TestStatus::NotStarted, &todo, Some(first));
        let message = tr!(MESSAGES, "lesson-not-started", first = first);
        Self::from_tests(id, title, LessonStatus::NotStarted, Some(message), tests)
    }

    /// A lesson from its tests' results.
    pub fn from_tests(
        id: &str,
        title: &str,
        status: LessonStatus,
        message: Option<String>,
        tests: Vec<TestResult>,
    ) -> Self {
        let message = message.map(|m| printable(&m));
        let tests: Vec<TestResult> = tests
            .into_iter()
            .map(|test| TestResult {
                message: printable(&test.message),
                ..test
            })
            .collect();
        let passed = tests.iter().filter(|t| t.passed).count();
        let total = tests.len();
        let score = if total == 0 {
            0.0
        } else {
            passed as f64 / total as f64
        };
        Self {
            id: id.to_owned(),
            title: title.to_owned(),
            status,
            message,
            passed,
            total,
            score,
            tests,
        }
    }

    /// The failure to show first: the first test whose own check failed, else the first
    /// that did not pass (one that failed only against the reference solution's values
    /// says less about what is wrong).
    pub fn first_failure(&self) -> Option<&TestResult> {
        self.tests
            .iter()
            .find(|t| !t.passed && !t.by_reference)
            .or_else(|| self.tests.iter().find(|t| !t.passed))
    }

    /// Whether the learner has not begun: nothing passes and everything hit a `todo!()`.
    pub fn not_started(&self) -> bool {
        self.status == LessonStatus::NotStarted
            || self.passed == 0
                && self
                    .tests
                    .iter()
                    .all(|t| t.status == TestStatus::NotStarted)
    }
}

/// Every expected test, failed for one reason: `status`, `message`, pointing at `function`.
fn failed_alike(
    expected: &[ExpectedTest],
    status: TestStatus,
    message: &str,
    function: Option<&str>,
) -> Vec<TestResult> {
    expected
        .iter()
        .map(|test| TestResult {
            name: test.name.clone(),
            tier: test.tier,
            passed: false,
            status,
            message: message.to_owned(),
            function: function.map(str::to_owned),
            named: Vec::new(),
            by_reference: false,
        })
        .collect()
}

/// The points each lesson is worth on grading platforms (Gradescope, GitHub Classroom),
/// shared equally among its tests.
pub const LESSON_POINTS: f64 = 10.0;

impl LessonReport {
    /// The points one of this lesson's tests is worth.
    pub fn points_per_test(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            LESSON_POINTS / self.total as f64
        }
    }

    /// What to show for `test`: its own message, or for a test that failed without one
    /// (the lesson did not build), the lesson's.
    pub fn message_for(&self, test: &TestResult) -> String {
        if test.message.is_empty() && !test.passed {
            self.message.clone().unwrap_or_default()
        } else {
            test.message.clone()
        }
    }
}

impl CourseReport {
    /// The report of these lessons, scored as the mean of their scores.
    pub fn new(lessons: Vec<LessonReport>) -> Self {
        let score = if lessons.is_empty() {
            0.0
        } else {
            lessons.iter().map(|l| l.score).sum::<f64>() / lessons.len() as f64
        };
        Self { score, lessons }
    }
}

/// `text` with every character that cannot be shown as it is written as `\u{..}`: control
/// characters but newline and tab, Unicode's noncharacters (U+FFFE, U+FFFF, U+FDD0 to
/// U+FDEF and the last two of every plane), and the invisible controls that reorder text
/// (bidirectional overrides and isolates).
///
/// Messages carry text the learner's code chose (panic messages, its output): control
/// characters and noncharacters there would make a JUnit gradebook invalid XML (XML 1.0
/// allows neither), rewrite a terminal, or show an instructor text in another order than
/// it has.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if shown_as_escape(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Whether [`printable`] writes `c` as an escape.
fn shown_as_escape(c: char) -> bool {
    let code = u32::from(c);
    let noncharacter = (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE;
    let reordering = matches!(code, 0x202A..=0x202E | 0x2066..=0x2069 | 0x200E | 0x200F);
    (c.is_control() && c != '\n' && c != '\t') || noncharacter || reordering
}

#[cfg(test)]
mod printable_tests {
    #[test]
    fn control_characters_are_escaped_and_lines_kept() {
        assert_eq!(
            super::printable("a\u{0}b\u{1b}[2J\nc\td\u{7f}"),
            "a\\u{0}b\\u{1b}[2J\nc\td\\u{7f}"
        );
    }

    #[test]
    fn noncharacters_and_reordering_controls_are_escaped_and_chinese_kept() {
        assert_eq!(
            super::printable("\u{fffe}\u{ffff}\u{fdd0}\u{10ffff}\u{202e}é中文"),
            "\\u{fffe}\\u{ffff}\\u{fdd0}\\u{10ffff}\\u{202e}é中文"
        );
    }
}
