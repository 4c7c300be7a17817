//! Cascades: a lesson that fails because an earlier lesson it builds on fails.
//!
//! Where lessons run on the learner's own earlier lessons (the student edition, which has
//! no reference solutions, or `--whole-stack`), one bug in lesson 02 can fail tests of
//! lessons 03 to 06. After grading, every failing test of a lesson whose earlier lessons
//! fail their own tests gets a first line that names the earliest of them and its first
//! failing function: fix that first.
//!
//! What an earlier lesson's standing is comes from the same run when it was graded there;
//! else from its last grade, if its sources (and those it builds on) have not changed
//! since (kept in `target/checker/own-lessons.json`); else from grading it now.

use crate::course::Course;
use crate::messages::MESSAGES;
use crate::report::{CourseReport, LessonReport, LessonStatus, TestStatus};
use anyhow::Result;
use course_i18n::tr;
use course_manifest::Lesson;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::Path;

/// How an earlier lesson stands in its own tests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Standing {
    /// The fingerprint of the sources this standing was graded from.
    sources: String,
    /// Whether every graded test of the lesson passes.
    passes: bool,
    /// The first failing test, and the function it points at, when it does not.
    test: Option<String>,
    function: Option<String>,
    /// Whether it is still the untouched stub.
    #[serde(default)]
    not_started: bool,
}

impl Standing {
    fn of(lesson: &LessonReport, sources: String) -> Self {
        let first = lesson.first_failure();
        Self {
            sources,
            passes: lesson.status == LessonStatus::Graded && first.is_none(),
            test: first.map(|t| t.name.clone()),
            function: first.and_then(|t| t.function.clone()),
            not_started: lesson.status == LessonStatus::NotStarted,
        }
    }
}

/// Adds the cascade note to `report`'s failing tests; `grade` grades lessons the report
/// lacks (without notes of their own).
pub fn explain(
    course: &Course,
    submission: &Path,
    report: &mut CourseReport,
    grade: impl FnOnce(&[&Lesson]) -> Result<CourseReport>,
) -> Result<()> {
    let path = course.scratch_dir().join("own-lessons.json");
    let mut known: BTreeMap<String, Standing> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    // Each lesson's sources are read once, however many later lessons ask about it.
    let fingerprints = std::cell::RefCell::new(BTreeMap::<String, String>::new());
    let fingerprint = |lesson: &Lesson| {
        fingerprints
            .borrow_mut()
            .entry(lesson.id.clone())
            .or_insert_with(|| sources_fingerprint(course, submission, lesson))
            .clone()
    };
    for graded in &report.lessons {
        if let Ok(lesson) = course.manifest.lesson(&graded.id) {
            known.insert(lesson.id.clone(), Standing::of(graded, fingerprint(lesson)));
        }
    }

    // The earlier lessons the failing lessons build on, whose standing is not known for
    // their current sources.
    let mut missing: Vec<&Lesson> = Vec::new();
    // (A lesson not started needs no note: nothing of it ran.)
    let noted = |l: &LessonReport| l.score < 1.0 && l.status != LessonStatus::NotStarted;
    for graded in report.lessons.iter().filter(|l| noted(l)) {
        let Ok(lesson) = course.manifest.lesson(&graded.id) else {
            continue;
        };
        for id in &lesson.depends_on {
            let Ok(earlier) = course.manifest.lesson(id) else {
                continue;
            };
            let current = known
                .get(id)
                .is_some_and(|s| s.sources == fingerprint(earlier));
            if !current && !missing.iter().any(|m| m.id == earlier.id) {
                missing.push(earlier);
            }
        }
    }
    if !missing.is_empty() {
        missing
            .sort_by_key(|l| course.manifest.lessons.iter().position(|m| m.id == l.id));
        for graded in &grade(&missing)?.lessons {
            if let Ok(lesson) = course.manifest.lesson(&graded.id) {
                known
                    .insert(lesson.id.clone(), Standing::of(graded, fingerprint(lesson)));
            }
        }
    }

    for graded in report.lessons.iter_mut().filter(|l| noted(l)) {
        let Ok(lesson) = course.manifest.lesson(&graded.id) else {
            continue;
        };
        // The earliest earlier lesson that does not pass: the first thing to fix.
        let Some((id, standing)) = lesson
            .depends_on
            .iter()
            .find_map(|id| Some((id, known.get(id).filter(|s| !s.passes)?)))
        else {
            continue;
        };
        let note = note(id, standing);
        for test in &mut graded.tests {
            if matches!(
                test.status,
                TestStatus::Fail
                    | TestStatus::Crash
                    | TestStatus::Timeout
                    | TestStatus::NotBuilt
            ) {
                test.message = format!("{note}\n{}", test.message);
            }
        }
        if let Some(message) = &mut graded.message {
            *message = format!("{note}\n{message}");
        }
    }

    std::fs::create_dir_all(course.scratch_dir())?;
    std::fs::write(&path, serde_json::to_string_pretty(&known)?)?;
    Ok(())
}

