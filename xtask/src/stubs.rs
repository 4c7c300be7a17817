//! `cargo xtask stubs`: writes every lesson's stub from its solution, the one source, and
//! the rest of the learner's crate from its [`LEARNER`] folder: `lessons/` is generated.
//!
//! A learner's `lessons/NN/src/` is generated from `solutions/NN/src/`: each file is
//! copied line by line, except inside two kinds of marked regions (each marker alone on
//! its line, at any indentation):
//!
//! ```text
//! // BEGIN SOLUTION: todo!("softmax_rows")     the solution's code, left out of the stub;
//! ...                                          the text after `: ` (if any) takes its
//! // END SOLUTION                              place, at the marker's indentation
//!
//! // BEGIN STUB                                lines only the stub has, written in the
//! // //! # How to work on this lesson          solution as comments: the stub gets each
//! // END STUB                                  without the `// ` after the indentation
//! ```
//!
//! Everything else (signatures, `///` contracts, `// TODO:` guidance, given code, the
//! book's `// ANCHOR:` lines) is shared, so it is written once. The task then records each
//! stub's fingerprint in lessons/fingerprints.toml: the checker reports a lesson still
//! equal to its stub as not started, without building it; and it gathers each lesson's
//! Chinese title and hints (`solutions/NN/lesson.zh-CN.ftl`) into the checker's
//! `checker/locales/zh-CN/course.ftl`, which the checker's program carries. With
//! `--check` it writes nothing and fails if a committed stub, fingerprint or gathered
//! file is not what the solutions generate (`.ci/run` runs that).

use anyhow::{Context, Result, bail};
use course_manifest::{Manifest, stub_fingerprint};
use std::path::{Path, PathBuf};

/// The folder under `solutions/<id>/` that holds what the learner's crate has besides the
/// stub's `src/`: its `Cargo.toml`, its visible tests (with their record of named
/// mistakes) and its examples. `lessons/<id>/` gets a copy of each file.
pub const LEARNER: &str = "learner";

pub fn run(root: &Path, check: bool) -> Result<()> {
    let path = root.join("course.toml");
    let manifest = Manifest::load(&path)?;
    let mut stale = Vec::new();
    let mut strays = Vec::new();
    for lesson in &manifest.lessons {
        let solution = root.join("solutions").join(&lesson.id);
        let lesson_dir = root.join("lessons").join(&lesson.id);
        let mut expected: Vec<(PathBuf, Vec<u8>)> = generate(&solution.join("src"))?
            .into_iter()
            .map(|(relative, stub)| (Path::new("src").join(relative), stub.into_bytes()))
            .collect();
        expected.extend(learner_files(&solution.join(LEARNER))?);
        for (relative, bytes) in &expected {
            let target = lesson_dir.join(relative);
            if std::fs::read(&target).ok().as_deref() != Some(bytes.as_slice()) {
                stale.push(format!("lessons/{}/{}", lesson.id, relative.display()));
                if !check {
                    std::fs::create_dir_all(target.parent().context("a parent folder")?)?;
                    std::fs::write(&target, bytes)?;
                }
            }
        }
        for entry in walkdir::WalkDir::new(&lesson_dir).sort_by_file_name() {
            let entry = entry?;
            let relative = entry.path().strip_prefix(&lesson_dir)?;
            if entry.file_type().is_file() && !expected.iter().any(|(e, _)| e == relative)
            {
                strays.push(format!("lessons/{}/{}", lesson.id, relative.display()));
            }
        }
    }
    if !strays.is_empty() {
        bail!(
            "lessons/ is generated, but these files come from nothing under solutions/: {}. \
             Move each into its lesson's solutions/<id>/{LEARNER}/ (or, for source, \
             solutions/<id>/src/), or remove it; then run `cargo xtask stubs`",
            strays.join(", ")
        );
    }
    if check && !stale.is_empty() {
        bail!(
            "these files of lessons/ are not what solutions/ generates: {}. Edit the \
             lesson's folder under solutions/ (its src/ for the stub, {LEARNER}/ for the rest \
             of the learner's crate), never lessons/, and run `cargo xtask stubs`",
            stale.join(", ")
        );
    }
    for file in &stale {
        println!("Wrote {file}.");
    }
    gather_chinese(root, &manifest, check)?;
    record_fingerprints(root, &manifest, check)
}

/// Every file under a lesson's [`LEARNER`] folder, by path relative to it.
fn learner_files(learner: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut files = Vec::new();
    if !learner.is_dir() {
        return Ok(files);
    }
    for entry in walkdir::WalkDir::new(learner).sort_by_file_name() {
        let entry = entry?;
        if entry.file_type().is_file() {
            let bytes = std::fs::read(entry.path())
                .with_context(|| format!("could not read {}", entry.path().display()))?;
            files.push((entry.path().strip_prefix(learner)?.to_path_buf(), bytes));
        }
    }
    Ok(files)
}

/// Where the checker's program finds the course's Chinese titles and hints.
const GATHERED_CHINESE: &str = "checker/locales/zh-CN/course.ftl";

