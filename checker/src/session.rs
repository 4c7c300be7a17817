//! What a grading command works with, built once from its command line in `main`: the
//! course, the lessons folder being graded, how messages name it, and the grading options.
//! Nothing past `main` sees the command-line types.

use crate::cli::GradingArgs;
use crate::course::Course;
use crate::grade;
use anyhow::Result;
use std::path::PathBuf;

/// One grading command's settings (see the module docs).
pub struct Session<'a> {
    /// The course.
    pub course: &'a Course,
    /// The lessons folder being graded: `--lessons-dir`, or the course's `lessons/`.
    pub lessons_dir: PathBuf,
    /// How messages name the lessons folder: as given with `--lessons-dir`, else `lessons`.
    pub lessons_label: String,
    /// The grading options, limits included.
    pub options: grade::Options,
}

impl<'a> Session<'a> {
    /// The session a command line's grading arguments describe.
    pub fn new(course: &'a Course, grading: &GradingArgs) -> Result<Self> {
        let lessons_label = grading.lessons_label();
        Ok(Self {
            course,
            lessons_dir: grading.lessons_dir(course),
            options: grade::Options {
                lessons_label: lessons_label.clone(),
                ..grading.limits.options()?
            },
            lessons_label,
        })
    }
}
