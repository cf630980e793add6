#!/usr/bin/env bash
# Runs every test of the project: the Rust crate (unit, integration, corpus,
# property and end-to-end tests). The README's test command and .ci/run call
# exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test (workspace) =="
cargo test --workspace --locked
