//! Hints keyed to functions: `checker hint LESSON` (and `h` in watch mode) shows the next
//! hint for the first function of the lesson that fails.
//!
//! Which function fails comes from grading: the first failing test names it (the function
//! still a `todo!()`, or the last one the test called before its check failed; see
//! [`TestResult::function`](crate::report::TestResult)). How many hints of each function
//! have been shown is kept in `target/checker/hints.json`, never in the learner's files.

use crate::course::Course;
use crate::messages::{self, INSTRUCTOR, MESSAGES};
use crate::report::{LessonReport, LessonStatus};
use anyhow::{Context, Result};
use course_i18n::tr;
use course_manifest::{FunctionHints, Lesson};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How to ask for the next hint, as the caller's interface spells it.
pub enum Again {
    /// On the command line: run the same command.
    Command,
    /// In watch mode: press `h`.
    Key,
}

/// What the learner asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// One more hint for the first function that fails.
    Next,
    /// Every hint of the lesson, function by function.
    All,
    /// Start the lesson's hints over.
    Reset,
}

/// How many hints of each function have been shown, by lesson id then function.
type Shown = BTreeMap<String, BTreeMap<String, usize>>;

/// The text to print for `checker hint LESSON [--all] [--reset]` (or the `h` key), given
/// the lesson's latest grade (`None` when it could not be graded).
pub fn hint(
    course: &Course,
    lesson: &Lesson,
    report: Option<&LessonReport>,
    ask: Ask,
    again: Again,
) -> Result<String> {
    let path = course.scratch_dir().join("hints.json");
    // A missing or unreadable file (say, from an older checker) starts the hints over.
    let mut shown: Shown = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let id = &lesson.id;
    let text = match ask {
        Ask::Reset => {
            shown.remove(id);
            format!("{}\n", tr!(MESSAGES, "hint-reset", id = id))
        }
        Ask::All => all(lesson),
        Ask::Next => match target(lesson, report, shown.get(id)) {
            Target::Done => format!("{}\n", tr!(MESSAGES, "hint-done", id = id)),
            Target::Function(entry, why) => {
                let count = shown
                    .entry(id.clone())
                    .or_default()
                    .entry(entry.function.clone())
                    .or_default();
                *count = (*count + 1).min(entry.steps.len());
                next(lesson, entry, *count, &why, again)
            }
        },
    };
    std::fs::create_dir_all(course.scratch_dir())?;
    std::fs::write(&path, serde_json::to_string_pretty(&shown)?).with_context(|| {
        let path = path.display().to_string();
        tr!(INSTRUCTOR, "hint-progress-not-saved", path = path)
    })?;
    Ok(text)
}

/// Which function's hints to show next, and why it was chosen.
enum Target<'a> {
    Function(&'a FunctionHints, String),
    Done,
}

fn target<'a>(
    lesson: &'a Lesson,
    report: Option<&LessonReport>,
    shown: Option<&BTreeMap<String, usize>>,
) -> Target<'a> {
    let entry_for = |name: &str| lesson.hints.iter().find(|e| e.function == name);
    // Where no failing test points at a hinted function: the first function in the file
    // whose hints are not all shown yet.
    let first_open = || {
        lesson
            .hints
            .iter()
            .find(|e| {
                shown.and_then(|s| s.get(&e.function)).copied().unwrap_or(0)
                    < e.steps.len()
            })
            .unwrap_or(&lesson.hints[0])
    };
    let Some(report) = report else {
        return Target::Function(first_open(), String::new());
    };
    match report.status {
        LessonStatus::Graded => {}
        LessonStatus::DoesNotCompile => {
            return Target::Function(
                first_open(),
                tr!(MESSAGES, "hint-does-not-compile"),
            );
        }
        LessonStatus::Missing | LessonStatus::BuildFailed | LessonStatus::NotStarted => {
            return Target::Function(first_open(), String::new());
        }
    }
    let failing: Vec<_> = report.tests.iter().filter(|t| !t.passed).collect();
    if failing.is_empty() {
        return Target::Done;
    }
    for test in &failing {
        if let Some(entry) = test.function.as_deref().and_then(entry_for) {
            return Target::Function(
                entry,
                tr!(
                    MESSAGES,
                    "hint-points-at",
                    test = &test.name,
                    function = &entry.function
                ),
            );
        }
    }
    Target::Function(
        first_open(),
        tr!(MESSAGES, "hint-first-failing", test = &failing[0].name),
    )
}

/// The hints shown so far for one function (the first `count`), and how to get more.
fn next(
    lesson: &Lesson,
    entry: &FunctionHints,
    count: usize,
    why: &str,
    again: Again,
) -> String {
    let total = entry.steps.len();
    let mut out = format!(
        "{}\n",
        tr!(
            MESSAGES,
            "hint-heading",
            function = &entry.function,
            id = &lesson.id,
            title = messages::title(&lesson.id, &lesson.title)
        )
    );
    if !why.is_empty() {
        let _ = writeln!(out, "{why}");
    }
    for (index, step) in entry.steps.iter().take(count).enumerate() {
        let text = messages::hint(&lesson.id, &entry.function, step);
        let _ = writeln!(out, "\n{}/{total}. {}", index + 1, flow(&text));
    }
    if count < total {
        let (function, count) = (&entry.function, total - count);
        let more = match again {
            Again::Command => {
                tr!(
                    MESSAGES,
                    "hint-more-command",
                    function = function,
                    count = count
                )
            }
            Again::Key => tr!(
                MESSAGES,
                "hint-more-key",
                function = function,
                count = count
            ),
        };
        let _ = writeln!(out, "\n{more}");
    } else {
        let last = tr!(
            MESSAGES,
            "hint-last",
            function = &entry.function,
            chapter = &lesson.chapter
        );
        let _ = writeln!(out, "\n{last}");
    }
    out
}

/// Every hint of the lesson, function by function.
fn all(lesson: &Lesson) -> String {
    let mut out = format!(
        "{}\n",
        tr!(
            MESSAGES,
            "hint-all-heading",
            id = &lesson.id,
            title = messages::title(&lesson.id, &lesson.title)
        )
    );
    for entry in &lesson.hints {
        let _ = writeln!(out, "\n`{}`", entry.function);
        let total = entry.steps.len();
        for (index, step) in entry.steps.iter().enumerate() {
            let text = messages::hint(&lesson.id, &entry.function, step);
            let _ = writeln!(out, "  {}/{total}. {}", index + 1, flow(&text));
        }
    }
    out
}

/// A hint as one paragraph: the manifest's line breaks and indentation removed.
fn flow(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
