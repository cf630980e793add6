#!/usr/bin/env bash
# Runs every test of the project: the Rust crate (unit, integration, corpus,
# property, hostile-input and end-to-end tests), clippy over it and the fuzz targets,
# and the editor integrations (TextMate grammar tests, the VS Code extension
# build, the headless Neovim test through Neovim's own LSP client, and the
# Claude Code plugin's offline end-to-end test with the real Claude Code),
# Emacs 30's eglot against the server, the MCP server through the
# official MCP Python SDK and `claude mcp list`, and `init --agent` + the
# hook with the real Codex, Copilot and Gemini CLIs offline (tests/agents/e2e.sh);
# the real clients run at once, each one's output shown whole when it ends.
# The README's test command and .ci/run call exactly this script.
#
# Needs: the Rust toolchain, Node.js with npm (grammar and extension), and
# Neovim 0.11+ for the Neovim test, Emacs 30+ for the eglot test, the MCP
# Python SDK for the MCP test, `dist` for the release build, and npm access
# for the Codex, Copilot and Gemini CLIs, installed into target/agent-clis
# when missing (each skipped with a message when missing, unless MI_REQUIRE_NVIM=1 /
# MI_REQUIRE_EMACS=1 / MI_REQUIRE_MCP=1 / MI_REQUIRE_DIST=1 /
# MI_REQUIRE_AGENTS=1 / MI_REQUIRE_MODEL=1, which .ci/run sets). The semantic
# tier's model test needs all-MiniLM-L6-v2 (tests/tools/fetch-model.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

# Every line also goes to a log, so the run ends with the list of what was skipped.
log="$(mktemp)"
exec > >(tee "$log") 2>&1
summary() {
  local n
  n=$(grep -c '^SKIP' "$log" || true)
  echo "== skipped: $n =="
  grep '^SKIP' "$log" || true
  rm -f "$log"
}
# The hook's sessions and the search index's snapshots go to a folder of this run, never the user's cache.
state="$(mktemp -d)"
export MEMORY_INDEX_LSP_CACHE_DIR="$state"
trap 'summary; rm -rf "$state"' EXIT
# Each stage's title with the run's time so far (docs/performance.md, "CI", keeps the figures).
stage() { echo "== $* == (at ${SECONDS} s)"; }

if [ ! -d ../shared/corpus ]; then
  echo "SKIP corpus tests: ../shared/corpus is absent (the tests that read the real corpora return at once)"
fi

if [ ! -f "${MEMORY_INDEX_LSP_MODEL:-target/models/all-MiniLM-L6-v2}/model.safetensors" ]; then
  if [ "${MI_REQUIRE_MODEL:-0}" = 1 ]; then
    echo "FAIL: MI_REQUIRE_MODEL=1 but no model (tests/tools/fetch-model.sh puts all-MiniLM-L6-v2 in target/models)"
    exit 1
  fi
  echo "SKIP semantic model tests: no all-MiniLM-L6-v2 in ${MEMORY_INDEX_LSP_MODEL:-target/models/all-MiniLM-L6-v2} (tests/tools/fetch-model.sh fetches it)"
fi

stage "cargo test (workspace)"
cargo test --workspace --locked

stage "rustfmt (formatting is checked)"
cargo fmt --all --check

stage "clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

stage "fuzz targets linked (clippy checked them)"
cargo build --quiet --locked -p memory-index-lsp-fuzz --bins


stage "user guide (mdBook)"
mdbook="$(command -v mdbook || echo target/tools/mdbook/bin/mdbook)"
if [ -x "$mdbook" ]; then
  # Its links are checked by `cargo test` (docs::every_link_resolves); this builds the book itself.
  "$mdbook" build docs
else
  if [ "${MI_REQUIRE_MDBOOK:-0}" = 1 ]; then
    echo "FAIL: MI_REQUIRE_MDBOOK=1 but no mdbook (.ci/run installs it under target/tools/mdbook)"
    exit 1
  fi
  echo "SKIP user guide build: no mdbook (cargo install --locked mdbook --root target/tools/mdbook)"
fi

# Emacs 30's eglot against the server (a SKIP line without Emacs 30, a FAIL with MI_REQUIRE_EMACS=1).
emacs_test() {
  if command -v "${EMACS:-emacs}" >/dev/null 2>&1 &&
    [ "$("${EMACS:-emacs}" --batch -Q --eval '(princ emacs-major-version)' 2>/dev/null || echo 0)" -ge 30 ]; then
    bash tests/emacs/run.sh
  elif [ "${MI_REQUIRE_EMACS:-0}" = 1 ]; then
    echo "FAIL emacs: no Emacs 30+ (Debian bookworm: apt-get install -t bookworm-backports emacs-nox)"
    return 1
  else
    echo "SKIP emacs: no Emacs 30+ found (Debian bookworm: apt-get install -t bookworm-backports emacs-nox)"
  fi
}

# The real clients are independent (each in its own temporary folders, each mock model API on a
# port the system picks), so they run at once; each one's output is shown whole when it ends, in
# this order, and any failure fails the run.
stage "real clients, at once: editor integrations, Emacs eglot, the MCP server, Codex, Copilot and Gemini CLIs"
clients="$(mktemp -d)"
names=(editors emacs mcp agents)
# Each with a state folder of its own (sessions, snapshots, the vectors' lock).
mkdir -p "$state"/{editors,emacs,mcp,agents}
MEMORY_INDEX_LSP_CACHE_DIR="$state/editors" bash editors/check.sh >"$clients/editors" 2>&1 & pids=($!)
(export MEMORY_INDEX_LSP_CACHE_DIR="$state/emacs"; emacs_test) >"$clients/emacs" 2>&1 & pids+=($!)
MEMORY_INDEX_LSP_CACHE_DIR="$state/mcp" bash tests/mcp/run.sh >"$clients/mcp" 2>&1 & pids+=($!)
MEMORY_INDEX_LSP_CACHE_DIR="$state/agents" bash tests/agents/e2e.sh >"$clients/agents" 2>&1 & pids+=($!)
failed=()
for i in "${!names[@]}"; do
  if wait "${pids[$i]}"; then code=0; else code=$?; fi
  echo "== ${names[$i]}: exit $code, done by ${SECONDS} s =="
  cat "$clients/${names[$i]}"
  [ "$code" = 0 ] || failed+=("${names[$i]}")
done
rm -rf "$clients"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "FAIL real clients: ${failed[*]}"
  exit 1
fi

stage "release build (dist) and the VS Code package that carries it"
bash tests/dist.sh
echo "== done in ${SECONDS} s =="
