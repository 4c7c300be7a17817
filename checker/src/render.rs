//! What the checker prints: the progress table, the detailed results, and JSON.

use crate::course::{Course, Tier};
use crate::messages::{self, MESSAGES};
use crate::report::{CourseReport, LessonReport, LessonStatus, TestResult, TestStatus};
use course_i18n::tr;
use crossterm::style::Stylize;
use std::fmt::Write as _;
use std::io::IsTerminal;
use unicode_width::UnicodeWidthStr;

/// Colours for the terminal, or none when the output is not a terminal or `NO_COLOR` is set.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    enabled: bool,
}

impl Paint {
    /// Colours if standard output is a terminal and `NO_COLOR` is not set.
    pub fn for_stdout() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            enabled: !no_color && std::io::stdout().is_terminal(),
        }
    }

    /// No colours at all.
    #[cfg(test)]
    pub fn plain() -> Self {
        Self { enabled: false }
    }

    fn green(&self, text: &str) -> String {
        if self.enabled {
            text.green().to_string()
        } else {
            text.to_owned()
        }
    }

    fn red(&self, text: &str) -> String {
        if self.enabled {
            text.red().to_string()
        } else {
            text.to_owned()
        }
    }

    fn yellow(&self, text: &str) -> String {
        if self.enabled {
            text.yellow().to_string()
        } else {
            text.to_owned()
        }
    }

    fn bold(&self, text: &str) -> String {
        if self.enabled {
            text.bold().to_string()
        } else {
            text.to_owned()
        }
    }

    fn dim(&self, text: &str) -> String {
        if self.enabled {
            text.dim().to_string()
        } else {
            text.to_owned()
        }
    }
}

const BAR_WIDTH: usize = 20;

fn bar(score: f64) -> String {
    let filled = ((score * BAR_WIDTH as f64).round() as usize).min(BAR_WIDTH);
    format!("{}{}", "█".repeat(filled), "░".repeat(BAR_WIDTH - filled))
}

fn percent(score: f64) -> String {
    format!("{:>3.0}%", (score * 100.0).floor())
}

fn lesson_state(lesson: &LessonReport) -> String {
    match lesson.status {
        LessonStatus::Missing => tr!(MESSAGES, "state-missing"),
        LessonStatus::DoesNotCompile => tr!(MESSAGES, "state-does-not-compile"),
        LessonStatus::BuildFailed => tr!(MESSAGES, "state-build-failed"),
        LessonStatus::Graded if lesson.passed == lesson.total => {
            tr!(MESSAGES, "state-done")
        }
        LessonStatus::NotStarted => tr!(MESSAGES, "state-not-started"),
        LessonStatus::Graded if lesson.not_started() => {
            tr!(MESSAGES, "state-not-started")
        }
        LessonStatus::Graded => tr!(MESSAGES, "state-in-progress"),
    }
}

/// A lesson's title in the checker's language.
fn title(lesson: &LessonReport) -> String {
    messages::title(&lesson.id, &lesson.title)
}

/// `text` padded with spaces to `width` columns of a terminal (a Chinese character takes
/// two).
fn pad(text: &str, width: usize) -> String {
    let shown = UnicodeWidthStr::width(text);
    format!("{text}{}", " ".repeat(width.saturating_sub(shown)))
}

/// The progress table and the next thing to do.
pub fn progress(
    course: &Course,
    report: &CourseReport,
    current: Option<&LessonReport>,
    lessons: &str,
    paint: Paint,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", paint.bold(&tr!(MESSAGES, "progress-title")));
    let width = report
        .lessons
        .iter()
        .map(|l| UnicodeWidthStr::width(title(l).as_str()))
        .max()
        .unwrap_or(0);
    for lesson in &report.lessons {
        let number = lesson.id.split('-').next().unwrap_or(&lesson.id);
        let bar = bar(lesson.score);
        let bar = if lesson.score >= 1.0 {
            paint.green(&bar)
        } else {
            bar
        };
        let _ = writeln!(
            out,
            "  {number}  {}  {:>3}/{:<3} {bar} {}  {}",
            pad(&title(lesson), width),
            lesson.passed,
            lesson.total,
            percent(lesson.score),
            paint.dim(&lesson_state(lesson)),
        );
    }
    let overall = tr!(
        MESSAGES,
        "progress-overall",
        percent = percent(report.score).trim_start()
    );
    let _ = writeln!(out, "\n  {overall}");
    let _ = writeln!(out, "\n{}", next_step(course, current, lessons));
    if let Some(lesson) = current.filter(|l| l.score < 1.0) {
        let _ = writeln!(out, "{}", commands(&lesson.id));
    }
    out
}

