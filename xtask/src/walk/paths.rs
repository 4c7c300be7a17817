//! Every path of the repository the student edition's README and book name must be there.
//!
//! The rule, applied to the student edition's `README.md`, `README.zh-CN.md`, every page
//! of `book/src/` (the instructors' pages included: the student edition ships them) and
//! every translated message of `book/po/*.po` (a message's links are relative to the first
//! page its `#:` line names):
//!
//! - A **named path** is the text of an inline code span (outside code blocks) that has no
//!   space, and whose first component, before a `/`, is a top-level entry of the course (of
//!   the full repository or of the student edition): `lessons/01-rnn-bottleneck/src/lib.rs`,
//!   `book/src/`, `tools/reference/fixture.py`. A span without `/` is a path only when it
//!   is a top-level file (`course.toml`). A relative span (`src/lib.rs`, `tests/visible.rs`)
//!   names a file of whatever the sentence is about, and is not checked.
//! - The target of a Markdown link or image, `[text](target)`, outside code, is a named
//!   path too, relative to its page; web addresses and anchors within the page are not.
//! - Placeholders are not paths: a span or target with `<`, `>`, `*`, `?`, `{`, `[`, `$`,
//!   `…`, `...` or `NN` (`lessons/NN-name/src/lib.rs`, `solutions/<lesson>/suite/`,
//!   `lessons/06-full-model/src/*.rs`), or with `:` (a line, an anchor). Nor are what
//!   commands create: paths under `target/` and `book/build/`. Nor are the few spans that
//!   name a kind of file anyone's project may have (`.cargo/config.toml`: "not a
//!   `.cargo/config.toml`"), listed in `KINDS`, nor `.git`.
//! - A named path must exist in the student edition, unless its **sentence** says it is in
//!   the full repository: it contains "full repository" (in Chinese, 完整仓库). Then it must
//!   exist in the full repository. A sentence ends at `.`, `?` or `!` followed by a space
//!   (outside code), at `。`, `？` or `！`, at a blank line, at a list item or heading, and
//!   at each cell of a table.
//!
//! Code blocks are left out: what they show is commands, output and code, and the command
//! walk runs the commands.

use anyhow::Result;
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// Words that mark a sentence's paths as the full repository's, not the student edition's.
const FULL_REPOSITORY: &[&str] = &["full repository", "完整仓库"];

/// Marks of a placeholder or a pattern: such a span names no one path.
const PLACEHOLDERS: &[&str] = &["<", ">", "*", "?", "{", "[", "$", "…", "...", "NN", ":"];

/// Folders whose content commands create (build output): named, they need not exist.
const OUTPUTS: &[&str] = &["target/", "book/build/"];

/// Spans that name a kind of file (Cargo's configuration, anyone's), not the course's own.
const KINDS: &[&str] = &[".cargo/config.toml"];

/// Top-level entries that are no part of the course's text: the build folder, git's.
const NOT_COURSE: &[&str] = &["target", ".git"];

/// A path named by a page.
#[derive(Debug, PartialEq)]
pub struct Named {
    /// The path: from the course's root (a code span), or from the page's folder (a link).
    pub path: String,
    /// Whether it is a link's target, relative to its page.
    pub link: bool,
    /// Whether its sentence says it is in the full repository.
    pub full_repository: bool,
}

