//! Building a scratch workspace, lesson by lesson, each build in its own sandbox.
//!
//! Compiling is where a submission can first act: `include_str!`, `include_bytes!` and
//! `#[path]` read any file the compiler can read, `env!` reads its environment, and const
//! evaluation can loop or allocate. So each lesson of a submission is built by cargo in a
//! bubblewrap of its own (see [`crate::sandbox`]) that shows only the toolchain, the
//! dependency sources, the course's shared crates, the scratch workspace and its build
//! folder, and the reference solutions *that lesson* builds on (lesson 03 sees lesson 02's,
//! lesson 02 sees none); with a cleared environment, no network, a memory limit and a
//! time limit.
//!
//! A lesson is built in two steps. First its library alone, with no suite in sight, so no
//! learner code can read a test; then its test targets, in a sandbox that adds the suites:
//! that step compiles only the course's suites against the library already built, so no
//! learner code is compiled while the suites are visible. Compiler messages that quote the
//! held-out suite are replaced by a summary: the learner does not have that file.
//!
//! The shared build folder gets every dependency from a trusted warm-up first ([`warm`]):
//! the same workspace with empty libraries, built outside any sandbox with no learner
//! code, so that a learner's build compiles only the learner's crate and the suites.
//!
//! Cargo lets one build at a time use a build folder, and makes the others wait. A class is
//! graded by several workers into the one shared folder, so each build step first takes its
//! turn ([`BuildTurn`]) and only then starts its clock: a submission whose build runs to the
//! time limit (a const loop) delays its classmates' builds, but never costs them their own.

use crate::course::{Course, Tier};
use crate::messages::INSTRUCTOR;
use crate::process::{self, Limits};
use crate::sandbox::{Bind, Sandbox};
use crate::scratch::Scratch;
use anyhow::{Context, Result};
use course_i18n::tr;
use course_manifest::Lesson;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The course's crates every lesson and suite builds on (the harness and what it uses),
/// by folder: part of what a judge is built from, and visible to a sandboxed build.
const SHARED_CRATES: &[&str] = &["common", "i18n", "harness"];

/// What building the scratch workspace gave, per lesson folder.
#[derive(Debug, Default)]
pub struct Build {
    /// The test executables of each lesson that compiled, by lesson folder and test
    /// target name (`graded`, `heldout`).
    pub executables: HashMap<(PathBuf, String), PathBuf>,
    /// The rendered compiler errors of each lesson that did not, by lesson folder.
    pub errors: HashMap<PathBuf, String>,
    /// Cargo's own complaint, by lesson folder, when its build failed without a compiler
    /// error to show (a dependency that could not be found, a timeout).
    pub failures: HashMap<PathBuf, String>,
}

/// The limits of one build step.
#[derive(Debug, Clone, Copy)]
pub struct BuildLimits {
    /// Wall-clock time of one step (the library, or the tests).
    pub timeout: Duration,
    /// Address space of each process of the build, in bytes.
    pub memory_bytes: u64,
    /// An instructor's grading, of code that may be hostile: a library that failed before
    /// the compiler recorded what it read has its messages reduced to their locations
    /// (see [`unrecorded_failure`]). A learner grading their own code sees them whole.
    pub hostile: bool,
}

#[derive(Deserialize)]
struct CargoMessage {
    reason: String,
    manifest_path: Option<PathBuf>,
    executable: Option<PathBuf>,
    profile: Option<Profile>,
    target: Option<Target>,
    message: Option<Diagnostic>,
    success: Option<bool>,
    fresh: Option<bool>,
    #[serde(default)]
    filenames: Vec<PathBuf>,
}

#[derive(Deserialize)]
struct Target {
    name: String,
    #[serde(default)]
    kind: Vec<String>,
}

#[derive(Deserialize)]
struct Profile {
    test: bool,
}

#[derive(Deserialize)]
struct Diagnostic {
    level: String,
    rendered: Option<String>,
}

/// The toolchain the checker builds with: the one that runs it.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// `cargo`, called directly (not through a rustup proxy, which needs rustup's home).
    pub cargo: PathBuf,
    /// `rustc`, beside it.
    pub rustc: PathBuf,
    /// The toolchain's folder (`rustc --print sysroot`), shown read-only to builds.
    pub sysroot: PathBuf,
    /// Cargo's home, whose `registry/` holds the dependency sources.
    pub cargo_home: PathBuf,
}

