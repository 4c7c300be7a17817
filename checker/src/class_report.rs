//! `checker class DIR --report OUT/`: what the class got wrong, drawn from its gradebook.
//!
//! A gradebook says how much each student scored. An instructor preparing the next lecture
//! needs what the checker knows beyond that: which mistakes the class made, by name, and
//! who is stuck where. [`ClassReport::new`] gathers it from a [`Gradebook`] alone, so that
//! every count in the report can be recomputed from the gradebook's JSON:
//!
//! - per lesson, the score histogram (ten bins of 0.1, the last one closed: a score of 1
//!   falls in it) and the median, over every student of the gradebook (a submission that
//!   could not be graded scores 0 there, as it does in the CSV);
//! - per test, the share of graded students who pass it, hardest first;
//! - the **misconceptions**: every named mistake (a cause key a failed test listed, see
//!   [`crate::report::TestResult::named`]) with the students who made it, the cause's text,
//!   and the lesson's hint and book chapter for the function the failure pointed at; a
//!   student counts once per mistake, however many tests named it;
//! - the failures no named mistake explains, grouped by lesson, test and first line of the
//!   message (numbers written `#`, so that two students' different wrong values group);
//! - the **stuck** students: nothing submitted, a lesson not started, not compiling,
//!   crashing, timing out, or a lesson blocked by an earlier one it builds on;
//! - a page per student.
//!
//! The page ([`html`]) is drawn from this data; the JSON written beside it is the same
//! data. History across runs ([`history`]) and similar submissions ([`similarity`]) are
//! added to it when asked for.

pub mod history;
pub mod html;
pub mod similarity;

use crate::class::{Gradebook, StudentResult};
use crate::course::{Course, Tier};
use crate::messages::{self, INSTRUCTOR};
use crate::report::{LessonReport, LessonStatus, TestStatus};
use anyhow::{Context, Result};
use course_i18n::tr;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The version of the report's JSON; it changes when a field changes meaning or goes away.
pub const SCHEMA: u32 = 1;

/// Everything the class report shows.
#[derive(Debug, Clone, Serialize)]
pub struct ClassReport {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The language of the texts (`en`, `zh-CN`).
    pub lang: String,
    /// How many students the class folder holds.
    pub students: usize,
    /// Every lesson graded, in course order.
    pub lessons: Vec<LessonSummary>,
    /// The named mistakes seen, most students first.
    pub misconceptions: Vec<Misconception>,
    /// The failures no named mistake explains, most students first.
    pub unexplained: Vec<FailureGroup>,
    /// Students who are stuck, and where.
    pub stuck: Vec<Stuck>,
    /// Each student's page.
    pub students_detail: Vec<StudentDetail>,
    /// Pairs of submissions far more alike than the class's usual.
    pub similarity: similarity::Similarity,
    /// The class across the runs recorded in a history database, when one was given.
    pub history: Option<history::Trends>,
}

/// One lesson across the class.
#[derive(Debug, Clone, Serialize)]
pub struct LessonSummary {
    /// The lesson's id.
    pub id: String,
    /// Its title, in the report's language.
    pub title: String,
    /// Its chapter of the book (a file of the book's `src/`).
    pub chapter: String,
    /// The median of every student's score for it.
    pub median: f64,
    /// The mean of every student's score for it.
    pub mean: f64,
    /// How many students scored in `[i/10, (i+1)/10)`, the last bin holding 1.
    pub histogram: [usize; 10],
    /// Every test, hardest first (lowest share passing, then by name).
    pub tests: Vec<TestShare>,
}

/// How many of the graded students pass one test.
#[derive(Debug, Clone, Serialize)]
pub struct TestShare {
    /// The test's name.
    pub name: String,
    /// The tier of its suite.
    pub tier: Tier,
    /// Students who pass it.
    pub passed: usize,
    /// Students whose lesson was graded (it compiled, or was a stub, or was missing).
    pub total: usize,
    /// `passed / total` (0 when nobody was graded).
    pub share: f64,
}

/// A named mistake and the students who made it.
#[derive(Debug, Clone, Serialize)]
pub struct Misconception {
    /// The cause's key (`harness:mask-after-softmax`), the same in every language.
    pub key: String,
    /// The lesson whose tests named it.
    pub lesson: String,
    /// The cause's text: what the mistake is and what to do instead.
    pub text: String,
    /// The function the failures pointed at most often, when they pointed at one.
    pub function: Option<String>,
    /// The lesson's first hint for that function.
    pub hint: Option<String>,
    /// The lesson's chapter of the book.
    pub chapter: String,
    /// The students who made it, by name.
    pub students: Vec<String>,
}

