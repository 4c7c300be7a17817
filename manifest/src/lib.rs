//! `course.toml`: the one manifest that lists the course's lessons, typed.
//!
//! The checker and the xtask read the lessons from here; nothing else repeats the list.
//! In the full repository `course.toml` is the ordered index of the lessons' ids, and
//! each lesson's entry is `solutions/<id>/lesson.toml` ([`LESSON_ENTRY`]), in the folder
//! that holds everything else a maintainer writes for the lesson. The student edition,
//! which has no `solutions/`, writes every entry out in `course.toml` itself
//! ([`Manifest::to_inline_toml`]); [`Manifest::load`] reads both.
//! It also records each lesson's stub by a fingerprint ([`stub_fingerprint`]), so that a
//! lesson still exactly as the course ships it is known to be not started without being
//! built: `checker verify` runs every stub and proves that it scores nothing.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The manifest format this checker understands (2: lessons' entries in their folders,
/// hint steps by name).
pub const FORMAT_VERSION: u32 = 2;

/// A lesson's entry, in its folder under `solutions/`.
pub const LESSON_ENTRY: &str = "lesson.toml";

/// The Chinese of a lesson's title and hints, beside its entry.
pub const LESSON_CHINESE: &str = "lesson.zh-CN.ftl";

/// The whole manifest.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    /// The format of the file; must equal [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The lessons, in the order the course takes them.
    pub lessons: Vec<Lesson>,
}

/// `course.toml` as written: each lesson is its id (its entry is in its folder) or its
/// whole entry (the student edition's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    format_version: u32,
    lessons: Vec<toml::Value>,
}

/// One lesson of the course.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The folder name under `lessons/` and `solutions/`, e.g. `02-attention`. A
    /// `lesson.toml` leaves it out (it is the folder's name).
    #[serde(default)]
    pub id: String,
    /// The title, as the book and the progress table show it.
    pub title: String,
    /// The package name of the learner's crate (`cargo test -p <crate>`).
    #[serde(rename = "crate")]
    pub crate_name: String,
    /// The book chapter, relative to `book/src/`.
    pub chapter: String,
    /// Ids of earlier lessons whose crates this one uses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    /// Crates of the workspace's `[workspace.dependencies]` the lesson's code may use,
    /// besides `course-common` (whose ndarray every lesson has).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// Programs that draw the book's figures, byte for byte the same on every run:
    /// examples of the lesson crate, or of the [`MEASUREMENTS`] crate (see
    /// [`Lesson::program_package`]). `cargo xtask figures` runs them on the reference
    /// solutions (CI checks the committed figures are current), a learner the lesson
    /// crate's on their own code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<String>,
    /// Programs that measure something (timings, training) and print it, found as
    /// `figures` are (`cargo xtask experiments` runs them on the reference solutions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub experiments: Vec<String>,
    /// Hints for each function the learner writes, in reading order: the order of the
    /// stub's `src/lib.rs`, then of the modules it declares, as it declares them.
    pub hints: Vec<FunctionHints>,
    /// The [`stub_fingerprint`] of the lesson's `src/` as the course ships it, read from
    /// the generated [`FINGERPRINTS`] file (`cargo xtask stubs` writes it; nobody edits it).
    /// A submission whose `src/` has this fingerprint is the untouched stub: the checker
    /// reports it as not started without building it.
    #[serde(skip)]
    pub stub: Option<String>,
}

/// The progressive hints for one function of a lesson, from a nudge to nearly the answer.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionHints {
    /// The function, as its stub's `todo!` names it: `softmax_rows`, `Linear::backward`.
    pub function: String,
    /// The steps, in the order they are shown.
    pub steps: Vec<HintStep>,
}

/// One step of a function's hints.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HintStep {
    /// Its name, unique among the function's steps (`idea`, `code`): what its translation
    /// is known by, so that adding or reordering steps leaves the others' alone.
    pub name: String,
    /// The text, in English: one paragraph.
    pub text: String,
}

