//! Grading: from a folder of lesson sources to a [`CourseReport`], in the steps
//! `grade_lessons` runs, one function each:
//!
//! 1. Read each lesson's expected tests from the course's suite (not from the build), and
//!    choose the sandbox (`choose_sandbox`).
//! 2. Prepare the scratch workspace from the submission's `src/` folders ([`crate::scratch`]).
//! 3. `build`: the judge (the suites on the reference solutions, [`crate::judge`]) and the
//!    dependencies (a trusted warm-up, [`crate::compile::warm`]) once, at the same time;
//!    then each lesson in its own sandbox ([`crate::compile`]).
//! 4. `Plan::new`: each lesson that cannot run gets its report; the tests of the others
//!    become jobs, grouped by lesson and tier.
//! 5. `record`: every job runs in the sandbox, a group in one process, a few groups at a
//!    time ([`crate::run`](mod@crate::run)).
//! 6. `judge_tapes`: the judge replays each group's tapes and decides.
//! 7. `assemble`: each test's result, each lesson's report.
//!
//! Nothing is written outside `target/checker/`.

use crate::compile::{self, BuildLimits, Toolchain};
use crate::course::{Course, ExpectedTest};
use crate::judge::Judge;
use crate::messages::MESSAGES;
use crate::process::Limits;
use crate::report::{CourseReport, LessonReport, LessonStatus, TestResult, TestStatus};
use crate::run::Run;
use crate::sandbox::Sandbox;
use crate::scratch::{Origin, Scratch, SourceState};
use anyhow::{Context, Result, bail};
use course_harness::report::Verdict;
use course_i18n::tr;
use course_manifest::Lesson;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The limits and parallelism of a grading run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Wall-clock limit for each test.
    pub test_timeout: Duration,
    /// Wall-clock limit for each step of building a lesson (its library, its tests).
    pub build_timeout: Duration,
    /// Address-space limit for each process of a lesson's build, in bytes.
    pub build_memory_bytes: u64,
    /// Address-space limit for each test, in bytes.
    pub memory_bytes: u64,
    /// How many tests run at once.
    pub jobs: usize,
    /// The unprivileged account tests run as, if any (`--run-as`).
    pub run_as: Option<crate::process::Account>,
    /// Build every lesson on the submission's own earlier lessons, not on the course's
    /// reference solutions (`--whole-stack`).
    pub whole_stack: bool,
    /// Run learner code without the sandbox even where it is available (`--unsandboxed`).
    pub unsandboxed: bool,
    /// What the judge is built on: the reference solutions, or (for `verify`) the stubs.
    pub judge_on: Origin,
    /// Report a lesson whose `src/` is its untouched stub as not started, without building
    /// it (`verify` turns this off: it builds and runs the stubs to prove they score 0).
    pub recognise_stubs: bool,
    /// After this many timeouts in a lesson, its remaining tests are not run.
    pub lesson_timeouts: usize,
    /// After this many timeouts in a submission, none of its remaining tests are run.
    pub submission_timeouts: usize,
    /// An instructor's grading (`class`, the Gradescope and Classroom formats): refuse to
    /// run learner code unsandboxed unless `unsandboxed` says so.
    pub instructor: bool,
    /// How messages name the lessons folder (`lessons`, or as given with `--lessons-dir`):
    /// compiler errors point at `<this>/<lesson>/src/lib.rs`, a file the learner can open.
    pub lessons_label: String,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            test_timeout: Duration::from_secs(10),
            build_timeout: Duration::from_secs(120),
            build_memory_bytes: 2 << 30,
            memory_bytes: 2 << 30,
            jobs: std::thread::available_parallelism().map_or(2, usize::from),
            run_as: None,
            whole_stack: false,
            unsandboxed: false,
            judge_on: Origin::Reference,
            recognise_stubs: true,
            lessons_label: "lessons".to_owned(),
            instructor: false,
            lesson_timeouts: 5,
            submission_timeouts: 8,
        }
    }
}

