//! Writing a class's [`Gradebook`] as CSV, JSON or JUnit XML.
//!
//! Every format is deterministic: students sorted by name, lessons in course order, scores
//! with a fixed number of decimals, no timings. Grading the same class twice writes the
//! same bytes.

use crate::class::{Gradebook, StudentResult};
use crate::messages::{INSTRUCTOR, MESSAGES};
use crate::report::{LessonReport, LessonStatus, TestStatus};
use anyhow::Result;
use course_i18n::tr;
use std::borrow::Cow;

/// `text` escaped for XML, with every character XML 1.0 does not allow written as `\u{..}`
/// first: a gradebook stays well-formed whatever text a submission managed to put in it
/// (messages are made printable when graded; this holds for every other string too).
fn escape(text: &str) -> Cow<'_, str> {
    let allowed = |c: char| matches!(u32::from(c), 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..);
    if text.chars().all(allowed) {
        return quick_xml::escape::escape(text);
    }
    let text: String = text
        .chars()
        .map(|c| {
            if allowed(c) {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect();
    Cow::Owned(quick_xml::escape::escape(&text).into_owned())
}
use std::fmt::Write as _;

/// A text cell a spreadsheet shows as text. A cell that starts with `=`, `+`, `-`, `@`, a tab
/// or a carriage return is a formula to Excel, LibreOffice and Google Sheets, and a student
/// names their own entry: `=HYPERLINK(...)` in a gradebook would run when the instructor opens
/// it. Such a cell gets a leading `'`, which the spreadsheet hides and reads as "text"
/// (OWASP's advice for CSV injection). Only text cells pass through here; scores are numbers
/// this module writes itself.
fn spreadsheet_text(cell: &str) -> String {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}"),
        _ => cell.to_owned(),
    }
}

/// CSV: one row per student, one column per lesson (its score from 0 to 1), `total`, and
/// `notes` saying what kept a lesson from being graded. Text cells are kept from being read as
/// formulas ([`spreadsheet_text`]).
pub fn csv(book: &Gradebook) -> Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["student".to_owned()];
    header.extend(book.lessons.iter().map(|id| spreadsheet_text(id)));
    header.extend(["total".to_owned(), "notes".to_owned()]);
    writer.write_record(&header)?;
    for student in &book.students {
        let mut row = vec![spreadsheet_text(&student.student)];
        for id in &book.lessons {
            let score = lesson(student, id).map_or(0.0, |l| l.score);
            row.push(format!("{score:.4}"));
        }
        row.push(format!("{:.4}", student.score));
        row.push(spreadsheet_text(&notes(student)));
        writer.write_record(&row)?;
    }
    Ok(String::from_utf8(writer.into_inner()?)?)
}

/// JSON: everything, down to each test's status and message.
pub fn json(book: &Gradebook) -> String {
    serde_json::to_string_pretty(book).expect("a gradebook always serialises")
}

/// JUnit XML: a test suite per student and lesson, a test case per graded test.
pub fn junit(book: &Gradebook) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures) = (0, 0);
    for student in &book.students {
        let Some(report) = &student.report else {
            let message = student
                .error
                .clone()
                .unwrap_or_else(|| tr!(INSTRUCTOR, "gradebook-not-graded"));
            let _ = writeln!(
                suites,
                "  <testsuite name=\"{}\" tests=\"1\" failures=\"1\">\n    <testcase classname=\"{}\" name=\"submission\">\n      <failure message=\"{}\"/>\n    </testcase>\n  </testsuite>",
                escape(&student.student),
                escape(&student.student),
                escape(&message)
            );
            tests += 1;
            failures += 1;
            continue;
        };
        for lesson in &report.lessons {
            let failed = lesson.total - lesson.passed;
            tests += lesson.total;
            failures += failed;
            let suite = format!("{}.{}", student.student, lesson.id);
            let _ = writeln!(
                suites,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\">",
                escape(&suite),
                lesson.total
            );
            for test in &lesson.tests {
                let _ = write!(
                    suites,
                    "    <testcase classname=\"{}\" name=\"{}\"",
                    escape(&suite),
                    escape(&test.name)
                );
                if test.passed {
                    suites.push_str("/>\n");
                } else {
                    let message = test.message.lines().next().unwrap_or_default();
                    let message = if message.is_empty() {
                        lesson.message.as_deref().unwrap_or("")
                    } else {
                        message
                    };
                    let _ = writeln!(
                        suites,
                        ">\n      <failure type=\"{:?}\" message=\"{}\">{}</failure>\n    </testcase>",
                        test.status,
                        escape(message.lines().next().unwrap_or_default()),
                        escape(&test.message)
                    );
                }
            }
            suites.push_str("  </testsuite>\n");
        }
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"class\" tests=\"{tests}\" failures=\"{failures}\">\n{suites}</testsuites>\n"
    )
}

fn lesson<'a>(student: &'a StudentResult, id: &str) -> Option<&'a LessonReport> {
    student.report.as_ref()?.lessons.iter().find(|l| l.id == id)
}

/// What kept lessons from being graded, or made tests crash, in a few words each, in the
/// checker's language.
fn notes(student: &StudentResult) -> String {
    if let Some(error) = &student.error {
        return error.lines().next().unwrap_or_default().to_owned();
    }
    let mut notes = Vec::new();
    for lesson in student.report.iter().flat_map(|r| &r.lessons) {
        let mut note = |what: String| {
            notes.push(tr!(
                INSTRUCTOR,
                "gradebook-note",
                id = &lesson.id,
                what = what
            ));
        };
        match lesson.status {
            LessonStatus::Missing => note(tr!(MESSAGES, "state-missing")),
            LessonStatus::NotStarted => note(tr!(MESSAGES, "state-not-started")),
            LessonStatus::DoesNotCompile => note(tr!(MESSAGES, "state-does-not-compile")),
            LessonStatus::BuildFailed => note(tr!(MESSAGES, "state-build-failed")),
            LessonStatus::Graded => {
                let count =
                    |status| lesson.tests.iter().filter(|t| t.status == status).count();
                let timed_out = count(TestStatus::Timeout);
                if timed_out > 0 {
                    note(tr!(INSTRUCTOR, "gradebook-timed-out", count = timed_out));
                }
                let crashed = count(TestStatus::Crash);
                if crashed > 0 {
                    note(tr!(INSTRUCTOR, "gradebook-crashed", count = crashed));
                }
            }
        }
    }
    notes.join(&tr!(INSTRUCTOR, "list-semicolon"))
}

#[cfg(test)]
mod tests {
    use super::spreadsheet_text;

    #[test]
    fn a_text_cell_a_spreadsheet_would_run_is_kept_as_text() {
        for formula in ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"] {
            assert_eq!(spreadsheet_text(formula), format!("'{formula}"));
        }
        for text in ["ada", "1.0000", "", "a=1", "'quoted"] {
            assert_eq!(spreadsheet_text(text), text);
        }
    }
}
