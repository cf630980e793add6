#!/usr/bin/env bash
# The MCP server with real clients: the official MCP Python SDK's stdio
# client (tests/mcp/client.py: initialize, list tools, every tool on a copy
# of fixtures/demo, malformed requests), and Claude Code's own
# `claude mcp add` + `claude mcp list`, which must report it connected.
# Needs `pip install mcp` and Claude Code in target/claude-code (what .ci/run
# installs); each is skipped with a message when missing, unless
# MI_REQUIRE_MCP=1 (which .ci/run sets).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
target="${CARGO_TARGET_DIR:-$repo/target}"
cargo build --quiet --bin memory-index-lsp
bin="$target/debug/memory-index-lsp"
status=0

if python3 -c 'import mcp' 2>/dev/null; then
  timeout 180 python3 tests/mcp/client.py "$bin" "$repo" || status=1
elif [ "${MI_REQUIRE_MCP:-0}" = 1 ]; then
  echo "FAIL mcp: the MCP Python SDK is missing (python3 -m pip install mcp)"; status=1
else
  echo "SKIP mcp python client: the MCP Python SDK is missing (python3 -m pip install mcp)"
fi

claude="$target/claude-code/node_modules/.bin/claude"
if [ -x "$claude" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/home" "$tmp/proj"
  cp -r fixtures/demo/agents "$tmp/proj/"
  (
    cd "$tmp/proj" && git init -q
    export HOME="$tmp/home" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
    timeout 60 "$claude" mcp add memory-index -- "$bin" mcp --root "$tmp/proj" >/dev/null
    timeout 120 "$claude" mcp list > "$tmp/list.txt" 2>&1 || true
  )
  if grep -q 'memory-index: .*Connected' "$tmp/list.txt"; then
    echo "PASS claude mcp list: memory-index connected"
  else
    echo "FAIL claude mcp list:"; cat "$tmp/list.txt"; status=1
  fi
elif [ "${MI_REQUIRE_MCP:-0}" = 1 ]; then
  echo "FAIL claude mcp list: Claude Code is missing in $target/claude-code"; status=1
else
  echo "SKIP claude mcp list: Claude Code is missing (npm install --prefix target/claude-code @anthropic-ai/claude-code@2.1.328)"
fi
exit $status
