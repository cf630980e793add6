#!/usr/bin/env bash
# Offline smoke test of the hooks of three coding-agent CLIs (Codex, GitHub
# Copilot CLI, Gemini CLI) against the loopback mock model API: each runs one
# turn with a succeeding and a failing shell command; the check is that every
# hook event fired and that the output shape that agent accepts reached the
# model's request. See NOTES.md for what was verified and why.
#
#   tests/agents/run.sh [codex|copilot|gemini]...
#
# The CLIs are installed (pinned) into target/agent-clis/<name> when missing;
# SKIP when npm cannot install one, unless MI_REQUIRE_AGENTS=1.
# MI_E2E_KEEP=1 keeps the scratch folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
declare -A pkg=([codex]=@openai/codex@0.169.0 [copilot]=@github/copilot@1.0.102 [gemini]=@google/gemini-cli@0.61.0)
agents=("$@")
[ ${#agents[@]} -gt 0 ] || agents=(codex copilot gemini)

tmp="$(mktemp -d)"
if [ "${MI_E2E_KEEP:-0}" = 1 ]; then echo "scratch folder kept: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
# What each agent accepts (NOTES.md): Codex and Gemini hookSpecificOutput, Copilot top-level additionalContext.
echo '{"hookSpecificOutput":{"hookEventName":"{EVENT}","additionalContext":"MARK-{EVENT}"}}' > "$tmp/hso.json"
echo '{"additionalContext":"MARK-{EVENT}"}' > "$tmp/top.json"

fail=0
for agent in "${agents[@]}"; do
  prefix="$repo/target/agent-clis/$agent"
  bin="$prefix/node_modules/.bin/$agent"
  name="${pkg[$agent]%@*}"
  have="$(node -p "require('$prefix/node_modules/$name/package.json').version" 2>/dev/null || true)"
  if [ ! -x "$bin" ] || [ "$have" != "${pkg[$agent]##*@}" ]; then
    echo "installing ${pkg[$agent]} into $prefix"
    mkdir -p "$prefix"
    if ! npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "${pkg[$agent]}" >/dev/null; then
      if [ "${MI_REQUIRE_AGENTS:-0}" = 1 ]; then echo "FAIL $agent: npm could not install ${pkg[$agent]}"; fail=1; continue; fi
      echo "SKIP $agent: npm could not install ${pkg[$agent]} (offline?)"
      continue
    fi
  fi
  reply="$tmp/hso.json"; [ "$agent" = copilot ] && reply="$tmp/top.json"
  server="${SERVER:-$repo/target/debug/memory-index-lsp}"
  mcp=(); [ -x "$server" ] && mcp=(--mcp)  # the MCP check needs the server binary (not built here)
  summary="$(SERVER="$server" timeout 300 python3 "$here/capture.py" --agent "$agent" --run "$tmp/$agent" \
             --reply "$reply" "${mcp[@]}")" || true
  python3 - "$agent" "$tmp/$agent" "$summary" "${#mcp[@]}" <<'EOF' || fail=1
import glob, json, sys
agent, run, summary = sys.argv[1], sys.argv[2], sys.argv[3]
want = {"codex": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"],
        "copilot": ["sessionStart", "UserPromptSubmit", "preToolUse", "postToolUse", "PreToolUse", "PostToolUse"],
        "gemini": ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool"]}[agent]
landed = {"codex": ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"],
          "copilot": ["sessionStart", "UserPromptSubmit", "preToolUse", "postToolUse"],
          "gemini": ["SessionStart", "BeforeAgent", "AfterTool"]}[agent]
mcp = {"codex": "mcp__memidx", "copilot": "memidx-search", "gemini": "mcp_memidx_search"}[agent]
bad = []
try:
    s = json.loads(summary)
except ValueError:
    s = {"rc": "no summary", "events": []}
if s["rc"] != 0:
    bad.append(f"exit {s['rc']}")
bad += [f"no {e} hook" for e in want if e not in s["events"]]
hooks = [json.loads(l)["stdin"] for l in open(run + "/hooks.jsonl")] if s["events"] else []
if "No such file or directory" not in json.dumps(hooks):  # only an after-tool payload has the error text
    bad.append("no hook saw the failing command's error")
reqs = sorted(glob.glob(run + "/req/*.json"))
last = json.dumps(json.load(open(reqs[-1]))["body"]) if reqs else ""
bad += [f"{e}'s context did not reach the model" for e in landed if f"MARK-{e}" not in last]
if sys.argv[4] == "1" and mcp not in last:
    bad.append(f"the project's MCP server was not offered ({mcp})")
print(("FAIL " if bad else "PASS ") + f"{agent}: hooks and context ({s.get('seconds')} s)" + (": " + "; ".join(bad) if bad else ""))
sys.exit(1 if bad else 0)
EOF
done
exit $fail