/// What grading reports while it works, for a progress display.
pub enum Event {
    /// The grader is downloading the crates the lessons build on (once, on a machine that
    /// has never built the course): this many so far.
    Downloading(usize),
    /// The grader is preparing: its judge and the course's dependencies (built once, so
    /// this takes long only on a first run).
    Preparing,
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
    let mut report = grade_lessons(course, lessons, submission, options, progress)?;
    if options.whole_stack || !course.has_references() {
        // Lessons ran on the learner's own earlier lessons: say where an earlier lesson
        // may be the cause of a failure.
        crate::cascade::explain(course, submission, &mut report, |more| {
            grade_lessons(course, more, submission, options, &|_| {})
        })?;
    }
    Ok(report)
}

/// [`grade`], without the notes on earlier lessons: the module's steps, one function each.
fn grade_lessons(
    course: &Course,
    lessons: &[&Lesson],
    submission: &Path,
    options: &Options,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<CourseReport> {
    if !submission.is_dir() {
        let folder = submission.display().to_string();
        bail!(tr!(MESSAGES, "grade-no-lessons-folder", folder = folder));
    }
    // A lessons folder that is a link could point anywhere, the course's solutions
    // included: grading reads a submission's own folder (as `class` does).
    if std::fs::symlink_metadata(submission).is_ok_and(|m| m.file_type().is_symlink()) {
        let path = submission.display().to_string();
        bail!(tr!(
            crate::messages::INSTRUCTOR,
            "scratch-symlink",
            path = path
        ));
    }
    let submission = submission.canonicalize().with_context(|| {
        let path = submission.display().to_string();
        tr!(MESSAGES, "grade-could-not-resolve", path = path)
    })?;
    let expected: Vec<Vec<ExpectedTest>> = lessons
        .iter()
        .map(|lesson| course.expected(lesson))
        .collect::<Result<_>>()?;
    let sandbox = choose_sandbox(options)?;
    if sandbox.is_active() && options.run_as.is_some() {
        crate::fallback::let_the_sandbox_pass(course)?;
    }
    let (scratch, states) = Scratch::prepare(
        course,
        lessons,
        &submission,
        options.whole_stack,
        options.recognise_stubs,
    )?;
    let (build, judge_build) =
        build(course, lessons, &scratch, &sandbox, options, progress)?;
    let plan = Plan::new(
        lessons,
        &states,
        expected,
        &scratch,
        &build,
        judge_build.as_deref(),
        options,
    );

    progress(Event::Testing(plan.jobs.len()));
    let judging = scratch.dir.with_extension("judging");
    std::fs::create_dir_all(&judging)?;
    let fallback = match options.run_as {
        Some(account) if !sandbox.is_active() => {
            Some(crate::fallback::Fallback::prepare(course, account)?)
        }
        _ => None,
    };
    let limits = Limits {
        timeout: options.test_timeout,
        memory_bytes: Some(options.memory_bytes),
        output_bytes: 64 << 10,
        account: options.run_as,
        // In the fallback, each run ends every process of the account (see `fallback`).
        end_account: fallback.is_some(),
        file_bytes: Some(64 << 20),
        cpu_seconds: Some(options.test_timeout.as_secs() + 5),
    };
    let context = crate::run::Context {
        sandbox: &sandbox,
        limits,
        scratch: &judging,
        fallback: fallback.as_ref(),
    };
    let outcomes = record(&plan, &context, options, progress)?;
    let verdicts = judge_tapes(&plan, &outcomes, &judging, &sandbox, options)?;
    let report = assemble(lessons, plan, outcomes, verdicts, limits);
    drop(scratch);
    Ok(report)
}

/// The sandbox learner code runs in: this machine's, unless `--unsandboxed` says none. An
/// instructor's grading refuses to go on without one unless told to.
fn choose_sandbox(options: &Options) -> Result<Sandbox> {
    let sandbox = if options.unsandboxed {
        Sandbox::None(tr!(MESSAGES, "grade-unsandboxed-given"))
    } else {
        sandbox().clone()
    };
    if !sandbox.is_active() {
        if options.instructor && !options.unsandboxed {
            bail!(tr!(
                MESSAGES,
                "grade-cannot-sandbox",
                why = sandbox.describe()
            ));
        }
        warn_unsandboxed(&sandbox);
    }
    Ok(sandbox)
}

/// Builds what grading needs: the judge and the dependencies (the trusted builds, at the
/// same time), then each lesson of the submission in its sandbox. Untouched stubs are not
/// built, so a first run of an untouched course builds nothing (and needs no judge).
fn build(
    course: &Course,
    lessons: &[&Lesson],
    scratch: &Scratch,
    sandbox: &Sandbox,
    options: &Options,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<(compile::Build, Option<Arc<Judge>>)> {
    if scratch.members.is_empty() {
        return Ok((compile::Build::default(), None));
    }
    let toolchain = Toolchain::locate()?;
    fetch(course, &toolchain, progress)?;
    progress(Event::Preparing);
    let target_dir = course.scratch_dir().join("build");
    // The judge of the lessons that will be built (an untouched stub is not).
    let built: Vec<&Lesson> = lessons
        .iter()
        .filter(|lesson| scratch.members.contains(&lesson.id))
        .copied()
        .collect();
    // The judge and the warm-up build into folders of their own, at the same time: on a
    // first run each spends long stretches on one crate, and two cores fill better.
    let (judged, warmed) = std::thread::scope(|scope| {
        let judging = course.has_references().then(|| {
            scope.spawn(|| {
                judge(
                    course,
                    &toolchain,
                    options.judge_on,
                    options.build_timeout,
                    &built,
                )
            })
        });
        let warmed = warm(course, &toolchain, &target_dir, &scratch.members);
        let judged = judging.map(|handle| handle.join().expect("no judge build panics"));
        (judged, warmed)
    });
    let judge_build = judged.transpose()?;
    warmed?;
    progress(Event::Building);
    let build = compile::build_lessons(
        course,
        &toolchain,
        sandbox,
        scratch,
        lessons,
        &target_dir,
        BuildLimits {
            timeout: options.build_timeout,
            memory_bytes: options.build_memory_bytes,
            hostile: options.instructor,
        },
    )?;
    Ok((build, judge_build))
}

/// What grading will do with each lesson and test: the report of each lesson that does
/// not run (missing, an untouched stub, not compiling), and for the others one job per
/// test, grouped by lesson and tier.
struct Plan {
    /// Each lesson's expected tests, from the course's suites.
    expected: Vec<Vec<ExpectedTest>>,
    /// Each lesson's report where it is decided without running a test.
    reports: Vec<Option<LessonReport>>,
    /// The tests to run, by slot.
    jobs: Vec<Job>,
    /// The slots of each lesson's tier, in libtest's order (by name): recorded in one
    /// process, replayed by the judge in one.
    groups: Vec<Vec<usize>>,
}

impl Plan {
    /// Decides each lesson's fate and collects the tests of those that built.
    fn new(
        lessons: &[&Lesson],
        states: &[SourceState],
        expected: Vec<Vec<ExpectedTest>>,
        scratch: &Scratch,
        build: &compile::Build,
        judge_build: Option<&Judge>,
        options: &Options,
    ) -> Self {
        let mut reports: Vec<Option<LessonReport>> = Vec::new();
        let mut jobs: Vec<Job> = Vec::new();
        for (index, ((lesson, state), names)) in
            lessons.iter().zip(states).zip(&expected).enumerate()
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
                    tr!(MESSAGES, "grade-missing-folder", id = &lesson.id),
                ),
                SourceState::MissingLib => unbuilt(
                    LessonStatus::Missing,
                    tr!(MESSAGES, "grade-missing-lib", id = &lesson.id),
                ),
                SourceState::Unusable(why) => unbuilt(LessonStatus::Missing, why.clone()),
                SourceState::Stub => Some(LessonReport::untouched(
                    &lesson.id,
                    &lesson.title,
                    lesson.first_function(),
                    names,
                )),
                SourceState::Copied if built(build, &dir) => {
                    for (test, expected_test) in names.iter().enumerate() {
                        let key = (dir.clone(), expected_test.tier.stem().to_owned());
                        let binary = build.executables.get(&key).cloned();
                        // The judge: the course's build of the suite, or (in an edition
                        // without reference solutions) the learner's own.
                        let judge = match judge_build {
                            Some(judge) => judge
                                .executable(lesson, expected_test)
                                .map(Path::to_path_buf)
                                .ok_or_else(|| {
                                    judge
                                        .failures
                                        .get(&lesson.id)
                                        .cloned()
                                        .unwrap_or_else(|| {
                                            tr!(MESSAGES, "grade-judge-missing")
                                        })
                                }),
                            None => binary.clone().ok_or_else(String::new),
                        };
                        jobs.push(Job {
                            lesson: index,
                            test,
                            binary,
                            judge,
                        });
                    }
                    None
                }
                SourceState::Copied => match build.errors.get(&dir) {
                    Some(errors) => unbuilt(
                        LessonStatus::DoesNotCompile,
                        tr!(
                            MESSAGES,
                            "grade-does-not-compile",
                            errors = first_lines(&learner_paths(
                                errors,
                                &format!("{}/{}", options.lessons_label, lesson.id)
                            ))
                        ),
                    ),
                    None => unbuilt(
                        LessonStatus::BuildFailed,
                        tr!(
                            MESSAGES,
                            "grade-build-failed",
                            errors = first_lines(
                                &build.failures.get(&dir).cloned().unwrap_or_else(
                                    || tr!(MESSAGES, "grade-cargo-silent")
                                )
                            )
                        ),
                    ),
                },
            };
            reports.push(report);
        }
        let mut plan = Self {
            expected,
            reports,
            jobs,
            groups: Vec::new(),
        };
        plan.groups = plan.group();
        plan
    }

    /// The expected test of `slot`.
    fn test(&self, slot: usize) -> &ExpectedTest {
        let job = &self.jobs[slot];
        &self.expected[job.lesson][job.test]
    }

    /// The slots of each lesson's tier, each group in libtest's order (by name).
    fn group(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (slot, job) in self.jobs.iter().enumerate() {
            match groups.last_mut() {
                Some(group)
                    if self.jobs[group[0]].lesson == job.lesson
                        && self.test(group[0]).tier == self.test(slot).tier =>
                {
                    group.push(slot)
                }
                _ => groups.push(vec![slot]),
            }
        }
        for group in &mut groups {
            group.sort_by(|&a, &b| self.test(a).name.cmp(&self.test(b).name));
        }
        groups
    }
}

