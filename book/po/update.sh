#!/usr/bin/env bash
# Brings the translations in step with the English source.
#
#   book/po/update.sh
#
# 1. Extracts every message of the English book into po/messages.pot (mdbook-xgettext,
#    without line numbers, so that moving text does not churn the files);
# 2. merges it into each translation, po/<language>.po (msgmerge): new English text arrives
#    untranslated, changed text arrives marked fuzzy, with the old translation as a start;
# 3. prints each translation's statistics (msgfmt).
#
# Then translate what is new or fuzzy (with a PO editor such as Poedit, or by hand), and
# commit both files. check/build_and_check.sh fails when messages.pot is not current.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/extract.sh" "$here/messages.pot"
for po in "$here"/*.po; do
    msgmerge --quiet --update --backup=none --no-wrap "$po" "$here/messages.pot"
    printf '%s: ' "$(basename "$po")"
    msgfmt --statistics --check -o /dev/null "$po"
done
