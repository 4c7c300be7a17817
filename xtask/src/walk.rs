//! `cargo xtask walk`: every command a learner is shown, run where the learner is.
//!
//! Learners get the student edition, which has no solutions and no maintainer tooling. This
//! task exports it (`checker export-student`) into `target/xtask/walk/student/`, makes it
//! the copy of a learner who has finished every lesson (the reference solutions copied
//! into `lessons/`), extracts every `cargo` command from its README and its book (after
//! `$ ` in code blocks, and in inline code), and runs each there:
//!
//! - measurement and training programs (`--release` examples) and watch mode (which needs
//!   a terminal) run with `--help`, and every option the text passes them must be one
//!   their help lists;
//! - instructors' commands (`class`, `gradescope`, `verify`, `export-student`,
//!   `--lessons-dir`) run with `--help`: they are documented for the full repository;
//! - everything else runs as written.
//!
//! A command of the maintainers' `measurements` crate, which the student edition leaves
//! out (the book says so where it names one), runs the same way in the full repository.
//!
//! Commands with placeholders (`<crate>`, `NN-name`, `path/to`) and `cargo install` are
//! skipped; the instructors' chapter is for the full repository and is not walked. The
//! task fails, listing them, if any command fails.
//!
//! Before the commands, the text itself (the lessons still stubs, as a learner gets them):
//! every path of the course the README and the book name must be in the student edition,
//! unless its sentence says it is in the full repository (the rule is in `walk/paths.rs`);
//! and every `cargo install` of the book's tools must pin the version `.ci/run` installs
//! (`walk/pins.rs`, whose unit test also checks the full repository's READMEs).

mod paths;
mod pins;

use anyhow::{Result, bail};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

/// Pages of the book written for instructors, who work in the full repository.
const INSTRUCTORS_PAGES: &[&str] = &["instructors.md"];

/// Words that mark an instructor's command: run with `--help` only.
const INSTRUCTORS_WORDS: &[&str] = &[
    " class ",
    " gradescope",
    " verify",
    " export-student",
    "--lessons-dir",
];

/// The package of the maintainers' measurements, which only the full repository has.
const FULL_REPOSITORY_PACKAGE: &str = " -p measurements ";

