//! The Chinese edition is complete: every message of every catalog in the workspace exists
//! in both languages, with the same arguments, and every message the code asks for exists.
//!
//! A catalog is a pair of files `…/locales/en/NAME.ftl` and `…/locales/zh-CN/NAME.ftl`.
//! Messages are asked for in Rust as `tr!(CATALOG, "id", …)` or `.tr("id", …)`. (Chinese
//! files without an English twin translate English kept elsewhere, the lessons' hints or
//! the checker's doc comments, and are tested where that English is read.) Each Chinese
//! message is stamped with the English it translates (`course_i18n::stamp`).

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in the workspace")
        .to_path_buf()
}

fn files(ending: &str) -> Vec<PathBuf> {
    WalkDir::new(workspace())
        .into_iter()
        .filter_entry(|entry| {
            // The scaffold's template (xtask/template) has placeholders for its stamps;
            // `cargo xtask scaffold-check` checks a lesson made from it.
            let name = entry.file_name().to_string_lossy();
            !matches!(
                name.as_ref(),
                "target" | "node_modules" | ".git" | "build" | "template"
            )
        })
        .filter_map(Result::ok)
        .map(|entry| entry.into_path())
        .filter(|path| path.to_string_lossy().ends_with(ending))
        .collect()
}

/// Each message's variables, by id. Panics with the file's name on a syntax error.
fn messages(path: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let resource =
        fluent_syntax::parser::parse(text.as_str()).unwrap_or_else(|(_, errors)| {
            panic!("{} does not parse: {errors:?}", path.display())
        });
    let mut messages = BTreeMap::new();
    for entry in resource.body {
        match entry {
            Entry::Message(message) => {
                let mut variables = BTreeSet::new();
                let value = message.value.unwrap_or_else(|| {
                    panic!("{}: {} has no value", path.display(), message.id.name)
                });
                collect_variables(&value, &mut variables);
                let duplicate = messages.insert(message.id.name.to_owned(), variables);
                assert!(
                    duplicate.is_none(),
                    "{}: {} is defined twice",
                    path.display(),
                    message.id.name
                );
            }
            Entry::Junk { content } => panic!("{}: junk {content:?}", path.display()),
            _ => {}
        }
    }
    messages
}

fn collect_variables(pattern: &Pattern<&str>, variables: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            collect_from_expression(expression, variables);
        }
    }
}

fn collect_from_expression(
    expression: &Expression<&str>,
    variables: &mut BTreeSet<String>,
) {
    match expression {
        Expression::Inline(inline) => collect_from_inline(inline, variables),
        Expression::Select { selector, variants } => {
            collect_from_inline(selector, variables);
            for variant in variants {
                collect_variables(&variant.value, variables);
            }
        }
    }
}

fn collect_from_inline(
    inline: &InlineExpression<&str>,
    variables: &mut BTreeSet<String>,
) {
    match inline {
        InlineExpression::VariableReference { id } => {
            variables.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => {
            collect_from_expression(expression, variables)
        }
        _ => {}
    }
}

/// Every English catalog with its Chinese twin.
fn catalogs() -> Vec<(PathBuf, PathBuf)> {
    let catalogs: Vec<_> = files(".ftl")
        .into_iter()
        .filter(|path| path.parent().is_some_and(|dir| dir.ends_with("locales/en")))
        .map(|en| {
            let zh = en
                .parent()
                .unwrap()
                .with_file_name("zh-CN")
                .join(en.file_name().unwrap());
            (en, zh)
        })
        .collect();
    assert!(
        !catalogs.is_empty(),
        "no catalog found under {}",
        workspace().display()
    );
    catalogs
}

#[test]
fn every_message_has_its_chinese_form_with_the_same_arguments() {
    let mut problems = Vec::new();
    for (en, zh) in catalogs() {
        assert!(
            zh.exists(),
            "{} has no Chinese twin {}",
            en.display(),
            zh.display()
        );
        let (en_messages, zh_messages) = (messages(&en), messages(&zh));
        for (id, variables) in &en_messages {
            match zh_messages.get(id) {
                None => {
                    problems.push(format!("{}: {id} is not translated", zh.display()))
                }
                Some(zh_variables) if zh_variables != variables => {
                    problems.push(format!(
                        "{}: {id} uses {zh_variables:?}, the English {variables:?}",
                        zh.display()
                    ))
                }
                Some(_) => {}
            }
        }
        for id in zh_messages
            .keys()
            .filter(|id| !en_messages.contains_key(*id))
        {
            problems.push(format!(
                "{}: {id} is not in the English catalog",
                zh.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_chinese_message_translates_the_english_as_it_is_now() {
    let mut problems = Vec::new();
    for (en, zh) in catalogs() {
        let english = course_i18n::stamp::sources(&std::fs::read_to_string(&en).unwrap());
        let chinese = std::fs::read_to_string(&zh).unwrap();
        problems.extend(course_i18n::stamp::check(&zh, &chinese, &english));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The string literals that follow `tr!(CATALOG, ` and `.tr(` in the workspace's Rust, and
/// the message ids of causes (`Cause::harness("id")`, `Cause::new(&CATALOG, "id")`,
/// `CauseArg::Message("id")`).
fn ids_asked_for() -> BTreeMap<String, PathBuf> {
    let mut asked = BTreeMap::new();
    // This crate's own examples and tests use catalogs of their own.
    let own = workspace().join("i18n");
    for path in files(".rs")
        .into_iter()
        .filter(|path| !path.starts_with(&own))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        for marker in [
            "tr!(",
            ".tr(",
            "Cause::harness(",
            "Cause::new(",
            "CauseArg::Message(",
        ] {
            for (start, _) in text.match_indices(marker) {
                // `include_str!(` is not `tr!(`.
                let before = text[..start].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = &text[start + marker.len()..];
                // The id is the first string literal of the call, before any `)`.
                let Some(quote) = rest.find('"') else {
                    continue;
                };
                if rest[..quote].contains(')') || rest[..quote].contains(';') {
                    continue;
                }
                let id: String = rest[quote + 1..]
                    .chars()
                    .take_while(|&c| c != '"')
                    .collect();
                if !id.is_empty()
                    && id
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    asked.insert(id, path.clone());
                }
            }
        }
    }
    asked
}

#[test]
fn every_message_asked_for_exists_and_every_message_is_asked_for() {
    let mut defined = BTreeSet::new();
    for (en, _) in catalogs() {
        defined.extend(messages(&en).into_keys());
    }
    let asked = ids_asked_for();
    let mut problems: Vec<String> = asked
        .iter()
        .filter(|(id, _)| !defined.contains(*id))
        .map(|(id, path)| {
            format!("{} asks for {id}, which no catalog defines", path.display())
        })
        .collect();
    problems.extend(
        defined
            .iter()
            .filter(|id| !asked.contains_key(*id))
            .map(|id| format!("{id} is defined but never asked for")),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
