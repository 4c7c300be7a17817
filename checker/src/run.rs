//! Running one graded test: the learner's code in the sandbox, the verdict from the judge.
//!
//! 1. [`record_batch`]: the test executable built against the learner's crate runs a
//!    lesson's tests one after the other in a sandbox (see [`crate::sandbox`]), recording
//!    each value the learner's code returns on a pipe (its tape, `course_harness::tape`),
//!    under a time limit per test, a memory limit and a cap on its output and tape. A test
//!    that did not end there (it crashed, exited or took too long) is run on its own with
//!    [`record`], so that what it did is explained, and costs no other test anything.
//! 2. The judge ([`crate::judge`]) replays the tapes of a lesson's tests in the course's own
//!    build of the suite, which computes everything else and decides.
//! 3. [`decide`] turns what the two said into the test's result.
//!
//! A test passes only when the judge says so *and* the learner's process ended normally.
//! Everything the learner's process can do on its own (exit early, crash, loop, print,
//! write) can only make a test fail, with the likeliest explanation the evidence allows.

use crate::course::ExpectedTest;
use crate::explain;
use crate::messages::INSTRUCTOR;
use crate::process::{self, Limits, TAPE_FD, Watch};
use crate::report::{TestResult, TestStatus};
use crate::sandbox::{Bind, Sandbox};
use anyhow::Result;
use course_harness::report::Verdict;
use course_harness::tape::{END, RECORD_ENV, TAPE_ENDED, TAPE_MISMATCH, Taped};
use course_i18n::tr;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, ExitStatus};

/// The most a test's tape may hold: far more than any test of the course records.
pub const MAX_TAPE_BYTES: usize = 64 << 20;

/// What running a test needs besides the test itself.
pub struct Context<'a> {
    /// The sandbox learner code runs in.
    pub sandbox: &'a Sandbox,
    /// The limits of the learner's process.
    pub limits: Limits,
    /// A folder the checker owns, for the judge's files.
    pub scratch: &'a Path,
    /// Where there is no sandbox and the tests run as an account of their own
    /// (`--run-as`), what stands in for the sandbox.
    pub fallback: Option<&'a crate::fallback::Fallback>,
}

impl Context<'_> {
    /// Runs `run`, which starts a process of the learner's code and waits for it: in the
    /// `--run-as` fallback, in the account's turn, which ends every process it left.
    fn in_turn<T>(&self, run: impl FnOnce() -> T) -> T {
        match self.fallback {
            Some(fallback) => fallback.in_turn(run),
            None => run(),
        }
    }
}

/// One test's run, as the judge and [`decide`] need it.
#[derive(Debug, Clone)]
pub struct Run {
    /// How its process ended; `None` if it ran out of time.
    pub status: Option<ExitStatus>,
    /// The start of its standard error, for explanations.
    pub stderr: String,
    /// Its own entries of the tape; `None` when the process wrote more than allowed.
    pub tape: Option<Vec<u8>>,
}

impl Run {
    /// Whether the run goes to the judge: it ended within its time, with a tape.
    pub fn judgeable(&self) -> bool {
        self.status.is_some() && self.tape.is_some()
    }
}

/// A command that runs `names` of the learner's executable `binary` in the sandbox,
/// recording on the tape.
fn record_command(
    binary: &Path,
    names: &[&str],
    context: &Context<'_>,
) -> Result<Command> {
    let program = match context.fallback {
        Some(fallback) => fallback.executable(binary)?,
        None => binary.to_path_buf(),
    };
    let mut command = Command::new(&program);
    command
        .arg("--exact")
        .args(names)
        .args(["--test-threads=1", "--nocapture"])
        .env_clear()
        .env(RECORD_ENV, format!("fd:{TAPE_FD}"))
        .env("RUST_BACKTRACE", "0")
        .env("INSTA_UPDATE", "no")
        .env("CI", "true")
        .env("PATH", "/usr/bin:/bin");
    if context.sandbox.is_active() {
        command.current_dir("/tmp");
    } else if let Some(fallback) = context.fallback {
        command.current_dir(fallback.cwd());
    } else {
        // Without a sandbox the test runs in a folder of its own under the checker's
        // scratch space (owned by the --run-as account, if any).
        let dir = context.scratch.join("cwd");
        std::fs::create_dir_all(&dir)?;
        if let Some(account) = context.limits.account {
            account.own(&dir)?;
        }
        command.current_dir(&dir);
    }
    context
        .sandbox
        .wrap(command, &[Bind::ReadOnly(binary.to_path_buf())], false)
}

