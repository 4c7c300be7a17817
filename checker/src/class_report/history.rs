//! `checker class DIR --history FILE`: every class run, recorded in an SQLite database.
//!
//! # Schema (version 1, kept in `PRAGMA user_version`)
//!
//! ```sql
//! runs     (id INTEGER PRIMARY KEY, label TEXT, class_dir TEXT, lessons TEXT,
//!           started_at TEXT, finished_at TEXT)          -- finished_at NULL: interrupted
//! students (run, student, score REAL, error TEXT)           -- one row per submission
//! lessons  (run, student, lesson, status TEXT, score REAL, passed INTEGER, total INTEGER)
//! tests    (run, student, lesson, test, tier TEXT, status TEXT, passed INTEGER,
//!           named TEXT)                  -- the first named mistake's key, or NULL
//! named    (run, student, lesson, test, cause TEXT)         -- every named mistake
//! ```
//!
//! Times are UTC, written `2026-12-03T07:00:00Z`; statuses are the JSON gradebook's
//! (`pass`, `fail`, `timeout`...; `graded`, `does_not_compile`...). `lessons` of a run is
//! its lesson ids separated by spaces.
//!
//! # Safe to interrupt, safe to share
//!
//! A run's row is written when grading starts, each student's rows in one transaction as
//! soon as that student is graded, and `finished_at` when the last one is: killing a run
//! part-way leaves every earlier run whole and this one marked unfinished (its students so
//! far kept), and SQLite's journal keeps the file valid whatever instant the process dies.
//! The database is in WAL mode and every write transaction waits for the lock (up to a
//! minute), so two runs may record into one file at once. A file of a newer schema is
//! refused with a message, never rewritten.

use crate::class::StudentResult;
use crate::messages::INSTRUCTOR;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// The schema this checker writes and reads.
pub const SCHEMA_VERSION: i64 = 1;

/// How many recorded runs the report's trends show, the latest last.
pub const RUNS_SHOWN: usize = 8;

/// The schema, created in a new file.
const CREATE: &str = "
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT NOT NULL,
    class_dir TEXT NOT NULL,
    lessons TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE students (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    student TEXT NOT NULL,
    score REAL NOT NULL,
    error TEXT,
    PRIMARY KEY (run, student)
);
CREATE TABLE lessons (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    student TEXT NOT NULL,
    lesson TEXT NOT NULL,
    status TEXT NOT NULL,
    score REAL NOT NULL,
    passed INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (run, student, lesson)
);
CREATE TABLE tests (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    student TEXT NOT NULL,
    lesson TEXT NOT NULL,
    test TEXT NOT NULL,
    tier TEXT NOT NULL,
    status TEXT NOT NULL,
    passed INTEGER NOT NULL,
    named TEXT,
    PRIMARY KEY (run, student, lesson, test)
);
CREATE TABLE named (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    student TEXT NOT NULL,
    lesson TEXT NOT NULL,
    test TEXT NOT NULL,
    cause TEXT NOT NULL,
    PRIMARY KEY (run, student, lesson, test, cause)
);
CREATE INDEX named_by_cause ON named (cause, run);
";

/// A run being recorded.
pub struct History {
    connection: Mutex<Connection>,
    run: i64,
}

/// The class across the recorded runs, as the report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Trends {
    /// The finished runs shown, oldest first (at most [`RUNS_SHOWN`]), this one last.
    pub runs: Vec<RunInfo>,
    /// For every mistake named in one of those runs, how many students made it in each.
    pub misconceptions: BTreeMap<String, Vec<usize>>,
    /// For every student of this run, their score in each run (`None`: not in that run).
    pub students: BTreeMap<String, Vec<Option<f64>>>,
}

/// One recorded run.
#[derive(Debug, Clone, Serialize)]
pub struct RunInfo {
    /// Its id in the database.
    pub id: i64,
    /// Its label (`--run-label`, else the date it started).
    pub label: String,
    /// When it finished.
    pub finished_at: String,
}

