//! The scratch workspace a submission is graded in.
//!
//! Grading builds a fresh Cargo workspace under `target/checker/work/`, one member per
//! lesson, from three sources only:
//!
//! - the submission's `src/` folder (regular files only; nothing else of the submission);
//! - the course's suites for the lesson (`graded.rs`, and `heldout.rs` in the instructor's
//!   edition) with the reference values each reads (`graded.json`, `heldout.json`), kept
//!   in a folder beside the workspace (`<key>.suites/`), never inside a lesson's crate: the
//!   sandbox that compiles the learner's code does not show it, so `include_str!` cannot
//!   reach a suite or its values (see [`crate::compile`]);
//! - a manifest this module writes from the course's own `Cargo.toml` and `course.toml`,
//!   with `unsafe_code` denied; and since a `#![allow(unsafe_code)]` in the source would lift
//!   that (and `forbid` would break ndarray's `s!`, which allows it inside), a source
//!   whose tokens hold the keyword `unsafe` anywhere is refused before it is compiled.
//!
//! So a submission's `Cargo.toml`, `build.rs`, `.cargo/config.toml`, `rust-toolchain`,
//! tests or dependencies never reach the build. Cargo runs from inside the scratch
//! folder, so the configuration it discovers is the course's, not the submission's.
//!
//! Each lesson is a Cargo workspace of its own (its manifest has a `[workspace]` table),
//! so that building one lesson loads nothing of another: a lesson's sandbox shows only
//! the reference solutions that lesson builds on (see [`crate::compile`]).
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
use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use course_manifest::Lesson;
use std::collections::BTreeSet;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The largest `src/` folder the checker copies, in bytes.
pub(crate) const MAX_SOURCE_BYTES: u64 = 8 << 20;
/// The most files a `src/` folder may hold.
pub(crate) const MAX_SOURCE_FILES: usize = 1000;

/// A prepared scratch workspace, locked against other checkers for as long as it lives.
pub struct Scratch {
    /// The workspace folder.
    pub dir: PathBuf,
    /// The folder of the suites, beside the workspace.
    pub suites: PathBuf,
    /// The lessons that are members (their `src/` exists in the submission).
    pub members: Vec<String>,
    /// Whether each member builds on the course's reference solutions of its earlier
    /// lessons (`false` for the student edition and `--whole-stack`).
    pub on_references: bool,
    /// What its lessons are built from.
    pub origin: Origin,
    _lock: File,
}

/// What a lesson's scratch crate is built from: the learner's copied `src/`, or, for the
/// checker's own trusted builds, a source folder of the course used in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A submission, copied into the scratch workspace.
    Submission,
    /// The reference solutions (`solutions/<id>/src`): the judge.
    Reference,
    /// The stubs (`lessons/<id>/src`): `verify`'s judge, which proves that every call a
    /// suite makes into a lesson goes through the tape.
    Stub,
    /// An empty library: builds every dependency once, before any learner code is built.
    Empty,
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
    /// `src/` is the lesson's stub exactly as the course ships it (course.toml records its
    /// fingerprint): not started, and not built, since `checker verify` proves that every
    /// stub scores nothing.
    Stub,
}

impl Scratch {
    /// Prepares the scratch workspace for grading `lessons` from `submission` (a folder
    /// laid out like `lessons/`), returning it with the state of each lesson's source.
    pub fn prepare(
        course: &Course,
        lessons: &[&Lesson],
        submission: &Path,
        whole_stack: bool,
        recognise_stubs: bool,
    ) -> Result<(Self, Vec<SourceState>)> {
        let key = {
            let mut hasher = std::hash::DefaultHasher::new();
            submission.hash(&mut hasher);
            format!("{:016x}", hasher.finish())
        };
        Self::prepare_as(
            course,
            lessons,
            submission,
            whole_stack,
            recognise_stubs,
            Origin::Submission,
            &key,
        )
    }

    /// Prepares a trusted workspace of every lesson of the course from `origin` (not a
    /// submission), under the name `key`.
    pub fn prepare_trusted(course: &Course, origin: Origin, key: &str) -> Result<Self> {
        let lessons: Vec<&Lesson> = course.manifest.lessons.iter().collect();
        let (scratch, _) =
            Self::prepare_as(course, &lessons, &course.root, false, false, origin, key)?;
        Ok(scratch)
    }

