//! Grading with a progress display on the terminal (standard error, so that standard
//! output stays clean for `--format json`).

use crate::grade::{self, Event};
use crate::messages::MESSAGES;
use crate::report::CourseReport;
use crate::session::Session;
use anyhow::Result;
use course_i18n::tr;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Grades the named lessons (all if none) of the selected lessons folder, showing a
/// spinner while building and a bar while testing when standard error is a terminal.
/// `instructor` is an instructor's grading (the platforms' formats): no unsandboxed runs
/// unless asked for.
pub fn grade_with_progress(
    session: &Session<'_>,
    ids: &[String],
    instructor: bool,
) -> Result<CourseReport> {
    let course = session.course;
    let lessons = course.select(ids)?;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    let on_event = |event: Event| match event {
        Event::Downloading(count) => {
            if count == 1 {
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .expect("valid template"),
                );
                bar.enable_steady_tick(Duration::from_millis(100));
            }
            bar.set_message(tr!(MESSAGES, "ui-downloading", count = count));
        }
        Event::Preparing | Event::Building => {
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                    .expect("valid template"),
            );
            bar.set_message(if matches!(event, Event::Preparing) {
                tr!(MESSAGES, "ui-preparing")
            } else {
                tr!(MESSAGES, "ui-compiling")
            });
            bar.enable_steady_tick(Duration::from_millis(100));
        }
        Event::Testing(total) => {
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix} {bar:30} {pos}/{len}")
                    .expect("valid template"),
            );
            bar.set_prefix(tr!(MESSAGES, "ui-running-tests"));
            bar.set_length(total as u64);
            bar.set_position(0);
        }
        Event::TestDone => bar.inc(1),
    };
    let options = grade::Options {
        instructor,
        ..session.options.clone()
    };
    let report =
        grade::grade(course, &lessons, &session.lessons_dir, &options, &on_event);
    bar.finish_and_clear();
    report
}

/// A progress bar over the students of a class, on standard error when it is a terminal,
/// and what to do with each student's result as soon as it is known.
#[cfg(feature = "instructor")]
struct ClassBar<'a>(
    ProgressBar,
    &'a (dyn Fn(&crate::class::StudentResult) + Sync),
);

#[cfg(feature = "instructor")]
impl crate::class::ClassProgress for ClassBar<'_> {
    fn start(&self, students: usize) {
        self.0.set_length(students as u64);
    }

    fn student_done(&self, result: &crate::class::StudentResult) {
        self.0.set_message(result.student.clone());
        self.0.inc(1);
        (self.1)(result);
    }
}

/// Grades a class, showing a bar over its students, handing each student's result to
/// `on_student` as soon as it is known.
#[cfg(feature = "instructor")]
pub fn grade_class_with_progress(
    course: &crate::course::Course,
    dir: &std::path::Path,
    options: &crate::grade::Options,
    on_student: &(dyn Fn(&crate::class::StudentResult) + Sync),
) -> Result<crate::class::Gradebook> {
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {bar:30} {pos}/{len} {msg}")
                .expect("valid template"),
        );
        bar.set_prefix(tr!(MESSAGES, "ui-grading-class"));
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    } else {
        ProgressBar::hidden()
    };
    let progress = ClassBar(bar, on_student);
    let book = crate::class::grade_class(course, dir, options, &progress);
    progress.0.finish_and_clear();
    book
}
