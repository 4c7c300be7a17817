//! The layout checks of `checker verify`: the manifest, the folders, the workspace and
//! the book agree. One function per concern; [`super::check_layout`] calls them in turn.
//!
//! Only maintainers read these problems, so they are plain English, not Fluent messages:
//! each says what is wrong and ends with what to do about it.

use crate::course::{Course, Tier, expected_tests};
use anyhow::{Context, Result};
use course_manifest::Lesson;
use std::collections::BTreeSet;
use std::path::Path;

/// One problem found, as the maintainer reads it.
pub type Problem = String;

/// The workspace's `members` and `default-members`, as cargo reads the root Cargo.toml
/// (its globs, `lessons/*`, expanded): each a folder relative to the course's root.
pub struct Workspace {
    members: BTreeSet<String>,
    defaults: BTreeSet<String>,
    /// The package names of the members.
    packages: BTreeSet<String>,
}

impl Workspace {
    /// Asks cargo (`cargo metadata`) for the workspace of `course`; a workspace cargo cannot
    /// read is an error.
    pub fn read(course: &Course) -> Result<Self> {
        let output = std::process::Command::new("cargo")
            .current_dir(&course.root)
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .output()
            .context("running `cargo metadata`")?;
        if !output.status.success() {
            anyhow::bail!(
                "cargo cannot read the workspace in Cargo.toml: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
        }
        let metadata: serde_json::Value =
            serde_json::from_slice(&output.stdout).context("reading `cargo metadata`")?;
        let root = std::fs::canonicalize(&course.root).unwrap_or(course.root.clone());
        // Each package by id: its folder relative to the root, and its name.
        let mut by_id = std::collections::BTreeMap::new();
        for package in metadata["packages"].as_array().into_iter().flatten() {
            let (Some(id), Some(name), Some(manifest)) = (
                package["id"].as_str(),
                package["name"].as_str(),
                package["manifest_path"].as_str(),
            ) else {
                continue;
            };
            let folder = Path::new(manifest).parent().unwrap_or(Path::new(""));
            let folder = folder.strip_prefix(&root).unwrap_or(folder);
            let folder = folder.to_string_lossy().replace('\\', "/");
            by_id.insert(id.to_owned(), (folder, name.to_owned()));
        }
        let list = |key: &str| -> Vec<&(String, String)> {
            metadata[key]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|id| by_id.get(id.as_str()?))
                .collect()
        };
        let members = list("workspace_members");
        Ok(Workspace {
            packages: members.iter().map(|(_, name)| name.clone()).collect(),
            members: members.iter().map(|(folder, _)| folder.clone()).collect(),
            defaults: list("workspace_default_members")
                .iter()
                .map(|(folder, _)| folder.clone())
                .collect(),
        })
    }
}

fn lesson_dir(lesson: &Lesson) -> String {
    format!("lessons/{}", lesson.id)
}

fn solution_dir(lesson: &Lesson) -> String {
    format!("solutions/{}", lesson.id)
}

/// The problem of a crate whose Cargo.toml (`file`) does not define `package`.
fn wrong_package(file: &str, package: &str, found: Option<String>) -> Problem {
    format!(
        "{file} should define package `{package}`, found {found:?}: set `name = \"{package}\"` \
         in its [package]"
    )
}

/// Checks that the lesson's crate is the package course.toml names: grading builds and
/// reports it under that name.
pub fn check_stub_package(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let lesson_dir = lesson_dir(lesson);
    match package_name(&course.root.join(&lesson_dir)) {
        Some(name) if name == lesson.crate_name => vec![],
        other => vec![wrong_package(
            &format!("{lesson_dir}/Cargo.toml"),
            &lesson.crate_name,
            other,
        )],
    }
}

