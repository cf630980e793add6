#!/usr/bin/env python3
"""End-to-end test of `memory-index-lsp init --agent` + `hook --agent` with the real Codex, Copilot and Gemini CLIs, offline.

Called by e2e.sh (which installs the pinned CLIs and puts the server first on PATH):
  e2e.py --repo REPO --server SERVER --tmp DIR [codex|copilot|gemini]...

For each agent: a copy of fixtures/demo in a scratch git project, `memory-index-lsp
init --agent AGENT PROJECT` (a second run must change no byte), the trust a person
would grant written into a scratch user config home, then single non-interactive
turns against mock_api.py (a fresh mock per turn, every request body recorded):
  decision-prompt  a prompt a decision is about: its `[memory-index]` block and the
                   SessionStart note reach the model; the project's MCP server is offered
  everyday         an everyday prompt: no `[memory-index] /` block anywhere
  command          the model runs a command a decision governs: the decision reaches the
                   model after the command (pre-command hook; Gemini, which has none that
                   adds context: its AfterTool hook, with the command's result)
  failure          the model runs a failing script whose error a decision is about: the
                   decision reaches the model after the command
  pointer          a prompt a decision may be about (below the body threshold): one
                   `[memory-index?]` line names it, without its body; the model runs the
                   `memory-index-lsp resolve` it names, and the decision's section comes back
  file-scoped      a decision scoped to `src/**/*.ts`: the model reads `src/app.ts` (Copilot `view`,
                   Gemini `read_file`, Codex `cat`), then edits it (Copilot `edit`, Gemini `replace`,
                   Codex `apply_patch`, each in a turn of its own): the decision reaches the model after
                   the call; reading `docs/notes.md` brings no block
  stop-settled     (Codex) the person settles a rule: the Stop hook's request to record it
                   reaches the model as the next turn, once; an everyday turn ends with one request
  beside-claude    (Copilot) with Claude Code's hooks written too (`init --agent claude`), which
                   Copilot also runs: the SessionStart note and the decision reach the model once
Prints one PASS/FAIL line per check and a summary; exits 1 if any check failed.
Every wait is bounded.
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
AGENTS = ("codex", "copilot", "gemini")
TURN_TIMEOUT = 60  # seconds per turn (a turn takes 1-6 s here)

MOCK_PROMPT = "We are writing mock tests for the booking client; where should the mock patch go?"
SETTLED_PROMPT = "From now on, always run the integration tests with --test-threads=1 in CI."
STOP_REASON = "settled something the project's memory does not hold"
MOCK_HEADER = ("[memory-index] /when writing mock tests \u2192 When Writing Mock Tests "
               "(agents/decisions/testing.md:12, confidence ")
MOCK_BODY = "Patch where the name is used, not where it is defined."
EVERYDAY_PROMPT = "what does this regex do: ^a+$"
MIGRATE_COMMAND = "echo alembic revision -m migrate-the-booking-schema"
MIGRATE_HEADER = "[memory-index] /how migrate the booking schema \u2192 How to Migrate the Booking Schema ("
PRICES_HEADER = "[memory-index] /how store ticket prices \u2192 How to Store Ticket Prices ("
PRICES_ERROR = "ticket prices stored as float lost cents: store money as decimal cents"
SESSION_NOTE = "memory-index: this project records its decisions in"
INSTRUCTIONS = "This project records its decisions in `agents/memory-index.md`"
# What a session start says where the hooks are set up and the program is missing (project::agents::MISSING).
MISSING = "the hooks of this project run memory-index-lsp, which is not installed here"
BLOCK = "[memory-index] /"
# Confidence 0.48 on the demo, under CONFIG's prompt threshold and above the pointer floor (0.2).
POINTER_PROMPT = "we patch things in tests"
POINTER_LINE = "[memory-index?] /when writing mock tests \u2192 When Writing Mock Tests (agents/decisions/testing.md:12"
# A decision scoped to files (issue 50), added to the project's copy of the demo.
SCOPED_FILE = ("# Web\n\n## When Writing TypeScript\n\nApplies to files matching `src/**/*.ts`.\n\n"
               "Compile with strict mode on; never widen a type to `any` to silence the checker.\n")
SCOPED_HEADER = "[memory-index] /when writing typescript \u2192 When Writing TypeScript (agents/decisions/web.md:3"
SCOPED_BODY = "never widen a type to `any`"
# The thresholds are set here so the test does not depend on the calibrated defaults (as the Claude Code e2e does).
CONFIG = "[recall]\nprompt = 0.5\ncommand = 0.5\nerror = 0.5\n"

# What `init --agent` writes (the spec; the first file holds the hooks); each must exist after init.
INIT_FILES = {
    "codex": [".codex/hooks.json", ".codex/config.toml", "AGENTS.md"],
    "copilot": [".github/hooks/memory-index.json", ".mcp.json", "AGENTS.md"],
    "gemini": [".gemini/settings.json", "AGENTS.md"],
}
# The MCP server `memory-index` as each CLI offers it to the model (names seen in the recorded requests).
MCP_SEARCH_TOOL = {
    "codex": "mcp__memory_index__search",  # a namespace `mcp__memory_index` holding `search`
    "copilot": "memory-index-search",
    "gemini": "mcp_memory-index_search",
}
# Where a model request goes, per CLI (any other path, e.g. :countTokens, is not a turn of the conversation).
MODEL_PATH = {"codex": "/responses", "copilot": "/chat/completions", "gemini": ":streamGenerateContent"}

failures = []
counts = {}


def check(agent, name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + f"{agent}: {name}" + ("" if ok or detail in ("", None) else f": {detail}"),
          flush=True)
    c = counts.setdefault(agent, [0, 0])
    c[0 if ok else 1] += 1
    if not ok:
        failures.append(f"{agent}: {name}")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def snapshot(root):
    """{relative path: sha256} of every file under root (symlinks by their target)."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in files:
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def cli_path(agent):
    return os.path.join(ARGS.repo, "target", "agent-clis", agent, "node_modules", ".bin", agent)


