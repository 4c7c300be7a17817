#!/usr/bin/env python3
"""Writes the book's CJK web font: Noto Sans CJK SC, cut down to the characters the book uses.

    python3 book/fonts/subset.py NotoSansCJK-Regular.ttc

Readers without a Chinese font (many Linux machines, every headless browser) would see boxes
for the Chinese edition and for the Chinese quotes of the English one. The book therefore
carries its own font: book/src/fonts/cjk-subset.woff2, the Simplified Chinese face of Noto
Sans CJK (SIL Open Font License 1.1; Debian's fonts-noto-cjk ships the .ttc) limited to the
CJK characters of book/src/ and book/po/zh-CN.po and those the figures draw (each figure that
shows Chinese embeds the subset of this font it uses, cut by cargo xtask figures), and
book/src/fonts/cjk-subset.txt, the characters it holds. check/check_cjk_font.py fails the book when a page uses a CJK character
the font lacks: then run this again. Needs fontTools and brotli (pip install fonttools
brotli), for maintainers only.
"""
import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

BOOK = pathlib.Path(__file__).resolve().parent.parent
OUT = BOOK / "src" / "fonts"
sys.path.insert(0, str(BOOK / "check"))
from check_cjk_font import book_cjk_characters  # noqa: E402


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    chars = book_cjk_characters(BOOK)
    collection = TTCollection(source)
    face = next(f for f in collection.fonts if f["name"].getDebugName(1) == "Noto Sans CJK SC")
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_legacy = True
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(face)
    OUT.mkdir(parents=True, exist_ok=True)
    face.flavor = "woff2"
    face.save(OUT / "cjk-subset.woff2")
    (OUT / "cjk-subset.txt").write_text("".join(sorted(chars)) + "\n", encoding="utf-8")
    print(f"{len(chars)} characters, {(OUT / 'cjk-subset.woff2').stat().st_size} bytes")


if __name__ == "__main__":
    main()