impl Lesson {
    /// Where the entry of lesson `id` is in the course at `root`: `solutions/<id>/lesson.toml`.
    pub fn entry_path(root: &Path, id: &str) -> PathBuf {
        root.join("solutions").join(id).join(LESSON_ENTRY)
    }

    /// The package name of the lesson's solution crate.
    pub fn solution_crate(&self) -> String {
        format!("{}-solution", self.crate_name)
    }

    /// The first function the learner writes: the first of its file, where its hints
    /// start (a valid manifest has hints).
    pub fn first_function(&self) -> &str {
        self.hints.first().map_or("", |h| h.function.as_str())
    }

    /// The package whose example `name` is, of the programs this lesson's `figures` and
    /// `experiments` name in the course at `root`: the lesson crate's own, which a learner
    /// runs on their code, or the maintainers' [`MEASUREMENTS`] crate's, for a program that
    /// computes what a lesson asks a learner to write. `None` if neither has the file.
    pub fn program_package(&self, root: &Path, name: &str) -> Option<String> {
        let file = format!("examples/{name}.rs");
        if root.join("lessons").join(&self.id).join(&file).is_file() {
            Some(self.crate_name.clone())
        } else if root.join(MEASUREMENTS).join(&file).is_file() {
            Some(MEASUREMENTS.to_owned())
        } else {
            None
        }
    }
}

/// Where a lesson's graded and held-out suites are in the full repository, under its
/// solution's folder: `solutions/<id>/suite/`, with everything else of the lesson that
/// learners do not get.
pub const SUITE_DIR: &str = "suite";

/// Where the student edition keeps the graded suites it ships (it has no `solutions/`):
/// `checker/suites/<id>/`.
pub const EXPORTED_SUITES: &str = "checker/suites";

impl Lesson {
    /// The folder of the lesson's suites in the course at `root`: `solutions/<id>/suite/`
    /// in the full repository, `checker/suites/<id>/` in the student edition.
    pub fn suite_dir(&self, root: &Path) -> std::path::PathBuf {
        let own = root.join("solutions").join(&self.id).join(SUITE_DIR);
        if own.is_dir() {
            own
        } else {
            root.join(EXPORTED_SUITES).join(&self.id)
        }
    }
}

/// The maintainers' crate (and folder) of the measurement programs that run on the
/// reference solutions only: those that compute, on the way, something a lesson asks a
/// learner to write. The student edition leaves it out.
pub const MEASUREMENTS: &str = "measurements";

/// Where the stubs' fingerprints are kept, relative to the manifest's folder: generated
/// data, apart from the hand-written manifest, so that regenerating the stubs changes no
/// file anybody edits.
pub const FINGERPRINTS: &str = "lessons/fingerprints.toml";

