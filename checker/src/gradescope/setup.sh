#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image (Ubuntu, as root, with
# network access). It installs Rust, builds the checker, downloads the crates the lessons
# build on, and creates the unprivileged user that code under test runs as.
set -euo pipefail

RUST_VERSION=1.95.0
source_dir=/autograder/source
course=/autograder/course

apt-get update -q
# bubblewrap: the sandbox learner code is built and run in, where the container allows
# user namespaces (run_autograder checks, and says which protections are active).
apt-get install -y -q --no-install-recommends build-essential ca-certificates curl bubblewrap
if ! command -v rustup >/dev/null 2>&1; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
        | sh -s -- -y --profile minimal --default-toolchain "$RUST_VERSION"
fi
source "$HOME/.cargo/env"
rustup default "$RUST_VERSION"

rm -rf "$course"
cp -r "$source_dir/course" "$course"
cd "$course"
cargo build --release -p checker
# Downloads every crate the lessons build on, while the image has a network: grading
# builds offline.
cargo fetch --locked

id -u student >/dev/null 2>&1 || adduser --disabled-password --gecos "" student
# Code under test runs as `student`, where bubblewrap cannot: it cannot read the solutions
# and their suites, nor enter the course's build folder or .git (the checker refuses to
# grade while it can), and it cannot write the results.
chmod -R o-rwx "$course/solutions" "$source_dir"
chmod o-rwx "$course/target"
if [ -d "$course/.git" ]; then chmod o-rwx "$course/.git"; fi