/// Students whose failures of one test no named mistake explains, with one first line.
#[derive(Debug, Clone, Serialize)]
pub struct FailureGroup {
    /// The lesson.
    pub lesson: String,
    /// The test.
    pub test: String,
    /// The first line of the message, numbers written `#`.
    pub message: String,
    /// The students, by name.
    pub students: Vec<String>,
}

/// Why a student is stuck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StuckKind {
    /// The submission could not be graded at all (no lessons in it, a broken archive).
    NotSubmitted,
    /// A lesson is the untouched stub, or missing, while a later one was begun.
    NotStarted,
    /// A lesson does not compile.
    DoesNotCompile,
    /// A lesson's tests crash.
    Crashing,
    /// A lesson's tests run out of time.
    TimingOut,
    /// A lesson is not passing, and an earlier lesson it builds on is not passing either:
    /// the earlier one is where to start.
    Blocked,
}

/// One student stuck on one lesson (or on the whole submission).
#[derive(Debug, Clone, Serialize)]
pub struct Stuck {
    /// The student.
    pub student: String,
    /// Why.
    pub kind: StuckKind,
    /// The lesson, unless the whole submission is concerned.
    pub lesson: Option<String>,
    /// What the instructor needs to help: the first compiler message, the test that
    /// timed out, the earlier lesson to fix first.
    pub detail: String,
}

/// One student's page.
#[derive(Debug, Clone, Serialize)]
pub struct StudentDetail {
    /// The student.
    pub student: String,
    /// Their score, as the gradebook has it.
    pub score: f64,
    /// Why their submission could not be graded, when it could not.
    pub error: Option<String>,
    /// Each lesson.
    pub lessons: Vec<StudentLesson>,
}

/// One lesson of one student.
#[derive(Debug, Clone, Serialize)]
pub struct StudentLesson {
    /// The lesson.
    pub id: String,
    /// What happened to it.
    pub status: LessonStatus,
    /// Its score.
    pub score: f64,
    /// Tests passed.
    pub passed: usize,
    /// Tests expected.
    pub total: usize,
    /// The failure to show first, as the learner's checker shows it.
    pub first_failure: Option<FirstFailure>,
    /// The mistakes its tests named.
    pub named: Vec<String>,
}

/// A failing test and its message.
#[derive(Debug, Clone, Serialize)]
pub struct FirstFailure {
    /// The test.
    pub test: String,
    /// Its message (the lesson's, for a lesson that did not build).
    pub message: String,
}

impl ClassReport {
    /// The report of `book`, graded from `course`, in this process's language. Similarity
    /// and history are left empty: [`similarity::compare`] and [`history`] fill them.
    pub fn new(course: &Course, book: &Gradebook) -> Self {
        let causes = CauseTexts::load(course);
        let lessons = book
            .lessons
            .iter()
            .map(|id| lesson_summary(course, book, id))
            .collect();
        let (misconceptions, unexplained) = mistakes(course, book, &causes);
        Self {
            schema: SCHEMA,
            lang: course_i18n::current().tag().to_owned(),
            students: book.students.len(),
            lessons,
            misconceptions,
            unexplained,
            stuck: stuck(course, book),
            students_detail: book.students.iter().map(student_detail).collect(),
            similarity: similarity::Similarity::not_asked(),
            history: None,
        }
    }

    /// Writes `report.json` and `index.html` into `out` (created if needed). A Chinese
    /// page carries the book's CJK font (`book/src/fonts/`, when the course has it), so
    /// that it reads on a machine without a Chinese font, as the book does.
    pub fn write(&self, course: &Course, out: &Path) -> Result<()> {
        std::fs::create_dir_all(out).with_context(|| {
            let path = out.display().to_string();
            tr!(INSTRUCTOR, "file-could-not-create", path = path)
        })?;
        let json =
            serde_json::to_string_pretty(self).expect("a class report always serialises");
        let font = (self.lang != "en")
            .then(|| std::fs::read(course.root.join(html::CJK_FONT)).ok())
            .flatten();
        let page = html::page(self, font.as_deref());
        for (name, text) in [("report.json", json), ("index.html", page)] {
            let path = out.join(name);
            std::fs::write(&path, text).with_context(|| {
                let path = path.display().to_string();
                tr!(INSTRUCTOR, "file-could-not-write", path = path)
            })?;
        }
        Ok(())
    }
}

