//! The language of a figure's words: English, the book's, or Simplified Chinese, its
//! translation's.
//!
//! A figure program takes `--lang` (`en`, `zh-CN`, or both: `--lang en,zh-CN`) and draws
//! its figure once per language from the same numbers, its words picked with
//! [`Lang::pick`]; [`crate::write_in`] puts the Chinese figure in the `zh-CN` folder
//! beside the English one, under the same name, and gives it the font families that hold
//! Chinese.
//!
//! ```
//! use course_figures::Lang;
//!
//! let lang: Lang = "zh-CN".parse().unwrap();
//! assert_eq!(lang.pick("Attention weights", "注意力权重"), "注意力权重");
//! assert_eq!(Lang::En.folder(), None);
//! assert_eq!(lang.folder(), Some("zh-CN"));
//! ```

use std::fmt;
use std::str::FromStr;

/// The text of every figure: Helvetica or Arial, which most systems have, else the
/// system's sans-serif.
pub const FONT_FAMILY: &str = "Helvetica, Arial, sans-serif";

/// The text of a Chinese figure: Latin letters and digits as in [`FONT_FAMILY`], Chinese
/// characters in Noto Sans CJK SC. The book's figures embed the subset of it they use
/// (`cargo xtask figures` adds it); elsewhere the system's Chinese fonts stand in.
pub const FONT_FAMILY_ZH: &str = "Helvetica, Arial, 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', 'WenQuanYi Zen Hei', sans-serif";

/// A language the figures are drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    /// English, the book's language (`en`).
    En,
    /// Simplified Chinese, the translation's (`zh-CN`).
    ZhCn,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The language's tag: `en` or `zh-CN`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The English text or the Chinese one.
    pub fn pick<'a>(self, en: &'a str, zh: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::ZhCn => zh,
        }
    }

    /// The folder of the figures folder that holds this language's figures: none for
    /// English (the figures folder itself), `zh-CN` for Chinese.
    pub fn folder(self) -> Option<&'static str> {
        match self {
            Lang::En => None,
            Lang::ZhCn => Some("zh-CN"),
        }
    }

    /// The font families of this language's figures.
    pub fn font_family(self) -> &'static str {
        self.pick(FONT_FAMILY, FONT_FAMILY_ZH)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;

    /// `en` or `zh-CN` (in any case; `zh` too).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "en" => Ok(Lang::En),
            "zh-cn" | "zh" => Ok(Lang::ZhCn),
            _ => Err(format!(
                "no figures in `{text}`: the languages are `en` and `zh-CN`"
            )),
        }
    }
}

/// The languages of a figure program's `--lang` arguments, each once, English first;
/// English when there are none.
pub fn languages(asked: &[Lang]) -> Vec<Lang> {
    let mut langs: Vec<Lang> = Lang::ALL
        .into_iter()
        .filter(|l| asked.contains(l))
        .collect();
    if langs.is_empty() {
        langs.push(Lang::En);
    }
    langs
}

/// The `--lang` option of every figure program, one definition for all of them: add it to
/// a program's arguments with `#[command(flatten)] lang: LangArgs`.
#[derive(Debug, Clone, clap::Args)]
pub struct LangArgs {
    /// The figure's languages: en, zh-CN, or both (en,zh-CN).
    #[arg(
        long = "lang",
        value_name = "LANG",
        value_delimiter = ',',
        default_value = "en"
    )]
    pub langs: Vec<Lang>,
}

impl LangArgs {
    /// The languages asked for, each once, English first ([`languages`]).
    pub fn languages(&self) -> Vec<Lang> {
        languages(&self.langs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse_and_print() {
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
            assert_eq!(lang.to_string(), lang.code());
        }
        assert_eq!("ZH-cn".parse::<Lang>(), Ok(Lang::ZhCn));
        assert!("fr".parse::<Lang>().unwrap_err().contains("`zh-CN`"));
    }

    #[test]
    fn the_languages_asked_are_each_drawn_once() {
        assert_eq!(languages(&[]), vec![Lang::En]);
        assert_eq!(
            languages(&[Lang::ZhCn, Lang::En, Lang::ZhCn]),
            vec![Lang::En, Lang::ZhCn]
        );
    }
}
