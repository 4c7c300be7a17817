//! The checker's messages, in every language the course speaks (see [`course_i18n`]).
//!
//! - `locales/{en,zh-CN}/checker.ftl`: what the checker itself says.
//! - `locales/{en,zh-CN}/instructor.ftl`: errors and the instructor's and maintainer's
//!   commands (`class`, the gradebooks, `gradescope`, `export-student`, `verify`).
//! - `locales/zh-CN/course.ftl`: the course's own text in Chinese, whose English is in
//!   the lessons' entries (`solutions/<id>/lesson.toml`): their titles
//!   (`lesson-<id>-title`) and hint steps (`hint-<id>-<function, with :: as -->-<name>`).
//!   It is generated (`cargo xtask stubs`) from each lesson's `lesson.zh-CN.ftl`, which
//!   maintainers edit, beside the lesson's entry.
//! - `locales/zh-CN/cli.ftl`: the `--help` texts in Chinese, whose English is the doc
//!   comments of [`crate::cli`].
//!
//! The tests below fail when a title, a hint or a help text lacks its Chinese form.

use course_i18n::{Catalog, Lang};

/// What the checker says.
pub static MESSAGES: Catalog = Catalog::new(
    "checker",
    include_str!("../locales/en/checker.ftl"),
    include_str!("../locales/zh-CN/checker.ftl"),
);

/// Errors and what the instructor's and maintainer's commands say.
pub static INSTRUCTOR: Catalog = Catalog::new(
    "instructor",
    include_str!("../locales/en/instructor.ftl"),
    include_str!("../locales/zh-CN/instructor.ftl"),
);

/// The course's titles and hints in Chinese (the English is the lessons' entries').
static COURSE: Catalog =
    Catalog::new("course", "", include_str!("../locales/zh-CN/course.ftl"));

/// The `--help` texts in Chinese (the English is the doc comments of `cli.rs`).
pub static CLI: Catalog =
    Catalog::new("cli", "", include_str!("../locales/zh-CN/cli.ftl"));

/// A course text in this process's language: `english` (from a lesson's entry), or its
/// Chinese form `id` when Chinese is asked for and there is one.
fn course_text(id: &str, english: &str) -> String {
    match course_i18n::current() {
        Lang::ZhCn if COURSE.has(Lang::ZhCn, id) => COURSE.tr_in(Lang::ZhCn, id, &[]),
        _ => english.to_owned(),
    }
}

/// The message id of a lesson's title.
fn title_id(lesson_id: &str) -> String {
    format!("lesson-{lesson_id}-title")
}

/// The message id of a hint step: `function` with `::` written `--`, then the step's name.
pub fn hint_id(lesson_id: &str, function: &str, step: &str) -> String {
    format!("hint-{lesson_id}-{}-{step}", function.replace("::", "--"))
}

/// A lesson's title in this process's language.
pub fn title(lesson_id: &str, english: &str) -> String {
    course_text(&title_id(lesson_id), english)
}

/// A hint step of `function` in this process's language.
pub fn hint(lesson_id: &str, function: &str, step: &course_manifest::HintStep) -> String {
    course_text(&hint_id(lesson_id, function, &step.name), &step.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use course_manifest::Manifest;
    use std::collections::BTreeMap;

    fn manifest() -> Manifest {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../course.toml");
        Manifest::load(std::path::Path::new(path)).expect("course.toml reads")
    }

    #[test]
    fn every_title_and_hint_of_the_course_has_its_chinese_form() {
        let mut missing = Vec::new();
        let mut expected = std::collections::BTreeSet::new();
        for lesson in &manifest().lessons {
            expected.insert(title_id(&lesson.id));
            for hint in &lesson.hints {
                for step in &hint.steps {
                    expected.insert(hint_id(&lesson.id, &hint.function, &step.name));
                }
            }
        }
        for id in &expected {
            if !COURSE.has(Lang::ZhCn, id) {
                missing.push(id.clone());
            }
        }
        assert!(missing.is_empty(), "course.ftl lacks: {missing:?}");
    }

    /// Each Chinese file a maintainer edits, with the English of what it translates: in
    /// the full repository each lesson's `lesson.zh-CN.ftl`; in the student edition (no
    /// `solutions/`) the gathered `course.ftl`.
    fn chinese_files() -> Vec<(std::path::PathBuf, BTreeMap<String, String>)> {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let english = |lesson: &course_manifest::Lesson| {
            let mut english = BTreeMap::new();
            english.insert(title_id(&lesson.id), lesson.title.clone());
            for hint in &lesson.hints {
                for step in &hint.steps {
                    let id = hint_id(&lesson.id, &hint.function, &step.name);
                    english.insert(id, step.text.clone());
                }
            }
            english
        };
        let lessons = manifest().lessons;
        if root.join("solutions").is_dir() {
            lessons
                .iter()
                .map(|lesson| {
                    let entry = course_manifest::Lesson::entry_path(root, &lesson.id);
                    let file = entry.with_file_name(course_manifest::LESSON_CHINESE);
                    (file, english(lesson))
                })
                .collect()
        } else {
            let all = lessons.iter().flat_map(english).collect();
            vec![(root.join("checker/locales/zh-CN/course.ftl"), all)]
        }
    }

    #[test]
    fn every_chinese_title_and_hint_translates_the_english_as_it_is_now() {
        let mut problems = Vec::new();
        for (path, english) in chinese_files() {
            let chinese = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{} reads: {e}", path.display()));
            problems.extend(course_i18n::stamp::check(&path, &chinese, &english));
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
