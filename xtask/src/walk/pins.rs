//! The book's tools are installed at the versions CI pins, wherever the text says how.
//!
//! `.ci/run` pins mdBook and its plugins (`MDBOOK_VERSION=…`). Every `cargo install` of one
//! of them that a README, the book or its translation shows (in inline code or in a code
//! block) must install that one crate, with `--version` equal to the pin and `--locked`.

use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::Path;

/// The book's tools: each crate, with the variable of `.ci/run` that pins its version.
const TOOLS: &[(&str, &str)] = &[
    ("mdbook", "MDBOOK_VERSION"),
    ("mdbook-katex", "MDBOOK_KATEX_VERSION"),
    ("mdbook-i18n-helpers", "MDBOOK_I18N_VERSION"),
];

/// Each tool's version as `.ci/run` (its text, `ci`) pins it.
pub fn pinned(ci: &str) -> Result<BTreeMap<String, String>> {
    let mut pins = BTreeMap::new();
    for (krate, variable) in TOOLS {
        let version = ci
            .lines()
            .find_map(|line| line.trim().strip_prefix(&format!("{variable}=")))
            .with_context(|| format!(".ci/run does not set {variable}"))?;
        pins.insert((*krate).to_owned(), version.trim_matches('"').to_owned());
    }
    Ok(pins)
}

/// The `cargo install` commands of a Markdown (or PO) text: in inline code, and on the
/// lines of code blocks (after `$ ` or not).
pub fn install_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            let command = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
            if command.starts_with("cargo install ") {
                commands.push(command.split(" #").next().unwrap_or("").trim().to_owned());
            }
            continue;
        }
        for (index, span) in line.split('`').enumerate() {
            if index % 2 == 1 && span.trim().starts_with("cargo install ") {
                commands.push(span.trim().to_owned());
            }
        }
    }
    commands
}

/// What is wrong with an install `command` given the `pins`, if it installs a pinned tool.
pub fn problem(command: &str, pins: &BTreeMap<String, String>) -> Option<String> {
    let words: Vec<&str> = command.split_whitespace().skip(2).collect();
    let mut crates = Vec::new();
    let mut version = None;
    let mut locked = false;
    let mut index = 0;
    while index < words.len() {
        match words[index] {
            "--version" => {
                version = words.get(index + 1).copied();
                index += 1;
            }
            "--locked" => locked = true,
            word if word.starts_with('-') => {}
            word => crates.push(word),
        }
        index += 1;
    }
    let pinned: Vec<&str> = crates
        .iter()
        .copied()
        .filter(|c| pins.contains_key(c.split('@').next().unwrap_or(c)))
        .collect();
    let first = pinned.first()?;
    let (krate, at) = match first.split_once('@') {
        Some((krate, at)) => (krate, Some(at)),
        None => (*first, None),
    };
    let want = &pins[krate];
    if crates.len() > 1 {
        Some(format!(
            "installs {} crates in one command, so `--version` cannot pin each: one `cargo install {krate} --version {want} --locked` per tool",
            crates.len()
        ))
    } else if version.or(at) != Some(want.as_str()) {
        Some(format!(
            "{krate} must be installed at CI's version, `--version {want}`"
        ))
    } else if !locked {
        Some(format!("{krate} must be installed with `--locked`"))
    } else {
        None
    }
}

/// Every install command of `pages` (paths under `base`) that does not install a pinned
/// tool at CI's version, with its page; an error when no page shows any.
pub fn check(ci: &str, base: &Path, pages: &[&str]) -> Result<Vec<String>> {
    let pins = pinned(ci)?;
    let mut problems = Vec::new();
    let mut seen = 0;
    for page in pages {
        let text = std::fs::read_to_string(base.join(page))
            .with_context(|| format!("cannot read {page}"))?;
        for command in install_commands(&text) {
            seen += 1;
            if let Some(problem) = problem(&command, &pins) {
                problems.push(format!("{page}: `{command}`: {problem}"));
            }
        }
    }
    if seen == 0 {
        bail!("no page shows how to install the book's tools: {pages:?}");
    }
    Ok(problems)
}

/// The pages of the course at `base` that tell a reader how to install something: the
/// READMEs, the book and its translations. (`student` leaves out what only the full
/// repository has.)
pub fn pages(base: &Path, student: bool) -> Result<Vec<String>> {
    let mut pages: Vec<String> =
        ["README.md", "README.zh-CN.md"].map(str::to_owned).into();
    if !student {
        pages.extend(
            [
                "CONTRIBUTING.md",
                "checker/src/export/README.md",
                "checker/src/export/README.zh-CN.md",
            ]
            .map(str::to_owned),
        );
    }
    for folder in ["book/src", "book/po"] {
        for entry in walkdir::WalkDir::new(base.join(folder)).sort_by_file_name() {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".md") || name.ends_with(".po") {
                let path = entry.path().strip_prefix(base)?;
                pages.push(path.to_string_lossy().into_owned());
            }
        }
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CI: &str =
        "MDBOOK_VERSION=0.5.4\nMDBOOK_KATEX_VERSION=0.10.0\nMDBOOK_I18N_VERSION=0.4.0\n";

    #[test]
    fn pins_come_from_the_ci_script() {
        let pins = pinned(CI).unwrap();
        assert_eq!(pins["mdbook"], "0.5.4");
        assert_eq!(pins["mdbook-katex"], "0.10.0");
        assert_eq!(pins["mdbook-i18n-helpers"], "0.4.0");
        assert!(pinned("MDBOOK_VERSION=0.5.4\n").is_err());
    }

    #[test]
    fn install_commands_come_from_inline_code_and_code_blocks() {
        let text = "Install (`cargo install mdbook --version 0.5.4 --locked`) and run `mdbook serve`.\n\
                    ```sh\n$ cargo install mdbook-katex --version 0.10.0 --locked  # math\ncargo install cargo-mutants\n```\n\
                    msgstr \"（`cargo install mdbook --version 0.5.3 --locked`）\"\n";
        assert_eq!(
            install_commands(text),
            [
                "cargo install mdbook --version 0.5.4 --locked",
                "cargo install mdbook-katex --version 0.10.0 --locked",
                "cargo install cargo-mutants",
                "cargo install mdbook --version 0.5.3 --locked",
            ]
        );
    }

    #[test]
    fn an_install_must_pin_ci_s_version() {
        let pins = pinned(CI).unwrap();
        let ok = |c: &str| problem(c, &pins).is_none();
        assert!(ok("cargo install mdbook --version 0.5.4 --locked"));
        assert!(ok("cargo install mdbook-katex@0.10.0 --locked"));
        assert!(ok("cargo install cargo-mutants --locked"));
        assert!(!ok("cargo install mdbook mdbook-katex --locked"));
        assert!(!ok("cargo install mdbook --locked"));
        assert!(!ok("cargo install mdbook --version 0.5.3 --locked"));
        assert!(!ok("cargo install mdbook-i18n-helpers --version 0.4.0"));
    }

    /// The course's own READMEs, book and translation install what CI pins.
    #[test]
    fn the_course_s_install_lines_match_ci() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
        let pages = pages(root, false).unwrap();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        let problems = check(&ci, root, &pages).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
