//! `checker verify`: the maintainer's proof that the course is whole.
//!
//! - the manifest, the folders, the workspace and the book agree;
//! - every stub still compiles and still has its `todo!()`s;
//! - every graded test is wrapped in `graded(...)`, so it can report;
//! - every solution scores 100% and every stub scores 0%, through the same grading path
//!   a learner's submission takes;
//! - every solution still scores 100% when the judge is built on the stubs instead of the
//!   reference solutions: so every call a suite makes into a lesson goes through the tape
//!   (a call outside it would run a stub's `todo!()` in the judge), and no verdict can
//!   silently use the reference's values where the learner's belong.

mod layout;

use crate::course::Course;
use crate::grade::{self, Options};
use crate::messages::INSTRUCTOR;
use crate::report::CourseReport;
use anyhow::Result;
use course_i18n::tr;

/// Returns every problem found; empty means the course is consistent. `names` chooses the
/// lessons graded (all if empty); the layout is checked whole.
pub fn verify(
    course: &Course,
    names: &[String],
    options: &Options,
) -> Result<Vec<String>> {
    if !course.solutions_dir().is_dir() {
        anyhow::bail!(tr!(INSTRUCTOR, "verify-needs-solutions"));
    }
    let mut problems = check_layout(course)?;
    let lessons = course.select(names)?;
    let quiet = |_| {};

    let solved =
        grade::grade(course, &lessons, &course.solutions_dir(), options, &quiet)?;
    for lesson in &solved.lessons {
        if lesson.score < 1.0 || lesson.total == 0 {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-solution-fails",
                id = &lesson.id,
                passed = lesson.passed,
                total = lesson.total,
                failures = describe_failures(&solved, &lesson.id)
            ));
        }
    }
    let on_stubs = Options {
        judge_on: crate::scratch::Origin::Stub,
        ..options.clone()
    };
    let judged_on_stubs =
        grade::grade(course, &lessons, &course.solutions_dir(), &on_stubs, &quiet)?;
    for lesson in &judged_on_stubs.lessons {
        if lesson.score < 1.0 || lesson.total == 0 {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-solution-fails-on-stubs",
                id = &lesson.id,
                passed = lesson.passed,
                total = lesson.total,
                failures = describe_failures(&judged_on_stubs, &lesson.id)
            ));
        }
    }
    // The stubs are built and run for real: this run is what proves that an untouched
    // stub scores nothing, which grading otherwise takes on trust from its fingerprint.
    let run_stubs = Options {
        recognise_stubs: false,
        ..options.clone()
    };
    let stubs =
        grade::grade(course, &lessons, &course.lessons_dir(), &run_stubs, &quiet)?;
    for lesson in &stubs.lessons {
        if lesson.passed > 0 {
            let passing: Vec<&str> = lesson
                .tests
                .iter()
                .filter(|t| t.passed)
                .map(|t| t.name.as_str())
                .collect();
            problems.push(tr!(
                INSTRUCTOR,
                "verify-stub-passes",
                id = &lesson.id,
                tests = passing.join(&tr!(INSTRUCTOR, "list-comma"))
            ));
        }
        if lesson.status != crate::report::LessonStatus::Graded {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-stub-does-not-build",
                id = &lesson.id,
                message = lesson.message.as_deref().unwrap_or("")
            ));
        }
    }
    Ok(problems)
}

fn describe_failures(report: &CourseReport, id: &str) -> String {
    let Some(lesson) = report.lessons.iter().find(|l| l.id == id) else {
        return String::new();
    };
    if let Some(message) = &lesson.message {
        return message.clone();
    }
    lesson
        .tests
        .iter()
        .filter(|t| !t.passed)
        .map(|t| {
            tr!(
                INSTRUCTOR,
                "verify-failure",
                test = &t.name,
                message = t.message.lines().next().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join(&tr!(INSTRUCTOR, "list-semicolon"))
}

/// Checks that the manifest, the folders, the workspace and the book agree: each
/// lesson's checks in turn, then the course-wide ones (see [`layout`]).
fn check_layout(course: &Course) -> Result<Vec<String>> {
    let workspace = layout::Workspace::read(course)?;
    let mut problems = Vec::new();
    for lesson in &course.manifest.lessons {
        problems.extend(layout::check_stub_package(course, lesson));
        problems.extend(layout::check_dependencies(course, lesson));
        problems.extend(layout::check_reach(&workspace, lesson));
        problems.extend(layout::check_examples(course, lesson));
        problems.extend(layout::check_solution_package(course, lesson));
        problems.extend(layout::check_members(&workspace, lesson));
        problems.extend(layout::check_stub_not_default(&workspace, lesson));
        problems.extend(layout::check_solution_default(&workspace, lesson));
        problems.extend(layout::check_stub_unsolved(course, lesson));
        problems.extend(layout::check_todos_have_hints(course, lesson));
        problems.extend(layout::check_hints_have_todos(course, lesson));
        problems.extend(layout::check_hint_order(course, lesson));
        problems.extend(layout::check_stub_fingerprint(course, lesson));
        problems.extend(layout::check_visible_test(course, lesson));
        problems.extend(layout::check_suites(course, lesson));
        problems.extend(layout::check_chapter(course, lesson));
    }
    problems.extend(layout::check_stray_folders(course)?);
    problems.extend(layout::check_common_api(course)?);
    Ok(problems)
}