/// The learner's runs: each lesson's tier in one sandboxed process, tests one after the
/// other; a test that did not end there runs again on its own. Each test's outcome, by
/// slot (a recorded run for the judge, or already a result).
fn record(
    plan: &Plan,
    context: &crate::run::Context<'_>,
    options: &Options,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<Vec<Option<Outcome>>> {
    let recorder = Recorder {
        plan,
        context,
        options,
        lesson_timeouts: plan.expected.iter().map(|_| AtomicUsize::new(0)).collect(),
        all_timeouts: AtomicUsize::new(0),
        outcomes: Mutex::new((0..plan.jobs.len()).map(|_| None).collect()),
        progress,
    };
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    // Every held-out group after every graded one, in a phase of its own: without the
    // sandbox, tests share the account's /tmp, and a held-out test that wrote its inputs
    // there could have them shown by a later graded test's message, which students see
    // before the grades are published.
    let (graded, held_out): (Vec<&Vec<usize>>, Vec<&Vec<usize>>) = plan
        .groups
        .iter()
        .partition(|group| plan.test(group[0]).tier != crate::course::Tier::HeldOut);
    for phase in [graded, held_out] {
        crate::pool::for_each(&phase, options.jobs, |_, group| {
            if let Err(error) = recorder.group(group) {
                *failure.lock().expect("no worker panics") = Some(error);
            }
        });
    }
    if let Some(error) = failure.into_inner().expect("no worker panics") {
        return Err(error.context(tr!(MESSAGES, "grade-could-not-run-test")));
    }
    Ok(recorder.outcomes.into_inner().expect("no worker panics"))
}

/// The judge: one replay per group, of every test whose run left a tape. Each test's
/// verdict, by slot (`None` where there was nothing to replay).
fn judge_tapes(
    plan: &Plan,
    outcomes: &[Option<Outcome>],
    judging: &Path,
    sandbox: &Sandbox,
    options: &Options,
) -> Result<Vec<Option<Verdict>>> {
    let mut verdicts: Vec<Option<Verdict>> = (0..plan.jobs.len()).map(|_| None).collect();
    for group in &plan.groups {
        let tapes: Vec<(usize, &[u8])> = group
            .iter()
            .filter_map(|&slot| match &outcomes[slot] {
                Some(Outcome::Recorded(run)) if run.judgeable() => {
                    Some((slot, run.tape.as_deref()?))
                }
                _ => None,
            })
            .collect();
        let Some(judge_exe) = tapes
            .first()
            .and_then(|&(slot, _)| plan.jobs[slot].judge.clone().ok())
        else {
            continue;
        };
        let named: Vec<(&str, &[u8])> = tapes
            .iter()
            .map(|&(slot, tape)| (plan.test(slot).name.as_str(), tape))
            .collect();
        // Where the judge is the learner's own executable (an edition without reference
        // solutions), it runs in the sandbox, and there is no reference to compare with.
        let own_build = plan.jobs[tapes[0].0].binary.as_ref() == Some(&judge_exe);
        let mut decided = crate::judge::replay(
            &judge_exe,
            &named,
            judging,
            own_build.then_some(sandbox),
            !own_build && options.judge_on == Origin::Reference,
            options.jobs,
            JUDGE_TIMEOUT,
        )
        .with_context(|| tr!(MESSAGES, "grade-could-not-run-judge"))?;
        for (slot, _) in tapes {
            verdicts[slot] = decided.remove(&plan.test(slot).name);
        }
    }
    Ok(verdicts)
}

/// Each test's result from its outcome and verdict, and each lesson's report.
fn assemble(
    lessons: &[&Lesson],
    plan: Plan,
    outcomes: Vec<Option<Outcome>>,
    verdicts: Vec<Option<Verdict>>,
    limits: Limits,
) -> CourseReport {
    let mut results = outcomes
        .into_iter()
        .zip(&verdicts)
        .enumerate()
        .map(|(slot, (outcome, verdict))| {
            let test = plan.test(slot);
            outcome.map(|outcome| match outcome {
                Outcome::Done(result) => result,
                Outcome::Recorded(run) => {
                    crate::run::decide(test, &run, verdict.as_ref(), limits)
                }
            })
        })
        .collect::<Vec<Option<TestResult>>>()
        .into_iter();
    let lessons_reports = lessons
        .iter()
        .zip(plan.reports)
        .zip(&plan.expected)
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
    CourseReport::new(lessons_reports)
}

/// The most results one lesson's tier (one group of tests) may keep for the judge, in all:
/// as much as one test may write, far more than a whole lesson's tests ask for.
const MAX_GROUP_TAPE_BYTES: usize = crate::run::MAX_TAPE_BYTES;

/// How long the judge may take to replay one lesson's tier: it runs no learner code.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(300);

/// What the first stage made of a test: a recorded run for the judge, or a result already.
enum Outcome {
    Recorded(Run),
    Done(TestResult),
}

/// The first stage's state: what to record, the time budget spent so far, and the
/// outcomes, shared by the workers.
struct Recorder<'a> {
    plan: &'a Plan,
    context: &'a crate::run::Context<'a>,
    options: &'a Options,
    /// Timeouts per lesson and in all. A test that times out costs its whole timeout, so
    /// after `lesson_timeouts` of them a lesson's remaining tests are not run, and after
    /// `submission_timeouts` none of the submission's are. Counting timeouts, not seconds,
    /// keeps the grade the same on a fast machine and a slow one.
    lesson_timeouts: Vec<AtomicUsize>,
    all_timeouts: AtomicUsize,
    outcomes: Mutex<Vec<Option<Outcome>>>,
    progress: &'a (dyn Fn(Event) + Sync),
}

