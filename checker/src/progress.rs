//! Where the learner is: the lesson they are working on, from the report and the times
//! they last edited each lesson's sources. (Kept apart from [`crate::course`], which knows
//! the course's files, and [`crate::report`], which knows results: it needs both.)

use crate::report::{CourseReport, LessonReport};
use std::path::Path;

/// The lesson the learner is working on: of the lessons not yet done, the one whose
/// sources were edited last; the first not yet done when none has been edited since the
/// course was written out (a fresh clone or export writes `Cargo.toml` and `src/` at the
/// same moment); the last lesson when every one is done.
pub fn working_on<'r>(
    report: &'r CourseReport,
    lessons_dir: &Path,
) -> Option<&'r LessonReport> {
    let unfinished: Vec<&LessonReport> =
        report.lessons.iter().filter(|l| l.score < 1.0).collect();
    let edited = |lesson: &LessonReport| edited_at(&lessons_dir.join(&lesson.id));
    unfinished
        .iter()
        .filter_map(|lesson| Some((edited(lesson)?, *lesson)))
        .max_by_key(|(time, _)| *time)
        .map(|(_, lesson)| lesson)
        .or_else(|| unfinished.first().copied())
        .or(report.lessons.last())
}

/// When a lesson folder's sources were last edited, if they were edited at all after its
/// `Cargo.toml` was written.
fn edited_at(folder: &Path) -> Option<std::time::SystemTime> {
    // Two seconds of slack: a clone writes a folder's files over a moment, not at once.
    const SLACK: std::time::Duration = std::time::Duration::from_secs(2);
    let written = std::fs::metadata(folder.join("Cargo.toml"))
        .and_then(|m| m.modified())
        .ok()?;
    crate::files::regular_files(&folder.join("src"))
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok()?.modified().ok())
        .max()
        .filter(|&time| time > written + SLACK)
}
