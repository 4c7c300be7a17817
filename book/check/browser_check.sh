#!/usr/bin/env bash
# Opens every page of the built book in headless Chromium and fails on what a reader would
# see as broken (raw TeX, KaTeX errors, images that do not load, unresolved includes or
# anchors, empty code blocks, console errors, failed requests, dangling #fragments, a
# search that finds nothing). See browser_check.mjs for the full list.
#
#   book/check/browser_check.sh [BUILD_DIR]     (default: book/build; build it first)
#
# Installs what is missing: Debian's chromium (apt-get, needs root) when /usr/bin/chromium
# is absent, and playwright-core (pinned by package-lock.json, `npm ci`) when
# book/check/node_modules is absent. playwright-core never downloads a browser; the check
# drives the system's Chromium and loads nothing from the network.
# Exit status 0: all good; 1: problems found (one line each); 2: usage or set-up error.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../build}"

# CHROMIUM may name another Chromium binary; otherwise Debian's is used, installed if absent.
if [[ -z "${CHROMIUM:-}" ]]; then
    CHROMIUM=/usr/bin/chromium
    if [[ ! -x "$CHROMIUM" ]]; then
        echo "browser_check: installing chromium (apt-get)" >&2
        sudo=""
        [[ "$(id -u)" == 0 ]] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
    fi
fi
export CHROMIUM

if ! command -v node >/dev/null; then
    echo "browser_check: needs Node.js 20 or newer (node is not on the PATH)" >&2
    exit 2
fi

if [[ ! -d "$here/node_modules/playwright-core" ]]; then
    echo "browser_check: installing playwright-core (npm ci)" >&2
    (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
fi

exec node "$here/browser_check.mjs" "$build"