impl Toolchain {
    /// Finds the toolchain: cargo from `CARGO` (set when the checker runs through cargo)
    /// or the path, and the sysroot of its rustc.
    pub fn locate() -> Result<Self> {
        // Run through cargo, the toolchain is the folder above the cargo that runs us;
        // otherwise rustc says where it is.
        let beside_cargo = std::env::var_os("CARGO")
            .map(PathBuf::from)
            .and_then(|cargo| Some(cargo.parent()?.parent()?.to_path_buf()))
            .filter(|root| root.join("bin").join("rustc").is_file());
        let sysroot = match beside_cargo {
            Some(root) => root,
            None => {
                let output = Command::new("rustc")
                    .args(["--print", "sysroot"])
                    .output()
                    .with_context(|| tr!(INSTRUCTOR, "compile-no-rustc"))?;
                PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
            }
        };
        let bin = sysroot.join("bin");
        let cargo = match std::env::var_os("CARGO") {
            Some(cargo) => PathBuf::from(cargo),
            None => bin.join("cargo"),
        };
        let cargo_home = match std::env::var_os("CARGO_HOME") {
            Some(home) => PathBuf::from(home),
            None => std::env::home_dir()
                .with_context(|| tr!(INSTRUCTOR, "compile-no-home"))?
                .join(".cargo"),
        };
        Ok(Self {
            rustc: bin.join("rustc"),
            cargo,
            sysroot,
            cargo_home,
        })
    }

    /// The target this toolchain builds for by default (`rustc -vV`'s `host:`), the one
    /// grading builds for.
    fn host(&self) -> Result<String> {
        let output = Command::new(&self.rustc)
            .arg("-vV")
            .output()
            .with_context(|| tr!(INSTRUCTOR, "compile-no-rustc"))?;
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .find_map(|line| line.strip_prefix("host: "))
            .map(str::to_owned)
            .with_context(|| tr!(INSTRUCTOR, "compile-no-rustc"))
    }

    /// A cargo command with the environment grading builds with, and nothing else.
    fn cargo(&self, workspace: &Path, target_dir: &Path) -> Command {
        let mut command = Command::new(&self.cargo);
        let path = std::env::join_paths([
            self.sysroot.join("bin"),
            "/usr/bin".into(),
            "/bin".into(),
        ])
        .unwrap_or_default();
        command
            .current_dir(workspace)
            .env_clear()
            .env("PATH", path)
            .env("HOME", "/tmp")
            .env("CARGO_HOME", &self.cargo_home)
            .env("RUSTC", &self.rustc)
            .env("CARGO_TARGET_DIR", target_dir)
            .env("CARGO_TERM_COLOR", "never")
            .env("CARGO_NET_OFFLINE", "true");
        command
    }
}

/// Makes sure cargo's download cache holds every crate of the course's lock file that this
/// machine builds, downloading what is missing: the builds that follow (the judge, the
/// warm-up, the learner's sandboxed builds) run offline and find them there.
///
/// A course that was only run (`cargo run -p checker`) has downloaded the checker's crates,
/// not the lessons': the first grade needs the rest. This runs outside any sandbox and
/// runs no learner code; it checks offline first (a tenth of a second when nothing is
/// missing), goes online only when something is, and reports each crate it downloads
/// through `downloaded` (how many so far). Without a network, it says what to do.
pub fn fetch(
    course: &Course,
    toolchain: &Toolchain,
    downloaded: &dyn Fn(usize),
) -> Result<()> {
    let host = toolchain.host()?;
    let fetch = |online: bool| {
        let mut command =
            toolchain.cargo(&course.root, &course.scratch_dir().join("fetch"));
        command.args(["fetch", "--locked", "--target", &host]);
        if online {
            command.env_remove("CARGO_NET_OFFLINE");
        } else {
            command.arg("--offline");
        }
        command
    };
    let cached =
        process::run(fetch(false), b"", unlimited(Duration::from_secs(120)), None)
            .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
    if cached.status.is_some_and(|status| status.success()) {
        return Ok(());
    }
    // Online, reading cargo's lines as they come: one `Downloaded <crate>` per crate.
    let mut command = fetch(true);
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = command
        .spawn()
        .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
    let mut errors = String::new();
    let mut count = 0;
    if let Some(stderr) = child.stderr.take() {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let line_start = line.trim_start();
            if line_start.starts_with("Downloaded ") {
                count += 1;
                downloaded(count);
            } else if ![
                "Downloading ",
                "Updating ",
                "warning: spurious network error",
            ]
            .iter()
            .any(|progress| line_start.starts_with(progress))
            {
                errors.push_str(&line);
                errors.push('\n');
            }
        }
    }
    let status = child
        .wait()
        .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
    if !status.success() {
        anyhow::bail!(tr!(
            INSTRUCTOR,
            "compile-fetch-failed",
            course = course.root.display().to_string(),
            errors = errors.trim_end()
        ));
    }
    Ok(())
}

