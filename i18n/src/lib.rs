//! The course's languages: every message the checker and the graded tests show a person
//! exists in English and in Simplified Chinese, in [Project Fluent] files.
//!
//! Each part of the course that speaks keeps its messages beside its code, one file per
//! language with the same message ids:
//!
//! ```text
//! checker/locales/en/checker.ftl        checker/locales/zh-CN/checker.ftl
//! harness/locales/en/harness.ftl        harness/locales/zh-CN/harness.ftl
//! solutions/NN/suite/locales/en/suite.ftl …
//! ```
//!
//! and reads them through a [`Catalog`], usually with the [`tr!`] macro:
//!
//! ```
//! use course_i18n::{Catalog, Lang, tr};
//! static MESSAGES: Catalog = Catalog::new(
//!     "example",
//!     "row-sum = row { $row } sums to { $sum }\n",
//!     "row-sum = 第 { $row } 行的和是 { $sum }\n",
//! );
//! assert_eq!(tr!(MESSAGES, "row-sum", row = 2, sum = "1.37"), "row 2 sums to 1.37");
//! assert_eq!(
//!     MESSAGES.tr_in(Lang::ZhCn, "row-sum", &[("row", 2.into()), ("sum", "1.37".into())]),
//!     "第 2 行的和是 1.37"
//! );
//! ```
//!
//! The language is chosen once per process ([`set_current`]); the checker passes it to the
//! programs it starts (the judge of the graded tests) in the environment variable
//! [`LANG_VAR`]. A message missing in Chinese falls back to English; the completeness test
//! (`tests/complete.rs`) makes sure none is missing, and [`stamp`] that none translates
//! an English that has changed since.
//!
//! Arguments are strings or integers. Floats are formatted by the caller (`{:.4}`), so that
//! a number reads the same in both languages and Fluent's number formatting never rounds
//! it differently.
//!
//! [Project Fluent]: https://projectfluent.org

pub mod stamp;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::borrow::Cow;
use std::sync::OnceLock;
use unic_langid::LanguageIdentifier;

/// The environment variable that carries the language to the programs the checker starts.
pub const LANG_VAR: &str = "COURSE_LANG";

/// A language the course speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, the course's source language and the fallback.
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The language's tag, as `--lang` takes it and the locale folders are named.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// Reads a language tag or a POSIX locale name: `en`, `en-US`, `zh-CN`, `zh`,
    /// `zh_CN.UTF-8`, `zh-Hans`. Traditional Chinese (`zh-TW`, `zh-HK`, `zh-Hant`) and
    /// other languages are not spoken by the course: `None`.
    pub fn parse(text: &str) -> Option<Lang> {
        // A POSIX locale: language_TERRITORY.codeset@modifier.
        let name = text.split(['.', '@']).next().unwrap_or_default();
        let name = name.replace('_', "-").to_ascii_lowercase();
        let mut parts = name.split('-');
        match parts.next()? {
            "en" | "c" | "posix" => Some(Lang::En),
            "zh" => match parts.next() {
                None | Some("cn" | "sg" | "hans") => Some(Lang::ZhCn),
                Some(_) => None,
            },
            _ => None,
        }
    }

    /// The language of the environment's locale: the first set of `LC_ALL`, `LC_MESSAGES`
    /// and `LANG`, as POSIX orders them; English when none names a language the course
    /// speaks.
    pub fn from_locale() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|var| std::env::var(var).ok())
            .find(|value| !value.is_empty())
            .and_then(|value| Lang::parse(&value))
            .unwrap_or(Lang::En)
    }

    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::ZhCn => 1,
        }
    }
}

static CURRENT: OnceLock<Lang> = OnceLock::new();

/// Chooses this process's language. Only the first call counts; call it before any message
/// is formatted.
pub fn set_current(lang: Lang) {
    let _ = CURRENT.set(lang);
}

/// This process's language: what [`set_current`] chose, or else what [`LANG_VAR`] names
/// (the checker sets it for the judge), or else English.
pub fn current() -> Lang {
    *CURRENT.get_or_init(|| {
        std::env::var(LANG_VAR)
            .ok()
            .and_then(|tag| Lang::parse(&tag))
            .unwrap_or(Lang::En)
    })
}

