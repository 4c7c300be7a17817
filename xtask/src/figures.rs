//! `cargo xtask figures` and `cargo xtask experiments`: the book's figures and the
//! course's measurements, regenerated from the solutions.
//!
//! `course.toml` lists, per lesson, the programs that draw figures (deterministic: the
//! same bytes on every run) and those that measure (timings, training runs). Most are
//! examples of the lesson crate, so that a learner measures their own code; those that
//! compute on the way what a lesson asks a learner to write are examples of the
//! maintainers' `measurements` crate instead. These tasks run them all on the reference
//! solutions, in a copy of the course whose lessons
//! are the solutions (`target/xtask/reference/`), with the examples' output folders
//! pointed at the book's figures and at `target/experiments/` (see
//! `course_common::output`).
//!
//! Each figure program draws its figures in English and in Chinese (`--lang en,zh-CN`),
//! the Chinese ones into `book/src/figures/zh-CN/`, where the hand-drawn figures' Chinese
//! twins are too. Then every figure that shows Chinese, drawn or hand-drawn, gets the
//! subset of the book's CJK font it needs (see `figure_font`).
//!
//! A figure of timings cannot be measured again the same: `attention_cost` redraws the
//! chapter's from the tables the chapter quotes (`--tables`), in both languages, so that
//! it is checked too. (`length_sweep`'s, which takes long to train, is drawn by
//! `experiments`.)
//!
//! `figures --check` regenerates the figures and fails if any differs from the committed
//! file, so the book never shows a figure the code no longer draws. `--fonts-only` skips
//! the programs and only embeds the fonts (after editing a hand-drawn figure). `experiments` runs
//! every figure and experiment example in release mode and gathers the JSON summaries
//! they write into `target/experiments/summary.json`.

use crate::course_copy::CourseCopy;
use crate::run_command;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;

/// One example to run: the lesson package, the example's name, whether it draws the
/// book's figures (and so takes `--lang`), and any other arguments.
struct Example {
    package: String,
    name: String,
    draws: bool,
    args: Vec<String>,
}

/// The experiments that also draw a figure of the book (so take `--lang`).
const DRAWING_EXPERIMENTS: [&str; 3] = ["attention_cost", "length_sweep", "train_gpt"];

/// The figures of measurements that are redrawn from the numbers the book quotes: the
/// package, the example, and the chapter it reads them from (`--tables`).
const REDRAWN: [(&str, &str, &str); 1] = [(
    "attention",
    "attention_cost",
    "book/src/cost-of-attention.md",
)];

/// Which of a lesson's example lists: those that draw figures, or those that measure.
#[derive(Clone, Copy)]
enum Kind {
    Figures,
    Experiments,
}

/// The examples `course.toml` lists of `kind`.
fn examples(root: &Path, kind: Kind) -> Result<Vec<Example>> {
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    let mut found = Vec::new();
    for lesson in manifest.lessons {
        let names = match kind {
            Kind::Figures => lesson.figures.clone(),
            Kind::Experiments => lesson.experiments.clone(),
        };
        for name in names {
            let draws = matches!(kind, Kind::Figures)
                || DRAWING_EXPERIMENTS.contains(&name.as_str());
            let package = lesson.program_package(root, &name).with_context(|| {
                format!(
                    "course.toml names the program `{name}` of lesson {}, which is an \
                     example of neither its crate nor the measurements crate",
                    lesson.id
                )
            })?;
            found.push(Example {
                package,
                name,
                draws,
                args: Vec::new(),
            });
        }
    }
    Ok(found)
}

/// A copy of the course whose lessons are the reference solutions, where the lessons'
/// examples draw the book's figures.
struct Reference {
    root: std::path::PathBuf,
    copy: CourseCopy,
}

impl Reference {
    fn prepare(root: &Path) -> Result<Self> {
        let copy = CourseCopy::create(
            root,
            &root.join("target").join("xtask").join("reference"),
        )?;
        crate::course_copy::solve_lessons(root, &copy.course)?;
        Ok(Self {
            root: root.to_path_buf(),
            copy,
        })
    }