/// A build's turn at a build folder: held while cargo builds into it, so that no other
/// build of this or another checker waits for cargo's own lock on the folder with its time
/// limit running. Workers of one process and other processes take turns alike (an advisory
/// lock on a file in the folder; each open of it is a separate holder).
struct BuildTurn {
    /// Held, never read: the lock lasts as long as the file is open.
    _held: std::fs::File,
}

impl BuildTurn {
    /// Waits for the turn at `target_dir`.
    fn take(target_dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(target_dir)?;
        let path = target_dir.join(".checker-build-turn.lock");
        let file = std::fs::File::create(&path).with_context(|| {
            let path = path.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
        file.lock()
            .with_context(|| tr!(INSTRUCTOR, "scratch-could-not-lock"))?;
        Ok(Self { _held: file })
    }
}

/// Builds every dependency of the lessons `only` names (their ids) into `target_dir`, from
/// the trusted workspace `scratch` (empty libraries): no learner code, no sandbox. Later
/// learner builds in the same folder then compile only their own crate and the suites.
/// Each lesson's warm-up is stamped on its own, so grading one lesson warms only its own
/// dependencies.
pub fn warm(
    course: &Course,
    toolchain: &Toolchain,
    scratch: &Scratch,
    target_dir: &Path,
    timeout: Duration,
    only: &[&str],
) -> Result<()> {
    let fingerprint = fingerprint_of(course, toolchain, scratch);
    for member in scratch
        .members
        .iter()
        .filter(|m| only.contains(&m.as_str()))
    {
        let stamp = Stamp::new(&fingerprint, scratch, target_dir, member);
        if stamp.read().is_some() {
            continue;
        }
        let dir = scratch.dir.join(member);
        lock(toolchain, &dir, target_dir)?;
        let mut command = toolchain.cargo(&dir, target_dir);
        command.args(["build", "--tests", "--offline", "--locked", "--quiet"]);
        let _turn = BuildTurn::take(target_dir)?;
        let finished = process::run(command, b"", unlimited(timeout), None)
            .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
        match finished.status {
            Some(status) if status.success() => {}
            Some(_) => anyhow::bail!(tr!(
                INSTRUCTOR,
                "compile-warm-failed",
                errors = finished.stderr_text()
            )),
            None => anyhow::bail!(tr!(
                INSTRUCTOR,
                "compile-warm-timeout",
                seconds = timeout.as_secs()
            )),
        }
        stamp.write(&Build::default())?;
    }
    Ok(())
}

/// Builds the lessons `only` names (their ids) of the trusted workspace `scratch` (the
/// judge: reference solutions and suites) into `target_dir`, outside any sandbox. Each
/// lesson is stamped on its own: grading lesson 01 builds lesson 01's judge, not six.
///
/// The judge is built with the suites' `judge` feature, which compiles in what only the
/// judge may hold: the held-out tier's checks and the values they compare with. The
/// learner's build of the same suites leaves them out, so the executable that runs the
/// learner's code holds no held-out answer to read (`scratch::lesson_manifest`).
pub fn build_trusted(
    course: &Course,
    toolchain: &Toolchain,
    scratch: &Scratch,
    target_dir: &Path,
    timeout: Duration,
    only: &[&str],
) -> Result<Build> {
    let fingerprint = fingerprint_of(course, toolchain, scratch);
    let mut build = Build::default();
    for member in scratch
        .members
        .iter()
        .filter(|m| only.contains(&m.as_str()))
    {
        let stamp = Stamp::new(&fingerprint, scratch, target_dir, member);
        if let Some(built) = stamp.read() {
            build.executables.extend(built.executables);
            continue;
        }
        let dir = scratch.dir.join(member);
        lock(toolchain, &dir, target_dir)?;
        let mut command = toolchain.cargo(&dir, target_dir);
        command.args([
            "build",
            "--tests",
            "--features",
            "judge",
            "--offline",
            "--locked",
            "--message-format=json",
        ]);
        let finished = process::run(command, b"", unlimited(timeout), None)
            .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
        let mut member_build = Build::default();
        let success = read_messages(&finished.stdout, &mut member_build);
        if !success && !member_build.errors.contains_key(&dir) {
            let why = if finished.timed_out() {
                tr!(INSTRUCTOR, "compile-timeout", seconds = timeout.as_secs())
            } else {
                finished.stderr_text()
            };
            member_build.failures.insert(dir, why);
        }
        if member_build.errors.is_empty() && member_build.failures.is_empty() {
            stamp.write(&member_build)?;
        }
        build.executables.extend(member_build.executables);
        build.errors.extend(member_build.errors);
        build.failures.extend(member_build.failures);
    }
    Ok(build)
}

/// What a trusted build (the judge, the warm-up) was last made from, kept in its build
/// folder: when nothing it is made from has changed since, the build is skipped, saving
/// a dozen cargo runs on every re-grade. Any change to the course's sources, the lock
/// file, the toolchain or the checker itself, or a deleted build folder, builds again.
struct Stamp {
    path: PathBuf,
    fingerprint: String,
}

/// What a trusted workspace is made from: its files' names, sizes and modification times.
/// The workspace's lock files are left out: [`lock`] fits them to the manifests and the
/// course's lock file, which are in, and fitting one lesson's must not unstamp another's.
fn fingerprint_of(course: &Course, toolchain: &Toolchain, scratch: &Scratch) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    let mut files: Vec<PathBuf> = Vec::new();
    // What the workspace is made from: the shared crates, its own manifests, and the
    // lessons' sources its origin takes, the suites among them (they are in solutions/;
    // a learner's edit to lessons/ must not rebuild the reference judge).
    let mut roots: Vec<PathBuf> = SHARED_CRATES
        .iter()
        .map(|name| course.root.join(name))
        .collect();
    roots.push(scratch.dir.clone());
    // The suites, wherever this edition keeps them.
    roots.extend(
        course
            .manifest
            .lessons
            .iter()
            .map(|lesson| course.suite_dir(lesson)),
    );
    match scratch.origin {
        crate::scratch::Origin::Stub => roots.push(course.root.join("lessons")),
        _ => roots.push(course.root.join("solutions")),
    }
    for root in roots {
        for entry in walkdir::WalkDir::new(root)
            .into_iter()
            .filter_entry(|e| e.file_name() != "target" && e.file_name() != "tests")
            .flatten()
        {
            let fitted_lock = entry.file_name() == "Cargo.lock"
                && entry.path().starts_with(&scratch.dir);
            if entry.file_type().is_file() && !fitted_lock {
                files.push(entry.into_path());
            }
        }
    }
    for file in ["Cargo.toml", "Cargo.lock", "course.toml"] {
        files.push(course.root.join(file));
    }
    files.push(toolchain.rustc.clone());
    files.extend(std::env::current_exe().ok());
    // A suite folder is under solutions/ too in the full repository: each file once.
    files.sort();
    files.dedup();
    for file in files {
        file.hash(&mut hasher);
        if let Ok(meta) = std::fs::metadata(&file) {
            meta.len().hash(&mut hasher);
            meta.modified().ok().hash(&mut hasher);
        }
    }
    format!("{:016x}", hasher.finish())
}

impl Stamp {
    /// The stamp of one lesson (`member`) of the trusted workspace `scratch`.
    fn new(
        fingerprint: &str,
        scratch: &Scratch,
        target_dir: &Path,
        member: &str,
    ) -> Self {
        let name = scratch
            .dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Self {
            path: target_dir.join(format!(".checker-{name}-{member}.stamp")),
            fingerprint: fingerprint.to_owned(),
        }
    }

