//! `cargo xtask latency`: the learner's loop, timed.
//!
//! A learner edits a lesson and then either runs its visible tests (`cargo test -p
//! <crate>`) or asks the checker to grade it. Both recompile the lesson; grading also
//! builds the graded suite and runs each test in its own process. This task times both
//! after the same kind of edit, warm, in a copy of the course with the lesson solved (so
//! every test runs to the end), and prints them side by side with their ratio; then it
//! times a re-grade of the whole course with nothing changed.
//!
//! The copy lives under `target/xtask/latency/` with its own target directory, so the
//! timings do not disturb (and are not helped by) the workspace's own builds.

use crate::course_copy::CourseCopy;
use crate::run_command;
use anyhow::Result;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn run(root: &Path, rounds: usize, lesson: &str) -> Result<()> {
    let copy =
        CourseCopy::create(root, &root.join("target").join("xtask").join("latency"))?;
    // The lesson, solved: the visible and graded tests all run to the end.
    crate::course_copy::solve_lesson(root, &copy.course, lesson)?;
    let lesson_src = copy
        .course
        .join("lessons")
        .join(lesson)
        .join("src")
        .join("lib.rs");
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    let crate_name = manifest.lesson(lesson)?.crate_name.clone();

    let cargo = |args: &[&str]| copy.cargo(args);
    let checker = |args: &[&str]| {
        let mut command = Command::new(copy.checker());
        command
            .current_dir(&copy.course)
            .env("CARGO_TARGET_DIR", &copy.target)
            .args(args);
        command
    };

    eprintln!("Warming up: building the copy, its tests and the checker once...");
    run_command(cargo(&["build", "-q", "-p", "checker"]).stdout(Stdio::null()))?;
    run_command(cargo(&["test", "-q", "-p", &crate_name]).stdout(Stdio::null()))?;
    run_command(checker(&["grade", lesson]).stdout(Stdio::null()))?;

    let mut test_times = Vec::new();
    let mut grade_times = Vec::new();
    for round in 0..rounds {
        touch(&lesson_src, &format!("test {round}"))?;
        test_times.push(time(cargo(&["test", "-q", "-p", &crate_name]))?);
        touch(&lesson_src, &format!("grade {round}"))?;
        grade_times.push(time(checker(&["grade", lesson]))?);
    }
    let whole_course = time(checker(&[]))?;

    println!(
        "Re-grade latency after editing lessons/{lesson}/src/lib.rs (warm, {rounds} rounds)\n"
    );
    println!("  round   cargo test -p {crate_name:<12}   checker grade {lesson}");
    for (round, (test, grade)) in test_times.iter().zip(&grade_times).enumerate() {
        println!(
            "  {:>5}   {:>22.2} s   {:>20.2} s",
            round + 1,
            test.as_secs_f64(),
            grade.as_secs_f64()
        );
    }
    let (test, grade) = (median(&mut test_times), median(&mut grade_times));
    println!(
        "  median  {:>22.2} s   {:>20.2} s",
        test.as_secs_f64(),
        grade.as_secs_f64()
    );
    println!(
        "\n  ratio (median grade / median test): {:.2}",
        grade.as_secs_f64() / test.as_secs_f64()
    );
    println!(
        "  whole course re-graded, nothing changed: {:.2} s",
        whole_course.as_secs_f64()
    );
    Ok(())
}

/// Appends a comment, the smallest edit that makes cargo rebuild the lesson.
fn touch(path: &Path, note: &str) -> Result<()> {
    let mut text = std::fs::read_to_string(path)?;
    text.push_str(&format!("// latency edit: {note}\n"));
    std::fs::write(path, text)?;
    Ok(())
}

fn time(mut command: Command) -> Result<Duration> {
    let start = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    let elapsed = start.elapsed();
    anyhow::ensure!(status.success(), "{command:?} failed with {status}");
    Ok(elapsed)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}
