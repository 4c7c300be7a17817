//! Grading: from a folder of lesson sources to a [`CourseReport`].
//!
//! 1. Read each lesson's expected tests from the course's suite (not from the build).
//! 2. Prepare the scratch workspace from the submission's `src/` folders ([`crate::scratch`]).
//! 3. Build every lesson at once, keeping going past lessons that do not compile
//!    ([`crate::compile`]).
//! 4. Run every expected test in its own process, a few at a time ([`crate::run`]).
//!
//! Nothing is written outside `target/checker/`.

use crate::compile;
use crate::course::{Course, ExpectedTest};
use crate::manifest::Lesson;
use crate::process::Limits;
use crate::report::{CourseReport, LessonReport, LessonStatus, TestResult, TestStatus};
use crate::run::run_test;
use crate::scratch::{Scratch, SourceState};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The limits and parallelism of a grading run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Wall-clock limit for each test.
    pub test_timeout: Duration,
    /// Wall-clock limit for building the submission.
    pub build_timeout: Duration,
    /// Address-space limit for each test, in bytes.
    pub memory_bytes: u64,
    /// How many tests run at once.
    pub jobs: usize,
    /// The unprivileged account tests run as, if any (`--run-as`).
    pub run_as: Option<crate::process::Account>,
    /// Build every lesson on the submission's own earlier lessons, not on the course's
    /// reference solutions (`--whole-stack`).
    pub whole_stack: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            test_timeout: Duration::from_secs(10),
            build_timeout: Duration::from_secs(600),
            memory_bytes: 2 << 30,
            jobs: std::thread::available_parallelism().map_or(2, usize::from),
            run_as: None,
            whole_stack: false,
        }
    }
}

/// What grading reports while it works, for a progress display.
pub enum Event {
    /// The build of the submission started.
    Building,
    /// The tests started: this many in all.
    Testing(usize),
    /// One test finished.
    TestDone,
}

/// The lines of compiler output a lesson's report keeps.
const MAX_ERROR_LINES: usize = 40;

/// Grades `lessons` from `submission`, a folder laid out like `lessons/`.
pub fn grade(
    course: &Course,
    lessons: &[&Lesson],
    submission: &Path,
    options: &Options,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<CourseReport> {
    if !submission.is_dir() {
        bail!(
            "there is no folder {}: --lessons-dir must name a folder laid out like lessons/ \
             (one folder per lesson, such as 02-attention/src/lib.rs)",
            submission.display()
        );
    }
    let submission = submission
        .canonicalize()
        .with_context(|| format!("could not resolve {}", submission.display()))?;
    let expected: Vec<Vec<ExpectedTest>> = lessons
        .iter()
        .map(|lesson| course.expected(lesson))
        .collect::<Result<_>>()?;

    let (scratch, states) =
        Scratch::prepare(course, lessons, &submission, options.whole_stack)?;
    let build = if scratch.members.is_empty() {
        compile::Build::default()
    } else {
        progress(Event::Building);
        compile::build(
            &scratch.dir,
            &course.scratch_dir().join("build"),
            options.build_timeout,
        )?
    };

    // Decide each lesson's fate; collect the tests of those that built.
    let mut reports: Vec<Option<LessonReport>> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    for (index, ((lesson, state), names)) in
        lessons.iter().zip(&states).zip(&expected).enumerate()
    {
        let dir = scratch.lesson_dir(lesson);
        let unbuilt = |status, message: String| {
            Some(LessonReport::unbuilt(
                &lesson.id,
                &lesson.title,
                status,
                message,
                names,
            ))
        };
        let report = match state {
            SourceState::MissingFolder => unbuilt(
                LessonStatus::Missing,
                format!("There is no folder {}/ in the submission.", lesson.id),
            ),
            SourceState::MissingLib => unbuilt(
                LessonStatus::Missing,
                format!("There is no {}/src/lib.rs in the submission.", lesson.id),
            ),
            SourceState::Unusable(why) => unbuilt(LessonStatus::Missing, why.clone()),
            SourceState::Copied if built(&build, &dir) => {
                for (test, expected_test) in names.iter().enumerate() {
                    let key = (dir.clone(), expected_test.tier.stem().to_owned());
                    jobs.push(Job {
                        lesson: index,
                        test,
                        binary: build.executables.get(&key).cloned(),
                        reports_dir: dir.join("reports"),
                    });
                }
                None
            }
            SourceState::Copied => match build.errors.get(&dir) {
                Some(errors) => unbuilt(
                    LessonStatus::DoesNotCompile,
                    format!("The lesson does not compile:\n{}", first_lines(errors)),
                ),
                None => unbuilt(
                    LessonStatus::BuildFailed,
                    format!(
                        "The build failed before reaching the lesson's code:\n{}",
                        first_lines(
                            build.failure.as_deref().unwrap_or("(cargo said nothing)")
                        )
                    ),
                ),
            },
        };
        reports.push(report);
    }

    progress(Event::Testing(jobs.len()));
    let limits = Limits {
        timeout: options.test_timeout,
        memory_bytes: Some(options.memory_bytes),
        output_bytes: 64 << 10,
        account: options.run_as,
    };
    let results: Mutex<Vec<Option<TestResult>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    // Results land in their job's slot: lesson by lesson, test by test.
                    let slot = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(slot) else {
                        break;
                    };
                    let test = &expected[job.lesson][job.test];
                    let result = match &job.binary {
                        Some(binary) => run_test(binary, test, &job.reports_dir, limits),
                        None => Ok(not_built(test)),
                    };
                    match result {
                        Ok(result) => {
                            results.lock().expect("no worker panics")[slot] = Some(result)
                        }
                        Err(error) => {
                            *failure.lock().expect("no worker panics") = Some(error)
                        }
                    }
                    progress(Event::TestDone);
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().expect("no worker panics") {
        return Err(error.context("could not run a graded test"));
    }

    let mut results = results.into_inner().expect("no worker panics").into_iter();
    let lessons_reports = lessons
        .iter()
        .zip(reports)
        .zip(&expected)
        .map(|((lesson, report), names)| {
            report.unwrap_or_else(|| {
                let tests = results.by_ref().take(names.len()).flatten().collect();
                LessonReport::from_tests(
                    &lesson.id,
                    &lesson.title,
                    LessonStatus::Graded,
                    None,
                    tests,
                )
            })
        })
        .collect();
    drop(scratch);
    Ok(CourseReport::new(lessons_reports))
}

/// One test to run: which lesson and test, its executable (none if that tier's suite did
/// not build), and where its report goes.
struct Job {
    lesson: usize,
    test: usize,
    binary: Option<PathBuf>,
    reports_dir: PathBuf,
}

/// Whether any test executable of the lesson in `dir` was built.
fn built(build: &compile::Build, dir: &Path) -> bool {
    build
        .executables
        .keys()
        .any(|(built_dir, _)| built_dir == dir)
}

fn not_built(test: &ExpectedTest) -> TestResult {
    TestResult {
        name: test.name.clone(),
        tier: test.tier,
        passed: false,
        status: TestStatus::NotBuilt,
        message: format!("The {} suite did not build.", test.tier.stem()),
    }
}

fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_ERROR_LINES {
        text.trim_end().to_owned()
    } else {
        format!(
            "{}\n... ({} more lines; `cargo build -p <lesson crate>` shows them all)",
            lines[..MAX_ERROR_LINES].join("\n"),
            lines.len() - MAX_ERROR_LINES
        )
    }
}