/// How many misconceptions the terminal summary names.
const SUMMARY_MISTAKES: usize = 3;
/// How many students the terminal summary names per kind of being stuck.
const SUMMARY_NAMES: usize = 5;

/// The few lines `class` ends with, on standard error: the most common misconceptions,
/// who is stuck and why, and where the report is (`report`, when written).
pub fn summary(report: &ClassReport, folder: Option<&Path>) -> String {
    let mut text = String::new();
    let graded = report
        .students_detail
        .iter()
        .filter(|s| s.error.is_none())
        .count();
    text.push_str(&tr!(
        INSTRUCTOR,
        "summary-class",
        students = report.students,
        graded = graded
    ));
    text.push('\n');
    if report.misconceptions.is_empty() {
        text.push_str(&tr!(INSTRUCTOR, "summary-no-mistakes"));
        text.push('\n');
    } else {
        text.push_str(&tr!(INSTRUCTOR, "summary-mistakes"));
        text.push('\n');
        for m in report.misconceptions.iter().take(SUMMARY_MISTAKES) {
            let trend = report
                .history
                .as_ref()
                .and_then(|h| h.misconceptions.get(&m.key))
                .filter(|counts| counts.len() > 1)
                .map(|counts| {
                    let counts: Vec<String> =
                        counts.iter().map(usize::to_string).collect();
                    format!(" ({})", counts.join(" → "))
                })
                .unwrap_or_default();
            text.push_str(&tr!(
                INSTRUCTOR,
                "summary-mistake",
                count = m.students.len(),
                key = m.key.as_str(),
                trend = trend,
                text = shortened(&m.text, 90)
            ));
            text.push('\n');
        }
    }
    let mut by_kind: BTreeMap<StuckKind, Vec<String>> = BTreeMap::new();
    for entry in &report.stuck {
        let who = match &entry.lesson {
            Some(lesson) => format!("{} ({lesson})", quoted(&entry.student)),
            None => quoted(&entry.student),
        };
        by_kind.entry(entry.kind).or_default().push(who);
    }
    for (kind, who) in by_kind {
        let more = who.len().saturating_sub(SUMMARY_NAMES);
        let mut names = who
            .iter()
            .take(SUMMARY_NAMES)
            .cloned()
            .collect::<Vec<_>>()
            .join(&tr!(INSTRUCTOR, "list-comma"));
        if more > 0 {
            names.push_str(&tr!(INSTRUCTOR, "summary-more", count = more));
        }
        text.push_str(&tr!(
            INSTRUCTOR,
            "summary-stuck",
            kind = html::stuck_kind(kind),
            count = who.len(),
            names = names
        ));
        text.push('\n');
    }
    let similarity = &report.similarity;
    match similarity.status {
        similarity::SimilarityStatus::Done => {
            let pairs: Vec<String> = similarity
                .pairs
                .iter()
                .map(|p| format!("{} ~ {} ({})", quoted(&p.a), quoted(&p.b), p.lesson))
                .collect();
            text.push_str(&tr!(
                INSTRUCTOR,
                "summary-similar",
                count = pairs.len(),
                pairs = if pairs.is_empty() {
                    String::new()
                } else {
                    format!(
                        "{}{}",
                        tr!(INSTRUCTOR, "summary-colon"),
                        pairs.join(&tr!(INSTRUCTOR, "list-comma"))
                    )
                }
            ));
            text.push('\n');
        }
        similarity::SimilarityStatus::NotAsked => {}
        similarity::SimilarityStatus::Unavailable
        | similarity::SimilarityStatus::Failed => {
            text.push_str(&similarity.detail);
            text.push('\n');
        }
    }
    if let Some(folder) = folder {
        let page = folder.join("index.html").display().to_string();
        text.push_str(&tr!(INSTRUCTOR, "summary-report", page = page));
        text.push('\n');
    }
    text
}

