//! The course on disk: where its root, lessons, solutions, suites and scratch space are.

use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use course_manifest::{Lesson, Manifest};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The tiers of tests, as Gradescope names its visibilities.
///
/// Visible tests live in the lesson crates and are not graded (the learner runs them with
/// `cargo test -p <crate>`). The two tiers below live with the lesson's solution, in
/// `solutions/<id>/suite/<tier>.rs` (the student edition ships the graded one in
/// `checker/suites/<id>/`), and count. A tier's suite may read reference values from
/// `<tier>.json` beside it (written by the lesson's `reference.py`, compiled in with
/// `include_str!`): that file goes wherever its suite goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Run by the learner's own checker, reported with their teaching messages.
    Graded,
    /// Only in the instructor's edition: counts only when an instructor grades.
    HeldOut,
}

impl Tier {
    /// Every tier, in the order their tests are run and reported.
    pub const ALL: [Tier; 2] = [Tier::Graded, Tier::HeldOut];

    /// The file stem of the tier's suite and the name of its test target: `graded`, `heldout`.
    pub fn stem(self) -> &'static str {
        match self {
            Tier::Graded => "graded",
            Tier::HeldOut => "heldout",
        }
    }
}

/// One expected test: its tier and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedTest {
    /// The tier whose suite holds it.
    pub tier: Tier,
    /// The test function's name.
    pub name: String,
}

/// The file that marks the root of a course.
pub const MANIFEST_FILE: &str = "course.toml";

/// A course: its root folder and its manifest.
#[derive(Debug, Clone)]
pub struct Course {
    /// The folder that holds `course.toml`.
    pub root: PathBuf,
    /// The parsed manifest.
    pub manifest: Manifest,
}

impl Course {
    /// Finds the course: `explicit` if given, else the nearest folder at or above the
    /// current directory that holds `course.toml`, else the course this checker was built in.
    pub fn locate(explicit: Option<&Path>) -> Result<Self> {
        let root = match explicit {
            Some(dir) => {
                if !dir.join(MANIFEST_FILE).is_file() {
                    bail!(tr!(
                        INSTRUCTOR,
                        "course-no-manifest",
                        dir = dir.display().to_string(),
                        file = MANIFEST_FILE
                    ));
                }
                dir.to_path_buf()
            }
            None => Self::search_upwards()?,
        };
        let root = root.canonicalize().with_context(|| {
            let dir = root.display().to_string();
            tr!(INSTRUCTOR, "course-could-not-resolve", dir = dir)
        })?;
        let manifest = Manifest::load(&root.join(MANIFEST_FILE))?;
        Ok(Self { root, manifest })
    }

    fn search_upwards() -> Result<PathBuf> {
        let cwd = std::env::current_dir()
            .with_context(|| tr!(INSTRUCTOR, "course-no-current-dir"))?;
        if let Some(dir) = cwd
            .ancestors()
            .find(|dir| dir.join(MANIFEST_FILE).is_file())
        {
            return Ok(dir.to_path_buf());
        }
        // Built from a checkout: the checker's own crate sits one level below the root.
        let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        if built_in.join(MANIFEST_FILE).is_file() {
            return Ok(built_in);
        }
        bail!(tr!(INSTRUCTOR, "course-not-found", file = MANIFEST_FILE))
    }

    /// The folder of the learner's lessons, `lessons/`.
    pub fn lessons_dir(&self) -> PathBuf {
        self.root.join("lessons")
    }

    /// The source files of a lesson's stub as the course ships it, in reading order:
    /// `src/lib.rs`, then each module it declares (`mod data;` is `src/data.rs`), in the
    /// order it declares them. Each comes with its path relative to the lesson's folder.
    pub fn stub_sources(&self, lesson: &Lesson) -> Vec<(String, String)> {
        let src = self.lessons_dir().join(&lesson.id).join("src");
        let read = |relative: &str| std::fs::read_to_string(src.join(relative)).ok();
        let Some(lib) = read("lib.rs") else {
            return Vec::new();
        };
        let mut sources = vec![("src/lib.rs".to_owned(), lib.clone())];
        for line in lib.lines().map(str::trim) {
            let declared = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(name) = declared {
                for file in [format!("{name}.rs"), format!("{name}/mod.rs")] {
                    if let Some(text) = read(&file) {
                        sources.push((format!("src/{file}"), text));
                        break;
                    }
                }
            }
        }
        sources
    }

