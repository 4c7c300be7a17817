//! The Chinese edition says each of the course's own words one way: no text a Chinese
//! reader sees uses a form `i18n/terms.toml` rejects.
//!
//! Read: the translations of `book/po/zh-CN.po` (its `msgstr`s), every
//! `locales/zh-CN/*.ftl` catalog, the Chinese READMEs and the Chinese figures
//! (`book/src/figures/zh-CN/*.svg`). A rejected form inside one of its term's `allowed`
//! strings (栈 in 栈溢出) is not a finding.

use std::path::{Path, PathBuf};
use walkdir::WalkDir;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
        .to_path_buf()
}

/// One entry of `terms.toml`.
struct Term {
    en: String,
    zh: String,
    rejected: Vec<String>,
    allowed: Vec<String>,
}

fn strings(table: &toml::Table, key: &str, en: &str) -> Vec<String> {
    match table.get(key) {
        None => Vec::new(),
        Some(value) => value
            .as_array()
            .unwrap_or_else(|| panic!("terms.toml, {en}: `{key}` is not a list"))
            .iter()
            .map(|item| {
                item.as_str()
                    .unwrap_or_else(|| {
                        panic!("terms.toml, {en}: `{key}` holds a non-string")
                    })
                    .to_owned()
            })
            .collect(),
    }
}

fn terms() -> Vec<Term> {
    let path = workspace().join("i18n/terms.toml");
    let text = std::fs::read_to_string(&path).expect("i18n/terms.toml is readable");
    let table: toml::Table = text.parse().expect("i18n/terms.toml parses");
    let entries = table
        .get("term")
        .and_then(|value| value.as_array())
        .expect("terms.toml has [[term]] entries");
    entries
        .iter()
        .map(|entry| {
            let entry = entry.as_table().expect("a [[term]] is a table");
            let field = |key: &str| {
                entry
                    .get(key)
                    .and_then(|value| value.as_str())
                    .unwrap_or_else(|| {
                        panic!("terms.toml: a term lacks `{key}`: {entry:?}")
                    })
                    .to_owned()
            };
            let en = field("en");
            let zh = field("zh");
            let rejected = strings(entry, "rejected", &en);
            let allowed = strings(entry, "allowed", &en);
            Term {
                en,
                zh,
                rejected,
                allowed,
            }
        })
        .collect()
}

/// The rejected forms in one line of text, outside the allowed strings: (form, term).
fn rejected_in<'t>(line: &str, terms: &'t [Term]) -> Vec<(&'t str, &'t Term)> {
    let mut found = Vec::new();
    for term in terms {
        for form in &term.rejected {
            for (at, _) in line.match_indices(form.as_str()) {
                let end = at + form.len();
                let excused = term.allowed.iter().any(|allowed| {
                    line.match_indices(allowed.as_str())
                        .any(|(start, text)| start <= at && end <= start + text.len())
                });
                if !excused {
                    found.push((form.as_str(), term));
                }
            }
        }
    }
    found
}

/// The lines a Chinese reader sees, with their line numbers: a PO file's `msgstr`s, or
/// every line of any other file.
fn lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let numbered = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line));
    if path.extension().is_some_and(|extension| extension == "po") {
        // A message's translation is its `msgstr "…"` line and the `"…"` lines after it.
        let mut in_msgstr = false;
        numbered
            .filter(|(_, line)| {
                if line.starts_with("msgstr") {
                    in_msgstr = true;
                } else if !line.starts_with('"') {
                    in_msgstr = false;
                }
                in_msgstr
            })
            .map(|(number, line)| (number, line.to_owned()))
            .collect()
    } else {
        numbered
            .map(|(number, line)| (number, line.to_owned()))
            .collect()
    }
}

/// The files the check reads.
fn chinese_files() -> Vec<PathBuf> {
    let root = workspace();
    let mut files: Vec<PathBuf> = [
        "book/po/zh-CN.po",
        "README.zh-CN.md",
        "checker/src/export/README.zh-CN.md",
    ]
    .iter()
    .map(|path| root.join(path))
    .collect();
    for entry in WalkDir::new(&root)
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            !matches!(name.as_ref(), "target" | "node_modules" | ".git" | "build")
        })
        .filter_map(Result::ok)
    {
        let path = entry.path();
        let parent = path.parent().and_then(Path::file_name);
        let grandparent = path
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name);
        let extension = path.extension().and_then(|extension| extension.to_str());
        let is_catalog = extension == Some("ftl")
            && parent.is_some_and(|name| name == "zh-CN")
            && grandparent.is_some_and(|name| name == "locales");
        let is_figure = extension == Some("svg")
            && path.starts_with(root.join("book/src/figures/zh-CN"));
        if is_catalog || is_figure {
            files.push(path.to_path_buf());
        }
    }
    files.sort();
    files
}

#[test]
fn no_chinese_text_uses_a_rejected_form_of_a_term() {
    let terms = terms();
    let root = workspace();
    let files = chinese_files();
    assert!(
        files.iter().any(|path| path.ends_with("checker.ftl"))
            && files
                .iter()
                .any(|path| path.extension().is_some_and(|e| e == "svg")),
        "the check found no Chinese catalogs or figures to read: {files:?}"
    );
    let mut findings = Vec::new();
    for path in &files {
        for (number, line) in lines(path) {
            for (form, term) in rejected_in(&line, &terms) {
                findings.push(format!(
                    "{}:{number}: “{form}” for {}: write “{}”",
                    path.strip_prefix(&root).unwrap_or(path).display(),
                    term.en,
                    term.zh
                ));
            }
        }
    }
    assert!(
        findings.is_empty(),
        "{} rejected form(s) of a term (see i18n/terms.toml):\n{}",
        findings.len(),
        findings.join("\n")
    );
}

#[test]
fn the_term_list_is_sound() {
    let terms = terms();
    assert!(!terms.is_empty());
    for term in &terms {
        // The accepted form is never reported, and every rejected form is.
        assert!(
            rejected_in(&term.zh, &terms).is_empty(),
            "{}: the accepted form “{}” holds a rejected one",
            term.en,
            term.zh
        );
        for form in &term.rejected {
            let line = format!("甲{form}乙");
            assert!(
                rejected_in(&line, &terms)
                    .iter()
                    .any(|(found, _)| found == form),
                "{}: the rejected form “{form}” would not be reported",
                term.en
            );
        }
        // An allowed string only serves to excuse one of its term's rejected forms.
        for allowed in &term.allowed {
            assert!(
                term.rejected
                    .iter()
                    .any(|form| allowed.contains(form.as_str())),
                "{}: the allowed string “{allowed}” holds none of the rejected forms",
                term.en
            );
            assert!(
                rejected_in(allowed, std::slice::from_ref(term)).is_empty(),
                "{}: the allowed string “{allowed}” is still reported",
                term.en
            );
        }
    }
}
