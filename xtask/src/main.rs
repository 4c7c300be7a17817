//! Maintainer chores for the course, run as `cargo xtask <task>`.
//!
//! To add a task, add a variant to [`Task`] (its `///` line is the help text) and a
//! function that does it, in a module of its own.

mod class_bench;
mod course_copy;
mod figure_font;
mod figures;
mod latency;
mod mistakes;
mod named;
mod new_lesson;
mod newcomer;
mod scaffold_check;
mod stubs;
mod walk;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "Maintainer chores for the course")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Regenerate the book's figures from the solutions (the `figures` examples of
    /// course.toml, in English and Chinese) and embed in every figure that shows Chinese
    /// the subset of the book's CJK font it uses; with --check, fail if a committed
    /// figure is not current.
    Figures {
        /// Fail if any figure changed.
        #[arg(long)]
        check: bool,
        /// Only embed the fonts (after editing a hand-drawn figure): run no program.
        #[arg(long)]
        fonts_only: bool,
    },
    /// Run every experiment of the course in release mode (and regenerate the figures);
    /// gather their summaries into target/experiments/summary.json.
    Experiments,
    /// Generate a class of 30 (complete, partial, empty, archives, hostile, listed and
    /// unlisted mistakes, two near copies) and grade it with `checker class --report
    /// --history` cold, warm and a week later (half the mistakes fixed): check the
    /// gradebooks are identical, every score is as planted, and the class report agrees
    /// with its gradebook and with what was planted; print the timings and the report's
    /// share of them.
    ClassBench {
        /// The Python that has copydetect (`pip install copydetect`), for the report's
        /// similar submissions.
        #[arg(long, default_value = "python3")]
        python: PathBuf,
    },
    /// Measure ndarray's f32 and f64 matrix-product throughput at the course's shapes
    /// (an optimised build of common/examples/matmul_throughput.rs).
    Matmul,
    /// Apply every plausible mistake listed in `solutions/<lesson>/mistakes.toml` to its lesson's
    /// solution, and report whether the visible tests and the checker name it.
    Mistakes {
        /// Only the lessons whose id starts with this (e.g. 02).
        lesson: Option<String>,
        /// Try only this many mistakes of each lesson, chosen from the commit's id (the
        /// same commit tries the same ones; over many commits, CI tries them all).
        #[arg(long, value_name = "K")]
        sample: Option<usize>,
        /// Fail unless the checker names every mistake tried.
        #[arg(long)]
        check: bool,
    },
    /// Record the named mistakes' wrong answers beside the tests (`*.named.json`), which
    /// every build without the builders reads: run after changing a builder
    /// (`solutions/NN-name/mistakes.rs`) or a test's inputs, when the solutions' tests
    /// say the record is stale.
    Named {
        /// Only the lessons whose id starts with this (e.g. 02).
        lesson: Option<String>,
    },
    /// Write every lesson's learner copy, lessons/NN/, from its one home, solutions/NN/:
    /// the stub from the solution (markers say what the learner gets), the rest from its
    /// learner/ folder; record each stub's fingerprint and gather the Chinese of titles
    /// and hints; with --check, write nothing and fail if anything is stale.
    Stubs {
        /// Fail if a stub or its fingerprint is stale, instead of writing it.
        #[arg(long)]
        check: bool,
    },
    /// Add a lesson after the last one: its one home, solutions/NN-name/ (entry, hints in
    /// both languages, a solution with one function, suites, visible tests, mistakes), its
    /// id in course.toml and its chapter in both languages; then generate lessons/NN-name/.
    /// It grades 0% as a stub and 100% as a solution; what is left to write is listed.
    NewLesson {
        /// The lesson's id, its folder's name: two digits, `-`, a name (`07-gpt`).
        id: String,
        /// The learner's crate (`cargo test -p CRATE`).
        #[arg(value_name = "CRATE")]
        crate_name: String,
        /// Its title (default: from the id).
        #[arg(long)]
        title: Option<String>,
        /// Its title in Chinese (default: the English, to translate).
        #[arg(long)]
        title_zh: Option<String>,
    },
    /// Prove, on a copy of the course, that `new-lesson` makes a lesson that verifies and
    /// is translated, touching only its folder, the index, the book and generated files.
    ScaffoldCheck,
    /// Walk a newcomer's first steps from an empty cargo home (no crate downloaded), in a
    /// fresh clone and in the student edition: the progress table, the first function of
    /// lesson 01 written and graded, a hint, watch mode in a pseudo-terminal, the checker
    /// in Chinese; print the time of each step.
    Newcomer {
        /// Use this folder as cargo's home (download cache) instead of a new, empty one;
        /// it is kept, so a second run measures a newcomer whose cache is warm.
        #[arg(long)]
        cargo_home: Option<PathBuf>,
    },
    /// Export the student edition, check that every path its README and book name is in it
    /// (or said to be the full repository's) and that installs of the book's tools pin
    /// CI's versions, then finish its lessons with the solutions and run every `cargo`
    /// command its README and book show a learner (long ones with --help).
    Walk,
    /// Measure how long re-grading one edited lesson takes next to `cargo test -p <lesson>`
    /// for the same edit, warm, and how long re-grading the whole course takes.
    Latency {
        /// How many edits to time for each command.
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// The lesson to edit.
        #[arg(long, default_value = "02-attention")]
        lesson: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Figures { check, fonts_only } => {
            figures::figures(&workspace_root(), check, fonts_only)
        }
        Task::Experiments => figures::experiments(&workspace_root()),
        Task::ClassBench { python } => class_bench::run(&workspace_root(), &python),
        Task::Matmul => run_command(
            Command::new("cargo")
                .current_dir(workspace_root())
                .args(["run", "--release", "--quiet", "-p", "course-common"])
                .args(["--example", "matmul_throughput"]),
        ),
        Task::Walk => walk::run(&workspace_root()),
        Task::Newcomer { cargo_home } => {
            newcomer::run(&workspace_root(), cargo_home.as_deref())
        }
        Task::Stubs { check } => stubs::run(&workspace_root(), check),
        Task::NewLesson {
            id,
            crate_name,
            title,
            title_zh,
        } => new_lesson::run(
            &workspace_root(),
            &new_lesson::NewLesson {
                id,
                crate_name,
                title,
                title_zh,
            },
        ),
        Task::ScaffoldCheck => scaffold_check::run(&workspace_root()),
        Task::Named { lesson } => named::run(&workspace_root(), lesson.as_deref()),
        Task::Mistakes {
            lesson,
            sample,
            check,
        } => mistakes::run(
            &workspace_root(),
            lesson.as_deref(),
            mistakes::Selection { sample, check },
        ),
        Task::Latency { rounds, lesson } => {
            latency::run(&workspace_root(), rounds, &lesson)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The root of the course's workspace (the parent of this crate).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// Runs `command`, echoing it first, and fails unless it succeeds.
fn run_command(command: &mut Command) -> Result<()> {
    eprintln!("> {command:?}");
    let status = command
        .status()
        .with_context(|| format!("could not start {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed with {status}");
    }
    Ok(())
}