/// Checks that the lesson's crate depends on exactly what grading provides: the course's
/// common crate, course.toml's `dependencies` and the crates of the lessons it
/// `depends_on`. With any other dependency it would work under `cargo test` and fail in
/// grading.
pub fn check_dependencies(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let lesson_dir = lesson_dir(lesson);
    let mut expected: BTreeSet<String> = ["course-common".to_owned()].into();
    expected.extend(lesson.dependencies.iter().cloned());
    for earlier in &lesson.depends_on {
        if let Ok(earlier) = course.manifest.lesson(earlier) {
            expected.insert(earlier.crate_name.clone());
        }
    }
    let declared = dependency_names(&course.root.join(&lesson_dir));
    if declared == expected {
        return vec![];
    }
    vec![format!(
        "{lesson_dir}/Cargo.toml depends on {declared:?}, but grading provides \
         {expected:?} (the `depends_on` and `dependencies` of solutions/{id}/lesson.toml): \
         make its [dependencies] exactly these, or change the lesson's entry",
        id = lesson.id
    )]
}

/// Checks that a lesson's library reaches no crate of the workspace but course-common and
/// its earlier lessons: a lesson entry's `dependencies` are third-party crates. The harness,
/// the builders of the named mistakes and the tools are the tests' and the maintainers';
/// a library that could call them could call code that computes a lesson's result.
pub fn check_reach(workspace: &Workspace, lesson: &Lesson) -> Vec<Problem> {
    lesson
        .dependencies
        .iter()
        .filter(|name| workspace.packages.contains(*name) && *name != "course-common")
        .map(|name| {
            format!(
                "solutions/{}/lesson.toml gives the lesson the workspace crate `{name}` as a dependency, \
                 which its library could call: a lesson's library may reach only \
                 course-common, third-party crates and its earlier lessons (depends_on); \
                 make `{name}` a dev-dependency of its tests instead",
                lesson.id
            )
        })
        .collect()
}

/// The public items of course-common, which every lesson's library can call; none may
/// compute a lesson's result, whole or in part. A new one fails [`check_common_api`] until
/// a maintainer has checked it and added it here.
const COMMON_API: &[&str] = &[
    "ndarray",
    "Float",
    "Matrix",
    "Vector",
    "output",
    "figures_dir",
    "experiments_dir",
];

/// Checks, course-wide, that course-common declares no public item beyond [`COMMON_API`]:
/// the one crate of the workspace every lesson's library reaches must hold nothing that
/// computes a lesson's result. A file that cannot be read is an error.
pub fn check_common_api(course: &Course) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    let src = course.root.join("common").join("src");
    for entry in walkdir::WalkDir::new(&src) {
        let path = entry.context("reading common/src/")?.into_path();
        if path.extension().is_none_or(|extension| extension != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        for name in public_items(&text) {
            if !COMMON_API.contains(&name.as_str()) {
                problems.push(format!(
                    "{} declares the public item `{name}`, which every lesson's library \
                     can call: make sure it computes no lesson's result, whole or in part, \
                     then add it to COMMON_API in checker/src/verify/layout.rs",
                    path.strip_prefix(&course.root).unwrap_or(&path).display()
                ));
            }
        }
    }
    Ok(problems)
}

