//! `cargo xtask class-bench`: a generated class of 30, graded three times, and the class
//! report checked against the gradebook and against what the generator planted.
//!
//! The class ([`class`] lists it, student by student) is what an instructor receives:
//!
//! - complete, partial, not started, empty and untouched submissions, as folders, a
//!   `.tar.gz` and a `.zip`;
//! - hostile ones built from the checker's fixtures (`checker/tests/fixtures/padding_mask/`):
//!   a compile error, an endless loop, an abort, forged results, loops in every function;
//! - students whose lesson 02 or 03 is the reference solution with one mistake of its
//!   `mistakes.toml`, the same mistake for several of them (4, 3, 3 and 2 students), so
//!   that the report has common misconceptions to show;
//! - three with a plausible mistake that no list has, which no check can name;
//! - two whose lesson 02 is the same hand-written implementation
//!   (`class_bench/near_copy.rs.txt`), once as written and once disguised (names, comments
//!   and indentation changed). Everyone else's code is a stub, a reference solution or one
//!   with a small edit, so this is the one pair a comparison of sources should flag.
//!
//! `checker class` grades it with `--report` and `--history`: from a cold build cache, then
//! warm (the two JSON gradebooks must be byte-identical), then "a week later", once half of
//! each planted mistake's students (rounded up) fixed it and a student who had not started
//! began. The reports (`report/report.json`) of the first and third runs are checked
//!
//! - against the gradebook of their run, recomputed here: every lesson's histogram, median,
//!   mean and per-test pass counts, every misconception's students, every student's score;
//! - against what was planted: every lesson's score; each listed mistake's students under
//!   one of its cause keys; the unlisted ones under no misconception of their lesson, and
//!   among its unexplained failures; the empty, untouched, not compiling, timing-out,
//!   crashing and blocked submissions among the stuck; the near-copy pair among the
//!   similar ones, with at most three other pairs;
//! - after the third run, against its history: three runs, the gradebook's scores last,
//!   and fewer students with each planted mistake than in the first run.
//!
//! The second run's report must equal the first's but for its history (a note otherwise).
//! The week-later class is graded twice more, warm, without and with the report, to
//! measure the report's share of the time. The task prints a table of the class, the
//! timings and the notes (findings that fail nothing), and fails with the list of
//! problems if there are any.

use crate::mistakes::{self, Mistake, Sources};
use crate::run_command;
use anyhow::{Context, Result, bail, ensure};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The lessons the class works on by name.
const RNN: &str = "01-rnn-bottleneck";
const ATTENTION: &str = "02-attention";
const MULTI_HEAD: &str = "03-multi-head-attention";

/// The listed mistakes the class makes, by their name in `mistakes.toml`.
const SOFTMAX_OVER_COLUMNS: &str = "softmax over the columns";
const MASK_AFTER_SOFTMAX: &str = "mask applied after the softmax";
const HEADS_REVERSED: &str = "heads merged in reverse order";
const SCORES_OVER_D_K: &str = "scores divided by d_k instead of √d_k";

/// Hostile fixtures whose trick changes no result: lesson 02 scores 1.
const HARMLESS: [&str; 2] = ["escaping_child", "reads_the_suites_at_run_time"];

/// More similar pairs than this besides the near copies make the section too noisy to use.
const MOST_OTHER_PAIRS: usize = 3;

/// How far two numbers the report and this task compute from the same scores may differ:
/// they may add them in another order.
const TOLERANCE: f64 = 1e-9;

/// The hand-written lesson 02 of the two near copies: data, not compiled here.
const NEAR_COPY: &str = include_str!("class_bench/near_copy.rs.txt");

/// The disguise of the second near copy: its helpers and locals renamed, whole words only
/// ([`replace_word`]). Every name is private to the file and every new one unused in it,
/// so the disguised copy compiles as the original does.
const DISGUISE: &[(&str, &str)] = &[
    ("largest_in_row", "row_peak"),
    ("times", "matprod"),
    ("flip", "transposed"),
    ("probs", "soft"),
    ("top", "peak"),
    ("total", "denom"),
    ("e", "ex"),
    ("acc", "running"),
    ("out", "res"),
    ("grad", "ds"),
    ("along", "rowdot"),
    ("allowed", "visible"),
    ("real", "is_tok"),
    ("masked", "hidden"),
    ("ok", "keep"),
    ("root", "norm"),
    ("dot", "qk"),
    ("inv_root", "factor"),
    ("r", "row_i"),
    ("c", "col_j"),
    ("o", "feat"),
    ("value", "slot"),
];

/// A plausible mistake that no `mistakes.toml` lists: the reference solution with `find`
/// replaced by `replace`, once.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Unlisted {
    name: &'static str,
    function: &'static str,
    find: &'static str,
    replace: &'static str,
}

const CAUSAL_MASK_OFF_BY_ONE: Unlisted = Unlisted {
    name: "causal mask lets each position see one step ahead",
    function: "causal_mask",
    find: "|(i, j)| j <= i)",
    replace: "|(i, j)| j <= i + 1)",
};

const SOFTMAX_BACKWARD_SIGN_FLIPPED: Unlisted = Unlisted {
    name: "softmax backward adds the row sum instead of subtracting it",
    function: "softmax_rows_backward",
    find: "weights * &(d_weights - &row_dots)",
    replace: "weights * &(d_weights + &row_dots)",
};

const BACKWARD_SCALE_INVERTED: Unlisted = Unlisted {
    name: "attention backward multiplies dS by √d_k instead of dividing by it",
    function: "scaled_dot_product_attention_backward",
    find: "let scale = 1.0 / (q.ncols() as Float).sqrt();",
    replace: "let scale = (q.ncols() as Float).sqrt();",
};

impl Unlisted {
    /// The mistake as [`mistakes::apply`] takes it.
    fn as_mistake(&self) -> Mistake {
        Mistake {
            name: self.name.to_owned(),
            function: self.function.to_owned(),
            find: self.find.to_owned(),
            replace: self.replace.to_owned(),
            causes: Vec::new(),
            named: Vec::new(),
        }
    }
}

/// What one lesson of a submission holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Work {
    /// The lesson's untouched stub: not started.
    Stub,
    /// The reference solution.
    Solution,
    /// The reference solution with the mistake of this name from the lesson's
    /// `mistakes.toml`.
    Listed(&'static str),
    /// The reference solution with a mistake no list has.
    Unlisted(Unlisted),
    /// Lesson 02's solution with this fixture at the start of `padding_mask`.
    Hostile(&'static str),
    /// The stub with every `todo!()` an endless loop.
    Looping,
    /// The hand-written lesson 02, as written or disguised.
    NearCopy { disguised: bool },
}

/// What score a lesson's work must get.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expected {
    Zero,
    One,
    /// Strictly between 0 and 1: some tests pass, some fail.
    Between,
}

impl Work {
    fn expected(self) -> Expected {
        match self {
            Work::Stub | Work::Looping | Work::Hostile("compile_error") => Expected::Zero,
            Work::Solution | Work::NearCopy { .. } => Expected::One,
            Work::Hostile(fixture) if HARMLESS.contains(&fixture) => Expected::One,
            Work::Listed(_) | Work::Unlisted(_) | Work::Hostile(_) => Expected::Between,
        }
    }
}

/// How a submission is handed in.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    Folder,
    TarGz,
    Zip,
    /// An empty folder.
    Empty,
}

/// One student of the generated class, named `student-NN-<kind>` by their place in it.
#[derive(Debug, Clone)]
struct Student {
    kind: &'static str,
    form: Form,
    /// What the lessons not in `work` hold.
    otherwise: Work,
    work: Vec<(&'static str, Work)>,
}

impl Student {
    fn work_on(&self, lesson: &str) -> Work {
        self.work
            .iter()
            .find(|(id, _)| *id == lesson)
            .map_or(self.otherwise, |&(_, work)| work)
    }