/// What the learner should do next in `current`, the lesson they are working on (see
/// [`working_on`](crate::progress::working_on)): its chapter, the file and the first thing
/// that fails there. `lessons` is how to name the lessons folder (`lessons`, or the
/// folder given with `--lessons-dir`).
pub fn next_step(
    course: &Course,
    current: Option<&LessonReport>,
    lessons: &str,
) -> String {
    let Some(lesson) = current.filter(|l| l.score < 1.0) else {
        // Everything passes: what is left is to use it, with the last lesson's first
        // experiment (lesson 07 trains the GPT on the book).
        // Only a lesson crate's own example: the learner runs it on their code.
        let experiment = course.manifest.lessons.iter().rev().find_map(|l| {
            l.experiments
                .iter()
                .find(|e| {
                    l.program_package(&course.root, e).as_ref() == Some(&l.crate_name)
                })
                .map(|example| (l.crate_name.clone(), example.clone(), l.chapter.clone()))
        });
        return match experiment {
            Some((krate, example, chapter)) => tr!(
                MESSAGES,
                "all-done-experiment",
                krate = krate,
                example = example,
                chapter = format!("book/src/{chapter}")
            ),
            None => tr!(MESSAGES, "all-done"),
        };
    };
    let chapter = course
        .manifest
        .lesson(&lesson.id)
        .map(|l| format!("book/src/{}", l.chapter))
        .unwrap_or_default();
    let function = lesson.first_failure().and_then(|t| t.function.as_deref());
    let file = match course.manifest.lesson(&lesson.id) {
        Ok(known) => format!(
            "{lessons}/{}/{}",
            lesson.id,
            course.file_of(known, function)
        ),
        Err(_) => format!("{lessons}/{}/src/lib.rs", lesson.id),
    };
    let detail = match (lesson.status, lesson.first_failure()) {
        (LessonStatus::Graded | LessonStatus::NotStarted, Some(test))
            if test.status == TestStatus::NotStarted =>
        {
            tr!(
                MESSAGES,
                "next-open-not-started",
                file = file,
                gist = gist(&test.message)
            )
        }
        (LessonStatus::Graded, Some(test)) => tr!(
            MESSAGES,
            "next-open-failing",
            file = file,
            test = &test.name,
            gist = indent(&gist(&test.message), "  ")
        ),
        (_, _) => gist(
            &lesson
                .message
                .clone()
                .unwrap_or_else(|| tr!(MESSAGES, "next-not-graded")),
        ),
    };
    tr!(
        MESSAGES,
        "next-step",
        id = &lesson.id,
        title = title(lesson),
        chapter = chapter,
        detail = detail
    )
}

/// The commands that help with a lesson.
pub fn commands(id: &str) -> String {
    tr!(MESSAGES, "commands", id = id)
}

/// The gist of a failure message: its first line and its "likely cause".
/// For compiler output, the first error and where it is.
fn gist(message: &str) -> String {
    let mut lines = message.lines();
    let mut gist: Vec<&str> = lines.next().into_iter().collect();
    let (mut error, mut place) = (false, false);
    let likely_cause = tr!(MESSAGES, "gist-likely-cause");
    let known_mistake = tr!(MESSAGES, "gist-known-mistake");
    gist.extend(lines.filter(|line| {
        let trimmed = line.trim_start();
        let first_error = !error && trimmed.starts_with("error");
        let first_place = error && !place && trimmed.starts_with("--> ");
        error |= first_error;
        place |= first_place;
        first_error
            || first_place
            || line.starts_with(&likely_cause)
            || line.starts_with(&known_mistake)
    }));
    gist.join("\n")
}

