#!/usr/bin/env bash
# Builds both editions of the book and checks the result.
#
#   book/check/build_and_check.sh
#
# The English edition goes to book/build/, the Simplified Chinese one (po/zh-CN.po) to
# book/build/zh-CN/. Fails if mdBook logs any error or warning (a missing {{#include}} file
# is only logged: mdbook still exits 0), except mdbook-katex's notice that it was built
# against an earlier mdBook 0.5 release; then runs check_pages.sh on each edition, and
# checks that po/messages.pot is the English source's current template (else run
# po/update.sh) and that the translation has no message marked fuzzy.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
book="$(cd "$here/.." && pwd)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

build() { # build <output dir> [VAR=value ...]: one edition
    local out="$1"
    shift
    (cd "$book" && env "$@" mdbook build -d "$out") >"$log" 2>&1 \
        || { cat "$log"; echo "mdbook build failed" >&2; exit 1; }
    if sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '\b(ERROR|WARN)\b' \
        | grep -v 'This mdbook-katex was built against mdbook'; then
        echo "mdbook build logged the problems above" >&2
        exit 1
    fi
}
# Both editions are searched with Pagefind rather than mdBook's search, which cannot split
# Chinese into words and would index the math's MathML: each index holds its edition's
# pages' main text, without KaTeX's MathML, the print page and the 404 page.
# (The Chinese 404 page is served from zh-CN/, hence its site URL.)
build "$book/build" MDBOOK_OUTPUT__HTML__SEARCH__ENABLE=false
build "$book/build/zh-CN" MDBOOK_BOOK__LANGUAGE=zh-CN "MDBOOK_BOOK__TITLE=用 Rust 构建 Transformer" \
    MDBOOK_OUTPUT__HTML__SEARCH__ENABLE=false MDBOOK_OUTPUT__HTML__SITE_URL=/zh-CN/
if [[ ! -x "$here/node_modules/.bin/pagefind" ]]; then
    echo "build_and_check: installing pagefind and playwright-core (npm ci)" >&2
    (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
fi
index() { # index <edition's folder> <glob of its pages>
    "$here/node_modules/.bin/pagefind" --site "$1" --root-selector main \
        --exclude-selectors ".katex-mathml" --glob "$2" >"$log" 2>&1 \
        || { cat "$log"; echo "pagefind failed" >&2; exit 1; }
}
index "$book/build" "{[!p4]*.html,appendix/*.html}"
index "$book/build/zh-CN" "**/[!p4]*.html"
"$here/check_pages.sh" "$book/build"
"$here/check_pages.sh" "$book/build/zh-CN"
# Every CJK character the book uses is in its web font.
python3 "$here/check_cjk_font.py"

# The translation is kept in step: its template is the English source's, and nothing in it
# is marked fuzzy (English text changed since it was translated).
current="$(mktemp)"
trap 'rm -f "$log" "$current"' EXIT
"$book/po/extract.sh" "$current"
if ! cmp -s "$current" "$book/po/messages.pot"; then
    diff "$book/po/messages.pot" "$current" | head -20
    echo "book/po/messages.pot is not the English source's template: run book/po/update.sh" >&2
    exit 1
fi
printf 'zh-CN: '
msgfmt --statistics --check -o /dev/null "$book/po/zh-CN.po"
if grep -q '^#, .*fuzzy' "$book/po/zh-CN.po"; then
    echo "book/po/zh-CN.po has fuzzy messages: translate the changed English text" >&2
    exit 1
fi