    /// What the report's `stuck` list must say of them: one of these kinds, for this
    /// lesson if one is named.
    fn stuck(&self) -> Option<(&'static [&'static str], Option<&'static str>)> {
        if self.form == Form::Empty {
            return Some((&["not_submitted", "not_started"], None));
        }
        if self.otherwise == Work::Looping {
            return Some((&["timing_out"], None));
        }
        if self.otherwise == Work::Stub && self.work.is_empty() {
            return Some((&["not_started"], None));
        }
        let failing =
            |lesson| matches!(self.work_on(lesson), Work::Listed(_) | Work::Unlisted(_));
        match self.work_on(ATTENTION) {
            Work::Hostile("compile_error") => {
                Some((&["does_not_compile"], Some(ATTENTION)))
            }
            Work::Hostile("endless_loop") => Some((&["timing_out"], Some(ATTENTION))),
            Work::Hostile("abort") => Some((&["crashing"], Some(ATTENTION))),
            // Lesson 03 builds on lesson 02: failing both, the place to start is 02.
            _ if failing(ATTENTION) && failing(MULTI_HEAD) => {
                Some((&["blocked"], Some(MULTI_HEAD)))
            }
            _ => None,
        }
    }
}

/// The names of the two students whose lesson 02 is the hand-written one.
fn near_copies(class: &[Student]) -> Result<(String, String)> {
    let mut pair = class
        .iter()
        .zip(names(class))
        .filter(|(student, _)| {
            matches!(student.work_on(ATTENTION), Work::NearCopy { .. })
        })
        .map(|(_, name)| name);
    match (pair.next(), pair.next(), pair.next()) {
        (Some(a), Some(b), None) => Ok((a, b)),
        _ => bail!("the class needs exactly two near copies"),
    }
}

/// The students' names, in class order.
fn names(class: &[Student]) -> Vec<String> {
    class
        .iter()
        .enumerate()
        .map(|(index, student)| format!("student-{index:02}-{}", student.kind))
        .collect()
}

