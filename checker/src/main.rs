//! The `checker`: grades the course's lessons with hidden tests, shows progress, watches
//! files, gives hints, and verifies the course for its maintainers.
//!
//! `main` parses the command line, runs one command, and maps the outcome to an exit
//! status in one place: 0 when the command ran (whatever the score), 1 when `verify`
//! found problems, 2 on bad input or any other error, with a message that says what to do.

mod cascade;
#[cfg(feature = "instructor")]
mod class;
#[cfg(feature = "instructor")]
mod class_report;
mod classroom;
mod cli;
mod compile;
mod course;
mod explain;
mod export;
mod fallback;
mod files;
mod grade;
#[cfg(feature = "instructor")]
mod gradebook;
mod gradescope;
mod hint;
mod judge;
mod messages;
// The typed course.toml, shared with the xtask.
mod pool;
mod process;
mod progress;
mod render;
mod report;
mod run;
mod sandbox;
mod scratch;
mod session;
mod ui;
mod verify;
mod watch;

use anyhow::{Context, Result};
use cli::{ClassFormat, Cli, Command, Format};
use course::Course;
use course_i18n::tr;
use messages::MESSAGES;
use session::Session;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A warden of the `--run-as` account, started by a grading checker (see fallback).
    if let Some(spec) = std::env::var_os(fallback::WARDEN) {
        return fallback::warden(&spec);
    }
    let args: Vec<_> = std::env::args_os().collect();
    let lang = cli::language(&args);
    course_i18n::set_current(lang);
    let cli = cli::parse(args, lang);
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("checker: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let course = Course::locate(cli.course_dir.as_deref())?;
    match cli.command {
        None => show_progress(&Session::new(&course, &cli.grading)?, cli.format),
        Some(Command::Grade {
            lessons,
            grading,
            format,
        }) => grade_and_print(&Session::new(&course, &grading)?, &lessons, format),
        Some(Command::Watch {
            lesson,
            grading,
            poll,
        }) => {
            watch::watch(&Session::new(&course, &grading)?, lesson.as_deref(), poll)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Hint {
            lesson,
            all,
            reset,
            grading,
        }) => {
            let ask = match (all, reset) {
                (true, _) => hint::Ask::All,
                (_, true) => hint::Ask::Reset,
                _ => hint::Ask::Next,
            };
            let session = Session::new(&course, &grading)?;
            print!("{}", hint_for(&session, lesson.as_deref(), ask)?);
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Class {
            dir,
            format,
            out,
            report,
            limits,
        }) => grade_class(&course, &dir, format, out.as_deref(), &report, &limits),
        Some(Command::ExportStudent { out }) => {
            export::export_student(&course, &out)?;
            let out = out.display().to_string();
            println!("{}", tr!(MESSAGES, "exported-student", out = out));
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Gradescope { out }) => write_gradescope_bundle(&course, &out),
        Some(Command::Verify { lessons, limits }) => {
            let problems = verify::verify(&course, &lessons, &limits.options()?)?;
            if problems.is_empty() {
                println!("{}", tr!(MESSAGES, "verify-consistent"));
                Ok(ExitCode::SUCCESS)
            } else {
                for problem in &problems {
                    println!("- {problem}");
                }
                println!(
                    "{}",
                    tr!(MESSAGES, "verify-problems", count = problems.len())
                );
                Ok(ExitCode::from(1))
            }
        }
    }
}

/// `class`: grade every submission in `dir`, write the gradebook, and the report and
/// history when asked; end with a few lines on what the class got wrong.
#[cfg(feature = "instructor")]
fn grade_class(
    course: &Course,
    dir: &std::path::Path,
    format: ClassFormat,
    out: Option<&std::path::Path>,
    report_args: &cli::ReportArgs,
    limits: &cli::LimitArgs,
) -> Result<ExitCode> {
    use crate::class_report::{ClassReport, history::History, similarity};
    let options = crate::grade::Options {
        instructor: true,
        ..limits.options()?
    };
    // Where the results go is made before grading, not found missing after it.
    for folder in [
        out.and_then(std::path::Path::parent),
        report_args.report.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|f| !f.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder).with_context(|| {
            let path = folder.display().to_string();
            tr!(messages::INSTRUCTOR, "file-could-not-create", path = path)
        })?;
    }
    let lessons: Vec<String> = course.select(&[])?.iter().map(|l| l.id.clone()).collect();
    let history = match &report_args.history {
        Some(path) => Some(History::start(
            path,
            report_args.run_label.as_deref(),
            &dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
            &lessons,
        )?),
        None => None,
    };
    // Each student is recorded as soon as they are graded, so that an interrupted run
    // keeps them; a history that cannot be written is said once and the grading goes on.
    let history_error = std::sync::Mutex::new(None);
    let on_student = |result: &crate::class::StudentResult| {
        if let Some(history) = &history
            && let Err(error) = history.record(result)
        {
            history_error
                .lock()
                .expect("no recorder panics")
                .get_or_insert(error);
        }
    };
    let book = ui::grade_class_with_progress(course, dir, &options, &on_student)?;
    let text = match format {
        ClassFormat::Csv => gradebook::csv(&book)?,
        ClassFormat::Json => gradebook::json(&book),
        ClassFormat::Junit => gradebook::junit(&book),
    };
    match out {
        Some(path) => std::fs::write(path, text).with_context(|| {
            let path = path.display().to_string();
            tr!(MESSAGES, "gradebook-not-written", path = path)
        })?,
        None => print!("{text}"),
    }
    if let Some(error) = history_error.into_inner().expect("no recorder panics") {
        return Err(error.context(tr!(MESSAGES, "history-not-written")));
    }
    let mut report = ClassReport::new(course, &book);
    if let Some(history) = history {
        let students: Vec<String> =
            book.students.iter().map(|s| s.student.clone()).collect();
        report.history = Some(history.finish(&students)?);
    }
    if let Some(folder) = &report_args.report {
        report.similarity = similarity::compare(
            course,
            &book,
            &report_args.python,
            &similarity::work_dir(course),
        );
        report.write(course, folder)?;
    }
    // The summary shows keys the tests reported and students' names: nothing in it may
    // drive the terminal.
    let summary = class_report::summary(&report, report_args.report.as_deref());
    eprint!("{}", crate::report::printable(&summary));
    Ok(ExitCode::SUCCESS)
}

