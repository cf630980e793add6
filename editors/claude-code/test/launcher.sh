#!/usr/bin/env bash
# Checks the plugin's launcher (bin/memory-index-lsp) finds the server as the
# VS Code extension does: $MEMORY_INDEX_LSP_PATH, the bundled server/, PATH;
# and, with none, says how to get it (the hook exits 0, never blocking).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -R "$plugin/bin" "$tmp/bin"
launcher="$tmp/bin/memory-index-lsp"
fake() { printf '#!/bin/sh\necho "%s $*"\n' "$1" >"$2"; chmod +x "$2"; }
mkdir -p "$tmp/path" "$tmp/server"
fail() { echo "FAIL launcher: $*" >&2; exit 1; }

# Nothing anywhere: a note on stderr; `hook` exits 0, anything else 127.
out="$(PATH=/usr/bin:/bin "$launcher" hook 2>&1)" || fail "hook without a server must exit 0"
case "$out" in *"no memory-index-lsp found"*"Install it"*) ;; *) fail "no install hint: $out" ;; esac
if PATH=/usr/bin:/bin "$launcher" resolve x >/dev/null 2>&1; then fail "resolve without a server must fail"; fi
# PATH.
fake on-path "$tmp/path/memory-index-lsp"
[ "$(PATH="$tmp/path:/usr/bin:/bin" "$launcher" hook)" = "on-path hook" ] || fail "PATH not used"
# The bundled server wins over PATH.
fake bundled "$tmp/server/memory-index-lsp"
[ "$(PATH="$tmp/path:/usr/bin:/bin" "$launcher" mcp)" = "bundled mcp" ] || fail "bundled server not used"
# The variable wins over both.
fake chosen "$tmp/chosen"
[ "$(MEMORY_INDEX_LSP_PATH="$tmp/chosen" PATH="$tmp/path:/usr/bin:/bin" "$launcher" hook)" = "chosen hook" ] ||
  fail "MEMORY_INDEX_LSP_PATH not used"
# The launcher on PATH is not mistaken for the server.
rm "$tmp/server/memory-index-lsp" "$tmp/path/memory-index-lsp"
out="$(PATH="$tmp/bin:/usr/bin:/bin" "$launcher" hook 2>&1)" || fail "a launcher on PATH must not loop"
case "$out" in *"no memory-index-lsp found"*) ;; *) fail "launcher found itself: $out" ;; esac
echo "PASS launcher: MEMORY_INDEX_LSP_PATH, bundled server/, PATH, and a hint when none"