    fn prepare_as(
        course: &Course,
        lessons: &[&Lesson],
        submission: &Path,
        whole_stack: bool,
        recognise_stubs: bool,
        origin: Origin,
        key: &str,
    ) -> Result<(Self, Vec<SourceState>)> {
        let work = course.scratch_dir().join("work");
        std::fs::create_dir_all(&work).with_context(|| {
            let path = work.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
        let lock = File::create(work.join(format!("{key}.lock")))?;
        lock.lock()
            .with_context(|| tr!(INSTRUCTOR, "scratch-could-not-lock"))?;
        let dir = work.join(key);
        let suites = work.join(format!("{key}.suites"));
        let place = Place {
            course,
            submission,
            scratch: &dir,
            suites: &suites,
            key,
            whole_stack,
            recognise_stubs,
            origin,
        };

        let mut states = Vec::new();
        let mut members = Vec::new();
        for lesson in lessons {
            let state = copy_lesson(&place, lesson, true)?;
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
        // (Only the lessons that will be tested: a lesson not built needs nothing.)
        let mut queue: Vec<&Lesson> = lessons
            .iter()
            .zip(&states)
            .filter(|(_, state)| **state == SourceState::Copied)
            .map(|(lesson, _)| *lesson)
            .collect();
        while let Some(lesson) = queue.pop() {
            for id in &lesson.depends_on {
                let earlier = course.manifest.lesson(id)?;
                let member = members.contains(id) || needed.iter().any(|l| &l.id == id);
                if !place.on_references(course) && !member {
                    needed.push(earlier);
                    queue.push(earlier);
                }
            }
        }
        for earlier in needed {
            if copy_lesson(&place, earlier, false)? == SourceState::Copied {
                members.push(earlier.id.clone());
            }
        }
        // Each lesson is a workspace of its own (see the module docs), so no root
        // manifest: remove one an older checker left.
        for stale in ["Cargo.toml", "Cargo.lock"] {
            let _ = std::fs::remove_file(dir.join(stale));
        }
        let course_lock = course.root.join("Cargo.lock");
        let lockfile = std::fs::read(&course_lock).unwrap_or_default();
        let modified =
            |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        for member in &members {
            let path = dir.join(member).join("Cargo.lock");
            // The course's lock file is the start; cargo then fits it to the lesson's
            // package names (`crate::compile`), and later runs keep that until the course's
            // lock file changes (a dependency of the shared crates changed).
            let stale = match (modified(&path), modified(&course_lock)) {
                (Some(fitted), Some(course)) => fitted < course,
                (None, _) => true,
                _ => false,
            };
            if !lockfile.is_empty() && stale {
                std::fs::write(&path, &lockfile).with_context(|| {
                    let path = path.display().to_string();
                    tr!(INSTRUCTOR, "file-could-not-write", path = path)
                })?;
            }
        }
        let on_references = place.on_references(course);
        Ok((
            Self {
                dir,
                suites,
                members,
                on_references,
                origin,
                _lock: lock,
            },
            states,
        ))
    }

    /// The folder of one lesson's member crate.
    pub fn lesson_dir(&self, lesson: &Lesson) -> PathBuf {
        self.dir.join(&lesson.id)
    }

    /// The folder of one lesson's suites.
    pub fn suites_dir(&self, lesson: &Lesson) -> PathBuf {
        self.suites.join(&lesson.id)
    }

    /// The package name of a lesson's scratch crate.
    pub fn package(&self, lesson: &Lesson) -> String {
        let key = self
            .dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{}-graded-{key}", lesson.crate_name)
    }
}

/// Where a workspace's lessons come from and go to.
struct Place<'a> {
    course: &'a Course,
    submission: &'a Path,
    scratch: &'a Path,
    suites: &'a Path,
    key: &'a str,
    whole_stack: bool,
    /// Whether an untouched stub is recognised (and left unbuilt).
    recognise_stubs: bool,
    origin: Origin,
}

impl Place<'_> {
    /// Whether lessons build on the reference solutions of their earlier lessons: in the
    /// instructor's edition (it has them), unless the learner asked for their whole stack.
    fn on_references(&self, course: &Course) -> bool {
        !self.whole_stack && course.has_references()
    }
}

/// Copies one lesson of the submission into the scratch workspace; `tested` adds its
/// suites (a lesson needed only as a dependency is built, not tested).
fn copy_lesson(place: &Place<'_>, lesson: &Lesson, tested: bool) -> Result<SourceState> {
    let course = place.course;
    let member = place.scratch.join(&lesson.id);
    let lib_path = match place.origin {
        Origin::Submission => {
            let from = place.submission.join(&lesson.id);
            if let Some(why) = symlink_refusal(place.submission, &lesson.id) {
                return Ok(SourceState::Unusable(why));
            }
            if !from.is_dir() {
                return Ok(SourceState::MissingFolder);
            }
            let src = from.join("src");
            if !src.join("lib.rs").is_file() {
                return Ok(SourceState::MissingLib);
            }
            match sync_tree(&src, &member.join("src")) {
                Ok(()) => {}
                Err(error) => return Ok(SourceState::Unusable(format!("{error:#}"))),
            }
            // The fingerprint of what was copied: exactly the files a build would see.
            if tested
                && place.recognise_stubs
                && lesson.stub.as_deref().is_some_and(|stub| {
                    course_manifest::stub_fingerprint(&member.join("src"))
                        .is_ok_and(|copied| copied == stub)
                })
            {
                return Ok(SourceState::Stub);
            }
            "src/lib.rs".to_owned()
        }
        Origin::Reference => course
            .solutions_dir()
            .join(&lesson.id)
            .join("src/lib.rs")
            .display()
            .to_string(),
        Origin::Stub => course
            .lessons_dir()
            .join(&lesson.id)
            .join("src/lib.rs")
            .display()
            .to_string(),
        Origin::Empty => {
            write_if_changed(&member.join("src/lib.rs"), "")?;
            "src/lib.rs".to_owned()
        }
    };
    let suites = if tested && place.origin != Origin::Empty {
        course.suites(lesson)?
    } else {
        Vec::new()
    };
    let suites_dir = place.suites.join(&lesson.id);
    std::fs::create_dir_all(&suites_dir)?;
    // Only the checker's own user may read the suites: code under test that runs as
    // another user (`--run-as`) cannot read the held-out tests from here.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(place.suites, std::fs::Permissions::from_mode(0o700))?;
    }
    let mut targets: Vec<(String, String)> = Vec::new();
    for tier in Tier::ALL {
        let path = suites_dir.join(format!("{}.rs", tier.stem()));
        // The files the suite reads (its reference values, its named mistakes' wrong
        // answers) go beside it, as in the course, where its `include_str!` finds them.
        let companions: Vec<(PathBuf, PathBuf)> = course
            .suite_companions(lesson, tier)
            .into_iter()
            .map(|companion| {
                let name = companion.file_name().map(ToOwned::to_owned);
                (suites_dir.join(name.unwrap_or_default()), companion)
            })
            .collect();
        match suites.iter().find(|(t, _)| *t == tier) {
            Some((_, source)) => {
                write_if_changed(&path, source)?;
                targets.push((tier.stem().to_owned(), path.display().to_string()));
                for (copy, companion) in &companions {
                    if companion.is_file() {
                        let bytes = std::fs::read(companion).with_context(|| {
                            format!("could not read {}", companion.display())
                        })?;
                        write_bytes_if_changed(copy, &bytes)?;
                    } else if copy.exists() {
                        std::fs::remove_file(copy)?;
                    }
                }
            }
            None => {
                let stale =
                    std::iter::once(&path).chain(companions.iter().map(|(copy, _)| copy));
                for stale in stale {
                    if stale.exists() {
                        std::fs::remove_file(stale)?;
                    }
                }
            }
        }
    }
    if !suites.is_empty() {
        // The suites' messages in every language, which they `include_str!`, and the
        // modules they share.
        copy_if_changed(&course.suite_locales(lesson), &suites_dir.join("locales"))?;
        for module in course.suite_modules(lesson) {
            let bytes = std::fs::read(&module)
                .with_context(|| format!("could not read {}", module.display()))?;
            let name = module
                .file_name()
                .map(ToOwned::to_owned)
                .unwrap_or_default();
            write_bytes_if_changed(&suites_dir.join(name), &bytes)?;
        }
    }
    if place.origin == Origin::Empty {
        // Builds the suites' dependencies too: an empty test target that links them.
        let path = suites_dir.join("warm.rs");
        write_if_changed(&path, "use course_harness as _;\n")?;
        targets.push(("warm".to_owned(), path.display().to_string()));
    }
    write_if_changed(
        &member.join("Cargo.toml"),
        &format!(
            "{}\n{}",
            lesson_manifest(place, lesson, &lib_path, &targets),
            workspace_tables(course)?
        ),
    )?;
    Ok(SourceState::Copied)
}

