//! `cargo xtask class-bench`: a generated class of 30 submissions, graded twice.
//!
//! The class mixes what an instructor receives: complete, partial, empty and untouched
//! submissions, folders and archives, and hostile ones built from the checker's fixtures
//! (`checker/tests/fixtures/padding_mask/`). The task grades it with `checker class` from a
//! cold build cache and again warm, checks that both gradebooks are byte-identical and that
//! every student got the score their kind of submission calls for, and prints the timings.

use crate::run_command;
use anyhow::{Context, Result, ensure};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The kinds of submission, in the order they cycle through the class: in a class of 30,
/// each appears twice, so two students loop in every function of every lesson.
const KINDS: [&str; 15] = [
    "complete",
    "complete-tar-gz",
    "empty",
    "untouched-zip",
    "partial",
    "exit_zero",
    "endless_loop",
    "compile_error",
    "forged_output_and_report",
    "huge_allocation",
    "forged_tape",
    "escaping_child",
    "reads_the_suites_at_run_time",
    "tape_flood",
    "loops_everywhere",
];

/// Hostile kinds whose trick changes no result: lesson 02 scores 1.
const HARMLESS: [&str; 2] = ["escaping_child", "reads_the_suites_at_run_time"];

/// The lesson the hostile submissions attack (their trick sits in its `padding_mask`).
const ATTACKED: &str = "02-attention";

pub fn run(root: &Path, students: usize) -> Result<()> {
    let base = root.join("target").join("xtask").join("class");
    let class = base.join("submissions");
    if base.exists() {
        std::fs::remove_dir_all(&base)?;
    }
    std::fs::create_dir_all(&class)?;
    let lessons = lesson_ids(root)?;
    let mut kinds = BTreeMap::new();
    for index in 0..students {
        let kind = KINDS[index % KINDS.len()];
        let name = format!("student-{index:02}-{kind}");
        write_submission(root, &lessons, kind, &class, &name)?;
        kinds.insert(name, kind);
    }

    run_command(
        Command::new("cargo")
            .current_dir(root)
            .args(["build", "-q", "-p", "checker"]),
    )?;
    let checker = root.join("target").join("debug").join("checker");
    // Cold: no compiled dependencies in the checker's build cache.
    let cache = root.join("target").join("checker").join("build");
    if cache.exists() {
        std::fs::remove_dir_all(&cache)?;
    }
    let grade = |out: &Path| -> Result<f64> {
        let start = Instant::now();
        run_command(
            Command::new(&checker)
                .current_dir(root)
                .arg("class")
                .arg(&class)
                .arg("--out")
                .arg(out),
        )?;
        Ok(start.elapsed().as_secs_f64())
    };
    let (first, second) = (base.join("gradebook-1.csv"), base.join("gradebook-2.csv"));
    let cold = grade(&first)?;
    let warm = grade(&second)?;
    let book = std::fs::read_to_string(&first)?;
    ensure!(
        book == std::fs::read_to_string(&second)?,
        "the two gradebooks differ"
    );

    let mut reader = csv::Reader::from_reader(book.as_bytes());
    let header = reader.headers()?.clone();
    let column = |id: &str| {
        header
            .iter()
            .position(|h| h == id)
            .context("a column per lesson")
    };
    let (attacked, total) = (column(ATTACKED)?, column("total")?);
    let mut wrong = Vec::new();
    println!("{:<40} {:>8} {:>8}  notes", "student", ATTACKED, "total");
    for row in reader.records() {
        let row = row?;
        let (name, score, overall) = (
            &row[0],
            row[attacked].parse::<f64>()?,
            row[total].parse::<f64>()?,
        );
        let kind = kinds.get(name).copied().unwrap_or("?");
        let expected = match kind {
            "complete" | "complete-tar-gz" => {
                (score == 1.0 && overall == 1.0, "everything 1")
            }
            "empty" | "untouched-zip" | "compile_error" => (
                overall == 0.0 || kind == "compile_error" && score == 0.0,
                "0",
            ),
            "partial" => (score == 1.0 && overall < 1.0, "lesson 02 at 1, others 0"),
            "loops_everywhere" => (overall == 0.0, "0"),
            kind if HARMLESS.contains(&kind) => (score == 1.0, "lesson 02 at 1"),
            _ => (
                score > 0.0 && score < 1.0,
                "lesson 02 strictly between 0 and 1",
            ),
        };
        if !expected.0 {
            wrong.push(format!(
                "{name}: expected {}, got {score} (total {overall})",
                expected.1
            ));
        }
        println!(
            "{name:<40} {score:>8.4} {overall:>8.4}  {}",
            row.get(row.len() - 1).unwrap_or("")
        );
    }
    println!("\n{students} submissions, {} lessons each", lessons.len());
    println!("  first run (cold build cache): {cold:.1} s");
    println!("  second run (warm):            {warm:.1} s");
    println!("  gradebooks byte-identical:    yes");
    ensure!(wrong.is_empty(), "unexpected scores:\n{}", wrong.join("\n"));
    println!("  every score as expected:      yes");
    Ok(())
}

