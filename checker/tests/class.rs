//! `checker class`: a small class of folders and archives, graded twice.

use crate::util::{LESSON, Submission, checker, fixture};
use std::io::Write as _;
use std::path::Path;

/// Grades the class in `dir` with `checker class --format <format>` (in the fallback the
/// environment asks for, if any) and returns the gradebook.
fn grade_class(dir: &Path, format: &str) -> String {
    grade_class_with(dir, format, &[])
}

/// [`grade_class`], with `extra` options.
fn grade_class_with(dir: &Path, format: &str, extra: &[&str]) -> String {
    let output = checker()
        .args(["class", "--format", format, "--test-timeout", "3"])
        .args(extra)
        .args(crate::util::without_sandbox())
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Packs the submission's files under `root/` into a `.tar.gz` at `path`.
fn tar_gz(submission: &Submission, root: &str, path: &Path) {
    let file = std::fs::File::create(path).unwrap();
    let encoder = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    let mut tar = tar::Builder::new(encoder);
    tar.append_dir_all(root, submission.path()).unwrap();
    tar.into_inner().unwrap().finish().unwrap();
}

/// Packs the submission's files into a `.zip` at `path`, with one hostile extra entry that
/// tries to climb out of the folder it is unpacked into.
fn zip(submission: &Submission, path: &Path) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (file, bytes) in submission.files() {
        let name = file
            .strip_prefix(submission.path())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        zip.start_file(name, options).unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.start_file("../../escaped.rs", options).unwrap();
    zip.write_all(b"fn escaped() {}").unwrap();
    zip.finish().unwrap();
}

#[test]
fn a_class_of_folders_and_archives_is_graded_the_same_twice() {
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    // ada: a clone of the student edition, lesson solved.
    let solved = Submission::solved();
    std::fs::create_dir_all(dir.join("ada")).unwrap();
    std::fs::rename(solved.path().join(LESSON), dir.join("ada").join(LESSON)).unwrap();
    // bob: the untouched stub, as a .tar.gz of a repository folder with lessons/ inside.
    tar_gz(
        &Submission::stub(),
        "bob-main/lessons",
        &dir.join("bob.tar.gz"),
    );
    // cy: hostile (exits 0 from padding_mask), as a .zip with a path-traversal entry.
    let hostile = Submission::solved();
    hostile.inject("pub fn padding_mask(", &fixture("exit_zero"));
    zip(&hostile, &dir.join("cy.zip"));
    // dee: an empty folder; eve: a file that is no archive.
    std::fs::create_dir_all(dir.join("dee")).unwrap();
    std::fs::write(dir.join("eve.zip"), "not a zip").unwrap();

    let grade = |format: &str| grade_class(dir, format);
    let csv = grade("csv");
    assert_eq!(csv, grade("csv"), "two gradings of the same class differ");
    let scratch = crate::util::course_root().join("target/checker");
    for escaped in [scratch.join("escaped.rs"), scratch.join("class/escaped.rs")] {
        assert!(
            !escaped.exists(),
            "an archive entry escaped to {}",
            escaped.display()
        );
    }

    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let header = rows.headers().unwrap().clone();
    let column = header
        .iter()
        .position(|h| h == LESSON)
        .expect("a column per lesson");
    let notes = header.iter().position(|h| h == "notes").unwrap();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    let names: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(names, ["ada", "bob", "cy", "dee", "eve"], "{csv}");
    let score = |student: usize| rows[student][column].parse::<f64>().unwrap();
    assert_eq!(score(0), 1.0, "{csv}");
    assert_eq!(score(1), 0.0, "{csv}");
    assert!(
        score(2) > 0.8 && score(2) < 1.0,
        "the hostile lesson loses exactly its tricked tests: {csv}"
    );
    assert!(rows[2][notes].contains("crashed"), "{csv}");
    assert!(rows[3][notes].contains("found no lessons"), "{csv}");
    assert!(rows[4][notes].contains("not a valid .zip"), "{csv}");

    let junit = grade("junit");
    assert!(
        junit.starts_with("<?xml")
            && junit.contains("<testsuite name=\"ada.02-attention\""),
        "{junit}"
    );
    let json: serde_json::Value = serde_json::from_str(&grade("json")).unwrap();
    assert_eq!(json["students"][0]["student"], "ada");
}

#[test]
fn entries_that_name_one_student_are_refused_and_messages_are_escaped() {
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    // carol twice: a folder and an archive would unpack into, and grade from, one place.
    let solved = Submission::solved();
    std::fs::create_dir_all(dir.join("carol")).unwrap();
    std::fs::rename(solved.path().join(LESSON), dir.join("carol").join(LESSON)).unwrap();
    tar_gz(&Submission::stub(), "lessons", &dir.join("carol.tar.gz"));
    // dan: a panic message full of control characters (NUL, an escape sequence, a bell)
    // and of noncharacters, which XML 1.0 does not allow either.
    let noisy = Submission::solved();
    noisy.inject(
        "pub fn padding_mask(",
        "panic!(\"\\u{0}\\u{1b}[2J\\u{7}{}\\u{fffe}\\u{ffff}\", \"\\u{8}\");",
    );
    std::fs::create_dir_all(dir.join("dan")).unwrap();
    std::fs::rename(noisy.path().join(LESSON), dir.join("dan").join(LESSON)).unwrap();
    // A student whose folder's name a spreadsheet would run as a formula.
    let formula = "=HYPERLINK(\"http:x\",\"y\")";
    enrol(dir, formula, &Submission::stub());

    let grade = |format: &str| grade_class(dir, format);
    let csv = grade("csv");
    let carol: Vec<&str> = csv.lines().filter(|l| l.starts_with("carol")).collect();
    assert_eq!(carol.len(), 2, "{csv}");
    for row in carol {
        assert!(
            row.contains("2 entries are all the student `carol`"),
            "{row}"
        );
    }
    assert!(!csv.contains('\u{1b}') && !csv.contains('\u{0}'), "{csv:?}");
    let students: Vec<String> = csv::Reader::from_reader(csv.as_bytes())
        .records()
        .map(|row| row.unwrap()[0].to_owned())
        .collect();
    assert!(
        students.contains(&format!("'{formula}")),
        "the formula is written as text: {csv}"
    );
    assert!(
        students.iter().all(|s| !s.starts_with('=')),
        "no student cell is a formula: {csv}"
    );

    let junit = grade("junit");
    assert_eq!(
        junit,
        grade("junit"),
        "two gradings of the same class differ"
    );
    // XML 1.0's characters (quick-xml's reader does not check them).
    let outside_xml: Vec<char> = junit
        .chars()
        .filter(|&c| {
            !matches!(u32::from(c), 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..)
        })
        .collect();
    assert!(
        outside_xml.is_empty(),
        "the JUnit gradebook holds characters XML does not allow: {outside_xml:?}"
    );
    let mut reader = quick_xml::Reader::from_str(&junit);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(error) => {
                panic!("the JUnit gradebook is not valid XML ({error}):\n{junit}")
            }
        }
    }
    assert!(
        junit.contains("\\u{1b}[2J"),
        "the escape sequence is shown, escaped"
    );
    assert!(!junit.contains('\u{1b}'), "{junit:?}");
}

