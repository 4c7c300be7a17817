//! A copy of the course to experiment on, with the files a build needs: the latency and
//! mistakes tasks edit lessons in it without touching the workspace.

use anyhow::Result;
use std::path::Path;

/// Folders and files of the course that a build needs.
const COURSE_PARTS: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "course.toml",
    ".cargo",
    "common",
    "harness",
    "lessons",
    "solutions",
    "checker",
    "xtask",
];

/// Puts every reference solution of the course at `root` in place of the lesson of the
/// same folder in `course` (a copy of the course, or the student edition): the lessons of
/// a learner who has finished them all.
pub fn solve_lessons(root: &Path, course: &Path) -> Result<()> {
    for entry in std::fs::read_dir(root.join("solutions"))? {
        let lesson = entry?.file_name();
        let solution = root.join("solutions").join(&lesson).join("src/lib.rs");
        if solution.is_file() {
            std::fs::copy(
                &solution,
                course.join("lessons").join(&lesson).join("src/lib.rs"),
            )?;
        }
    }
    Ok(())
}

/// Copies the course at `root` to `to`, replacing what was there.
pub fn copy_course(root: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to)?;
    }
    for part in COURSE_PARTS {
        copy_tree(&root.join(part), &to.join(part))?;
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if from.is_file() {
        std::fs::create_dir_all(to.parent().expect("a file has a parent"))?;
        std::fs::copy(from, to)?;
        return Ok(());
    }
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry?;
        let relative = entry.path().strip_prefix(from)?;
        let destination = to.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&destination)?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &destination)?;
        }
    }
    Ok(())
}
