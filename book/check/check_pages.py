#!/usr/bin/env python3
"""Checks the built book's pages for what a reader would see as broken.

    python3 book/check/check_pages.py [BUILD_DIR]      (default: book/build)

Fails (exit status 1, one line per problem) if any page of the built book has

- raw TeX outside code and outside typeset math: a literal \\( \\) \\[ \\] or $$, or a TeX
  command such as \\frac, in the text a reader sees (math that KaTeX did not typeset);
- a KaTeX error (`katex-error`: TeX that KaTeX could not parse);
- an unresolved mdBook directive such as {{#include ...}};
- an empty code block (what an {{#include file:anchor}} with a misspelt anchor gives), or a
  code block that shows ANCHOR / ANCHOR_END markers;
- an <img> without alt text, or whose file does not exist;
- a stylesheet, script, font, image or other resource loaded from the network (http:,
  https: or //host), a known CDN host anywhere in the pages' tags, scripts or styles, or a
  local resource (including a CSS url(), such as KaTeX's fonts) that does not exist;
- typeset math on a page that does not link a local KaTeX stylesheet;
- a link to another page of the book, or to a #fragment, that does not exist.

Standard library only; runs offline, in well under a second for a book of this size.
Exit status: 0 all good, 1 problems found, 2 usage error.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Hosts that serve libraries, stylesheets and fonts. A book that must work offline loads
# nothing from any of them.
CDN_HOSTS = (
    "cdn.jsdelivr.net",
    "unpkg.com",
    "cdnjs.cloudflare.com",
    "ajax.googleapis.com",
    "fonts.googleapis.com",
    "fonts.gstatic.com",
    "code.jquery.com",
    "stackpath.bootstrapcdn.com",
    "maxcdn.bootstrapcdn.com",
    "cdn.mathjax.org",
    "polyfill.io",
    "cdn.skypack.dev",
    "esm.sh",
    "use.fontawesome.com",
    "kit.fontawesome.com",
    "cdn.tailwindcss.com",
)
CDN_RE = re.compile(
    r"(?:https?:)?//(?:[\w-]+\.)*(?:"
    + "|".join(re.escape(h) for h in CDN_HOSTS)
    + r"|[\w-]*cdn[\w-]*\.[\w.-]+)(?=[/:\"'\s)]|$)",
    re.IGNORECASE,
)

# What raw (untypeset) TeX looks like in a reader's text.
RAW_TEX_RE = re.compile(r"\\[()\[\]]|\$\$|\\(?:[A-Za-z]{2,}|[,;!])")
DIRECTIVE_RE = re.compile(r"\{\{#\s*[A-Za-z_]+")
ANCHOR_RE = re.compile(r"\bANCHOR(?:_END)?:")
CSS_URL_RE = re.compile(r"url\(\s*(['\"]?)([^'\")]+)\1\s*\)|@import\s+(['\"])([^'\"]+)\3")

VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
}
# Elements whose text is not prose: raw TeX there is fine (code) or expected (KaTeX's
# MathML annotation).
SKIP_TAGS = {"code", "pre", "script", "style", "textarea", "math", "annotation", "kbd", "samp"}
# Attributes that make the browser fetch something, per tag.
RESOURCE_ATTRS = {
    "img": ("src", "srcset"),
    "script": ("src",),
    "link": ("href",),
    "source": ("src", "srcset"),
    "iframe": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "track": ("src",),
    "input": ("src",),
}


def is_remote(url: str) -> bool:
    return bool(re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", url, re.IGNORECASE))


def is_special(url: str) -> bool:
    """data:, mailto:, javascript: and the like: nothing to fetch from disk or network."""
    return bool(re.match(r"^(?:data|mailto|javascript|tel|about|blob):", url, re.IGNORECASE))


def local_target(base: Path, url: str) -> Path:
    path = unquote(urlsplit(url).path)
    return (base / path) if not path.startswith("/") else Path(path)


class Page(HTMLParser):
    """Collects what the checks need from one page in a single pass."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, text below it is not prose)
        self.prose: list[tuple[int, str]] = []  # (line, text)
        self.resources: list[tuple[int, str, str, str]] = []  # (line, tag, attr, url)
        self.images: list[tuple[int, dict[str, str | None]]] = []
        self.links: list[tuple[int, str]] = []
        self.ids: set[str] = set()
        self.tag_text: list[tuple[int, str]] = []  # attribute values of non-<a> tags
        self.inline: list[tuple[int, str]] = []  # inline <script> and <style> bodies
        self.code_blocks: list[tuple[int, str]] = []  # text of each <pre>
        self.katex_errors: list[int] = []
        self.has_math = False
        self.stylesheets: list[str] = []
        self._pre: list[str] | None = None
        self._pre_line = 0
        self._inline_tag: str | None = None

    def _skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, closes=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, closes=True)

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], closes: bool) -> None:
        line = self.getpos()[0]
        a = {k: v for k, v in attrs}
        classes = (a.get("class") or "").split()
        if "id" in a and a["id"]:
            self.ids.add(a["id"])
        if "name" in a and a["name"] and tag == "a":
            self.ids.add(a["name"])
        if any(c.startswith("katex") for c in classes):
            self.has_math = True
        if "katex-error" in classes:
            self.katex_errors.append(line)
        if tag == "a":
            if a.get("href"):
                self.links.append((line, a["href"]))
        else:
            for key, value in attrs:
                if value and key not in ("alt", "title", "aria-label", "content", "xmlns"):
                    self.tag_text.append((line, value))
        for attr in RESOURCE_ATTRS.get(tag, ()):
            value = a.get(attr)
            if not value:
                continue
            urls = [p.strip().split()[0] for p in value.split(",") if p.strip()] if attr == "srcset" else [value]
            for url in urls:
                self.resources.append((line, tag, attr, url))
        if tag == "img":
            self.images.append((line, a))
        if tag == "link" and "stylesheet" in (a.get("rel") or "").lower().split() and a.get("href"):
            self.stylesheets.append(a["href"])
        if tag == "pre":
            self._pre, self._pre_line = [], line
        if tag in ("script", "style") and not closes:
            self._inline_tag = tag
        if closes or tag in VOID:
            return
        skip = self._skipping() or tag in SKIP_TAGS or any(c.startswith("katex") for c in classes)
        self.stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self._pre is not None:
            self.code_blocks.append((self._pre_line, "".join(self._pre)))
            self._pre = None
        if tag in ("script", "style"):
            self._inline_tag = None
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        line = self.getpos()[0]
        if self._pre is not None:
            self._pre.append(data)
        if self._inline_tag is not None:
            self.inline.append((line, data))
        if not self._skipping():
            self.prose.append((line, data))