/// Why a lesson folder or its `src/` that is a symbolic link is refused, if it is one.
///
/// A submission's code is its own files: a link could point at the course's solutions
/// (and committed links survive `git clone`).
fn symlink_refusal(submission: &Path, id: &str) -> Option<String> {
    for relative in [
        id.to_owned(),
        format!("{id}/src"),
        format!("{id}/src/lib.rs"),
    ] {
        let path = submission.join(&relative);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Some(tr!(INSTRUCTOR, "scratch-symlink", path = relative));
        }
    }
    None
}

/// Makes `to` hold exactly the regular files of `from`, writing only what changed.
/// Symbolic links are skipped: a submission's source is its own files.
fn sync_tree(from: &Path, to: &Path) -> Result<()> {
    let mut wanted = BTreeSet::new();
    let mut total = 0u64;
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry?;
        // Every name under src/, folders' too, before anything else: rustc writes a
        // path with a line break into its record of the files it read unescaped, and a
        // line that then starts with `#` reads as a comment (see `odd_name`).
        if let Some(name) = odd_name(entry.path().strip_prefix(from)?) {
            bail!(tr!(INSTRUCTOR, "scratch-odd-name", file = name));
        }
        if !entry.file_type().is_file() {
            continue;
        }
        if wanted.len() >= MAX_SOURCE_FILES {
            bail!(tr!(
                INSTRUCTOR,
                "scratch-too-many-files",
                count = MAX_SOURCE_FILES
            ));
        }
        total += entry.metadata()?.len();
        if total > MAX_SOURCE_BYTES {
            bail!(tr!(
                INSTRUCTOR,
                "scratch-too-large",
                mib = MAX_SOURCE_BYTES >> 20
            ));
        }
        let relative = entry.path().strip_prefix(from)?.to_path_buf();
        let bytes = std::fs::read(entry.path()).with_context(|| {
            let path = entry.path().display().to_string();
            tr!(INSTRUCTOR, "file-could-not-read", path = path)
        })?;
        if let Some(why) = unsafe_refusal(&relative, &bytes) {
            bail!("{why}");
        }
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

/// `relative` (a path under src/), printably, if one of its names holds anything but
/// letters, digits, spaces, `_`, `-` and `.`. The compiler's record of what it read is
/// one path per line, spaces escaped: a line break, a `#` or a `:` in a name could make a
/// file read from outside src/ look like another, or like a comment.
fn odd_name(relative: &Path) -> Option<String> {
    let plain = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.');
    relative
        .components()
        .any(|c| {
            !c.as_os_str()
                .to_str()
                .is_some_and(|name| name.chars().all(plain))
        })
        .then(|| format!("{:?}", relative.to_string_lossy()))
}

/// Why a source file is refused for using `unsafe`, if it does: the keyword anywhere in
/// its tokens (comments and strings do not count), macro bodies included.
fn unsafe_refusal(relative: &Path, bytes: &[u8]) -> Option<String> {
    if relative.extension().is_none_or(|ext| ext != "rs") {
        return None;
    }
    rust_refusal(relative, bytes)
}

/// Why a file the compiler read for a learner's library is refused, whatever its name
/// (`include!("payload.txt")` compiles a file of any name): the keyword `unsafe` in its
/// tokens. A file that is not Rust cannot have been compiled as code, and passes.
pub fn included_refusal(relative: &Path, bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    text.parse::<proc_macro2::TokenStream>().ok()?;
    rust_refusal(relative, bytes)
}

/// [`unsafe_refusal`] of a file known to be Rust source.
fn rust_refusal(relative: &Path, bytes: &[u8]) -> Option<String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        let file = relative.display().to_string();
        return Some(tr!(INSTRUCTOR, "scratch-not-utf8", file = file));
    };
    let tokens: proc_macro2::TokenStream = match text.parse() {
        Ok(tokens) => tokens,
        Err(error) => {
            return Some(tr!(
                INSTRUCTOR,
                "scratch-not-rust",
                file = relative.display().to_string(),
                error = error.to_string()
            ));
        }
    };
    fn find_unsafe(tokens: proc_macro2::TokenStream) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(ident) => ident == "unsafe",
            proc_macro2::TokenTree::Group(group) => find_unsafe(group.stream()),
            _ => false,
        })
    }
    find_unsafe(tokens).then(|| {
        let file = relative.display().to_string();
        tr!(INSTRUCTOR, "scratch-unsafe", file = file)
    })
}