    /// The build recorded when the stamp still matches, with every executable present.
    fn read(&self) -> Option<Build> {
        let text = std::fs::read_to_string(&self.path).ok()?;
        let mut lines = text.lines();
        if lines.next()? != self.fingerprint {
            return None;
        }
        let mut build = Build::default();
        for line in lines {
            let mut fields = line.split('\t');
            let (dir, name, executable) =
                (fields.next()?, fields.next()?, fields.next()?);
            if !Path::new(executable).is_file() {
                return None;
            }
            build
                .executables
                .insert((dir.into(), name.to_owned()), executable.into());
        }
        Some(build)
    }

    fn write(&self, build: &Build) -> Result<()> {
        let mut text = format!("{}\n", self.fingerprint);
        for ((dir, name), executable) in &build.executables {
            text.push_str(&format!(
                "{}\t{name}\t{}\n",
                dir.display(),
                executable.display()
            ));
        }
        std::fs::create_dir_all(self.path.parent().unwrap_or(Path::new(".")))?;
        std::fs::write(&self.path, text).with_context(|| {
            let path = self.path.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-write", path = path)
        })
    }
}

/// Brings the scratch workspace's lock file up to date (its package names are its own),
/// outside the sandbox and before it: this reads only the manifests the checker wrote and
/// compiles nothing, and the sandboxed build, which cannot write there, then finds the
/// lock file as it needs it (`--locked`).
fn lock(toolchain: &Toolchain, workspace: &Path, target_dir: &Path) -> Result<()> {
    // Fitted already when the lock file names the lesson's package (the course's own
    // never does) and is newer than the manifest it was fitted to.
    let modified = |file: &str| {
        std::fs::metadata(workspace.join(file))
            .and_then(|m| m.modified())
            .ok()
    };
    if let (Some(lock), Some(manifest)) = (modified("Cargo.lock"), modified("Cargo.toml"))
        && lock > manifest
        && std::fs::read_to_string(workspace.join("Cargo.lock"))
            .is_ok_and(|text| text.contains("-graded-"))
    {
        return Ok(());
    }
    let mut command = toolchain.cargo(workspace, target_dir);
    command.args(["update", "--offline", "--workspace", "--quiet"]);
    let finished = process::run(command, b"", unlimited(Duration::from_secs(120)), None)
        .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))?;
    match finished.status {
        Some(status) if status.success() => Ok(()),
        _ => anyhow::bail!(tr!(
            INSTRUCTOR,
            "compile-could-not-lock",
            workspace = workspace.display().to_string(),
            errors = finished.stderr_text()
        )),
    }
}

