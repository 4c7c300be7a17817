//! `course.toml`: the one manifest that lists the course's lessons.
//!
//! Every other part of the course (the checker, the xtask, the book's checks) reads the
//! lessons from here; nothing else repeats the list.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::Path;

/// The manifest format this checker understands.
pub const FORMAT_VERSION: u32 = 1;

/// The whole manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The format of the file; must equal [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The lessons, in the order the course takes them.
    pub lessons: Vec<Lesson>,
}

/// One lesson of the course.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The folder name under `lessons/`, `solutions/` and `checker/suites/`, e.g. `02-attention`.
    pub id: String,
    /// The title, as the book and the progress table show it.
    pub title: String,
    /// The package name of the learner's crate (`cargo test -p <crate>`).
    #[serde(rename = "crate")]
    pub crate_name: String,
    /// The book chapter, relative to `book/src/`.
    pub chapter: String,
    /// Ids of earlier lessons whose crates this one uses.
    #[serde(default)]
    pub depends_on: Vec<String>,
    /// Crates of the workspace's `[workspace.dependencies]` the lesson's code may use,
    /// besides `course-common` (whose ndarray every lesson has).
    #[serde(default)]
    pub dependencies: Vec<String>,
    /// Examples of the lesson crate that draw the book's figures, byte for byte the same
    /// on every run; `cargo xtask figures` runs them on the reference solutions (CI checks
    /// the committed figures are current), a learner on their own code.
    #[serde(default)]
    pub figures: Vec<String>,
    /// Examples of the lesson crate that measure something (timings, training) and print
    /// it (`cargo xtask experiments` runs them on the reference solutions).
    #[serde(default)]
    pub experiments: Vec<String>,
    /// Hints for each function the learner writes, in the order of the lesson's file.
    pub hints: Vec<FunctionHints>,
}

/// The progressive hints for one function of a lesson, from a nudge to nearly the answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionHints {
    /// The function, as its stub's `todo!` names it: `softmax_rows`, `Linear::backward`.
    pub function: String,
    /// The hints, in the order they are shown.
    pub text: Vec<String>,
}

impl Lesson {
    /// The package name of the lesson's solution crate.
    pub fn solution_crate(&self) -> String {
        format!("{}-solution", self.crate_name)
    }
}

