#!/usr/bin/env python3
"""Keeps the book's TeX intact through the translation step.

mdBook preprocessor, in three modes (book.toml runs the first two around the gettext
preprocessor, the third after KaTeX):

    math_guard.py protect    every math span, \\( ... \\) or \\[ ... \\], becomes an inline
                             code span holding it: `\\( ... \\)`
    math_guard.py restore    every such code span becomes the math span again (and what
                             looks like math outside them, escaped brackets the translation
                             step wrote, becomes plain brackets)
    math_guard.py annotations  the TeX KaTeX keeps in its MathML is left out, so that
                             Markdown does not read it as emphasis nor search index it

The translation workflow (mdbook-i18n-helpers) parses each chapter as Markdown and writes
it back, which would take a backslash escape `\\(` for a plain parenthesis and escape every
`_` and `*` of the TeX. A code span survives that unchanged, so the TeX reaches KaTeX as it
was written, in the English edition and in the translated one, and translators see it
whole in their messages. po/extract.sh runs the `protect` mode before extracting, so the
messages hold the same code spans. Fenced code blocks and existing code spans are left as
they are. Needs only the Python standard library.
"""
import json
import re
import sys

# A fenced code block (``` or ~~~), an inline code span, or a math span.
TOKEN = re.compile(
    r"(?P<fence>^[ \t]*(?P<ticks>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=ticks)[ \t]*$)"
    r"|(?P<code>(?P<run>`+)(?P<body>.+?)(?<!`)(?P=run)(?!`))"
    r"|(?P<math>\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\])",
    re.S | re.M,
)


def code_span(text):
    """`text` as an inline code span, with a fence longer than any backtick run in it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence}{text}{fence}"


def protect(markdown):
    def replace(match):
        if match.group("math") is None:
            return match.group(0)
        return code_span(match.group("math"))

    return TOKEN.sub(replace, markdown)


# Escaped brackets and parentheses, written as character references.
ESCAPED_SIGNS = {"\\(": "&#40;", "\\)": "&#41;", "\\[": "&#91;", "\\]": "&#93;"}


def restore(markdown):
    def replace(match):
        if match.group("math") is not None:
            # All the math is in code spans here, so this is text the translation step
            # wrote with escaped brackets (plain `[SEP]` comes back as `\[SEP\]`): keep
            # KaTeX from reading it as a formula.
            text = match.group(0)
            for escaped, reference in ESCAPED_SIGNS.items():
                text = text.replace(escaped, reference)
            return text
        body = match.group("body")
        if match.group("code") is None or body is None:
            return match.group(0)
        inner = body.strip(" ") if body.startswith(" ") and body.endswith(" ") else body
        if (inner.startswith("\\(") and inner.endswith("\\)")) or (
            inner.startswith("\\[") and inner.endswith("\\]")
        ):
            return inner
        return match.group(0)

    return TOKEN.sub(replace, markdown)


# The TeX that KaTeX keeps, for screen readers and copying, in each formula's MathML.
ANNOTATION = re.compile(r'(<annotation encoding="application/x-tex">)(.*?)(</annotation>)', re.S)

def annotations(markdown):
    """KaTeX's output keeps each formula's TeX as text in its MathML. Markdown would read
    its `_` and `*` as emphasis (and break the HTML), and both editions' search indexes
    would hold it as words. Readers and screen readers use the rendering and the MathML,
    not this copy of the source, so it is left out."""
    return ANNOTATION.sub("", markdown)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "supports":
        return 0
    if len(sys.argv) >= 3 and sys.argv[2] == "supports":
        return 0  # every renderer
    mode = {"protect": protect, "restore": restore, "annotations": annotations}[sys.argv[1]]
    _context, book = json.load(sys.stdin)

    def walk(items):
        for item in items:
            chapter = item.get("Chapter") if isinstance(item, dict) else None
            if chapter:
                chapter["content"] = mode(chapter["content"])
                walk(chapter.get("sub_items", []))

    walk(book.get("items", book.get("sections", [])))
    json.dump(book, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
