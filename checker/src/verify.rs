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

use crate::course::{Course, expected_tests};
use crate::grade::{self, Options};
use crate::messages::INSTRUCTOR;
use crate::report::CourseReport;
use anyhow::{Context, Result};
use course_i18n::tr;
use course_manifest::Lesson;
use std::collections::BTreeSet;
use std::path::Path;

/// Returns every problem found; empty means the course is consistent.
pub fn verify(course: &Course, options: &Options) -> Result<Vec<String>> {
    if !course.solutions_dir().is_dir() {
        anyhow::bail!(tr!(INSTRUCTOR, "verify-needs-solutions"));
    }
    let mut problems = check_layout(course)?;
    let lessons = course.select(&[])?;
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

/// Checks that the manifest, the folders, the workspace and the book agree.
fn check_layout(course: &Course) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let root = &course.root;
    let workspace = std::fs::read_to_string(root.join("Cargo.toml"))
        .with_context(|| tr!(INSTRUCTOR, "verify-reading", path = "Cargo.toml"))?;
    let workspace: toml::Table = toml::from_str(&workspace)
        .with_context(|| tr!(INSTRUCTOR, "verify-parsing", path = "Cargo.toml"))?;
    let list = |key: &str| -> BTreeSet<String> {
        workspace
            .get("workspace")
            .and_then(|w| w.get(key))
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (members, defaults) = (list("members"), list("default-members"));
    let summary =
        std::fs::read_to_string(root.join("book/src/SUMMARY.md")).unwrap_or_default();

    for lesson in &course.manifest.lessons {
        let id = &lesson.id;
        let lesson_dir = format!("lessons/{id}");
        let solution_dir = format!("solutions/{id}");
        match package_name(&root.join(&lesson_dir)) {
            Some(name) if name == lesson.crate_name => {}
            other => problems.push(tr!(
                INSTRUCTOR,
                "verify-wrong-package",
                file = format!("{lesson_dir}/Cargo.toml"),
                package = &lesson.crate_name,
                found = format!("{other:?}")
            )),
        }
        // Grading builds the lesson with exactly these dependencies: the learner's crate
        // must not have others, or it would work under `cargo test` and fail in grading.
        let mut expected: BTreeSet<String> = ["course-common".to_owned()].into();
        expected.extend(lesson.dependencies.iter().cloned());
        for earlier in &lesson.depends_on {
            if let Ok(earlier) = course.manifest.lesson(earlier) {
                expected.insert(earlier.crate_name.clone());
            }
        }
        let declared = dependency_names(&root.join(&lesson_dir));
        if declared != expected {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-dependencies",
                file = format!("{lesson_dir}/Cargo.toml"),
                declared = format!("{declared:?}"),
                expected = format!("{expected:?}")
            ));
        }
        for example in lesson.figures.iter().chain(&lesson.experiments) {
            let file = root
                .join(&lesson_dir)
                .join("examples")
                .join(format!("{example}.rs"));
            if !file.is_file() {
                problems.push(tr!(
                    INSTRUCTOR,
                    "verify-missing-example",
                    example = example,
                    lesson = &lesson_dir
                ));
            }
        }
        match package_name(&root.join(&solution_dir)) {
            Some(name) if name == lesson.solution_crate() => {}
            other => problems.push(tr!(
                INSTRUCTOR,
                "verify-wrong-package",
                file = format!("{solution_dir}/Cargo.toml"),
                package = lesson.solution_crate(),
                found = format!("{other:?}")
            )),
        }
        if !members.contains(&lesson_dir) || !members.contains(&solution_dir) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-not-members",
                lesson = &lesson_dir,
                solution = &solution_dir
            ));
        }
        if defaults.contains(&lesson_dir) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-stub-default-member",
                lesson = &lesson_dir
            ));
        }
        if !defaults.contains(&solution_dir) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-solution-not-default-member",
                solution = &solution_dir
            ));
        }
        // The stub's files in reading order: lib.rs, then its modules as it declares them.
        let stub: String = course
            .stub_sources(lesson)
            .into_iter()
            .map(|(_, text)| text)
            .collect::<Vec<_>>()
            .join("\n");
        if !stub.contains("todo!(") {
            problems.push(tr!(INSTRUCTOR, "verify-stub-solved", lesson = &lesson_dir));
        }
        // Every function the learner writes has hints, under the name its todo!() gives
        // (the name failing tests report), and the hints name no other function.
        let todos = stub_todos(&stub);
        let hinted: Vec<String> =
            lesson.hints.iter().map(|h| h.function.clone()).collect();
        for name in todos.iter().filter(|name| !hinted.contains(name)) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-todo-without-hints",
                lesson = &lesson_dir,
                name = name
            ));
        }
        for name in hinted.iter().filter(|name| !todos.contains(name)) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-hints-without-todo",
                name = name,
                id = id
            ));
        }
        let mut in_file_order: Vec<&String> = Vec::new();
        for name in &todos {
            if hinted.contains(name) && !in_file_order.contains(&name) {
                in_file_order.push(name);
            }
        }
        let hinted_order: Vec<&String> =
            hinted.iter().filter(|name| todos.contains(name)).collect();
        if in_file_order != hinted_order {
            let order: Vec<String> = in_file_order
                .iter()
                .map(|name| format!("`{name}`"))
                .collect();
            problems.push(tr!(
                INSTRUCTOR,
                "verify-hint-order",
                id = id,
                lesson = &lesson_dir,
                order = order.join(&tr!(INSTRUCTOR, "list-comma"))
            ));
        }
        problems.extend(stale_stub(root, lesson));
        let visible = root.join(&lesson_dir).join("tests");
        if !has_test(&visible) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-no-visible-test",
                lesson = &lesson_dir
            ));
        }
        match course.suites(lesson) {
            Ok(suites) => {
                let mut all_names = BTreeSet::new();
                for (tier, suite) in suites {
                    let file = format!("checker/suites/{id}/{}.rs", tier.stem());
                    let names = expected_tests(&suite);
                    let attributes =
                        suite.lines().filter(|l| l.trim() == "#[test]").count();
                    let wrapped = suite.matches("graded(||").count();
                    if names.is_empty() {
                        problems.push(tr!(
                            INSTRUCTOR,
                            "verify-suite-empty",
                            file = &file
                        ));
                    }
                    if names.len() != attributes {
                        problems.push(tr!(
                            INSTRUCTOR,
                            "verify-test-attributes",
                            file = &file,
                            attributes = attributes,
                            functions = names.len()
                        ));
                    }
                    if wrapped < names.len() {
                        problems.push(tr!(
                            INSTRUCTOR,
                            "verify-unwrapped",
                            file = &file,
                            tests = names.len(),
                            wrapped = wrapped
                        ));
                    }
                    for name in names {
                        if !all_names.insert(name.clone()) {
                            problems.push(tr!(
                                INSTRUCTOR,
                                "verify-test-twice",
                                file = &file,
                                name = &name,
                                id = id
                            ));
                        }
                    }
                }
            }
            Err(error) => problems.push(format!("{error:#}")),
        }
        if !course.chapter_file(lesson).is_file() {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-chapter-missing",
                chapter = &lesson.chapter
            ));
        } else if !summary.contains(&format!("({})", lesson.chapter)) {
            problems.push(tr!(
                INSTRUCTOR,
                "verify-not-in-summary",
                chapter = &lesson.chapter
            ));
        }
    }
    for folder in ["lessons", "solutions", "checker/suites"] {
        for entry in std::fs::read_dir(root.join(folder)).with_context(|| {
            tr!(INSTRUCTOR, "verify-reading", path = format!("{folder}/"))
        })? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type()?.is_dir() && course.manifest.lesson(&name).is_err() {
                problems.push(tr!(
                    INSTRUCTOR,
                    "verify-not-a-lesson",
                    folder = folder,
                    name = &name
                ));
            }
        }
    }
    Ok(problems)
}

