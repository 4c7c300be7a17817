//! Translation stamps: each Chinese message records which English it translates, so that
//! a changed English makes its Chinese twin stale, as gettext marks a changed `msgid`
//! fuzzy for the book.
//!
//! A Chinese message in a Fluent file carries, on the comment line right above it,
//! `# en: <stamp>`: the [`stamp`] of the English text it translates. Whatever the English
//! is kept in (the catalog's English twin, `course.toml`'s titles and hints, the checker's
//! doc comments for `--help`), a test compares ([`check`]): a message whose English
//! changed since it was stamped, or that has no stamp, fails it, naming the message.
//!
//! After translating the new English, stamp it: `COURSE_RESTAMP=1 cargo test` ([`RESTAMP_ENV`])
//! rewrites the stamps of every file the tests compare to the current English, then fails
//! once, listing what it stamped. Stamp only what has been translated anew.
//!
//! A message's text, for the stamp, is its lines as written (the id's line and the indented
//! lines that continue it), each trimmed at both ends: moving it or re-indenting it changes
//! nothing, rewording it does.

use std::collections::BTreeMap;

/// Set to `1` to rewrite the stamps of the Chinese files to the current English.
pub const RESTAMP_ENV: &str = "COURSE_RESTAMP";

/// The comment that records a stamp, before the stamp itself.
const MARK: &str = "# en: ";