/// An argument of a message: a string or an integer (integers choose plural forms).
#[derive(Debug, Clone)]
pub struct Arg(FluentValue<'static>);

impl From<String> for Arg {
    fn from(value: String) -> Self {
        Arg(FluentValue::String(Cow::Owned(value)))
    }
}

impl From<&String> for Arg {
    fn from(value: &String) -> Self {
        Arg::from(value.clone())
    }
}

impl From<&str> for Arg {
    fn from(value: &str) -> Self {
        Arg::from(value.to_owned())
    }
}

macro_rules! integer_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(value: $t) -> Self {
                Arg(FluentValue::from(value))
            }
        }
    )*};
}
integer_args!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// The messages of one part of the course, in every language.
pub struct Catalog {
    name: &'static str,
    sources: [&'static str; 2],
    bundles: OnceLock<[FluentBundle<FluentResource>; 2]>,
}

impl Catalog {
    /// A catalog named `name` (for error messages) from the text of its English and its
    /// Simplified Chinese Fluent files, usually `include_str!`ed. They are parsed on first
    /// use.
    pub const fn new(
        name: &'static str,
        en: &'static str,
        zh_cn: &'static str,
    ) -> Catalog {
        Catalog {
            name,
            sources: [en, zh_cn],
            bundles: OnceLock::new(),
        }
    }

    /// The catalog's name, as given to [`Catalog::new`].
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The Fluent source of one language.
    pub fn source(&self, lang: Lang) -> &'static str {
        self.sources[lang.index()]
    }

    fn bundles(&self) -> &[FluentBundle<FluentResource>; 2] {
        self.bundles.get_or_init(|| {
            Lang::ALL.map(|lang| {
                let id: LanguageIdentifier =
                    lang.tag().parse().expect("the course's tags are valid");
                let mut bundle = FluentBundle::new_concurrent(vec![id]);
                // Terminals show Unicode isolation marks as stray characters.
                bundle.set_use_isolating(false);
                // A file that does not parse keeps the messages that do: the completeness
                // test fails on the rest, and grading is never stopped by a typo.
                let resource = match FluentResource::try_new(self.source(lang).to_owned())
                {
                    Ok(resource) | Err((resource, _)) => resource,
                };
                bundle.add_resource(resource).unwrap_or_else(|_| {
                    panic!("{}: a message id is defined twice", self.name)
                });
                bundle
            })
        })
    }

    /// Whether the message `id` exists in `lang`.
    pub fn has(&self, lang: Lang, id: &str) -> bool {
        self.bundles()[lang.index()]
            .get_message(id)
            .is_some_and(|message| message.value().is_some())
    }

    /// The message `id` in this process's language ([`current`]).
    pub fn tr(&self, id: &str, args: &[(&str, Arg)]) -> String {
        self.tr_in(current(), id, args)
    }

    /// The message `id` in `lang`, or in English when `lang` lacks it, or `[catalog:id]`
    /// when English lacks it too (the completeness test fails on both).
    pub fn tr_in(&self, lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, Arg(value)) in args {
            fluent_args.set(*name, value.clone());
        }
        for lang in [lang, Lang::En] {
            let bundle = &self.bundles()[lang.index()];
            let Some(pattern) =
                bundle.get_message(id).and_then(|message| message.value())
            else {
                continue;
            };
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            return text.into_owned();
        }
        format!("[{}:{id}]", self.name)
    }
}

/// Formats a message of a [`Catalog`] in this process's language:
/// `tr!(CATALOG, "message-id", name = value, …)`, each value a string or an integer.
#[macro_export]
macro_rules! tr {
    ($catalog:expr, $id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $catalog.tr($id, &[$((stringify!($name), $crate::Arg::from($value))),*])
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    static TEST: Catalog = Catalog::new(
        "test",
        "tests = { $count ->\n    [one] one test\n   *[other] { $count } tests\n}\nonly-en = English only\n",
        "tests = { $count } 个测试\n",
    );

    #[test]
    fn tags_and_locales_name_the_course_s_languages() {
        assert_eq!(Lang::parse("zh_CN.UTF-8"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh-Hans"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh_TW.UTF-8"), None);
        assert_eq!(Lang::parse("en_GB.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::parse("C.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::parse("fr_FR"), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::parse(lang.tag()), Some(lang));
        }
    }

    #[test]
    fn plurals_follow_the_language_and_missing_messages_fall_back_to_english() {
        assert_eq!(
            TEST.tr_in(Lang::En, "tests", &[("count", 1.into())]),
            "one test"
        );
        assert_eq!(
            TEST.tr_in(Lang::En, "tests", &[("count", 3.into())]),
            "3 tests"
        );
        assert_eq!(
            TEST.tr_in(Lang::ZhCn, "tests", &[("count", 3.into())]),
            "3 个测试"
        );
        assert_eq!(TEST.tr_in(Lang::ZhCn, "only-en", &[]), "English only");
        assert_eq!(TEST.tr_in(Lang::ZhCn, "nowhere", &[]), "[test:nowhere]");
        assert!(TEST.has(Lang::En, "only-en") && !TEST.has(Lang::ZhCn, "only-en"));
    }
}