/// Copies every file under `from` to the same place under `to`, writing only what changed
/// (so that cargo does not rebuild what it need not).
fn copy_if_changed(from: &Path, to: &Path) -> Result<()> {
    for entry in crate::files::regular_files(from) {
        let entry = entry?;
        let bytes = std::fs::read(entry.path()).with_context(|| {
            let path = entry.path().display().to_string();
            tr!(INSTRUCTOR, "file-could-not-read", path = path)
        })?;
        write_bytes_if_changed(&to.join(entry.path().strip_prefix(from)?), &bytes)?;
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
    std::fs::write(path, bytes).with_context(|| {
        let path = path.display().to_string();
        tr!(INSTRUCTOR, "file-could-not-write", path = path)
    })
}

/// The `[workspace]` and `[profile]` tables of every lesson's manifest: the course's
/// dependency versions and profiles, with path dependencies made absolute.
fn workspace_tables(course: &Course) -> Result<String> {
    let path = course.root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).with_context(|| {
        let path = path.display().to_string();
        tr!(INSTRUCTOR, "file-could-not-read", path = path)
    })?;
    let root: Table = toml::from_str(&text).with_context(|| {
        let path = path.display().to_string();
        tr!(INSTRUCTOR, "file-not-toml", path = path)
    })?;
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
    workspace.insert("dependencies".into(), Value::Table(dependencies));
    let mut manifest = Table::new();
    manifest.insert("workspace".into(), Value::Table(workspace));
    if let Some(profile) = root.get("profile") {
        manifest.insert("profile".into(), profile.clone());
    }
    Ok(toml::to_string(&manifest)?)
}