/// The stamp of an English text: 16 hexadecimal digits (64-bit FNV-1a) of its lines,
/// each trimmed, without blank lines at either end. Not a secret, only a fingerprint that
/// is the same on every machine.
pub fn stamp(english: &str) -> String {
    let text = english
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.trim().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// One message of a Fluent file: where its first line is, and its text.
struct Message {
    line: usize,
    text: String,
}

/// The messages of a Fluent file by id (terms, `-id`, and comments are not messages).
fn messages(ftl: &str) -> BTreeMap<String, Message> {
    let lines: Vec<&str> = ftl.lines().collect();
    let mut found = BTreeMap::new();
    let mut at = 0;
    while at < lines.len() {
        let Some(id) = message_id(lines[at]) else {
            at += 1;
            continue;
        };
        let start = at;
        let mut end = at + 1;
        // Continuation lines are indented; a blank line belongs to the message only when
        // an indented line follows it.
        let mut next = end;
        while next < lines.len() {
            if lines[next].starts_with(' ') {
                next += 1;
                end = next;
            } else if lines[next].trim().is_empty() {
                next += 1;
            } else {
                break;
            }
        }
        found.insert(
            id.to_owned(),
            Message {
                line: start,
                text: lines[start..end].join("\n"),
            },
        );
        at = end;
    }
    found
}

/// The id of a message whose first line is `line` (`id =` at the start of the line).
fn message_id(line: &str) -> Option<&str> {
    let (id, _) = line.split_once('=')?;
    let id = id.trim_end();
    let mut chars = id.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(id)
}

/// Each message's text in a Fluent file, by id: the English of a catalog's messages.
pub fn sources(ftl: &str) -> BTreeMap<String, String> {
    messages(ftl)
        .into_iter()
        .map(|(id, message)| (id, message.text))
        .collect()
}

/// The stamp recorded above each message of a Fluent file, by id.
pub fn stamps(ftl: &str) -> BTreeMap<String, String> {
    let lines: Vec<&str> = ftl.lines().collect();
    messages(ftl)
        .into_iter()
        .filter_map(|(id, message)| {
            let recorded = lines[..message.line]
                .iter()
                .rev()
                .take_while(|line| line.starts_with("# ") || *line == &"#")
                .find_map(|line| line.strip_prefix(MARK))?;
            Some((id, recorded.trim().to_owned()))
        })
        .collect()
}

/// `ftl` with the stamp above each message that `wanted` names set to the stamp given
/// there: replaced where the message has one, else written on a line right above it.
pub fn restamp(ftl: &str, wanted: &BTreeMap<String, String>) -> String {
    let mut lines: Vec<String> = ftl.lines().map(str::to_owned).collect();
    // From the last message up, so that inserting a line moves none still to come.
    let mut found: Vec<(String, Message)> = messages(ftl).into_iter().collect();
    found.sort_by_key(|(_, message)| std::cmp::Reverse(message.line));
    for (id, message) in found {
        let Some(stamp) = wanted.get(&id) else {
            continue;
        };
        let line = format!("{MARK}{stamp}");
        let mut above = message.line;
        let mut replaced = false;
        while above > 0 && (lines[above - 1].starts_with("# ") || lines[above - 1] == "#")
        {
            above -= 1;
            if lines[above].starts_with(MARK) {
                lines[above] = line.clone();
                replaced = true;
                break;
            }
        }
        if !replaced {
            lines.insert(message.line, line);
        }
    }
    let mut text = lines.join("\n");
    if ftl.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// What is stale in the Chinese file `name` (its text `zh`) against `english`, the English
/// each of its messages translates by id: one line per message with no stamp or with the
/// stamp of another English. With [`RESTAMP_ENV`] set, the file at `path` is rewritten
/// with the current stamps first, and the problems say what was stamped.
pub fn check(
    path: &std::path::Path,
    zh: &str,
    english: &BTreeMap<String, String>,
) -> Vec<String> {
    let (problems, stale) = stale(path, zh, english);
    if std::env::var_os(RESTAMP_ENV).is_some_and(|v| v == "1") && !stale.is_empty() {
        let written = restamp(zh, &stale);
        if std::fs::write(path, written).is_ok() {
            return vec![format!(
                "{}: stamped {} message(s) as translating the current English; run the \
                 tests again without {RESTAMP_ENV}",
                path.display(),
                stale.len()
            )];
        }
    }
    problems
}

/// [`check`] without writing anything: the problems, and the current stamp of each stale
/// message by id.
fn stale(
    path: &std::path::Path,
    zh: &str,
    english: &BTreeMap<String, String>,
) -> (Vec<String>, BTreeMap<String, String>) {
    let recorded = stamps(zh);
    let translated = messages(zh);
    let mut stale = BTreeMap::new();
    let mut problems = Vec::new();
    for (id, text) in english {
        if !translated.contains_key(id) {
            continue; // A missing translation is the completeness tests' to report.
        }
        let current = stamp(text);
        match recorded.get(id) {
            Some(was) if *was == current => {}
            Some(was) => {
                problems.push(format!(
                    "{}: {id} translates an older English (stamp {was}, now {current}): \
                     translate the English again, then run `{RESTAMP_ENV}=1 cargo test`",
                    path.display()
                ));
                stale.insert(id.clone(), current);
            }
            None => {
                problems.push(format!(
                    "{}: {id} has no `{MARK}<stamp>` line above it: check that it says \
                     what the English says, then run `{RESTAMP_ENV}=1 cargo test`",
                    path.display()
                ));
                stale.insert(id.clone(), current);
            }
        }
    }
    (problems, stale)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENGLISH: &str = "## A group\n\n\
                           one = One { $n }\n\
                           two =\n    First line\n\n    after a blank line\n\
                           three = Three\n    .attribute = kept\n";

    #[test]
    fn a_message_is_its_lines_trimmed_and_a_blank_line_inside_it_counts() {
        let sources = sources(ENGLISH);
        assert_eq!(sources.keys().collect::<Vec<_>>(), ["one", "three", "two"]);
        assert_eq!(
            stamp(&sources["two"]),
            stamp("two =\nFirst line\n\nafter a blank line")
        );
        assert_ne!(stamp(&sources["two"]), stamp("two =\nFirst line"));
        assert_eq!(stamp("  a\n b "), stamp("a\nb"));
        assert_eq!(stamp("a").len(), 16);
    }

    #[test]
    fn stamps_are_read_from_the_comment_right_above_and_written_there() {
        let zh = "# A note on one\none = 一 { $n }\n\ntwo = 二\n";
        let wanted: BTreeMap<String, String> = [
            ("one".to_owned(), "0123456789abcdef".to_owned()),
            ("two".to_owned(), "fedcba9876543210".to_owned()),
        ]
        .into();
        let stamped = restamp(zh, &wanted);
        assert_eq!(
            stamped,
            "# A note on one\n# en: 0123456789abcdef\none = 一 { $n }\n\n\
             # en: fedcba9876543210\ntwo = 二\n"
        );
        assert_eq!(stamps(&stamped), wanted);
        // Stamping again replaces, and adds no line.
        let again: BTreeMap<String, String> =
            [("one".to_owned(), "1111111111111111".to_owned())].into();
        let restamped = restamp(&stamped, &again);
        assert_eq!(restamped.lines().count(), stamped.lines().count());
        assert_eq!(stamps(&restamped)["one"], "1111111111111111");
    }

    #[test]
    fn a_changed_or_unstamped_english_is_reported_and_a_current_one_is_not() {
        let english: BTreeMap<String, String> = sources(ENGLISH);
        let current: BTreeMap<String, String> = english
            .iter()
            .map(|(id, text)| (id.clone(), stamp(text)))
            .collect();
        let zh = restamp("one = 一\ntwo = 二\nthree = 三\n", &current);
        let path = std::path::Path::new("zh.ftl");
        let check =
            |zh: &str, english: &BTreeMap<String, String>| stale(path, zh, english).0;
        assert!(check(&zh, &english).is_empty());
        let mut reworded = english.clone();
        reworded.insert("one".into(), "one = Only one { $n }".into());
        let problems = check(&zh, &reworded);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("one translates an older English"));
        let problems = check("one = 一\n", &english);
        assert!(problems[0].contains("one has no `# en: <stamp>` line"));
    }
}