/// A student's name as the terminal summary lists it: in quotes when it holds what the
/// list itself uses (a comma, a parenthesis, a quote, a space at an end), so that
/// `cat, dan` reads as one student.
fn quoted(name: &str) -> String {
    let ambiguous = name.contains([',', '(', ')', '"', '、', '（', '）'])
        || name.starts_with(' ')
        || name.ends_with(' ');
    if ambiguous {
        format!("\"{}\"", name.replace('"', "\\\""))
    } else {
        name.to_owned()
    }
}

/// `text` cut to `most` characters, with an ellipsis when cut.
fn shortened(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(most - 1).collect();
        format!("{}…", cut.trim_end())
    }
}

/// A student's lesson, if their submission was graded and holds it.
fn lesson_of<'a>(student: &'a StudentResult, id: &str) -> Option<&'a LessonReport> {
    student.report.as_ref()?.lessons.iter().find(|l| l.id == id)
}

/// The median of `values` (the mean of the two middle ones for an even count; 0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The histogram bin of a score from 0 to 1: `[i/10, (i+1)/10)`, with 1 in the last.
/// Scores are ratios of small counts, so a score of exactly 0.3 is `3/10` computed in
/// floating point: the bin is taken with a little slack below each edge.
pub fn bin(score: f64) -> usize {
    ((score * 10.0 + 1e-9).floor().max(0.0) as usize).min(9)
}

fn lesson_summary(course: &Course, book: &Gradebook, id: &str) -> LessonSummary {
    let scores: Vec<f64> = book
        .students
        .iter()
        .map(|s| lesson_of(s, id).map_or(0.0, |l| l.score))
        .collect();
    let mut histogram = [0; 10];
    for &score in &scores {
        histogram[bin(score)] += 1;
    }
    // Tests in the order the first graded student's lesson lists them, each counted over
    // the students whose lesson was graded.
    let mut tests: Vec<TestShare> = Vec::new();
    for lesson in book.students.iter().filter_map(|s| lesson_of(s, id)) {
        for test in &lesson.tests {
            let share = match tests.iter_mut().find(|t| t.name == test.name) {
                Some(share) => share,
                None => {
                    tests.push(TestShare {
                        name: test.name.clone(),
                        tier: test.tier,
                        passed: 0,
                        total: 0,
                        share: 0.0,
                    });
                    tests.last_mut().expect("just pushed")
                }
            };
            share.total += 1;
            share.passed += usize::from(test.passed);
        }
    }
    for test in &mut tests {
        test.share = if test.total == 0 {
            0.0
        } else {
            test.passed as f64 / test.total as f64
        };
    }
    tests.sort_by(|a, b| {
        a.share
            .total_cmp(&b.share)
            .then_with(|| a.name.cmp(&b.name))
    });
    let (title, chapter) = match course.lesson(id) {
        Ok(lesson) => (messages::title(id, &lesson.title), lesson.chapter.clone()),
        Err(_) => (id.to_owned(), String::new()),
    };
    LessonSummary {
        id: id.to_owned(),
        title,
        chapter,
        median: median(&scores),
        mean: if scores.is_empty() {
            0.0
        } else {
            scores.iter().sum::<f64>() / scores.len() as f64
        },
        histogram,
        tests,
    }
}