/// The class of 30, in the order they are numbered.
fn class() -> Vec<Student> {
    use Work::{Hostile, Listed, Looping, NearCopy, Solution, Stub, Unlisted};
    let student = |kind, form, otherwise, work: &[(&'static str, Work)]| Student {
        kind,
        form,
        otherwise,
        work: work.to_vec(),
    };
    let folder =
        |kind, work: &[(&'static str, Work)]| student(kind, Form::Folder, Stub, work);
    let hostile = |fixture| folder(fixture, &[(ATTENTION, Hostile(fixture))]);
    vec![
        student("complete", Form::Folder, Solution, &[]),
        student("complete-tar-gz", Form::TarGz, Solution, &[]),
        student("empty", Form::Empty, Stub, &[]),
        student("untouched-zip", Form::Zip, Stub, &[]),
        folder("not-started", &[]),
        folder("partial", &[(ATTENTION, Solution)]),
        folder(
            "up-to-03",
            &[
                (RNN, Solution),
                (ATTENTION, Solution),
                (MULTI_HEAD, Solution),
            ],
        ),
        hostile("compile_error"),
        hostile("endless_loop"),
        hostile("abort"),
        hostile("forged_output_and_report"),
        hostile("escaping_child"),
        student("loops_everywhere", Form::Folder, Looping, &[]),
        folder(
            "softmax-over-columns",
            &[(RNN, Solution), (ATTENTION, Listed(SOFTMAX_OVER_COLUMNS))],
        ),
        folder(
            "softmax-over-columns",
            &[(RNN, Solution), (ATTENTION, Listed(SOFTMAX_OVER_COLUMNS))],
        ),
        folder(
            "softmax-over-columns",
            &[(ATTENTION, Listed(SOFTMAX_OVER_COLUMNS))],
        ),
        folder(
            "softmax-over-columns",
            &[(ATTENTION, Listed(SOFTMAX_OVER_COLUMNS))],
        ),
        folder(
            "mask-after-softmax",
            &[(RNN, Solution), (ATTENTION, Listed(MASK_AFTER_SOFTMAX))],
        ),
        folder(
            "mask-after-softmax",
            &[(ATTENTION, Listed(MASK_AFTER_SOFTMAX))],
        ),
        folder(
            "mask-after-softmax-heads-reversed",
            &[
                (RNN, Solution),
                (ATTENTION, Listed(MASK_AFTER_SOFTMAX)),
                (MULTI_HEAD, Listed(HEADS_REVERSED)),
            ],
        ),
        folder(
            "heads-reversed",
            &[
                (RNN, Solution),
                (ATTENTION, Solution),
                (MULTI_HEAD, Listed(HEADS_REVERSED)),
            ],
        ),
        folder("scores-over-d-k", &[(ATTENTION, Listed(SCORES_OVER_D_K))]),
        folder(
            "causal-mask-off-by-one",
            &[
                (RNN, Solution),
                (ATTENTION, Unlisted(CAUSAL_MASK_OFF_BY_ONE)),
            ],
        ),
        folder(
            "softmax-backward-sign-flipped",
            &[(ATTENTION, Unlisted(SOFTMAX_BACKWARD_SIGN_FLIPPED))],
        ),
        folder(
            "backward-scale-inverted",
            &[(ATTENTION, Unlisted(BACKWARD_SCALE_INVERTED))],
        ),
        folder(
            "near-copy",
            &[(RNN, Solution), (ATTENTION, NearCopy { disguised: false })],
        ),
        folder(
            "near-copy-disguised",
            &[(ATTENTION, NearCopy { disguised: true })],
        ),
        hostile("forged_tape"),
        hostile("reads_the_suites_at_run_time"),
        // Lesson 03 fails, and so does lesson 02, which it builds on.
        folder(
            "blocked",
            &[
                (RNN, Solution),
                (ATTENTION, Listed(SCORES_OVER_D_K)),
                (MULTI_HEAD, Listed(HEADS_REVERSED)),
            ],
        ),
    ]
}

/// The class a week later: of each listed mistake's students, the first half (rounded up)
/// fixed it (that lesson is now the reference solution), and the student who had not
/// started solved lesson 01.
fn a_week_later(class: &[Student]) -> Vec<Student> {
    let before = listed_counts(class);
    let mut fixed: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut later = class.to_vec();
    for student in &mut later {
        for (lesson, work) in &mut student.work {
            if let Work::Listed(name) = *work {
                let done = fixed.entry((*lesson, name)).or_default();
                if *done < before[&(*lesson, name)].div_ceil(2) {
                    *done += 1;
                    *work = Work::Solution;
                }
            }
        }
        if student.kind == "not-started" {
            student.work.push((RNN, Work::Solution));
        }
    }
    later
}

/// How many students make each listed mistake, by lesson and name.
fn listed_counts(class: &[Student]) -> BTreeMap<(&'static str, &'static str), usize> {
    let mut counts = BTreeMap::new();
    for student in class {
        for &(lesson, work) in &student.work {
            if let Work::Listed(name) = work {
                *counts.entry((lesson, name)).or_default() += 1;
            }
        }
    }
    counts
}

/// The cause keys of each listed mistake the class makes, by lesson and name.
type CauseKeys = BTreeMap<(String, String), Vec<String>>;

/// The cause keys of the listed mistakes `class` makes, from their lists: each must be
/// listed and have a cause key, or no check of the report could find its students.
fn cause_keys(lists: &[(String, Vec<Mistake>)], class: &[Student]) -> Result<CauseKeys> {
    let mut keys = CauseKeys::new();
    for (lesson, name) in listed_counts(class).into_keys() {
        let mistake = listed(lists, lesson, name)?;
        ensure!(
            !mistake.causes.is_empty(),
            "{lesson}: the mistake `{name}` has no cause key: the class needs one a check names"
        );
        keys.insert((lesson.to_owned(), name.to_owned()), mistake.causes.clone());
    }
    Ok(keys)
}

/// The mistake of `lesson`'s list named `name`.
fn listed<'a>(
    lists: &'a [(String, Vec<Mistake>)],
    lesson: &str,
    name: &str,
) -> Result<&'a Mistake> {
    lists
        .iter()
        .filter(|(id, _)| id == lesson)
        .flat_map(|(_, mistakes)| mistakes)
        .find(|mistake| mistake.name == name)
        .with_context(|| {
            format!("solutions/{lesson}/mistakes.toml lists no mistake `{name}`")
        })
}

/// Runs the bench; `python` is the interpreter that has copydetect, for the report's
/// similar submissions.
pub fn run(root: &Path, python: &Path) -> Result<()> {
    let base = root.join("target").join("xtask").join("class");
    if base.exists() {
        std::fs::remove_dir_all(&base)?;
    }
    let lessons = lesson_ids(root)?;
    let lists = mistakes::lists(root, None)?;
    let week_one = class();
    let week_two = a_week_later(&week_one);
    let keys = cause_keys(&lists, &week_one)?;
    let write = |class: &[Student]| {
        write_class(root, &lessons, &lists, class, &base.join("submissions"))
    };
    write(&week_one)?;

    run_command(
        Command::new("cargo")
            .current_dir(root)
            .args(["build", "-q", "-p", "checker"]),
    )?;
    // Cold: no compiled dependencies in the checker's build cache.
    let cache = root.join("target").join("checker").join("build");
    if cache.exists() {
        std::fs::remove_dir_all(&cache)?;
    }
    let history = base.join("history.sqlite");
    let grade = |run: &str, report: bool| -> Result<(PathBuf, f64)> {
        let dir = base.join(run);
        let report = report.then_some(Recorded {
            history: &history,
            label: run,
            python,
        });
        Ok((
            dir.clone(),
            grade_class(root, &base.join("submissions"), &dir, report)?,
        ))
    };
    let (first, cold) = grade("run-1", true)?;
    let (second, warm) = grade("run-2", true)?;
    same_gradebooks(&first, &[&second])?;

    write(&week_two)?;
    // The first grading of the changed class rebuilds the lessons that changed; the two
    // after it are warm, so that their difference is the report's alone.
    let (rebuilt, rebuild) = grade("run-3-rebuild", false)?;
    let (without, without_report) = grade("run-3-without-report", false)?;
    let (third, with_report) = grade("run-3", true)?;
    same_gradebooks(&third, &[&rebuilt, &without])?;
    let timings = Timings {
        cold,
        warm,
        rebuild,
        without_report,
        with_report,
    };

    let book_one: Gradebook = read_json(&first.join("gradebook.json"))?;
    let book_three: Gradebook = read_json(&third.join("gradebook.json"))?;
    let report_one: ClassReport = read_json(&first.join("report/report.json"))?;
    let report_three: ClassReport = read_json(&third.join("report/report.json"))?;

    let mut findings = Findings::default();
    let near_copies = near_copies(&week_one)?;
    for (label, report, book, class) in [
        ("first run", &report_one, &book_one, &week_one),
        ("a week later", &report_three, &book_three, &week_two),
    ] {
        let mut found = Findings {
            problems: check_against_gradebook(report, book),
            notes: Vec::new(),
        };
        found.add(check_planted(report, book, class, &keys));
        found.add(check_similarity(report, (&near_copies.0, &near_copies.1)));
        findings.add_labelled(label, found);
    }
    if let Some(note) = differences_outside_history(
        &first.join("report/report.json"),
        &second.join("report/report.json"),
    )? {
        findings.notes.push(note);
    }
    let (history_findings, trend) =
        check_history(&report_three, &book_three, &week_one, &week_two, &keys);
    findings.add_labelled("history", history_findings);

    print_table(&lessons, &names(&week_one), &book_one, &book_three);
    println!(
        "\n{} students, {} lessons each",
        week_one.len(),
        lessons.len()
    );
    timings.print();
    println!("  gradebooks of the first two runs:        byte-identical");
    println!("  a week later, with and without report:   identical gradebooks");
    println!(
        "\nStudents with each planted mistake, in the history's first and last runs:"
    );
    for line in &trend {
        println!("  {line}");
    }
    println!("\nSimilar pairs a week later:");
    for pair in &report_three.similarity.pairs {
        println!(
            "  {} {} ~ {}: {:.2} (class median {:.2})",
            pair.lesson, pair.a, pair.b, pair.similarity, pair.class_median
        );
    }
    if !findings.notes.is_empty() {
        println!("\nNotes:");
        for note in &findings.notes {
            println!("  {note}");
        }
    }
    if !findings.problems.is_empty() {
        bail!(
            "the class report disagrees with the gradebook or the class in {} place(s):\n  {}",
            findings.problems.len(),
            findings.problems.join("\n  ")
        );
    }
    println!("\nEvery check of the class report holds.");
    Ok(())
}

/// How long each grading of the class took, in seconds.
struct Timings {
    cold: f64,
    warm: f64,
    /// A week later, rebuilding the lessons that changed.
    rebuild: f64,
    /// A week later again, warm, without and with the report and history.
    without_report: f64,
    with_report: f64,
}

impl Timings {
    fn print(&self) {
        let share = self.with_report - self.without_report;
        println!(
            "  first run (cold build cache):            {:>7.1} s",
            self.cold
        );
        println!(
            "  second run (warm):                       {:>7.1} s",
            self.warm
        );
        println!(
            "  a week later, rebuilding what changed:   {:>7.1} s",
            self.rebuild
        );
        println!(
            "  a week later, warm, without the report:  {:>7.1} s",
            self.without_report
        );
        println!(
            "  a week later, warm, with the report:     {:>7.1} s",
            self.with_report
        );
        println!(
            "  the report's share:                      {share:>+7.1} s ({:+.1} %)",
            100.0 * share / self.without_report
        );
    }
}

/// Fails unless the gradebooks of the runs in `others` are byte for byte that of `run`.
fn same_gradebooks(run: &Path, others: &[&Path]) -> Result<()> {
    let book = std::fs::read(run.join("gradebook.json"))?;
    for other in others {
        ensure!(
            std::fs::read(other.join("gradebook.json"))? == book,
            "the gradebooks of {} and {} differ: grading the same class twice, with or \
             without the report, must write the same bytes",
            run.display(),
            other.display()
        );
    }
    Ok(())
}

/// A run graded with the report, recorded in a history.
struct Recorded<'a> {
    /// The history file.
    history: &'a Path,
    /// The run's label there.
    label: &'a str,
    /// The Python that has copydetect.
    python: &'a Path,
}

/// Grades `class` with the checker `cargo build` made into `run/gradebook.json`, with the
/// report in `run/report/` when asked (the run is then recorded in the history), and
/// returns how long it took.
fn grade_class(
    root: &Path,
    class: &Path,
    run: &Path,
    report: Option<Recorded<'_>>,
) -> Result<f64> {
    std::fs::create_dir_all(run)?;
    let mut command = Command::new(root.join("target").join("debug").join("checker"));
    command
        .current_dir(root)
        .arg("class")
        .arg(class)
        .args(["--format", "json", "--out"])
        .arg(run.join("gradebook.json"));
    if let Some(recorded) = report {
        command
            .arg("--report")
            .arg(run.join("report"))
            .arg("--history")
            .arg(recorded.history)
            .args(["--run-label", recorded.label])
            .arg("--python")
            .arg(recorded.python);
    }
    let start = Instant::now();
    run_command(&mut command)?;
    Ok(start.elapsed().as_secs_f64())
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("could not read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} does not have the expected shape", path.display()))
}

fn lesson_ids(root: &Path) -> Result<Vec<String>> {
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    Ok(manifest.lessons.into_iter().map(|l| l.id).collect())
}