/// A lesson's manifest in the scratch workspace: the course's dependencies for the lesson,
/// earlier lessons as their reference solutions (or the workspace's own members), the
/// library at `lib_path`, and the suites as its test targets.
fn lesson_manifest(
    place: &Place<'_>,
    lesson: &Lesson,
    lib_path: &str,
    targets: &[(String, String)],
) -> String {
    let course = place.course;
    // The harness is a dev-dependency: the suites link it, the learner's library cannot
    // name it (it holds the tape and the checks). It enables no
    // feature of a crate the library uses, so the library's build and the suites' resolve
    // the same features, and the suites' build finds the library fresh (`compile`
    // refuses to grade a library built again while the suites are visible).
    let mut dependencies = String::from("course-common = { workspace = true }\n");
    for name in &lesson.dependencies {
        dependencies.push_str(&format!("{name} = {{ workspace = true }}\n"));
    }
    for id in &lesson.depends_on {
        let Ok(earlier) = course.manifest.lesson(id) else {
            continue;
        };
        let reference = course.solutions_dir().join(&earlier.id);
        // The reference solution where the course has it; else the workspace's own
        // lesson (the submission's, or the stub's for verify's judge).
        let (package, path) = if place.on_references(course) {
            (earlier.solution_crate(), reference.display().to_string())
        } else {
            (
                format!("{}-graded-{}", earlier.crate_name, place.key),
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
path = "{lib_path}"
test = false
doctest = false

[dependencies]
{dependencies}
[dev-dependencies]
course-harness = {{ workspace = true }}

# What only the judge's build compiles in: the held-out tier's checks and the values they
# compare with (`#[cfg(feature = "judge")]` in a suite). The learner's build leaves them
# out of the executable that runs the learner's code.
[features]
judge = []

{tests}
[lints.rust]
unsafe_code = "deny"
# The suites' `builders` feature is the solutions' (the named mistakes' builders); here the
# suites read the recorded wrong answers beside them.
unexpected_cfgs = {{ level = "warn", check-cfg = ['cfg(feature, values("builders"))'] }}
"#,
        name = lesson.crate_name,
        key = place.key,
        lib = lesson.crate_name.replace('-', "_"),
        tests = targets
            .iter()
            .map(|(name, path)| format!(
                "[[test]]\nname = \"{name}\"\npath = \"{path}\"\n"
            ))
            .collect::<String>(),
    )
}
