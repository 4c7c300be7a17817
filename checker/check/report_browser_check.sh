#!/usr/bin/env bash
# Opens the class report (`checker class --report`) in headless Chromium, in English and in
# Chinese, at a desktop width (1280 px) and a phone's (420 px), and fails on what an
# instructor would see as broken:
#
#   - a histogram (<svg>) of no size, or cut off at the right edge of the window;
#   - a page that scrolls sideways, a table wider than its column, a cell or a <pre> whose
#     text runs out of its box (every <details> is opened first, so folded text counts);
#   - an in-page link (href="#...") to no element, an id given twice;
#   - markup made from a student's name (the class has a student named with an <img>, a <b>,
#     quotes and an ampersand): any <img>, any on...= attribute, a <b> holding the name's
#     text, the name not shown as written, or text escaped twice (a visible "&amp;");
#   - <html lang> other than the page's language; in Chinese, the embedded CJK font not
#     loaded, or a Chinese character on the page that the font lacks (it would be drawn from
#     the reader's system fonts, as a box where there are none).
#
# and on the layout faults the page's first version had: Chinese text in an element whose
# font-family does not name the embedded font (a <pre> in the browser's monospace); short
# words broken inside themselves in squeezed table columns ("Stud|ent"); a histogram wider
# than its column; a link's target left under the sticky menu.
#
#   bash checker/check/report_browser_check.sh      (from anywhere; CI runs it after the tests)
#
# It builds the checker, grades a class of five made-up students (lessons 01 and 02 only, so
# that grading takes seconds once target/checker/ is warm) twice into one history, in
# English then in Chinese, and writes into target/report-check/: the two reports
# (report-en/, report-zh-CN/) and screenshots of each (the top of the page, and the page
# from its misconceptions section on), whose paths it prints.
#
# How it reads the page: the check is a script injected into a COPY of index.html (the
# report itself is never touched), which measures the page once it and its fonts have
# loaded and posts what it found to a wrapper page that holds the copy in an <iframe> as
# wide as the width under test; `chromium --dump-dom` prints the wrapper, results included.
# The <iframe> is there because headless Chromium will not make a window narrower than
# 500 px; inside it the page lays out (media queries, scroll widths) at exactly 420 px.
# Everything is opened from file:// URLs, as an instructor opens the report: it is one
# self-contained file, its font a data: URI, so nothing needs a server.
#
# Installs Debian's chromium (apt-get, needs root or sudo) when /usr/bin/chromium is absent;
# CHROMIUM may name another binary. With CHECKER_FIXTURES_UNSANDBOXED set (as for the
# checker's tests), grading runs without bubblewrap.
# Exit status 0: all good; 1: problems found (one line each); 2: set-up error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$PWD"
out="$root/target/report-check"

setup_error() { echo "report_browser_check: $*" >&2; exit 2; }

# CHROMIUM may name another Chromium binary; otherwise Debian's is used, installed if absent.
if [[ -z "${CHROMIUM:-}" ]]; then
    CHROMIUM=/usr/bin/chromium
    if [[ ! -x "$CHROMIUM" ]]; then
        echo "report_browser_check: installing chromium (apt-get)" >&2
        sudo=""
        [[ "$(id -u)" == 0 ]] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
    fi
fi
command -v python3 >/dev/null || setup_error "needs python3 (it edits the page's copies and reads Chromium's output)"

echo "report_browser_check: building the checker" >&2
cargo build -q -p checker
checker="$root/target/debug/checker"

