//! The scratch workspace a submission is graded in.
//!
//! Grading builds a fresh Cargo workspace under `target/checker/work/`, one member per
//! lesson, from three sources only:
//!
//! - the submission's `src/` folder (regular files only; nothing else of the submission);
//! - the course's suites for the lesson (`tests/graded.rs`, and `tests/heldout.rs` in the
//!   instructor's edition);
//! - a manifest this module writes from the course's own `Cargo.toml` and `course.toml`.
//!
//! So a submission's `Cargo.toml`, `build.rs`, `.cargo/config.toml`, `rust-toolchain`,
//! tests or dependencies never reach the build. Cargo runs from inside the scratch
//! folder, so the configuration it discovers is the course's, not the submission's.
//!
//! Every submission gets its own scratch workspace, and its lesson packages get names of
//! their own (`attention-graded-<key>`, with the library still called `attention`): all
//! submissions share one target directory, so that dependencies compile once, and cargo
//! names build outputs after the package, so without distinct names two submissions graded
//! at the same time would overwrite each other's test executables.
//!
//! Files are written only when their content changed, which keeps their modification times
//! and so lets cargo skip lessons that did not change: re-grading after one edit rebuilds
//! one lesson.

use crate::course::{Course, Tier};
use crate::manifest::Lesson;
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The largest `src/` folder the checker copies, in bytes.
const MAX_SOURCE_BYTES: u64 = 8 << 20;

/// A prepared scratch workspace, locked against other checkers for as long as it lives.
pub struct Scratch {
    /// The workspace folder.
    pub dir: PathBuf,
    /// The lessons that are members (their `src/` exists in the submission).
    pub members: Vec<String>,
    _lock: File,
}

/// Where the submission's lessons come from, and what was found for each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceState {
    /// `src/` was copied into the scratch workspace.
    Copied,
    /// The submission has no folder for this lesson.
    MissingFolder,
    /// The lesson folder exists but has no `src/lib.rs`.
    MissingLib,
    /// The source could not be copied (too large, unreadable).
    Unusable(String),
}

impl Scratch {
    /// Prepares the scratch workspace for grading `lessons` from `submission` (a folder
    /// laid out like `lessons/`), returning it with the state of each lesson's source.
    pub fn prepare(
        course: &Course,
        lessons: &[&Lesson],
        submission: &Path,
        whole_stack: bool,
    ) -> Result<(Self, Vec<SourceState>)> {
        let key = {
            let mut hasher = std::hash::DefaultHasher::new();
            submission.hash(&mut hasher);
            format!("{:016x}", hasher.finish())
        };
        let work = course.scratch_dir().join("work");
        std::fs::create_dir_all(&work)
            .with_context(|| format!("could not create {}", work.display()))?;
        let lock = File::create(work.join(format!("{key}.lock")))?;
        lock.lock()
            .context("could not lock the checker's scratch folder")?;
        let dir = work.join(&key);

        let mut states = Vec::new();
        let mut members = Vec::new();
        for lesson in lessons {
            let state =
                copy_lesson(course, lesson, submission, &dir, &key, true, whole_stack)?;
            if state == SourceState::Copied {
                members.push(lesson.id.clone());
            } else {
                // Leave no member behind that the workspace would try to build.
                let stale = dir.join(&lesson.id);
                if stale.exists() {
                    std::fs::remove_dir_all(&stale)?;
                }
            }
            states.push(state);
        }
        // Without reference solutions (the student edition), or when asked for the whole
        // stack, a lesson builds on the submission's own earlier lessons: add those as
        // members, built but not tested.
        let mut needed: Vec<&Lesson> = Vec::new();
        let mut queue: Vec<&Lesson> = lessons.to_vec();
        while let Some(lesson) = queue.pop() {
            for id in &lesson.depends_on {
                let earlier = course.manifest.lesson(id)?;
                let reference = course.solutions_dir().join(id).join("Cargo.toml");
                let member = members.contains(id) || needed.iter().any(|l| &l.id == id);
                if (whole_stack || !reference.is_file()) && !member {
                    needed.push(earlier);
                    queue.push(earlier);
                }
            }
        }
        for earlier in needed {
            if copy_lesson(course, earlier, submission, &dir, &key, false, whole_stack)?
                == SourceState::Copied
            {
                members.push(earlier.id.clone());
            }
        }
        write_if_changed(
            &dir.join("Cargo.toml"),
            &workspace_manifest(course, &members)?,
        )?;
        let lockfile = std::fs::read(course.root.join("Cargo.lock")).unwrap_or_default();
        if !lockfile.is_empty() {
            write_if_changed(
                &dir.join("Cargo.lock"),
                &String::from_utf8_lossy(&lockfile),
            )?;
        }
        Ok((
            Self {
                dir,
                members,
                _lock: lock,
            },
            states,
        ))
    }

