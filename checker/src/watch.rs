//! `checker watch`: re-grade the current lesson every time its source is saved.
//!
//! Keys: `h` shows the next hint, `n` moves to the next lesson, `r` re-runs, `q` quits.
//! File events come from the operating system (notify); where they do not arrive
//! (network drives, some virtual machines), `--poll` looks every second instead, and the
//! checker falls back to polling by itself if events cannot be set up.

use crate::course::Course;
use crate::grade;
use crate::hint;
use crate::messages::{self, MESSAGES};
use crate::render::{self, Paint};
use crate::report::CourseReport;
use crate::session::Session;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use notify::{RecursiveMode, Watcher};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// What wakes the watch loop.
enum Wake {
    /// A file under the watched lesson's `src/` changed.
    Saved,
    /// A key was pressed.
    Key(char),
}

/// Restores the terminal when watch mode ends, however it ends.
struct RawMode;

impl RawMode {
    fn enable() -> Result<Self> {
        terminal::enable_raw_mode().with_context(|| tr!(MESSAGES, "watch-raw-mode"))?;
        Ok(Self)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = terminal::disable_raw_mode();
    }
}

/// Runs watch mode until the learner presses `q` (or Ctrl-C).
pub fn watch(session: &Session<'_>, start: Option<&str>, poll: bool) -> Result<()> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(tr!(MESSAGES, "watch-needs-terminal"));
    }
    let course = session.course;
    let lessons_dir = session.lessons_dir.clone();
    let options = session.options.clone();
    let lessons_label = session.lessons_label.clone();
    let mut current = match start {
        Some(name) => position(course, name)?,
        None => working_on(course, &lessons_dir, &options)?,
    };

    let (sender, wakes) = mpsc::channel();
    let _watcher = start_watcher(&lessons_dir, poll, sender.clone())?;
    std::thread::spawn(move || read_keys(&sender));
    let _raw = RawMode::enable()?;

    let mut notes = String::new();
    loop {
        let lesson = &course.manifest.lessons[current];
        let title = messages::title(&lesson.id, &lesson.title);
        show(&format!(
            "{}\n",
            tr!(MESSAGES, "watch-grading", id = &lesson.id, title = title)
        ))?;
        let report = grade::grade(course, &[lesson], &lessons_dir, &options, &|_| {});
        let text = match &report {
            Ok(report) => screen(course, report, &lessons_label, &notes),
            Err(error) => format!(
                "{}\n",
                tr!(
                    MESSAGES,
                    "watch-could-not-grade",
                    error = format!("{error:#}")
                )
            ),
        };
        show(&text)?;
        notes.clear();

        // Wait for a save of this lesson or a key.
        let watched = lessons_dir.join(&lesson.id).join("src");
        loop {
            match wakes
                .recv()
                .with_context(|| tr!(MESSAGES, "watch-lost-events"))?
            {
                Wake::Saved => {
                    // Editors write a file in several steps: let them settle.
                    std::thread::sleep(Duration::from_millis(200));
                    while wakes.try_recv().is_ok() {}
                    if watched.exists() {
                        break;
                    }
                }
                Wake::Key('q') => return Ok(()),
                Wake::Key('r') => break,
                Wake::Key('n') => {
                    current = (current + 1) % course.manifest.lessons.len();
                    break;
                }
                Wake::Key('h') => {
                    let report = report.as_ref().ok();
                    notes = hint::hint(
                        course,
                        lesson,
                        report.and_then(|r| r.lessons.first()),
                        hint::Ask::Next,
                        hint::Again::Key,
                    )?;
                    show(
                        &(report
                            .map(|r| screen(course, r, &lessons_label, &notes))
                            .unwrap_or_default()),
                    )?;
                }
                Wake::Key(_) => {}
            }
        }
    }
}

fn position(course: &Course, name: &str) -> Result<usize> {
    let id = &course.lesson(name)?.id;
    Ok(course
        .manifest
        .lessons
        .iter()
        .position(|l| &l.id == id)
        .unwrap_or(0))
}