/// Writes every submission of `class` into `dir`, replacing what was there.
fn write_class(
    root: &Path,
    lessons: &[String],
    lists: &[(String, Vec<Mistake>)],
    class: &[Student],
    dir: &Path,
) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    for (student, name) in class.iter().zip(names(class)) {
        let folder = dir.join(&name);
        std::fs::create_dir_all(&folder)?;
        if student.form == Form::Empty {
            continue;
        }
        for id in lessons {
            let sources = lesson_sources(root, lists, id, student.work_on(id))
                .with_context(|| format!("{name}: lesson {id}"))?;
            mistakes::write_sources(
                &folder.join("lessons").join(id).join("src"),
                &sources,
            )?;
        }
        match student.form {
            Form::TarGz => {
                let file = std::fs::File::create(dir.join(format!("{name}.tar.gz")))?;
                let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
                    file,
                    flate2::Compression::fast(),
                ));
                tar.append_dir_all(&name, &folder)?;
                tar.into_inner()?.finish()?;
                std::fs::remove_dir_all(&folder)?;
            }
            Form::Zip => {
                let mut zip = zip::ZipWriter::new(std::fs::File::create(
                    dir.join(format!("{name}.zip")),
                )?);
                for entry in walkdir::WalkDir::new(&folder).sort_by_file_name() {
                    let entry = entry?;
                    if entry.file_type().is_file() {
                        let relative = entry
                            .path()
                            .strip_prefix(&folder)?
                            .to_string_lossy()
                            .into_owned();
                        zip.start_file(
                            relative,
                            zip::write::SimpleFileOptions::default(),
                        )?;
                        std::io::copy(&mut std::fs::File::open(entry.path())?, &mut zip)?;
                    }
                }
                zip.finish()?;
                std::fs::remove_dir_all(&folder)?;
            }
            Form::Folder | Form::Empty => {}
        }
    }
    Ok(())
}

/// The `src/` of lesson `id` holding `work`.
fn lesson_sources(
    root: &Path,
    lists: &[(String, Vec<Mistake>)],
    id: &str,
    work: Work,
) -> Result<Sources> {
    let stub = || mistakes::read_sources(&root.join("lessons").join(id).join("src"));
    let solution =
        || mistakes::read_sources(&root.join("solutions").join(id).join("src"));
    let only_attention = || {
        ensure!(
            id == ATTENTION,
            "{work:?} is written for lesson {ATTENTION} only"
        );
        Ok(())
    };
    Ok(match work {
        Work::Stub => stub()?,
        Work::Solution => solution()?,
        Work::Listed(name) => mistakes::apply(&solution()?, listed(lists, id, name)?)?,
        Work::Unlisted(edit) => mistakes::apply(&solution()?, &edit.as_mistake())?,
        Work::Looping => stub()?
            .into_iter()
            .map(|(path, text)| (path, looping_bodies(&text)))
            .collect(),
        Work::Hostile(fixture) => {
            only_attention()?;
            let trick = std::fs::read_to_string(
                root.join("checker/tests/fixtures/padding_mask")
                    .join(format!("{fixture}.rs")),
            )?;
            let mut sources = solution()?;
            let lib = sources
                .get_mut(Path::new("lib.rs"))
                .context("the solution's lib.rs")?;
            let start = lib
                .find("pub fn padding_mask(")
                .context("padding_mask in the solution")?;
            let brace = start + lib[start..].find('{').context("its body")? + 1;
            lib.insert_str(brace, &format!("\n{trick}\n"));
            sources
        }
        Work::NearCopy { disguised } => {
            only_attention()?;
            let text = if disguised {
                disguise(NEAR_COPY)
            } else {
                NEAR_COPY.to_owned()
            };
            Sources::from([(PathBuf::from("lib.rs"), text)])
        }
    })
}

/// `source` with every `todo!(...)` replaced by an endless loop.
fn looping_bodies(source: &str) -> String {
    let mut out = String::new();
    let mut rest = source;
    while let Some(start) = rest.find("todo!(") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let end = after.find(')').map_or(after.len(), |i| i + 1);
        out.push_str("loop { std::hint::spin_loop() }");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The near copy as a student who copied it would hand it in: another opening comment,
/// the other comments gone, the helpers and locals renamed ([`DISGUISE`]), indented by
/// two spaces instead of four.
fn disguise(source: &str) -> String {
    let mut text = String::from("//! Attention (lesson 02).\n");
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//!") || code.starts_with("// ") {
            continue;
        }
        let indent = line.len() - code.len();
        text.push_str(&" ".repeat(indent / 2));
        text.push_str(code);
        text.push('\n');
    }
    DISGUISE
        .iter()
        .fold(text, |text, (name, by)| replace_word(&text, name, by))
}

/// `text` with every occurrence of the identifier `word` that is a whole word (no letter,
/// digit or `_` on either side) replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let in_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, _) in text.match_indices(word) {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(in_word) && !after.is_some_and(in_word) {
            out.push_str(&text[copied..at]);
            out.push_str(by);
            copied = at + word.len();
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The JSON gradebook (`checker class --format json`), as far as the checks read it.
#[derive(Debug, Deserialize)]
struct Gradebook {
    lessons: Vec<String>,
    students: Vec<GradedStudent>,
}

#[derive(Debug, Deserialize)]
struct GradedStudent {
    student: String,
    score: f64,
    /// Absent when the submission could not be graded.
    report: Option<GradedReport>,
}

#[derive(Debug, Deserialize)]
struct GradedReport {
    lessons: Vec<GradedLesson>,
}

#[derive(Debug, Deserialize)]
struct GradedLesson {
    id: String,
    score: f64,
    passed: usize,
    total: usize,
    tests: Vec<GradedTest>,
}

#[derive(Debug, Deserialize)]
struct GradedTest {
    name: String,
    tier: String,
    passed: bool,
    #[serde(default)]
    named: Vec<String>,
}

impl GradedStudent {
    fn lesson(&self, id: &str) -> Option<&GradedLesson> {
        self.report.as_ref()?.lessons.iter().find(|l| l.id == id)
    }

    /// Their score in lesson `id`: 0 if it, or their whole submission, was not graded.
    fn score_in(&self, id: &str) -> f64 {
        self.lesson(id).map_or(0.0, |l| l.score)
    }
}

/// The class report (`report/report.json`, schema 1), as far as the checks read it.
#[derive(Debug, Deserialize)]
struct ClassReport {
    schema: u32,
    students: usize,
    lessons: Vec<ReportLesson>,
    misconceptions: Vec<ReportMisconception>,
    unexplained: Vec<ReportUnexplained>,
    stuck: Vec<ReportStuck>,
    students_detail: Vec<ReportStudent>,
    similarity: ReportSimilarity,
    history: Option<ReportHistory>,
}

#[derive(Debug, Deserialize)]
struct ReportLesson {
    id: String,
    median: f64,
    mean: f64,
    histogram: Vec<usize>,
    tests: Vec<ReportTest>,
}

#[derive(Debug, Deserialize)]
struct ReportTest {
    name: String,
    tier: String,
    passed: usize,
    total: usize,
    share: f64,
}