    /// The folder of one lesson's member crate.
    pub fn lesson_dir(&self, lesson: &Lesson) -> PathBuf {
        self.dir.join(&lesson.id)
    }
}

/// Copies one lesson of the submission into the scratch workspace; `tested` adds its
/// suites (a lesson needed only as a dependency is built, not tested).
fn copy_lesson(
    course: &Course,
    lesson: &Lesson,
    submission: &Path,
    scratch: &Path,
    key: &str,
    tested: bool,
    whole_stack: bool,
) -> Result<SourceState> {
    let from = submission.join(&lesson.id);
    if !from.is_dir() {
        return Ok(SourceState::MissingFolder);
    }
    let src = from.join("src");
    if !src.join("lib.rs").is_file() {
        return Ok(SourceState::MissingLib);
    }
    let member = scratch.join(&lesson.id);
    match sync_tree(&src, &member.join("src")) {
        Ok(()) => {}
        Err(error) => return Ok(SourceState::Unusable(format!("{error:#}"))),
    }
    let suites = if tested {
        course.suites(lesson)?
    } else {
        Vec::new()
    };
    let tests_dir = member.join("tests");
    std::fs::create_dir_all(&tests_dir)?;
    // Only the checker's own user may read the suites: code under test that runs as
    // another user (`--run-as`) cannot read the held-out tests from here.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tests_dir, std::fs::Permissions::from_mode(0o700))?;
    }
    for tier in Tier::ALL {
        let path = tests_dir.join(format!("{}.rs", tier.stem()));
        match suites.iter().find(|(t, _)| *t == tier) {
            Some((_, source)) => write_if_changed(&path, source)?,
            None if path.exists() => std::fs::remove_file(&path)?,
            None => {}
        }
    }
    let tiers: Vec<Tier> = suites.iter().map(|(tier, _)| *tier).collect();
    write_if_changed(
        &member.join("Cargo.toml"),
        &lesson_manifest(course, lesson, key, &tiers, whole_stack),
    )?;
    Ok(SourceState::Copied)
}

/// Makes `to` hold exactly the regular files of `from`, writing only what changed.
/// Symbolic links are skipped: a submission's source is its own files.
fn sync_tree(from: &Path, to: &Path) -> Result<()> {
    let mut wanted = BTreeSet::new();
    let mut total = 0u64;
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        total += entry.metadata()?.len();
        if total > MAX_SOURCE_BYTES {
            bail!(
                "src/ holds more than {} MiB; a lesson's source is a few files of code",
                MAX_SOURCE_BYTES >> 20
            );
        }
        let relative = entry.path().strip_prefix(from)?.to_path_buf();
        let bytes = std::fs::read(entry.path())
            .with_context(|| format!("could not read {}", entry.path().display()))?;
        write_bytes_if_changed(&to.join(&relative), &bytes)?;
        wanted.insert(relative);
    }
    if to.is_dir() {
        for entry in walkdir::WalkDir::new(to).contents_first(true) {
            let entry = entry?;
            let relative = entry.path().strip_prefix(to)?;
            if entry.file_type().is_file() && !wanted.contains(relative) {
                std::fs::remove_file(entry.path())?;
            } else if entry.file_type().is_dir() && entry.path() != to {
                // Empty leftovers only; fails harmlessly when not empty.
                let _ = std::fs::remove_dir(entry.path());
            }
        }
    }
    Ok(())
}

fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    write_bytes_if_changed(path, text.as_bytes())
}

fn write_bytes_if_changed(path: &Path, bytes: &[u8]) -> Result<()> {
    if std::fs::read(path).is_ok_and(|existing| existing == bytes) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, bytes)
        .with_context(|| format!("could not write {}", path.display()))
}

/// The scratch workspace's root manifest: the course's dependency versions and profiles,
/// with path dependencies made absolute.
fn workspace_manifest(course: &Course, members: &[String]) -> Result<String> {
    let path = course.root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("could not read {}", path.display()))?;
    let root: Table = toml::from_str(&text)
        .with_context(|| format!("{} is not valid TOML", path.display()))?;
    let mut dependencies = root
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(Value::as_table)
        .cloned()
        .unwrap_or_default();
    for (_, spec) in dependencies.iter_mut() {
        if let Some(relative) = spec.get("path").and_then(Value::as_str) {
            let absolute = course.root.join(relative).display().to_string();
            spec["path"] = Value::String(absolute);
        }
    }
    let mut workspace = Table::new();
    workspace.insert("resolver".into(), "3".into());
    workspace.insert(
        "members".into(),
        Value::Array(members.iter().map(|m| Value::from(m.as_str())).collect()),
    );
    workspace.insert("dependencies".into(), Value::Table(dependencies));
    let mut manifest = Table::new();
    manifest.insert("workspace".into(), Value::Table(workspace));
    if let Some(profile) = root.get("profile") {
        manifest.insert("profile".into(), profile.clone());
    }
    Ok(format!(
        "# Written by the checker for grading; every run rewrites it.\n{}",
        toml::to_string(&manifest)?
    ))
}

/// A lesson's manifest in the scratch workspace: the course's dependencies for the lesson,
/// earlier lessons as their reference solutions, and the graded suite as the one test.
fn lesson_manifest(
    course: &Course,
    lesson: &Lesson,
    key: &str,
    tiers: &[Tier],
    whole_stack: bool,
) -> String {
    let mut dependencies = String::from("course-common = { workspace = true }\n");
    for name in &lesson.dependencies {
        dependencies.push_str(&format!("{name} = {{ workspace = true }}\n"));
    }
    for id in &lesson.depends_on {
        let Ok(earlier) = course.manifest.lesson(id) else {
            continue;
        };
        let reference = course.solutions_dir().join(&earlier.id);
        // The reference solution where the course has it; else the submission's own
        // lesson, a member of this workspace.
        let (package, path) = if !whole_stack && reference.join("Cargo.toml").is_file() {
            (earlier.solution_crate(), reference.display().to_string())
        } else {
            (
                format!("{}-graded-{key}", earlier.crate_name),
                format!("../{}", earlier.id),
            )
        };
        dependencies.push_str(&format!(
            "{} = {{ package = \"{package}\", path = \"{path}\" }}\n",
            earlier.crate_name
        ));
    }
    format!(
        r#"# Written by the checker for grading; every run rewrites it.
[package]
name = "{name}-graded-{key}"
version = "0.0.0"
edition = "2024"
publish = false
build = false
autobins = false
autotests = false
autoexamples = false
autobenches = false

[lib]
name = "{lib}"
path = "src/lib.rs"
test = false
doctest = false

[dependencies]
{dependencies}
[dev-dependencies]
course-common = {{ workspace = true }}
course-harness = {{ workspace = true }}
insta = {{ workspace = true }}

{tests}
[lints.rust]
unsafe_code = "deny"
"#,
        name = lesson.crate_name,
        lib = lesson.crate_name.replace('-', "_"),
        tests = tiers
            .iter()
            .map(|tier| format!(
                "[[test]]\nname = \"{0}\"\npath = \"tests/{0}.rs\"\n",
                tier.stem()
            ))
            .collect::<String>(),
    )
}
