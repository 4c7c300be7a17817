//! A copy of the course to experiment on, with the files a build needs and a build folder
//! of its own: the latency, mistakes and figures tasks edit lessons in it without touching
//! the workspace (nor are they helped by its builds).

use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of the course under `base/course`, built into `base/target`.
pub struct CourseCopy {
    /// The copy's root.
    pub course: PathBuf,
    /// Its build folder.
    pub target: PathBuf,
}

impl CourseCopy {
    /// Copies the course at `root` into `base/course`, replacing what was there.
    pub fn create(root: &Path, base: &Path) -> Result<Self> {
        let copy = Self {
            course: base.join("course"),
            target: base.join("target"),
        };
        copy_course(root, &copy.course)?;
        Ok(copy)
    }

    /// `cargo <args>` run in the copy, into its build folder.
    pub fn cargo(&self, args: &[&str]) -> Command {
        let mut command = Command::new("cargo");
        command
            .current_dir(&self.course)
            .env("CARGO_TARGET_DIR", &self.target)
            .args(args);
        command
    }

    /// The copy's checker, once `cargo build -p checker` has built it.
    pub fn checker(&self) -> PathBuf {
        self.target.join("debug").join("checker")
    }
}

/// Folders and files of the course that a build needs.
const COURSE_PARTS: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "course.toml",
    ".cargo",
    "common",
    "checkpoint",
    "figures",
    "harness",
    "i18n",
    "manifest",
    "lessons",
    "solutions",
    "mistakes",
    "measurements",
    "checker",
    "xtask",
];

/// Writes the student edition of the course at `root` into `out` (`checker export-student`).
pub fn export_student(root: &Path, out: &Path) -> Result<()> {
    crate::run_command(
        Command::new("cargo")
            .current_dir(root)
            .args(["run", "--quiet", "-p", "checker", "--", "export-student"])
            .arg(out)
            .stdout(std::process::Stdio::null()),
    )
}

/// Puts every reference solution of the course at `root` in place of the lesson of the
/// same folder in `course` (a copy of the course, or the student edition): the lessons of
/// a learner who has finished them all.
pub fn solve_lessons(root: &Path, course: &Path) -> Result<()> {
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    for lesson in &manifest.lessons {
        solve_lesson(root, course, &lesson.id)?;
    }
    Ok(())
}

/// Copies the course at `root` to `to`, replacing what was there.
fn copy_course(root: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to)?;
    }
    for part in COURSE_PARTS {
        copy_tree(&root.join(part), &to.join(part))?;
    }
    Ok(())
}

/// Copies the regular files under `from` (or the file `from`) to the same places under `to`.
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<()> {
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

/// Puts the reference solution of lesson `id` in place of its `src/` in `course`: every
/// file of the solution's `src/` (`lib.rs` and the modules it declares), and no other.
pub fn solve_lesson(root: &Path, course: &Path, id: &str) -> Result<()> {
    let solution = root.join("solutions").join(id).join("src");
    anyhow::ensure!(
        solution.join("lib.rs").is_file(),
        "no solution for lesson {id}"
    );
    let src = course.join("lessons").join(id).join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src)?;
    }
    copy_tree(&solution, &src)
}
