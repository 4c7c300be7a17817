//! `checker export-student OUT`: the student edition of the course.
//!
//! The student edition is what a class clones: the lessons (stubs and visible tests), the
//! checker with the graded tier of the suites (and the reference values they read), the
//! shared crates and the book. It leaves
//! out the solutions, the held-out tier, the reference scripts (which compute the answers),
//! the checker's own tests (built on the solutions) and the maintainer tooling. Its
//! workspace manifest and README are rewritten to match; it builds and its
//! `cargo run -p checker` works on a fresh clone. It also carries the GitHub Classroom
//! workflow (`.github/workflows/classroom.yml`), which grades with the course's own tests.

use crate::course::{Course, Tier};
use crate::files::{copy_file, copy_tree};
use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use std::path::Path;

/// Files of the course root the student edition copies as they are.
const ROOT_FILES: &[&str] = &[
    "Cargo.lock",
    "course.toml",
    "rustfmt.toml",
    ".gitignore",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];

/// Folders the student edition copies whole.
const WHOLE_FOLDERS: &[&str] = &[
    "common",
    "figures",
    "harness",
    "i18n",
    "manifest",
    "lessons",
    "checker/src",
    "checker/locales",
];

/// The student edition's README, in English and in Simplified Chinese.
const STUDENT_README: &str = include_str!("export/README.md");
const STUDENT_README_ZH: &str = include_str!("export/README.zh-CN.md");

/// Writes the student edition of `course` into `out`, which must not exist or be empty.
pub fn export_student(course: &Course, out: &Path) -> Result<()> {
    if out.exists() && std::fs::read_dir(out)?.next().is_some() {
        let out = out.display().to_string();
        bail!(tr!(INSTRUCTOR, "export-not-empty", out = out));
    }
    let root = &course.root;
    for file in ROOT_FILES {
        copy_file(&root.join(file), &out.join(file))?;
    }
    for folder in WHOLE_FOLDERS {
        copy_tree(&root.join(folder), &out.join(folder))?;
    }
    // The book, without its build output.
    for part in ["book.toml", "src", "theme", "check", "po", "preprocessors"] {
        copy_tree(&root.join("book").join(part), &out.join("book").join(part))?;
    }
    // The graded tier of each suite with the reference values it reads, and nothing of
    // the held-out tier, from `solutions/<id>/suite/` into `checker/suites/<id>/` (the
    // edition has no solutions folder).
    for lesson in &course.manifest.lessons {
        let from = course.suite_dir(lesson);
        let to = out.join(course_manifest::EXPORTED_SUITES).join(&lesson.id);
        let graded = course.suite_file(lesson, Tier::Graded);
        copy_file(&graded, &to.join(graded.strip_prefix(&from)?))?;
        // The graded suite's messages, without the held-out suite's (`heldout.ftl`).
        let locales = course.suite_locales(lesson);
        for copy in copy_tree(&locales, &to.join(locales.strip_prefix(&from)?))? {
            if copy
                .file_stem()
                .is_some_and(|stem| stem == Tier::HeldOut.stem())
            {
                std::fs::remove_file(&copy)?;
            }
        }
        for companion in course.suite_companions(lesson, Tier::Graded) {
            if companion.is_file() {
                copy_file(&companion, &to.join(companion.strip_prefix(&from)?))?;
            }
        }
        // The modules the suites share (the calls into the lesson), which the graded one
        // includes.
        for module in course.suite_modules(lesson) {
            copy_file(&module, &to.join(module.strip_prefix(&from)?))?;
        }
    }
    std::fs::write(out.join("README.md"), STUDENT_README)?;
    std::fs::write(out.join("README.zh-CN.md"), STUDENT_README_ZH)?;
    let workflows = out.join(".github").join("workflows");
    std::fs::create_dir_all(&workflows)?;
    std::fs::write(workflows.join("classroom.yml"), crate::classroom::WORKFLOW)?;
    std::fs::write(out.join("Cargo.toml"), student_workspace(course)?)?;
    std::fs::write(
        out.join("checker/Cargo.toml"),
        student_checker_manifest(course)?,
    )?;
    Ok(())
}

/// The workspace manifest without the solutions and the maintainer tooling, edited as text
/// so that its comments stay.
fn student_workspace(course: &Course) -> Result<String> {
    let text = read(&course.root.join("Cargo.toml"))?;
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| {
            let entry = line.trim();
            !entry.starts_with("\"solutions/")
                && entry != "\"xtask\","
                && entry != "\"mistakes\","
                && entry != "\"measurements\","
                && !entry.starts_with("course-mistakes ")
        })
        .collect();
    Ok(format!(
        "# The student edition of the course, written by `checker export-student`.\n{}\n",
        kept.join("\n")
    ))
}

/// The checker's manifest without its integration tests (they grade the solutions) and
/// their dependencies.
fn student_checker_manifest(course: &Course) -> Result<String> {
    let text = read(&course.root.join("checker/Cargo.toml"))?;
    let mut kept = Vec::new();
    let mut skipping = false;
    for line in text.lines() {
        if line.starts_with('[') {
            skipping = line == "[[test]]" || line == "[dev-dependencies]";
        }
        if !skipping {
            // A learner's checker leaves out the instructor's commands (and their
            // dependencies): its first build compiles less.
            kept.push(if line.starts_with("default = [") {
                "default = []"
            } else {
                line
            });
        }
    }
    Ok(kept.join("\n") + "\n")
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| {
        let path = path.display().to_string();
        tr!(INSTRUCTOR, "file-could-not-read", path = path)
    })
}