/// The screen of watch mode: the lesson's score, its first failure in full, and the names
/// of the other tests still to pass.
pub fn watch_screen(report: &CourseReport, paint: Paint) -> String {
    let mut out = String::new();
    for lesson in &report.lessons {
        let _ = writeln!(
            out,
            "{}  {}  {} {}\n",
            paint.bold(&format!("{} {}", lesson.id, title(lesson))),
            tr!(
                MESSAGES,
                "watch-tests-pass",
                passed = lesson.passed,
                total = lesson.total
            ),
            bar(lesson.score),
            percent(lesson.score).trim_start()
        );
        if let Some(message) = &lesson.message {
            let _ = writeln!(out, "{}\n", indent(message, "  "));
            continue;
        }
        let failing: Vec<&TestResult> =
            lesson.tests.iter().filter(|t| !t.passed).collect();
        if let Some(first) = failing.first() {
            out.push_str(&test_line(first, paint));
            if first.status == TestStatus::NotStarted {
                let _ = writeln!(out, "      {}", first.message);
            }
        }
        if failing.len() > 1 {
            let names: Vec<&str> = failing[1..].iter().map(|t| t.name.as_str()).collect();
            let still = tr!(MESSAGES, "watch-still-to-pass", count = names.len());
            let _ = writeln!(out, "\n  {still}");
            for name in names.iter().take(8) {
                let _ = writeln!(out, "    {}", paint.dim(name));
            }
            if names.len() > 8 {
                let _ = writeln!(
                    out,
                    "    {}",
                    paint.dim(&tr!(MESSAGES, "watch-and-more", count = names.len() - 8))
                );
            }
        }
    }
    out
}

/// Every lesson's results in detail: each test, and each failure with its message.
pub fn details(report: &CourseReport, paint: Paint) -> String {
    let mut out = String::new();
    for lesson in &report.lessons {
        let _ = writeln!(
            out,
            "{}  {}",
            paint.bold(&format!("{} {}", lesson.id, title(lesson))),
            tr!(
                MESSAGES,
                "details-tests",
                passed = lesson.passed,
                total = lesson.total,
                percent = percent(lesson.score).trim_start()
            )
        );
        if let Some(message) = &lesson.message {
            let _ = writeln!(out, "{}", indent(message, "    "));
        }
        if lesson.status == LessonStatus::Graded {
            for test in &lesson.tests {
                out.push_str(&test_line(test, paint));
            }
        }
        out.push('\n');
    }
    let overall = tr!(
        MESSAGES,
        "details-overall",
        percent = percent(report.score).trim_start()
    );
    let _ = writeln!(out, "{overall}");
    out
}

fn test_line(test: &TestResult, paint: Paint) -> String {
    let (mark, label) = match test.status {
        TestStatus::Pass => (paint.green("✓"), String::new()),
        TestStatus::Fail => (paint.red("✗"), String::new()),
        TestStatus::NotStarted => (
            paint.dim("·"),
            paint.dim(&tr!(MESSAGES, "test-not-started")),
        ),
        TestStatus::Timeout => {
            (paint.red("⏱"), paint.red(&tr!(MESSAGES, "test-timed-out")))
        }
        TestStatus::Crash => (paint.red("✗"), paint.red(&tr!(MESSAGES, "test-crashed"))),
        TestStatus::NotBuilt => (paint.dim("·"), String::new()),
    };
    let tier = match test.tier {
        Tier::Graded => String::new(),
        Tier::HeldOut => paint.dim(&tr!(MESSAGES, "test-held-out")),
    };
    let mut line = format!("  {mark} {}{tier}{label}\n", test.name);
    if matches!(
        test.status,
        TestStatus::Fail | TestStatus::Timeout | TestStatus::Crash
    ) {
        line.push_str(&paint.yellow(&indent(&test.message, "      ")));
        line.push('\n');
    }
    line
}