# --- the person's side: user config homes with trust, and how each CLI is run -------------------------

def user_config(agent, base, proj, port, name=""):
    """(argv prefix before the prompt, extra env) for one turn; writes the user-level config under base/cfg:
    the mock model provider and the trust a person grants (init writes no user-level file). Codex: the
    project trusted in $CODEX_HOME/config.toml and --dangerously-bypass-hook-trust (no interactive hook
    review); Copilot: trusted_folders; Gemini: GEMINI_CLI_TRUST_WORKSPACE and the auth type."""
    cfg = os.path.join(base, "cfg")
    if agent == "codex":
        # The file turns name a model Codex knows (its catalog's `gpt-5.5`), so it offers `apply_patch`
        # (the mock answers as any); the others a model it does not, whose MCP tools it lists directly.
        model = "gpt-5.5" if name.startswith("file-") else "mock-model"
        write(os.path.join(cfg, "config.toml"), f'''model = "{model}"
model_provider = "mock"
[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
[projects."{proj}"]
trust_level = "trusted"
''')
        # Without the flag, hooks not reviewed in the interactive `codex` (hooks.state) are skipped.
        return ([cli_path("codex"), "exec", "--dangerously-bypass-hook-trust"],
                {"CODEX_HOME": cfg, "MOCK_API_KEY": "x"})
    if agent == "copilot":
        path = os.path.join(cfg, "config.json")
        if not os.path.exists(path):  # Copilot rewrites it (trustedFolders); keep its version after the first turn
            write(path, json.dumps({"trusted_folders": [proj]}))
        return ([cli_path("copilot"), "--allow-all-tools", "-p"],
                {"COPILOT_HOME": cfg, "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
                 "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1", "COPILOT_PROVIDER_API_KEY": "x",
                 "COPILOT_MODEL": "mock-model", "XDG_CONFIG_HOME": os.path.join(base, "home", ".config"),
                 "XDG_STATE_HOME": os.path.join(base, "home", ".state"),
                 # the launcher unpacks its 235 MB package under $XDG_CACHE_HOME/copilot/pkg: keep one copy
                 "XDG_CACHE_HOME": os.path.join(ARGS.repo, "target", "agent-clis", "copilot", "xdg-cache")})
    # gemini: the auth type lives in the USER settings ($GEMINI_CLI_HOME/.gemini/settings.json); init does not write it
    path = os.path.join(cfg, ".gemini", "settings.json")
    if not os.path.exists(path):
        write(path, json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    return ([cli_path("gemini"), "-m", "mock-model", "--yolo", "-p"],
            {"GEMINI_CLI_HOME": cfg, "GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
             "GEMINI_CLI_TRUST_WORKSPACE": "true"})


def turn(agent, base, proj, name, prompt, script=None, bare=False):
    """One non-interactive turn against a fresh mock API; returns the model request bodies it recorded.
    With `bare`, the server is on no PATH (a teammate who has not installed it)."""
    run = os.path.join(base, "runs", name)
    os.makedirs(run)
    rec, port_file = os.path.join(run, "requests"), os.path.join(run, "port")
    cmd = [sys.executable, os.path.join(HERE, "mock_api.py"), "--record", rec, "--port-file", port_file,
           "--timeout", str(TURN_TIMEOUT + 30)]
    if script is not None:
        write(os.path.join(run, "script.json"), json.dumps(script))
        cmd += ["--script", os.path.join(run, "script.json")]
    mock = subprocess.Popen(cmd)
    t0 = time.time()
    try:
        deadline = time.time() + 15
        while not os.path.exists(port_file):
            if time.time() > deadline or mock.poll() is not None:
                raise RuntimeError("the mock API did not start")
            time.sleep(0.05)
        with open(port_file) as f:
            port = f.read().strip()
        argv, extra = user_config(agent, base, proj, port, name)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CLAUDE", "ANTHROPIC", "OPENAI", "CODEX", "COPILOT", "GEMINI", "GOOGLE"))}
        env.pop("MEMORY_INDEX_LSP_CACHE_DIR", None)  # the hook's state under this run's HOME
        path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                               if not os.path.exists(os.path.join(d, "memory-index-lsp")))
        env.update(HOME=os.path.join(base, "home"), XDG_CACHE_HOME=os.path.join(base, "home", ".cache"),
                   NO_COLOR="1", TMPDIR=os.path.join(run, "tmp"),
                   PATH=path if bare else os.path.dirname(ARGS.server) + os.pathsep + path)
        env.update(extra)
        os.makedirs(env["TMPDIR"])
        os.makedirs(env["HOME"], exist_ok=True)
        # Installed as a person installs it: on the PATH of a login shell too (Codex runs the model's
        # commands in one, which resets PATH from /etc/profile and reads ~/.profile).
        write(os.path.join(env["HOME"], ".profile"), "" if bare else f'PATH="{os.path.dirname(ARGS.server)}:$PATH"\n')
        with open(os.path.join(run, "stdout.txt"), "w") as out, open(os.path.join(run, "stderr.txt"), "w") as err:
            try:
                rc = subprocess.run(argv + [prompt], cwd=proj, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=err, timeout=TURN_TIMEOUT).returncode
            except subprocess.TimeoutExpired:
                rc = f"a timeout after {TURN_TIMEOUT} s"
    finally:
        mock.terminate()
        try:
            mock.wait(timeout=10)
        except subprocess.TimeoutExpired:
            mock.kill()
    secs = time.time() - t0
    tail = ""
    if rc != 0:
        tail = (open(os.path.join(run, "stdout.txt")).read() + open(os.path.join(run, "stderr.txt")).read())[-800:]
    check(agent, f"{name}: the CLI exits 0 ({secs:.1f} s)", rc == 0, f"exit {rc}: {tail}")
    bodies = []
    for path in sorted(glob.glob(os.path.join(rec, "*.json"))):
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        if d["method"] == "POST" and MODEL_PATH[agent] in d["path"].split("?")[0] and isinstance(d["body"], dict):
            bodies.append(d["body"])
    check(agent, f"{name}: the model was asked", bool(bodies))
    return bodies