fn lesson_ids(root: &Path) -> Result<Vec<String>> {
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    Ok(manifest.lessons.into_iter().map(|l| l.id).collect())
}

/// Writes one student's submission of `kind` under `class`.
fn write_submission(
    root: &Path,
    lessons: &[String],
    kind: &str,
    class: &Path,
    name: &str,
) -> Result<()> {
    let folder = class.join(name);
    let lessons_dir = folder.join("lessons");
    if kind == "loops_everywhere" {
        // Every function of every lesson loops: each stub's todo!() becomes a busy loop, in
        // every file of its src/.
        for id in lessons {
            let stub = root.join("lessons").join(id).join("src");
            for entry in walkdir::WalkDir::new(&stub) {
                let entry = entry?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let looping = looping_bodies(&std::fs::read_to_string(entry.path())?);
                let file = lessons_dir
                    .join(id)
                    .join("src")
                    .join(entry.path().strip_prefix(&stub)?);
                std::fs::create_dir_all(file.parent().context("a parent")?)?;
                std::fs::write(file, looping)?;
            }
        }
        return Ok(());
    }
    if kind != "empty" {
        for id in lessons {
            let solved = matches!(kind, "complete" | "complete-tar-gz")
                || (id == ATTACKED && kind != "untouched-zip");
            let from = root
                .join(if solved { "solutions" } else { "lessons" })
                .join(id)
                .join("src");
            crate::course_copy::copy_tree(&from, &lessons_dir.join(id).join("src"))?;
        }
    } else {
        std::fs::create_dir_all(&folder)?;
    }
    if !matches!(
        kind,
        "complete" | "complete-tar-gz" | "empty" | "untouched-zip" | "partial"
    ) {
        let trick = std::fs::read_to_string(
            root.join("checker/tests/fixtures/padding_mask")
                .join(format!("{kind}.rs")),
        )?;
        let lib: PathBuf = lessons_dir.join(ATTACKED).join("src/lib.rs");
        let text = std::fs::read_to_string(&lib)?;
        let start = text
            .find("pub fn padding_mask(")
            .context("padding_mask in the solution")?;
        let brace = start + text[start..].find('{').context("its body")? + 1;
        std::fs::write(
            &lib,
            format!("{}\n{trick}\n{}", &text[..brace], &text[brace..]),
        )?;
    }
    match kind {
        "complete-tar-gz" => {
            let file = std::fs::File::create(class.join(format!("{name}.tar.gz")))?;
            let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
                file,
                flate2::Compression::fast(),
            ));
            tar.append_dir_all(name, &folder)?;
            tar.into_inner()?.finish()?;
            std::fs::remove_dir_all(&folder)?;
        }
        "untouched-zip" => {
            let mut zip = zip::ZipWriter::new(std::fs::File::create(
                class.join(format!("{name}.zip")),
            )?);
            for entry in walkdir::WalkDir::new(&folder).sort_by_file_name() {
                let entry = entry?;
                if entry.file_type().is_file() {
                    let relative = entry
                        .path()
                        .strip_prefix(&folder)?
                        .to_string_lossy()
                        .into_owned();
                    zip.start_file(relative, zip::write::SimpleFileOptions::default())?;
                    std::io::copy(&mut std::fs::File::open(entry.path())?, &mut zip)?;
                }
            }
            zip.finish()?;
            std::fs::remove_dir_all(&folder)?;
        }
        _ => {}
    }
    Ok(())
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