/// Runs the test `test` of the learner's executable `binary` alone in the sandbox,
/// recording its tape.
pub fn record(binary: &Path, test: &ExpectedTest, context: &Context<'_>) -> Result<Run> {
    let command = record_command(binary, &[test.name.as_str()], context)?;
    let mut finished = context
        .in_turn(|| process::run(command, b"", context.limits, Some(MAX_TAPE_BYTES)))?;
    if context.sandbox.is_active() {
        finished.status = finished.status.map(process::unwrap_sandbox_status);
    }
    let tape = finished.tape.as_deref().map(|tape| {
        split_tape(tape)
            .remove(&test.name)
            .map(|recorded| recorded.entries)
            .unwrap_or_default()
    });
    Ok(Run {
        status: finished.status,
        stderr: finished.stderr_text(),
        tape,
    })
}

/// What a run of several tests recorded for each: its entries, and whether its body ran
/// to its end.
#[derive(Debug, Default)]
pub struct TestTape {
    /// The test's entries, one per line, without its name.
    pub entries: Vec<u8>,
    /// Whether the test's body ended (the harness's end marker).
    pub ended: bool,
    /// In a run of several tests, when the checker first read the test's end marker,
    /// from the start of the process: the judge's clock, which nothing on the tape can
    /// change. A test took from the previous test's end (or the start) to this.
    pub ended_at: Option<std::time::Duration>,
}

/// Runs `tests` of the learner's executable `binary` one after the other in one sandboxed
/// process, a test's time limit applying to each in turn: the fast path, one sandbox
/// instead of one per test. A test whose body did not
/// end there (a crash, an exit, a timeout, in it or before it) is run again on its own.
pub fn record_batch(
    binary: &Path,
    tests: &[&ExpectedTest],
    context: &Context<'_>,
) -> Result<Batch> {
    let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
    let command = record_command(binary, &names, context)?;
    let per_test = context.limits.timeout;
    let limits = Limits {
        cpu_seconds: context
            .limits
            .cpu_seconds
            .map(|s| s * names.len().max(1) as u64),
        ..context.limits
    };
    // The process may go on while tests keep ending, each in the order given: the end of
    // the test expected next, and only that, restarts the idle clock (code under test
    // writing made-up ends kept a batch alive for its whole budget while no test ended,
    // and then exited to start another). What it writes otherwise keeps nothing alive.
    // Whether each test kept to its own limit is decided afterwards, from the times the
    // checker saw each test end (see [`TestTape::ended_at`]).
    let expected: Vec<String> = names.iter().map(|&name| name.to_owned()).collect();
    let watch = Watch {
        idle: per_test,
        total: per_test * names.len().max(1) as u32,
        marker: END_MARK,
        progress: std::sync::Arc::new(move |line: &[u8], before: usize| {
            expected
                .get(before)
                .is_some_and(|name| ended_test(line).as_ref() == Some(name))
        }),
    };
    let mut finished = context.in_turn(|| {
        process::run_watched(
            command,
            b"",
            limits,
            Some((MAX_TAPE_BYTES, Some(watch.clone()))),
        )
    })?;
    if context.sandbox.is_active() {
        finished.status = finished.status.map(process::unwrap_sandbox_status);
    }
    let mut tapes = finished.tape.as_deref().map(split_tape);
    if let Some(tapes) = &mut tapes {
        for (line, at) in &finished.marks {
            if let Some(name) = ended_test(line)
                && let Some(tape) = tapes.get_mut(&name)
                && tape.ended_at.is_none()
            {
                tape.ended_at = Some(*at);
            }
        }
    }
    Ok(Batch {
        status: finished.status,
        tapes,
    })
}

