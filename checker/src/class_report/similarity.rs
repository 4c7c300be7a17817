//! Pairs of submissions far more alike than the class's usual, for a human to look at.
//!
//! The comparison is copydetect's (<https://github.com/blingenf/copydetect>, from PyPI:
//! `pip install copydetect`): it tokenises each file with Pygments' Rust lexer, names and
//! literals made generic, and fingerprints the token stream by winnowing (Schleimer,
//! Wilkerson and Aiken, 2003; MOSS's algorithm), so renaming variables, changing comments
//! or reflowing lines hides nothing. For each lesson, every student's `src/` whose lesson
//! was graded (an untouched stub has nothing of its own) becomes one file, and every pair
//! is compared. Code the lesson's stub or its reference solution holds is *boilerplate*,
//! counted for nobody: two correct solutions resemble each other through the solution;
//! what counts is what they share beyond it.
//!
//! A pair's similarity is the mean of the two shares of each file's tokens that match the
//! other. A pair is flagged when it is at least [`FLOOR`] and far above the lesson's usual:
//! the median of its pairs plus [`SPREADS`] times their spread (the median absolute
//! deviation, scaled to a standard deviation). The report says that a flag is a reason to
//! look, never a finding, and no grade depends on it.
//!
//! Sources are read as grading reads them: regular files only, no link followed, at most
//! [`MAX_SOURCE_BYTES`] per student and lesson. The tool runs in a process of its own,
//! reading only the folder written for it, with a time limit.

use crate::class::Gradebook;
use crate::course::Course;
use crate::messages::INSTRUCTOR;
use crate::report::LessonStatus;
use anyhow::{Context, Result, bail};
use course_i18n::tr;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The lowest similarity ever flagged.
pub const FLOOR: f64 = 0.5;
/// How many spreads above the lesson's median a flagged pair is.
pub const SPREADS: f64 = 4.0;
/// The least code a flagged pair shares, in copydetect's filtered tokens (about a
/// character each: a name is one, `+=` two): some ten lines.
pub const MIN_SHARED_TOKENS: u64 = 200;
/// The most source read per student and lesson.
pub const MAX_SOURCE_BYTES: usize = 512 << 10;
/// How long the comparison may take.
const TIME_LIMIT: Duration = Duration::from_secs(300);

/// The script that runs copydetect on the folders the checker writes.
const SCRIPT: &str = include_str!("similarity.py");

/// What the similarity section shows.
#[derive(Debug, Clone, Serialize)]
pub struct Similarity {
    /// `done`, `not_asked` (no `--report`), `unavailable` (the tool is not installed)
    /// or `failed`.
    pub status: SimilarityStatus,
    /// What to do when it is unavailable or failed; the tool's version when done.
    pub detail: String,
    /// The flagged pairs, most alike first.
    pub pairs: Vec<Pair>,
    /// The students and lessons whose sources were compared only in part: past
    /// [`MAX_SOURCE_BYTES`] of tokens.
    pub truncated: Vec<String>,
}

/// Whether the comparison ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SimilarityStatus {
    /// It ran.
    Done,
    /// Nobody asked.
    NotAsked,
    /// The tool is not installed.
    Unavailable,
    /// The tool failed.
    Failed,
}

/// Two submissions of one lesson far more alike than the class's usual.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    /// The lesson.
    pub lesson: String,
    /// One student.
    pub a: String,
    /// The other.
    pub b: String,
    /// Their similarity, from 0 to 1.
    pub similarity: f64,
    /// How much code they share, in copydetect's filtered tokens.
    pub shared_tokens: u64,
    /// The median similarity of the lesson's pairs.
    pub class_median: f64,
}

impl Similarity {
    /// The section when nobody asked for it.
    pub fn not_asked() -> Self {
        Self {
            status: SimilarityStatus::NotAsked,
            detail: String::new(),
            pairs: Vec::new(),
            truncated: Vec::new(),
        }
    }
}