fn unlimited(timeout: Duration) -> Limits {
    Limits {
        timeout,
        memory_bytes: None,
        output_bytes: 64 << 20,
        account: None,
        end_account: false,
        file_bytes: None,
        cpu_seconds: None,
    }
}

/// Builds each lesson of a submission's scratch workspace in its own sandbox, library
/// first, then tests (see the module docs).
pub fn build_lessons(
    course: &Course,
    toolchain: &Toolchain,
    sandbox: &Sandbox,
    scratch: &Scratch,
    lessons: &[&Lesson],
    target_dir: &Path,
    limits: BuildLimits,
) -> Result<Build> {
    let mut build = Build::default();
    std::fs::create_dir_all(target_dir)?;
    for lesson in lessons {
        let dir = scratch.lesson_dir(lesson);
        if !scratch.members.contains(&lesson.id) {
            continue;
        }
        lock(toolchain, &dir, target_dir)?;
        let package = scratch.package(lesson);
        let mut binds = vec![
            Bind::ReadOnly(toolchain.sysroot.clone()),
            Bind::Tmpfs(toolchain.cargo_home.clone()),
            Bind::ReadOnly(toolchain.cargo_home.join("registry")),
            // The course's shared crates, and the manifest they inherit settings from.
            Bind::ReadOnly(course.root.join("Cargo.toml")),
            Bind::ReadOnly(scratch.dir.clone()),
            Bind::ReadWrite(target_dir.to_path_buf()),
        ];
        binds.extend(
            SHARED_CRATES
                .iter()
                .map(|name| Bind::ReadOnly(course.root.join(name))),
        );
        if !toolchain.cargo.starts_with(&toolchain.sysroot) {
            binds.push(Bind::ReadOnly(toolchain.cargo.clone()));
        }
        if scratch.on_references && !lesson.depends_on.is_empty() {
            // The reference solutions this lesson builds on, their manifests and sources
            // only: nothing else of solutions/ (their suites hold the held-out tests).
            for id in &lesson.depends_on {
                let solution = course.solutions_dir().join(id);
                binds.push(Bind::ReadOnly(solution.join("Cargo.toml")));
                binds.push(Bind::ReadOnly(solution.join("src")));
            }
        }
        let step = |binds: &[Bind], targets: &str| -> Result<process::Finished> {
            let mut command = toolchain.cargo(&dir, target_dir);
            command.args([
                "build",
                targets,
                "--keep-going",
                "-p",
                &package,
                "--offline",
                "--locked",
                "--message-format=json",
            ]);
            let wrapped = sandbox.wrap(command, binds, true)?;
            let step_limits = Limits {
                timeout: limits.timeout,
                memory_bytes: Some(limits.memory_bytes),
                output_bytes: 64 << 20,
                account: None,
                end_account: false,
                file_bytes: Some(1 << 30),
                cpu_seconds: None,
            };
            // The clock starts once the folder is this build's alone.
            let _turn = BuildTurn::take(target_dir)?;
            process::run(wrapped, b"", step_limits, None)
                .with_context(|| tr!(INSTRUCTOR, "compile-could-not-run-cargo"))
        };

        // First the library alone, with no suite visible. The scratch manifest's only
        // dev-dependency, the harness, enables no feature of the library's dependencies,
        // so cargo resolves the same features here as for the tests, and the second step
        // finds the library fresh.
        // A record rustc writes in this step is newer than this: one left by an earlier
        // grading of the same submission says nothing about what this build read.
        let started = std::time::SystemTime::now();
        let library = step(&binds, "--lib")?;
        let mut lesson_build = Build::default();
        let Some(dep_info) =
            read_library_messages(&library.stdout, &dir, &mut lesson_build)
        else {
            // rustc records what it read before it type-checks, so a library that did not
            // compile has a record too: a compiler error must not show a file it had no
            // business reading (`[(); BYTE as usize]` prints a byte of it).
            let lib_name = lesson.crate_name.replace('-', "_");
            let records: Vec<PathBuf> = failed_dep_infos(target_dir, &package, &lib_name)
                .into_iter()
                .filter(|record| {
                    std::fs::metadata(record)
                        .and_then(|m| m.modified())
                        .is_ok_and(|modified| modified >= started)
                })
                .collect();
            if let Some(why) = records
                .iter()
                .find_map(|dep_info| foreign_inputs(dep_info, &dir))
            {
                build.failures.insert(dir.clone(), why);
                continue;
            }
            if limits.hostile
                && records.is_empty()
                && let Some(errors) = lesson_build.errors.remove(&dir)
            {
                build
                    .failures
                    .insert(dir.clone(), unrecorded_failure(&errors, &lesson.crate_name));
                continue;
            }
            let what = tr!(INSTRUCTOR, "compile-step-library");
            note_failure(&mut build, &dir, lesson_build, &library, limits, &what);
            continue;
        };
        // What the compiler read for the library, from its own record: only the lesson's
        // `src/`, and nothing there that holds `unsafe`, whatever its name. Refused before
        // anything of it runs.
        if let Some(why) = foreign_inputs(&dep_info, &dir) {
            build.failures.insert(dir.clone(), why);
            continue;
        }
        binds.push(Bind::ReadOnly(scratch.suites_dir(lesson)));
        let tests = step(&binds, "--tests")?;
        if library_rebuilt(&tests.stdout, &dir) {
            // The second step must only compile the suites: the learner's library was
            // built in the first, where no suite was visible. Never grade otherwise.
            build
                .failures
                .insert(dir.clone(), tr!(INSTRUCTOR, "compile-library-rebuilt"));
            continue;
        }
        let mut tests_build = Build::default();
        let tests_ok = read_messages(&tests.stdout, &mut tests_build);
        if let Some(errors) = tests_build.errors.remove(&dir) {
            build.errors.insert(dir.clone(), errors);
        }
        build.executables.extend(tests_build.executables);
        if !tests_ok
            && !build.errors.contains_key(&dir)
            && !build.executables.keys().any(|(d, _)| d == &dir)
        {
            let what = tr!(INSTRUCTOR, "compile-step-tests");
            note_failure(&mut build, &dir, Build::default(), &tests, limits, &what);
        }
    }
    Ok(build)
}