impl Recorder<'_> {
    fn test(&self, slot: usize) -> &ExpectedTest {
        self.plan.test(slot)
    }

    fn over_budget(&self, lesson: usize) -> bool {
        self.lesson_timeouts[lesson].load(Ordering::SeqCst)
            >= self.options.lesson_timeouts
            || self.all_timeouts.load(Ordering::SeqCst)
                >= self.options.submission_timeouts
    }

    fn timed_out(&self, lesson: usize) {
        self.lesson_timeouts[lesson].fetch_add(1, Ordering::SeqCst);
        self.all_timeouts.fetch_add(1, Ordering::SeqCst);
    }

    fn done(&self, slot: usize, outcome: Outcome) {
        self.outcomes.lock().expect("no worker panics")[slot] = Some(outcome);
        (self.progress)(Event::TestDone);
    }

    /// Records the tests of one lesson's tier (`group`, slots in libtest's order): in one
    /// sandboxed process while they end normally, each test that did not on its own.
    fn group(&self, group: &[usize]) -> Result<()> {
        let mut pending: Vec<usize> = Vec::new();
        // The results the group's tests have kept so far, in bytes (see `kept`).
        let mut kept = 0;
        for &slot in group {
            match (&self.plan.jobs[slot].binary, &self.plan.jobs[slot].judge) {
                (Some(_), Ok(_)) => pending.push(slot),
                (None, _) => self.done(slot, Outcome::Done(not_built(self.test(slot)))),
                (Some(_), Err(why)) => {
                    self.done(slot, Outcome::Done(no_judge(self.test(slot), why)))
                }
            }
        }
        while let Some(&first) = pending.first() {
            let lesson = self.plan.jobs[first].lesson;
            if self.over_budget(lesson) {
                for slot in pending.drain(..) {
                    self.done(
                        slot,
                        Outcome::Done(not_run(self.test(slot), self.options)),
                    );
                }
                break;
            }
            let binary = self.plan.jobs[first]
                .binary
                .as_deref()
                .expect("pending tests were built");
            let tests: Vec<&ExpectedTest> =
                pending.iter().map(|&slot| self.test(slot)).collect();
            let crate::run::Batch { status, tapes } =
                crate::run::record_batch(binary, &tests, self.context)?;
            let Some(mut tapes) = tapes else {
                // The tape overflowed: every test on its own, so only the culprit pays.
                for slot in pending.drain(..) {
                    self.alone(slot, &mut kept)?;
                }
                break;
            };
            // The tests whose bodies ended, each within its own time limit on the
            // checker's clock, are recorded; the first that did not is looked at below.
            let limit = self.options.test_timeout;
            let mut previous_end = Duration::ZERO;
            let ended = pending
                .iter()
                .take_while(|&&slot| {
                    let Some(tape) = tapes.get(&self.test(slot).name) else {
                        return false;
                    };
                    let in_time = tape
                        .ended_at
                        .is_some_and(|at| at.saturating_sub(previous_end) <= limit);
                    if let Some(at) = tape.ended_at {
                        previous_end = at;
                    }
                    tape.ended && in_time
                })
                .count();
            for slot in pending.drain(..ended) {
                let tape = tapes.remove(&self.test(slot).name).unwrap_or_default();
                let run = Run {
                    status: Some(success()),
                    stderr: String::new(),
                    tape: Some(tape.entries),
                };
                self.done(slot, self.kept(slot, run, &mut kept));
            }
            if pending.is_empty() {
                break;
            }
            let stopped = pending.remove(0);
            // Out of time only if the process was stopped while this test ran: no later
            // test had started (a later test's entries mean this one crashed or ran over
            // its limit and was followed; alone, its own process says which).
            let later_ran = pending.iter().any(|&slot| {
                tapes
                    .get(&self.test(slot).name)
                    .is_some_and(|t| t.ended || !t.entries.is_empty())
            });
            let ran_over = tapes.get(&self.test(stopped).name).is_some_and(|t| t.ended);
            if status.is_none() && !later_ran && !ran_over {
                // Out of time in this test: it would be out of time on its own too.
                self.timed_out(lesson);
                let tape = tapes.remove(&self.test(stopped).name).unwrap_or_default();
                let run = Run {
                    status: None,
                    stderr: String::new(),
                    tape: Some(tape.entries),
                };
                self.done(stopped, self.kept(stopped, run, &mut kept));
            } else {
                // It crashed or exited: alone, its own process says how.
                self.alone(stopped, &mut kept)?;
            }
        }
        Ok(())
    }

    /// A recorded run of the test in `slot`, kept for the judge if the results its group
    /// has kept so far (`kept`, in bytes) leave room for its tape; else a failure. The
    /// checker holds every kept tape until the judge has replayed them: a test may write
    /// up to [`MAX_GROUP_TAPE_BYTES`] of results, and its group no more in all, so a
    /// submission that floods every test costs a bounded amount of memory. The tests of a
    /// group are recorded one after the other, so which of them pass the bound is the
    /// same on every run.
    fn kept(&self, slot: usize, run: Run, kept: &mut usize) -> Outcome {
        let bytes = run.tape.as_ref().map_or(0, Vec::len);
        if *kept + bytes > MAX_GROUP_TAPE_BYTES {
            let test = self.test(slot);
            return Outcome::Done(TestResult {
                name: test.name.clone(),
                tier: test.tier,
                passed: false,
                status: TestStatus::Crash,
                message: tr!(
                    MESSAGES,
                    "grade-tapes-too-large",
                    mib = MAX_GROUP_TAPE_BYTES >> 20
                ),
                function: None,
                named: Vec::new(),
                by_reference: false,
            });
        }
        *kept += bytes;
        Outcome::Recorded(run)
    }

    /// Records one test in a process of its own.
    fn alone(&self, slot: usize, kept: &mut usize) -> Result<()> {
        let lesson = self.plan.jobs[slot].lesson;
        if self.over_budget(lesson) {
            self.done(slot, Outcome::Done(not_run(self.test(slot), self.options)));
            return Ok(());
        }
        let binary = self.plan.jobs[slot]
            .binary
            .as_deref()
            .expect("the test was built");
        let run = crate::run::record(binary, self.test(slot), self.context)?;
        if run.status.is_none() {
            self.timed_out(lesson);
        }
        self.done(slot, self.kept(slot, run, kept));
        Ok(())
    }
}