/// The script's answer.
#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    missing: bool,
    #[serde(default)]
    version: String,
    #[serde(default)]
    lessons: Vec<LessonAnswer>,
}

#[derive(Deserialize)]
struct LessonAnswer {
    id: String,
    files: Vec<String>,
    similarity: Vec<Vec<f64>>,
    shared: Vec<Vec<u64>>,
}

/// Compares the graded submissions of `book` lesson by lesson with copydetect, run by
/// `python` (a Python interpreter that has it), in a folder under `work`.
pub fn compare(
    course: &Course,
    book: &Gradebook,
    python: &Path,
    work: &Path,
) -> Similarity {
    match run(course, book, python, work) {
        Ok(similarity) => similarity,
        Err(error) => Similarity {
            status: SimilarityStatus::Failed,
            detail: crate::report::printable(&format!("{error:#}")),
            pairs: Vec::new(),
            truncated: Vec::new(),
        },
    }
}

fn run(
    course: &Course,
    book: &Gradebook,
    python: &Path,
    work: &Path,
) -> Result<Similarity> {
    if work.exists() {
        std::fs::remove_dir_all(work)?;
    }
    // Students are files named by their index: a name is the student's to choose.
    let mut lessons = Vec::new();
    let mut truncated = Vec::new();
    for id in &book.lessons {
        let lesson = course.lesson(id)?;
        let dir = work.join(id).join("students");
        let boilerplate = work.join(id).join("boilerplate");
        std::fs::create_dir_all(&dir)?;
        std::fs::create_dir_all(&boilerplate)?;
        let stub: String = course
            .stub_sources(lesson)
            .into_iter()
            .filter_map(|(_, text)| normalized(&text))
            .collect();
        std::fs::write(boilerplate.join("stub.rs"), stub)?;
        let solution = course.solutions_dir().join(id).join("src");
        std::fs::write(boilerplate.join("solution.rs"), sources(&solution).0)?;
        for (index, student) in book.students.iter().enumerate() {
            let graded = student
                .report
                .iter()
                .flat_map(|r| &r.lessons)
                .any(|l| l.id == *id && l.status == LessonStatus::Graded);
            let Some(lessons_dir) = &student.lessons_dir else {
                continue;
            };
            if graded {
                let (text, cut) = sources(&lessons_dir.join(id).join("src"));
                if cut {
                    truncated.push(format!("{} ({id})", student.student));
                }
                std::fs::write(dir.join(format!("{index:05}.rs")), text)?;
            }
        }
        lessons.push(serde_json::json!({
            "id": id,
            "dir": dir,
            "boilerplate": boilerplate,
        }));
    }
    let request = serde_json::json!({ "lessons": lessons }).to_string();
    let answer = ask(python, &request, work);
    // The copies of the students' sources are not kept.
    let _ = std::fs::remove_dir_all(work);
    let answer = answer?;
    if answer.missing {
        return Ok(Similarity {
            status: SimilarityStatus::Unavailable,
            detail: tr!(
                INSTRUCTOR,
                "similarity-unavailable",
                python = python.display().to_string()
            ),
            pairs: Vec::new(),
            truncated,
        });
    }
    let mut pairs = Vec::new();
    for lesson in &answer.lessons {
        let student = |file: &str| -> Option<String> {
            let index: usize = file.strip_suffix(".rs")?.parse().ok()?;
            Some(book.students.get(index)?.student.clone())
        };
        pairs.extend(flagged(
            &lesson.id,
            &lesson.files,
            &lesson.similarity,
            &lesson.shared,
            student,
        ));
    }
    pairs.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then_with(|| (&a.lesson, &a.a, &a.b).cmp(&(&b.lesson, &b.a, &b.b)))
    });
    Ok(Similarity {
        status: SimilarityStatus::Done,
        detail: format!("copydetect {}", answer.version),
        pairs,
        truncated,
    })
}