# --- reading the requests ------------------------------------------------------------------------------

def text(body):
    return json.dumps(body, ensure_ascii=False)


def with_prompt(bodies, prompt):
    """The JSON of the first request that carries the prompt ("" if none)."""
    for b in bodies:
        t = text(b)
        if json.dumps(prompt, ensure_ascii=False)[1:-1] in t:
            return t
    return ""


def after_shell_call(agent, bodies):
    """The JSON of the conversation from the mock's shell call on, in the last request that has it."""
    for body in reversed(bodies):
        items = {"codex": body.get("input"), "copilot": body.get("messages"),
                 "gemini": body.get("contents")}[agent] or []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            if agent == "codex":
                hit = (item.get("type") in ("function_call", "custom_tool_call")
                       and str(item.get("call_id", "")).startswith("call_mock_"))
            elif agent == "copilot":
                hit = any(str(c.get("id", "")).startswith("call_mock_") for c in item.get("tool_calls") or [])
            else:
                hit = any(str((p.get("functionCall") or {}).get("id", "")).startswith("call_mock_")
                          for p in item.get("parts") or [] if isinstance(p, dict))
            if hit:
                return json.dumps(items[i:], ensure_ascii=False)
    return ""


def offered_tools(body):
    """Names of the tools a request offers; a Codex namespace's tools as `namespace__tool`."""
    names = []
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if t.get("type") == "namespace":
            names.append(t.get("name", ""))
            names += [f"{t.get('name')}__{c.get('name')}" for c in t.get("tools") or [] if isinstance(c, dict)]
        elif "name" in t:
            names.append(t["name"])
        if isinstance(t.get("function"), dict):
            names.append(t["function"].get("name", ""))
        for d in t.get("functionDeclarations") or []:
            names.append(d.get("name", ""))
    return [n for n in names if n]


