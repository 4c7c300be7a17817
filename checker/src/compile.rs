//! Building the scratch workspace: one `cargo build --tests --keep-going` for all lessons,
//! read through cargo's JSON messages.
//!
//! `--keep-going` lets every lesson that compiles be graded even when another does not.
//! The JSON messages say which test executable belongs to which lesson and which errors
//! came from which lesson's code, by the manifest path of the package that produced them.

use crate::process::{self, Limits};
use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What building the scratch workspace gave, per lesson folder.
#[derive(Debug, Default)]
pub struct Build {
    /// The test executables of each lesson that compiled, by lesson folder and test
    /// target name (`graded`, `heldout`).
    pub executables: HashMap<(PathBuf, String), PathBuf>,
    /// The rendered compiler errors of each lesson that did not, by lesson folder.
    pub errors: HashMap<PathBuf, String>,
    /// Cargo's own complaint when the build failed without a compiler error to show (a
    /// dependency that could not be fetched, a timeout).
    pub failure: Option<String>,
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
}

#[derive(Deserialize)]
struct Target {
    name: String,
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

/// Builds every member of the workspace at `workspace` into `target_dir`.
pub fn build(workspace: &Path, target_dir: &Path, timeout: Duration) -> Result<Build> {
    let mut command = Command::new(cargo());
    command
        .current_dir(workspace)
        .args(["build", "--tests", "--keep-going", "--message-format=json"])
        .env("CARGO_TARGET_DIR", target_dir)
        .env("CARGO_TERM_COLOR", "never")
        // The build uses the toolchain itself, with nothing wrapped around it.
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
    let limits = Limits {
        timeout,
        memory_bytes: None,
        output_bytes: 64 << 20,
        account: None,
    };
    let finished = process::run(command, b"", limits).context("could not run cargo")?;

    let mut build = Build::default();
    let mut success = false;
    for line in String::from_utf8_lossy(&finished.stdout).lines() {
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
                    let text = build.errors.entry(dir).or_default();
                    text.push_str(&diagnostic.rendered.unwrap_or_default());
                }
            }
            "build-finished" => success = message.success.unwrap_or(false),
            _ => {}
        }
    }
    if finished.timed_out() {
        build.failure = Some(format!(
            "the build took longer than {} s and was stopped",
            timeout.as_secs()
        ));
    } else if !success && build.errors.is_empty() {
        build.failure = Some(finished.stderr_text());
    }
    Ok(build)
}

/// The cargo that runs the checker (so the same toolchain), or `cargo` from the path.
fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}