/// The first line of a failing test of a lesson built on `id`, which does not pass.
fn note(id: &str, standing: &Standing) -> String {
    if standing.not_started {
        let start = standing
            .function
            .as_deref()
            .map(|f| tr!(MESSAGES, "cascade-starting-with", function = f))
            .unwrap_or_default();
        return tr!(MESSAGES, "cascade-not-started", id = id, start = start);
    }
    let what = match (&standing.function, &standing.test) {
        (Some(function), _) => tr!(MESSAGES, "cascade-fix-function", function = function),
        (None, Some(test)) => tr!(MESSAGES, "cascade-fix-test", test = test),
        (None, None) => tr!(MESSAGES, "cascade-make-it-compile"),
    };
    tr!(MESSAGES, "cascade-failing", id = id, what = what)
}

/// A fingerprint of everything a lesson's own grade depends on: its sources and those of
/// the lessons it builds on, and its suites with their reference values.
///
/// It reads what grading would copy, and no more: a `src/` that is a link is not followed
/// (grading refuses it), and reading stops at the size and count grading accepts, so a
/// submission cannot make the note read a linked `/usr` or a sparse file of many GiB.
fn sources_fingerprint(course: &Course, submission: &Path, lesson: &Lesson) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut folders: Vec<&str> = lesson.depends_on.iter().map(String::as_str).collect();
    folders.push(&lesson.id);
    for id in folders {
        hash_sources(&submission.join(id).join("src"), &mut hasher);
    }
    for tier in crate::course::Tier::ALL {
        let companions = course.suite_companions(lesson, tier);
        for file in std::iter::once(course.suite_file(lesson, tier)).chain(companions) {
            std::fs::read(file).unwrap_or_default().hash(&mut hasher);
        }
    }
    for module in course.suite_modules(lesson) {
        std::fs::read(module).unwrap_or_default().hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

/// Hashes the names and bytes of the regular files under `src`, within grading's limits; a
/// `src` that is a link, or that goes past the limits, hashes as a marker of that.
fn hash_sources(src: &Path, hasher: &mut impl Hasher) {
    if std::fs::symlink_metadata(src).is_ok_and(|m| m.file_type().is_symlink()) {
        "a linked src/".hash(hasher);
        return;
    }
    let (mut files, mut bytes) = (0usize, 0u64);
    for entry in crate::files::regular_files(src).filter_map(Result::ok) {
        files += 1;
        bytes += entry.metadata().map_or(u64::MAX, |m| m.len());
        if files > crate::scratch::MAX_SOURCE_FILES
            || bytes > crate::scratch::MAX_SOURCE_BYTES
        {
            "a src/ past grading's limits".hash(hasher);
            return;
        }
        entry.path().hash(hasher);
        std::fs::read(entry.path()).unwrap_or_default().hash(hasher);
    }
}
