//! The command line: every command and flag, with the help text clap shows.

use crate::messages::{CLI, INSTRUCTOR};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use course_i18n::{Lang, tr};
use std::ffi::OsString;
use std::path::PathBuf;

/// Grades the lessons of "Build a Transformer in Rust", shows your progress, gives hints.
///
/// With no command, grades every lesson in ./lessons and shows a progress table with the
/// next thing to do.
#[derive(Debug, Parser)]
#[command(name = "checker", version, about, long_about)]
pub struct Cli {
    /// The course's root folder (the one holding course.toml). Default: found from the
    /// current directory.
    #[arg(long, global = true, value_name = "DIR")]
    pub course_dir: Option<PathBuf>,

    /// The language of the checker's messages and of the tests' teaching messages: `en` or
    /// `zh-CN`. Default: the environment's locale (LC_ALL, LC_MESSAGES, LANG), else English.
    #[arg(long, global = true, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<Lang>,

    #[command(flatten)]
    pub grading: GradingArgs,

    /// How to print the results.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    #[command(subcommand)]
    pub command: Option<Command>,
}

fn parse_lang(text: &str) -> Result<Lang, String> {
    Lang::parse(text).ok_or_else(|| tr!(INSTRUCTOR, "lang-unknown", lang = text))
}

/// The language to speak, before the command line is parsed (the help text depends on
/// it): `--lang`, else `COURSE_LANG`, else the environment's locale.
pub fn language(args: &[OsString]) -> Lang {
    let mut args = args.iter().skip(1).map(|arg| arg.to_string_lossy());
    let mut asked = None;
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        if arg == "--lang" {
            asked = args.next().map(|value| value.into_owned());
        } else if let Some(value) = arg.strip_prefix("--lang=") {
            asked = Some(value.to_owned());
        }
    }
    asked
        .or_else(|| std::env::var(course_i18n::LANG_VAR).ok())
        .and_then(|tag| Lang::parse(&tag))
        .unwrap_or_else(Lang::from_locale)
}