/// The named mistakes and the unexplained failures of the class.
fn mistakes(
    course: &Course,
    book: &Gradebook,
    causes: &CauseTexts,
) -> (Vec<Misconception>, Vec<FailureGroup>) {
    // key -> (lesson, students, how often each function was pointed at)
    type Seen = (String, BTreeSet<String>, BTreeMap<String, usize>);
    let mut named: BTreeMap<String, Seen> = BTreeMap::new();
    let mut groups: BTreeMap<(String, String, String), BTreeSet<String>> =
        BTreeMap::new();
    for student in &book.students {
        for lesson in student.report.iter().flat_map(|r| &r.lessons) {
            // A lesson that did not build, is missing or is the stub names no mistake,
            // and its one reason is in the stuck list: only graded lessons' failures
            // are grouped.
            if lesson.status != LessonStatus::Graded {
                continue;
            }
            // A student's other failures in a lesson where a mistake was named are that
            // mistake's consequences, not a separate puzzle.
            let any_named = lesson.tests.iter().any(|t| !t.named.is_empty());
            for test in lesson.tests.iter().filter(|t| !t.passed) {
                for key in &test.named {
                    let seen = named.entry(key.clone()).or_insert_with(|| {
                        (lesson.id.clone(), BTreeSet::new(), BTreeMap::new())
                    });
                    seen.1.insert(student.student.clone());
                    if let Some(function) = &test.function {
                        *seen.2.entry(function.clone()).or_default() += 1;
                    }
                }
                let explained = any_named
                    || matches!(test.status, TestStatus::Timeout | TestStatus::Crash);
                if !explained {
                    let first = lesson.message_for(test);
                    let first = first.lines().next().unwrap_or_default();
                    groups
                        .entry((
                            lesson.id.clone(),
                            test.name.clone(),
                            numbers_as_hash(first),
                        ))
                        .or_default()
                        .insert(student.student.clone());
                }
            }
        }
    }
    let listed = listed_functions(course);
    let mut misconceptions: Vec<Misconception> = named
        .into_iter()
        .map(|(key, (lesson, students, functions))| {
            // The function the mistake's own entry in the course's mistake lists names
            // (the softmax, for a softmax over the columns), else the one the failures
            // pointed at most often (the attention that calls it).
            let function = listed.get(&key).cloned().or_else(|| {
                functions
                    .iter()
                    .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                    .map(|(f, _)| f.clone())
            });
            let hint = function
                .as_deref()
                .and_then(|f| first_hint(course, &lesson, f));
            let chapter = course
                .lesson(&lesson)
                .map(|l| l.chapter.clone())
                .unwrap_or_default();
            Misconception {
                text: causes.text(&key),
                key,
                lesson,
                function,
                hint,
                chapter,
                students: students.into_iter().collect(),
            }
        })
        .collect();
    misconceptions.sort_by(|a, b| {
        b.students
            .len()
            .cmp(&a.students.len())
            .then_with(|| a.key.cmp(&b.key))
    });
    let mut unexplained: Vec<FailureGroup> = groups
        .into_iter()
        .map(|((lesson, test, message), students)| FailureGroup {
            lesson,
            test,
            message,
            students: students.into_iter().collect(),
        })
        .collect();
    unexplained.sort_by(|a, b| {
        b.students
            .len()
            .cmp(&a.students.len())
            .then_with(|| (&a.lesson, &a.test).cmp(&(&b.lesson, &b.test)))
    });
    (misconceptions, unexplained)
}