/// Writes [`GATHERED_CHINESE`] from each lesson's `lesson.zh-CN.ftl`, in the course's
/// order (or, with `check`, fails if it is not what they give). A course without the
/// checker's locales folder has nothing to gather into.
fn gather_chinese(root: &Path, manifest: &Manifest, check: bool) -> Result<()> {
    let target = root.join(GATHERED_CHINESE);
    if !target.parent().is_some_and(Path::is_dir) {
        return Ok(());
    }
    let mut gathered = String::from(
        "### Generated by `cargo xtask stubs` from each lesson's solutions/<id>/lesson.zh-CN.ftl\n\
         ### (the Chinese of its title and hints, whose English is its lesson.toml): edit those,\n\
         ### not this file. The checker's program carries it.\n",
    );
    for lesson in &manifest.lessons {
        let source = course_manifest::Lesson::entry_path(root, &lesson.id)
            .with_file_name(course_manifest::LESSON_CHINESE);
        let text = std::fs::read_to_string(&source).with_context(|| {
            format!(
                "could not read {}: every lesson has the Chinese of its title and hints there",
                source.display()
            )
        })?;
        let body: Vec<&str> = text
            .lines()
            .skip_while(|line| line.starts_with("###"))
            .skip_while(|line| line.trim().is_empty())
            .collect();
        gathered.push_str(&format!("\n## {}: {}\n\n", lesson.id, lesson.title));
        gathered.push_str(&body.join("\n"));
        gathered.push('\n');
    }
    if std::fs::read_to_string(&target).ok().as_deref() == Some(gathered.as_str()) {
        return Ok(());
    }
    if check {
        bail!(
            "{GATHERED_CHINESE} is not what the lessons' lesson.zh-CN.ftl give: edit those \
             (not the gathered file) and run `cargo xtask stubs`"
        );
    }
    std::fs::write(&target, gathered)?;
    println!("Wrote {GATHERED_CHINESE}.");
    Ok(())
}

/// Every `.rs` file under a solution's `src/`, with the stub generated from it, by path
/// relative to `src/`.
fn generate(src: &Path) -> Result<Vec<(PathBuf, String)>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry?;
        let is_rust = entry.path().extension().is_some_and(|ext| ext == "rs");
        if !entry.file_type().is_file() || !is_rust {
            continue;
        }
        let solution = std::fs::read_to_string(entry.path())
            .with_context(|| format!("could not read {}", entry.path().display()))?;
        let stub = stub_of(&solution)
            .with_context(|| format!("in {}", entry.path().display()))?;
        files.push((entry.path().strip_prefix(src)?.to_path_buf(), stub));
    }
    Ok(files)
}

/// Where a line of a solution is, between the markers.
enum Region {
    Shared,
    Solution { from: usize },
    Stub { from: usize, indent: String },
}

/// The stub of one solution file (see the module docs for the markers).
pub fn stub_of(solution: &str) -> Result<String> {
    let mut stub = String::with_capacity(solution.len());
    let mut region = Region::Shared;
    for (index, line) in solution.split_inclusive('\n').enumerate() {
        let number = index + 1;
        let text = line.trim_end_matches('\n');
        let trimmed = text.trim_start();
        let indent = &text[..text.len() - trimmed.len()];
        let begin_solution =
            trimmed == "// BEGIN SOLUTION" || trimmed.starts_with("// BEGIN SOLUTION: ");
        match (&region, trimmed) {
            (Region::Shared, _) if begin_solution => {
                if let Some(replacement) = trimmed.strip_prefix("// BEGIN SOLUTION: ") {
                    stub.push_str(indent);
                    stub.push_str(replacement);
                    stub.push('\n');
                }
                region = Region::Solution { from: number };
            }
            (Region::Shared, "// BEGIN STUB") => {
                region = Region::Stub {
                    from: number,
                    indent: indent.to_owned(),
                };
            }
            (Region::Solution { .. }, "// END SOLUTION")
            | (Region::Stub { .. }, "// END STUB") => region = Region::Shared,
            (Region::Shared, "// END SOLUTION" | "// END STUB") => {
                bail!("line {number}: `{trimmed}` closes no region")
            }
            (Region::Solution { from } | Region::Stub { from, .. }, _)
                if begin_solution || trimmed == "// BEGIN STUB" =>
            {
                bail!("line {number}: a region opened on line {from} is still open")
            }
            (Region::Shared, _) => stub.push_str(line),
            (Region::Solution { .. }, _) => {}
            (Region::Stub { indent: marker, .. }, _) => {
                let uncommented = if text == format!("{marker}//") {
                    String::new()
                } else if let Some(rest) = text.strip_prefix(&format!("{marker}// ")) {
                    format!("{marker}{rest}")
                } else {
                    bail!(
                        "line {number}: a line of a `// BEGIN STUB` region must be a \
                         comment, `{marker}// ` and the stub's line"
                    )
                };
                stub.push_str(&uncommented);
                stub.push('\n');
            }
        }
    }
    match region {
        Region::Shared => Ok(stub),
        Region::Solution { from } | Region::Stub { from, .. } => {
            bail!("the region opened on line {from} is never closed")
        }
    }
}