/// The status of a process that exited normally.
fn success() -> std::process::ExitStatus {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        std::process::ExitStatus::from_raw(0)
    }
    #[cfg(not(unix))]
    {
        use std::os::windows::process::ExitStatusExt;
        std::process::ExitStatus::from_raw(0)
    }
}

/// One test to run: which lesson and test, its executable (none if that tier's suite did
/// not build), and the judge's.
struct Job {
    lesson: usize,
    test: usize,
    binary: Option<PathBuf>,
    /// The judge's executable, or why it did not build.
    judge: std::result::Result<PathBuf, String>,
}

/// The sandbox of this machine, detected once.
pub fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(Sandbox::detect)
}

/// The judge of `lessons` built on `origin`, built once per checker process.
fn judge(
    course: &Course,
    toolchain: &Toolchain,
    origin: Origin,
    timeout: Duration,
    lessons: &[&Lesson],
) -> Result<Arc<Judge>> {
    type Key = (PathBuf, Origin, Vec<String>);
    static JUDGES: Mutex<Vec<(Key, Arc<Judge>)>> = Mutex::new(Vec::new());
    let mut judges = JUDGES.lock().expect("no judge build panics");
    let key: Key = (
        course.root.clone(),
        origin,
        lessons.iter().map(|lesson| lesson.id.clone()).collect(),
    );
    if let Some((_, judge)) = judges.iter().find(|(k, _)| k == &key) {
        return Ok(judge.clone());
    }
    // The judge's build is trusted and can take minutes the first time: it is not held
    // to a lesson's build limit.
    let judge = Arc::new(Judge::build(
        course,
        toolchain,
        origin,
        timeout.max(Duration::from_secs(1800)),
        lessons,
    )?);
    judges.push((key, judge.clone()));
    Ok(judge)
}

