#!/usr/bin/env bash
# End-to-end test of `memory-index-lsp init --agent` and `hook --agent` with
# the real Codex, GitHub Copilot CLI and Gemini CLI, offline: each agent's
# project is set up by `init`, the trust a person grants is written into a
# scratch user config home, and single turns against the loopback mock model
# API (mock_api.py) show what reached the model. See e2e.py for the checks
# and NOTES.md for how each CLI runs offline.
#
#   tests/agents/e2e.sh [codex|copilot|gemini]...
#
# Environment: SERVER (default: target/debug/memory-index-lsp, built with
# cargo if missing). The CLIs are installed (pinned) into
# target/agent-clis/<name> when missing; SKIP when npm cannot install one,
# unless MI_REQUIRE_AGENTS=1 (which .ci/run sets), which makes it FAIL.
# MI_E2E_KEEP=1 keeps the scratch folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
declare -A pkg=([codex]=@openai/codex@0.169.0 [copilot]=@github/copilot@1.0.102 [gemini]=@google/gemini-cli@0.61.0)
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(codex copilot gemini)
for agent in "${agents[@]}"; do
  [ -n "${pkg[$agent]:-}" ] || { echo "usage: $0 [codex|copilot|gemini]..." >&2; exit 2; }
done

if [ -z "${SERVER:-}" ]; then
  SERVER="${CARGO_TARGET_DIR:-$repo/target}/debug/memory-index-lsp"
  if [ ! -x "$SERVER" ]; then
    echo "building $SERVER"
    (cd "$repo" && cargo build --quiet --locked --bin memory-index-lsp)
  fi
fi
[ -x "$SERVER" ] || { echo "FAIL agents: server binary $SERVER not found" >&2; exit 1; }
SERVER="$(cd "$(dirname "$SERVER")" && pwd)/$(basename "$SERVER")"

fail=0
ready=()
for agent in "${agents[@]}"; do
  prefix="$repo/target/agent-clis/$agent"
  name="${pkg[$agent]%@*}"
  have="$(node -p "require('$prefix/node_modules/$name/package.json').version" 2>/dev/null || true)"
  if [ ! -x "$prefix/node_modules/.bin/$agent" ] || [ "$have" != "${pkg[$agent]##*@}" ]; then
    echo "installing ${pkg[$agent]} into $prefix"
    mkdir -p "$prefix"
    if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${pkg[$agent]}" >/dev/null; then
      if [ "${MI_REQUIRE_AGENTS:-0}" = 1 ]; then
        echo "FAIL $agent: npm could not install ${pkg[$agent]}"
        fail=1
      else
        echo "SKIP $agent: npm could not install ${pkg[$agent]} (offline?)"
      fi
      continue
    fi
  fi
  ready+=("$agent")
done
[ ${#ready[@]} -gt 0 ] || exit $fail

tmp="$(mktemp -d)"
if [ "${MI_E2E_KEEP:-0}" = 1 ]; then echo "scratch folder kept: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
# The hook commands init writes name `memory-index-lsp` from PATH: this server first.
export PATH="$(dirname "$SERVER"):$PATH"
timeout 300 python3 "$here/e2e.py" --repo "$repo" --server "$SERVER" --tmp "$tmp" "${ready[@]}" || fail=1
exit $fail
