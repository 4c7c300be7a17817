#!/usr/bin/env bash
# Headless screenshots of built pages, for looking at the book without a desktop.
#
#   book/check/screenshots.sh OUT_DIR PAGE [PAGE ...]
#
# PAGE is a page of the built book, optionally with a vertical offset in CSS pixels:
# `02-attention.html` or `02-attention.html@4800` (the part of the page that starts 4800 px
# down). Each screenshot is 1200 x 2400. Needs `chromium` on the PATH and a built book in
# book/build (run `mdbook build` in book/ first) and python3, whose HTTP server serves it on
# 127.0.0.1. Nothing is fetched from the network.
# With OPEN_DETAILS=1, every <details> block (the folded answers) is shown open.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "$here/../build" && pwd)"
out="${1:?usage: screenshots.sh OUT_DIR PAGE [PAGE ...]}"
shift
mkdir -p "$out"
scratch="$(mktemp -d)"
# The book is served over HTTP from 127.0.0.1, as a reader's browser gets it: from file://
# URLs Chromium refuses web fonts (the book's CJK font among them).
port=$((20000 + RANDOM % 20000))
python3 -m http.server --bind 127.0.0.1 --directory "$build" "$port" >/dev/null 2>&1 &
server=$!
copies=()
cleanup() { kill "$server" 2>/dev/null || true; rm -rf "$scratch"; rm -f "${copies[@]}"; }
trap cleanup EXIT
sleep 1

for spec in "$@"; do
    page="${spec%@*}"
    offset=0
    [[ "$spec" == *@* ]] && offset="${spec#*@}"
    [[ -f "$build/$page" ]] || { echo "no such page: $build/$page" >&2; exit 1; }
    # A copy of the page, next to it (so that its links resolve), shifted up by the offset,
    # so that one fixed-size screenshot can show any part of a long page. Pages of the
    # Chinese edition are under zh-CN/.
    flat="$(echo "${page%.html}" | tr / _)"
    copy="$(dirname "$build/$page")/.screenshot-$(basename "${page%.html}")-$offset.html"
    copies+=("$copy")
    open_details='s|<details>|<details>|'
    [[ "${OPEN_DETAILS:-0}" == 1 ]] && open_details='s|<details>|<details open>|g'
    sed -e "$open_details" -e "s|<head>|<head><style>#mdbook-content main { margin-top: -${offset}px; }</style>|" \
        "$build/$page" >"$copy"
    png="$out/$flat-$offset.png"
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$scratch/profile" --screenshot="$png" --window-size=1200,2400 \
        --virtual-time-budget=5000 \
        "http://127.0.0.1:$port/${copy#"$build"/}" >/dev/null 2>&1
    echo "$png"
done
