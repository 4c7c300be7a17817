//! `cargo xtask scaffold-check`: proves on a copy of the course that `cargo xtask
//! new-lesson` makes a lesson that works, and that adding it is local.
//!
//! In a copy (under `target/scaffold-check/`), it adds the lesson after the last one, then
//! checks that:
//!
//! - it touched only the lesson's folder under `solutions/`, the index (`course.toml`),
//!   the book (its chapter, `SUMMARY.md`, the translation) and files generated from those
//!   (`lessons/<id>/`, the stubs' fingerprints, the checker's gathered Chinese); it prints
//!   each;
//! - `checker verify <id>` passes: the layout is consistent, the solution grades 100% and
//!   the stub 0% through the grading path a learner's submission takes;
//! - the solution's own tests pass, its list of mistakes applies to it, and the Chinese of
//!   its hints and its suite's messages is complete and current (the xtask's, the
//!   checker's and the i18n crate's tests);
//! - where gettext is installed, the book's translation has nothing untranslated or fuzzy.

use crate::course_copy::{CourseCopy, copy_tree};
use crate::new_lesson::NewLesson;
use anyhow::{Context, Result, bail, ensure};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The book's parts the copy needs: the chapter goes into `src/`, its Chinese into `po/`,
/// and `po/update.sh` builds the book to extract the template.
const BOOK_PARTS: &[&str] = &["book.toml", "src", "theme", "po", "preprocessors"];

pub fn run(root: &Path) -> Result<()> {
    let copy = CourseCopy::create(root, &root.join("target/scaffold-check"))?;
    for part in BOOK_PARTS {
        copy_tree(
            &root.join("book").join(part),
            &copy.course.join("book").join(part),
        )?;
    }
    // The i18n crate's tests read the Chinese README too.
    for readme in ["README.md", "README.zh-CN.md"] {
        copy_tree(&root.join(readme), &copy.course.join(readme))?;
    }
    let manifest = course_manifest::Manifest::load(&copy.course.join("course.toml"))?;
    let last: u32 = manifest
        .lessons
        .last()
        .and_then(|lesson| lesson.id.split_once('-'))
        .and_then(|(number, _)| number.parse().ok())
        .context("the course has no numbered lesson to follow")?;
    let id = format!("{:02}-scaffold-check", last + 1);
    let krate = "scaffold-check";

    let before = snapshot(&copy.course)?;
    crate::new_lesson::run(
        &copy.course,
        &NewLesson {
            id: id.clone(),
            crate_name: krate.to_owned(),
            title: Some("Scaffold check".to_owned()),
            title_zh: Some("脚手架检查".to_owned()),
        },
    )?;
    let after = snapshot(&copy.course)?;
    let touched = changed(&before, &after);
    report_touched(&touched, &id)?;

    println!("\n==> checker verify {id}, in the copy");
    crate::run_command(
        &mut copy.cargo(&["run", "--quiet", "-p", "checker", "--", "verify", &id]),
    )?;
    println!("\n==> the solution's tests, and the Chinese of its hints and messages");
    let solution = format!("{krate}-solution");
    crate::run_command(&mut copy.cargo(&["test", "--quiet", "-p", &solution]))?;
    crate::run_command(&mut copy.cargo(&["test", "--quiet", "-p", "course-i18n"]))?;
    // The tooling's own tests: every listed mistake still applies to its solution.
    crate::run_command(&mut copy.cargo(&[
        "test",
        "--quiet",
        "-p",
        "xtask",
        "--",
        "mistakes::",
    ]))?;
    crate::run_command(&mut copy.cargo(&[
        "test", "--quiet", "-p", "checker", "--bin", "checker", "--", "messages",
    ]))?;
    translation_complete(&copy.course, &id)?;
    println!("\nThe scaffold's lesson {id} builds, verifies and is translated.");
    Ok(())
}

/// Every regular file under `root` (build output aside), by path, with its bytes' length
/// and a hash of them.
fn snapshot(root: &Path) -> Result<BTreeMap<PathBuf, (u64, u64)>> {
    use std::hash::{Hash, Hasher};
    let mut files = BTreeMap::new();
    let walk = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|entry| {
            entry.file_name() != "target" && entry.file_name() != "build"
        });
    for entry in walk {
        let entry = entry?;
        if entry.file_type().is_file() {
            let bytes = std::fs::read(entry.path())?;
            let mut hasher = std::hash::DefaultHasher::new();
            bytes.hash(&mut hasher);
            let relative = entry.path().strip_prefix(root)?.to_path_buf();
            files.insert(relative, (bytes.len() as u64, hasher.finish()));
        }
    }
    Ok(files)
}

