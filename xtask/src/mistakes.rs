//! `cargo xtask mistakes`: does a plausible mistake get named?
//!
//! `solutions/<lesson>/mistakes.toml` lists plausible mistakes for a lesson, each as an edit of its
//! reference solution (`find` replaced by `replace`, once) and the phrases (`named`) a
//! message that names the mistake contains. For every mistake, in a copy of the course
//! (`target/xtask/mistakes/`), the task applies the edit and runs what a learner runs:
//!
//! - `cargo test -p <crate>`, the visible tests, whose output must name the mistake;
//! - `checker grade <lesson>`, whose first failing test must name it.
//!
//! Every other lesson of the copy holds its solution, so the visible tests of a lesson
//! that builds on earlier ones see the mistake alone, as a learner who has done those
//! lessons does. A lesson's `src/` may be several files: `find` must occur once in all of
//! them together. It prints a table per lesson and the share of mistakes named, and writes
//! every message to `target/xtask/mistakes/<selection>/summary.json` to read why one was
//! not.

use crate::course_copy::{CourseCopy, solve_lessons};
use crate::run_command;
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One mistake, as its list gives it.
pub(crate) struct Mistake {
    pub(crate) name: String,
    pub(crate) function: String,
    pub(crate) find: String,
    pub(crate) replace: String,
    /// The causes that name it, by key (`harness:mask-after-softmax`): the checker names
    /// it when its report lists one of them for the first failing test, the visible tests
    /// when their output holds one's English text.
    pub(crate) causes: Vec<String>,
    /// Phrases that name it, for a mistake no cause of a check names (a hint of a
    /// property check, a suite's own message): found in the flattened output.
    pub(crate) named: Vec<String>,
}

/// What a learner would see for one mistake.
struct Outcome {
    /// Whether the visible tests failed, and whether their output names the mistake.
    visible_failed: bool,
    visible_named: bool,
    /// The checker's first failing message, if any test failed; whether it names it.
    graded_message: Option<String>,
    graded_named: bool,
    /// Whether the checker's report listed one of the mistake's causes by key.
    graded_by_key: bool,
    visible_output: String,
}

/// Which mistakes to try, and what counts as failure.
pub struct Selection {
    /// Only this many of each lesson's, chosen from the commit's id.
    pub sample: Option<usize>,
    /// Fail unless the checker names every one tried.
    pub check: bool,
}

