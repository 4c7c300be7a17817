//! `cargo xtask new-lesson NN-name crate`: a new lesson, in its one home, from the
//! template in `xtask/template/`.
//!
//! Writes `solutions/NN-name/` (the lesson's entry and hints in both languages, a solution
//! with one function and its stub markers, the graded and held-out suites with their
//! messages in both languages, the learner's manifest and visible tests, an empty list of
//! mistakes), adds the id to course.toml's index, and writes the chapter
//! `book/src/NN-name.md` with its line in `book/src/SUMMARY.md` and its Chinese in
//! `book/po/zh-CN.po`. Then it generates `lessons/NN-name/` (`cargo xtask stubs`) and
//! brings the book's translation template in step (`book/po/update.sh`, where the book's
//! tools are installed).
//!
//! The lesson it writes builds, grades 0% as a stub and 100% as a solution, and passes
//! `checker verify`: `cargo xtask scaffold-check` proves it on a copy of the course. What
//! it cannot write (the lesson's teaching: its functions, tests, mistakes, chapter) it
//! lists at the end.

use anyhow::{Context, Result, ensure};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a new lesson is called.
pub struct NewLesson {
    /// Its id, the folder name: `07-gpt`.
    pub id: String,
    /// Its crate: `gpt`.
    pub crate_name: String,
    /// Its title in English; by default, from the id (`07-small-gpt` → "Small gpt").
    pub title: Option<String>,
    /// Its title in Chinese; by default, the English one (to translate).
    pub title_zh: Option<String>,
}

/// Writes the lesson into the course at `root`.
pub fn run(root: &Path, lesson: &NewLesson) -> Result<()> {
    let number = validate(root, lesson)?;
    let id = lesson.id.as_str();
    let krate = lesson.crate_name.as_str();
    let title = lesson.title.clone().unwrap_or_else(|| default_title(id));
    let title_zh = lesson.title_zh.clone().unwrap_or_else(|| title.clone());
    let names = Names {
        id,
        krate,
        module: krate.replace('-', "_"),
        number,
        title: &title,
        title_zh: &title_zh,
    };
    let home = root.join("solutions").join(id);
    let mut files = lesson_files(&names)?;
    stamp_translations(&mut files, id)?;
    for (path, text) in &files {
        write_new(&home.join(path), text)?;
    }
    add_to_index(root, id)?;
    let chapter = std::fs::read_to_string(template_dir().join("book/chapter.md"))?;
    write_new(
        &root.join("book/src").join(format!("{id}.md")),
        &fill(&chapter, &names)?,
    )?;
    add_to_summary(root, &names)?;
    add_translations(root, &names)?;
    crate::stubs::run(root, false)?;
    let template = update_translation_template(root);
    println!("{}", next_steps(&names, template));
    Ok(())
}

/// The names the files are written with.
struct Names<'a> {
    id: &'a str,
    krate: &'a str,
    /// The crate's name in Rust (`multi_head_attention`).
    module: String,
    /// The lesson's number without its leading zero: `7`.
    number: u32,
    title: &'a str,
    title_zh: &'a str,
}

/// Checks the id and the crate name, and that neither is taken; returns the lesson's
/// number.
fn validate(root: &Path, lesson: &NewLesson) -> Result<u32> {
    let (number, rest) = lesson
        .id
        .split_once('-')
        .context("the id is the lesson's number, `-` and its name, e.g. `07-gpt`")?;
    let valid_number = number.len() == 2 && number.chars().all(|c| c.is_ascii_digit());
    let valid_rest = !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    ensure!(
        valid_number && valid_rest,
        "`{}` is not a lesson id: two digits, `-`, then lowercase letters, digits and `-` \
         (e.g. `07-gpt`)",
        lesson.id
    );
    let valid_crate = lesson
        .crate_name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && lesson
            .crate_name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    ensure!(
        valid_crate,
        "`{}` is not a crate name for a lesson: lowercase letters, digits and `-`, starting \
         with a letter",
        lesson.crate_name
    );
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    for existing in &manifest.lessons {
        ensure!(
            existing.id != lesson.id,
            "lesson `{}` already exists",
            lesson.id
        );
        ensure!(
            existing.crate_name != lesson.crate_name,
            "lesson {} already has the crate `{}`: choose another name",
            existing.id,
            lesson.crate_name
        );
    }
    for folder in ["solutions", "lessons"] {
        let path = root.join(folder).join(&lesson.id);
        ensure!(
            !path.exists(),
            "{folder}/{}/ already exists: remove it, or choose another id",
            lesson.id
        );
    }
    Ok(number.parse()?)
}

