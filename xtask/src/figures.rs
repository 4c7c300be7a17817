//! `cargo xtask figures` and `cargo xtask experiments`: the book's figures and the
//! course's measurements, regenerated from the solutions.
//!
//! `course.toml` lists, per lesson, the examples of its solution crate that draw figures
//! (deterministic: the same bytes on every run) and those that measure (timings, training
//! runs). `figures --check` regenerates the figures and fails if any differs from the
//! committed file, so the book never shows a figure the code no longer draws.
//! `experiments` runs every figure and experiment example in release mode and gathers the
//! JSON summaries they write under `target/experiments/` into
//! `target/experiments/summary.json`.

use crate::run_command;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// One example to run: the solution package and the example's name.
struct Example {
    package: String,
    name: String,
}

/// The examples `course.toml` lists under `key` (`figures` or `experiments`).
fn examples(root: &Path, key: &str) -> Result<Vec<Example>> {
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("course.toml"))?)?;
    let mut found = Vec::new();
    for lesson in manifest["lessons"]
        .as_array()
        .context("course.toml lists lessons")?
    {
        let package = format!(
            "{}-solution",
            lesson["crate"].as_str().context("a crate name")?
        );
        for name in lesson
            .get(key)
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let name = name
                .as_str()
                .context("example names are strings")?
                .to_owned();
            found.push(Example {
                package: package.clone(),
                name,
            });
        }
    }
    Ok(found)
}

fn run_example(root: &Path, example: &Example, quiet: bool) -> Result<()> {
    let mut command = Command::new("cargo");
    command.current_dir(root).args([
        "run",
        "--release",
        "--quiet",
        "-p",
        &example.package,
        "--example",
        &example.name,
    ]);
    if quiet {
        command.stdout(Stdio::null());
    }
    run_command(&mut command)
}

/// The book's figures folder, file by file.
fn snapshot(figures: &Path) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(figures)? {
        let entry = entry?;
        files.insert(
            entry.file_name().to_string_lossy().into_owned(),
            std::fs::read(entry.path())?,
        );
    }
    Ok(files)
}

pub fn figures(root: &Path, check: bool) -> Result<()> {
    let folder = root.join("book/src/figures");
    let before = snapshot(&folder)?;
    let examples = examples(root, "figures")?;
    for example in &examples {
        run_example(root, example, true)?;
    }
    let after = snapshot(&folder)?;
    let changed: Vec<&String> = after
        .iter()
        .filter(|(name, bytes)| before.get(*name) != Some(bytes))
        .map(|(name, _)| name)
        .collect();
    println!(
        "{} figure programs run; {} figure file(s) changed",
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
    let mut seen = Vec::new();
    for example in examples(root, "figures")?
        .into_iter()
        .chain(examples(root, "experiments")?)
    {
        let key = format!("{}/{}", example.package, example.name);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        println!("\n=== {} --example {}", example.package, example.name);
        run_example(root, &example, false)?;
    }
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