pub fn run(root: &Path, only: Option<&str>, selection: Selection) -> Result<()> {
    let mut lists = lists(root, only)?;
    if let Some(k) = selection.sample {
        let seed = commit_seed(root)?;
        println!(
            "Trying {k} mistakes of each lesson, chosen from the commit ({seed:016x})."
        );
        for (_, mistakes) in &mut lists {
            *mistakes = sample(std::mem::take(mistakes), k, seed);
        }
    }
    let mut not_named: Vec<String> = Vec::new();
    // One copy per selection, so that lists of different lessons can be tried at once.
    let base = root
        .join("target")
        .join("xtask")
        .join("mistakes")
        .join(only.unwrap_or("all"));
    let copy = CourseCopy::create(root, &base)?;
    solve_lessons(root, &copy.course)?;
    let submission = base.join("submission");
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;

    eprintln!("Building the checker in the copy...");
    run_command(
        copy.cargo(&["build", "-q", "-p", "checker"])
            .stdout(Stdio::null()),
    )?;

    let cause_texts = cause_texts(root)?;
    let bench = Bench {
        copy: &copy,
        submission: &submission,
        cause_texts: &cause_texts,
    };
    let mut summary = Vec::new();
    let mut shares = Vec::new();
    for (lesson, mistakes) in &lists {
        let crate_name = manifest.lesson(lesson)?.crate_name.clone();
        let solution = read_sources(&root.join("solutions").join(lesson).join("src"))?;
        let lesson_src = copy.course.join("lessons").join(lesson).join("src");
        println!("\n{lesson} ({} mistakes)\n", mistakes.len());
        println!("  {:<72} {:<9} {:<9}", "mistake", "visible", "checker");
        let mut named = 0;
        let mut by_key = 0;
        for mistake in mistakes {
            let patched = apply(&solution, mistake)
                .with_context(|| format!("{lesson}: mistake `{}`", mistake.name))?;
            let outcome =
                try_mistake(&bench, lesson, &crate_name, &lesson_src, &patched, mistake)?;
            if outcome.graded_named {
                named += 1;
            } else {
                not_named.push(format!("{lesson}: {}", mistake.name));
            }
            if outcome.graded_by_key {
                by_key += 1;
            }
            let mark = |failed: bool, named: bool| match (failed, named) {
                (false, _) => "missed",
                (true, false) => "unnamed",
                (true, true) => "named",
            };
            println!(
                "  {:<72} {:<9} {:<9}",
                format!("{} ({})", mistake.name, mistake.function),
                mark(outcome.visible_failed, outcome.visible_named),
                mark(outcome.graded_message.is_some(), outcome.graded_named),
            );
            summary.push(serde_json::json!({
                "lesson": lesson,
                "mistake": mistake.name,
                "function": mistake.function,
                "visible": mark(outcome.visible_failed, outcome.visible_named),
                "checker": mark(outcome.graded_message.is_some(), outcome.graded_named),
                "checker_message": outcome.graded_message,
                "checker_named_by_key": outcome.graded_by_key,
                "visible_output": outcome.visible_output,
            }));
        }
        write_sources(&lesson_src, &solution)?;
        let share = named as f64 / mistakes.len().max(1) as f64;
        println!(
            "\n  named by the checker: {named} of {} ({:.0} %); by cause key: {by_key}",
            mistakes.len(),
            100.0 * share
        );
        shares.push((lesson.clone(), share));
    }
    std::fs::write(
        base.join("summary.json"),
        serde_json::to_string_pretty(&summary)?,
    )?;
    println!("\nNamed by the checker, per lesson:");
    for (lesson, share) in &shares {
        println!("  {lesson:<26} {:>4.0} %", 100.0 * share);
    }
    println!("\nEvery message: {}", base.join("summary.json").display());
    if selection.check && !not_named.is_empty() {
        bail!(
            "the checker no longer names {} listed mistake(s):\n  {}\nRead why in {}; a \
             check that used to name it may have moved, or a fixture may have stopped \
             telling it apart",
            not_named.len(),
            not_named.join("\n  "),
            base.join("summary.json").display()
        );
    }
    Ok(())
}

/// A number from the checked-out commit's id (0 outside a git checkout): what chooses a
/// sample, so that a failing sample is tried again by running the task on that commit.
fn commit_seed(root: &Path) -> Result<u64> {
    let output = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output();
    let id = match output {
        Ok(output) if output.status.success() => String::from_utf8(output.stdout)?,
        _ => return Ok(0),
    };
    Ok(u64::from_str_radix(id.trim().get(..16).unwrap_or("0"), 16).unwrap_or(0))
}

/// `k` of `mistakes`, in their order, chosen by `seed`: a rotation of the list, so that
/// successive seeds cover it all.
fn sample(mistakes: Vec<Mistake>, k: usize, seed: u64) -> Vec<Mistake> {
    let n = mistakes.len();
    if k >= n {
        return mistakes;
    }
    let stride = n.div_ceil(k.max(1));
    let offset = (seed % n as u64) as usize;
    let mut chosen: Vec<usize> = (0..k).map(|i| (offset + i * stride) % n).collect();
    chosen.sort_unstable();
    chosen.dedup();
    mistakes
        .into_iter()
        .enumerate()
        .filter(|(i, _)| chosen.contains(i))
        .map(|(_, m)| m)
        .collect()
}

/// What every mistake of a run is tried in: the course copy, the submission folder the
/// checker grades, and the English text of every cause.
struct Bench<'a> {
    copy: &'a CourseCopy,
    submission: &'a Path,
    cause_texts: &'a BTreeMap<String, String>,
}