/// Downloads what the builds need, once per checker process (see [`compile::fetch`]).
fn fetch(
    course: &Course,
    toolchain: &Toolchain,
    progress: &(dyn Fn(Event) + Sync),
) -> Result<()> {
    static FETCHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut fetched = FETCHED.lock().expect("no download panics");
    if fetched.contains(&course.root) {
        return Ok(());
    }
    compile::fetch(course, toolchain, &|count| {
        progress(Event::Downloading(count))
    })?;
    fetched.push(course.root.clone());
    Ok(())
}

/// Builds the dependencies of the lessons `members` (ids) into the shared build folder,
/// once per checker process and lesson.
fn warm(
    course: &Course,
    toolchain: &Toolchain,
    target_dir: &Path,
    members: &[String],
) -> Result<()> {
    static WARMED: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    let mut warmed = WARMED.lock().expect("no warm-up panics");
    let cold: Vec<&str> = members
        .iter()
        .filter(|id| !warmed.contains(&(course.root.clone(), (*id).clone())))
        .map(String::as_str)
        .collect();
    if cold.is_empty() {
        return Ok(());
    }
    let scratch = Scratch::prepare_trusted(course, Origin::Empty, "warm")?;
    compile::warm(
        course,
        toolchain,
        &scratch,
        target_dir,
        Duration::from_secs(1800),
        &cold,
    )?;
    warmed.extend(
        cold.iter()
            .map(|id| (course.root.clone(), (*id).to_owned())),
    );
    Ok(())
}