fn indent(text: &str, prefix: &str) -> String {
    text.trim_end()
        .lines()
        .map(|l| format!("{prefix}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The report as JSON, pretty-printed.
pub fn json(report: &CourseReport) -> String {
    serde_json::to_string_pretty(report).expect("a report always serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::ExpectedTest;
    use crate::report::{LessonReport, LessonStatus, TestResult, TestStatus};

    fn test(name: &str, status: TestStatus, message: &str) -> TestResult {
        TestResult {
            name: name.to_owned(),
            tier: Tier::Graded,
            passed: status == TestStatus::Pass,
            status,
            message: message.to_owned(),
            function: None,
            named: Vec::new(),
            by_reference: false,
        }
    }

    #[test]
    fn a_failed_check_is_shown_before_a_difference_from_the_reference() {
        let mut by_reference = test("shapes", TestStatus::Fail, "d_x differs");
        by_reference.by_reference = true;
        let checked = test("gradients", TestStatus::Fail, "d_x: relative error 0.1");
        let lesson = LessonReport::from_tests(
            "03-multi-head-attention",
            "Multi-head attention",
            LessonStatus::Graded,
            None,
            vec![by_reference.clone(), checked],
        );
        assert_eq!(
            lesson.first_failure().map(|t| t.name.as_str()),
            Some("gradients")
        );
        // Alone, a difference from the reference is still a failure to show.
        let lesson = LessonReport::from_tests(
            "03-multi-head-attention",
            "Multi-head attention",
            LessonStatus::Graded,
            None,
            vec![by_reference],
        );
        assert_eq!(
            lesson.first_failure().map(|t| t.name.as_str()),
            Some("shapes")
        );
    }

    #[test]
    fn the_detailed_report_shows_each_failure_with_its_message() {
        let lesson = LessonReport::from_tests(
            "02-attention",
            "Attention",
            LessonStatus::Graded,
            None,
            vec![
                test("softmax_rows_sum_to_one", TestStatus::Pass, ""),
                test(
                    "attention_weights_rows_sum_to_one",
                    TestStatus::Fail,
                    "attention weights: row 2 sums to 1.370000, but every row of a softmax \
                     sums to 1.\nLikely cause: softmax over the wrong axis",
                ),
                test(
                    "padding_mask_blocks_the_padded_keys",
                    TestStatus::Timeout,
                    "stopped after 10 s",
                ),
                test(
                    "linear_forward",
                    TestStatus::NotStarted,
                    "`Linear::forward` is still a todo!()",
                ),
            ],
        );
        let missing = LessonReport::unbuilt(
            "03-multi-head-attention",
            "Multi-head attention",
            LessonStatus::Missing,
            "There is no folder 03-multi-head-attention/ in the submission.".to_owned(),
            &[ExpectedTest {
                tier: Tier::HeldOut,
                name: "split_then_merge_is_the_identity".to_owned(),
            }],
        );
        let report = CourseReport::new(vec![lesson, missing]);
        insta::assert_snapshot!(details(&report, Paint::plain()), @r"
        02-attention Attention  1/4 tests, 25%
          ✓ softmax_rows_sum_to_one
          ✗ attention_weights_rows_sum_to_one
              attention weights: row 2 sums to 1.370000, but every row of a softmax sums to 1.
              Likely cause: softmax over the wrong axis
          ⏱ padding_mask_blocks_the_padded_keys (timed out)
              stopped after 10 s
          · linear_forward (not started)

        03-multi-head-attention Multi-head attention  0/1 tests, 0%
            There is no folder 03-multi-head-attention/ in the submission.

        Overall score: 12%
        ");
    }

    #[test]
    fn the_bar_fills_with_the_score() {
        assert_eq!(bar(0.0), "░".repeat(BAR_WIDTH));
        assert_eq!(bar(0.5), format!("{}{}", "█".repeat(10), "░".repeat(10)));
        assert_eq!(bar(1.0), "█".repeat(BAR_WIDTH));
    }
}