impl Manifest {
    /// Reads and validates the manifest at `path`, with the stubs' fingerprints beside it
    /// ([`FINGERPRINTS`]; a lesson it does not list has none).
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| {
            format!("could not read the course manifest {}", path.display())
        })?;
        let root = path.parent().unwrap_or(Path::new("."));
        let mut manifest = Self::parse(&text, root).with_context(|| {
            format!("{} is not a valid course manifest", path.display())
        })?;
        manifest
            .validate()
            .with_context(|| format!("in {}", path.display()))?;
        let fingerprints = root.join(FINGERPRINTS);
        if let Ok(text) = std::fs::read_to_string(&fingerprints) {
            let stubs: std::collections::BTreeMap<String, String> = toml::from_str(&text)
                .with_context(|| {
                    format!("{} is not a table of fingerprints", fingerprints.display())
                })?;
            for lesson in &mut manifest.lessons {
                lesson.stub = stubs.get(&lesson.id).cloned();
            }
        }
        Ok(manifest)
    }

    /// The manifest in `text`, its lessons' entries read from the course at `root` where
    /// it names them by id; not yet validated.
    fn parse(text: &str, root: &Path) -> Result<Self> {
        let file: ManifestFile = toml::from_str(text)?;
        if file.format_version != FORMAT_VERSION {
            bail!(
                "format_version is {}, but this checker reads version {FORMAT_VERSION}; \
                 update the checker (git pull) or the manifest",
                file.format_version
            );
        }
        let mut lessons = Vec::with_capacity(file.lessons.len());
        for (index, item) in file.lessons.into_iter().enumerate() {
            let lesson = match item {
                toml::Value::String(id) => {
                    let entry = Lesson::entry_path(root, &id);
                    let text = std::fs::read_to_string(&entry).with_context(|| {
                        format!(
                            "lesson `{id}` has no entry: could not read {} (create it, \
                             e.g. with `cargo xtask new-lesson`, or remove `{id}` from the \
                             index)",
                            entry.display()
                        )
                    })?;
                    let mut lesson: Lesson =
                        toml::from_str(&text).with_context(|| {
                            format!("{} is not a valid lesson entry", entry.display())
                        })?;
                    if !lesson.id.is_empty() && lesson.id != id {
                        bail!(
                            "{} says its id is `{}`, but it is the entry of `{id}`: remove \
                             its `id` (the folder's name is the id)",
                            entry.display(),
                            lesson.id
                        );
                    }
                    lesson.id = id;
                    lesson
                }
                toml::Value::Table(table) => {
                    let lesson: Lesson = table.try_into().with_context(|| {
                        format!("lesson {} is not a valid lesson entry", index + 1)
                    })?;
                    if lesson.id.is_empty() {
                        bail!("lesson {} written out in full needs its `id`", index + 1);
                    }
                    lesson
                }
                _ => bail!(
                    "lesson {} must be its id (\"02-attention\", its entry in \
                     solutions/02-attention/lesson.toml) or a table with its whole entry",
                    index + 1
                ),
            };
            lessons.push(lesson);
        }
        Ok(Self {
            format_version: file.format_version,
            lessons,
        })
    }

    /// The manifest with every lesson's entry written out in full: the student edition's
    /// `course.toml` (it has no `solutions/` to read entries from).
    pub fn to_inline_toml(&self) -> Result<String> {
        Ok(toml::to_string(self)?)
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
                if entry.steps.is_empty()
                    || entry.steps.iter().any(|h| h.text.trim().is_empty())
                {
                    bail!(
                        "the hints of `{}` in lesson `{}` must be at least one step, and none \
                         empty",
                        entry.function,
                        lesson.id
                    );
                }
                for (place, step) in entry.steps.iter().enumerate() {
                    let valid_name = !step.name.is_empty()
                        && step.name.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
                        });
                    if !valid_name {
                        bail!(
                            "the hint step `{}` of `{}` in lesson `{}` needs a name of \
                             lowercase letters, digits and `-`",
                            step.name,
                            entry.function,
                            lesson.id
                        );
                    }
                    if entry.steps[..place].iter().any(|s| s.name == step.name) {
                        bail!(
                            "the hints of `{}` in lesson `{}` have two steps named `{}`",
                            entry.function,
                            lesson.id,
                            step.name
                        );
                    }
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

