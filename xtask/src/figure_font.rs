//! Every figure of the book that shows Chinese carries the font it needs.
//!
//! A figure reaches the reader through `<img>`, which cannot use the page's fonts: on a
//! machine without a Chinese font its Chinese would be boxes. So each such figure embeds
//! the subset of the book's CJK font that it uses: `book/src/fonts/cjk-subset.woff2`
//! (Noto Sans CJK SC, SIL Open Font License 1.1, made by `book/fonts/subset.py`) cut down
//! to the figure's own characters, as WOFF2 in a `data:` URI of an `@font-face` rule, one
//! `<style>` line after the root element with a comment naming the font and its licence.
//! The root's `font-family` names the face (`Noto Sans CJK SC`) after the Latin ones, so
//! that Latin text looks as in the English figures and Chinese text takes the embedded
//! face.
//!
//! [`embed`] is a function of the figure's text alone (it replaces any font it embedded
//! before): the subset (allsorts), its WOFF2 compression (ttf2woff2, Brotli with portable
//! floating point) and base64 are byte-for-byte the same on every run, so `cargo xtask
//! figures --check` can compare figures with embedded fonts as it compares the others.

use allsorts::binary::read::ReadScope;
use allsorts::font::{Font, MatchingPresentation};
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile, subset};
use anyhow::{Context, Result, anyhow, bail};
use base64::Engine;
use std::collections::BTreeSet;
use std::path::Path;

/// The face the figures name and embed.
pub const FACE: &str = "Noto Sans CJK SC";

/// The book's CJK font, relative to the repository's root: the source of every subset.
pub const SOURCE: &str = "book/src/fonts/cjk-subset.woff2";

/// The start of the comment line before an embedded font.
const COMMENT: &str = "<!-- Font: ";

/// The start of the line that embeds the font.
const STYLE: &str = "<style>@font-face";

/// Whether `c` is a CJK character: ideographs, their punctuation and full-width forms
/// (the ranges of `book/check/check_cjk_font.py`).
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{2e80}'..='\u{2fdf}'
        | '\u{3000}'..='\u{303f}'
        | '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}'
        | '\u{ff00}'..='\u{ffef}')
}

/// `svg` without the font a previous [`embed`] added.
fn without_font(svg: &str) -> String {
    svg.split_inclusive('\n')
        .filter(|line| {
            let line = line.trim_start();
            !line.starts_with(COMMENT) && !line.starts_with(STYLE)
        })
        .collect()
}

/// The CJK characters `svg` draws: those of its text, not of its comments, `<title>` or
/// `<desc>` (which no font of the figure draws), each once, in order.
pub fn drawn_characters(svg: &str) -> BTreeSet<char> {
    let mut text = without_font(svg);
    for (open, close) in [
        ("<!--", "-->"),
        ("<title>", "</title>"),
        ("<desc>", "</desc>"),
    ] {
        while let Some(start) = text.find(open) {
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |e| start + e + close.len());
            text.replace_range(start..end, "");
        }
    }
    text.chars().filter(|&c| is_cjk(c)).collect()
}

/// The source font's subset holding `chars` (and the missing-glyph glyph), as WOFF2.
fn subset_woff2(source: &[u8], chars: &BTreeSet<char>) -> Result<Vec<u8>> {
    let scope = ReadScope::new(source);
    let data = scope
        .read::<FontData<'_>>()
        .map_err(|e| anyhow!("{SOURCE} is not a font: {e}"))?;
    let provider = data
        .table_provider(0)
        .map_err(|e| anyhow!("{SOURCE} has no font: {e}"))?;
    let mut font = Font::new(provider).map_err(|e| anyhow!("{SOURCE}: {e}"))?;
    let mut glyphs = vec![0u16];
    let mut missing = String::new();
    for &c in chars {
        let (glyph, _) =
            font.lookup_glyph_index(c, MatchingPresentation::NotRequired, None);
        if glyph == 0 {
            missing.push(c);
        } else if !glyphs.contains(&glyph) {
            glyphs.push(glyph);
        }
    }
    if !missing.is_empty() {
        bail!(
            "the book's CJK font ({SOURCE}) lacks {missing}: run book/fonts/subset.py, which \
             takes the figures' characters too"
        );
    }
    let otf = subset(
        &font.font_table_provider,
        &glyphs,
        &SubsetProfile::Minimal,
        CmapTarget::Unicode,
    )
    .map_err(|e| anyhow!("subsetting {SOURCE}: {e}"))?;
    ttf2woff2::encode(&otf, ttf2woff2::BrotliQuality::default())
        .map_err(|e| anyhow!("compressing the subset of {SOURCE}: {e}"))
}