/// Reads the first step's messages into `build`, keeping only the library's (the suites'
/// targets fail there by design); the compiler's record of the library's inputs (its
/// dep-info file) when the library was built.
fn read_library_messages(
    stdout: &[u8],
    dir: &Path,
    build: &mut Build,
) -> Option<PathBuf> {
    let mut built = None;
    let is_lib = |target: &Option<Target>| {
        target
            .as_ref()
            .is_some_and(|t| t.kind.iter().any(|k| k == "lib"))
    };
    for line in String::from_utf8_lossy(stdout).lines() {
        let Ok(message) = serde_json::from_str::<CargoMessage>(line) else {
            continue;
        };
        let here = message.manifest_path.as_deref().and_then(Path::parent) == Some(dir);
        match message.reason.as_str() {
            "compiler-artifact" if here && is_lib(&message.target) => {
                // `deps/lib<name>-<hash>.rmeta` has its inputs in `deps/<name>-<hash>.d`,
                // a file of this lesson's build alone (the copy cargo puts beside
                // `deps/`, without the hash, is shared by every submission built here).
                built = message.filenames.iter().find_map(|artifact| {
                    let in_deps = artifact.parent()?.file_name()? == "deps";
                    let stem = artifact.file_stem()?.to_str()?;
                    let name = stem.strip_prefix("lib")?;
                    (in_deps && name.contains('-'))
                        .then(|| artifact.with_file_name(format!("{name}.d")))
                });
            }
            "compiler-message" if here && is_lib(&message.target) => {
                if let Some(diagnostic) = message.message
                    && diagnostic.level == "error"
                {
                    build
                        .errors
                        .entry(dir.to_path_buf())
                        .or_default()
                        .push_str(&diagnostic.rendered.unwrap_or_default());
                }
            }
            _ => {}
        }
    }
    built.filter(|_| !build.errors.contains_key(dir))
}