/// The position of the lesson the learner is working on (see [`crate::progress::working_on`]).
fn working_on(
    course: &Course,
    lessons_dir: &Path,
    options: &grade::Options,
) -> Result<usize> {
    println!("{}", tr!(MESSAGES, "watch-finding-where"));
    let lessons = course.select(&[])?;
    let report = grade::grade(course, &lessons, lessons_dir, options, &|_| {})?;
    let current = crate::progress::working_on(&report, lessons_dir);
    Ok(current
        .and_then(|lesson| report.lessons.iter().position(|l| l.id == lesson.id))
        .unwrap_or(0))
}

fn screen(course: &Course, report: &CourseReport, lessons: &str, notes: &str) -> String {
    let mut text = render::watch_screen(report, Paint::for_stdout());
    if report.score >= 1.0 {
        text.push_str(&format!("{}\n", tr!(MESSAGES, "watch-lesson-done")));
    } else if let Some(lesson) = report.lessons.first() {
        let chapter = course
            .manifest
            .lesson(&lesson.id)
            .map(|l| l.chapter.clone());
        let function = lesson.first_failure().and_then(|t| t.function.as_deref());
        let file = course
            .manifest
            .lesson(&lesson.id)
            .map_or_else(|_| "src/lib.rs".to_owned(), |l| course.file_of(l, function));
        let edit = tr!(
            MESSAGES,
            "watch-edit",
            file = format!("{lessons}/{}/{file}", lesson.id),
            chapter = chapter.unwrap_or_default()
        );
        text.push_str(&format!("\n{edit}\n"));
    }
    if !notes.is_empty() {
        text.push_str(&format!("\n{notes}"));
    }
    text.push_str(&format!("\n{}\n", tr!(MESSAGES, "watch-keys")));
    text
}

/// Clears the screen and prints `text`; raw mode needs explicit carriage returns.
fn show(text: &str) -> Result<()> {
    let mut out = std::io::stdout();
    execute!(
        out,
        terminal::Clear(terminal::ClearType::All),
        cursor::MoveTo(0, 0)
    )?;
    out.write_all(text.replace('\n', "\r\n").as_bytes())?;
    out.flush()?;
    Ok(())
}

fn start_watcher(
    dir: &Path,
    poll: bool,
    sender: mpsc::Sender<Wake>,
) -> Result<Box<dyn Watcher>> {
    let dir: PathBuf = dir.to_path_buf();
    let handler = move |event: notify::Result<notify::Event>| {
        let is_source =
            |path: &PathBuf| path.components().any(|c| c.as_os_str() == "src");
        if let Ok(event) = event
            && (event.kind.is_modify()
                || event.kind.is_create()
                || event.kind.is_remove())
            && event.paths.iter().any(is_source)
        {
            let _ = sender.send(Wake::Saved);
        }
    };
    let polling = || -> Result<Box<dyn Watcher>> {
        let config = notify::Config::default().with_poll_interval(Duration::from_secs(1));
        let mut watcher = notify::PollWatcher::new(handler.clone(), config)?;
        watcher.watch(&dir, RecursiveMode::Recursive)?;
        Ok(Box::new(watcher))
    };
    if poll {
        return polling();
    }
    let native = notify::recommended_watcher(handler.clone()).and_then(|mut watcher| {
        watcher.watch(&dir, RecursiveMode::Recursive)?;
        Ok(watcher)
    });
    match native {
        Ok(watcher) => Ok(Box::new(watcher)),
        Err(error) => {
            eprintln!(
                "{}",
                tr!(MESSAGES, "watch-polling", error = error.to_string())
            );
            polling()
        }
    }
}

fn read_keys(sender: &mpsc::Sender<Wake>) {
    while let Ok(event) = event::read() {
        if let Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) = event
        {
            let key = match code {
                KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => 'q',
                KeyCode::Char(c) => c.to_ascii_lowercase(),
                KeyCode::Esc => 'q',
                _ => continue,
            };
            if sender.send(Wake::Key(key)).is_err() {
                return;
            }
        }
    }
}