/// The pairs of one lesson to flag, from the similarity matrix of its `files`.
fn flagged(
    lesson: &str,
    files: &[String],
    matrix: &[Vec<f64>],
    shared: &[Vec<u64>],
    student: impl Fn(&str) -> Option<String>,
) -> Vec<Pair> {
    let mut all = Vec::new();
    for i in 0..files.len() {
        for j in i + 1..files.len() {
            let value = matrix.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0.0);
            let tokens = shared.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
            all.push((i, j, value, tokens));
        }
    }
    let values: Vec<f64> = all.iter().map(|p| p.2).collect();
    let median = super::median(&values);
    let deviations: Vec<f64> = values.iter().map(|v| (v - median).abs()).collect();
    let spread = 1.4826 * super::median(&deviations);
    let threshold = FLOOR.max(median + SPREADS * spread);
    all.into_iter()
        .filter(|&(_, _, value, tokens)| {
            value >= threshold && tokens >= MIN_SHARED_TOKENS
        })
        .filter_map(|(i, j, value, shared_tokens)| {
            let (a, b) = (student(&files[i])?, student(&files[j])?);
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            Some(Pair {
                lesson: lesson.to_owned(),
                a,
                b,
                similarity: value,
                shared_tokens,
                class_median: median,
            })
        })
        .collect()
}

/// What of a student's `src/` is compared: every regular file under it that reads as Rust
/// tokens (whatever its name: `#[path = "imp.txt"] mod imp;` compiles a `.txt`), `lib.rs`
/// first and then the shortest first, each [`normalized`], at most [`MAX_SOURCE_BYTES`] in
/// all. The second value says whether some was left out at that limit.
///
/// Normalising first means that a file of comments cannot push the code past the limit,
/// and that what copydetect's lexer reads is only tokens rustc reads too: a bare carriage
/// return inside a `//` comment is a comment's character to rustc and a line break to the
/// lexer, which then reads the rest of the line as code (one such file cost copydetect
/// minutes).
fn sources(src: &Path) -> (String, bool) {
    let mut files: Vec<(bool, String)> = Vec::new();
    for entry in crate::files::regular_files(src).filter_map(Result::ok) {
        let Ok(file) = std::fs::File::open(entry.path()) else {
            continue;
        };
        // Grading refuses a src/ larger than this, so a lesson it graded is not.
        let mut bytes = Vec::new();
        let limit = crate::scratch::MAX_SOURCE_BYTES;
        if file.take(limit).read_to_end(&mut bytes).is_err() {
            continue;
        }
        if let Some(text) = normalized(&String::from_utf8_lossy(&bytes)) {
            files.push((entry.path() != src.join("lib.rs"), text));
        }
    }
    files.sort_by_key(|a| (a.0, a.1.len()));
    let mut text = String::new();
    for (_, file) in files {
        if text.len() + file.len() > MAX_SOURCE_BYTES {
            return (text, true);
        }
        text.push_str(&file);
        text.push('\n');
    }
    (text, false)
}

/// `source` as Rust tokens, one after the other: no comments, no doc comments (`///` and
/// `//!` are `#[doc]` attributes to the tokenizer, dropped here), every string literal
/// written `""`, a line break after `;`, `{` and `}`. `None` if it is not Rust tokens.
fn normalized(source: &str) -> Option<String> {
    let stream: proc_macro2::TokenStream = source.parse().ok()?;
    let mut out = String::new();
    write_tokens(stream, &mut out);
    Some(out)
}