#[test]
fn a_process_left_running_cannot_spoil_a_classmate_s_grade() {
    // amy leaves a process that floods the result channel of every process it can open;
    // ben, graded beside and after her, keeps full marks: in the sandbox her process ends
    // with her test; in the --run-as fallback, every process of the account ends after
    // each run, the account's runs take turns, and a test's process is not open to others.
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    let haunted = Submission::solved();
    haunted.inject("pub fn padding_mask(", &fixture("haunts_the_classmates"));
    std::fs::create_dir_all(dir.join("amy")).unwrap();
    std::fs::rename(haunted.path().join(LESSON), dir.join("amy").join(LESSON)).unwrap();
    for student in ["ben", "cat"] {
        let solved = Submission::solved();
        std::fs::create_dir_all(dir.join(student)).unwrap();
        std::fs::rename(solved.path().join(LESSON), dir.join(student).join(LESSON))
            .unwrap();
    }
    let csv = grade_class(dir, "csv");
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let column = rows
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == LESSON)
        .expect("a column per lesson");
    for row in rows.records().map(Result::unwrap) {
        if &row[0] != "amy" {
            let score: f64 = row[column].parse().unwrap();
            assert_eq!(score, 1.0, "{} keeps full marks: {csv}", &row[0]);
        }
    }
}

