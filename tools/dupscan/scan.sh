#!/usr/bin/env bash
# Counts the repeated code in the course at one or more git revisions, with jscpd.
#
#   tools/dupscan/scan.sh [--top N] [REV...]      (default: HEAD; --top 10)
#
# For each revision, exports its committed tree (git archive) into a temporary folder, runs
# jscpd (pinned by package-lock.json; installed here with `npm ci` when missing) over its
# Rust and Python sources, and prints one summary: files, lines, duplicated lines, their
# share and the number of clones; the same by cluster (summarize.py says which files each
# cluster holds); then the N largest clones of the code maintained by hand. TOML is left
# out: course.toml, mistakes/ and the Cargo manifests are data, not code.
#
# A clone is a fragment of at least 50 tokens and 5 lines found token for token (layout
# aside, comments included) in two places: jscpd's defaults. Lines are jscpd's count:
# every line of a file, and for a clone its last line minus its first. Files are read
# whole (by default jscpd skips files over 1,000 lines or 100 kB; lesson 06 had such files).
#
# Since #12 (`cargo xtask stubs`, xtask/src/stubs.rs), lessons/*/src are generated from
# solutions/*/src: they are still in the tree, and repeat the solutions almost line for
# line, but they are maintained once. For a revision that has the generator, jscpd runs
# twice: over the whole tree (raw) and without lessons/*/src (maintained duplication).
# Before it, the stubs were written by hand and the two counts are one. Since the lessons'
# folders under solutions/ became their one home, the whole of lessons/ is generated (the
# learner's manifest, visible tests and examples are copies of solutions/*/learner/).
#
# jscpd 4 is JavaScript and runs wherever Node.js 20.19 or newer does (its 5.x line is a
# native binary, one registry package per platform). It sees copies token for token only:
# code repeated in another style, or with `mut` added, is not a clone to it. To read every
# clone, give a large --top.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"

top=10
revs=()
while (($#)); do
    case "$1" in
        --top) top="${2:?--top needs a number}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;;
        *) revs+=("$1"); shift ;;
    esac
done
((${#revs[@]})) || revs=(HEAD)

if ! command -v node >/dev/null; then
    echo "dupscan: needs Node.js 20.19 or newer (node is not on the PATH)" >&2
    exit 2
fi
if [[ ! -x "$here/node_modules/.bin/jscpd" ]]; then
    echo "dupscan: installing jscpd (npm ci)" >&2
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run_jscpd() { # run_jscpd <tree> <report dir> [extra ignore globs]: writes <report dir>/jscpd-report.json
    local ignore="**/target/**,**/node_modules/**,book/build/**,**/*.po,**/*.pot${3:+,$3}"
    (cd "$1" && "$here/node_modules/.bin/jscpd" . --format rust,python \
        --min-tokens 50 --min-lines 5 --max-lines 1000000 --max-size 100mb \
        --ignore "$ignore" --no-gitignore --reporters json --output "$2" --silent --noTips >/dev/null)
}

for rev in "${revs[@]}"; do
    commit="$(git -C "$repo" rev-parse --verify --quiet "$rev^{commit}")" \
        || { echo "dupscan: $rev is not a revision" >&2; exit 2; }
    tree="$work/${commit:0:12}"
    mkdir -p "$tree"
    git -C "$repo" archive "$commit" | tar -x -C "$tree"

    run_jscpd "$tree" "$work/raw-${commit:0:12}"
    maintained=()
    if [[ -d "$tree/solutions/02-attention/learner" ]]; then
        # Since the one-home layout, the whole of lessons/ is generated.
        run_jscpd "$tree" "$work/maintained-${commit:0:12}" "lessons/**"
        maintained=(--maintained "$work/maintained-${commit:0:12}/jscpd-report.json")
    elif [[ -f "$tree/xtask/src/stubs.rs" ]]; then
        run_jscpd "$tree" "$work/maintained-${commit:0:12}" "lessons/*/src/**"
        maintained=(--maintained "$work/maintained-${commit:0:12}/jscpd-report.json")
    fi
    echo "== $(git -C "$repo" log -1 --format='%h %as %<(60,trunc)%s' "$commit")"
    python3 "$here/summarize.py" --top "$top" "$work/raw-${commit:0:12}/jscpd-report.json" \
        "${maintained[@]}"
    echo
    rm -rf "$tree"
done