impl Manifest {
    /// Reads and validates the manifest at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| {
            format!("could not read the course manifest {}", path.display())
        })?;
        let manifest: Manifest = toml::from_str(&text).with_context(|| {
            format!("{} is not a valid course manifest", path.display())
        })?;
        manifest
            .validate()
            .with_context(|| format!("in {}", path.display()))?;
        Ok(manifest)
    }

    /// The lesson a learner names: by its id (`02-attention`), its number (`02` or `2`),
    /// its crate (`attention`) or its id without the number; or an error that lists the
    /// lessons there are.
    pub fn lesson(&self, name: &str) -> Result<&Lesson> {
        let name = name.trim().trim_end_matches('/');
        let number = |lesson: &Lesson| {
            lesson
                .id
                .split_once('-')
                .map_or(lesson.id.as_str(), |(number, _)| number)
                .parse::<u32>()
                .ok()
        };
        let found = self
            .lessons
            .iter()
            .find(|lesson| lesson.id == name)
            .or_else(|| {
                self.lessons.iter().find(|lesson| {
                    lesson.crate_name == name
                        || lesson
                            .id
                            .split_once('-')
                            .is_some_and(|(_, rest)| rest == name)
                        || (name.chars().all(|c| c.is_ascii_digit())
                            && name
                                .parse::<u32>()
                                .ok()
                                .is_some_and(|n| number(lesson) == Some(n)))
                })
            });
        found.with_context(|| {
            format!(
                "there is no lesson `{name}`; name one by its folder, number or crate, e.g. \
                 `02-attention`, `02` or `attention`. The lessons are: {}",
                self.lessons
                    .iter()
                    .map(|l| l.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// Checks what the types cannot: the version, unique ids, names, hints, dependencies.
    fn validate(&self) -> Result<()> {
        if self.format_version != FORMAT_VERSION {
            bail!(
                "format_version is {}, but this checker reads version {FORMAT_VERSION}; \
                 update the checker (git pull) or the manifest",
                self.format_version
            );
        }
        for (index, lesson) in self.lessons.iter().enumerate() {
            let valid_id = !lesson.id.is_empty()
                && lesson
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !valid_id {
                bail!(
                    "lesson id `{}` must be lowercase letters, digits and `-`",
                    lesson.id
                );
            }
            if self.lessons[..index]
                .iter()
                .any(|earlier| earlier.id == lesson.id)
            {
                bail!("lesson id `{}` appears twice", lesson.id);
            }
            if lesson.hints.is_empty() {
                bail!("lesson `{}` needs hints", lesson.id);
            }
            for (at, entry) in lesson.hints.iter().enumerate() {
                if entry.text.is_empty() || entry.text.iter().any(|h| h.trim().is_empty())
                {
                    bail!(
                        "the hints of `{}` in lesson `{}` must be at least one, and none empty",
                        entry.function,
                        lesson.id
                    );
                }
                if lesson.hints[..at]
                    .iter()
                    .any(|e| e.function == entry.function)
                {
                    bail!(
                        "lesson `{}` has two hint entries for `{}`",
                        lesson.id,
                        entry.function
                    );
                }
            }
            for dependency in &lesson.depends_on {
                if !self.lessons[..index]
                    .iter()
                    .any(|earlier| &earlier.id == dependency)
                {
                    bail!(
                        "lesson `{}` depends on `{dependency}`, which is not an earlier lesson",
                        lesson.id
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest> {
        let manifest: Manifest = toml::from_str(text)?;
        manifest.validate()?;
        Ok(manifest)
    }

    const ONE: &str = r#"
        format_version = 1
        [[lessons]]
        id = "02-attention"
        title = "Attention"
        crate = "attention"
        chapter = "02-attention.md"
        [[lessons.hints]]
        function = "softmax_rows"
        text = ["start with softmax"]
    "#;

    #[test]
    fn a_valid_manifest_parses() {
        let manifest = parse(ONE).unwrap();
        assert_eq!(
            manifest.lesson("02-attention").unwrap().solution_crate(),
            "attention-solution"
        );
    }

    #[test]
    fn a_lesson_is_found_by_its_id_number_or_crate() {
        let manifest = parse(ONE).unwrap();
        for name in ["02-attention", "02", "2", "attention", "02-attention/"] {
            assert_eq!(manifest.lesson(name).unwrap().id, "02-attention", "{name}");
        }
        assert!(manifest.lesson("3").is_err());
    }

    #[test]
    fn an_unknown_lesson_lists_the_known_ones() {
        let error = parse(ONE)
            .unwrap()
            .lesson("99-nope")
            .unwrap_err()
            .to_string();
        assert!(error.contains("The lessons are: 02-attention"), "{error}");
    }

    #[test]
    fn bad_manifests_are_rejected_with_a_reason() {
        let cases = [
            (
                ONE.replace("format_version = 1", "format_version = 9"),
                "format_version",
            ),
            (
                ONE.replace("[\"start with softmax\"]", "[]"),
                "at least one",
            ),
            (
                format!(
                    "{ONE}\n        [[lessons.hints]]\n        function = \"softmax_rows\"\n        text = [\"again\"]"
                ),
                "two hint entries",
            ),
            (
                ONE.replace("02-attention\"\n", "02 Attention\"\n"),
                "lowercase",
            ),
            (
                ONE.replace(
                    "        [[lessons.hints]]",
                    "        depends_on = [\"01-rnn\"]\n        [[lessons.hints]]",
                ),
                "not an earlier",
            ),
            (
                format!("{ONE}\n{}", &ONE[ONE.find("[[lessons]]").unwrap()..]),
                "twice",
            ),
        ];
        for (text, reason) in cases {
            let error = format!("{:#}", parse(&text).unwrap_err());
            assert!(error.contains(reason), "expected `{reason}` in: {error}");
        }
    }
}