#[test]
fn a_build_that_runs_out_of_time_costs_its_classmates_nothing() {
    // ana's lesson holds a constant whose evaluation never ends: her build runs to the
    // limit. Her classmates, built by the other worker into the same build folder at the
    // same time, wait for their turn at it with their own clocks stopped, and keep full
    // marks (cargo makes a second build wait for the folder; that wait is not theirs).
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    let endless = Submission::solved();
    endless.inject("pub fn padding_mask(", &fixture("endless_const_evaluation"));
    enrol(dir, "ana", &endless);
    for student in ["bea", "cid", "dot"] {
        enrol(dir, student, &Submission::solved());
    }
    const LIMIT: &str = "40";
    let csv = grade_class_with(dir, "csv", &["--jobs", "2", "--build-timeout", LIMIT]);
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let headers = rows.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let lesson = column(LESSON);
    for row in rows.records().map(Result::unwrap) {
        let score: f64 = row[lesson].parse().unwrap();
        if &row[0] == "ana" {
            assert_eq!(score, 0.0, "{csv}");
        } else {
            assert_eq!(
                score, 1.0,
                "{} lost marks beside a build that ran {LIMIT} s: {csv}",
                &row[0]
            );
        }
    }
}

/// Moves the lesson of `submission` into `dir/student/`.
fn enrol(dir: &Path, student: &str, submission: &Submission) {
    std::fs::create_dir_all(dir.join(student)).unwrap();
    std::fs::rename(
        submission.path().join(LESSON),
        dir.join(student).join(LESSON),
    )
    .unwrap();
}