    /// The file of a lesson that holds `function` (as its `todo!` names it: `count_pairs`,
    /// `RmsNorm::forward`), relative to the lesson's folder; `src/lib.rs` if none does.
    /// The file whose `todo!` names it, or, once the learner has replaced the `todo!`, the
    /// file that defines it (`fn forward(` in an `impl RmsNorm` for a method).
    pub fn file_of(&self, lesson: &Lesson, function: Option<&str>) -> String {
        let Some(function) = function else {
            return "src/lib.rs".to_owned();
        };
        let sources = self.stub_sources(lesson);
        let todo = format!("todo!(\"{function}\")");
        let (owner, name) = match function.rsplit_once("::") {
            Some((owner, name)) => (Some(owner), name),
            None => (None, function),
        };
        let defines = |text: &str| {
            let has_fn = [format!("fn {name}("), format!("fn {name}<")]
                .iter()
                .any(|signature| text.contains(signature.as_str()));
            has_fn
                && owner.is_none_or(|owner| {
                    text.contains(&format!("impl {owner} "))
                        || text.contains(&format!("impl {owner}<"))
                        || text.contains(&format!(" for {owner} "))
                })
        };
        sources
            .iter()
            .find(|(_, text)| text.contains(&todo))
            .or_else(|| sources.iter().find(|(_, text)| defines(text)))
            .map_or_else(|| "src/lib.rs".to_owned(), |(file, _)| file.clone())
    }

    /// The folder of the reference solutions, `solutions/`.
    pub fn solutions_dir(&self) -> PathBuf {
        self.root.join("solutions")
    }

    /// Whether this edition has every lesson's reference solution: the full repository
    /// does, the student edition does not. With them, a lesson is graded on the reference
    /// versions of the lessons it builds on; without them, on the learner's own.
    pub fn has_references(&self) -> bool {
        self.manifest.lessons.iter().all(|l| {
            self.solutions_dir()
                .join(&l.id)
                .join("Cargo.toml")
                .is_file()
        })
    }

    /// The folder of a lesson's suites: `solutions/<id>/suite/` in the full repository,
    /// `checker/suites/<id>/` in the student edition (see [`Lesson::suite_dir`]).
    pub fn suite_dir(&self, lesson: &Lesson) -> PathBuf {
        lesson.suite_dir(&self.root)
    }

    /// A tier's test suite of a lesson: `<suite dir>/<tier>.rs`.
    pub fn suite_file(&self, lesson: &Lesson, tier: Tier) -> PathBuf {
        self.suite_dir(lesson).join(format!("{}.rs", tier.stem()))
    }

    /// The messages of a lesson's suites, one folder per language: `<suite dir>/locales/`.
    pub fn suite_locales(&self, lesson: &Lesson) -> PathBuf {
        self.suite_dir(lesson).join("locales")
    }

    /// The files a tier's suite of a lesson reads beside it (`include_str!`), where it has
    /// them: the reference values (`<tier>.json`, written by the lesson's `reference.py`),
    /// the named mistakes' recorded wrong answers (`<tier>.named.json`, written by `cargo
    /// xtask named`), and any other `<tier>.<source>.json` (values from another reference,
    /// such as `graded.torch.json`, written by a PyTorch script).
    pub fn suite_companions(&self, lesson: &Lesson, tier: Tier) -> Vec<PathBuf> {
        let suite = self.suite_file(lesson, tier);
        let mut companions = vec![
            suite.with_extension("json"),
            suite.with_extension("named.json"),
        ];
        let prefix = format!("{}.", tier.stem());
        let mut others: Vec<PathBuf> = std::fs::read_dir(self.suite_dir(lesson))
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.is_file()
                    && !companions.contains(path)
                    && path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|name| {
                            name.starts_with(&prefix) && name.ends_with(".json")
                        })
            })
            .collect();
        others.sort();
        companions.extend(others);
        companions
    }

    /// The modules a lesson's suites share (`calls.rs`, `parts.rs`): every `.rs` file of
    /// its suite folder that is not a tier's suite. They go wherever the suites go.
    pub fn suite_modules(&self, lesson: &Lesson) -> Vec<PathBuf> {
        let tiers: Vec<String> = Tier::ALL
            .iter()
            .map(|tier| format!("{}.rs", tier.stem()))
            .collect();
        let mut modules: Vec<PathBuf> = std::fs::read_dir(self.suite_dir(lesson))
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.is_file()
                    && path.extension().is_some_and(|e| e == "rs")
                    && path
                        .file_name()
                        .is_some_and(|name| !tiers.iter().any(|t| name == t.as_str()))
            })
            .collect();
        modules.sort();
        modules
    }

    /// The suites of a lesson that this edition of the course has, with their sources:
    /// the graded suite always, the held-out one in the instructor's edition.
    pub fn suites(&self, lesson: &Lesson) -> Result<Vec<(Tier, String)>> {
        let mut suites = Vec::new();
        for tier in Tier::ALL {
            let path = self.suite_file(lesson, tier);
            match std::fs::read_to_string(&path) {
                Ok(source) => suites.push((tier, source)),
                Err(_) if tier == Tier::HeldOut => {}
                Err(error) => {
                    return Err(error).with_context(|| {
                        let path = path.display().to_string();
                        tr!(INSTRUCTOR, "course-could-not-read-suite", path = path)
                    });
                }
            }
        }
        Ok(suites)
    }

    /// Every test the lesson's suites hold, tier by tier, in source order.
    pub fn expected(&self, lesson: &Lesson) -> Result<Vec<ExpectedTest>> {
        Ok(self
            .suites(lesson)?
            .into_iter()
            .flat_map(|(tier, source)| {
                expected_tests(&source)
                    .into_iter()
                    .map(move |name| ExpectedTest { tier, name })
            })
            .collect())
    }

    /// The book chapter of a lesson.
    pub fn chapter_file(&self, lesson: &Lesson) -> PathBuf {
        self.root.join("book").join("src").join(&lesson.chapter)
    }

    /// The target directory cargo builds the course into (honours `CARGO_TARGET_DIR`).
    pub fn target_dir(&self) -> PathBuf {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) if !dir.is_empty() => {
                let dir = PathBuf::from(dir);
                if dir.is_absolute() {
                    dir
                } else {
                    self.root.join(dir)
                }
            }
            _ => self.root.join("target"),
        }
    }

    /// Where the checker keeps everything it writes: `target/checker/`. Grading never
    /// writes anywhere else.
    pub fn scratch_dir(&self) -> PathBuf {
        self.target_dir().join("checker")
    }

    /// The lesson a learner names (by id, number or crate; see
    /// [`Manifest::lesson`](course_manifest::Manifest::lesson)), or an error that lists
    /// the lessons there are, in the checker's language.
    pub fn lesson(&self, name: &str) -> Result<&Lesson> {
        self.manifest.lesson(name).map_err(|_| {
            let lessons: Vec<&str> = self
                .manifest
                .lessons
                .iter()
                .map(|l| l.id.as_str())
                .collect();
            anyhow::anyhow!(tr!(
                INSTRUCTOR,
                "course-no-lesson",
                name = name.trim().trim_end_matches('/'),
                lessons = lessons.join(&tr!(INSTRUCTOR, "list-comma"))
            ))
        })
    }

    /// The lessons in course order, or the ones named (see [`Course::lesson`]) in course
    /// order, or an error naming an unknown one.
    pub fn select(&self, names: &[String]) -> Result<Vec<&Lesson>> {
        let mut ids = Vec::new();
        for name in names {
            ids.push(self.lesson(name)?.id.clone());
        }
        Ok(self
            .manifest
            .lessons
            .iter()
            .filter(|lesson| ids.is_empty() || ids.contains(&lesson.id))
            .collect())
    }
}

