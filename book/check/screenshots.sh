#!/usr/bin/env bash
# Headless screenshots of built pages, for looking at the book without a desktop.
#
#   book/check/screenshots.sh OUT_DIR PAGE [PAGE ...]
#
# PAGE is a page of the built book, optionally with a vertical offset in CSS pixels:
# `02-attention.html` or `02-attention.html@4800` (the part of the page that starts 4800 px
# down). Each screenshot is 1200 x 2400. Needs `chromium` on the PATH and a built book in
# book/build (run `mdbook build` in book/ first). Nothing is fetched from the network.
# With OPEN_DETAILS=1, every <details> block (the folded answers) is shown open.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "$here/../build" && pwd)"
out="${1:?usage: screenshots.sh OUT_DIR PAGE [PAGE ...]}"
shift
mkdir -p "$out"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

for spec in "$@"; do
    page="${spec%@*}"
    offset=0
    [[ "$spec" == *@* ]] && offset="${spec#*@}"
    [[ -f "$build/$page" ]] || { echo "no such page: $build/$page" >&2; exit 1; }
    # A copy of the page that resolves its links against the build directory and is shifted
    # up by the offset, so that one fixed-size screenshot can show any part of a long page.
    # Pages of the Chinese edition are under zh-CN/: the copy's name is flat, its base that
    # folder.
    flat="$(echo "${page%.html}" | tr / _)"
    base="$(dirname "$page")"
    copy="$scratch/$flat-$offset.html"
    open_details='s|<details>|<details>|'
    [[ "${OPEN_DETAILS:-0}" == 1 ]] && open_details='s|<details>|<details open>|g'
    sed -e "$open_details" -e "s|<head>|<head><base href=\"file://$build/$base/\"><style>#mdbook-content main { margin-top: -${offset}px; }</style>|" \
        "$build/$page" >"$copy"
    png="$out/$flat-$offset.png"
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$scratch/profile" --screenshot="$png" --window-size=1200,2400 \
        "file://$copy" >/dev/null 2>&1
    echo "$png"
done