/// Why a lesson's library is refused for what the compiler read to build it, if it is:
/// every input rustc records in `dep_info` must be a file of the lesson's own `src/` in the
/// scratch workspace `dir`, and no such file may hold `unsafe`
/// ([`crate::scratch::included_refusal`]). A missing record refuses too: then nothing
/// says what was compiled.
fn foreign_inputs(dep_info: &Path, dir: &Path) -> Option<String> {
    let refused =
        |file: &str| Some(tr!(INSTRUCTOR, "compile-foreign-input", file = file));
    let Ok(text) = std::fs::read_to_string(dep_info) else {
        return refused(&dep_info.display().to_string());
    };
    let src = dir.join("src").canonicalize().ok()?;
    for input in dep_info_inputs(&text) {
        let path = if input.is_absolute() {
            input.clone()
        } else {
            dir.join(&input)
        };
        let Ok(path) = path.canonicalize() else {
            return refused(&input.display().to_string());
        };
        let Ok(relative) = path.strip_prefix(&src) else {
            return refused(&input.display().to_string());
        };
        let bytes = std::fs::read(&path).unwrap_or_default();
        if let Some(why) = crate::scratch::included_refusal(relative, &bytes) {
            return Some(why);
        }
    }
    None
}

/// What to say of a library whose build failed before rustc recorded the files it read (a
/// syntax error stops it there, and so does a fatal error in macro expansion): its
/// messages' locations only. Their text could quote any file the compiler could open
/// (`compile_error!(include_str!(…))` before a fatal error), and nothing says which files
/// it opened.
fn unrecorded_failure(errors: &str, crate_name: &str) -> String {
    let mut locations: Vec<&str> = errors
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("--> "))
        .map(str::trim)
        .collect();
    locations.dedup();
    locations.truncate(5);
    let locations = if locations.is_empty() {
        "?".to_owned()
    } else {
        locations.join(", ")
    };
    tr!(
        INSTRUCTOR,
        "compile-unrecorded",
        locations = locations,
        krate = crate_name
    )
}

/// The dep-info files of package `package`'s library `lib_name` in `target_dir`, found
/// without cargo's messages (a build that failed gives none): cargo keeps each unit's
/// fingerprint in `.fingerprint/<package>-<hash>/` and its dep-info in
/// `deps/<lib_name>-<hash>.d`, the same hash. Package names are per submission, so these
/// are this submission's alone.
fn failed_dep_infos(target_dir: &Path, package: &str, lib_name: &str) -> Vec<PathBuf> {
    let debug = target_dir.join("debug");
    let prefix = format!("{package}-");
    let Ok(entries) = std::fs::read_dir(debug.join(".fingerprint")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let hash = name.strip_prefix(&prefix)?;
            // `<package>-<hash>` exactly: a hash has no `-`, so a longer package name
            // that starts with this one is not taken for it.
            (!hash.contains('-'))
                .then(|| debug.join("deps").join(format!("{lib_name}-{hash}.d")))
        })
        .filter(|path| path.is_file())
        .collect()
}

/// The input files of a Makefile-style dep-info file as rustc writes it (`target: a b`,
/// spaces in names escaped as `\ `), every rule's, without duplicates.
fn dep_info_inputs(text: &str) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = Vec::new();
    for line in text.lines().filter(|line| !line.starts_with('#')) {
        // The target ends at the first `: ` (or a final `:`) not escaped.
        let Some(colon) = line.match_indices(':').map(|(at, _)| at).find(|&at| {
            !line[..at].ends_with('\\') && line[at + 1..].starts_with([' ', '\t'])
                || at + 1 == line.len()
        }) else {
            continue;
        };
        let mut current = String::new();
        let mut chars = line[colon + 1..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    current.push(' ');
                    chars.next();
                }
                ' ' | '\t' => {
                    if !current.is_empty() {
                        inputs.push(PathBuf::from(std::mem::take(&mut current)));
                    }
                }
                c => current.push(c),
            }
        }
        if !current.is_empty() {
            inputs.push(PathBuf::from(current));
        }
    }
    let mut seen = std::collections::HashSet::new();
    inputs.retain(|input| seen.insert(input.clone()));
    inputs
}