/// Writes (or with `check`, checks) the stubs' fingerprints, in their generated file
/// ([`course_manifest::FINGERPRINTS`]), in the manifest's order of lessons.
fn record_fingerprints(root: &Path, manifest: &Manifest, check: bool) -> Result<()> {
    let path = root.join(course_manifest::FINGERPRINTS);
    let mut text = String::from(
        "# Written by `cargo xtask stubs`: do not edit. The fingerprint of each lesson's\n\
         # stub (lessons/<id>/src/ as the course ships it): a submission whose src/ has it\n\
         # is untouched, and the checker reports it as not started without building it.\n",
    );
    let mut stale = Vec::new();
    for lesson in &manifest.lessons {
        let current =
            stub_fingerprint(&root.join("lessons").join(&lesson.id).join("src"))?;
        if lesson.stub.as_deref() != Some(current.as_str()) {
            stale.push(lesson.id.clone());
        }
        text.push_str(&format!("\"{}\" = \"{current}\"\n", lesson.id));
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    if stale.is_empty() && written == text {
        println!(
            "Every stub is what its solution generates, and its fingerprint is current."
        );
        return Ok(());
    }
    if check {
        bail!(
            "{} is stale{}: run `cargo xtask stubs`",
            course_manifest::FINGERPRINTS,
            if stale.is_empty() {
                String::new()
            } else {
                format!(" for {}", stale.join(", "))
            }
        );
    }
    std::fs::write(&path, text)?;
    println!(
        "Recorded the stubs' fingerprints in {}.",
        course_manifest::FINGERPRINTS
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::stub_of;

    const SOLUTION: &str = "\
// BEGIN SOLUTION
//! Lesson 09, solved.
// END SOLUTION
// BEGIN STUB
// //! Lesson 09.
//
// //! Work top to bottom.
// END STUB

/// The contract.
pub fn f(x: f64) -> f64 {
    // TODO: twice x.
    // BEGIN SOLUTION: todo!(\"f\")
    let twice = 2.0 * x;
    twice
    // END SOLUTION
}
";

    #[test]
    fn the_stub_keeps_the_shared_lines_and_replaces_the_solution() {
        assert_eq!(
            stub_of(SOLUTION).unwrap(),
            "//! Lesson 09.\n\n//! Work top to bottom.\n\n/// The contract.\n\
             pub fn f(x: f64) -> f64 {\n    // TODO: twice x.\n    todo!(\"f\")\n}\n"
        );
    }

    #[test]
    fn check_fails_when_a_solution_s_contract_changed_and_its_stub_was_not_regenerated() {
        let root =
            std::env::temp_dir().join(format!("xtask-stubs-{}", std::process::id()));
        let solution = root.join("solutions/09-demo/src/lib.rs");
        std::fs::create_dir_all(solution.parent().unwrap()).unwrap();
        std::fs::create_dir_all(root.join("lessons/09-demo/src")).unwrap();
        std::fs::write(
            root.join("course.toml"),
            "format_version = 2\n[[lessons]]\nid = \"09-demo\"\ntitle = \"Demo\"\n\
             crate = \"demo\"\nchapter = \"09-demo.md\"\n[[lessons.hints]]\n\
             function = \"f\"\n[[lessons.hints.steps]]\nname = \"idea\"\ntext = \"twice\"\n",
        )
        .unwrap();
        std::fs::write(&solution, SOLUTION).unwrap();
        super::run(&root, false).unwrap();
        let stub = root.join("lessons/09-demo/src/lib.rs");
        assert_eq!(
            std::fs::read_to_string(&stub).unwrap(),
            stub_of(SOLUTION).unwrap()
        );
        super::run(&root, true).expect("a fresh stub and fingerprint pass the check");

        std::fs::write(&solution, SOLUTION.replace("The contract.", "Twice `x`."))
            .unwrap();
        let error = format!("{:#}", super::run(&root, true).unwrap_err());
        let unchanged = std::fs::read_to_string(&stub).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        assert!(
            error.contains("lessons/09-demo/src/lib.rs")
                && error.contains("cargo xtask stubs"),
            "{error}"
        );
        assert_eq!(
            unchanged,
            stub_of(SOLUTION).unwrap(),
            "--check writes nothing"
        );
    }

    #[test]
    fn unbalanced_or_malformed_regions_are_errors_that_say_where() {
        for (solution, needle) in [
            ("// BEGIN SOLUTION\nx\n", "never closed"),
            ("x\n// END SOLUTION\n", "line 2"),
            ("// BEGIN STUB\n// BEGIN SOLUTION\n", "still open"),
            (
                "// BEGIN STUB\nlet x = 1;\n// END STUB\n",
                "must be a comment",
            ),
        ] {
            let error = format!("{:#}", stub_of(solution).unwrap_err());
            assert!(error.contains(needle), "{solution:?}: {error}");
        }
    }
}