/// Grades one mistake both ways.
fn try_mistake(
    bench: &Bench<'_>,
    lesson: &str,
    crate_name: &str,
    lesson_src: &Path,
    patched: &Sources,
    mistake: &Mistake,
) -> Result<Outcome> {
    let Bench {
        copy,
        submission,
        cause_texts,
    } = *bench;
    // The visible tests, on the lesson as a learner's copy holds it.
    write_sources(lesson_src, patched)?;
    let visible = copy
        .cargo(&["test", "-q", "-p", crate_name, "--test", "visible"])
        .stdin(Stdio::null())
        .output()?;
    let visible_output = format!(
        "{}{}",
        String::from_utf8_lossy(&visible.stdout),
        String::from_utf8_lossy(&visible.stderr)
    );

    // The checker, on a submission of that lesson alone.
    write_sources(&submission.join(lesson).join("src"), patched)?;
    let graded = Command::new(copy.checker())
        .current_dir(&copy.course)
        .args(["grade", lesson, "--format", "json", "--lessons-dir"])
        .arg(submission)
        .stdin(Stdio::null())
        .output()?;
    if !graded.status.success() {
        bail!(
            "the checker failed on `{}`: {}",
            mistake.name,
            String::from_utf8_lossy(&graded.stderr)
        );
    }
    let report: serde_json::Value = serde_json::from_slice(&graded.stdout)?;
    let lesson_report = &report["lessons"][0];
    // The failure the checker shows first: a failed check before a test that failed only
    // against the reference solution's values (its `first_failure`).
    let tests: Vec<&serde_json::Value> = lesson_report["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let first_failure = tests
        .iter()
        .find(|t| t["passed"] == false && t["by_reference"] != true)
        .or_else(|| tests.iter().find(|t| t["passed"] == false))
        .copied();
    let graded_message = first_failure
        .map(|t| t["message"].as_str().unwrap_or_default().to_owned())
        .or_else(|| lesson_report["message"].as_str().map(str::to_owned));
    // The checker names a cause by key; the visible tests' output is text, in which a
    // cause shows as its English message.
    let graded_causes: Vec<&str> = first_failure
        .and_then(|t| t["named"].as_array())
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .collect();
    let phrases: Vec<String> = mistake
        .named
        .iter()
        .map(|phrase| flat(phrase))
        .chain(
            mistake
                .causes
                .iter()
                .filter_map(|key| cause_texts.get(key).cloned()),
        )
        .collect();
    let names = |text: &str| {
        let text = flat(text);
        phrases.iter().any(|phrase| text.contains(phrase.as_str()))
    };
    // By key where the verdict lists the cause (a check recognised the wrong answer); by
    // its English text where a check only shows it (a property check's hint).
    let graded_by_key = mistake
        .causes
        .iter()
        .any(|key| graded_causes.contains(&key.as_str()));
    let graded_named = graded_by_key || graded_message.as_deref().is_some_and(names);
    Ok(Outcome {
        visible_failed: !visible.status.success(),
        visible_named: !visible.status.success() && names(&visible_output),
        graded_named,
        graded_by_key,
        graded_message,
        visible_output,
    })
}

/// The strings of the array `key` of a mistake's entry (none if it has no such key).
fn strings(entry: &toml::Value, key: &str) -> Vec<String> {
    entry
        .get(key)
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// The English text of every cause of the course, by key (`harness:wrong-axis`,
/// `02-attention:eps-fixed`): the messages of the harness's catalog and of each suite's,
/// each flattened to one line (a cause with arguments keeps its placeables, and matches
/// nothing: list phrases for it).
fn cause_texts(root: &Path) -> Result<BTreeMap<String, String>> {
    let mut catalogs = vec![(
        "harness".to_owned(),
        root.join("harness/locales/en/harness.ftl"),
    )];
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    for lesson in &manifest.lessons {
        let suite = lesson.suite_dir(root);
        catalogs.push((lesson.id.clone(), suite.join("locales/en/suite.ftl")));
    }
    let mut texts = BTreeMap::new();
    for (name, path) in catalogs {
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (id, text) in course_i18n::stamp::sources(&source) {
            texts.insert(format!("{name}:{id}"), flat(&text));
        }
    }
    Ok(texts)
}

/// Text with every run of whitespace made one space: messages wrap where they like.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A lesson's source files, by path relative to its `src/`.
pub(crate) type Sources = BTreeMap<PathBuf, String>;

/// Every file under `src`.
pub(crate) fn read_sources(src: &Path) -> Result<Sources> {
    let mut sources = Sources::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry?;
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path())
                .with_context(|| format!("could not read {}", entry.path().display()))?;
            sources.insert(entry.path().strip_prefix(src)?.to_path_buf(), text);
        }
    }
    Ok(sources)
}

