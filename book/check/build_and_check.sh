#!/usr/bin/env bash
# Builds the book and checks the result.
#
#   book/check/build_and_check.sh
#
# Fails if mdBook logs any error or warning (a missing {{#include}} file is only logged:
# mdbook still exits 0), except mdbook-katex's notice that it was built against an earlier
# mdBook 0.5 release, and then runs check_pages.sh on the built book.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
book="$(cd "$here/.." && pwd)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

(cd "$book" && mdbook build) >"$log" 2>&1 || { cat "$log"; echo "mdbook build failed" >&2; exit 1; }
if sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '\b(ERROR|WARN)\b' \
    | grep -v 'This mdbook-katex was built against mdbook'; then
    echo "mdbook build logged the problems above" >&2
    exit 1
fi
"$here/check_pages.sh" "$book/build"
