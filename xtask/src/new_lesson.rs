//! `cargo xtask new-lesson NN-name crate`: a new lesson, in its one home.
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
use std::path::Path;

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
    let (number, _) = validate(root, lesson)?;
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
    for (path, text) in lesson_files(&names) {
        write_new(&home.join(path), &text)?;
    }
    add_to_index(root, id)?;
    write_new(
        &root.join("book/src").join(format!("{id}.md")),
        &chapter(&names),
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
/// number and the current index.
fn validate(root: &Path, lesson: &NewLesson) -> Result<(u32, course_manifest::Manifest)> {
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
    Ok((number.parse()?, manifest))
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
    for (english, chinese) in chapter_messages(names)
        .into_iter()
        .chain(code_messages(names))
    {
        let msgid = format!("msgid \"{}\"", po_escape(&english));
        if po.lines().any(|line| line == msgid) {
            continue;
        }
        let _ = write!(
            po,
            "\n#: src/{}.md\n{msgid}\nmsgstr \"{}\"\n",
            names.id,
            po_escape(&chinese)
        );
    }
    std::fs::write(&path, po)?;
    Ok(())
}

/// A string as a PO file quotes it.
fn po_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
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

/// The English messages of the scaffold's suite.
const SUITE_ENGLISH: &str =
    "scale-doubled = scale(x, 2) of a 2 × 2 matrix: every entry doubled\n";

/// The files of the lesson's folder, by path relative to `solutions/<id>/`.
fn lesson_files(n: &Names) -> Vec<(&'static str, String)> {
    let Names {
        id,
        krate,
        module,
        number,
        title,
        title_zh,
    } = n;
    let padded = format!("{number:02}");
    let hint_idea = "`scale` multiplies every entry of `x` by `factor`: the result has the \
                     shape of `x`, (n, d).";
    let hint_code =
        "`x * factor` (an ndarray matrix times a number multiplies every entry).";
    let stamp = course_i18n::stamp::stamp;
    vec![
        (
            "lesson.toml",
            format!(
                "# The entry of lesson {id} in the course: course.toml lists the lessons in \
                 order,\n# and each one's entry is its own lesson.toml (the fields are \
                 described in course.toml).\n\n\
                 title = \"{title}\"\n\
                 crate = \"{krate}\"\n\
                 chapter = \"{id}.md\"\n\
                 depends_on = []\n\n\
                 [[hints]]\n\
                 function = \"scale\"\n\n\
                 [[hints.steps]]\n\
                 name = \"idea\"\n\
                 text = \"\"\"{hint_idea}\"\"\"\n\n\
                 [[hints.steps]]\n\
                 name = \"code\"\n\
                 text = \"\"\"{hint_code}\"\"\"\n"
            ),
        ),
        (
            "lesson.zh-CN.ftl",
            format!(
                "### Simplified Chinese (zh-CN) text of lesson {id}'s title and hints, whose \
                 English\n### is in lesson.toml beside this file. `cargo xtask stubs` gathers \
                 every lesson's file\n### into the checker's checker/locales/zh-CN/course.ftl.\n\
                 ###\n### Message ids:\n###   lesson-{id}-title\n###   hint-{id}-<function, \
                 every :: written as -->-<the hint step's name>\n### Each message carries the \
                 stamp of the English it translates (`# en:`); see CONTRIBUTING.md.\n\n\
                 # en: {}\nlesson-{id}-title = {title_zh}\n\n\
                 # en: {}\nhint-{id}-scale-idea =\n    `scale` 把 `x` 的每个元素都乘以 \
                 `factor`：结果的形状与 `x` 相同，为 (n, d)。\n\
                 # en: {}\nhint-{id}-scale-code =\n    `x * factor`（ndarray 的矩阵乘以一个数，\
                 会把每个元素都乘以它）。\n",
                stamp(title),
                stamp(hint_idea),
                stamp(hint_code),
            ),
        ),
        (
            "Cargo.toml",
            format!(
                "[package]\n\
                 name = \"{krate}-solution\"\n\
                 version = \"0.1.0\"\n\
                 description = \"Lesson {padded} solved: the reference the graded tests, the \
                 book's figures and later lessons trust.\"\n\
                 edition.workspace = true\n\
                 rust-version.workspace = true\n\
                 license.workspace = true\n\
                 publish.workspace = true\n\n\
                 [dependencies]\n\
                 course-common.workspace = true\n\n\
                 [dev-dependencies]\n\
                 approx.workspace = true\n\
                 course-harness.workspace = true\n\
                 # The builders of the named mistakes' wrong answers, which the tests check \
                 against\n# their record (`builders`, on by default here; see \
                 course_harness::named).\n\
                 course-mistakes.workspace = true\n\n\
                 # The held-out suite compiles its checks and expected values only with \
                 `judge` (the\n# checker's learner builds leave them out); the solution's \
                 own `cargo test` runs them.\n\
                 [features]\n\
                 default = [\"judge\", \"builders\"]\n\
                 builders = []\n\
                 judge = []\n\n\
                 [lints]\n\
                 workspace = true\n"
            ),
        ),
        (
            "src/lib.rs",
            format!(
                "// BEGIN STUB\n// //! Lesson {padded}: {title}.\n// END STUB\n\
                 // BEGIN SOLUTION\n//! Lesson {padded}: {title}, solved.\n// END SOLUTION\n\
                 //!\n\
                 //! The formula and the shapes of the lesson go here, and the book chapter \
                 that explains\n//! them: chapter {padded}, \"{title}\".\n\
                 // BEGIN STUB\n// //!\n// //! # How to work on this lesson\n// //!\n\
                 // //! Every `todo!()` below is yours to replace; the `///` comment above it \
                 is the\n// //! contract (shapes, formula, where the book explains it). Check \
                 yourself with\n// //!\n// //! ```text\n\
                 // //! cargo test -p {krate}     # the visible tests in tests/visible.rs\n\
                 // //! cargo run -p checker -- watch         # the graded tests, re-run on \
                 every save\n// //! ```\n// //!\n\
                 // //! Don't change the signatures or the tests: grading uses only this \
                 `src/` folder,\n// //! with the course's own copy of everything else.\n\
                 // END STUB\n\n\
                 use course_common::{{Float, Matrix}};\n\n\
                 // ANCHOR: scale\n\
                 /// Every entry of `x` multiplied by `factor`: `y = factor · x`, shape (n, d) \
                 → (n, d).\n///\n/// Book: chapter {padded}, \"The route\".\n\
                 pub fn scale(x: &Matrix, factor: Float) -> Matrix {{\n\
                 \x20   // TODO: multiply every entry by `factor`.\n\
                 \x20   // BEGIN SOLUTION: todo!(\"scale\")\n\
                 \x20   x * factor\n\
                 \x20   // END SOLUTION\n\
                 }}\n\
                 // ANCHOR_END: scale\n"
            ),
        ),
        (
            "tests/visible.rs",
            format!(
                "//! The lesson's visible tests, run against the solution.\n\n\
                 // The tests name the lesson crate `{module}`; here the solution stands in \
                 for it.\n\
                 extern crate {module}_solution as {module};\n\n\
                 #[path = \"../learner/tests/visible.rs\"]\n\
                 mod visible;\n"
            ),
        ),
        (
            "tests/graded.rs",
            format!(
                "//! The checker's graded tests of lesson {padded}, run against the \
                 solution.\n\n\
                 // The tests name the lesson crate `{module}`; here the solution stands in \
                 for it.\n\
                 extern crate {module}_solution as {module};\n\n\
                 #[path = \"../suite/graded.rs\"]\n\
                 mod graded;\n"
            ),
        ),
        (
            "tests/heldout.rs",
            format!(
                "//! The checker's held-out tests of lesson {padded}, run against the \
                 solution.\n\n\
                 // The tests name the lesson crate `{module}`; here the solution stands in \
                 for it.\n\
                 extern crate {module}_solution as {module};\n\n\
                 #[path = \"../suite/heldout.rs\"]\n\
                 mod heldout;\n"
            ),
        ),
        (
            "suite/graded.rs",
            format!(
                "//! Graded tests of lesson {padded}, {title}.\n//!\n\
                 //! These run in the checker against a learner's `src/` and, through the \
                 solution crate's\n//! `cargo test`, against the reference solution. Every \
                 call into the lesson goes through\n//! `observe` (the wrappers below), so \
                 that the checker's judge can replay the values the\n//! learner's code \
                 returned (see `course_harness::tape`). Every expected value is \
                 hand-computed\n//! or an exact property.\n\n\
                 use course_common::ndarray::array;\n\
                 use course_common::{{Float, Matrix}};\n\
                 use course_harness::{{Catalog, Tol, assert_matrix_close, graded, observe, \
                 tr}};\n\
                 use {module} as lesson;\n\n\
                 /// What a failed test says, in every language the course speaks.\n\
                 static MESSAGES: Catalog = Catalog::new(\n\
                 \x20   \"{id}\",\n\
                 \x20   include_str!(\"locales/en/suite.ftl\"),\n\
                 \x20   include_str!(\"locales/zh-CN/suite.ftl\"),\n\
                 );\n\n\
                 fn scale(x: &Matrix, factor: Float) -> Matrix {{\n\
                 \x20   observe(\"scale\", || lesson::scale(x, factor))\n\
                 }}\n\n\
                 /// Doubling a 2 × 2 matrix, worked by hand.\n\
                 #[test]\n\
                 fn scale_doubles_every_entry() {{\n\
                 \x20   graded(|| {{\n\
                 \x20       let got = scale(&array![[1.0, -2.0], [0.5, 3.0]], 2.0);\n\
                 \x20       assert_matrix_close(\n\
                 \x20           &tr!(MESSAGES, \"scale-doubled\"),\n\
                 \x20           &got,\n\
                 \x20           &array![[2.0, -4.0], [1.0, 6.0]],\n\
                 \x20           Tol::TIGHT,\n\
                 \x20           &[],\n\
                 \x20       );\n\
                 \x20   }});\n\
                 }}\n"
            ),
        ),
        (
            "suite/heldout.rs",
            format!(
                "//! Held-out tests of lesson {padded}: the instructor's edition only. Their \
                 expected values\n//! and checks are compiled only into the judge (the \
                 `judge` feature), so the executable\n//! that runs a learner's code holds no \
                 answer.\n\n\
                 use course_common::ndarray::array;\n\
                 #[cfg(feature = \"judge\")]\n\
                 use course_harness::{{Tol, assert_matrix_close}};\n\
                 use course_harness::{{graded, observe}};\n\
                 use {module} as lesson;\n\n\
                 /// Scaling by zero gives zeros of the same shape.\n\
                 #[test]\n\
                 fn heldout_scale_by_zero_gives_zeros() {{\n\
                 \x20   graded(|| {{\n\
                 \x20       let x = array![[1.5, -2.0, 4.0]];\n\
                 \x20       let got = observe(\"scale\", || lesson::scale(&x, 0.0));\n\
                 \x20       #[cfg(feature = \"judge\")]\n\
                 \x20       assert_matrix_close(\"scale(x, 0)\", &got, &array![[0.0, 0.0, 0.0]], \
                 Tol::TIGHT, &[]);\n\
                 \x20       #[cfg(not(feature = \"judge\"))]\n\
                 \x20       let _ = got;\n\
                 \x20   }});\n\
                 }}\n"
            ),
        ),
        (
            "suite/locales/en/suite.ftl",
            format!(
                "# The graded tests of lesson {padded} ({title}): what a failed test \
                 says.\n\n{SUITE_ENGLISH}"
            ),
        ),
        (
            "suite/locales/zh-CN/suite.ftl",
            format!(
                "# 第 {number} 课（{title_zh}）的评分测试：测试失败时的说明。\n\n\
                 # en: {}\nscale-doubled = 2 × 2 矩阵的 scale(x, 2)：每个元素都翻倍\n",
                stamp(&course_i18n::stamp::sources(SUITE_ENGLISH)["scale-doubled"])
            ),
        ),
        (
            "learner/Cargo.toml",
            format!(
                "[package]\n\
                 name = \"{krate}\"\n\
                 version = \"0.1.0\"\n\
                 description = \"Lesson {padded}: {title}.\"\n\
                 edition.workspace = true\n\
                 rust-version.workspace = true\n\
                 license.workspace = true\n\
                 publish.workspace = true\n\n\
                 [dependencies]\n\
                 course-common.workspace = true\n\n\
                 [dev-dependencies]\n\
                 approx.workspace = true\n\
                 course-harness.workspace = true\n\n\
                 # The workspace's lints, less what a stub cannot help: its arguments and \
                 imports are\n# unused and its body is a `todo!()` until the lesson is \
                 solved.\n\
                 [lints.rust]\n\
                 unsafe_code = \"deny\"\n\
                 # The tests' `builders` feature belongs to the maintainers' copy of this \
                 crate, where the\n# named mistakes' wrong answers are computed; here they \
                 are read from tests/*.named.json.\n\
                 unexpected_cfgs = {{ level = \"warn\", check-cfg = \
                 ['cfg(feature, values(\"builders\"))'] }}\n\
                 unused_variables = \"allow\"\n\
                 unused_imports = \"allow\"\n\n\
                 [lints.clippy]\n\
                 dbg_macro = \"warn\"\n\
                 todo = \"allow\"\n"
            ),
        ),
        (
            "learner/tests/visible.rs",
            format!(
                "//! The visible tests of lesson {padded}: what \"done\" looks like.\n//!\n\
                 //! Run them with `cargo test -p {krate}`. The checker's graded tests check \
                 more;\n//! `cargo run -p checker -- grade {id}` runs them. Don't edit this \
                 file to make it pass:\n//! grading never reads it.\n\n\
                 use course_common::ndarray::array;\n\
                 use course_harness::{{Tol, assert_matrix_close}};\n\
                 use {module}::scale;\n\n\
                 #[test]\n\
                 fn scale_triples_a_row() {{\n\
                 \x20   // Worked by hand: 3 · [1, -1, 0.5] = [3, -3, 1.5].\n\
                 \x20   assert_matrix_close(\n\
                 \x20       \"scale([[1, -1, 0.5]], 3)\",\n\
                 \x20       &scale(&array![[1.0, -1.0, 0.5]], 3.0),\n\
                 \x20       &array![[3.0, -3.0, 1.5]],\n\
                 \x20       Tol::TIGHT,\n\
                 \x20       &[],\n\
                 \x20   );\n\
                 }}\n"
            ),
        ),
        (
            "mistakes.toml",
            format!(
                "# Plausible mistakes in lesson {padded}, each applied to the reference \
                 solution by\n# `cargo xtask mistakes`: `find` is replaced by `replace` \
                 (once), and the mistake counts as\n# named when the checker's report lists \
                 one of its `causes` (by key, `catalog:message-id`)\n# for the first failing \
                 graded test, or its first failing message shows one of `named`.\n\
                 # List at least eight, as a learner would get the lesson wrong.\n\n\
                 [[mistakes]]\n\
                 name = \"the factor added instead of multiplied\"\n\
                 function = \"scale\"\n\
                 find = \"x * factor\"\n\
                 replace = \"x + factor\"\n\
                 named = []\n\
                 causes = []\n"
            ),
        ),
    ]
}

/// The new chapter: a skeleton whose every message has its Chinese in
/// [`chapter_messages`].
fn chapter(n: &Names) -> String {
    let Names {
        id,
        krate,
        number,
        title,
        ..
    } = n;
    format!(
        "# {title}\n\n\
         _Lesson {number} · crate `{krate}` · you edit `lessons/{id}/src/lib.rs`_\n\n\
         This chapter is the scaffold `cargo xtask new-lesson` wrote: replace each paragraph \
         with the lesson's own, and keep the Chinese edition in step (`book/po/zh-CN.po`).\n\n\
         ## What you will build\n\n\
         | In `src/lib.rs` | What it does |\n\
         |---|---|\n\
         | `scale` | multiplies every entry of a matrix by one number |\n\n\
         ## The route\n\n\
         The functions of `src/lib.rs` in the order of the file, with the key equations and \
         shapes. The scaffold's one function, `scale`, computes `y = c · x`, shape (n, d) to \
         (n, d):\n\n\
         ```rust,ignore\n\
         {{{{#include ../../lessons/{id}/src/lib.rs:scale}}}}\n\
         ```\n\n\
         ## Check yourself\n\n\
         ```text\n\
         cargo test -p {krate}\n\
         cargo run -p checker -- grade {id}\n\
         ```\n\n\
         ## Going further\n\n\
         Digressions that the route does not need go here.\n"
    )
}

/// Every message of the new chapter as mdbook-xgettext extracts it, with its Chinese.
fn chapter_messages(n: &Names) -> Vec<(String, String)> {
    let Names {
        id,
        krate,
        number,
        title,
        title_zh,
        ..
    } = n;
    vec![
        (title.to_string(), title_zh.to_string()),
        (
            format!("_Lesson {number} · crate `{krate}` · you edit `lessons/{id}/src/lib.rs`_"),
            format!("_第 {number} 课 · crate `{krate}` · 你要编辑的文件是 `lessons/{id}/src/lib.rs`_"),
        ),
        (
            "This chapter is the scaffold `cargo xtask new-lesson` wrote: replace each \
             paragraph with the lesson's own, and keep the Chinese edition in step \
             (`book/po/zh-CN.po`)."
                .to_owned(),
            "本章是 `cargo xtask new-lesson` 写下的骨架：把每一段换成这一课自己的内容，并让\
             中文版保持同步（`book/po/zh-CN.po`）。"
                .to_owned(),
        ),
        ("What you will build".to_owned(), "你要构建的内容".to_owned()),
        ("In `src/lib.rs`".to_owned(), "`src/lib.rs` 中的函数".to_owned()),
        ("What it does".to_owned(), "作用".to_owned()),
        ("`scale`".to_owned(), "`scale`".to_owned()),
        (
            "multiplies every entry of a matrix by one number".to_owned(),
            "把矩阵的每个元素都乘以同一个数".to_owned(),
        ),
        ("The route".to_owned(), "路线".to_owned()),
        (
            "The functions of `src/lib.rs` in the order of the file, with the key equations \
             and shapes. The scaffold's one function, `scale`, computes `y = c · x`, shape \
             (n, d) to (n, d):"
                .to_owned(),
            "按文件中的顺序介绍 `src/lib.rs` 的函数，写出关键的公式和形状。骨架中唯一的函数 \
             `scale` 计算 `y = c · x`，形状从 (n, d) 到 (n, d)："
                .to_owned(),
        ),
        ("Check yourself".to_owned(), "自我检查".to_owned()),
        ("Going further".to_owned(), "延伸阅读".to_owned()),
        (
            "Digressions that the route does not need go here.".to_owned(),
            "路线用不到的延伸内容放在这里。".to_owned(),
        ),
    ]
}

/// The messages mdbook-xgettext finds in the code the chapter includes (its comments and
/// string literals), with their Chinese.
fn code_messages(n: &Names) -> Vec<(String, String)> {
    let padded = format!("{:02}", n.number);
    vec![
        ("\"scale\"".to_owned(), "\"scale\"".to_owned()),
        (
            format!(
                "/// Every entry of `x` multiplied by `factor`: `y = factor · x`, shape (n, d) \
                 → (n, d).\n///\n/// Book: chapter {padded}, \"The route\".\n"
            ),
            format!(
                "/// `x` 的每个元素都乘以 `factor`：`y = factor · x`，形状 (n, d) → (n, d)。\n\
                 ///\n/// 书：第 {padded} 章，“路线”。\n"
            ),
        ),
        (
            "// TODO: multiply every entry by `factor`.\n".to_owned(),
            "// TODO：把每个元素都乘以 `factor`。\n".to_owned(),
        ),
    ]
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

    #[test]
    fn the_chinese_of_every_chapter_message_is_given() {
        let names = Names {
            id: "07-gpt",
            krate: "gpt",
            module: "gpt".to_owned(),
            number: 7,
            title: "A GPT",
            title_zh: "一个 GPT",
        };
        let text = chapter(&names);
        for (english, chinese) in chapter_messages(&names) {
            let plain = english.trim_matches('_');
            assert!(text.contains(plain), "the chapter lacks {english:?}");
            assert!(!chinese.is_empty());
        }
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
        let names = Names {
            id: "07-gpt",
            krate: "gpt",
            module: "gpt".to_owned(),
            number: 7,
            title: "A GPT",
            title_zh: "一个 GPT",
        };
        let error = add_to_summary(&dir, &names).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(error.contains("lists no lesson"), "{error}");
    }
}