def check_css(css_file: Path, text: str, where: str, problems: list[str]) -> None:
    for m in CSS_URL_RE.finditer(text):
        url = m.group(2) or m.group(4)
        if not url or url.startswith("#") or is_special(url):
            continue
        if is_remote(url):
            problems.append(f"{where}: loads {url} from the network (CSS url()/@import)")
        elif not local_target(css_file.parent, url).exists():
            problems.append(f"{where}: CSS refers to {url}, which does not exist")
    for m in CDN_RE.finditer(text):
        problems.append(f"{where}: refers to a CDN ({m.group(0)})")


def check_book(build: Path) -> tuple[list[str], dict[str, int]]:
    problems: list[str] = []
    stats = {"pages": 0, "math": 0, "images": 0, "code blocks": 0, "links": 0}
    pages = sorted(build.rglob("*.html"))
    if not pages:
        return [f"{build}: no HTML pages (is the book built?)"], stats
    parsed: dict[Path, Page] = {}
    raw: dict[Path, str] = {}
    for path in pages:
        text = path.read_text(encoding="utf-8")
        page = Page()
        page.feed(text)
        page.close()
        parsed[path.resolve()] = page
        raw[path.resolve()] = text

    for path in pages:
        rel = path.relative_to(build)
        page, text = parsed[path.resolve()], raw[path.resolve()]
        stats["pages"] += 1
        stats["math"] += text.count('class="katex"')

        for m in DIRECTIVE_RE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: unresolved mdBook directive {m.group(0)}...")

        for line, data in page.prose:
            for m in RAW_TEX_RE.finditer(data):
                context = data[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ").strip()
                problems.append(f"{rel}:{line}: raw TeX {m.group(0)!r} in the text: ...{context}...")

        for line in page.katex_errors:
            problems.append(f"{rel}:{line}: KaTeX could not typeset some math (katex-error)")

        for line, code in page.code_blocks:
            stats["code blocks"] += 1
            if not code.strip():
                problems.append(
                    f"{rel}:{line}: empty code block (an {{{{#include}}}} whose anchor does not exist?)"
                )
            if ANCHOR_RE.search(code):
                problems.append(f"{rel}:{line}: code block shows ANCHOR markers (a misspelt anchor?)")

        for line, attrs in page.images:
            stats["images"] += 1
            if not (attrs.get("alt") or "").strip():
                problems.append(f"{rel}:{line}: <img src={attrs.get('src')!r}> has no alt text")

        for line, tag, attr, url in page.resources:
            if is_special(url):
                continue
            if is_remote(url):
                problems.append(f"{rel}:{line}: <{tag} {attr}={url!r}> loads from the network")
            elif not local_target(path.parent, url).exists():
                problems.append(f"{rel}:{line}: <{tag} {attr}={url!r}>: no such file")

        for line, value in page.tag_text + page.inline:
            for m in CDN_RE.finditer(value):
                problems.append(f"{rel}:{line}: refers to a CDN ({m.group(0)})")
        for line, body in page.inline:
            if "@import" in body or "url(" in body:
                check_css(path, body, f"{rel}:{line}", problems)

        if page.has_math:
            katex_css = [
                href for href in page.stylesheets
                if "katex" in href.lower() and not is_remote(href)
                and local_target(path.parent, href).exists()
            ]
            if not katex_css:
                problems.append(f"{rel}: has typeset math but links no local KaTeX stylesheet")

        for line, href in page.links:
            if is_remote(href) or is_special(href):
                continue
            stats["links"] += 1
            parts = urlsplit(href)
            target = local_target(path.parent, href) if parts.path else path
            if parts.path and not target.exists():
                problems.append(f"{rel}:{line}: link to {href}: no such page")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                target_page = parsed.get(target.resolve())
                if target_page is not None and fragment not in target_page.ids:
                    problems.append(f"{rel}:{line}: link to {href}: no element with id {fragment!r}")

    for css in sorted(build.rglob("*.css")):
        check_css(css, css.read_text(encoding="utf-8", errors="replace"), str(css.relative_to(build)), problems)
    for js in sorted(build.rglob("*.js")):
        for m in CDN_RE.finditer(js.read_text(encoding="utf-8", errors="replace")):
            problems.append(f"{js.relative_to(build)}: refers to a CDN ({m.group(0)})")

    return problems, stats


def main(argv: list[str]) -> int:
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__)
        return 2
    build = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent / "build"
    if not build.is_dir():
        print(f"check_pages: {build} is not a directory (build the book first: mdbook build)", file=sys.stderr)
        return 2
    problems, stats = check_book(build)
    summary = ", ".join(f"{v} {k}" for k, v in stats.items())
    if problems:
        for problem in problems:
            print(problem)
        print(f"check_pages: {len(problems)} problem(s) in {build} ({summary})", file=sys.stderr)
        return 1
    print(f"check_pages: ok ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