/// For every cause the course's lists of plausible mistakes
/// (`solutions/<id>/mistakes.toml`) give, the function its mistakes are made in (the one
/// most of them name). Empty where the lists are not (the lists are the maintainers').
fn listed_functions(course: &Course) -> BTreeMap<String, String> {
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for lesson in &course.manifest.lessons {
        let path = course
            .solutions_dir()
            .join(&lesson.id)
            .join("mistakes.toml");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(list) = text.parse::<toml::Table>() else {
            continue;
        };
        let entries = list.get("mistakes").and_then(|m| m.as_array());
        for entry in entries.into_iter().flatten() {
            let Some(function) = entry.get("function").and_then(|f| f.as_str()) else {
                continue;
            };
            let causes = entry.get("causes").and_then(|c| c.as_array());
            for cause in causes.into_iter().flatten().filter_map(|c| c.as_str()) {
                *counts
                    .entry(cause.to_owned())
                    .or_default()
                    .entry(function.to_owned())
                    .or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .filter_map(|(cause, functions)| {
            let function = functions
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?
                .0;
            Some((cause, function))
        })
        .collect()
}

/// `text` with every run of digits (and the decimal point or exponent inside a number)
/// written `#`: two students' different wrong values give the same line.
pub fn numbers_as_hash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    let chars: Vec<char> = text.chars().collect();
    let digit_at = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    for (i, &c) in chars.iter().enumerate() {
        let exponent = matches!(c, 'e' | 'E')
            && (digit_at(i + 1)
                || matches!(chars.get(i + 1), Some('-' | '+')) && digit_at(i + 2));
        let exponent_sign = matches!(c, '-' | '+')
            && i > 0
            && matches!(chars[i - 1], 'e' | 'E')
            && digit_at(i + 1);
        let part_of_number = c.is_ascii_digit()
            || in_number && (c == '.' && digit_at(i + 1) || exponent || exponent_sign);
        if part_of_number {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// The first hint step the lesson gives for `function`, in this process's language.
fn first_hint(course: &Course, lesson: &str, function: &str) -> Option<String> {
    let lesson = course.lesson(lesson).ok()?;
    let hints = lesson.hints.iter().find(|h| h.function == function)?;
    let step = hints.steps.first()?;
    Some(messages::hint(&lesson.id, function, step))
}

/// Who is stuck, and where: one entry per student and lesson (per student for a
/// submission that could not be graded), in the order of the students' names.
fn stuck(course: &Course, book: &Gradebook) -> Vec<Stuck> {
    let mut stuck = Vec::new();
    for student in &book.students {
        let name = &student.student;
        let Some(report) = &student.report else {
            stuck.push(Stuck {
                student: name.clone(),
                kind: StuckKind::NotSubmitted,
                lesson: None,
                detail: first_line(student.error.as_deref().unwrap_or_default()),
            });
            continue;
        };
        // The last lesson the student began: a stub before it is a lesson skipped.
        let last_begun = report.lessons.iter().rposition(|l| {
            !l.not_started() && !matches!(l.status, LessonStatus::Missing)
        });
        let mut entries = Vec::new();
        for (index, lesson) in report.lessons.iter().enumerate() {
            let entry = |kind, detail: String| Stuck {
                student: name.clone(),
                kind,
                lesson: Some(lesson.id.clone()),
                detail,
            };
            match lesson.status {
                LessonStatus::DoesNotCompile | LessonStatus::BuildFailed => {
                    let message = lesson.message.as_deref().unwrap_or_default();
                    entries.push(entry(
                        StuckKind::DoesNotCompile,
                        compiler_message(message),
                    ));
                    continue;
                }
                LessonStatus::NotStarted | LessonStatus::Missing => {
                    if last_begun.is_some_and(|last| index < last) {
                        entries.push(entry(StuckKind::NotStarted, String::new()));
                    }
                    continue;
                }
                LessonStatus::Graded => {}
            }
            let first_of = |status| lesson.tests.iter().find(|t| t.status == status);
            if let Some(test) = first_of(TestStatus::Timeout) {
                entries.push(entry(StuckKind::TimingOut, test.name.clone()));
            } else if let Some(test) = first_of(TestStatus::Crash) {
                let detail = format!("{}: {}", test.name, first_line(&test.message));
                entries.push(entry(StuckKind::Crashing, detail));
            } else if lesson.passed < lesson.total
                && let Some(earlier) = failing_dependency(course, report, &lesson.id)
            {
                let detail = tr!(INSTRUCTOR, "report-blocked-by", earlier = earlier);
                entries.push(entry(StuckKind::Blocked, detail));
            }
        }
        // A submission with nothing begun is one entry, not one per lesson.
        if last_begun.is_none() {
            stuck.push(Stuck {
                student: name.clone(),
                kind: StuckKind::NotStarted,
                lesson: None,
                detail: String::new(),
            });
        } else {
            stuck.extend(entries);
        }
    }
    stuck
}

/// The earliest lesson `id` builds on (directly or through others) that the student has
/// begun and does not pass, if any.
fn failing_dependency(
    course: &Course,
    report: &crate::report::CourseReport,
    id: &str,
) -> Option<String> {
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    let mut to_visit = vec![id.to_owned()];
    while let Some(next) = to_visit.pop() {
        for earlier in course
            .lesson(&next)
            .map(|l| l.depends_on.clone())
            .unwrap_or_default()
        {
            if wanted.insert(earlier.clone()) {
                to_visit.push(earlier);
            }
        }
    }
    report
        .lessons
        .iter()
        .filter(|l| wanted.contains(&l.id))
        .find(|l| l.passed < l.total && !l.not_started())
        .map(|l| l.id.clone())
}

/// The first line of `text`.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_owned()
}

/// The first error of a compiler's output: its `error...` line and the `-->` line that
/// says where (already in the learner's paths), else the first line.
fn compiler_message(output: &str) -> String {
    let mut lines = output
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("error"));
    match lines.next() {
        Some(error) => {
            let place = lines
                .take(3)
                .find(|l| l.trim_start().starts_with("-->"))
                .map(|l| format!("\n{}", l.trim()));
            format!("{}{}", error.trim(), place.unwrap_or_default())
        }
        None => first_line(output),
    }
}

fn student_detail(student: &StudentResult) -> StudentDetail {
    let lessons = student
        .report
        .iter()
        .flat_map(|r| &r.lessons)
        .map(|lesson| {
            let named: BTreeSet<String> = lesson
                .tests
                .iter()
                .flat_map(|t| t.named.iter().cloned())
                .collect();
            StudentLesson {
                id: lesson.id.clone(),
                status: lesson.status,
                score: lesson.score,
                passed: lesson.passed,
                total: lesson.total,
                first_failure: lesson.first_failure().map(|test| FirstFailure {
                    test: test.name.clone(),
                    message: lesson.message_for(test),
                }),
                named: named.into_iter().collect(),
            }
        })
        .collect();
    StudentDetail {
        student: student.student.clone(),
        score: student.score,
        error: student.error.clone(),
        lessons,
    }
}

/// The texts of the course's causes, by key, in this process's language: the harness's
/// catalog and every lesson suite's, read from the course (the instructor's edition holds
/// them all) and formatted as the tests format them.
struct CauseTexts(BTreeMap<String, Vec<&'static course_i18n::Catalog>>);

impl CauseTexts {
    fn load(course: &Course) -> Self {
        // A catalog holds `'static` texts (the checker's own are compiled in); these are
        // read once per class run, so they are kept for the rest of the process.
        let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
        let mut catalogs: BTreeMap<String, Vec<&'static course_i18n::Catalog>> =
            BTreeMap::new();
        let mut read = |name: &str, folder: &Path| {
            let Ok(entries) = std::fs::read_dir(folder.join("en")) else {
                return;
            };
            let mut files: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
            files.sort();
            for file in files {
                let en = std::fs::read_to_string(folder.join("en").join(&file));
                let zh = std::fs::read_to_string(folder.join("zh-CN").join(&file));
                let catalog = course_i18n::Catalog::new(
                    leak(name.to_owned()),
                    leak(en.unwrap_or_default()),
                    leak(zh.unwrap_or_default()),
                );
                catalogs
                    .entry(name.to_owned())
                    .or_default()
                    .push(Box::leak(Box::new(catalog)));
            }
        };
        read("harness", &course.root.join("harness").join("locales"));
        for lesson in &course.manifest.lessons {
            read(&lesson.id, &course.suite_locales(lesson));
        }
        Self(catalogs)
    }

    /// A cause's text, or its key when the course has no text for it.
    fn text(&self, key: &str) -> String {
        let lang = course_i18n::current();
        let Some((name, id)) = key.split_once(':') else {
            return key.to_owned();
        };
        self.0
            .get(name)
            .into_iter()
            .flatten()
            .find(|catalog| catalog.has(course_i18n::Lang::En, id))
            .map_or_else(|| key.to_owned(), |catalog| catalog.tr_in(lang, id, &[]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_fall_in_bins_of_a_tenth_and_one_in_the_last() {
        assert_eq!(bin(0.0), 0);
        assert_eq!(bin(0.099), 0);
        assert_eq!(bin(3.0 / 10.0), 3);
        assert_eq!(bin(0.1 + 0.2), 3);
        assert_eq!(bin(7.0 / 9.0), 7);
        assert_eq!(bin(0.95), 9);
        assert_eq!(bin(1.0), 9);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[0.5]), 0.5);
        assert_eq!(median(&[1.0, 0.0, 0.5]), 0.5);
        assert_eq!(median(&[1.0, 0.0, 0.25, 0.5]), 0.375);
    }

    #[test]
    fn numbers_are_written_as_a_hash_and_the_rest_kept() {
        assert_eq!(
            numbers_as_hash("weights[0][1] = 0.25, expected 1.5e-3 (row 12)"),
            "weights[#][#] = #, expected # (row #)"
        );
        assert_eq!(numbers_as_hash("d_k and x2"), "d_k and x#");
        assert_eq!(numbers_as_hash("-0.5"), "-#");
    }

    #[test]
    fn the_first_compiler_error_is_kept_with_its_place() {
        let output = "   Compiling attention\nerror[E0308]: mismatched types\n  --> lessons/02-attention/src/lib.rs:10:5\n   |\nmore";
        assert_eq!(
            compiler_message(output),
            "error[E0308]: mismatched types\n--> lessons/02-attention/src/lib.rs:10:5"
        );
        assert_eq!(compiler_message("no errors here\nat all"), "no errors here");
    }
}