rm -rf "$out"
mkdir -p "$out"
# The class, the history, the pages' copies and Chromium's profile: gone when the script
# ends, whatever way it ends. Under target/, so that nothing is written outside the tree.
work="$(mktemp -d "$root/target/report-check-work.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# ---------------------------------------------------------------------------------------
# The class: five students, each a folder of lessons/<id>/src/lib.rs.
class="$work/class"
submit() { # submit STUDENT LESSON FILE: FILE becomes the student's lessons/LESSON/src/lib.rs
    mkdir -p "$class/$1/lessons/$2/src"
    cp "$3" "$class/$1/lessons/$2/src/lib.rs"
}
# replace_once FILE FIND REPLACE: a learner's edit; fails if FIND is not in FILE exactly once
# (the solution changed, and the student would no longer make the mistake meant).
replace_once() {
    python3 - "$@" <<'EOF' || setup_error "the class could not be made: see above"
import pathlib, sys
path, find, replace = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
text = path.read_text(encoding="utf-8")
if text.count(find) != 1:
    sys.exit(f"{path}: `{find}` is there {text.count(find)} times, not once")
path.write_text(text.replace(find, replace), encoding="utf-8")
EOF
}
solution01="$root/solutions/01-rnn-bottleneck/src/lib.rs"
solution02="$root/solutions/02-attention/src/lib.rs"
# A name that is markup three ways (an element with a handler, a bold tag, quotes and an
# ampersand): the page must show it as text. A folder name may hold anything but `/`.
hostile='<img src=x onerror=alert(1)> "quoted'\'' & <b>bold'
# ada: both lessons solved.
submit ada 01-rnn-bottleneck "$solution01"
submit ada 02-attention "$solution02"
# bo: the softmax over the columns, a named mistake (harness:wrong-axis).
submit bo 01-rnn-bottleneck "$solution01"
submit bo 02-attention "$solution02"
replace_once "$class/bo/lessons/02-attention/src/lib.rs" \
    "for mut row in weights.rows_mut() {" "for mut row in weights.columns_mut() {"
# cy: lesson 01 untouched, lesson 02 does not compile, and the error quotes a 315-character
# line that no table may let out of its column.
long_name="$(printf 'an_identifier_so_long%.0s' {1..15})"
submit cy 01-rnn-bottleneck "$root/lessons/01-rnn-bottleneck/src/lib.rs"
submit cy 02-attention "$solution02"
replace_once "$class/cy/lessons/02-attention/src/lib.rs" \
    "pub fn softmax_rows(scores: &Matrix) -> Matrix {" \
    "pub fn softmax_rows(scores: &Matrix) -> Matrix { let _ = $long_name;"
# The hostile name makes bo's mistake too, so that it is also a link in the misconceptions.
submit "$hostile" 01-rnn-bottleneck "$solution01"
submit "$hostile" 02-attention "$class/bo/lessons/02-attention/src/lib.rs"
# dee: an empty folder (could not be graded).
mkdir -p "$class/dee"

# ---------------------------------------------------------------------------------------
# Grading, twice into one history: the second report shows the trend across both runs.
sandbox=()
[[ -n "${CHECKER_FIXTURES_UNSANDBOXED:-}" ]] && sandbox=(--unsandboxed)
grade() { # grade LANG LABEL
    echo "report_browser_check: grading the class ($1)" >&2
    if ! "$checker" --lang "$1" class "$class" --report "$out/report-$1" \
        --history "$work/history.sqlite" --run-label "$2" --test-timeout 3 \
        --out "$work/gradebook-$1.csv" ${sandbox[@]+"${sandbox[@]}"} >"$work/grade-$1.log" 2>&1; then
        tail -n 30 "$work/grade-$1.log" >&2
        setup_error "checker class --lang $1 failed (its output is above)"
    fi
    [[ -s "$out/report-$1/index.html" ]] || setup_error "checker class --lang $1 wrote no $out/report-$1/index.html"
}
grade en "week 1"
grade zh-CN "week 2"