fn write_tokens(stream: proc_macro2::TokenStream, out: &mut String) {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let is_doc = |token: Option<&TokenTree>| {
        matches!(token, Some(TokenTree::Group(group))
            if group.delimiter() == Delimiter::Bracket
                && matches!(group.stream().into_iter().next(),
                    Some(TokenTree::Ident(ident)) if ident == "doc"))
    };
    let mut i = 0;
    while i < tokens.len() {
        if let TokenTree::Punct(punct) = &tokens[i]
            && punct.as_char() == '#'
        {
            let bang = matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            let attribute = i + 1 + usize::from(bang);
            if is_doc(tokens.get(attribute)) {
                i = attribute + 1;
                continue;
            }
        }
        match &tokens[i] {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{\n", "}\n"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_tokens(group.stream(), out);
                out.push_str(close);
            }
            TokenTree::Ident(ident) => {
                out.push_str(&ident.to_string());
                out.push(' ');
            }
            TokenTree::Punct(punct) => {
                out.push(punct.as_char());
                if punct.spacing() == proc_macro2::Spacing::Alone {
                    out.push(if punct.as_char() == ';' { '\n' } else { ' ' });
                }
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let string = text.contains('"');
                out.push_str(if string { "\"\"" } else { &text });
                out.push(' ');
            }
        }
        i += 1;
    }
}