/// The names of the `pub` items a Rust source declares (functions, types, constants,
/// statics, modules, traits, re-exports), outside comments.
fn public_items(source: &str) -> Vec<String> {
    const KINDS: &[&str] = &[
        "fn", "struct", "enum", "type", "const", "static", "mod", "trait", "use", "macro",
    ];
    source
        .lines()
        .map(str::trim_start)
        .filter(|line| !line.starts_with("//"))
        .filter_map(|line| line.strip_prefix("pub "))
        .filter_map(|rest| {
            let (kind, rest) = rest.split_once(' ')?;
            KINDS.contains(&kind).then_some((kind, rest))
        })
        .flat_map(|(kind, rest)| {
            // A re-export is named by the last part of its path, or by each name of a
            // `{a, b}` group.
            let names: Vec<&str> = match (kind, rest.split_once('{')) {
                ("use", Some((_, group))) => group.split(',').collect(),
                _ => vec![rest],
            };
            names
                .into_iter()
                .map(|name| {
                    let name = match kind {
                        "use" => {
                            let name = name.trim().trim_end_matches([';', '}']);
                            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
                            name.rsplit("::").next().unwrap_or(name)
                        }
                        _ => name,
                    };
                    name.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .filter(|name| !name.is_empty())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Checks that every figure and experiment course.toml names has its program, an example
/// of the lesson crate or of the maintainers' measurements crate, so that `cargo xtask
/// figures` and `cargo xtask experiments` can run it. The student edition has no
/// measurements crate: there, the names of its programs are not checked.
pub fn check_examples(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let lesson_dir = lesson_dir(lesson);
    let measurements = course_manifest::MEASUREMENTS;
    let has_measurements = course.root.join(measurements).is_dir();
    let mut problems = Vec::new();
    for example in lesson.figures.iter().chain(&lesson.experiments) {
        if has_measurements && lesson.program_package(&course.root, example).is_none() {
            problems.push(format!(
                "solutions/{id}/lesson.toml names the program `{example}` of {lesson_dir}, and neither \
                 {lesson_dir}/examples/{example}.rs nor {measurements}/examples/{example}.rs \
                 exists: add the file (in the lesson crate if a learner runs it on their own \
                 code), or remove the name from the lesson's `figures` or `experiments`",
                id = lesson.id
            ));
        }
    }
    problems
}

/// Checks that the lesson's reference solution is the package grading expects for it
/// ([`Lesson::solution_crate`]).
pub fn check_solution_package(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let solution_dir = solution_dir(lesson);
    match package_name(&course.root.join(&solution_dir)) {
        Some(name) if name == lesson.solution_crate() => vec![],
        other => vec![wrong_package(
            &format!("{solution_dir}/Cargo.toml"),
            &lesson.solution_crate(),
            other,
        )],
    }
}

/// Checks that the lesson's stub and its solution are workspace members, so that cargo
/// builds them (and the learner's editor sees the stub).
pub fn check_members(workspace: &Workspace, lesson: &Lesson) -> Vec<Problem> {
    let (lesson_dir, solution_dir) = (lesson_dir(lesson), solution_dir(lesson));
    if workspace.members.contains(&lesson_dir)
        && workspace.members.contains(&solution_dir)
    {
        return vec![];
    }
    vec![format!(
        "the workspace members must include {lesson_dir} and {solution_dir}: add them to \
         `members` in the root Cargo.toml"
    )]
}

/// Checks that the lesson's stub is not a default member: its `todo!()`s fail, and would
/// turn a plain `cargo test` red.
pub fn check_stub_not_default(workspace: &Workspace, lesson: &Lesson) -> Vec<Problem> {
    let lesson_dir = lesson_dir(lesson);
    if !workspace.defaults.contains(&lesson_dir) {
        return vec![];
    }
    vec![format!(
        "{lesson_dir} must not be a default member: its failing stubs would turn `cargo \
         test` red; remove it from `default-members` in the root Cargo.toml"
    )]
}

/// Checks that the lesson's solution is a default member, so that a plain `cargo test`
/// runs its tests.
pub fn check_solution_default(workspace: &Workspace, lesson: &Lesson) -> Vec<Problem> {
    let solution_dir = solution_dir(lesson);
    if workspace.defaults.contains(&solution_dir) {
        return vec![];
    }
    vec![format!(
        "{solution_dir} must be a default member, so that `cargo test` runs it: add it to \
         `default-members` in the root Cargo.toml"
    )]
}

/// The stub's files in reading order: lib.rs, then its modules as it declares them.
fn stub_text(course: &Course, lesson: &Lesson) -> String {
    course
        .stub_sources(lesson)
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks that the stub still has `todo!()`s: a stub without any is a solution, and
/// leaves the learner nothing to write.
pub fn check_stub_unsolved(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    if stub_text(course, lesson).contains("todo!(") {
        return vec![];
    }
    vec![format!(
        "{}/src/ has no todo!(): the stub is solved; put back a `todo!(\"name\")` body \
         in each function the learner writes",
        lesson_dir(lesson)
    )]
}

/// The names of the functions the lesson's entry has hints for, in its order.
fn hinted(lesson: &Lesson) -> Vec<String> {
    lesson.hints.iter().map(|h| h.function.clone()).collect()
}

/// Checks that every function the learner writes has hints, under the name its
/// `todo!("name")` gives: the name failing tests report.
pub fn check_todos_have_hints(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let todos = stub_todos(&stub_text(course, lesson));
    let hinted = hinted(lesson);
    todos
        .iter()
        .filter(|name| !hinted.contains(name))
        .map(|name| {
            format!(
                "{}/src/ has `todo!(\"{name}\")`, but solutions/{}/lesson.toml has no \
                 hints for `{name}`: add them (a [[hints]] with function = \"{name}\"), or \
                 fix the name in the todo!()",
                lesson_dir(lesson),
                lesson.id
            )
        })
        .collect()
}

/// Checks that the lesson entry's hints name only functions the stub has a `todo!("name")`
/// for: hints for any other name could never be shown.
pub fn check_hints_have_todos(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let todos = stub_todos(&stub_text(course, lesson));
    hinted(lesson)
        .iter()
        .filter(|name| !todos.contains(name))
        .map(|name| {
            format!(
                "solutions/{}/lesson.toml has hints for `{name}`, but its stub has no \
                 `todo!(\"{name}\")`: fix the hints' `function`, or remove them",
                lesson.id
            )
        })
        .collect()
}

/// Checks that the lesson's entry lists the hints in the order the learner meets the functions
/// in the stub's files, so that the hints read in the same order as the code.
pub fn check_hint_order(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let todos = stub_todos(&stub_text(course, lesson));
    let hinted = hinted(lesson);
    let mut in_file_order: Vec<&String> = Vec::new();
    for name in &todos {
        if hinted.contains(name) && !in_file_order.contains(&name) {
            in_file_order.push(name);
        }
    }
    let hinted_order: Vec<&String> =
        hinted.iter().filter(|name| todos.contains(name)).collect();
    if in_file_order == hinted_order {
        return vec![];
    }
    let order: Vec<String> = in_file_order
        .iter()
        .map(|name| format!("`{name}`"))
        .collect();
    vec![format!(
        "solutions/{}/lesson.toml lists the hints in another order than the functions of {}/src/ \
         (lib.rs, then its modules in the order it declares them): list them in that \
         order ({})",
        lesson.id,
        lesson_dir(lesson),
        order.join(", ")
    )]
}

/// Checks that the stub's recorded fingerprint (`lessons/fingerprints.toml`) is its current one: the checker
/// recognises an untouched stub by it (and scores it 0 without building it).
pub fn check_stub_fingerprint(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    stale_stub(&course.root, lesson).into_iter().collect()
}

/// What is wrong with the recorded fingerprint of `lesson`'s stub, if anything: the
/// checker recognises an untouched stub by it, so it must be the current one.
fn stale_stub(root: &Path, lesson: &Lesson) -> Option<Problem> {
    let src = root.join("lessons").join(&lesson.id).join("src");
    match course_manifest::stub_fingerprint(&src) {
        Ok(current) if lesson.stub.as_deref() == Some(current.as_str()) => None,
        Ok(_) => Some(format!(
            "the fingerprint of {id} in {file} is not that of lessons/{id}/src/: \
             run `cargo xtask stubs` to record it",
            id = lesson.id,
            file = course_manifest::FINGERPRINTS
        )),
        Err(error) => Some(format!("lessons/{}/src/: {error:#}", lesson.id)),
    }
}

/// Checks that the lesson has a visible test under tests/: the learner's first way to
/// run their code is `cargo test`.
pub fn check_visible_test(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let lesson_dir = lesson_dir(lesson);
    if has_test(&course.root.join(&lesson_dir).join("tests")) {
        return vec![];
    }
    vec![format!(
        "{lesson_dir}/tests/ has no visible #[test]: add one the learner can run with \
         `cargo test`"
    )]
}

/// Checks the lesson's suites (`solutions/<id>/suite/`): each has tests, every
/// `#[test]` is followed by the function the checker expects, every test's body is
/// wrapped in `graded(...)` (or it could never report a pass), and no test name is used
/// twice in the lesson (the report tells tests apart by name). A suite that cannot be
/// read is a problem too.
pub fn check_suites(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let suites = match course.suites(lesson) {
        Ok(suites) => suites,
        Err(error) => return vec![format!("{error:#}")],
    };
    let id = &lesson.id;
    let mut problems = Vec::new();
    let mut all_names = BTreeSet::new();
    for (tier, suite) in suites {
        let file = course
            .suite_file(lesson, tier)
            .strip_prefix(&course.root)
            .map_or_else(
                |_| format!("{}.rs", tier.stem()),
                |p| p.display().to_string(),
            );
        let names = expected_tests(&suite);
        let attributes = suite.lines().filter(|l| l.trim() == "#[test]").count();
        let wrapped = suite.matches("graded(||").count();
        if names.is_empty() {
            problems.push(format!(
                "{file} has no tests: add graded #[test]s, or remove the file"
            ));
        }
        if names.len() != attributes {
            problems.push(format!(
                "{file}: {attributes} #[test] attributes but {} test functions found right \
                 after them: put each #[test] on the line just above its `fn`",
                names.len()
            ));
        }
        if wrapped < names.len() {
            problems.push(format!(
                "{file}: {} tests but only {wrapped} bodies wrapped in graded(|| ...); an \
                 unwrapped test can never report a pass: wrap each test's body in \
                 graded(|| ...)",
                names.len()
            ));
        }
        if tier == Tier::HeldOut && !judge_only_record(&suite) {
            problems.push(format!(
                "{file} reads its named mistakes' record (`{}.named.json`) outside the judge: \
                 put `#[cfg(feature = \"judge\")]` on the line above its `static NAMED`, so \
                 that the executable that runs the learner's code holds none of the \
                 held-out tier's values",
                tier.stem()
            ));
        }
        for name in names {
            if !all_names.insert(name.clone()) {
                problems.push(format!(
                    "{file}: the test name `{name}` is used twice in lesson {id}: rename \
                     one of them"
                ));
            }
        }
    }
    problems
}

/// Checks that the lesson's chapter exists under book/src/ and that book/src/SUMMARY.md
/// lists it, or the book would not show it.
pub fn check_chapter(course: &Course, lesson: &Lesson) -> Vec<Problem> {
    let summary = std::fs::read_to_string(course.root.join("book/src/SUMMARY.md"))
        .unwrap_or_default();
    if !course.chapter_file(lesson).is_file() {
        vec![format!(
            "the chapter book/src/{} is missing: write it, or fix the `chapter` of \
             solutions/{}/lesson.toml",
            lesson.chapter, lesson.id
        )]
    } else if !summary.contains(&format!("({})", lesson.chapter)) {
        vec![format!(
            "book/src/SUMMARY.md does not list {chapter}: add a link to it, \
             `[Title]({chapter})`",
            chapter = lesson.chapter
        )]
    } else {
        vec![]
    }
}

/// Checks, course-wide, that every folder under lessons/ and solutions/ (and the student
/// edition's checker/suites/) is a lesson of course.toml: a stray one (a renamed or
/// removed lesson) is built and shipped, but never graded. A folder that cannot be read is an error.
pub fn check_stray_folders(course: &Course) -> Result<Vec<Problem>> {
    let mut problems = Vec::new();
    for folder in ["lessons", "solutions", course_manifest::EXPORTED_SUITES] {
        if !course.root.join(folder).is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(course.root.join(folder))
            .with_context(|| format!("reading {folder}/"))?
        {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type()?.is_dir() && course.manifest.lesson(&name).is_err() {
                problems.push(format!(
                    "{folder}/{name}/ is not a lesson of course.toml: remove the folder, or \
                     add its id to course.toml's `lessons`"
                ));
            }
        }
    }
    Ok(problems)
}

/// Whether a held-out suite's record of named mistakes, if it reads one, is compiled into
/// the judge only: the item that `include_str!`s `heldout.named.json` (its `static`)
/// carries `#[cfg(feature = "judge")]` among the attributes and doc comments above it.
fn judge_only_record(suite: &str) -> bool {
    let lines: Vec<&str> = suite.lines().map(str::trim).collect();
    let judge_only = |include: usize| {
        let Some(item) = (0..=include).rev().find(|&i| lines[i].contains("static "))
        else {
            return false;
        };
        (0..item)
            .rev()
            .take_while(|&i| lines[i].starts_with("///") || lines[i].starts_with("#["))
            .any(|i| lines[i] == "#[cfg(feature = \"judge\")]")
    };
    lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.contains("heldout.named.json"))
        .all(|(i, _)| judge_only(i))
}

/// The names the stub's `todo!("name")` calls give, in order, outside comments.
fn stub_todos(stub: &str) -> Vec<String> {
    stub.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split("todo!(\"").skip(1))
        .filter_map(|rest| rest.split_once('"').map(|(name, _)| name.to_owned()))
        .collect()
}

/// The package name a crate's Cargo.toml declares, if it can be read.
fn package_name(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    Some(table.get("package")?.get("name")?.as_str()?.to_owned())
}

/// The names of a crate's `[dependencies]` (none if its Cargo.toml cannot be read).
fn dependency_names(dir: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    let table: toml::Table = toml::from_str(&text).unwrap_or_default();
    table
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default()
}

/// Whether any file under `dir` has a `#[test]`.
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
            let manifest = "format_version = 2\n[[lessons]]\nid = \"02-attention\"\n\
                 title = \"A\"\ncrate = \"attention\"\nchapter = \"02-attention.md\"\n\
                 [[lessons.hints]]\nfunction = \"a\"\n\
                 [[lessons.hints.steps]]\nname = \"idea\"\ntext = \"h\"\n";
            std::fs::write(root.path().join("course.toml"), manifest).unwrap();
            let fingerprints = root.path().join(course_manifest::FINGERPRINTS);
            std::fs::write(fingerprints, stub).unwrap();
            let manifest =
                course_manifest::Manifest::load(&root.path().join("course.toml"))
                    .unwrap();
            manifest.lessons[0].clone()
        };
        let current = course_manifest::stub_fingerprint(&src).unwrap();
        assert_eq!(
            stale_stub(
                root.path(),
                &lesson(&format!("\"02-attention\" = \"{current}\""))
            ),
            None
        );
        for stale in ["", "\"02-attention\" = \"sha256:00\""] {
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

    #[test]
    fn course_common_declares_only_what_the_check_allows() {
        let source = include_str!("../../../common/src/lib.rs");
        let names = public_items(source);
        assert!(names.contains(&"Matrix".to_owned()), "{names:?}");
        let unknown: Vec<_> = names
            .iter()
            .filter(|name| !COMMON_API.contains(&name.as_str()))
            .collect();
        assert!(unknown.is_empty(), "{unknown:?}");
    }

    #[test]
    fn a_new_public_function_of_course_common_is_a_problem_until_it_is_allowed() {
        let source = "pub use ndarray;\n\
                      /// Softmax of each row.\n\
                      pub fn softmax_rows(scores: &Matrix) -> Matrix {\n    todo!()\n}\n\
                      // pub fn commented_out() {}\n\
                      pub(crate) fn private() {}\n";
        let names = public_items(source);
        assert_eq!(names, ["ndarray", "softmax_rows"]);
        let grouped =
            public_items("pub use helpers::{softmax as row_softmax, attend};\n");
        assert_eq!(grouped, ["row_softmax", "attend"]);
        assert!(!COMMON_API.contains(&"softmax_rows"));
    }

    #[test]
    fn a_held_out_record_of_named_mistakes_must_be_the_judge_s_alone() {
        let open = "use x;\nstatic NAMED: Named = Named::new(file!(), &[], include_str!(\"heldout.named.json\"));\n";
        let guarded = "use x;\n#[cfg(feature = \"judge\")]\n/// The record.\npub static HELD: Named =\n    Named::new(file!(), &[], include_str!(\"heldout.named.json\"));\n";
        let other_name = "/// The record.\npub static HELD: Named =\n    Named::new(file!(), &[], include_str!(\"heldout.named.json\"));\n";
        assert!(!judge_only_record(open));
        assert!(judge_only_record(guarded));
        assert!(!judge_only_record(other_name));
        assert!(judge_only_record("no record here"));
    }
}