# ---------------------------------------------------------------------------------------
# The check, injected into the copies. __WIDTH__, __LANG__, __HOSTILE__ and __FONT_CHARS__
# are filled in by copy_page. It posts {problems, warnings}; both fail the script (the
# warnings are the layout faults the page's first version had, kept apart in the output).
cat >"$work/check.js" <<'EOF'
(() => {
    const WIDTH = __WIDTH__, LANG = __LANG__, HOSTILE = __HOSTILE__, FONT_CHARS = __FONT_CHARS__;
    const CJK_FONT = "Noto Sans CJK SC";
    // What Noto Sans CJK SC draws and Helvetica, Arial and the system's Latin fonts do not
    // (the same ranges as book/check/check_cjk_font.py).
    const CJK = /[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/g;
    const problems = [], warnings = [];
    const problem = text => problems.push(text);
    const warning = text => warnings.push(text);

    // `<td.n> in #stuck ("cy: cannot find value…")`: enough to find it on the page.
    const describe = el => {
        const classes = el.classList.length ? "." + [...el.classList].join(".") : "";
        const section = el.closest("section[id]");
        const heading = [...document.querySelectorAll("h2[id]")]
            .filter(h => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)
            .pop();
        const where = section ? section.id : heading ? heading.id : "the top";
        const text = (el.textContent || "").replace(/\s+/g, " ").trim();
        const snippet = text.length > 50 ? text.slice(0, 50) + "…" : text;
        return `<${el.localName}${el.id ? "#" + el.id : ""}${classes}> in #${where} ("${snippet}")`;
    };
    const px = x => Math.round(x);
    // The right edge of an element's content box.
    const contentRight = el => el.getBoundingClientRect().right - parseFloat(getComputedStyle(el).paddingRight)
        - parseFloat(getComputedStyle(el).borderRightWidth);
    // The text nodes under `root` that are drawn (an SVG's <title> and <desc> are read out).
    const drawnText = root => {
        const nodes = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode()); )
            if (!node.parentElement.closest("script, style, svg title, svg desc")) nodes.push(node);
        return nodes;
    };

    function check() {
        // Folded text counts: an instructor opens the <details> of a long compile error.
        for (const details of document.querySelectorAll("details")) details.open = true;
        const html = document.documentElement;
        const view = html.clientWidth;
        if (innerWidth !== WIDTH) problem(`set-up: the page was laid out ${innerWidth} px wide, not ${WIDTH}`);

        // The language, for screen readers, line breaking and the choice of CJK glyphs.
        if (html.lang !== LANG) problem(`<html lang="${html.lang}">, expected "${LANG}"`);

        // Sideways scrolling, and what causes it: the deepest elements past the right edge
        // (the histograms are checked below, on their own).
        if (html.scrollWidth > view + 1)
            problem(`the page scrolls sideways: it is ${html.scrollWidth} px wide in a ${view} px window`);
        const past = [...document.body.querySelectorAll("*")].filter(el => {
            if (el.closest("svg")) return false;
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.right > view + 1;
        });
        const deepest = past.filter(el => !past.some(other => other !== el && el.contains(other)));
        for (const el of deepest.slice(0, 8))
            problem(`past the right edge of the window (${view} px) by ${px(el.getBoundingClientRect().right - view)} px: ${describe(el)}`);
        if (deepest.length > 8) problem(`... and ${deepest.length - 8} more elements past the right edge`);

        // The histograms: drawn, and whole; and, on a narrower screen than this one, still
        // whole (an SVG wider than its column spills into the page's margin first).
        const svgs = document.querySelectorAll("svg");
        if (svgs.length === 0) problem("no <svg> histogram on the page");
        let spilling = 0;
        for (const svg of svgs) {
            const r = svg.getBoundingClientRect();
            const name = svg.querySelector("title")?.textContent ?? "an <svg>";
            if (r.width < 1 || r.height < 1) problem(`the histogram "${name}" is ${px(r.width)} x ${px(r.height)} px`);
            else if (r.left < -1 || r.right > view + 1)
                problem(`the histogram "${name}" spans ${px(r.left)}..${px(r.right)} px, outside the ${view} px window`);
            else if (r.right > contentRight(svg.parentElement) + 1) spilling = Math.max(spilling, r.right - contentRight(svg.parentElement));
        }
        if (spilling)
            warning(`the histograms are ${px(spilling)} px wider than their column (an <svg> of fixed width, no max-width): a window ${px(spilling)} px narrower than this one scrolls sideways`);

        // Tables within their column, cells within their table, text within its box.
        for (const table of document.querySelectorAll("table")) {
            const t = table.getBoundingClientRect();
            const right = contentRight(table.parentElement);
            if (t.right > right + 1) problem(`a table is ${px(t.right - right)} px wider than its column: ${describe(table)}`);
            for (const cell of table.querySelectorAll("th, td, pre")) {
                const c = cell.getBoundingClientRect();
                if (c.width > 0 && (c.right > t.right + 1 || c.left < t.left - 1))
                    problem(`out of its table by ${px(Math.max(c.right - t.right, t.left - c.left))} px: ${describe(cell)}`);
            }
        }
        for (const box of document.querySelectorAll("pre, td, th, code")) {
            if (box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
                problem(`text runs ${box.scrollWidth - box.clientWidth} px out of its box: ${describe(box)}`);
        }
        // Columns squeezed until a short word breaks inside itself ("Stud|ent", "d|e|e"):
        // legible, but barely. Identifiers in <code> and <pre> may break anywhere.
        const broken = [];
        for (const cell of document.querySelectorAll("th, td")) {
            for (const node of drawnText(cell)) {
                if (node.parentElement.closest("pre, code")) continue;
                for (const word of node.nodeValue.matchAll(/[A-Za-z0-9]{2,20}/g)) {
                    const range = document.createRange();
                    range.setStart(node, word.index);
                    range.setEnd(node, word.index + word[0].length);
                    const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => px(r.top)));
                    if (lines.size > 1) broken.push(`"${word[0]}" (${describe(cell)})`);
                }
            }
        }
        if (broken.length)
            warning(`${broken.length} short word(s) broken inside themselves in squeezed table columns, e.g. ${broken.slice(0, 4).join(", ")}`);

        // In-page links land somewhere, nowhere ambiguous, and not under the sticky menu.
        const targets = new Set();
        for (const a of document.querySelectorAll('a[href^="#"]')) {
            const id = decodeURIComponent(a.getAttribute("href").slice(1));
            const target = document.getElementById(id);
            if (!target) problem(`the link ${a.getAttribute("href")} ("${a.textContent}") has no target`);
            else targets.add(target);
        }
        const seen = new Set();
        for (const el of document.querySelectorAll("[id]")) {
            if (seen.has(el.id)) problem(`the id "${el.id}" is given twice`);
            seen.add(el.id);
        }
        const nav = document.querySelector("nav");
        if (nav && getComputedStyle(nav).position === "sticky") {
            const covered = [];
            for (const target of targets) {
                target.scrollIntoView(); // what following a link to it does
                const hidden = nav.getBoundingClientRect().bottom - target.getBoundingClientRect().top;
                if (hidden > 1) covered.push(`#${target.id} (${px(hidden)} px)`);
            }
            scrollTo(0, 0);
            if (covered.length)
                warning(`following a link leaves its target's top under the sticky menu (no scroll-margin-top): ${covered.slice(0, 4).join(", ")}${covered.length > 4 ? ` and ${covered.length - 4} more` : ""}`);
        }

        // The student named with markup: text, never elements. The page itself has no image
        // and no handler; its <b> are mistakes' names.
        for (const img of document.querySelectorAll("img")) problem(`an <img> on the page (from a name?): ${describe(img)}`);
        for (const el of document.querySelectorAll("*"))
            for (const attribute of el.attributes)
                if (attribute.name.startsWith("on")) problem(`an ${attribute.name}= handler on ${describe(el)}`);
        for (const b of document.querySelectorAll("b"))
            if (b.textContent.startsWith("bold")) problem(`a <b> made from the name: ${describe(b)}`);
        const headings = [...document.querySelectorAll('section[id^="student-"] > h3')];
        if (!headings.some(h => h.firstChild?.nodeType === Node.TEXT_NODE && h.firstChild.nodeValue.trim() === HOSTILE))
            problem(`no student heading shows the name ${JSON.stringify(HOSTILE)} as written`);
        if (![...document.querySelectorAll('a[href^="#student-"]')].some(a => a.textContent === HOSTILE))
            problem(`no link to the student named ${JSON.stringify(HOSTILE)} shows the name as written`);
        const escapedTwice = document.body.innerText.match(/&(amp|lt|gt|quot|#39);/);
        if (escapedTwice) problem(`"${escapedTwice[0]}" shows on the page: text escaped twice`);

        // Chinese: the embedded font loaded, it holds every Chinese character shown, and
        // every element that shows one names it (a <pre> in the browser's monospace does
        // not: its Chinese comes from the system's fonts, boxes where there are none).
        // document.fonts.check() alone proves little: it is also true of a family the page
        // never declared.
        if (LANG === "zh-CN") {
            if (!document.fonts.check(`16px '${CJK_FONT}'`, "班级报告"))
                problem(`document.fonts.check("16px '${CJK_FONT}'", "班级报告") is false`);
            const faces = [...document.fonts].filter(f => f.family.replace(/["']/g, "") === CJK_FONT);
            if (!faces.some(f => f.status === "loaded"))
                problem(`the embedded font ${CJK_FONT} is ${faces.length ? faces.map(f => f.status).join(", ") : "not declared"}, not loaded`);
            const shown = new Set();
            const unfonted = new Map(); // font-family -> an element
            for (const node of drawnText(document.body)) {
                const chars = node.nodeValue.match(CJK);
                if (!chars) continue;
                for (const ch of chars) shown.add(ch);
                const family = getComputedStyle(node.parentElement).fontFamily;
                if (!family.includes(CJK_FONT) && !unfonted.has(family)) unfonted.set(family, node.parentElement);
            }
            const missing = [...shown].filter(ch => !FONT_CHARS.includes(ch));
            if (missing.length)
                problem(`the embedded CJK font lacks ${missing.length} character(s) the page shows (boxes where the system has no Chinese font): ${missing.join("")}`);
            for (const [family, el] of unfonted)
                warning(`Chinese text set in font-family "${family}", which does not name ${CJK_FONT} (boxes where the system has no Chinese font): ${describe(el)}`);
        }
    }

    const report = () => {
        try {
            check();
        } catch (error) {
            problem(`the check itself failed: ${error}`);
        }
        parent.postMessage(JSON.stringify({ problems, warnings }), "*");
    };
    addEventListener("load", () => document.fonts.ready.then(report));
})();
EOF

# copy_page SOURCE COPY WIDTH LANG CHECK [CSS]: a copy of SOURCE with CSS, if given, added
# to its styles, and the check injected if CHECK is "check".
copy_page() {
    python3 - "$1" "$2" "$3" "$4" "$5" "${6:-}" "$hostile" "$root/book/src/fonts/cjk-subset.txt" "$work/check.js" <<'EOF'
import json, pathlib, sys
source, copy, width, lang, check, css, hostile, font_chars, script = sys.argv[1:]
# In a <script>, "</script" would end it: JSON with every "<" escaped cannot.
js_value = lambda value: json.dumps(value).replace("<", "\\u003c")
script = pathlib.Path(script).read_text(encoding="utf-8")
for name, value in [("__WIDTH__", int(width)), ("__LANG__", lang), ("__HOSTILE__", hostile),
                    ("__FONT_CHARS__", pathlib.Path(font_chars).read_text(encoding="utf-8").strip())]:
    script = script.replace(name, js_value(value))
page = pathlib.Path(source).read_text(encoding="utf-8")
head, body = page.find("</head>"), page.rfind("</body>")
if head < 0 or body < 0:
    sys.exit(f"{source}: no </head> or </body>")
script = f"<script>{script}</script>" if check == "check" else ""
page = page[:head] + f"<style>{css}</style>" + page[head:body] + script + page[body:]
pathlib.Path(copy).write_text(page, encoding="utf-8")
EOF
}

# wrapper FILE COPY WIDTH: the page that holds COPY in an <iframe> WIDTH px wide (and as
# tall as the window), and shows what its check posts.
wrapper() {
    cat >"$1" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>
html { overflow: hidden; background: #888; } body { margin: 0; }
iframe { display: block; border: 0; background: #fff; }
</style></head><body>
<iframe src="$(basename "$2")" width="$3" height="2400"></iframe>
<pre id="report-check-result">no result</pre>
<script>
addEventListener("message", event => { document.getElementById("report-check-result").textContent = event.data; });
</script>
</body></html>
EOF
}

# chromium WIDTH ARGS...: headless Chromium, its window 2400 px tall and WIDTH px wide, or
# 500, the narrowest headless Chromium makes.
chromium() {
    local width=$1
    shift
    (( width < 500 )) && width=500
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --window-size="$width,2400" \
        --virtual-time-budget=10000 "$@" 2>>"$work/chromium.log"
}

problems="$work/problems"
warnings="$work/warnings"
: >"$problems"
: >"$warnings"
screenshots=()
for lang in en zh-CN; do
    report="$out/report-$lang/index.html"
    for width in 1280 420; do
        label="$lang at $width px"
        # The check.
        copy_page "$report" "$work/check-$lang-$width.html" "$width" "$lang" check \
            || setup_error "could not copy $report"
        wrapper "$work/wrap-check-$lang-$width.html" "$work/check-$lang-$width.html" "$width"
        if ! chromium "$width" --dump-dom "file://$work/wrap-check-$lang-$width.html" >"$work/dom-$lang-$width.html"; then
            tail -n 20 "$work/chromium.log" >&2
            setup_error "Chromium failed on the $label page (its log is above)"
        fi
        python3 - "$work/dom-$lang-$width.html" "$label" "$problems" "$warnings" <<'EOF'
import html, json, re, sys
dom, label, problems, warnings = sys.argv[1:]
found = re.search(r'<pre id="report-check-result">(.*?)</pre>', open(dom, encoding="utf-8").read(), re.S)
text = html.unescape(found.group(1)) if found else ""
try:
    result = json.loads(text)
except ValueError:
    result = {"problems": [f"the check posted no result ({text[:80]!r}): the page did not load, or the script did not run"]}
for kind, path in [("problems", problems), ("warnings", warnings)]:
    with open(path, "a", encoding="utf-8") as out:
        for line in result.get(kind, []):
            print(f"{label}: {line}", file=out)
EOF
        # The screenshots, of the page as delivered (no check, so <details> stay folded): its
        # top, and the page from its misconceptions on, the sections above hidden (headless
        # Chromium draws a page opened at a #fragment unscrolled).
        for part in top misconceptions; do
            css=""
            [[ "$part" == misconceptions ]] \
                && css="body > :not(nav):has(~ #misconceptions) { display: none !important; }"
            copy_page "$report" "$work/shot-$lang-$width-$part.html" "$width" "$lang" no "$css" \
                || setup_error "could not copy $report"
            wrapper "$work/wrap-shot-$lang-$width-$part.html" "$work/shot-$lang-$width-$part.html" "$width"
            png="$out/$lang-$width-$part.png"
            chromium "$width" --screenshot="$png" "file://$work/wrap-shot-$lang-$width-$part.html" >/dev/null \
                || setup_error "Chromium could not take $png"
            [[ -s "$png" ]] || setup_error "Chromium wrote no $png"
            screenshots+=("$png")
        done
    done
done

printf '%s\n' "${screenshots[@]}"
# The layout faults the first version of the page had are failures like the rest.
cat "$warnings" >>"$problems"
if [[ -s "$problems" ]]; then
    echo "report_browser_check: $(wc -l <"$problems") problem(s) in the class report:" >&2
    sed 's/^/  /' "$problems" >&2
    echo "(the reports are in ${out#"$root/"}/report-*/index.html, the screenshots listed above)" >&2
    exit 1
fi
echo "report_browser_check: ok: the class report in 2 languages at 1280 and 420 px, ${#screenshots[@]} screenshots, in ${SECONDS} s"