/// Parses the command line, with its help in `lang`; exits with clap's message on an
/// error or after printing the help.
pub fn parse(args: Vec<OsString>, lang: Lang) -> Cli {
    let matches = command(lang).get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// The command line's definition, with its help in `lang`. The English help is the doc
/// comments above; the Chinese is `locales/zh-CN/cli.ftl`, looked up by command and
/// argument: `cli-<command>-about`, `cli-<command>-arg-<argument>`, else
/// `cli-arg-<argument>`.
pub fn command(lang: Lang) -> clap::Command {
    let command = Cli::command();
    match lang {
        Lang::En => command,
        Lang::ZhCn => localize(command, "checker"),
    }
}

fn zh(id: &str) -> Option<String> {
    CLI.has(Lang::ZhCn, id)
        .then(|| CLI.tr_in(Lang::ZhCn, id, &[]))
}

/// The ids a command's and its arguments' Chinese help texts are looked up by.
fn help_ids(path: &str, arg: &clap::Arg) -> [String; 2] {
    let id = arg.get_id().as_str().replace('_', "-");
    [format!("cli-{path}-arg-{id}"), format!("cli-arg-{id}")]
}

fn localize(command: clap::Command, path: &str) -> clap::Command {
    let heading = |heading: Option<&str>| match heading {
        Some(LIMITS) => zh("cli-heading-limits"),
        Some(INSTRUCTORS) => zh("cli-heading-instructors"),
        _ => zh("cli-heading-options"),
    };
    // clap adds --help, --version and the help command in English: the Chinese edition
    // adds its own.
    let mut command = command
        .disable_help_flag(true)
        .disable_help_subcommand(true)
        .arg(
            clap::Arg::new("help")
                .short('h')
                .long("help")
                .action(clap::ArgAction::Help)
                .global(true),
        );
    if path == "checker" {
        command = command.disable_version_flag(true).arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .action(clap::ArgAction::Version),
        );
    }
    let mut command = command
        .help_template(zh("cli-template").unwrap_or_default())
        .subcommand_help_heading(zh("cli-heading-commands").unwrap_or_default())
        .mut_args(|arg| {
            let help = help_ids(path, &arg).iter().find_map(|id| zh(id));
            let heading = heading(arg.get_help_heading());
            // The default's label is clap's English: the Chinese help states it itself.
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|value| value.to_string_lossy().into_owned())
                .collect();
            let help = match help {
                Some(help) if !defaults.is_empty() && arg.get_action().takes_values() => {
                    let default = defaults.join(", ");
                    Some(CLI.tr_in(
                        Lang::ZhCn,
                        "cli-default",
                        &[("value", default.into())],
                    ))
                    .map(|label| format!("{help}{label}"))
                }
                other => other,
            };
            let arg = if defaults.is_empty() {
                arg
            } else {
                arg.hide_default_value(true)
            };
            let arg = match help {
                // The Chinese help names the possible values itself.
                Some(help)
                    if arg.get_action().takes_values()
                        && !arg.get_possible_values().is_empty() =>
                {
                    arg.help(help).long_help(None).hide_possible_values(true)
                }
                Some(help) => arg.help(help).long_help(None),
                None => arg,
            };
            match heading {
                Some(heading) => arg.help_heading(heading),
                None => arg,
            }
        });
    if let Some(about) = zh(&format!("cli-{path}-about")) {
        command = command.about(about.clone());
        command =
            command.long_about(zh(&format!("cli-{path}-long-about")).unwrap_or(about));
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    for name in names {
        command = command.mut_subcommand(&name, |sub| localize(sub, &name));
    }
    command
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grade lessons and show every test's result, with what to fix.
    Grade {
        /// The lessons to grade, by folder, number or crate: `02-attention`, `02` or
        /// `attention`. Default: all.
        lessons: Vec<String>,
        #[command(flatten)]
        grading: GradingArgs,
        /// How to print the results.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Re-grade a lesson every time you save; keys: h hint, n next lesson, r re-run, q quit.
    Watch {
        /// The lesson to start with (`02-attention`, `02` or `attention`). Default: the one
        /// you are working on, the unfinished lesson you edited last.
        lesson: Option<String>,
        #[command(flatten)]
        grading: GradingArgs,
        /// Look for changes every second instead of relying on file-system events (for
        /// network drives and some virtual machines, where events do not arrive).
        #[arg(long)]
        poll: bool,
    },
    /// Show the next hint for the first function of a lesson that fails (each call shows
    /// one more).
    Hint {
        /// The lesson (`02-attention`, `02` or `attention`). Default: the one you are
        /// working on, the unfinished lesson you edited last.
        lesson: Option<String>,
        /// Show every hint of the lesson at once, function by function.
        #[arg(long, conflicts_with = "reset")]
        all: bool,
        /// Start the hints of this lesson over.
        #[arg(long)]
        reset: bool,
        #[command(flatten)]
        grading: GradingArgs,
    },
    /// For instructors: grade every submission in DIR (one folder or archive per student)
    /// and write a gradebook.
    Class {
        /// The folder of submissions: each entry is one student, a folder (a copy of the
        /// student edition, or just its lessons/) or a .zip / .tar.gz of one.
        dir: PathBuf,
        /// The gradebook's format.
        #[arg(long, value_enum, default_value_t = ClassFormat::Csv)]
        format: ClassFormat,
        /// Write the gradebook to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        report: ReportArgs,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// For instructors: write the student edition of the course into OUT (lessons, the
    /// checker with the graded tests, the book; no solutions, no held-out tests).
    ExportStudent {
        /// A folder that does not exist yet (or is empty).
        out: PathBuf,
    },
    /// For instructors: write a Gradescope autograder bundle into OUT (setup.sh,
    /// run_autograder, the course, and autograder.zip holding them).
    Gradescope {
        /// A folder that does not exist yet (or is empty).
        out: PathBuf,
    },
    /// For maintainers: every solution scores 100%, every stub 0%, and the manifest, the
    /// folders and the book agree.
    Verify {
        /// The lessons to grade as solutions and as stubs, by folder, number or crate (the
        /// one being written, say). Default: all. The manifest, folders and book are
        /// checked whole either way.
        lessons: Vec<String>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

/// Options of every command that grades.
#[derive(Debug, Clone, Args)]
pub struct GradingArgs {
    /// Grade the lesson sources under DIR (laid out like lessons/) instead of ./lessons.
    #[arg(long, value_name = "DIR")]
    pub lessons_dir: Option<PathBuf>,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The help heading of the limits a learner rarely needs to change.
const LIMITS: &str = "Limits";
/// The help heading of the options for grading others' code.
const INSTRUCTORS: &str = "For instructors";

/// Limits of a grading run.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Seconds each test may run before it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, help_heading = LIMITS)]
    pub test_timeout: u64,

    /// Memory each test may use, in MiB (its address space).
    #[arg(long, value_name = "MIB", default_value_t = 2048, help_heading = LIMITS)]
    pub memory_limit: u64,

    /// After this many tests of a lesson time out, its other tests are not run (they fail
    /// with that reason): a lesson whose code loops cannot hold grading for long.
    #[arg(long, value_name = "N", default_value_t = 5, help_heading = INSTRUCTORS)]
    pub lesson_timeouts: usize,

    /// After this many tests of a submission time out, none of its other tests are run.
    #[arg(long, value_name = "N", default_value_t = 8, help_heading = INSTRUCTORS)]
    pub submission_timeouts: usize,

    /// Seconds each step of building a lesson (its library, then its tests) may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 120, help_heading = LIMITS)]
    pub build_timeout: u64,

    /// Memory each process of a lesson's build may use, in MiB (its address space).
    #[arg(long, value_name = "MIB", default_value_t = 2048, help_heading = LIMITS)]
    pub build_memory: u64,

    /// Run learner code without the sandbox (bubblewrap). Self-paced grading does this by
    /// itself where no sandbox is available; the instructor's commands (`class`, the
    /// Gradescope and Classroom formats) refuse to unless given this flag, because the
    /// code under test then runs with your permissions: it can read and change your files.
    #[arg(long, help_heading = INSTRUCTORS)]
    pub unsandboxed: bool,

    /// How many tests run at once. Default: one per CPU.
    #[arg(long, value_name = "N", help_heading = LIMITS)]
    pub jobs: Option<usize>,

    /// Build each lesson on your own earlier lessons instead of the course's reference
    /// versions: your whole stack, as you would train it. A lesson's grade then depends on
    /// the lessons before it; a failure an earlier lesson may cause names it. (The student
    /// edition, which has no reference versions, always does this.)
    #[arg(long)]
    pub whole_stack: bool,

    /// Run the code under test as this (unprivileged) user, so that it cannot write the
    /// grader's files. The checker must run as root to switch users.
    #[arg(long, value_name = "USER", help_heading = INSTRUCTORS)]
    pub run_as: Option<String>,
}

/// What `class` writes beside the gradebook.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// Also write the class report into the folder OUT: index.html (one self-contained
    /// page: scores, the mistakes the class made by name, who is stuck, similar
    /// submissions, a section per student) and report.json, the data it is drawn from.
    #[arg(long, value_name = "OUT")]
    pub report: Option<PathBuf>,
    /// Record this run in the SQLite database FILE (created if needed), one row per
    /// student, lesson and test; the report then shows the trends across the runs
    /// recorded there.
    #[arg(long, value_name = "FILE")]
    pub history: Option<PathBuf>,
    /// The run's name in the history (default: the date).
    #[arg(long, value_name = "TEXT", requires = "history")]
    pub run_label: Option<String>,
    /// The Python that has copydetect (`pip install copydetect`), which compares the
    /// submissions for the report's section on similar ones.
    #[arg(long, value_name = "FILE", default_value = "python3")]
    pub python: PathBuf,
}

/// Gradebook formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClassFormat {
    /// One row per student, one column per lesson score (0 to 1), total and notes.
    Csv,
    /// Everything, per test.
    Json,
    /// JUnit XML, a test suite per student and lesson.
    Junit,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// For programs: {"score", "lessons": [{"id", "passed", "total", "score", "tests": [...]}]}.
    Json,
    /// Gradescope's results.json: every lesson worth 10 points, one entry per test.
    Gradescope,
    /// What GitHub Classroom's grading reporter reads (to be base64-encoded).
    Classroom,
}

impl Format {
    /// Whether this is a platform's format, that is, an instructor grading others' code.
    pub fn is_instructors(self) -> bool {
        matches!(self, Format::Gradescope | Format::Classroom)
    }
}

impl GradingArgs {
    /// The lessons folder being graded: `--lessons-dir`, or the course's `lessons/`.
    pub fn lessons_dir(&self, course: &crate::course::Course) -> PathBuf {
        self.lessons_dir
            .clone()
            .unwrap_or_else(|| course.lessons_dir())
    }

    /// How messages name the lessons folder: as given with `--lessons-dir`, else `lessons`.
    pub fn lessons_label(&self) -> String {
        self.lessons_dir
            .as_ref()
            .map_or_else(|| "lessons".to_owned(), |dir| dir.display().to_string())
    }
}

impl LimitArgs {
    /// The grading options these limits describe.
    pub fn options(&self) -> anyhow::Result<crate::grade::Options> {
        let defaults = crate::grade::Options::default();
        let run_as = self
            .run_as
            .as_deref()
            .map(crate::process::Account::named)
            .transpose()?;
        Ok(crate::grade::Options {
            run_as,
            whole_stack: self.whole_stack,
            test_timeout: std::time::Duration::from_secs(self.test_timeout.max(1)),
            memory_bytes: self.memory_limit.max(64) << 20,
            build_timeout: std::time::Duration::from_secs(self.build_timeout.max(5)),
            build_memory_bytes: self.build_memory.max(256) << 20,
            jobs: self.jobs.unwrap_or(defaults.jobs).max(1),
            unsandboxed: self.unsandboxed,
            lesson_timeouts: self.lesson_timeouts.max(1),
            submission_timeouts: self.submission_timeouts.max(1),
            ..defaults
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command's and every argument's help text, by the ids its Chinese is looked up
    /// by, with the English.
    fn help_texts(
        command: &clap::Command,
        path: &str,
        out: &mut Vec<(Vec<String>, String)>,
    ) {
        out.push((
            vec![format!("cli-{path}-about")],
            command
                .get_about()
                .map(|about| about.to_string())
                .unwrap_or_default(),
        ));
        for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
            let ids = help_ids(path, arg).to_vec();
            let help = arg
                .get_help()
                .map(|help| help.to_string())
                .unwrap_or_default();
            out.push((ids, help));
        }
        for sub in command.get_subcommands() {
            help_texts(sub, sub.get_name(), out);
        }
    }

    /// The help pages of `command` and of each of its subcommands, short and long.
    fn help_pages(
        command: &mut clap::Command,
        path: &str,
        out: &mut Vec<(String, String)>,
    ) {
        out.push((format!("{path} -h"), command.render_help().to_string()));
        out.push((
            format!("{path} --help"),
            command.render_long_help().to_string(),
        ));
        let names: Vec<String> = command
            .get_subcommands()
            .map(|sub| sub.get_name().to_owned())
            .collect();
        for name in names {
            if let Some(sub) = command.find_subcommand_mut(&name) {
                help_pages(sub, &format!("{path} {name}"), out);
            }
        }
    }

    #[test]
    fn every_heading_of_every_help_page_has_something_under_it() {
        for lang in [Lang::En, Lang::ZhCn] {
            let mut pages = Vec::new();
            let mut command = command(lang);
            command.build();
            help_pages(&mut command, "checker", &mut pages);
            for (page, text) in pages {
                let empty = empty_headings(&text);
                assert!(
                    empty.is_empty(),
                    "`{page}` ({lang:?}) has the headings {empty:?} with nothing under them:\n{text}"
                );
            }
        }
    }

    /// The headings of a help page (`Limits:` at the start of a line) that no indented
    /// line follows before the next heading or the end.
    fn empty_headings(text: &str) -> Vec<&str> {
        let lines: Vec<&str> = text.lines().collect();
        lines
            .iter()
            .enumerate()
            .filter(|(_, line)| {
                !line.starts_with(' ')
                    && (line.ends_with(':') || line.ends_with('：'))
                    && !line.contains("  ")
            })
            .filter(|(at, _)| {
                let next = lines[at + 1..].iter().find(|l| !l.trim().is_empty());
                !next.is_some_and(|l| l.starts_with(' '))
            })
            .map(|(_, line)| *line)
            .collect()
    }

    #[test]
    fn an_empty_heading_is_found_at_the_end_and_before_another() {
        let page =
            "Options:\n  -h  help\n\nLimits:\n\nFor instructors:\n  --x  y\n限制：\n";
        assert_eq!(empty_headings(page), ["Limits:", "限制："]);
    }

    #[test]
    fn every_help_text_has_its_chinese_form() {
        let mut command = Cli::command();
        command.build();
        let mut texts = Vec::new();
        help_texts(&command, "checker", &mut texts);
        let missing: Vec<String> = texts
            .iter()
            .filter(|(ids, _)| !ids.iter().any(|id| CLI.has(Lang::ZhCn, id)))
            .map(|(ids, english)| format!("{} ({english})", ids.join(" or ")))
            .collect();
        assert!(missing.is_empty(), "cli.ftl lacks:\n{}", missing.join("\n"));
        for id in [
            "cli-template",
            "cli-heading-commands",
            "cli-heading-options",
        ] {
            assert!(CLI.has(Lang::ZhCn, id), "cli.ftl lacks {id}");
        }
    }

    /// Every command's and argument's English help, long form where there is one, by
    /// the id of the Chinese text that translates it.
    fn english_help(
        command: &clap::Command,
        path: &str,
        out: &mut std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    ) {
        let about = command
            .get_long_about()
            .or(command.get_about())
            .map(|about| about.to_string())
            .unwrap_or_default();
        out.entry(format!("cli-{path}-about"))
            .or_default()
            .insert(about);
        for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
            let Some(id) = help_ids(path, arg)
                .into_iter()
                .find(|id| CLI.has(Lang::ZhCn, id))
            else {
                continue;
            };
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(|help| help.to_string())
                .unwrap_or_default();
            out.entry(id).or_default().insert(help);
        }
        for sub in command.get_subcommands() {
            english_help(sub, sub.get_name(), out);
        }
    }

    #[test]
    fn every_chinese_help_text_translates_the_english_as_it_is_now() {
        let mut command = Cli::command();
        command.build();
        let mut texts = std::collections::BTreeMap::new();
        english_help(&command, "checker", &mut texts);
        // An id that serves several arguments translates all their English.
        let english = texts
            .into_iter()
            .map(|(id, texts)| (id, texts.into_iter().collect::<Vec<_>>().join("\n\n")))
            .collect();
        let path = std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/locales/zh-CN/cli.ftl"
        ));
        let chinese = std::fs::read_to_string(path).expect("cli.ftl reads");
        let problems = course_i18n::stamp::check(path, &chinese, &english);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_language_comes_from_lang_then_the_environment() {
        let args = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            language(&args(&["checker", "--lang", "zh-CN", "grade"])),
            Lang::ZhCn
        );
        assert_eq!(
            language(&args(&["checker", "grade", "--lang=zh_CN.UTF-8"])),
            Lang::ZhCn
        );
        assert_eq!(language(&args(&["checker", "--lang", "en"])), Lang::En);
    }

    #[test]
    fn the_chinese_help_is_chinese() {
        let mut command = command(Lang::ZhCn);
        let help = command.render_long_help().to_string();
        assert!(help.contains("用法"), "{help}");
        assert!(
            !help.contains("Usage:") && !help.contains("Options:"),
            "{help}"
        );
    }
}