/// The names of the graded tests of a suite file: every `fn` that follows a `#[test]`.
///
/// The list comes from the course's own source, not from a build of the submission, so it
/// is known even when the submission does not compile, and nothing the submission does can
/// shorten it. `checker verify` checks it against the compiled suite's own list.
pub fn expected_tests(suite_source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut after_test_attribute = false;
    for line in suite_source.lines().map(str::trim) {
        if line == "#[test]" {
            after_test_attribute = true;
        } else if after_test_attribute {
            if let Some(rest) = line.strip_prefix("fn ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                names.push(name);
                after_test_attribute = false;
            } else if !line.starts_with("#[") && !line.starts_with("//") {
                after_test_attribute = false;
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_s_modules_are_read_in_the_order_lib_rs_declares_them() {
        let root = tempfile::tempdir().unwrap();
        let src = root.path().join("lessons/09-demo/src");
        std::fs::create_dir_all(src.join("model")).unwrap();
        std::fs::write(
            root.path().join("course.toml"),
            "format_version = 2\n[[lessons]]\nid = \"09-demo\"\ntitle = \"Demo\"\n\
             crate = \"demo\"\nchapter = \"09-demo.md\"\n[[lessons.hints]]\n\
             function = \"f\"\n[[lessons.hints.steps]]\nname = \"idea\"\ntext = \"h\"\n",
        )
        .unwrap();
        std::fs::write(
            src.join("lib.rs"),
            "mod data;\npub mod model;\npub use data::*;\n",
        )
        .unwrap();
        // `Norm::forward` written already: its todo!() is gone, its definition is here.
        std::fs::write(
            src.join("data.rs"),
            "fn f() { todo!(\"f\") }\nimpl Norm {\n    fn forward(&self) {}\n}\n",
        )
        .unwrap();
        std::fs::write(src.join("model/mod.rs"), "fn g() { todo!(\"g\") }\n").unwrap();
        let course = Course::locate(Some(root.path())).unwrap();
        let lesson = &course.manifest.lessons[0];
        let files: Vec<String> = course
            .stub_sources(lesson)
            .into_iter()
            .map(|(file, _)| file)
            .collect();
        assert_eq!(files, ["src/lib.rs", "src/data.rs", "src/model/mod.rs"]);
        assert_eq!(course.file_of(lesson, Some("g")), "src/model/mod.rs");
        assert_eq!(course.file_of(lesson, Some("h")), "src/lib.rs");
        assert_eq!(course.file_of(lesson, Some("Norm::forward")), "src/data.rs");
        assert_eq!(course.file_of(lesson, Some("Other::forward")), "src/lib.rs");
    }

    #[test]
    fn test_names_are_read_from_the_suite_source() {
        let source = "
            /// Rows sum to one.
            #[test]
            fn rows_sum_to_one() {}

            fn helper() {}

            #[test]
            #[should_panic]
            fn panics() {}
        ";
        assert_eq!(expected_tests(source), vec!["rows_sum_to_one", "panics"]);
    }
}