def excerpt(s, mark=BLOCK, n=500):
    at = s.find(mark)
    return s[max(0, at - 100):at + n] if at >= 0 else s[:n]


# --- one agent -----------------------------------------------------------------------------------------

def init(agent, proj):
    return subprocess.run([ARGS.server, "init", "--agent", agent, proj], capture_output=True, text=True, timeout=60)


def run_agent(agent):
    t0 = time.time()
    base = os.path.join(ARGS.tmp, agent)
    proj = os.path.realpath(os.path.join(base, "proj"))
    shutil.copytree(os.path.join(ARGS.repo, "fixtures", "demo"), proj)
    write(os.path.join(proj, "memory-index.toml"), CONFIG)
    subprocess.run(["git", "init", "-q", proj], check=True, timeout=30)

    p = init(agent, proj)
    check(agent, f"init --agent {agent} exits 0", p.returncode == 0, (p.stdout + p.stderr)[-800:])
    if p.returncode != 0:
        return time.time() - t0
    missing = [f for f in INIT_FILES[agent] if not os.path.isfile(os.path.join(proj, f))]
    check(agent, f"init --agent {agent} writes {', '.join(INIT_FILES[agent])}", not missing, f"missing {missing}")
    hooks_file = os.path.join(proj, INIT_FILES[agent][0])  # the first file named holds the hooks
    hooks = open(hooks_file, encoding="utf-8", errors="replace").read() if os.path.isfile(hooks_file) else ""
    check(agent, f"init's hooks run `memory-index-lsp hook --agent {agent}`",
          f"memory-index-lsp hook --agent {agent}" in hooks, hooks[:400])
    before = snapshot(proj)
    p = init(agent, proj)
    after = snapshot(proj)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    check(agent, f"a second init --agent {agent} exits 0 and changes no file", p.returncode == 0 and not changed,
          f"exit {p.returncode}, changed {changed}: {(p.stdout + p.stderr)[-400:]}")

    # a. A prompt a decision is about.
    bodies = turn(agent, base, proj, "decision-prompt", MOCK_PROMPT)
    first = with_prompt(bodies, MOCK_PROMPT)
    check(agent, "decision-prompt: the [memory-index] block for 'When Writing Mock Tests' reached the model",
          MOCK_HEADER in first and MOCK_BODY in first, excerpt(first, BLOCK if BLOCK in first else MOCK_PROMPT[:30]))
    check(agent, "decision-prompt: the SessionStart note reached the model", SESSION_NOTE in first,
          excerpt(first, "memory-index"))
    # The instructions block, in the AGENTS.md every agent shares (Gemini: through context.fileName).
    check(agent, "decision-prompt: the AGENTS.md instructions reached the model", INSTRUCTIONS in first,
          excerpt(first, "Project memory"))
    # e. The project's MCP server, from the same request.
    tools = offered_tools(bodies[0]) if bodies else []
    want = MCP_SEARCH_TOOL[agent]
    check(agent, f"decision-prompt: the project's MCP server memory-index is offered ({want})", want in tools,
          f"tools offered: {[t for t in tools if 'memory' in t.lower() or 'mcp' in t.lower()] or tools}")

    # b. An everyday prompt.
    bodies = turn(agent, base, proj, "everyday", EVERYDAY_PROMPT)
    hits = [excerpt(text(b)) for b in bodies if BLOCK in text(b)]
    check(agent, "everyday: no [memory-index] block reached the model", bodies and not hits, hits[:1])
    check(agent, "everyday: the hooks ran (the SessionStart note reached the model)",
          any(SESSION_NOTE in text(b) for b in bodies))

    if agent == "codex":
        # Codex ends an ordinary turn with one request: its Stop hook stays silent.
        check(agent, "everyday: the session ends with one request (Stop stays silent)", len(bodies) == 1,
              f"{len(bodies)} requests")
        # f. Capture at Stop: a rule the person settled reaches the model as the next turn, once.
        bodies = turn(agent, base, proj, "stop-settled", SETTLED_PROMPT)
        asked = [text(b) for b in bodies if STOP_REASON in text(b)]
        check(agent, "stop-settled: the Stop hook asks to record what was settled, quoting it",
              asked and "--test-threads=1" in asked[0], f"{len(bodies)} requests; {text(bodies[-1])[-400:] if bodies else ''}")
        check(agent, "stop-settled: it asks once (the stop after it ends the session)", len(bodies) == 2,
              f"{len(bodies)} requests")

    # c. A command a decision governs (Gemini: its AfterTool hook, with the command's result; its
    # BeforeTool context never reaches the model, NOTES.md).
    bodies = turn(agent, base, proj, "command", "RUN_MIGRATION please",
                  [{"match": "RUN_MIGRATION", "shell": MIGRATE_COMMAND}])
    check(agent, "command: the prompt itself injects nothing", bodies and BLOCK not in text(bodies[0]),
          excerpt(text(bodies[0])) if bodies else "")
    after_call = after_shell_call(agent, bodies)
    # once in the call's arguments, once more in its output (echo)
    check(agent, "command: the mock's command ran", after_call.count("revision -m migrate-the-booking-schema") >= 2,
          after_call[:400])
    check(agent, f"command: 'How to Migrate the Booking Schema' reached the model after `{MIGRATE_COMMAND}`",
          MIGRATE_HEADER in after_call, excerpt(after_call, "[memory-index]") or after_call[:600])

    # d. A failing command whose error a decision is about. Codex's payload carries only the output text,
    # so its script prints an `error:` line; the others see the exit code.
    line = ("error: " if agent == "codex" else "") + PRICES_ERROR
    write(os.path.join(proj, "fail.sh"), f"echo '{line}' >&2\nexit 1\n")
    bodies = turn(agent, base, proj, "failure", "RUN_FAILING please",
                  [{"match": "RUN_FAILING", "shell": "bash fail.sh"}])
    check(agent, "failure: the prompt itself injects nothing", bodies and BLOCK not in text(bodies[0]),
          excerpt(text(bodies[0])) if bodies else "")
    after_call = after_shell_call(agent, bodies)
    check(agent, "failure: the failing script's error came back to the model", PRICES_ERROR in after_call,
          after_call[:400])
    check(agent, "failure: 'How to Store Ticket Prices' reached the model after `bash fail.sh` failed",
          PRICES_HEADER in after_call, excerpt(after_call, "[memory-index]") or after_call[:600])

    # h. A pointer (issue 50): named in one line below the body threshold, read by the model when it applies.
    bodies = turn(agent, base, proj, "pointer", POINTER_PROMPT,
                  [{"match": "[memory-index?] /when writing mock tests",
                    "shell": 'memory-index-lsp resolve "when writing mock tests"'}])
    first = with_prompt(bodies, POINTER_PROMPT)
    check(agent, "pointer: one [memory-index?] line named the decision, without its body",
          POINTER_LINE in first and MOCK_BODY not in first and BLOCK not in first,
          excerpt(first, "[memory-index?]" if "[memory-index?]" in first else POINTER_PROMPT))
    after_call = after_shell_call(agent, bodies)
    check(agent, "pointer: the model ran the resolve it names, and the decision's section came back",
          "# When Writing Mock Tests" in after_call and MOCK_BODY in after_call, after_call[:600])

    # i. Recall for the files the agent reads and edits (issue 50).
    write(os.path.join(proj, "agents/decisions/web.md"), SCOPED_FILE)
    with open(os.path.join(proj, "agents/memory-index.md"), "a", encoding="utf-8") as f:
        f.write("\n## agents/decisions/web.md\n\n/when writing typescript | strict mode\n")
    write(os.path.join(proj, "src/app.ts"), "let a = 1;\n")
    write(os.path.join(proj, "docs/notes.md"), "Sailing notes.\n")
    at = (lambda rel: rel) if agent == "codex" else (lambda rel: os.path.join(proj, rel))
    for name, op in [("file-other", {"op": "read", "path": at("docs/notes.md")}),
                     ("file-scoped-read", {"op": "read", "path": at("src/app.ts")}),
                     ("file-scoped-edit", {"op": "edit", "path": at("src/app.ts"), "old": "let a = 1;",
                                           "new": "let a: number = 1;"})]:
        bodies = turn(agent, base, proj, name, "WORK_ON_FILES please", [{"match": "WORK_ON_FILES", "file": op}])
        after_call = after_shell_call(agent, bodies)
        check(agent, f"{name}: the mock's {op['op']} of {op['path']} ran", bool(after_call), text(bodies[-1])[-400:]
              if bodies else "")
        if name == "file-other":
            check(agent, "file-other: no [memory-index] block after reading docs/notes.md", BLOCK not in after_call,
                  excerpt(after_call))
        else:
            check(agent, f"{name}: 'When Writing TypeScript' reached the model after the {op['op']} of src/app.ts",
                  SCOPED_HEADER in after_call and SCOPED_BODY in after_call,
                  excerpt(after_call, "[memory-index]") or after_call[:600])

    # j. A teammate without the program (issue 51): every hook exits 0, and the session's start says once
    # what to install, where the agent shows it (Codex and Copilot: the model; Gemini: the person).
    bodies = turn(agent, base, proj, "no-program", MOCK_PROMPT, bare=True)
    run = os.path.join(base, "runs", "no-program")
    shown = open(os.path.join(run, "stdout.txt")).read() + open(os.path.join(run, "stderr.txt")).read()
    said = [b for b in bodies if MISSING in text(b)]
    if agent == "gemini":
        check(agent, "no-program: the person is told once what to install", shown.count(MISSING) >= 1, shown[-600:])
    else:
        check(agent, "no-program: the model is told what to install, once", said and text(said[0]).count(MISSING) == 1,
              excerpt(text(bodies[0]) if bodies else "", "memory-index"))
    bad = [w for w in ("command not found", "memory-index-lsp: not found", "hook error", "exit code 127",
                       "status 127") if w in shown.lower()]
    check(agent, "no-program: no hook error shown", not bad, f"{bad}: {shown[-600:]}")
    check(agent, "no-program: no decision injected", bodies and all(BLOCK not in text(b) for b in bodies))

    if agent == "copilot":
        # g. Copilot runs .claude/settings.json's hooks too, which `init --agent all` writes beside
        # its own: each hook runs twice, and the model still gets the note and the decision once.
        p = init("claude", proj)
        check(agent, "init --agent claude beside it exits 0", p.returncode == 0, (p.stdout + p.stderr)[-400:])
        bodies = turn(agent, base, proj, "beside-claude", MOCK_PROMPT)
        first = with_prompt(bodies, MOCK_PROMPT)
        check(agent, "beside-claude: the SessionStart note reached the model once", first.count(SESSION_NOTE) == 1,
              f"{first.count(SESSION_NOTE)} times: {excerpt(first, 'memory-index')}")
        check(agent, "beside-claude: the decision reached the model once", first.count(MOCK_HEADER) == 1,
              f"{first.count(MOCK_HEADER)} times: {excerpt(first)}")
    return time.time() - t0


def main():
    timings = {}
    for agent in ARGS.agents or AGENTS:
        try:
            timings[agent] = run_agent(agent)
        except Exception as e:  # a broken setup is a failure of this agent, not the end of the run
            check(agent, "the run completes", False, f"{type(e).__name__}: {e}")
    for agent in ARGS.agents or AGENTS:
        ok, bad = counts.get(agent, [0, 0])
        secs = f", {timings[agent]:.1f} s" if agent in timings else ""
        print(f"{agent}: {ok} passed, {bad} failed{secs}")
    print(f"agents e2e: {len(failures)} failed" if failures else "agents e2e: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("agents", nargs="*", help="codex, copilot, gemini (default: all three)")
    ARGS = ap.parse_args()
    bad = [a for a in ARGS.agents if a not in AGENTS]
    if bad:
        ap.error(f"unknown agent(s) {bad}; choose from {', '.join(AGENTS)}")
    ARGS.server = os.path.abspath(ARGS.server)
    sys.exit(main())
