#!/usr/bin/env python3
"""Fails when the book uses a CJK character its web font (src/fonts/cjk-subset.woff2) lacks.

Its pages use it, and so do its figures: each figure that shows Chinese embeds the subset of
this font it draws (cargo xtask figures cuts it), so the font holds the figures' characters
too.

    python3 book/check/check_cjk_font.py

The characters the font holds are listed in src/fonts/cjk-subset.txt (fonts/subset.py writes
both). Standard library only.
"""
import pathlib
import re
import sys

# CJK ideographs and their punctuation: what Open Sans and the code font do not have.
CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


# What a figure's fonts never draw: comments (the embedded font's own), titles and
# descriptions (read by screen readers), and the embedded font.
NOT_DRAWN = re.compile(r"<!--.*?-->|<title>.*?</title>|<desc>.*?</desc>|<style>.*?</style>", re.S)


def figure_cjk_characters(svg):
    """The CJK characters an SVG figure draws (as cargo xtask figures counts them)."""
    return set(CJK.findall(NOT_DRAWN.sub("", svg)))


def book_cjk_characters(book):
    """Every CJK character of the English source, of the Chinese translation and of the
    figures (whose embedded fonts cargo xtask figures cuts from this one)."""
    chars = set()
    for path in list((book / "src").rglob("*.md")) + list((book / "po").glob("*.po")):
        chars.update(CJK.findall(path.read_text(encoding="utf-8")))
    for path in (book / "src" / "figures").rglob("*.svg"):
        chars.update(figure_cjk_characters(path.read_text(encoding="utf-8")))
    chars.update(CJK.findall("用 Rust 构建 Transformer 中文"))  # the edition's title, the switcher
    return chars


def main():
    book = pathlib.Path(__file__).resolve().parent.parent
    held = set((book / "src" / "fonts" / "cjk-subset.txt").read_text(encoding="utf-8").strip())
    missing = sorted(book_cjk_characters(book) - held)
    if missing:
        print(f"check_cjk_font: the book's CJK font lacks {len(missing)} character(s) the book "
              f"uses ({''.join(missing[:40])}): run book/fonts/subset.py", file=sys.stderr)
        return 1
    print(f"check_cjk_font: ok ({len(held)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
