#!/usr/bin/env bash
# End-to-end test of the Claude Code plugin (and of `init`) with the real
# Claude Code, offline: a loopback mock of the Messages API (mock_api.py)
# records what the model would receive; e2e.py drives `claude -p` and checks it.
#
#   editors/claude-code/test/run.sh
#
# Environment: SERVER (default: target/debug/memory-index-lsp, built with
# cargo if missing), CLAUDE (default: target/claude-code/node_modules/.bin/claude,
# installed with npm if missing), MI_E2E_KEEP=1 keeps the scratch folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
version=2.1.328

if [ -z "${SERVER:-}" ]; then
  SERVER="${CARGO_TARGET_DIR:-$repo/target}/debug/memory-index-lsp"
  if [ ! -x "$SERVER" ]; then
    echo "building $SERVER"
    (cd "$repo" && cargo build --quiet --locked --bin memory-index-lsp)
  fi
fi
[ -x "$SERVER" ] || { echo "FAIL claude-code: server binary $SERVER not found" >&2; exit 1; }

if [ -z "${CLAUDE:-}" ]; then
  prefix="$repo/target/claude-code"
  CLAUDE="$prefix/node_modules/.bin/claude"
  if ! "$CLAUDE" --version 2>/dev/null | grep -q "^$version "; then
    echo "installing @anthropic-ai/claude-code@$version into $prefix"
    mkdir -p "$prefix"
    if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$version" >/dev/null; then
      if [ "${MI_REQUIRE_CLAUDE:-0}" = 1 ]; then
        echo "FAIL claude-code: npm could not install @anthropic-ai/claude-code@$version" >&2
        exit 1
      fi
      echo "SKIP claude-code: npm could not install @anthropic-ai/claude-code@$version (offline?)"
      exit 0
    fi
  fi
fi
"$CLAUDE" --version >/dev/null 2>&1 || { echo "FAIL claude-code: $CLAUDE does not run" >&2; exit 1; }

tmp="$(mktemp -d)"
if [ "${MI_E2E_KEEP:-0}" = 1 ]; then echo "scratch folder kept: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
export PATH="$(dirname "$SERVER"):$PATH"
timeout 600 python3 "$here/e2e.py" --repo "$repo" --claude "$CLAUDE" --tmp "$tmp"
