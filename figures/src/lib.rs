//! The book's charts, drawn as SVG text by the lessons' example programs.
//!
//! The figures of the book come from commands: each lesson's examples measure something
//! with the learner's code (or, for the book, the reference solutions) and draw it with
//! this crate. It writes SVG by hand, with no plotting library, so that it has nothing
//! to install and nothing between the numbers and the picture:
//!
//! - [`svg`] writes a document element by element, each attribute in the order given and
//!   each number either as Rust writes it or with a fixed number of decimals;
//! - [`bars`] draws bar charts (a histogram of scores);
//! - [`chart`] draws line charts: panels side by side, linear or logarithmic axes, grid,
//!   lines with markers, a legend;
//! - [`heatmap`] draws matrices as grids of coloured cells with their labels, and colour
//!   scales;
//! - [`colour`] holds the palette (Okabe and Ito's, which stays readable for colour-blind
//!   readers) and the colour maps;
//! - [`lang`] holds the languages a figure is drawn in (English, and Simplified Chinese
//!   for the book's translation);
//! - [`write()`] and [`write_in`] save a figure where the examples' figures go.
//!
//! # Deterministic
//!
//! A figure's bytes depend on its data and on nothing else: no clock, no random number,
//! no hash-map order, and every number is formatted explicitly (`fixed(x, 1)` is always
//! one decimal). `cargo xtask figures --check` relies on it: it redraws the book's
//! figures from the reference solutions and fails if a single byte differs from the
//! committed file. So a change here that alters a figure's text, even a number's
//! rounding or the order of two attributes, shows up as a changed figure; the
//! differences between the book's figures (sizes, offsets, which attribute comes first)
//! are the parameters of [`chart::ChartStyle`] and [`heatmap::Heatmap`].

pub mod bars;
pub mod chart;
pub mod colour;
pub mod heatmap;
pub mod lang;
pub mod svg;

pub use lang::{Lang, LangArgs};
use std::path::PathBuf;

/// Writes the figure `svg` as `name` in the figures folder (`target/figures/`, or
/// `COURSE_FIGURES_DIR`: see `course_common::output`) and returns its path. Panics,
/// naming the file, if it cannot be written.
pub fn write(name: &str, svg: &str) -> PathBuf {
    write_in(Lang::En, name, svg)
}

/// Writes the figure `svg`, drawn in `lang`, as `name`: an English figure in the figures
/// folder, as [`write()`] does, a Chinese one in its `zh-CN` folder, its document's font
/// families those of [`lang::FONT_FAMILY_ZH`]. Returns its path; panics, naming the file,
/// if it cannot be written.
pub fn write_in(lang: Lang, name: &str, svg: &str) -> PathBuf {
    let mut folder = course_common::output::figures_dir();
    if let Some(sub) = lang.folder() {
        folder = folder.join(sub);
        std::fs::create_dir_all(&folder)
            .unwrap_or_else(|err| panic!("could not create {}: {err}", folder.display()));
    }
    let path = folder.join(name);
    std::fs::write(&path, in_language(lang, svg))
        .unwrap_or_else(|err| panic!("could not write {}: {err}", path.display()));
    path
}

/// `svg` with the font families of `lang` on its root element (the first
/// `font-family` attribute, which [`svg::Svg::new`] writes).
pub fn in_language(lang: Lang, svg: &str) -> String {
    let english = format!(r#"font-family="{}""#, lang::FONT_FAMILY);
    let wanted = format!(r#"font-family="{}""#, lang.font_family());
    svg.replacen(&english, &wanted, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::Svg;

    #[test]
    fn a_chinese_figure_names_the_chinese_fonts_and_an_english_one_is_unchanged() {
        let mut svg = Svg::new(10, 10, 12);
        svg.text(1, 2)
            .attr("font-family", lang::FONT_FAMILY)
            .text("注意力");
        let text = svg.finish();
        assert_eq!(in_language(Lang::En, &text), text);
        let chinese = in_language(Lang::ZhCn, &text);
        let root = chinese.lines().next().unwrap();
        assert!(root.contains(&format!(r#"font-family="{}""#, lang::FONT_FAMILY_ZH)));
        // Only the root's: an element's own font-family stays.
        assert_eq!(chinese.matches(lang::FONT_FAMILY_ZH).count(), 1);
    }
}