#[test]
fn links_odd_names_and_unrecorded_compiler_errors_reveal_nothing() {
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    let course_manifest = crate::util::course_root().join("Cargo.toml");
    // ada: honest, solved. bea: a folder that is a link to ada's.
    enrol(dir, "ada", &Submission::solved());
    std::os::unix::fs::symlink(dir.join("ada"), dir.join("bea")).unwrap();
    // cal: a lessons/ folder that is a link to the course's solutions.
    std::fs::create_dir_all(dir.join("cal")).unwrap();
    std::os::unix::fs::symlink(
        crate::util::course_root().join("solutions"),
        dir.join("cal").join("lessons"),
    )
    .unwrap();
    // dov: a folder whose name holds a line break and a `#`: rustc writes the path into
    // its record of what it read unescaped, and the part after the line break reads as a
    // comment, so the record shows only `src/x` while the file read is the course's
    // manifest, which a test's panic then prints.
    let odd = Submission::solved();
    odd.write(&format!("{LESSON}/src/x"), "");
    odd.write(&format!("{LESSON}/src/x\n#/kept"), "");
    let climb = "../".repeat(40);
    let manifest = course_manifest.to_string_lossy();
    odd.inject(
        "pub fn padding_mask(",
        &format!(
            "panic!(\"SMUGGLED {{}}\", include_str!(\"x\\n#/{climb}{}\"));",
            manifest.trim_start_matches('/')
        ),
    );
    enrol(dir, "dov", &odd);
    // eli: a compiler error that quotes the course's manifest, then a fatal error in macro
    // expansion, which stops rustc before it records the files it read.
    let fatal = Submission::solved();
    let lib = fatal.path().join(LESSON).join("src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).unwrap();
    text.push_str(&format!(
        "\ncompile_error!(concat!(\"LEAKED>>\", include_str!({:?})));\n\
         macro_rules! again {{ () => {{ again!(); }} }}\nagain!();\n",
        course_manifest.to_string_lossy()
    ));
    std::fs::write(&lib, text).unwrap();
    enrol(dir, "eli", &fatal);

    let json = grade_class(dir, "json");
    assert!(
        !json.contains("[workspace]")
            && !json.contains("LEAKED>>")
            && !json.contains("SMUGGLED"),
        "the course's manifest leaked into the gradebook: {json}"
    );
    let book: serde_json::Value = serde_json::from_str(&json).unwrap();
    let student = |name: &str| {
        book["students"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["student"] == name)
            .unwrap_or_else(|| panic!("{name} is in the gradebook: {json}"))
            .clone()
    };
    let ada = student("ada");
    let lesson = ada["report"]["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == LESSON)
        .unwrap_or_else(|| panic!("ada's report has {LESSON}: {json}"));
    assert_eq!(lesson["score"], 1.0, "{json}");
    for (name, why) in [
        ("bea", "bea is a symbolic link"),
        ("cal", "lessons is a symbolic link"),
        ("dov", "has a name grading does not accept"),
        ("eli", "stopped before it recorded which files it had read"),
    ] {
        let entry = student(name);
        assert_eq!(entry["score"], 0.0, "{name}: {json}");
        assert!(
            entry.to_string().contains(why),
            "{name} says {why:?}: {entry}"
        );
    }
}

#[test]
fn a_tar_with_a_huge_long_name_is_refused_before_it_is_read() {
    // The tar crate reads a GNU long name into memory whole, before any limit on the
    // files sees it: 2 MiB here (and its ending NUL), gigabytes for the same trick a
    // little larger.
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    let file = std::fs::File::create(dir.join("fay.tar.gz")).unwrap();
    let encoder = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    let mut tar = tar::Builder::new(encoder);
    let mut header = tar::Header::new_gnu();
    header.set_size(1);
    header.set_mode(0o644);
    tar.append_data(&mut header, "a".repeat(2 << 20), &b"x"[..])
        .unwrap();
    let solved = Submission::solved();
    tar.append_dir_all("lessons", solved.path()).unwrap();
    tar.into_inner().unwrap().finish().unwrap();
    enrol(dir, "gus", &Submission::solved());

    let csv = grade_class(dir, "csv");
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let notes = rows
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "notes")
        .unwrap();
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(&rows[0][0], "fay", "{csv}");
    assert!(
        rows[0][notes].contains("has a header of 2097153 bytes"),
        "{csv}"
    );
}

#[test]
fn a_record_left_by_an_earlier_grading_does_not_let_a_leaking_error_through() {
    // fin is graded once, solved: rustc leaves its record of the files it read. Then fin's
    // library quotes the course's manifest in a compiler error and stops before writing a
    // new record: the old one must not count as this build's.
    let class = tempfile::tempdir().unwrap();
    let dir = class.path();
    enrol(dir, "fin", &Submission::solved());
    grade_class(dir, "json");
    let lib = dir.join("fin").join(LESSON).join("src/lib.rs");
    let manifest = crate::util::course_root().join("Cargo.toml");
    std::fs::write(
        &lib,
        format!(
            "compile_error!(concat!(\"LEAKED>>\", include_str!({:?})));\n\
             macro_rules! again {{ () => {{ again!(); }} }}\nagain!();\n",
            manifest.to_string_lossy()
        ),
    )
    .unwrap();
    let json = grade_class(dir, "json");
    assert!(
        !json.contains("[workspace]") && !json.contains("LEAKED>>"),
        "the course's manifest leaked on the second grading: {json}"
    );
    assert!(
        json.contains("stopped before it recorded which files it had read"),
        "{json}"
    );
}