/// Runs the script with `python`, `request` on its standard input, within [`TIME_LIMIT`].
fn ask(python: &Path, request: &str, work: &Path) -> Result<Answer> {
    let script = work.join("similarity.py");
    std::fs::write(&script, SCRIPT)?;
    let shown = python.display().to_string();
    let mut child = match Command::new(python)
        .arg(&script)
        .current_dir(work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Answer {
                missing: true,
                version: String::new(),
                lessons: Vec::new(),
            });
        }
        Err(error) => {
            return Err(error).with_context(|| {
                tr!(INSTRUCTOR, "similarity-could-not-run", python = &shown)
            });
        }
    };
    let mut stdin = child.stdin.take().context("a pipe to the tool")?;
    let request = request.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let mut stdout = child.stdout.take().context("a pipe from the tool")?;
    let mut stderr = child.stderr.take().context("a pipe from the tool")?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let errors = std::thread::spawn(move || {
        let mut err = Vec::new();
        let _ = (&mut stderr).take(64 << 10).read_to_end(&mut err);
        err
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            bail!(tr!(
                INSTRUCTOR,
                "similarity-timed-out",
                seconds = TIME_LIMIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = writer.join();
    let out = reader.join().map_err(|_| anyhow::anyhow!("reader"))??;
    let err = errors.join().unwrap_or_default();
    if !status.success() {
        let last = String::from_utf8_lossy(&err);
        let last = last.lines().last().unwrap_or_default().to_owned();
        bail!(tr!(
            INSTRUCTOR,
            "similarity-failed",
            python = &shown,
            error = last
        ));
    }
    serde_json::from_slice(&out).with_context(|| {
        tr!(INSTRUCTOR, "similarity-failed", python = &shown, error = "")
    })
}

/// The folder the comparison writes its files in, one per process: two class runs of one
/// course at once do not share it.
pub fn work_dir(course: &Course) -> PathBuf {
    course
        .scratch_dir()
        .join(format!("class-similarity-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pairs: &[Pair]) -> Vec<(String, String)> {
        pairs.iter().map(|p| (p.a.clone(), p.b.clone())).collect()
    }

    #[test]
    fn only_a_pair_far_above_the_lessons_usual_is_flagged() {
        let files: Vec<String> = (0..5).map(|i| format!("{i:05}.rs")).collect();
        // Pairs around 0.1, one pair at 0.9.
        let mut matrix = vec![vec![0.1; 5]; 5];
        matrix[1][3] = 0.9;
        matrix[0][2] = 0.15;
        let student = |f: &str| Some(format!("s{}", f.strip_suffix(".rs")?));
        let shared = vec![vec![500; 5]; 5];
        let pairs = flagged("02", &files, &matrix, &shared, student);
        assert_eq!(names(&pairs), [("s00001".into(), "s00003".into())]);
        assert!((pairs[0].class_median - 0.1).abs() < 1e-12);
    }

    #[test]
    fn a_class_whose_pairs_are_all_alike_flags_nobody_below_the_floor() {
        let files: Vec<String> = (0..4).map(|i| format!("{i:05}.rs")).collect();
        let mut matrix = vec![vec![0.0; 4]; 4];
        matrix[0][1] = 0.45;
        let shared = vec![vec![500; 4]; 4];
        let pairs = flagged("02", &files, &matrix, &shared, |f| Some(f.to_owned()));
        assert!(pairs.is_empty(), "{:?}", names(&pairs));
    }

    #[test]
    fn a_pair_alike_in_a_few_lines_only_is_not_flagged() {
        let files: Vec<String> = (0..5).map(|i| format!("{i:05}.rs")).collect();
        let mut matrix = vec![vec![0.1; 5]; 5];
        matrix[1][3] = 1.0;
        let mut shared = vec![vec![500; 5]; 5];
        shared[1][3] = MIN_SHARED_TOKENS - 1;
        let pairs = flagged("02", &files, &matrix, &shared, |f| Some(f.to_owned()));
        assert!(pairs.is_empty(), "{:?}", names(&pairs));
    }

    /// A softmax of the student's own, with index loops: what two students who worked
    /// together would share.
    const OWN_SOFTMAX: &str = r#"pub fn softmax_rows(scores: &Matrix) -> Matrix {
    let (rows, cols) = scores.dim();
    let mut out = Matrix::zeros((rows, cols));
    for r in 0..rows {
        let mut biggest = Float::NEG_INFINITY;
        for c in 0..cols {
            if scores[[r, c]] > biggest {
                biggest = scores[[r, c]];
            }
        }
        if biggest == Float::NEG_INFINITY {
            continue; // an all-masked row stays zero
        }
        let mut total = 0.0;
        for c in 0..cols {
            let e = (scores[[r, c]] - biggest).exp();
            out[[r, c]] = e;
            total += e;
        }
        for c in 0..cols {
            out[[r, c]] /= total;
        }
    }
    out
}
"#;

    /// The same, disguised: names changed, comments changed, lines reflowed.
    const DISGUISED: &str = r#"pub fn softmax_rows(input: &Matrix) -> Matrix {
    let (n, m) = input.dim();
    let mut result = Matrix::zeros((n, m));
    for i in 0..n {
        let mut top = Float::NEG_INFINITY;
        for j in 0..m { if input[[i, j]] > top { top = input[[i, j]]; } }
        // nothing to attend to
        if top == Float::NEG_INFINITY { continue; }
        let mut s = 0.0;
        for j in 0..m { let x = (input[[i, j]] - top).exp(); result[[i, j]] = x; s += x; }
        for j in 0..m { result[[i, j]] /= s; }
    }
    result
}
"#;

    /// Another student's own softmax, written independently (iterators, no loops by
    /// index).
    const OTHER_SOFTMAX: &str = r#"pub fn softmax_rows(scores: &Matrix) -> Matrix {
    let mut w = scores.clone();
    w.rows_mut().into_iter().for_each(|mut row| {
        let m = row.iter().cloned().fold(Float::NEG_INFINITY, Float::max);
        if m.is_infinite() && m < 0.0 {
            row.fill(0.0);
        } else {
            let exps: Vec<Float> = row.iter().map(|s| (s - m).exp()).collect();
            let z: Float = exps.iter().sum();
            row.iter_mut().zip(exps).for_each(|(slot, e)| *slot = e / z);
        }
    });
    w
}
"#;

    /// Compares, with copydetect itself, a class in which two students share their own
    /// softmax (one disguised), three hand in the solution (two with the same one-line
    /// mistake) and one wrote a softmax of their own: the pair, and only the pair, is
    /// flagged. Without copydetect it says why it could not run, unless
    /// `CHECKER_REQUIRE_COPYDETECT` is set (CI sets it), when that is a failure.
    #[test]
    fn copydetect_flags_the_pair_that_shares_its_own_code_and_nobody_else() {
        use crate::class::{Gradebook, StudentResult};
        use crate::report::{CourseReport, LessonReport};
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let course = Course::locate(Some(&root)).unwrap();
        let id = "02-attention";
        let solution =
            std::fs::read_to_string(root.join("solutions").join(id).join("src/lib.rs"))
                .unwrap();
        let start = solution.find("pub fn softmax_rows(").unwrap();
        let end = start + solution[start..].find("\n}\n").unwrap() + 3;
        let with_softmax =
            |own: &str| format!("{}{own}{}", &solution[..start], &solution[end..]);
        let columns = solution.replacen("rows_mut() {", "columns_mut() {", 1);
        let classmates = [
            ("ann", with_softmax(OWN_SOFTMAX)),
            ("ben", solution.clone()),
            ("cat", columns.clone()),
            ("dan", columns),
            ("eva", with_softmax(DISGUISED)),
            ("fay", with_softmax(OTHER_SOFTMAX)),
        ];
        let class = tempfile::tempdir().unwrap();
        let students = classmates
            .iter()
            .map(|(name, source)| {
                let lessons = class.path().join(name);
                let src = lessons.join(id).join("src");
                std::fs::create_dir_all(&src).unwrap();
                std::fs::write(src.join("lib.rs"), source).unwrap();
                let lesson = LessonReport::from_tests(
                    id,
                    "",
                    LessonStatus::Graded,
                    None,
                    Vec::new(),
                );
                StudentResult {
                    student: (*name).to_owned(),
                    score: 0.0,
                    error: None,
                    report: Some(CourseReport::new(vec![lesson])),
                    lessons_dir: Some(lessons),
                }
            })
            .collect();
        let book = Gradebook {
            lessons: vec![id.to_owned()],
            students,
        };
        let python = std::env::var_os("CHECKER_TEST_PYTHON").unwrap_or("python3".into());
        let similarity = compare(
            &course,
            &book,
            Path::new(&python),
            &class.path().join("work"),
        );
        if similarity.status == SimilarityStatus::Unavailable
            && std::env::var_os("CHECKER_REQUIRE_COPYDETECT").is_none()
        {
            eprintln!(
                "skipped, copydetect is not installed: {}",
                similarity.detail
            );
            return;
        }
        assert_eq!(
            similarity.status,
            SimilarityStatus::Done,
            "{}",
            similarity.detail
        );
        assert_eq!(
            names(&similarity.pairs),
            [("ann".to_owned(), "eva".to_owned())],
            "{:?}",
            similarity.pairs
        );
    }

    #[test]
    fn comments_doc_comments_and_strings_are_not_compared_and_code_is() {
        let source = "//! Module.\n/// Doc.\n#[inline]\npub fn f(x: f64) -> f64 { // note\r r#\"\n    let s = \"a long string\"; /* block */ x * 2.0 }\n";
        let text = normalized(source).unwrap();
        assert!(
            !text.contains("Module") && !text.contains("Doc") && !text.contains("note")
        );
        assert!(
            !text.contains("long string") && !text.contains("block"),
            "{text}"
        );
        assert!(
            text.contains("# [inline ]") || text.contains("#[inline"),
            "{text}"
        );
        assert!(text.contains("x * 2.0"), "{text}");
        assert_eq!(normalized("fn f() { \"unclosed"), None);
    }

    #[test]
    fn every_file_of_src_is_compared_lib_rs_first_and_padding_does_not_push_code_out() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path();
        std::fs::write(src.join("lib.rs"), "#[path = \"imp.txt\"] mod imp;").unwrap();
        std::fs::write(src.join("imp.txt"), "pub fn own() -> u8 { 42 }").unwrap();
        std::fs::write(src.join("0pad.rs"), "// padding\n".repeat(100_000)).unwrap();
        let (text, cut) = sources(src);
        assert!(!cut);
        assert!(text.starts_with("# [path"), "{text}");
        assert!(text.contains("fn own"), "{text}");
    }
}