/// Every named path of the student edition at `student` that is not where its text says:
/// absent from the student edition without "full repository" in its sentence, or absent
/// from the full repository at `root` with it. Each problem names the page.
pub fn missing(root: &Path, student: &Path) -> Result<Vec<String>> {
    let mut top = BTreeSet::new();
    for folder in [root, student] {
        for entry in std::fs::read_dir(folder)? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if !NOT_COURSE.contains(&name.as_str()) {
                top.insert(name);
            }
        }
    }
    let mut pages = vec![student.join("README.md"), student.join("README.zh-CN.md")];
    for entry in walkdir::WalkDir::new(student.join("book/src")).sort_by_file_name() {
        let entry = entry?;
        if entry.file_name().to_string_lossy().ends_with(".md") {
            pages.push(entry.into_path());
        }
    }
    // Each text with the page it is shown as, and the folder its links start from.
    let mut texts: Vec<(String, PathBuf, String)> = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page)?;
        let relative = page.strip_prefix(student)?;
        let folder = relative.parent().unwrap_or(Path::new("")).to_path_buf();
        texts.push((relative.display().to_string(), folder, text));
    }
    for entry in std::fs::read_dir(student.join("book/po"))? {
        let po = entry?.path();
        if po.extension().is_some_and(|e| e == "po") {
            let name = po.strip_prefix(student)?.display().to_string();
            for (source, message) in translations(&std::fs::read_to_string(&po)?) {
                let folder = Path::new("book").join(&source);
                let folder = folder.parent().unwrap_or(Path::new("book")).to_path_buf();
                texts.push((format!("{name} ({source})"), folder, message));
            }
        }
    }
    let mut problems = Vec::new();
    for (page, folder, text) in &texts {
        for named in named_paths(text, &top) {
            let path = if named.link {
                match normalize(&folder.join(&named.path)) {
                    Some(path) => path,
                    None => {
                        problems.push(format!(
                            "{page}: `{}` leads out of the course",
                            named.path
                        ));
                        continue;
                    }
                }
            } else {
                PathBuf::from(&named.path)
            };
            let (base, edition) = if named.full_repository {
                (root, "the full repository")
            } else {
                (student, "the student edition")
            };
            if !base.join(&path).exists() {
                let advice = if named.full_repository {
                    ""
                } else {
                    " (ship it, or say in its sentence that it is in the full repository)"
                };
                problems.push(format!(
                    "{page}: `{}` is not in {edition}{advice}",
                    named.path
                ));
            }
        }
    }
    Ok(problems)
}

/// The translated messages of a PO file, each with the first page (`src/…`) its `#:` line
/// names; the header and untranslated messages left out.
fn translations(po: &str) -> Vec<(String, String)> {
    let mut messages = Vec::new();
    let mut source = String::new();
    let mut message: Option<String> = None;
    let mut finish = |source: &str, message: &mut Option<String>| {
        if let Some(text) = message
            .take()
            .filter(|t| !t.is_empty() && !source.is_empty())
        {
            messages.push((source.to_owned(), text));
        }
    };
    for line in po.lines() {
        if let Some(refs) = line.strip_prefix("#: ") {
            finish(&source, &mut message);
            source = refs.split_whitespace().next().unwrap_or("").to_owned();
        } else if let Some(string) = line.strip_prefix("msgstr ") {
            message = Some(unquote(string));
        } else if line.starts_with('"') {
            if let Some(text) = message.as_mut() {
                text.push_str(&unquote(line));
            }
        } else {
            finish(&source, &mut message);
        }
    }
    finish(&source, &mut message);
    messages
}

/// A PO string's text: without its quotes, its escapes resolved.
fn unquote(string: &str) -> String {
    let inner = string.trim();
    let inner = inner.strip_prefix('"').unwrap_or(inner);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => text.push('\n'),
            Some('t') => text.push('\t'),
            Some(other) => text.push(other),
            None => {}
        }
    }
    text
}

/// `path` without `.` and `..` components, or `None` if it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The paths a Markdown text names (see the module's rule), `top` being the names of the
/// course's top-level entries.
pub fn named_paths(markdown: &str, top: &BTreeSet<String>) -> Vec<Named> {
    let mut named = Vec::new();
    for sentence in sentences(markdown) {
        let full_repository = FULL_REPOSITORY.iter().any(|w| sentence.contains(w));
        for (index, part) in sentence.split('`').enumerate() {
            if index % 2 == 1 {
                let span = part.trim();
                if is_repository_path(span, top) {
                    named.push(Named {
                        path: span.trim_end_matches('/').to_owned(),
                        link: false,
                        full_repository,
                    });
                }
                continue;
            }
            for target in link_targets(part) {
                named.push(Named {
                    path: target,
                    link: true,
                    full_repository,
                });
            }
        }
    }
    named
}

