#!/usr/bin/env bash
# Checks the built book for raw TeX, unresolved includes, missing images and CDN links.
#
#   book/check/check_pages.sh [BUILD_DIR]     (default: book/build)
#
# Runs offline with the Python standard library; see check_pages.py for the full list of
# checks. Exit status 0: all good; 1: problems found (one line each); 2: usage error.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec python3 "$here/check_pages.py" "${1:-$here/../build}"