pub fn run(root: &Path) -> Result<()> {
    let base = root.join("target").join("xtask").join("walk");
    let student = base.join("student");
    if student.exists() {
        std::fs::remove_dir_all(&student)?;
    }
    std::fs::create_dir_all(&base)?;
    crate::course_copy::export_student(root, &student)?;
    check_text(root, &student)?;
    // A learner who has finished every lesson.
    crate::course_copy::solve_lessons(root, &student)?;

    let commands = commands(&student)?;
    println!(
        "{} commands in the student edition's README and book",
        commands.len()
    );
    let target = base.join("target");
    let mut failed = Vec::new();
    for (command, pages) in &commands {
        let Some(plan) = plan(command) else {
            println!("  skip  {command}");
            continue;
        };
        let (place, folder) = if plan.full_repository {
            ("(full repository) ", root)
        } else {
            ("", student.as_path())
        };
        print!("  run   {place}{}", plan.line);
        let output = Command::new("sh")
            .arg("-c")
            .arg(&plan.line)
            .current_dir(folder)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_TERM_COLOR", "never")
            .stdin(Stdio::null())
            .output()?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let unknown: Vec<&String> = plan
            .options
            .iter()
            .filter(|option| !text.contains(option.as_str()))
            .collect();
        if output.status.success() && unknown.is_empty() {
            println!("  ok");
        } else {
            println!("  FAILED");
            let why = if output.status.success() {
                format!("its --help does not list {unknown:?}")
            } else {
                let tail: Vec<&str> = text.lines().rev().take(8).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                format!("{}\n      {}", output.status, tail.join("\n      "))
            };
            failed.push(format!(
                "`{command}` (in {}): {why}",
                pages.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if !failed.is_empty() {
        bail!(
            "{} command(s) shown to learners fail in the student edition:\n- {}",
            failed.len(),
            failed.join("\n- ")
        );
    }
    println!("every command works in the student edition");
    Ok(())
}

/// Before any command runs: every path the student edition's text names is there (or
/// marked as the full repository's), and every install of the book's tools is CI's version.
fn check_text(root: &Path, student: &Path) -> Result<()> {
    let mut problems = paths::missing(root, student)?;
    let ci = std::fs::read_to_string(root.join(".ci/run"))?;
    let pages = pins::pages(student, true)?;
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    problems.extend(pins::check(&ci, student, &pages)?);
    if !problems.is_empty() {
        bail!(
            "{} problem(s) in what the student edition's README and book name:\n- {}",
            problems.len(),
            problems.join("\n- ")
        );
    }
    println!(
        "every path the student edition names is there, and every install is pinned"
    );
    Ok(())
}

/// How to run one command: the shell line, and the options its `--help` must list.
struct Plan {
    line: String,
    options: Vec<String>,
    /// Whether it runs in the full repository (a maintainers' measurement), not in the
    /// student edition.
    full_repository: bool,
}

/// The plan for `command`, or `None` when it is not run (a placeholder, an install).
fn plan(command: &str) -> Option<Plan> {
    let placeholder = ["<", "NN", "…", "path/to", "..."];
    if command.starts_with("cargo install")
        || placeholder.iter().any(|p| command.contains(p))
    {
        return None;
    }
    let padded = format!("{command} ");
    let full_repository = padded.contains(FULL_REPOSITORY_PACKAGE);
    let instructors = INSTRUCTORS_WORDS.iter().any(|w| padded.contains(w));
    let long = command.contains("--release") && command.contains("--example");
    let watch = padded.contains(" watch ");
    if !(instructors || long || watch) {
        return Some(Plan {
            line: command.to_owned(),
            options: Vec::new(),
            full_repository,
        });
    }
    // Ask for help instead; the options the text passes must be ones the help lists.
    let (program, arguments) = match command.split_once(" -- ") {
        Some((program, arguments)) => (program, arguments),
        None => (command, ""),
    };
    let options: Vec<String> = arguments
        .split_whitespace()
        .filter(|word| word.starts_with("--"))
        .map(str::to_owned)
        .collect();
    let line = if program.contains("-p checker") {
        // The checker's subcommand stays; its help lists its own options.
        let subcommand: Vec<&str> = arguments
            .split_whitespace()
            .take_while(|word| !word.starts_with('-'))
            .take(1)
            .collect();
        format!("{program} -- {} --help", subcommand.join(" "))
    } else {
        format!("{program} -- --help")
    };
    Some(Plan {
        line,
        options,
        full_repository,
    })
}

/// Every `cargo` command of the student edition's README and book (outside the
/// instructors' pages), with the pages that show it.
fn commands(student: &Path) -> Result<Vec<(String, BTreeSet<String>)>> {
    let mut pages = vec![student.join("README.md")];
    for entry in walkdir::WalkDir::new(student.join("book/src")) {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && !INSTRUCTORS_PAGES.contains(&name.as_str()) {
            pages.push(entry.into_path());
        }
    }
    let mut found: Vec<(String, BTreeSet<String>)> = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page)?;
        let name = page
            .strip_prefix(student)
            .unwrap_or(&page)
            .display()
            .to_string();
        for command in extract(&text) {
            match found.iter_mut().find(|(c, _)| *c == command) {
                Some((_, pages)) => {
                    pages.insert(name.clone());
                }
                None => found.push((command, BTreeSet::from([name.clone()]))),
            }
        }
    }
    Ok(found)
}

/// The `cargo` commands in a Markdown text: after `$ ` in code blocks, and in inline code
/// (outside code blocks); comments after `#` dropped.
fn extract(markdown: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            if let Some(command) = trimmed
                .strip_prefix("$ ")
                .filter(|c| c.starts_with("cargo "))
            {
                let command = command.split(" #").next().unwrap_or(command);
                commands.push(command.trim().to_owned());
            }
            continue;
        }
        for (index, span) in line.split('`').enumerate() {
            if index % 2 == 1 && span.starts_with("cargo ") {
                commands.push(span.trim().to_owned());
            }
        }
    }
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_come_from_code_blocks_and_inline_code() {
        let text = "Run `cargo test -p attention`.\n```shell\n$ cargo run -p checker -- watch   # on save\n$ ls\n```\n";
        assert_eq!(
            extract(text),
            ["cargo test -p attention", "cargo run -p checker -- watch"]
        );
    }

    #[test]
    fn long_runs_and_instructors_commands_ask_for_help() {
        let plan_of = |c: &str| plan(c).map(|p| (p.line, p.options));
        assert_eq!(
            plan_of(
                "cargo run --release -p transformer --example train_dates -- --steps 300"
            ),
            Some((
                "cargo run --release -p transformer --example train_dates -- --help"
                    .to_owned(),
                vec!["--steps".to_owned()]
            ))
        );
        assert_eq!(
            plan_of("cargo run -p checker -- grade --whole-stack 06"),
            Some((
                "cargo run -p checker -- grade --whole-stack 06".to_owned(),
                vec![]
            ))
        );
        assert_eq!(
            plan_of("cargo run -p checker -- verify").map(|p| p.0),
            Some("cargo run -p checker -- verify --help".to_owned())
        );
        assert_eq!(plan_of("cargo test -p <crate>"), None);
        let measurement =
            plan("cargo run --release -p measurements --example length_sweep")
                .expect("a measurement is run");
        assert!(measurement.full_repository);
        assert_eq!(
            measurement.line,
            "cargo run --release -p measurements --example length_sweep -- --help"
        );
    }
}