/// The paths added, changed or removed between two snapshots.
fn changed(
    before: &BTreeMap<PathBuf, (u64, u64)>,
    after: &BTreeMap<PathBuf, (u64, u64)>,
) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = after
        .iter()
        .filter(|(path, sum)| before.get(*path) != Some(sum))
        .map(|(path, _)| path.clone())
        .collect();
    paths.extend(
        before
            .keys()
            .filter(|path| !after.contains_key(*path))
            .cloned(),
    );
    paths.sort();
    paths
}

/// Prints what adding lesson `id` touched, by where, and fails on anything outside the
/// lesson's home, the index, the book and what is generated from them.
fn report_touched(touched: &[PathBuf], id: &str) -> Result<()> {
    let home = Path::new("solutions").join(id);
    let generated_lesson = Path::new("lessons").join(id);
    let written = |path: &Path| {
        path.starts_with(&home)
            || path == Path::new("course.toml")
            || path == Path::new("book/src/SUMMARY.md")
            || path == Path::new("book/po/zh-CN.po")
            || path == Path::new("book/src").join(format!("{id}.md"))
    };
    let generated = |path: &Path| {
        path.starts_with(&generated_lesson)
            || path == Path::new(course_manifest::FINGERPRINTS)
            || path == Path::new("checker/locales/zh-CN/course.ftl")
            || path == Path::new("book/po/messages.pot")
    };
    let mut stray = Vec::new();
    let (mut written_paths, mut generated_paths) = (Vec::new(), Vec::new());
    for path in touched {
        if written(path) {
            written_paths.push(path);
        } else if generated(path) {
            generated_paths.push(path);
        } else {
            stray.push(path.display().to_string());
        }
    }
    let places = |paths: &[&PathBuf]| -> Vec<String> {
        let mut places: Vec<String> = paths
            .iter()
            .map(|path| {
                if path.starts_with(&home) {
                    format!("{}/", home.display())
                } else if path.starts_with(&generated_lesson) {
                    format!("{}/", generated_lesson.display())
                } else {
                    path.display().to_string()
                }
            })
            .collect();
        places.dedup();
        places
    };
    let (written_places, generated_places) =
        (places(&written_paths), places(&generated_paths));
    println!(
        "\nAdding lesson {id} wrote {} files in {} places (what a maintainer edits):",
        written_paths.len(),
        written_places.len()
    );
    for place in &written_places {
        println!("  {place}");
    }
    println!(
        "and {} generated files in {} places:",
        generated_paths.len(),
        generated_places.len()
    );
    for place in &generated_places {
        println!("  {place}");
    }
    if !stray.is_empty() {
        bail!(
            "adding a lesson touched files outside its home, the index and the book: {}",
            stray.join(", ")
        );
    }
    ensure!(
        !written_paths.is_empty(),
        "the scaffold wrote nothing in solutions/{id}/"
    );
    Ok(())
}

/// Where gettext is installed: fails if the book's Chinese has anything untranslated or
/// fuzzy (the book's own check builds it; the copy's is the one the scaffold extended).
fn translation_complete(course: &Path, id: &str) -> Result<()> {
    let template = std::fs::read_to_string(course.join("book/po/messages.pot"))?;
    let extractor = std::process::Command::new("sh")
        .args(["-c", "command -v mdbook-xgettext"])
        .output()
        .is_ok_and(|out| out.status.success());
    ensure!(
        !extractor || template.contains(&format!("#: src/{id}.md")),
        "the book's translation template does not list the new chapter: book/po/update.sh \
         did not run"
    );
    let po = course.join("book/po/zh-CN.po");
    let Ok(output) = std::process::Command::new("msgfmt")
        .args(["--statistics", "--check", "-o", "/dev/null"])
        .arg(&po)
        .output()
    else {
        println!(
            "(gettext is not installed: the book's translation is not checked here)"
        );
        return Ok(());
    };
    let statistics = String::from_utf8_lossy(&output.stderr).into_owned();
    ensure!(
        output.status.success()
            && !statistics.contains("untranslated")
            && !statistics.contains("fuzzy"),
        "the book's Chinese is not complete after the scaffold: {}",
        statistics.trim()
    );
    println!("the book's Chinese: {}", statistics.trim());
    Ok(())
}