/// Whether cargo's messages show the library of the lesson in `dir` compiled (not fresh).
fn library_rebuilt(stdout: &[u8], dir: &Path) -> bool {
    String::from_utf8_lossy(stdout).lines().any(|line| {
        serde_json::from_str::<CargoMessage>(line).is_ok_and(|message| {
            message.reason == "compiler-artifact"
                && message.fresh == Some(false)
                && message.manifest_path.as_deref().and_then(Path::parent) == Some(dir)
                && message
                    .target
                    .is_some_and(|t| t.kind.iter().any(|k| k == "lib"))
        })
    })
}

/// Records why a lesson's build step failed: its compiler errors, or cargo's complaint;
/// `what` names the step (the library, the tests) in the checker's language.
fn note_failure(
    build: &mut Build,
    dir: &Path,
    mut step: Build,
    finished: &process::Finished,
    limits: BuildLimits,
    what: &str,
) {
    if finished.timed_out() {
        build.failures.insert(
            dir.to_path_buf(),
            tr!(
                INSTRUCTOR,
                "compile-step-timeout",
                what = what,
                seconds = limits.timeout.as_secs()
            ),
        );
    } else if let Some(errors) = step.errors.remove(dir) {
        build.errors.insert(dir.to_path_buf(), errors);
    } else {
        let stderr = finished.stderr_text();
        let memory =
            stderr.contains("memory allocation of") || stderr.contains("out of memory");
        build.failures.insert(
            dir.to_path_buf(),
            if memory {
                tr!(
                    INSTRUCTOR,
                    "compile-out-of-memory",
                    mib = limits.memory_bytes >> 20
                )
            } else {
                stderr
            },
        );
    }
}

/// Reads cargo's JSON messages into `build`; whether the build finished successfully.
fn read_messages(stdout: &[u8], build: &mut Build) -> bool {
    let mut success = false;
    for line in String::from_utf8_lossy(stdout).lines() {
        let Ok(message) = serde_json::from_str::<CargoMessage>(line) else {
            continue;
        };
        let lesson_dir = message
            .manifest_path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        match message.reason.as_str() {
            "compiler-artifact" => {
                if let (
                    Some(dir),
                    Some(executable),
                    Some(Profile { test: true }),
                    Some(target),
                ) = (
                    lesson_dir,
                    message.executable,
                    message.profile,
                    message.target,
                ) {
                    build.executables.insert((dir, target.name), executable);
                }
            }
            "compiler-message" => {
                if let (Some(dir), Some(diagnostic)) = (lesson_dir, message.message)
                    && diagnostic.level == "error"
                {
                    let held_out = message
                        .target
                        .as_ref()
                        .is_some_and(|t| t.name == Tier::HeldOut.stem());
                    let text = build.errors.entry(dir).or_default();
                    if held_out {
                        // The learner does not have this file: say what failed, not how.
                        let summary = format!(
                            "{}\n",
                            tr!(INSTRUCTOR, "compile-heldout-does-not-compile")
                        );
                        if !text.contains(&summary) {
                            text.push_str(&summary);
                        }
                    } else {
                        text.push_str(&diagnostic.rendered.unwrap_or_default());
                    }
                }
            }
            "build-finished" => success = message.success.unwrap_or(false),
            _ => {}
        }
    }
    success
}

#[cfg(test)]
mod tests {
    use super::dep_info_inputs;
    use std::path::PathBuf;

    #[test]
    fn dep_info_lists_every_input_once_with_escaped_spaces() {
        // As rustc writes it: one rule per output, then one empty rule per input.
        let text = "/t/deps/attention-1.d: src/lib.rs src/my\\ file.txt /abs/x.rs\n\n\
                    /t/deps/libattention-1.rmeta: src/lib.rs src/my\\ file.txt /abs/x.rs\n\n\
                    src/lib.rs:\nsrc/my\\ file.txt:\n/abs/x.rs:\n\n# env-dep:HOME=/root\n";
        assert_eq!(
            dep_info_inputs(text),
            ["src/lib.rs", "src/my file.txt", "/abs/x.rs"].map(PathBuf::from)
        );
    }
}
