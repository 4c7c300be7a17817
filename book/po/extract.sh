#!/usr/bin/env bash
# Extracts the English book's messages into a PO template.
#
#   book/po/extract.sh OUT.pot
#
# Runs mdBook with only the xgettext renderer and, of the book's own preprocessors, only
# the one that wraps each math span in a code span (KaTeX would turn the TeX into HTML; the
# messages carry the TeX as it is written, and the translation keeps it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(realpath -m "${1:?usage: extract.sh OUT.pot}")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(
    cd "$here/.."
    MDBOOK_PREPROCESSOR='{"math-protect": {"command": "python3 preprocessors/math_guard.py protect"}}' \
        MDBOOK_OUTPUT='{"xgettext": {"pot-file": "messages.pot", "granularity": 0}}' \
        mdbook build -d "$scratch" >/dev/null 2>&1 || {
        echo "extract.sh: mdbook-xgettext failed" >&2
        exit 1
    }
)
# The creation date would make every extraction differ: it is left empty.
sed 's/^"POT-Creation-Date: .*$/"POT-Creation-Date: \\n"/' "$scratch/messages.pot" >"$out"