/// `svg` carrying the subset of `source` (the book's CJK font) that its Chinese text
/// needs, in place of any font it carried; `svg` as it is (less any font) if it draws no
/// CJK character. Fails if the root's `font-family` does not name [`FACE`].
pub fn embed(svg: &str, source: &[u8]) -> Result<String> {
    let plain = without_font(svg);
    let chars = drawn_characters(&plain);
    if chars.is_empty() {
        return Ok(plain);
    }
    let root_end = plain.find('\n').context("an SVG document of one line")?;
    let root = &plain[..root_end];
    if !root.starts_with("<svg") || !root.contains(FACE) {
        bail!(
            "its first line must be the <svg> element, whose font-family names '{FACE}' \
             after the Latin fonts"
        );
    }
    let woff2 = subset_woff2(source, &chars)?;
    let data = base64::engine::general_purpose::STANDARD.encode(woff2);
    let list: String = chars.iter().collect();
    let comment = format!(
        "  {COMMENT}{FACE}, the {} characters of this figure ({list}): Copyright © \
         2014-2021 Adobe, SIL Open Font License 1.1 (the book's fonts/LICENSE). Written by \
         cargo xtask figures. -->\n",
        chars.len()
    );
    let style = format!(
        "  {STYLE} {{ font-family: '{FACE}'; src: url(data:font/woff2;base64,{data}) \
         format('woff2'); }}</style>\n"
    );
    Ok(format!(
        "{}\n{comment}{style}{}",
        root,
        &plain[root_end + 1..]
    ))
}

/// Embeds the font in every SVG file under `folder` that draws CJK characters (and
/// removes it from those that no longer do); returns how many carry one.
pub fn embed_all(root: &Path, folder: &Path) -> Result<usize> {
    let source = std::fs::read(root.join(SOURCE))
        .with_context(|| format!("reading the book's CJK font, {SOURCE}"))?;
    let mut carrying = 0;
    for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "svg") {
            continue;
        }
        let svg = std::fs::read_to_string(path)
            .with_context(|| format!("reading {}", path.display()))?;
        let embedded =
            embed(&svg, &source).with_context(|| format!("{}", path.display()))?;
        if !drawn_characters(&embedded).is_empty() {
            carrying += 1;
        }
        if embedded != svg {
            std::fs::write(path, embedded)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(carrying)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    const FIGURE: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Helvetica, Arial, 'Noto Sans CJK SC', sans-serif\">\n  <title>注意力</title>\n  <text x=\"1\" y=\"2\">猫追狗 (cat)</text>\n  <!-- 我 -->\n  <text x=\"1\" y=\"4\">狗追猫。</text>\n</svg>\n";

    #[test]
    fn only_the_drawn_characters_count() {
        let chars: String = drawn_characters(FIGURE).into_iter().collect();
        assert_eq!(chars, "。狗猫追");
    }

    #[test]
    fn a_figure_carries_its_subset_once_and_the_same_bytes_every_time() {
        let source = std::fs::read(root().join(SOURCE)).unwrap();
        let once = embed(FIGURE, &source).unwrap();
        assert_eq!(once.matches(STYLE).count(), 1);
        assert!(once.contains("the 4 characters of this figure (。狗猫追)"));
        // "wOF2", the signature of a WOFF2 file.
        assert!(once.contains("url(data:font/woff2;base64,d09GM"));
        assert_eq!(embed(&once, &source).unwrap(), once);
        assert_eq!(without_font(&once), FIGURE);
        // The subset holds the four characters: allsorts reads them back from it.
        let start = once.find("base64,").unwrap() + 7;
        let end = once[start..].find(')').unwrap() + start;
        let woff2 = base64::engine::general_purpose::STANDARD
            .decode(&once[start..end])
            .unwrap();
        let scope = ReadScope::new(&woff2);
        let data = scope.read::<FontData<'_>>().unwrap();
        let mut font = Font::new(data.table_provider(0).unwrap()).unwrap();
        for c in "猫追狗。".chars() {
            let (glyph, _) =
                font.lookup_glyph_index(c, MatchingPresentation::NotRequired, None);
            assert_ne!(glyph, 0, "{c}");
        }
        let (glyph, _) =
            font.lookup_glyph_index('我', MatchingPresentation::NotRequired, None);
        assert_eq!(glyph, 0, "a character only a comment shows is left out");
    }

    #[test]
    fn figures_without_chinese_are_left_alone_and_a_face_must_be_named() {
        let source = std::fs::read(root().join(SOURCE)).unwrap();
        let english = "<svg font-family=\"Helvetica\">\n  <text>cat</text>\n</svg>\n";
        assert_eq!(embed(english, &source).unwrap(), english);
        let unnamed = FIGURE.replace("'Noto Sans CJK SC', ", "");
        assert!(
            embed(&unnamed, &source)
                .unwrap_err()
                .to_string()
                .contains("font-family")
        );
    }
}