/// What is wrong with course.toml's fingerprint of `lesson`'s stub, if anything: the
/// checker recognises an untouched stub by it, so it must be the current one.
fn stale_stub(root: &Path, lesson: &Lesson) -> Option<String> {
    let src = root.join("lessons").join(&lesson.id).join("src");
    match course_manifest::stub_fingerprint(&src) {
        Ok(current) if lesson.stub.as_deref() == Some(current.as_str()) => None,
        Ok(_) => Some(tr!(INSTRUCTOR, "verify-stale-stub", id = &lesson.id)),
        Err(error) => Some(format!("lessons/{}/src/: {error:#}", lesson.id)),
    }
}

/// The names the stub's `todo!("name")` calls give, in order, outside comments.
fn stub_todos(stub: &str) -> Vec<String> {
    stub.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split("todo!(\"").skip(1))
        .filter_map(|rest| rest.split_once('"').map(|(name, _)| name.to_owned()))
        .collect()
}

fn package_name(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    Some(table.get("package")?.get("name")?.as_str()?.to_owned())
}

fn dependency_names(dir: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    let table: toml::Table = toml::from_str(&text).unwrap_or_default();
    table
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default()
}

fn has_test(dir: &Path) -> bool {
    crate::files::regular_files(dir).flatten().any(|e| {
        std::fs::read_to_string(e.path()).is_ok_and(|text| text.contains("#[test]"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_fingerprint_that_is_not_the_stub_s_is_a_problem() {
        let root = tempfile::tempdir().unwrap();
        let src = root.path().join("lessons/02-attention/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("lib.rs"), "pub fn a() { todo!(\"a\") }\n").unwrap();
        let lesson = |stub: &str| -> Lesson {
            let manifest = format!(
                "format_version = 1\n[[lessons]]\nid = \"02-attention\"\ntitle = \"A\"\n\
                 crate = \"attention\"\nchapter = \"02-attention.md\"\n{stub}\n\
                 [[lessons.hints]]\nfunction = \"a\"\ntext = [\"h\"]\n"
            );
            std::fs::write(root.path().join("course.toml"), manifest).unwrap();
            let manifest =
                course_manifest::Manifest::load(&root.path().join("course.toml"))
                    .unwrap();
            manifest.lessons[0].clone()
        };
        let current = course_manifest::stub_fingerprint(&src).unwrap();
        assert_eq!(
            stale_stub(root.path(), &lesson(&format!("stub = \"{current}\""))),
            None
        );
        for stale in ["", "stub = \"sha256:00\""] {
            let problem = stale_stub(root.path(), &lesson(stale)).unwrap();
            assert!(problem.contains("cargo xtask stubs"), "{problem}");
        }
    }

    #[test]
    fn the_stub_s_todos_are_read_outside_comments() {
        let stub = "//! each body is `todo!(\"name\")` until you write it\n\
                    pub fn a() { todo!(\"softmax_rows\") }\n\
                    /// see `todo!(\"doc\")`\n\
                    fn b() {\n    todo!(\"Linear::forward\")\n}\n";
        assert_eq!(stub_todos(stub), ["softmax_rows", "Linear::forward"]);
    }
}
