//! Progressive hints: each `checker hint LESSON` shows one more of the lesson's hints.
//!
//! How many hints each lesson has revealed is kept in `target/checker/hints.json`, never in
//! the learner's files.

use crate::course::Course;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How to ask for the next hint, as the caller's interface spells it.
pub enum Again {
    /// On the command line: run the same command.
    Command,
    /// In watch mode: press `h`.
    Key,
}

/// The text to print for `checker hint LESSON [--all] [--reset]` (or the `h` key).
pub fn hint(
    course: &Course,
    id: &str,
    all: bool,
    reset: bool,
    again: Again,
) -> Result<String> {
    let lesson = course.manifest.lesson(id)?;
    let path = course.scratch_dir().join("hints.json");
    let mut shown: BTreeMap<String, usize> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let total = lesson.hints.len();
    let count = if reset {
        0
    } else if all {
        total
    } else {
        (shown.get(id).copied().unwrap_or(0) + 1).min(total)
    };
    shown.insert(id.to_owned(), count);
    std::fs::create_dir_all(course.scratch_dir())?;
    std::fs::write(&path, serde_json::to_string_pretty(&shown)?)
        .with_context(|| format!("could not save hint progress to {}", path.display()))?;

    if reset {
        return Ok(format!(
            "The hints of {id} start over; `checker hint {id}` shows the first.\n"
        ));
    }
    let mut out = format!("Hints for lesson {} ({}):\n", lesson.id, lesson.title);
    for (index, text) in lesson.hints.iter().take(count).enumerate() {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, "\n{}/{total}. {text}", index + 1);
    }
    if count < total {
        let _ = writeln!(
            out,
            "\n{} for the next hint ({} more).",
            match again {
                Again::Command => "Run the same command again",
                Again::Key => "Press h again",
            },
            total - count
        );
    } else {
        let _ = writeln!(
            out,
            "\nThat was the last hint. The chapter ({}) works through every step.",
            lesson.chapter
        );
    }
    Ok(out)
}
