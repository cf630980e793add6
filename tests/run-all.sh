#!/usr/bin/env bash
# Runs every test of the project: the Rust crate (unit, integration, corpus,
# property, hostile-input and end-to-end tests) and a build of the fuzz
# targets. The README's test command and .ci/run call exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test (workspace) =="
cargo test --workspace --locked

echo "== fuzz targets build =="
cargo build --quiet --manifest-path server/fuzz/Cargo.toml
