//! What the checker prints: the progress table, the detailed results, and JSON.

use crate::course::Course;
use crate::report::{CourseReport, LessonReport, LessonStatus, TestResult, TestStatus};
use crossterm::style::Stylize;
use std::fmt::Write as _;
use std::io::IsTerminal;

/// Colours for the terminal, or none when the output is not a terminal or `NO_COLOR` is set.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    enabled: bool,
}

impl Paint {
    /// Colours if standard output is a terminal and `NO_COLOR` is not set.
    pub fn for_stdout() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self { enabled: !no_color && std::io::stdout().is_terminal() }
    }

    /// No colours at all (for tests and files).
    pub fn plain() -> Self {
        Self { enabled: false }
    }

    fn green(&self, text: &str) -> String {
        if self.enabled { text.green().to_string() } else { text.to_owned() }
    }

    fn red(&self, text: &str) -> String {
        if self.enabled { text.red().to_string() } else { text.to_owned() }
    }

    fn yellow(&self, text: &str) -> String {
        if self.enabled { text.yellow().to_string() } else { text.to_owned() }
    }

    fn bold(&self, text: &str) -> String {
        if self.enabled { text.bold().to_string() } else { text.to_owned() }
    }

    fn dim(&self, text: &str) -> String {
        if self.enabled { text.dim().to_string() } else { text.to_owned() }
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

fn lesson_state(lesson: &LessonReport) -> &'static str {
    match lesson.status {
        LessonStatus::Missing => "missing",
        LessonStatus::DoesNotCompile => "does not compile",
        LessonStatus::BuildFailed => "build failed",
        LessonStatus::Graded if lesson.passed == lesson.total => "done",
        LessonStatus::Graded if lesson.not_started() => "not started",
        LessonStatus::Graded => "in progress",
    }
}

/// The progress table and the next thing to do.
pub fn progress(course: &Course, report: &CourseReport, paint: Paint) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}\n", paint.bold("Build a Transformer in Rust: your progress"));
    let width = report.lessons.iter().map(|l| l.title.len()).max().unwrap_or(0);
    for lesson in &report.lessons {
        let number = lesson.id.split('-').next().unwrap_or(&lesson.id);
        let bar = bar(lesson.score);
        let bar = if lesson.score >= 1.0 { paint.green(&bar) } else { bar };
        let _ = writeln!(
            out,
            "  {number}  {:<width$}  {:>3}/{:<3} {bar} {}  {}",
            lesson.title,
            lesson.passed,
            lesson.total,
            percent(lesson.score),
            paint.dim(lesson_state(lesson)),
        );
    }
    let _ = writeln!(out, "\n  Overall {}", percent(report.score).trim_start());
    let _ = writeln!(out, "\n{}", next_step(course, report));
    out
}

/// What the learner should do next, naming the file, the function and the command.
pub fn next_step(course: &Course, report: &CourseReport) -> String {
    let Some(lesson) = report.lessons.iter().find(|l| l.score < 1.0) else {
        return "Every graded lesson passes. Well done! The book's last chapters suggest what \
                to try next."
            .to_owned();
    };
    let chapter = course
        .manifest
        .lesson(&lesson.id)
        .map(|l| format!("book/src/{}", l.chapter))
        .unwrap_or_default();
    let file = format!("lessons/{}/src/lib.rs", lesson.id);
    let detail = match (lesson.status, lesson.first_failure()) {
        (LessonStatus::Graded, Some(test)) if test.status == TestStatus::NotStarted => {
            format!("Open {file}: {}", first_line(&test.message))
        }
        (LessonStatus::Graded, Some(test)) => {
            format!("Open {file}; the first failing test is `{}`:\n  {}", test.name, first_line(&test.message))
        }
        (_, _) => format!(
            "{}",
            lesson.message.as_deref().map(first_line).unwrap_or("The lesson could not be graded.")
        ),
    };
    format!(
        "Next: lesson {} ({}). Read the chapter ({chapter}).\n{detail}\n\
         Run `cargo run -p checker -- watch` to re-grade on every save, or \
         `cargo run -p checker -- hint {}` for a hint.",
        lesson.id, lesson.title, lesson.id
    )
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Every lesson's results in detail: each test, and each failure with its message.
pub fn details(report: &CourseReport, paint: Paint) -> String {
    let mut out = String::new();
    for lesson in &report.lessons {
        let _ = writeln!(
            out,
            "{}  {}/{} tests, {}",
            paint.bold(&format!("{} {}", lesson.id, lesson.title)),
            lesson.passed,
            lesson.total,
            percent(lesson.score).trim_start()
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
    let _ = writeln!(out, "Overall score: {}", percent(report.score).trim_start());
    out
}

fn test_line(test: &TestResult, paint: Paint) -> String {
    let (mark, label) = match test.status {
        TestStatus::Pass => (paint.green("✓"), String::new()),
        TestStatus::Fail => (paint.red("✗"), String::new()),
        TestStatus::NotStarted => (paint.dim("·"), paint.dim(" (not started)")),
        TestStatus::Timeout => (paint.red("⏱"), paint.red(" (timed out)")),
        TestStatus::Crash => (paint.red("✗"), paint.red(" (crashed)")),
        TestStatus::NotBuilt => (paint.dim("·"), String::new()),
    };
    let mut line = format!("  {mark} {}{label}\n", test.name);
    if matches!(test.status, TestStatus::Fail | TestStatus::Timeout | TestStatus::Crash) {
        line.push_str(&paint.yellow(&indent(&test.message, "      ")));
        line.push('\n');
    }
    line
}

fn indent(text: &str, prefix: &str) -> String {
    text.trim_end().lines().map(|l| format!("{prefix}{l}")).collect::<Vec<_>>().join("\n")
}

/// The report as JSON, pretty-printed.
pub fn json(report: &CourseReport) -> String {
    serde_json::to_string_pretty(report).expect("a report always serialises")
}