impl History {
    /// Opens (creating it if needed) the database at `path` and starts recording a run of
    /// the class in `class_dir`, grading `lessons`.
    pub fn start(
        path: &Path,
        label: Option<&str>,
        class_dir: &Path,
        lessons: &[String],
    ) -> Result<Self> {
        let shown = path.display().to_string();
        let mut connection = Connection::open(path)
            .with_context(|| tr!(INSTRUCTOR, "history-could-not-open", path = &shown))?;
        connection.busy_timeout(Duration::from_secs(60))?;
        // WAL lets a reader (a report, a sqlite3 shell) work while a run writes; it is
        // kept in the file, so this is a no-op after the first time.
        connection
            .pragma_update(None, "journal_mode", "WAL")
            .with_context(|| tr!(INSTRUCTOR, "history-could-not-open", path = &shown))?;
        // In WAL mode NORMAL syncs at checkpoints, not at every commit: a process killed
        // part-way loses nothing it committed (the operating system holds it), and a power
        // cut can lose the last commits but never leaves the file inconsistent. Grading a
        // class commits once per student; a sync each time would cost more than the rest.
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", true)?;
        let transaction =
            connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 =
            transaction.pragma_query_value(None, "user_version", |row| row.get(0))?;
        let tables: i64 = transaction.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |row| row.get(0),
        )?;
        match version {
            0 if tables == 0 => {
                transaction.execute_batch(CREATE)?;
                transaction.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            }
            SCHEMA_VERSION => {}
            0 => bail!(tr!(INSTRUCTOR, "history-not-ours", path = &shown)),
            found => bail!(tr!(
                INSTRUCTOR,
                "history-newer-schema",
                path = &shown,
                found = found,
                known = SCHEMA_VERSION
            )),
        }
        transaction.execute(
            "INSERT INTO runs (label, class_dir, lessons, started_at)
             VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
            params![
                label.unwrap_or_default(),
                class_dir.display().to_string(),
                lessons.join(" ")
            ],
        )?;
        let run = transaction.last_insert_rowid();
        if label.is_none() {
            transaction.execute(
                "UPDATE runs SET label = substr(started_at, 1, 10) WHERE id = ?1",
                [run],
            )?;
        }
        transaction.commit()?;
        Ok(Self {
            connection: Mutex::new(connection),
            run,
        })
    }

    /// Records one graded student, in one transaction.
    pub fn record(&self, student: &StudentResult) -> Result<()> {
        let mut connection = self.connection.lock().expect("no recorder panics");
        let transaction =
            connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        transaction.execute(
            "INSERT OR REPLACE INTO students (run, student, score, error) VALUES (?1, ?2, ?3, ?4)",
            params![self.run, student.student, student.score, student.error],
        )?;
        let mut lessons = transaction.prepare_cached(
            "INSERT OR REPLACE INTO lessons (run, student, lesson, status, score, passed, total)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut tests = transaction.prepare_cached(
            "INSERT OR REPLACE INTO tests (run, student, lesson, test, tier, status, passed, named)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let mut named = transaction.prepare_cached(
            "INSERT OR IGNORE INTO named (run, student, lesson, test, cause)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?;
        for lesson in student.report.iter().flat_map(|r| &r.lessons) {
            lessons.execute(params![
                self.run,
                student.student,
                lesson.id,
                snake(&lesson.status),
                lesson.score,
                lesson.passed as i64,
                lesson.total as i64
            ])?;
            for test in &lesson.tests {
                tests.execute(params![
                    self.run,
                    student.student,
                    lesson.id,
                    test.name,
                    snake(&test.tier),
                    snake(&test.status),
                    test.passed,
                    test.named.first()
                ])?;
                for cause in &test.named {
                    named.execute(params![
                        self.run,
                        student.student,
                        lesson.id,
                        test.name,
                        cause
                    ])?;
                }
            }
        }
        drop((lessons, tests, named));
        transaction.commit()?;
        Ok(())
    }

    /// Marks the run finished and reads the trends of the last [`RUNS_SHOWN`] finished
    /// runs of the same class folder, this one last.
    pub fn finish(self, students: &[String]) -> Result<Trends> {
        let connection = self.connection.into_inner().expect("no recorder panics");
        connection.execute(
            "UPDATE runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
            [self.run],
        )?;
        trends(&connection, self.run, students)
    }
}