#[derive(Debug, Deserialize)]
struct ReportMisconception {
    key: String,
    lesson: String,
    students: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ReportUnexplained {
    lesson: String,
    students: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ReportStuck {
    student: String,
    kind: String,
    lesson: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ReportStudent {
    student: String,
    score: f64,
}

#[derive(Debug, Deserialize)]
struct ReportSimilarity {
    status: String,
    detail: String,
    pairs: Vec<ReportPair>,
}

#[derive(Debug, Deserialize)]
struct ReportPair {
    lesson: String,
    a: String,
    b: String,
    similarity: f64,
    class_median: f64,
}

#[derive(Debug, Deserialize)]
struct ReportHistory {
    runs: Vec<IgnoredAny>,
    /// Per cause key, how many students it named in each run, oldest first.
    misconceptions: BTreeMap<String, Vec<usize>>,
    /// Per student, their score in each run, oldest first (`null` where absent).
    students: BTreeMap<String, Vec<Option<f64>>>,
}

/// What a check found: problems fail the task, notes are only printed.
#[derive(Debug, Default)]
struct Findings {
    problems: Vec<String>,
    notes: Vec<String>,
}

impl Findings {
    fn add(&mut self, other: Findings) {
        self.problems.extend(other.problems);
        self.notes.extend(other.notes);
    }

    fn add_labelled(&mut self, label: &str, other: Findings) {
        let labelled =
            |lines: Vec<String>| lines.into_iter().map(move |l| format!("{label}: {l}"));
        self.problems.extend(labelled(other.problems));
        self.notes.extend(labelled(other.notes));
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    }
}

/// One test's results over the class.
#[derive(Debug)]
struct TestCounts {
    tier: String,
    passed: usize,
    total: usize,
}

/// What the report must say of one lesson, recomputed from the gradebook.
#[derive(Debug)]
struct LessonStats {
    histogram: [usize; 10],
    median: f64,
    mean: f64,
    tests: BTreeMap<String, TestCounts>,
}

/// Every lesson's statistics. The histogram counts every student (0 for one who was not
/// graded); its bin comes from the passed and total counts in whole numbers, so that a
/// score on a bin's edge (7 of 10) falls in the bin above it whatever the rounding of
/// `0.7 * 10`. The tests count the students whose submission was graded.
fn lesson_stats(book: &Gradebook) -> BTreeMap<String, LessonStats> {
    let mut stats = BTreeMap::new();
    for id in &book.lessons {
        let mut histogram = [0; 10];
        let mut tests: BTreeMap<String, TestCounts> = BTreeMap::new();
        for student in &book.students {
            let bin = student
                .lesson(id)
                .filter(|l| l.total > 0)
                .map_or(0, |l| (l.passed * 10 / l.total).min(9));
            histogram[bin] += 1;
            for test in student.lesson(id).into_iter().flat_map(|l| &l.tests) {
                let counts = tests.entry(test.name.clone()).or_insert(TestCounts {
                    tier: test.tier.clone(),
                    passed: 0,
                    total: 0,
                });
                counts.total += 1;
                counts.passed += usize::from(test.passed);
            }
        }
        let scores: Vec<f64> = book.students.iter().map(|s| s.score_in(id)).collect();
        let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
        let lesson = LessonStats {
            histogram,
            median: median(scores),
            mean,
            tests,
        };
        stats.insert(id.clone(), lesson);
    }
    stats
}

/// Every misconception, by lesson and cause key: the students with at least one test of
/// that lesson whose `named` list holds the key.
fn misconceptions(book: &Gradebook) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut found: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for student in &book.students {
        for lesson in student.report.iter().flat_map(|r| &r.lessons) {
            for key in lesson.tests.iter().flat_map(|t| &t.named) {
                found
                    .entry((lesson.id.clone(), key.clone()))
                    .or_default()
                    .insert(student.student.clone());
            }
        }
    }
    found
}

/// Where the report disagrees with the gradebook of its run.
fn check_against_gradebook(report: &ClassReport, book: &Gradebook) -> Vec<String> {
    let mut problems = Vec::new();
    if report.schema != 1 {
        problems.push(format!(
            "report schema {}, these checks read schema 1",
            report.schema
        ));
    }
    if report.students != book.students.len() {
        problems.push(format!(
            "the report counts {} students, the gradebook has {}",
            report.students,
            book.students.len()
        ));
    }
    let ids: Vec<&String> = report.lessons.iter().map(|l| &l.id).collect();
    if ids != book.lessons.iter().collect::<Vec<_>>() {
        problems.push(format!(
            "the report's lessons are {ids:?}, the gradebook's {:?}",
            book.lessons
        ));
    }
    problems.extend(lesson_problems(report, book));
    problems.extend(misconception_problems(report, book));
    problems.extend(detail_problems(report, book));
    problems
}

/// Where the report's lessons disagree with the gradebook's statistics.
fn lesson_problems(report: &ClassReport, book: &Gradebook) -> Vec<String> {
    let mut problems = Vec::new();
    let stats = lesson_stats(book);
    for lesson in &report.lessons {
        let Some(expected) = stats.get(&lesson.id) else {
            continue;
        };
        let id = &lesson.id;
        if lesson.histogram != expected.histogram {
            problems.push(format!(
                "{id}: histogram {:?}, the gradebook gives {:?}",
                lesson.histogram, expected.histogram
            ));
        }
        if !close(lesson.median, expected.median) {
            problems.push(format!(
                "{id}: median {}, the gradebook gives {}",
                lesson.median, expected.median
            ));
        }
        if !close(lesson.mean, expected.mean) {
            problems.push(format!(
                "{id}: mean {}, the gradebook gives {}",
                lesson.mean, expected.mean
            ));
        }
        let reported: BTreeMap<&str, &ReportTest> =
            lesson.tests.iter().map(|t| (t.name.as_str(), t)).collect();
        for (name, counts) in &expected.tests {
            let Some(test) = reported.get(name.as_str()) else {
                problems.push(format!("{id}: the test `{name}` is missing"));
                continue;
            };
            if (test.passed, test.total) != (counts.passed, counts.total) {
                problems.push(format!(
                    "{id}: `{name}` passed by {} of {}, the gradebook gives {} of {}",
                    test.passed, test.total, counts.passed, counts.total
                ));
            }
            let share = counts.passed as f64 / counts.total.max(1) as f64;
            if !close(test.share, share) {
                problems.push(format!(
                    "{id}: `{name}` has the share {}, its counts give {share}",
                    test.share
                ));
            }
            if test.tier != counts.tier {
                problems.push(format!(
                    "{id}: `{name}` is {}, the gradebook says {}",
                    test.tier, counts.tier
                ));
            }
        }
        for name in reported.keys() {
            if !expected.tests.contains_key(*name) {
                problems.push(format!("{id}: the test `{name}` is not in the gradebook"));
            }
        }
    }
    problems
}

/// Where the report's misconceptions disagree with the keys the gradebook's tests name.
fn misconception_problems(report: &ClassReport, book: &Gradebook) -> Vec<String> {
    let mut problems = Vec::new();
    let expected = misconceptions(book);
    let mut reported: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for entry in &report.misconceptions {
        let students: BTreeSet<String> = entry.students.iter().cloned().collect();
        if reported
            .insert((entry.lesson.clone(), entry.key.clone()), students)
            .is_some()
        {
            problems.push(format!(
                "{}: the misconception `{}` is listed twice",
                entry.lesson, entry.key
            ));
        }
    }
    let none = BTreeSet::new();
    for key in expected
        .keys()
        .chain(reported.keys())
        .collect::<BTreeSet<_>>()
    {
        let (want, got) = (
            expected.get(key).unwrap_or(&none),
            reported.get(key).unwrap_or(&none),
        );
        if want != got {
            problems.push(format!(
                "{}: the misconception `{}` lists {:?} beyond the gradebook's and misses {:?}",
                key.0,
                key.1,
                got.difference(want).collect::<Vec<_>>(),
                want.difference(got).collect::<Vec<_>>()
            ));
        }
    }
    problems
}

/// Where the report's students disagree with the gradebook's.
fn detail_problems(report: &ClassReport, book: &Gradebook) -> Vec<String> {
    let mut problems = Vec::new();
    let scores: BTreeMap<&str, f64> = book
        .students
        .iter()
        .map(|s| (s.student.as_str(), s.score))
        .collect();
    let detailed: BTreeMap<&str, f64> = report
        .students_detail
        .iter()
        .map(|s| (s.student.as_str(), s.score))
        .collect();
    for (student, score) in &scores {
        match detailed.get(student) {
            None => problems.push(format!("{student} has no detail")),
            Some(detail) if !close(*detail, *score) => problems.push(format!(
                "{student}: detail score {detail}, the gradebook's {score}"
            )),
            Some(_) => {}
        }
    }
    for student in detailed.keys() {
        if !scores.contains_key(student) {
            problems.push(format!(
                "{student} has a detail but is not in the gradebook"
            ));
        }
    }
    problems
}

/// Where the gradebook and the report disagree with what the generator planted in
/// `class`.
fn check_planted(
    report: &ClassReport,
    book: &Gradebook,
    class: &[Student],
    keys: &CauseKeys,
) -> Findings {
    let mut findings = Findings::default();
    for (student, name) in class.iter().zip(names(class)) {
        let Some(graded) = book.students.iter().find(|s| s.student == name) else {
            findings
                .problems
                .push(format!("{name} is not in the gradebook"));
            continue;
        };
        findings
            .problems
            .extend(score_problems(student, graded, &book.lessons));
        findings.add(mistake_findings(report, student, graded, keys));
        findings
            .problems
            .extend(stuck_problem(report, student, &name));
    }
    findings
}

/// Where `graded`'s lesson scores are not what `student`'s work calls for.
fn score_problems(
    student: &Student,
    graded: &GradedStudent,
    lessons: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    for id in lessons {
        let expected = if student.form == Form::Empty {
            Expected::Zero
        } else {
            student.work_on(id).expected()
        };
        let score = graded.score_in(id);
        let (holds, wanted) = match expected {
            Expected::Zero => (score == 0.0, "0"),
            Expected::One => (score == 1.0, "1"),
            Expected::Between => (score > 0.0 && score < 1.0, "strictly between 0 and 1"),
        };
        if !holds {
            problems.push(format!(
                "{}: {id} scored {score:.4}, expected {wanted}",
                graded.student
            ));
        }
    }
    problems
}

/// Whether the report lists `student`'s listed mistakes under one of their cause keys, and
/// their unlisted ones under no misconception but among the unexplained failures. A key
/// the checker itself named for an unlisted mistake is a note: the report is right to
/// list it.
fn mistake_findings(
    report: &ClassReport,
    student: &Student,
    graded: &GradedStudent,
    keys: &CauseKeys,
) -> Findings {
    let mut findings = Findings::default();
    let name = &graded.student;
    let listing = |lesson: &str| -> Vec<&str> {
        report
            .misconceptions
            .iter()
            .filter(|m| m.lesson == lesson && m.students.contains(name))
            .map(|m| m.key.as_str())
            .collect()
    };
    for &(lesson, work) in &student.work {
        match work {
            Work::Listed(mistake) => {
                let causes = &keys[&(lesson.to_owned(), mistake.to_owned())];
                if !listing(lesson)
                    .iter()
                    .any(|key| causes.iter().any(|c| c == key))
                {
                    findings.problems.push(format!(
                        "{name}: planted `{mistake}` in {lesson}, but no misconception of \
                         {lesson} with the key {} lists them",
                        causes.join(" or ")
                    ));
                }
            }
            Work::Unlisted(edit) => {
                let named_by_checker: BTreeSet<&str> = graded
                    .lesson(lesson)
                    .into_iter()
                    .flat_map(|l| &l.tests)
                    .flat_map(|t| &t.named)
                    .map(String::as_str)
                    .collect();
                for key in listing(lesson) {
                    if named_by_checker.contains(key) {
                        findings.notes.push(format!(
                            "{name}: the checker names `{key}` for the unlisted mistake `{}`",
                            edit.name
                        ));
                    } else {
                        findings.problems.push(format!(
                            "{name}: listed under `{key}` in {lesson}, which no test of \
                             theirs names (their mistake, `{}`, is in no list)",
                            edit.name
                        ));
                    }
                }
                let unexplained = report
                    .unexplained
                    .iter()
                    .any(|u| u.lesson == lesson && u.students.contains(name));
                if named_by_checker.is_empty() && !unexplained {
                    findings.problems.push(format!(
                        "{name}: the unlisted mistake `{}` is not among the unexplained \
                         failures of {lesson}",
                        edit.name
                    ));
                }
            }
            _ => {}
        }
    }
    findings
}

/// A problem if `student` should be stuck ([`Student::stuck`]) and the report does not
/// say so.
fn stuck_problem(report: &ClassReport, student: &Student, name: &str) -> Option<String> {
    let (kinds, lesson) = student.stuck()?;
    let stuck = report.stuck.iter().any(|s| {
        s.student == name
            && kinds.contains(&s.kind.as_str())
            && lesson.is_none_or(|lesson| s.lesson.as_deref() == Some(lesson))
    });
    (!stuck).then(|| {
        format!(
            "{name} is not stuck as {}{}",
            kinds.join(" or "),
            lesson.map_or(String::new(), |l| format!(" in {l}"))
        )
    })
}

/// Whether the similarity section flags the near-copy pair, and what else it flags.
fn check_similarity(report: &ClassReport, near_copies: (&str, &str)) -> Findings {
    let mut findings = Findings::default();
    let similarity = &report.similarity;
    if similarity.status != "done" {
        findings.problems.push(format!(
            "the similarity section is {}: {}",
            similarity.status, similarity.detail
        ));
        return findings;
    }
    let is_near_copy = |pair: &ReportPair| {
        pair.lesson == ATTENTION
            && (pair.a == near_copies.0 && pair.b == near_copies.1
                || pair.a == near_copies.1 && pair.b == near_copies.0)
    };
    if !similarity.pairs.iter().any(is_near_copy) {
        findings.problems.push(format!(
            "the near copies {} and {} are not flagged as similar in {ATTENTION}",
            near_copies.0, near_copies.1
        ));
    }
    let others: Vec<&ReportPair> = similarity
        .pairs
        .iter()
        .filter(|p| !is_near_copy(p))
        .collect();
    for pair in &others {
        findings.notes.push(format!(
            "also flagged as similar: {} {} ~ {} ({:.2}, class median {:.2})",
            pair.lesson, pair.a, pair.b, pair.similarity, pair.class_median
        ));
    }
    if others.len() > MOST_OTHER_PAIRS {
        findings.problems.push(format!(
            "{} other pairs are flagged as similar (at most {MOST_OTHER_PAIRS}): too noisy",
            others.len()
        ));
    }
    findings
}

/// Whether the history after the third run has its three runs, the gradebook's last
/// scores, and fewer students with each planted mistake, half of whose students fixed
/// it; and a line per mistake that says how many its students were, first and last.
fn check_history(
    report: &ClassReport,
    book: &Gradebook,
    before: &[Student],
    after: &[Student],
    keys: &CauseKeys,
) -> (Findings, Vec<String>) {
    let mut findings = Findings::default();
    let mut trend = Vec::new();
    let Some(history) = &report.history else {
        findings
            .problems
            .push("the report has no history".to_owned());
        return (findings, trend);
    };
    let runs = history.runs.len();
    if runs != 3 {
        findings
            .problems
            .push(format!("{runs} runs in the history, 3 expected"));
    }
    for student in &book.students {
        let last = history
            .students
            .get(&student.student)
            .and_then(|scores| scores.last().copied().flatten());
        if !last.is_some_and(|score| close(score, student.score)) {
            findings.problems.push(format!(
                "{}: the history's last score is {last:?}, the gradebook's {}",
                student.student, student.score
            ));
        }
    }
    let remaining = listed_counts(after);
    for ((lesson, name), planted) in listed_counts(before) {
        let causes = &keys[&(lesson.to_owned(), name.to_owned())];
        let Some((key, counts)) = causes
            .iter()
            .find_map(|key| Some((key, history.misconceptions.get(key)?)))
        else {
            findings.problems.push(format!(
                "no key of `{name}` ({}) in the history's misconceptions",
                causes.join(", ")
            ));
            continue;
        };
        let (first, last) = (counts.first().copied(), counts.last().copied());
        let left = remaining.get(&(lesson, name)).copied().unwrap_or(0);
        trend.push(format!(
            "{name} ({key}): {} students → {} (planted: {planted} → {left})",
            first.unwrap_or(0),
            last.unwrap_or(0)
        ));
        if counts.len() != runs {
            findings.problems.push(format!(
                "`{key}` has {} counts for {runs} runs",
                counts.len()
            ));
        }
        if !matches!((first, last), (Some(first), Some(last)) if last < first) {
            findings.problems.push(format!(
                "`{key}` ({name}): {first:?} students first, {last:?} last; half of them \
                 fixed it, so the last count should be lower"
            ));
        }
    }
    (findings, trend)
}

/// A note if the reports at `first` and `second`, of the same class, differ anywhere but
/// in their history (which grows by a run).
fn differences_outside_history(first: &Path, second: &Path) -> Result<Option<String>> {
    let read = |path: &Path| -> Result<serde_json::Map<String, serde_json::Value>> {
        let mut report: serde_json::Map<String, serde_json::Value> = read_json(path)?;
        report.remove("history");
        Ok(report)
    };
    let (first, second) = (read(first)?, read(second)?);
    let differing: Vec<&String> = first
        .keys()
        .chain(second.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|key| first.get(*key) != second.get(*key))
        .collect();
    Ok((!differing.is_empty()).then(|| {
        format!(
            "the reports of the first two runs (the same class) differ outside their history, \
             in {differing:?}"
        )
    }))
}

/// A row per student: their scores in the first lessons and overall, in the first run and
/// a week later.
fn print_table<'a>(
    lessons: &[String],
    names: &[String],
    before: &'a Gradebook,
    after: &'a Gradebook,
) {
    let shown: Vec<&String> = lessons.iter().take(3).collect();
    print!("{:<46}", "student");
    for id in &shown {
        print!(" {:>6}", &id[..2]);
    }
    println!(" {:>7} {:>13}", "total", "a week later");
    for name in names {
        let find =
            |book: &'a Gradebook| book.students.iter().find(|s| s.student == *name);
        let (before, after) = (find(before), find(after));
        print!("{name:<46}");
        for id in &shown {
            print!(" {:>6.2}", before.map_or(0.0, |s| s.score_in(id)));
        }
        println!(
            " {:>7.2} {:>13.2}",
            before.map_or(0.0, |s| s.score),
            after.map_or(0.0, |s| s.score)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// A class of three: a complete submission, one with softmax over the columns, and an
    /// empty one.
    fn small_class() -> Vec<Student> {
        vec![
            Student {
                kind: "complete",
                form: Form::Folder,
                otherwise: Work::Solution,
                work: vec![],
            },
            Student {
                kind: "softmax-over-columns",
                form: Form::Folder,
                otherwise: Work::Stub,
                work: vec![(ATTENTION, Work::Listed(SOFTMAX_OVER_COLUMNS))],
            },
            Student {
                kind: "empty",
                form: Form::Empty,
                otherwise: Work::Stub,
                work: vec![],
            },
        ]
    }

    fn small_keys() -> CauseKeys {
        CauseKeys::from([(
            (ATTENTION.to_owned(), SOFTMAX_OVER_COLUMNS.to_owned()),
            vec!["harness:wrong-axis".to_owned()],
        )])
    }

    /// The gradebook of [`small_class`], graded on lesson 02 alone (two tests).
    fn small_gradebook() -> Gradebook {
        serde_json::from_value(serde_json::json!({
            "lessons": ["02-attention"],
            "students": [
                {"student": "student-00-complete", "score": 1.0, "report": {"score": 1.0,
                    "lessons": [{"id": "02-attention", "title": "Attention", "status": "graded",
                    "passed": 2, "total": 2, "score": 1.0, "tests": [
                        {"name": "rows_sum_to_one", "tier": "graded", "passed": true,
                         "status": "pass", "message": ""},
                        {"name": "masked_weights_are_zero", "tier": "held_out", "passed": true,
                         "status": "pass", "message": ""}]}]}},
                {"student": "student-01-softmax-over-columns", "score": 0.5, "report": {
                    "score": 0.5, "lessons": [{"id": "02-attention", "title": "Attention",
                    "status": "graded", "passed": 1, "total": 2, "score": 0.5, "tests": [
                        {"name": "rows_sum_to_one", "tier": "graded", "passed": false,
                         "status": "fail", "message": "columns", "named": ["harness:wrong-axis"]},
                        {"name": "masked_weights_are_zero", "tier": "held_out", "passed": true,
                         "status": "pass", "message": ""}]}]}},
                {"student": "student-02-empty", "score": 0.0, "error": "no lessons"}
            ]
        }))
        .expect("a gradebook")
    }

    /// The report of [`small_gradebook`], as the checker should write it.
    fn small_report() -> serde_json::Value {
        serde_json::json!({
            "schema": 1, "lang": "en", "students": 3,
            "lessons": [{"id": "02-attention", "title": "Attention", "chapter": "02-attention.md",
                "median": 0.5, "mean": 0.5, "histogram": [1, 0, 0, 0, 0, 1, 0, 0, 0, 1],
                "tests": [
                    {"name": "rows_sum_to_one", "tier": "graded", "passed": 1, "total": 2,
                     "share": 0.5},
                    {"name": "masked_weights_are_zero", "tier": "held_out", "passed": 2,
                     "total": 2, "share": 1.0}]}],
            "misconceptions": [{"key": "harness:wrong-axis", "lesson": "02-attention",
                "text": "…", "function": "softmax_rows", "hint": "…", "chapter": "…",
                "students": ["student-01-softmax-over-columns"]}],
            "unexplained": [],
            "stuck": [{"student": "student-02-empty", "kind": "not_submitted", "lesson": null,
                "detail": "no lessons"}],
            "students_detail": [
                {"student": "student-00-complete", "score": 1.0, "error": null, "lessons": []},
                {"student": "student-01-softmax-over-columns", "score": 0.5, "error": null,
                 "lessons": []},
                {"student": "student-02-empty", "score": 0.0, "error": "no lessons",
                 "lessons": []}],
            "similarity": {"status": "done", "detail": "", "pairs": []},
            "history": null
        })
    }

    fn report(value: serde_json::Value) -> ClassReport {
        serde_json::from_value(value).expect("a report")
    }

    #[test]
    fn a_report_that_agrees_with_its_gradebook_passes() {
        let problems =
            check_against_gradebook(&report(small_report()), &small_gradebook());
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn a_pass_count_off_by_one_fails() {
        let mut value = small_report();
        value["lessons"][0]["tests"][0]["passed"] = 2.into();
        let problems = check_against_gradebook(&report(value), &small_gradebook());
        assert_eq!(
            problems,
            [
                "02-attention: `rows_sum_to_one` passed by 2 of 2, the gradebook gives 1 of 2"
            ]
        );
    }

    #[test]
    fn a_histogram_median_or_misconception_off_fails() {
        let mut value = small_report();
        value["lessons"][0]["histogram"] =
            serde_json::json!([1, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
        value["lessons"][0]["median"] = 0.25.into();
        value["misconceptions"][0]["students"] =
            serde_json::json!(["student-00-complete"]);
        let problems = check_against_gradebook(&report(value), &small_gradebook());
        assert_eq!(problems.len(), 3, "{problems:#?}");
        assert!(problems[0].starts_with("02-attention: histogram [1, 0, 0, 0, 1,"));
        assert!(problems[1].starts_with("02-attention: median 0.25"));
        assert!(problems[2].contains(
            "lists [\"student-00-complete\"] beyond the gradebook's and misses \
             [\"student-01-softmax-over-columns\"]"
        ));
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![1.0, 0.0, 0.5, 0.25]), 0.375);
        assert_eq!(median(vec![1.0, 0.0, 0.5]), 0.5);
    }

    #[test]
    fn a_score_on_a_bins_edge_falls_in_the_bin_above() {
        let mut book = small_gradebook();
        let lesson = &mut book.students[1].report.as_mut().unwrap().lessons[0];
        (lesson.passed, lesson.total, lesson.score) = (7, 10, 0.7);
        let stats = lesson_stats(&book);
        assert_eq!(stats[ATTENTION].histogram, [1, 0, 0, 0, 0, 0, 0, 1, 0, 1]);
    }

    #[test]
    fn the_planted_mistake_and_the_empty_submission_are_found() {
        let findings = check_planted(
            &report(small_report()),
            &small_gradebook(),
            &small_class(),
            &small_keys(),
        );
        assert!(findings.problems.is_empty(), "{:#?}", findings.problems);

        let mut value = small_report();
        value["misconceptions"] = serde_json::json!([]);
        value["stuck"] = serde_json::json!([]);
        let findings = check_planted(
            &report(value),
            &small_gradebook(),
            &small_class(),
            &small_keys(),
        );
        assert_eq!(
            findings.problems,
            [
                "student-01-softmax-over-columns: planted `softmax over the columns` in \
                 02-attention, but no misconception of 02-attention with the key \
                 harness:wrong-axis lists them",
                "student-02-empty is not stuck as not_submitted or not_started",
            ]
        );
    }

    #[test]
    fn an_unlisted_mistake_belongs_under_the_unexplained_failures() {
        let mut class = small_class();
        class[1].work = vec![(ATTENTION, Work::Unlisted(CAUSAL_MASK_OFF_BY_ONE))];

        let mut book = small_gradebook();
        book.students[1].report.as_mut().unwrap().lessons[0].tests[0]
            .named
            .clear();
        let mut value = small_report();
        value["misconceptions"] = serde_json::json!([]);
        let findings =
            check_planted(&report(value.clone()), &book, &class, &small_keys());
        assert_eq!(
            findings.problems,
            [
                "student-01-softmax-over-columns: the unlisted mistake `causal mask lets each \
                 position see one step ahead` is not among the unexplained failures of \
                 02-attention"
            ]
        );
        value["unexplained"] = serde_json::json!([{"lesson": "02-attention",
            "test": "rows_sum_to_one", "message": "…",
            "students": ["student-01-softmax-over-columns"]}]);
        let findings = check_planted(&report(value), &book, &class, &small_keys());
        assert!(findings.problems.is_empty(), "{:#?}", findings.problems);
    }

    #[test]
    fn the_near_copies_must_be_flagged_and_little_else() {
        let pair = |a: &str, b: &str| {
            serde_json::json!({"lesson": ATTENTION, "a": a, "b": b, "similarity": 0.9,
                "class_median": 0.1})
        };
        let with_pairs = |pairs: Vec<serde_json::Value>| {
            let mut value = small_report();
            value["similarity"]["pairs"] = pairs.into();
            report(value)
        };
        let near = ("student-25-near-copy", "student-26-near-copy-disguised");
        let found = check_similarity(&with_pairs(vec![pair(near.1, near.0)]), near);
        assert!(found.problems.is_empty() && found.notes.is_empty());

        let noisy: Vec<_> = (0..4).map(|i| pair("x", &format!("y{i}"))).collect();
        let found = check_similarity(&with_pairs(noisy), near);
        assert_eq!(found.notes.len(), 4);
        assert_eq!(found.problems.len(), 2, "{:#?}", found.problems);

        let mut value = small_report();
        value["similarity"] = serde_json::json!({"status": "unavailable",
            "detail": "pip install copydetect", "pairs": []});
        let found = check_similarity(&report(value), near);
        assert_eq!(
            found.problems,
            ["the similarity section is unavailable: pip install copydetect"]
        );
    }

    #[test]
    fn the_history_must_show_fewer_students_with_a_half_fixed_mistake() {
        let before = vec![small_class()[1].clone(), small_class()[1].clone()];
        let after = a_week_later(&before);
        let book: Gradebook = serde_json::from_value(serde_json::json!({
            "lessons": [], "students": [{"student": "student-00-x", "score": 0.5}]
        }))
        .unwrap();
        let with_counts = |counts: [usize; 3]| {
            let mut value = small_report();
            value["history"] = serde_json::json!({
                "runs": [{"id": 1}, {"id": 2}, {"id": 3}],
                "misconceptions": {"harness:wrong-axis": counts},
                "students": {"student-00-x": [0.0, 0.0, 0.5]}
            });
            report(value)
        };
        let (findings, trend) = check_history(
            &with_counts([2, 2, 1]),
            &book,
            &before,
            &after,
            &small_keys(),
        );
        assert!(findings.problems.is_empty(), "{:#?}", findings.problems);
        assert_eq!(
            trend,
            [
                "softmax over the columns (harness:wrong-axis): 2 students → 1 (planted: 2 → 1)"
            ]
        );
        let (findings, _) = check_history(
            &with_counts([2, 2, 2]),
            &book,
            &before,
            &after,
            &small_keys(),
        );
        assert_eq!(findings.problems.len(), 1, "{:#?}", findings.problems);
    }

    #[test]
    fn the_class_has_30_students_and_half_of_each_mistake_is_fixed_a_week_later() {
        let class = class();
        assert_eq!(class.len(), 30);
        let names = names(&class);
        assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 30);
        assert_eq!(names[25], "student-25-near-copy");
        assert_eq!(names[26], "student-26-near-copy-disguised");
        let before = listed_counts(&class);
        assert_eq!(
            before,
            BTreeMap::from([
                ((ATTENTION, SOFTMAX_OVER_COLUMNS), 4),
                ((ATTENTION, MASK_AFTER_SOFTMAX), 3),
                ((MULTI_HEAD, HEADS_REVERSED), 3),
                ((ATTENTION, SCORES_OVER_D_K), 2),
            ])
        );
        let after = listed_counts(&a_week_later(&class));
        for (mistake, count) in &before {
            assert_eq!(
                after.get(mistake).copied().unwrap_or(0),
                count / 2,
                "{mistake:?}"
            );
        }
    }

    /// Every listed mistake the class makes is in its list with a cause key, and applies.
    #[test]
    fn every_planted_mistake_applies_to_its_solution() {
        let root = root();
        let lists = mistakes::lists(&root, None).expect("the lists read");
        let keys =
            cause_keys(&lists, &class()).expect("every planted mistake has a cause");
        for (lesson, name) in keys.keys() {
            let mistake = listed(&lists, lesson, name).unwrap();
            let solution =
                mistakes::read_sources(&root.join("solutions").join(lesson).join("src"))
                    .unwrap();
            mistakes::apply(&solution, mistake).expect("it applies once");
        }
    }

    /// Each unlisted mistake applies once to lesson 02's solution, and gives code no
    /// listed mistake gives.
    #[test]
    fn the_unlisted_mistakes_apply_and_are_in_no_list() {
        let root = root();
        let lists = mistakes::lists(&root, Some("02")).expect("the lists read");
        let solution =
            mistakes::read_sources(&root.join("solutions").join(ATTENTION).join("src"))
                .unwrap();
        let listed: Vec<Sources> = lists[0]
            .1
            .iter()
            .filter_map(|m| mistakes::apply(&solution, m).ok())
            .collect();
        for edit in [
            CAUSAL_MASK_OFF_BY_ONE,
            SOFTMAX_BACKWARD_SIGN_FLIPPED,
            BACKWARD_SCALE_INVERTED,
        ] {
            let patched =
                mistakes::apply(&solution, &edit.as_mistake()).expect(edit.name);
            assert!(patched != solution, "{}", edit.name);
            assert!(!listed.contains(&patched), "{} is listed", edit.name);
        }
    }

    #[test]
    fn the_disguised_copy_renames_every_helper_and_drops_the_comments() {
        let disguised = disguise(NEAR_COPY);
        for (name, by) in DISGUISE {
            assert!(
                replace_word(&disguised, name, "") == disguised,
                "`{name}` is left"
            );
            assert!(disguised.contains(by), "`{by}` is missing");
        }
        assert!(
            !disguised
                .lines()
                .any(|line| line.trim_start().starts_with("// ")),
            "a plain comment is left"
        );
        assert!(disguised.contains("pub fn softmax_rows(scores: &Matrix) -> Matrix {"));
        assert!(disguised.contains("\n  let (n, m) = scores.dim();\n"));
    }

    #[test]
    fn a_word_is_replaced_only_where_it_is_whole() {
        assert_eq!(
            replace_word("e = ee + e; 1e9; e_x", "e", "ex"),
            "ex = ee + ex; 1e9; e_x"
        );
    }
}