/// `gradescope`: write the autograder bundle.
#[cfg(feature = "instructor")]
fn write_gradescope_bundle(course: &Course, out: &std::path::Path) -> Result<ExitCode> {
    gradescope::write_bundle(course, out)?;
    let out = out.display().to_string();
    println!("{}", tr!(MESSAGES, "wrote-gradescope", out = out));
    Ok(ExitCode::SUCCESS)
}

/// Without the instructor feature (the student edition's checker), the instructor's
/// commands say where to run them.
#[cfg(not(feature = "instructor"))]
fn grade_class(
    _: &Course,
    _: &std::path::Path,
    _: ClassFormat,
    _: Option<&std::path::Path>,
    _: &cli::ReportArgs,
    _: &cli::LimitArgs,
) -> Result<ExitCode> {
    anyhow::bail!(tr!(MESSAGES, "instructors-only"))
}

#[cfg(not(feature = "instructor"))]
fn write_gradescope_bundle(_: &Course, _: &std::path::Path) -> Result<ExitCode> {
    anyhow::bail!(tr!(MESSAGES, "instructors-only"))
}

/// No command: grade everything and show the progress table.
fn show_progress(session: &Session<'_>, format: Format) -> Result<ExitCode> {
    let report = ui::grade_with_progress(session, &[], format.is_instructors())?;
    if !print_machine_format(format, &report) {
        let current = progress::working_on(&report, &session.lessons_dir);
        let paint = render::Paint::for_stdout();
        print!(
            "{}",
            render::progress(
                session.course,
                &report,
                current,
                &session.lessons_label,
                paint
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `grade`: grade the named lessons (or all) and show every test.
fn grade_and_print(
    session: &Session<'_>,
    lessons: &[String],
    format: Format,
) -> Result<ExitCode> {
    let report = ui::grade_with_progress(session, lessons, format.is_instructors())?;
    if !print_machine_format(format, &report) {
        print!("{}", render::details(&report, render::Paint::for_stdout()));
        let current = progress::working_on(&report, &session.lessons_dir);
        if let Some(lesson) = current.filter(|l| l.score < 1.0) {
            let next = render::next_step(session.course, current, &session.lessons_label);
            println!("\n{next}\n{}", render::commands(&lesson.id));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `hint`: grade the lesson (the one named, or the one the learner is working on) to see
/// which function fails first, and show its next hint.
fn hint_for(
    session: &Session<'_>,
    lesson: Option<&str>,
    ask: hint::Ask,
) -> Result<String> {
    let course = session.course;
    let named = lesson.map(|name| course.lesson(name)).transpose()?;
    // Without a lesson named, every kind of hint is for the lesson being worked on,
    // which grading finds.
    let report = if ask == hint::Ask::Next || named.is_none() {
        let names: Vec<String> = named.iter().map(|l| l.id.clone()).collect();
        Some(ui::grade_with_progress(session, &names, false)?)
    } else {
        None
    };
    let lesson = match (named, &report) {
        (Some(lesson), _) => lesson,
        (None, Some(report)) => {
            let current = progress::working_on(report, &session.lessons_dir)
                .with_context(|| tr!(MESSAGES, "no-lessons"))?;
            course.lesson(&current.id)?
        }
        (None, None) => anyhow::bail!(tr!(MESSAGES, "hint-name-the-lesson")),
    };
    let graded = report
        .as_ref()
        .and_then(|r| r.lessons.iter().find(|l| l.id == lesson.id));
    hint::hint(course, lesson, graded, ask, hint::Again::Command)
}

/// Prints `report` in a format for programs; `false` for `--format text`.
fn print_machine_format(format: Format, report: &report::CourseReport) -> bool {
    let text = match format {
        Format::Text => return false,
        Format::Json => render::json(report),
        Format::Gradescope => gradescope::results(report),
        Format::Classroom => classroom::results(report),
    };
    println!("{text}");
    true
}
