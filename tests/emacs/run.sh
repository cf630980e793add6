#!/usr/bin/env bash
# Runs tests/emacs/eglot_e2e.el (Emacs 30's built-in eglot against the real
# server) on a scratch copy of fixtures/demo.
#
#   bash tests/emacs/run.sh
#
# Environment: SERVER (default: target/debug/memory-index-lsp, built with
# cargo if missing), EMACS (default: emacs, must be 30+; Debian bookworm:
# apt-get install -t bookworm-backports emacs-nox), MI_EMACS_TIMEOUT (seconds
# per wait, default 15).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
emacs="${EMACS:-emacs}"

if ! command -v "$emacs" >/dev/null 2>&1; then
  echo "FAIL emacs: '$emacs' not found; install Emacs 30+ (Debian: apt-get install -t bookworm-backports emacs-nox)" >&2
  exit 1
fi
major="$("$emacs" --batch -Q --eval '(princ emacs-major-version)' 2>/dev/null || echo 0)"
if [ "$major" -lt 30 ]; then
  echo "FAIL emacs: $("$emacs" --version | head -1) is older than 30 (eglot 1.17 is built into 30)" >&2
  exit 1
fi
if [ -z "${SERVER:-}" ]; then
  SERVER="${CARGO_TARGET_DIR:-$repo/target}/debug/memory-index-lsp"
  if [ ! -x "$SERVER" ]; then
    echo "building $SERVER"
    (cd "$repo" && cargo build --quiet --locked --bin memory-index-lsp)
  fi
fi
export SERVER

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -R "$repo/fixtures/demo" "$tmp/workspace"
HOME="$tmp/home" "$emacs" --batch -Q -l "$here/eglot_e2e.el" "$tmp/workspace"
