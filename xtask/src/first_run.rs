//! `cargo xtask first-run`: how long a learner waits for their first progress table.
//!
//! A learner's first command is `cargo run -p checker` in a fresh copy of the course: it
//! compiles the checker, then the checker prepares grading (the course's dependencies,
//! built once) and grades every lesson. This task times that from nothing, twice: in the
//! student edition (what a class clones) and in a fresh clone of this repository (which
//! also builds the grader's judge from the reference solutions). Each copy has its own,
//! empty build folder; the crates themselves come from cargo's local cache, so download
//! time is not counted. The two parts are timed separately: building the checker
//! (`cargo build -p checker`) and its first run.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn run(root: &Path) -> Result<()> {
    let base = root.join("target").join("xtask").join("first-run");
    if base.exists() {
        std::fs::remove_dir_all(&base)?;
    }
    std::fs::create_dir_all(&base)?;
    let student = base.join("student");
    let clone = base.join("clone");
    crate::course_copy::export_student(root, &student)?;
    crate::run_command(
        Command::new("git")
            .args(["clone", "--quiet"])
            .arg(root)
            .arg(&clone),
    )?;

    println!("First run of `cargo run -p checker` from an empty build folder");
    println!("on {}\n", machine());
    println!(
        "  {:<34} {:>14} {:>12} {:>9}",
        "copy", "build checker", "first run", "total"
    );
    for (name, dir) in [
        ("student edition", &student),
        ("clone of the repository", &clone),
    ] {
        let build = time(
            Command::new("cargo")
                .current_dir(dir)
                .env_remove("CARGO_TARGET_DIR")
                .args(["build", "--quiet", "-p", "checker"]),
        )?;
        let first = time(
            Command::new("cargo")
                .current_dir(dir)
                .env_remove("CARGO_TARGET_DIR")
                .args(["run", "--quiet", "-p", "checker"]),
        )?;
        println!(
            "  {name:<34} {:>12.1} s {:>10.1} s {:>7.1} s",
            build.as_secs_f64(),
            first.as_secs_f64(),
            (build + first).as_secs_f64()
        );
    }
    Ok(())
}

fn time(command: &mut Command) -> Result<Duration> {
    let start = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("could not start {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed with {status}");
    }
    Ok(start.elapsed())
}

/// The CPU and the number of cores, as Linux reports them.
pub(crate) fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".to_owned());
    format!("{cores} cores of {model}")
}