/// "Small gpt" for `07-small-gpt`.
fn default_title(id: &str) -> String {
    let words = id
        .split_once('-')
        .map_or(id, |(_, rest)| rest)
        .replace('-', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Writes `text` to `path`, which must not exist (nothing a maintainer wrote is replaced).
fn write_new(path: &Path, text: &str) -> Result<()> {
    ensure!(
        !path.exists(),
        "{} already exists: the scaffold writes only new files",
        path.display()
    );
    std::fs::create_dir_all(path.parent().context("a file has a folder")?)?;
    std::fs::write(path, text)
        .with_context(|| format!("could not write {}", path.display()))
}

/// Adds `id` at the end of course.toml's `lessons`, keeping the file as written.
fn add_to_index(root: &Path, id: &str) -> Result<()> {
    let path = root.join("course.toml");
    let text = std::fs::read_to_string(&path)?;
    let start = text
        .find("\nlessons = [")
        .context("course.toml has no `lessons = [` list to add the lesson to")?;
    let end = start
        + text[start..].find("\n]").context(
            "course.toml's `lessons` list has no closing `]` on a line of its own",
        )?;
    let updated = format!("{}\n    \"{id}\",{}", &text[..end], &text[end..]);
    std::fs::write(&path, updated)?;
    Ok(())
}

/// Adds the chapter to SUMMARY.md, after the last lesson's.
fn add_to_summary(root: &Path, names: &Names) -> Result<()> {
    let path = root.join("book/src/SUMMARY.md");
    let text = std::fs::read_to_string(&path)?;
    let manifest = course_manifest::Manifest::load(&root.join("course.toml"))?;
    let last = manifest
        .lessons
        .iter()
        .rev()
        .filter(|lesson| lesson.id != names.id)
        .find_map(|lesson| {
            let link = format!("]({})", lesson.chapter);
            text.find(&link).map(|at| at + link.len())
        })
        .context("SUMMARY.md lists no lesson's chapter to put the new one after")?;
    let line = format!("\n- [{}]({}.md)", names.title, names.id);
    let updated = format!("{}{line}{}", &text[..last], &text[last..]);
    std::fs::write(&path, updated)?;
    Ok(())
}

/// The Chinese of every message of the new chapter that the translation lacks, appended to
/// `book/po/zh-CN.po` (`msgmerge` then files them where the template puts them).
fn add_translations(root: &Path, names: &Names) -> Result<()> {
    let path = root.join("book/po/zh-CN.po");
    let mut po = std::fs::read_to_string(&path)
        .with_context(|| format!("could not read {}", path.display()))?;
    for (msgid, msgstr) in chapter_translations(names)? {
        let msgid = format!("msgid {msgid}");
        if po.lines().any(|line| line == msgid) {
            continue;
        }
        let _ = write!(po, "\n#: src/{}.md\n{msgid}\nmsgstr {msgstr}\n", names.id);
    }
    std::fs::write(&path, po)?;
    Ok(())
}

/// Runs `book/po/update.sh` where the book's tools are installed; says whether it ran.
fn update_translation_template(root: &Path) -> bool {
    let installed = |tool: &str| {
        std::process::Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if !(installed("mdbook-xgettext") && installed("msgmerge") && installed("mdbook")) {
        return false;
    }
    std::process::Command::new("bash")
        .arg(root.join("book/po/update.sh"))
        .status()
        .is_ok_and(|status| status.success())
}

/// What is left to write, printed at the end.
fn next_steps(names: &Names, template_updated: bool) -> String {
    let Names { id, krate, .. } = names;
    let template = if template_updated {
        String::new()
    } else {
        "\n  - run `book/po/update.sh` (it needs mdbook, mdbook-i18n-helpers and gettext, \
         as CI installs them): the book's translation template does not list the new \
         chapter yet."
            .to_owned()
    };
    format!(
        "Wrote lesson {id}: solutions/{id}/ (its one home), lessons/{id}/ (generated), its \
         id in course.toml and its chapter book/src/{id}.md.\n\
         It builds, grades 0% as a stub and 100% as a solution, and passes `checker verify`. \
         What is left is the lesson itself:\n\
         \x20 - solutions/{id}/src/lib.rs: the functions, in build order, each with its \
         `///` contract and its `// BEGIN SOLUTION: todo!(\"name\")` markers; then \
         `cargo xtask stubs`;\n\
         \x20 - solutions/{id}/lesson.toml: the title, `depends_on` and the hints of each \
         function (steps by name); their Chinese in lesson.zh-CN.ftl (`COURSE_RESTAMP=1 \
         cargo test -p checker` stamps them once translated);\n\
         \x20 - solutions/{id}/suite/graded.rs (and heldout.rs): tests on hand-computed \
         values, exact properties, or values from reference.py; their messages in \
         suite/locales/;\n\
         \x20 - solutions/{id}/learner/tests/visible.rs: the visible tests;\n\
         \x20 - solutions/{id}/mistakes.toml (at least eight plausible mistakes) and the \
         builders that name them, mistakes.rs (`cargo xtask mistakes {id}`, `cargo xtask \
         named {id}`);\n\
         \x20 - book/src/{id}.md and its Chinese in book/po/zh-CN.po; the title in \
         SUMMARY.md.{template}\n\
         Check it with `cargo test -p {krate}-solution` and `cargo run -p checker -- verify`."
    )
}

/// The template, `xtask/template/`: `lesson/` is a lesson's folder and `book/` its chapter
/// (`chapter.md`) and the chapter's Chinese (`chapter.zh-CN.po`), with placeholders
/// ([`fill`]).
fn template_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("template")
}

/// `text` with its placeholders filled: `{{id}}`, `{{crate}}`, `{{module}}` (the crate's
/// name in Rust), `{{number}}` (`7`), `{{padded}}` (`07`), `{{title}}`, `{{title_zh}}`.
/// `{{stamp}}` is left for [`stamp_translations`]; any other `{{name}}` is an error (the
/// book's own `{{#include …}}` is not a placeholder).
fn fill(text: &str, n: &Names) -> Result<String> {
    let filled = text
        .replace("{{id}}", n.id)
        .replace("{{crate}}", n.krate)
        .replace("{{module}}", &n.module)
        .replace("{{number}}", &n.number.to_string())
        .replace("{{padded}}", &format!("{:02}", n.number))
        .replace("{{title}}", n.title)
        .replace("{{title_zh}}", n.title_zh);
    let mut rest = filled.as_str();
    while let Some(at) = rest.find("{{") {
        let name: String = rest[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        let closed = rest[at + 2 + name.len()..].starts_with("}}");
        ensure!(
            !closed || name == "stamp",
            "the template has an unknown placeholder {{{{{name}}}}}"
        );
        rest = &rest[at + 2..];
    }
    Ok(filled)
}

/// The files of the lesson's folder, filled, by path relative to `solutions/<id>/`.
fn lesson_files(n: &Names) -> Result<Vec<(PathBuf, String)>> {
    let template = template_dir().join("lesson");
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&template).sort_by_file_name() {
        let entry = entry?;
        if entry.file_type().is_file() {
            let text = std::fs::read_to_string(entry.path())?;
            let relative = entry.path().strip_prefix(&template)?.to_path_buf();
            files.push((relative, fill(&text, n)?));
        }
    }
    Ok(files)
}

/// Fills each `# en: {{stamp}}` of the lesson's Chinese files with the stamp of the English
/// the message below it translates: the entry's title and hints for `lesson.zh-CN.ftl`, the
/// English twin for a suite's `locales/zh-CN/*.ftl`. The template's Chinese translates
/// its English, so this stamps what is translated.
fn stamp_translations(files: &mut [(PathBuf, String)], id: &str) -> Result<()> {
    let entry = files
        .iter()
        .find(|(path, _)| path == Path::new(course_manifest::LESSON_ENTRY))
        .context("the template has no lesson.toml")?;
    let lesson: course_manifest::Lesson = toml::from_str(&entry.1)?;
    let mut lesson_english = std::collections::BTreeMap::new();
    lesson_english.insert(format!("lesson-{id}-title"), lesson.title.clone());
    for hint in &lesson.hints {
        for step in &hint.steps {
            let function = hint.function.replace("::", "--");
            lesson_english.insert(
                format!("hint-{id}-{function}-{}", step.name),
                step.text.clone(),
            );
        }
    }
    let english_twins: Vec<(PathBuf, String)> = files
        .iter()
        .filter(|(path, _)| path.components().any(|c| c.as_os_str() == "en"))
        .cloned()
        .collect();
    for (path, text) in files.iter_mut() {
        if !text.contains("{{stamp}}") {
            continue;
        }
        let english = if path == Path::new(course_manifest::LESSON_CHINESE) {
            lesson_english.clone()
        } else {
            let twin: PathBuf = path
                .components()
                .map(|c| {
                    if c.as_os_str() == "zh-CN" {
                        "en".as_ref()
                    } else {
                        c.as_os_str()
                    }
                })
                .collect();
            let (_, twin) = english_twins
                .iter()
                .find(|(p, _)| *p == twin)
                .with_context(|| format!("{} has no English twin", path.display()))?;
            course_i18n::stamp::sources(twin)
        };
        let lines: Vec<&str> = text.lines().collect();
        let mut stamped = Vec::with_capacity(lines.len());
        for (at, line) in lines.iter().enumerate() {
            if line.trim() != "# en: {{stamp}}" {
                stamped.push(line.to_string());
                continue;
            }
            let id = lines
                .get(at + 1)
                .and_then(|next| next.split_once(" ="))
                .map(|(id, _)| id.trim())
                .with_context(|| {
                    format!("{}: a stamp with no message below", path.display())
                })?;
            let english = english
                .get(id)
                .with_context(|| format!("{}: `{id}` has no English", path.display()))?;
            stamped.push(format!("# en: {}", course_i18n::stamp::stamp(english)));
        }
        *text = stamped.join("\n") + "\n";
    }
    Ok(())
}

/// The chapter's messages and their Chinese, from the template's `chapter.zh-CN.po`: each
/// `msgid "…"` line with the `msgstr "…"` line after it, as written (quoted).
fn chapter_translations(n: &Names) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(template_dir().join("book/chapter.zh-CN.po"))?;
    let text = fill(&text, n)?;
    let mut pairs = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(msgid) = line.strip_prefix("msgid ") {
            let msgstr = lines
                .next()
                .and_then(|next| next.strip_prefix("msgstr "))
                .context(
                    "in the template's chapter.zh-CN.po, a msgid without its msgstr",
                )?;
            pairs.push((msgid.to_owned(), msgstr.to_owned()));
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_is_made_from_the_id() {
        assert_eq!(default_title("07-small-gpt"), "Small gpt");
    }

    #[test]
    fn bad_names_are_refused_with_the_form_they_need() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let lesson = |id: &str, krate: &str| NewLesson {
            id: id.to_owned(),
            crate_name: krate.to_owned(),
            title: None,
            title_zh: None,
        };
        for (id, krate, reason) in [
            ("7-gpt", "gpt", "two digits"),
            ("07_gpt", "gpt", "e.g. `07-gpt`"),
            ("07-Gpt", "gpt", "two digits"),
            ("07-gpt", "Gpt", "not a crate name"),
            ("02-attention", "gpt", "already exists"),
            ("07-gpt", "attention", "already has the crate"),
        ] {
            let error = format!("{:#}", run(&root, &lesson(id, krate)).unwrap_err());
            assert!(error.contains(reason), "{id} {krate}: {error}");
        }
    }

    fn names() -> Names<'static> {
        Names {
            id: "07-gpt",
            krate: "gpt",
            module: "gpt".to_owned(),
            number: 7,
            title: "A GPT",
            title_zh: "一个 GPT",
        }
    }

    #[test]
    fn the_template_fills_and_stamps_every_placeholder() {
        let mut files = lesson_files(&names()).unwrap();
        stamp_translations(&mut files, "07-gpt").unwrap();
        for (path, text) in &files {
            assert!(
                !text.contains("{{"),
                "{} keeps a placeholder",
                path.display()
            );
        }
        let ftl = &files
            .iter()
            .find(|(path, _)| path == Path::new(course_manifest::LESSON_CHINESE))
            .unwrap()
            .1;
        assert!(ftl.contains("lesson-07-gpt-title = 一个 GPT"), "{ftl}");
        assert!(!chapter_translations(&names()).unwrap().is_empty());
    }

    #[test]
    fn an_unknown_placeholder_is_an_error() {
        let error = fill("{{id}} {{colour}}", &names()).unwrap_err().to_string();
        assert!(error.contains("{{colour}}"), "{error}");
        assert_eq!(
            fill("{{#include a.rs:x}}", &names()).unwrap(),
            "{{#include a.rs:x}}"
        );
    }

    #[test]
    fn a_new_id_goes_at_the_end_of_the_index() {
        let dir = tempfile_dir("index");
        let index = "format_version = 2\n\nlessons = [\n    \"01-a\",\n]\n";
        std::fs::write(dir.join("course.toml"), index).unwrap();
        add_to_index(&dir, "02-b").unwrap();
        let written = std::fs::read_to_string(dir.join("course.toml")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            written,
            "format_version = 2\n\nlessons = [\n    \"01-a\",\n    \"02-b\",\n]\n"
        );
    }

    fn tempfile_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("new-lesson-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn nothing_is_written_over() {
        let dir = tempfile_dir("over");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a"), "mine").unwrap();
        let error = write_new(&dir.join("a"), "theirs").unwrap_err().to_string();
        let kept = std::fs::read_to_string(dir.join("a")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains("only new files"), "{error}");
        assert_eq!(kept, "mine");
    }

    /// A SUMMARY.md without any lesson gives the scaffold no place for the chapter: it
    /// says so rather than guess.
    #[test]
    fn a_summary_without_lessons_is_an_error() {
        let dir = tempfile_dir("summary");
        std::fs::create_dir_all(dir.join("book/src")).unwrap();
        std::fs::write(dir.join("book/src/SUMMARY.md"), "# Summary\n").unwrap();
        std::fs::write(
            dir.join("course.toml"),
            "format_version = 2\nlessons = []\n",
        )
        .unwrap();
        let error = add_to_summary(&dir, &names()).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains("lists no lesson"), "{error}");
    }
}