/// A test left unrun because its lesson or submission used up its time budget.
fn not_run(test: &ExpectedTest, options: &Options) -> TestResult {
    TestResult {
        name: test.name.clone(),
        tier: test.tier,
        passed: false,
        status: TestStatus::Timeout,
        message: tr!(
            MESSAGES,
            "grade-not-run",
            seconds = options.test_timeout.as_secs(),
            lesson = options.lesson_timeouts,
            submission = options.submission_timeouts
        ),
        function: None,
        named: Vec::new(),
        by_reference: false,
    }
}

/// Says once per process, on standard error, that learner code is not contained.
fn warn_unsandboxed(sandbox: &Sandbox) {
    static WARNED: OnceLock<()> = OnceLock::new();
    WARNED.get_or_init(|| {
        eprintln!(
            "{}",
            tr!(MESSAGES, "grade-no-sandbox-note", why = sandbox.describe())
        );
    });
}

fn no_judge(test: &ExpectedTest, why: &str) -> TestResult {
    TestResult {
        name: test.name.clone(),
        tier: test.tier,
        passed: false,
        status: TestStatus::NotBuilt,
        message: tr!(
            MESSAGES,
            "grade-judge-not-built",
            suite = test.tier.stem(),
            errors = first_lines(why)
        ),
        function: None,
        named: Vec::new(),
        by_reference: false,
    }
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
        message: tr!(MESSAGES, "grade-suite-not-built", suite = test.tier.stem()),
        function: None,
        named: Vec::new(),
        by_reference: false,
    }
}

/// Compiler messages with the paths of the lesson's files as the learner knows them:
/// rustc names them relative to the scratch copy it built (`src/lib.rs:38:21`); the
/// learner's file is `lessons/02-attention/src/lib.rs`.
fn learner_paths(errors: &str, lesson_folder: &str) -> String {
    errors
        .lines()
        .map(|line| {
            let trimmed = line.trim_start();
            for arrow in ["--> ", "::: "] {
                if let Some(path) = trimmed.strip_prefix(arrow)
                    && path.starts_with("src/")
                {
                    let indent = &line[..line.len() - trimmed.len()];
                    return format!("{indent}{arrow}{lesson_folder}/{path}");
                }
            }
            line.to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_ERROR_LINES {
        text.trim_end().to_owned()
    } else {
        let more = tr!(
            MESSAGES,
            "grade-more-lines",
            count = lines.len() - MAX_ERROR_LINES
        );
        format!("{}\n{more}", lines[..MAX_ERROR_LINES].join("\n"))
    }
}