/// Makes `src` hold exactly `sources`.
pub(crate) fn write_sources(src: &Path, sources: &Sources) -> Result<()> {
    if src.exists() {
        std::fs::remove_dir_all(src)?;
    }
    for (relative, text) in sources {
        let path = src.join(relative);
        std::fs::create_dir_all(path.parent().context("a file has a folder")?)?;
        std::fs::write(&path, text)?;
    }
    Ok(())
}

/// The solution with the mistake made: `find` must occur exactly once in all its files.
pub(crate) fn apply(solution: &Sources, mistake: &Mistake) -> Result<Sources> {
    let count: usize = solution
        .values()
        .map(|text| text.matches(&mistake.find).count())
        .sum();
    if count != 1 {
        bail!(
            "`find` occurs {count} times in the solution (it must occur once): {}",
            mistake.find
        );
    }
    let mut patched = solution.clone();
    for text in patched.values_mut() {
        if text.contains(&mistake.find) {
            *text = text.replacen(&mistake.find, &mistake.replace, 1);
        }
    }
    Ok(patched)
}

/// The lists of mistakes, `solutions/<lesson>/mistakes.toml`, by lesson id, in the
/// course's order.
pub(crate) fn lists(
    root: &Path,
    only: Option<&str>,
) -> Result<Vec<(String, Vec<Mistake>)>> {
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    let mut lists = Vec::new();
    for lesson in manifest.lessons {
        let lesson = lesson.id;
        if only.is_some_and(|only| !lesson.starts_with(only)) {
            continue;
        }
        let file = root.join("solutions").join(&lesson).join("mistakes.toml");
        if !file.is_file() {
            continue;
        }
        let table: toml::Table = toml::from_str(&std::fs::read_to_string(&file)?)
            .with_context(|| format!("parsing {}", file.display()))?;
        let text = |entry: &toml::Value, key: &str| -> Result<String> {
            Ok(entry
                .get(key)
                .and_then(toml::Value::as_str)
                .with_context(|| format!("{}: a mistake needs `{key}`", file.display()))?
                .to_owned())
        };
        let mut mistakes = Vec::new();
        for entry in table
            .get("mistakes")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            mistakes.push(Mistake {
                name: text(entry, "name")?,
                function: text(entry, "function")?,
                find: text(entry, "find")?,
                replace: text(entry, "replace")?,
                causes: strings(entry, "causes"),
                named: strings(entry, "named"),
            });
        }
        lists.push((lesson, mistakes));
    }
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed mistake still applies to its solution as written: its `find` occurs
    /// exactly once, and the edit changes the source (a reformatted or renamed solution
    /// line fails here, in `cargo test`, not only when someone runs the task).
    #[test]
    fn every_mistake_edits_its_solution_exactly_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut problems = Vec::new();
        let lists = lists(&root, None).expect("the mistake lists read");
        let texts = cause_texts(&root).expect("the catalogs read");
        assert!(!lists.is_empty(), "no lesson has a mistakes.toml");
        for (lesson, mistakes) in lists {
            let src = root.join("solutions").join(&lesson).join("src");
            let solution = read_sources(&src).expect("the solution reads");
            for mistake in mistakes {
                match apply(&solution, &mistake) {
                    Ok(patched) if patched == solution => problems.push(format!(
                        "{lesson}: `{}` changes nothing (find equals replace)",
                        mistake.name
                    )),
                    Ok(_) => {}
                    Err(error) => {
                        problems.push(format!("{lesson}: `{}`: {error}", mistake.name))
                    }
                }
                if mistake.named.is_empty() && mistake.causes.is_empty() {
                    problems.push(format!(
                        "{lesson}: `{}` lists no cause and no phrase",
                        mistake.name
                    ));
                }
                for key in &mistake.causes {
                    match texts.get(key) {
                        None => problems.push(format!(
                            "{lesson}: `{}` lists the cause `{key}`, which no catalog has",
                            mistake.name
                        )),
                        Some(text) if text.contains('{') => problems.push(format!(
                            "{lesson}: the cause `{key}` of `{}` has arguments: list a \
                             phrase for the visible tests instead",
                            mistake.name
                        )),
                        Some(_) => {}
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