/// The trends of the finished runs of the class folder run `run` graded, up to it.
fn trends(connection: &Connection, run: i64, students: &[String]) -> Result<Trends> {
    let class_dir: Option<String> = connection
        .query_row("SELECT class_dir FROM runs WHERE id = ?1", [run], |row| {
            row.get(0)
        })
        .optional()?;
    let mut statement = connection.prepare(
        "SELECT id, label, finished_at FROM runs
         WHERE class_dir = ?1 AND finished_at IS NOT NULL AND id <= ?2
         ORDER BY id DESC LIMIT ?3",
    )?;
    let mut runs: Vec<RunInfo> = statement
        .query_map(params![class_dir, run, RUNS_SHOWN as i64], |row| {
            Ok(RunInfo {
                id: row.get(0)?,
                label: row.get(1)?,
                finished_at: row.get(2)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    runs.reverse();
    let mut misconceptions: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut counts = connection.prepare(
        "SELECT cause, count(DISTINCT student) FROM named WHERE run = ?1 GROUP BY cause",
    )?;
    for (index, info) in runs.iter().enumerate() {
        let rows = counts.query_map([info.id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        for row in rows {
            let (cause, count) = row?;
            misconceptions
                .entry(cause)
                .or_insert_with(|| vec![0; runs.len()])[index] = count as usize;
        }
    }
    let mut scores = connection
        .prepare("SELECT score FROM students WHERE run = ?1 AND student = ?2")?;
    let mut by_student = BTreeMap::new();
    for student in students {
        let mut row = Vec::with_capacity(runs.len());
        for info in &runs {
            row.push(
                scores
                    .query_row(params![info.id, student], |r| r.get::<_, f64>(0))
                    .optional()?,
            );
        }
        by_student.insert(student.clone(), row);
    }
    Ok(Trends {
        runs,
        misconceptions,
        students: by_student,
    })
}

/// A status or tier as the JSON gradebook writes it (`does_not_compile`, `held_out`).
fn snake(value: &impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{
        CourseReport, LessonReport, LessonStatus, TestResult, TestStatus,
    };

    fn student(name: &str, named: &[&str]) -> StudentResult {
        let test = |passed: bool, named: Vec<String>| TestResult {
            name: format!("t{}", usize::from(passed)),
            tier: crate::course::Tier::Graded,
            passed,
            status: if passed {
                TestStatus::Pass
            } else {
                TestStatus::Fail
            },
            message: String::new(),
            function: None,
            named,
            by_reference: false,
        };
        let tests = vec![
            test(true, vec![]),
            test(
                named.is_empty(),
                named.iter().map(|s| s.to_string()).collect(),
            ),
        ];
        let lesson = LessonReport::from_tests(
            "02-attention",
            "A",
            LessonStatus::Graded,
            None,
            tests,
        );
        let report = CourseReport::new(vec![lesson]);
        StudentResult {
            student: name.to_owned(),
            score: report.score,
            error: None,
            report: Some(report),
            lessons_dir: None,
        }
    }

    fn record(path: &Path, label: &str, class: &[StudentResult]) -> Trends {
        let history = History::start(
            path,
            Some(label),
            Path::new("class"),
            &["02-attention".into()],
        )
        .unwrap();
        for s in class {
            history.record(s).unwrap();
        }
        let names: Vec<String> = class.iter().map(|s| s.student.clone()).collect();
        history.finish(&names).unwrap()
    }

    #[test]
    fn a_second_run_shows_each_mistake_and_student_across_both() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        let mask = "harness:mask-after-softmax";
        record(
            &path,
            "week 1",
            &[
                student("ada", &[mask]),
                student("bo", &[mask]),
                student("cy", &[]),
            ],
        );
        let trends = record(
            &path,
            "week 2",
            &[
                student("ada", &[]),
                student("bo", &[mask]),
                student("cy", &[]),
            ],
        );
        let labels: Vec<&str> = trends.runs.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["week 1", "week 2"]);
        assert_eq!(trends.misconceptions[mask], [2, 1]);
        assert_eq!(trends.students["ada"], [Some(0.5), Some(1.0)]);
    }

    #[test]
    fn an_unfinished_run_is_kept_but_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        record(&path, "week 1", &[student("ada", &[])]);
        let interrupted =
            History::start(&path, Some("killed"), Path::new("class"), &[]).unwrap();
        interrupted.record(&student("ada", &["x:y"])).unwrap();
        drop(interrupted);
        let trends = record(&path, "week 2", &[student("ada", &[])]);
        let labels: Vec<&str> = trends.runs.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["week 1", "week 2"]);
        let connection = Connection::open(&path).unwrap();
        let unfinished: i64 = connection
            .query_row(
                "SELECT count(*) FROM runs WHERE finished_at IS NULL",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(unfinished, 1);
    }

    #[test]
    fn two_runs_recording_at_once_both_land_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        // The file exists before the two writers race to create its tables.
        record(&path, "first", &[]);
        let class: Vec<StudentResult> = (0..40)
            .map(|i| student(&format!("s{i:02}"), &["x:y"]))
            .collect();
        std::thread::scope(|scope| {
            for label in ["a", "b"] {
                let (path, class) = (&path, &class);
                scope.spawn(move || record(path, label, class));
            }
        });
        let connection = Connection::open(&path).unwrap();
        let rows: i64 = connection
            .query_row(
                "SELECT count(*) FROM students JOIN runs ON runs.id = students.run
                 WHERE runs.label IN ('a', 'b') AND runs.finished_at IS NOT NULL",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rows, 80);
    }

    /// The queries the book shows answer on a history of three runs: ada passes her
    /// graded tests and fails a held-out one; bo makes the same mistake each week.
    #[test]
    fn the_questions_of_the_book_run_on_a_history_and_answer_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        let mask = "harness:mask-after-softmax";
        let held_out_failure = || {
            let mut ada = student("ada", &[]);
            let lesson = &mut ada.report.as_mut().unwrap().lessons[0];
            lesson.tests[1].tier = crate::course::Tier::HeldOut;
            lesson.tests[1].passed = false;
            lesson.tests[1].status = TestStatus::Fail;
            ada
        };
        for week in ["1", "2", "3"] {
            record(&path, week, &[held_out_failure(), student("bo", &[mask])]);
        }
        let connection = Connection::open(&path).unwrap();
        let questions = include_str!("questions.sql");
        let query = |anchor: &str| -> Vec<Vec<String>> {
            let start = questions.find(&format!("ANCHOR: {anchor}\n")).unwrap();
            let end = questions.find(&format!("ANCHOR_END: {anchor}")).unwrap();
            let sql = &questions[start..end];
            let sql = &sql[sql.find('\n').unwrap()..sql.rfind("--").unwrap()];
            let mut statement = connection.prepare(sql).unwrap();
            let columns = statement.column_count();
            statement
                .query_map([], |row| {
                    (0..columns)
                        .map(|i| {
                            let value: rusqlite::types::Value = row.get(i)?;
                            Ok(match value {
                                rusqlite::types::Value::Text(text) => text,
                                rusqlite::types::Value::Integer(n) => n.to_string(),
                                other => format!("{other:?}"),
                            })
                        })
                        .collect()
                })
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        assert_eq!(query("held_out_only"), [["ada", "02-attention", "1"]]);
        assert_eq!(query("persistent"), [["bo", mask]]);
    }

    #[test]
    fn a_database_of_a_newer_schema_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 99)
            .unwrap();
        let error = History::start(&path, None, Path::new("class"), &[])
            .err()
            .expect("refused");
        assert!(format!("{error:#}").contains("99"), "{error:#}");
        let version: i64 = Connection::open(&path)
            .unwrap()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, 99);
    }
}
