//! The command line: every command and flag, with the help text clap shows.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Grades the lessons of "Build a Transformer in Rust", shows your progress, gives hints.
///
/// With no command, grades every lesson in ./lessons and shows a progress table with the
/// next thing to do.
#[derive(Debug, Parser)]
#[command(name = "checker", version, about, long_about)]
pub struct Cli {
    /// The course's root folder (the one holding course.toml). Default: found from the
    /// current directory.
    #[arg(long, global = true, value_name = "DIR")]
    pub course_dir: Option<PathBuf>,

    #[command(flatten)]
    pub grading: GradingArgs,

    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grade lessons and show every test's result, with what to fix.
    Grade {
        /// The lessons to grade, by folder, number or crate: `02-attention`, `02` or
        /// `attention`. Default: all.
        lessons: Vec<String>,
        #[command(flatten)]
        grading: GradingArgs,
        /// How to print the results.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Re-grade a lesson every time you save; keys: h hint, n next lesson, r re-run, q quit.
    Watch {
        /// The lesson to start with (`02-attention`, `02` or `attention`). Default: the one
        /// you are working on, the unfinished lesson you edited last.
        lesson: Option<String>,
        #[command(flatten)]
        grading: GradingArgs,
        /// Look for changes every second instead of relying on file-system events (for
        /// network drives and some virtual machines, where events do not arrive).
        #[arg(long)]
        poll: bool,
    },
    /// Show the next hint for the first function of a lesson that fails (each call shows
    /// one more).
    Hint {
        /// The lesson (`02-attention`, `02` or `attention`). Default: the one you are
        /// working on, the unfinished lesson you edited last.
        lesson: Option<String>,
        /// Show every hint of the lesson at once, function by function.
        #[arg(long, conflicts_with = "reset")]
        all: bool,
        /// Start the hints of this lesson over.
        #[arg(long)]
        reset: bool,
        #[command(flatten)]
        grading: GradingArgs,
    },
    /// For instructors: grade every submission in DIR (one folder or archive per student)
    /// and write a gradebook.
    Class {
        /// The folder of submissions: each entry is one student, a folder (a copy of the
        /// student edition, or just its lessons/) or a .zip / .tar.gz of one.
        dir: PathBuf,
        /// The gradebook's format.
        #[arg(long, value_enum, default_value_t = ClassFormat::Csv)]
        format: ClassFormat,
        /// Write the gradebook to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// For instructors: write the student edition of the course into OUT (lessons, the
    /// checker with the graded tests, the book; no solutions, no held-out tests).
    ExportStudent {
        /// A folder that does not exist yet (or is empty).
        out: PathBuf,
    },
    /// For instructors: write a Gradescope autograder bundle into OUT (setup.sh,
    /// run_autograder, the course, and autograder.zip holding them).
    Gradescope {
        /// A folder that does not exist yet (or is empty).
        out: PathBuf,
    },
    /// For maintainers: every solution scores 100%, every stub 0%, and the manifest, the
    /// folders and the book agree.
    Verify {
        #[command(flatten)]
        limits: LimitArgs,
    },
}

/// Options of every command that grades.
#[derive(Debug, Clone, Args)]
pub struct GradingArgs {
    /// Grade the lesson sources under DIR (laid out like lessons/) instead of ./lessons.
    #[arg(long, value_name = "DIR")]
    pub lessons_dir: Option<PathBuf>,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The help heading of the limits a learner rarely needs to change.
const LIMITS: &str = "Limits";
/// The help heading of the options for grading others' code.
const INSTRUCTORS: &str = "For instructors";

/// Limits of a grading run.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Seconds each test may run before it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, help_heading = LIMITS)]
    pub test_timeout: u64,

    /// Memory each test may use, in MiB (its address space).
    #[arg(long, value_name = "MIB", default_value_t = 2048, help_heading = LIMITS)]
    pub memory_limit: u64,

    /// After this many tests of a lesson time out, its other tests are not run (they fail
    /// with that reason): a lesson whose code loops cannot hold grading for long.
    #[arg(long, value_name = "N", default_value_t = 5, help_heading = INSTRUCTORS)]
    pub lesson_timeouts: usize,

    /// After this many tests of a submission time out, none of its other tests are run.
    #[arg(long, value_name = "N", default_value_t = 8, help_heading = INSTRUCTORS)]
    pub submission_timeouts: usize,

    /// Seconds each step of building a lesson (its library, then its tests) may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 120, help_heading = LIMITS)]
    pub build_timeout: u64,

    /// Memory each process of a lesson's build may use, in MiB (its address space).
    #[arg(long, value_name = "MIB", default_value_t = 2048, help_heading = LIMITS)]
    pub build_memory: u64,

    /// Run learner code without the sandbox (bubblewrap). Self-paced grading does this by
    /// itself where no sandbox is available; the instructor's commands (`class`, the
    /// Gradescope and Classroom formats) refuse to unless given this flag, because the
    /// code under test then runs with your permissions: it can read and change your files.
    #[arg(long, help_heading = INSTRUCTORS)]
    pub unsandboxed: bool,

    /// How many tests run at once. Default: one per CPU.
    #[arg(long, value_name = "N", help_heading = LIMITS)]
    pub jobs: Option<usize>,

    /// Build each lesson on your own earlier lessons instead of the course's reference
    /// versions: your whole stack, as you would train it. A lesson's grade then depends on
    /// the lessons before it; a failure an earlier lesson may cause names it. (The student
    /// edition, which has no reference versions, always does this.)
    #[arg(long)]
    pub whole_stack: bool,

    /// Run the code under test as this (unprivileged) user, so that it cannot write the
    /// grader's files. The checker must run as root to switch users.
    #[arg(long, value_name = "USER", help_heading = INSTRUCTORS)]
    pub run_as: Option<String>,
}

/// Gradebook formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClassFormat {
    /// One row per student, one column per lesson score (0 to 1), total and notes.
    Csv,
    /// Everything, per test.
    Json,
    /// JUnit XML, a test suite per student and lesson.
    Junit,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs: {"score", "lessons": [{"id", "passed", "total", "score", "tests": [...]}]}.
    Json,
    /// Gradescope's results.json: every lesson worth 10 points, one entry per test.
    Gradescope,
    /// What GitHub Classroom's grading reporter reads (to be base64-encoded).
    Classroom,
}

impl Format {
    /// Whether this is a platform's format, that is, an instructor grading others' code.
    pub fn is_instructors(self) -> bool {
        matches!(self, Format::Gradescope | Format::Classroom)
    }
}

impl GradingArgs {
    /// How messages name the lessons folder: as given with `--lessons-dir`, else `lessons`.
    pub fn lessons_label(&self) -> String {
        self.lessons_dir
            .as_ref()
            .map_or_else(|| "lessons".to_owned(), |dir| dir.display().to_string())
    }
}

impl LimitArgs {
    /// The grading options these limits describe.
    pub fn options(&self) -> anyhow::Result<crate::grade::Options> {
        let defaults = crate::grade::Options::default();
        let run_as = self
            .run_as
            .as_deref()
            .map(crate::process::Account::named)
            .transpose()?;
        Ok(crate::grade::Options {
            run_as,
            whole_stack: self.whole_stack,
            test_timeout: std::time::Duration::from_secs(self.test_timeout.max(1)),
            memory_bytes: self.memory_limit.max(64) << 20,
            build_timeout: std::time::Duration::from_secs(self.build_timeout.max(5)),
            build_memory_bytes: self.build_memory.max(256) << 20,
            jobs: self.jobs.unwrap_or(defaults.jobs).max(1),
            unsandboxed: self.unsandboxed,
            lesson_timeouts: self.lesson_timeouts.max(1),
            submission_timeouts: self.submission_timeouts.max(1),
            ..defaults
        })
    }
}