    fn run(&self, example: &Example, quiet: bool) -> Result<()> {
        let mut command = self.copy.cargo(&[
            "run",
            "--release",
            "--quiet",
            "-p",
            &example.package,
            "--example",
            &example.name,
        ]);
        command.arg("--").args(&example.args);
        if example.draws {
            command.args(["--lang", "en,zh-CN"]);
        }
        command
            .env("COURSE_FIGURES_DIR", self.root.join("book/src/figures"))
            .env(
                "COURSE_EXPERIMENTS_DIR",
                self.root.join("target/experiments"),
            );
        if quiet {
            command.stdout(Stdio::null());
        }
        run_command(&mut command)
    }
}

/// The book's figures folder, file by file (its `zh-CN` folder's files as `zh-CN/name`).
fn snapshot(figures: &Path) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(figures) {
        let entry = entry?;
        if entry.file_type().is_file() {
            let name = entry.path().strip_prefix(figures)?;
            files.insert(
                name.to_string_lossy().replace('\\', "/"),
                std::fs::read(entry.path())?,
            );
        }
    }
    Ok(files)
}

pub fn figures(root: &Path, check: bool, fonts_only: bool) -> Result<()> {
    let folder = root.join("book/src/figures");
    let before = snapshot(&folder)?;
    let mut examples = if fonts_only {
        Vec::new()
    } else {
        examples(root, Kind::Figures)?
    };
    if !fonts_only {
        for (package, name, chapter) in REDRAWN {
            examples.push(Example {
                package: package.to_owned(),
                name: name.to_owned(),
                draws: true,
                args: vec![
                    "--tables".to_owned(),
                    root.join(chapter).to_string_lossy().into_owned(),
                ],
            });
        }
    }
    if !examples.is_empty() {
        let reference = Reference::prepare(root)?;
        for example in &examples {
            reference.run(example, true)?;
        }
    }
    let carrying = crate::figure_font::embed_all(root, &folder)?;
    let after = snapshot(&folder)?;
    let changed: Vec<&String> = after
        .iter()
        .filter(|(name, bytes)| before.get(*name) != Some(bytes))
        .map(|(name, _)| name)
        .collect();
    println!(
        "{} figure programs run; {carrying} figure(s) carry their CJK font; {} figure \
         file(s) changed",
        examples.len(),
        changed.len()
    );
    for name in &changed {
        println!("  changed: book/src/figures/{name}");
    }
    if check && !changed.is_empty() {
        bail!(
            "the committed figures are not what the solutions draw: run `cargo xtask figures` \
             and commit book/src/figures/"
        );
    }
    Ok(())
}

pub fn experiments(root: &Path) -> Result<()> {
    let output = root.join("target/experiments");
    std::fs::create_dir_all(&output)?;
    let reference = Reference::prepare(root)?;
    let mut seen = Vec::new();
    for example in examples(root, Kind::Figures)?
        .into_iter()
        .chain(examples(root, Kind::Experiments)?)
    {
        let key = format!("{}/{}", example.package, example.name);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        println!("\n=== {} --example {}", example.package, example.name);
        reference.run(&example, false)?;
    }
    // The measurements redraw the book's figures, the Chinese ones without their font.
    crate::figure_font::embed_all(root, &root.join("book/src/figures"))?;
    let mut summary = serde_json::Map::new();
    for entry in std::fs::read_dir(&output)? {
        let path = entry?.path();
        let is_part = path.extension().is_some_and(|e| e == "json")
            && path.file_stem().is_some_and(|s| s != "summary");
        if is_part {
            let stem = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path)?)
                    .with_context(|| format!("{} is not JSON", path.display()))?;
            summary.insert(stem, value);
        }
    }
    let path = output.join("summary.json");
    std::fs::write(&path, serde_json::to_string_pretty(&summary)?)?;
    println!(
        "\nwrote {} ({} experiment summaries)",
        path.display(),
        summary.len()
    );
    Ok(())
}