/// How the line that ends a test's body ends: a space and [`END`].
const END_MARK: &[u8] = b" .";

/// The test whose body `line` says ended, if it is such a line.
fn ended_test(line: &[u8]) -> Option<String> {
    let (name, entry) = std::str::from_utf8(line).ok()?.split_once(' ')?;
    let name = <String as Taped>::read(&mut std::iter::once(name.to_owned())).ok()?;
    (entry == END).then_some(name)
}

/// What a run of several tests gave.
pub struct Batch {
    /// How the process ended; `None` if it ran out of time.
    pub status: Option<ExitStatus>,
    /// Each test's tape, by name; `None` when the process wrote more than allowed.
    pub tapes: Option<BTreeMap<String, TestTape>>,
}

/// A recorded tape split by test: each line starts with the test's name (as a text
/// token); a line that does not is dropped.
pub fn split_tape(tape: &[u8]) -> BTreeMap<String, TestTape> {
    let mut tests: BTreeMap<String, TestTape> = BTreeMap::new();
    for line in tape.split(|&b| b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let Some((name, entry)) = line.split_once(' ') else {
            continue;
        };
        let Ok(name) = <String as Taped>::read(&mut std::iter::once(name.to_owned()))
        else {
            continue;
        };
        let test = tests.entry(name).or_default();
        if entry == END {
            test.ended = true;
        } else if !test.ended {
            test.entries.extend_from_slice(entry.as_bytes());
            test.entries.push(b'\n');
        }
    }
    tests
}

/// The result of `test` from its recorded run and, for a judgeable run, the judge's
/// verdict (`None` when the judge gave none).
pub fn decide(
    test: &ExpectedTest,
    run: &Run,
    verdict: Option<&Verdict>,
    limits: Limits,
) -> TestResult {
    let stderr = &run.stderr;
    let (status, message) = match (&run.status, &run.tape, verdict) {
        (None, _, _) => (
            TestStatus::Timeout,
            tr!(
                INSTRUCTOR,
                "run-timeout",
                seconds = limits.timeout.as_secs()
            ),
        ),
        (Some(_), None, _) => (
            TestStatus::Crash,
            tr!(INSTRUCTOR, "run-tape-too-large", mib = MAX_TAPE_BYTES >> 20),
        ),
        (Some(_), Some(_), None) => {
            (TestStatus::Crash, tr!(INSTRUCTOR, "run-no-verdict"))
        }
        (Some(exit), Some(_), Some(verdict)) if verdict.passed && exit.success() => {
            (TestStatus::Pass, String::new())
        }
        (Some(exit), Some(_), Some(verdict)) if verdict.passed => (
            TestStatus::Crash,
            tr!(
                INSTRUCTOR,
                "run-ended-badly",
                how = process::describe_status(exit)
            ),
        ),
        (Some(exit), Some(_), Some(verdict))
            if verdict.message.starts_with(TAPE_ENDED) =>
        {
            explain::no_report(exit, stderr, limits)
        }
        (Some(_), Some(_), Some(verdict))
            if verdict.message.starts_with(TAPE_MISMATCH) =>
        {
            (
                TestStatus::Fail,
                tr!(
                    INSTRUCTOR,
                    "run-tape-mismatch",
                    message = &verdict.message,
                    fd = TAPE_FD
                ),
            )
        }
        (Some(_), Some(_), Some(verdict)) => explain::failure(&verdict.message),
    };
    // The function to offer hints for: the one still a todo!(), else the last one the
    // test called before its check failed.
    let function = match (status, verdict) {
        (TestStatus::Pass, _) | (_, None) => None,
        (_, Some(verdict)) => explain::todo_name(&verdict.message)
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .or_else(|| verdict.call.as_deref().and_then(explain::function_of)),
    };
    TestResult {
        name: test.name.clone(),
        tier: test.tier,
        passed: status == TestStatus::Pass,
        status,
        message,
        function,
        named: match (status, verdict) {
            (TestStatus::Fail, Some(verdict)) => verdict.named.clone(),
            _ => Vec::new(),
        },
        by_reference: status == TestStatus::Fail
            && verdict.is_some_and(|v| v.by_reference),
    }
}