/// The fingerprint of a lesson's source folder `src`: `sha256:` and the SHA-256, in hex, of
/// every regular file under it in the order of their paths, each as its path relative to
/// `src` (with `/`), a NUL byte, its length in decimal, a NUL byte and its bytes.
///
/// Symbolic links and other non-files are left out, as the checker's copy of a submission
/// leaves them out; any other change (an edit, a new or renamed file, line endings) gives
/// another fingerprint.
pub fn stub_fingerprint(src: &Path) -> Result<String> {
    let mut hasher = Sha256::new();
    let walk = walkdir::WalkDir::new(src)
        .follow_links(false)
        .sort_by_file_name();
    for entry in walk {
        let entry = entry.with_context(|| format!("could not read {}", src.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(src)?;
        let name: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        let bytes = std::fs::read(entry.path())
            .with_context(|| format!("could not read {}", entry.path().display()))?;
        hasher.update(name.join("/").as_bytes());
        hasher.update(b"\0");
        hasher.update(bytes.len().to_string().as_bytes());
        hasher.update(b"\0");
        hasher.update(&bytes);
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest> {
        let manifest = Manifest::parse(text, Path::new("no-such-course"))?;
        manifest.validate()?;
        Ok(manifest)
    }

    /// A manifest with its one lesson written out in full, as the student edition's is.
    const ONE: &str = r#"
        format_version = 2
        [[lessons]]
        id = "02-attention"
        title = "Attention"
        crate = "attention"
        chapter = "02-attention.md"
        [[lessons.hints]]
        function = "softmax_rows"
        [[lessons.hints.steps]]
        name = "idea"
        text = "start with softmax"
    "#;

    #[test]
    fn an_index_reads_each_entry_from_the_lessons_folder() {
        let root =
            std::env::temp_dir().join(format!("manifest-index-{}", std::process::id()));
        let folder = root.join("solutions/02-attention");
        std::fs::create_dir_all(&folder).unwrap();
        let entry = &ONE[ONE.find("title").unwrap()..].replace("lessons.", "");
        std::fs::write(folder.join(LESSON_ENTRY), entry).unwrap();
        let index = "format_version = 2\nlessons = [\"02-attention\"]\n";
        std::fs::write(root.join("course.toml"), index).unwrap();
        let read = Manifest::load(&root.join("course.toml"));
        std::fs::write(root.join("course.toml"), index.replace("02-", "03-")).unwrap();
        let missing = Manifest::load(&root.join("course.toml"));
        std::fs::remove_dir_all(&root).unwrap();
        let read = read.unwrap();
        assert_eq!(read.lessons[0].id, "02-attention");
        assert_eq!(read.lessons[0].hints[0].steps[0].name, "idea");
        let missing = format!("{:#}", missing.unwrap_err());
        assert!(
            missing.contains("lesson `03-attention` has no entry"),
            "{missing}"
        );
        // Written out in full, the same manifest reads back the same.
        let inline = read.to_inline_toml().unwrap();
        let again = parse(&inline).unwrap();
        assert_eq!(
            format!("{:?}", again.lessons),
            format!("{:?}", read.lessons)
        );
    }

    /// The expected digest was computed independently, with Python's hashlib, from the
    /// bytes the format above describes.
    #[test]
    fn the_stub_fingerprint_follows_its_documented_format() {
        let dir = std::env::temp_dir().join(format!("stub-fp-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("nested")).unwrap();
        std::fs::write(dir.join("lib.rs"), "fn a() {}\n").unwrap();
        std::fs::write(dir.join("nested/m.rs"), "x").unwrap();
        let fingerprint = stub_fingerprint(&dir);
        std::fs::write(dir.join("lib.rs"), "fn a() {}\r\n").unwrap();
        let changed = stub_fingerprint(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            fingerprint.unwrap(),
            "sha256:e41bc7778c15c9a1a32aa5000109629b9a96f45b99320067125e58056042acd1"
        );
        assert_ne!(
            changed.unwrap(),
            "sha256:e41bc7778c15c9a1a32aa5000109629b9a96f45b99320067125e58056042acd1"
        );
    }

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
                ONE.replace("format_version = 2", "format_version = 9"),
                "format_version",
            ),
            (ONE.replace("\"start with softmax\"", "\" \""), "none empty"),
            (
                format!(
                    "{ONE}\n        [[lessons.hints]]\n        function = \"softmax_rows\"\n        \
                     [[lessons.hints.steps]]\n        name = \"a\"\n        text = \"again\""
                ),
                "two hint entries",
            ),
            (
                format!(
                    "{ONE}\n        [[lessons.hints.steps]]\n        name = \"idea\"\n        \
                     text = \"again\""
                ),
                "two steps named `idea`",
            ),
            (ONE.replace("\"idea\"", "\"Idea 1\""), "needs a name"),
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