/// Whether a code span's text names a path of the course.
fn is_repository_path(span: &str, top: &BTreeSet<String>) -> bool {
    if span.is_empty()
        || span.contains(char::is_whitespace)
        || PLACEHOLDERS.iter().any(|p| span.contains(p))
        || OUTPUTS.iter().any(|o| span.starts_with(o))
        || KINDS.contains(&span)
    {
        return false;
    }
    match span.split_once('/') {
        Some((first, _)) => top.contains(first),
        None => span.contains('.') && top.contains(span),
    }
}

/// The local targets of the links and images in `text` (outside code): without their
/// anchor or title; web addresses, `mailto:` and anchors within the page left out.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        rest = &rest[start + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        rest = &rest[end..];
        if target.is_empty()
            || target.contains("://")
            || target.starts_with("mailto:")
            || PLACEHOLDERS.iter().any(|p| target.contains(p))
        {
            continue;
        }
        targets.push(target.to_owned());
    }
    targets
}

/// The sentences of a Markdown text outside its code blocks (see the module's rule).
fn sentences(markdown: &str) -> Vec<String> {
    // First the blocks: paragraphs, list items, headings, table cells.
    let mut blocks: Vec<String> = Vec::new();
    let mut paragraph = String::new();
    let mut in_code = false;
    let flush = |paragraph: &mut String, blocks: &mut Vec<String>| {
        if !paragraph.trim().is_empty() {
            blocks.push(std::mem::take(paragraph));
        }
        paragraph.clear();
    };
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            flush(&mut paragraph, &mut blocks);
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if trimmed.starts_with('|') {
            flush(&mut paragraph, &mut blocks);
            blocks.extend(trimmed.split('|').map(str::to_owned));
            continue;
        }
        let item = trimmed.starts_with("- ")
            || trimmed.starts_with("* ")
            || trimmed.starts_with('#')
            || trimmed.split_once(". ").is_some_and(|(n, _)| {
                !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
            });
        if trimmed.is_empty() || item {
            flush(&mut paragraph, &mut blocks);
        }
        paragraph.push_str(trimmed);
        paragraph.push(' ');
        if trimmed.starts_with('#') {
            flush(&mut paragraph, &mut blocks);
        }
    }
    flush(&mut paragraph, &mut blocks);
    // Then each block's sentences, cut outside code spans.
    let mut sentences = Vec::new();
    for block in blocks {
        let mut sentence = String::new();
        let mut in_span = false;
        let mut chars = block.chars().peekable();
        while let Some(c) = chars.next() {
            sentence.push(c);
            if c == '`' {
                in_span = !in_span;
            }
            let end = matches!(c, '。' | '？' | '！')
                || (!in_span
                    && matches!(c, '.' | '?' | '!')
                    && chars.peek().is_some_and(|next| next.is_whitespace()));
            if end {
                sentences.push(std::mem::take(&mut sentence));
            }
        }
        if !sentence.trim().is_empty() {
            sentences.push(sentence);
        }
    }
    sentences
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top() -> BTreeSet<String> {
        [
            "book",
            "lessons",
            "solutions",
            "tools",
            "course.toml",
            "target",
        ]
        .map(str::to_owned)
        .into()
    }

    fn paths(markdown: &str) -> Vec<(String, bool, bool)> {
        named_paths(markdown, &top())
            .into_iter()
            .map(|n| (n.path, n.link, n.full_repository))
            .collect()
    }

    #[test]
    fn code_spans_that_start_at_a_top_level_entry_are_paths() {
        assert_eq!(
            paths(
                "Open `lessons/01-rnn-bottleneck/src/lib.rs`, then `src/lib.rs`; read `book/src/` and `course.toml`, not `lessons` or `cargo test -p rnn`.\n"
            ),
            [
                (
                    "lessons/01-rnn-bottleneck/src/lib.rs".to_owned(),
                    false,
                    false
                ),
                ("book/src".to_owned(), false, false),
                ("course.toml".to_owned(), false, false),
            ]
        );
    }

    #[test]
    fn placeholders_patterns_and_outputs_are_not_paths() {
        let text = "Edit `lessons/NN-name/src/lib.rs`, `lessons/NN-*/src/lib.rs`, \
                    `lessons/06-full-model/src/*.rs` or `solutions/<lesson>/suite/graded.json` \
                    (`lessons/…`); figures go to `target/figures/` and `book/build/`; \
                    not a `.cargo/config.toml`.\n";
        let top: BTreeSet<String> = ["lessons", "checker", "target", "book", ".cargo"]
            .map(str::to_owned)
            .into();
        assert_eq!(named_paths(text, &top), []);
    }

    #[test]
    fn the_full_repository_mark_holds_for_its_own_sentence_only() {
        let text = "The script `solutions/03-multi-head-attention/reference.py` (in the full repository) made them. \
                    Run `solutions/05-encoder-layer/reference.py`.\n\
                    | `tools/reference/a.py` | `tools/reference/b.py`, full repository only |\n\
                    1. 脚本 `tools/reference/c.py` 在完整仓库中。然后 `tools/reference/d.py`。\n";
        assert_eq!(
            paths(text),
            [
                (
                    "solutions/03-multi-head-attention/reference.py".to_owned(),
                    false,
                    true
                ),
                (
                    "solutions/05-encoder-layer/reference.py".to_owned(),
                    false,
                    false
                ),
                ("tools/reference/a.py".to_owned(), false, false),
                ("tools/reference/b.py".to_owned(), false, true),
                ("tools/reference/c.py".to_owned(), false, true),
                ("tools/reference/d.py".to_owned(), false, false),
            ]
        );
    }

    #[test]
    fn a_sentence_runs_over_wrapped_lines_and_ends_at_a_list_item() {
        let text = "The scripts of\n`tools/reference/` are in the full\nrepository.\n- `solutions/` full repository\n- `solutions/01-rnn-bottleneck/`\n";
        // A line break inside the words still counts: lines are joined with a space.
        assert_eq!(
            paths(text),
            [
                ("tools/reference".to_owned(), false, true),
                ("solutions".to_owned(), false, true),
                ("solutions/01-rnn-bottleneck".to_owned(), false, false),
            ]
        );
    }

    #[test]
    fn links_are_paths_from_their_page_and_code_blocks_are_skipped() {
        let text = "See [the lesson](../lessons/01-rnn-bottleneck/src/lib.rs#L3), \
                    [grading](grading.md#how), [below](#below), [paper](https://arxiv.org/abs/1706.03762) \
                    and ![a figure](figures/x.svg \"title\").\n\
                    ```text\nsolutions/      the same crates, solved\n`solutions/x`\n```\n";
        assert_eq!(
            paths(text),
            [
                (
                    "../lessons/01-rnn-bottleneck/src/lib.rs".to_owned(),
                    true,
                    false
                ),
                ("grading.md".to_owned(), true, false),
                ("figures/x.svg".to_owned(), true, false),
            ]
        );
    }

    #[test]
    fn translated_messages_come_with_their_first_page() {
        let po = "msgid \"\"\nmsgstr \"\"\n\"Language: zh-CN\\n\"\n\n\
                  #: src/appendix/syllabus.md src/x.md\nmsgid \"a\"\nmsgstr \"见 `tools/a.py`（完整仓库）\"\n\n\
                  #: src/b.md\nmsgid \"b\"\nmsgstr \"\"\n\"```text\\n\"\n\"x \\\"y\\\"\\n\"\n\n\
                  #: src/c.md\nmsgid \"c\"\nmsgstr \"\"\n";
        assert_eq!(
            translations(po),
            [
                (
                    "src/appendix/syllabus.md".to_owned(),
                    "见 `tools/a.py`（完整仓库）".to_owned()
                ),
                ("src/b.md".to_owned(), "```text\nx \"y\"\n".to_owned()),
            ]
        );
    }

    #[test]
    fn normalize_resolves_parents_and_refuses_to_leave() {
        assert_eq!(
            normalize(Path::new("book/src/appendix/../../../lessons/x")),
            Some(PathBuf::from("lessons/x"))
        );
        assert_eq!(normalize(Path::new("book/../../x")), None);
    }
}
