#!/usr/bin/env python3
"""Runs one coding-agent CLI (Codex, Copilot CLI or Gemini CLI) offline for one turn and records its hooks.

  capture.py --agent codex|copilot|gemini --run DIR [--prompt P] [--script FILE]
             [--reply FILE [--reply-event EVENT]] [--mcp] [--no-hooks] [--timeout S]
             [--trust trusted|no] [--setup BASH] [--arg ARG]... [--save-payloads DIR]

Makes DIR/{home,cfg,proj}: a scratch project with the project-level hook config
of that CLI (every event we care about runs record_hook.py, which logs to
DIR/hooks.jsonl), a config home pointed at DIR (nothing outside DIR and
target/agent-clis is touched), a mock model API (mock_api.py, requests in
DIR/req/NNN.json). With --reply, the hook prints that file (with {EVENT}
replaced) so one can see where its output lands in the request. With --mcp, the
project-level MCP config names `memory-index-lsp mcp` as server "memidx".
Prints a JSON summary: exit code, seconds, events seen, request count.
The default prompt asks the mock for one succeeding and one failing shell command.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CLIS = os.path.join(REPO, "target", "agent-clis")
SERVER = os.environ.get("SERVER") or os.path.join(REPO, "target", "debug", "memory-index-lsp")
HOOK = os.path.join(HERE, "record_hook.py")
DEFAULT_SCRIPT = [{"match": "RUN_OK", "shell": "echo hello-ok"},
                  {"match": "RUN_FAIL", "shell": "ls /nonexistent-dir-xyz"}]
PROMPT = "Please RUN_OK and then RUN_FAIL"
SHELLS = ("bash", "run_shell_command", "exec_command", "shell", "shell_command")


def hook_cmd(event):
    return f"python3 {HOOK} {event}"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def setup_codex(a, d, port):
    """Codex: hooks in the project's .codex/hooks.json (Claude Code's format); the project is
    trusted in $CODEX_HOME/config.toml, which also names the mock provider."""
    proj, home = d["proj"], d["cfg"]
    if not a.no_hooks:
        ev = lambda e, m=None: [dict({"hooks": [{"type": "command", "command": hook_cmd(e), "timeout": 30}]},
                                     **({"matcher": m} if m else {}))]
        write(os.path.join(proj, ".codex/hooks.json"), json.dumps({"hooks": {
            "SessionStart": ev("SessionStart"), "UserPromptSubmit": ev("UserPromptSubmit"),
            "PreToolUse": ev("PreToolUse"), "PostToolUse": ev("PostToolUse"),
            "Stop": ev("Stop")}}, indent=1))
    if a.mcp:
        write(os.path.join(proj, ".codex/config.toml"),
              f'[mcp_servers.memidx]\ncommand = "{SERVER}"\nargs = ["mcp"]\n')
    write(os.path.join(home, "config.toml"), f'''model = "mock-model"
model_provider = "mock"
[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
[features]
hooks = true
[projects."{proj}"]
trust_level = "{a.trust}"
''')
    argv = [os.path.join(CLIS, "codex/node_modules/.bin/codex"), "exec", "--skip-git-repo-check", a.prompt]
    if not a.no_bypass:  # without it, hooks not reviewed in `codex` (hooks.state trusted_hash) are skipped
        argv.insert(2, "--dangerously-bypass-hook-trust")
    return argv, {"CODEX_HOME": home, "MOCK_API_KEY": "x"}


def setup_copilot(a, d, port):
    """Copilot CLI: hooks in the project's .github/hooks/record.json; BYOK provider via env."""
    proj, home = d["proj"], d["cfg"]
    if not a.no_hooks:
        ev = lambda e: [{"type": "command", "bash": hook_cmd(e), "timeoutSec": 30}]
        names = a.copilot_events.split(",")
        write(os.path.join(proj, ".github/hooks/record.json"),
              json.dumps({"version": 1, "hooks": {n: ev(n) for n in names}}, indent=1))
    if a.mcp:
        write(os.path.join(proj, ".mcp.json"), json.dumps(
            {"mcpServers": {"memidx": {"type": "stdio", "command": SERVER, "args": ["mcp"], "tools": ["*"]}}}))
    if a.trust == "trusted":
        write(os.path.join(home, "config.json"), json.dumps({"trusted_folders": [proj]}))
    argv = [os.path.join(CLIS, "copilot/node_modules/.bin/copilot"), "-p", a.prompt, "--allow-all-tools"]
    return argv, {"COPILOT_HOME": home, "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
                  "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1", "COPILOT_PROVIDER_API_KEY": "x",
                  "COPILOT_MODEL": "mock-model", "XDG_CONFIG_HOME": os.path.join(d["home"], ".config"),
                  "XDG_STATE_HOME": os.path.join(d["home"], ".state"),
                  # the launcher unpacks its 235 MB package under $XDG_CACHE_HOME/copilot/pkg: keep one copy
                  "XDG_CACHE_HOME": os.path.join(CLIS, "copilot", "xdg-cache")}


def setup_gemini(a, d, port):
    """Gemini CLI: hooks in the project's .gemini/settings.json; API key auth pointed at the mock."""
    proj = d["proj"]
    settings = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    if not a.no_hooks:
        ev = lambda e, m=None: [dict({"hooks": [{"type": "command", "command": hook_cmd(e), "name": "record",
                                                  "timeout": 30000}]}, **({"matcher": m} if m else {}))]
        settings["hooks"] = {"SessionStart": ev("SessionStart"), "BeforeAgent": ev("BeforeAgent"),
                             "BeforeTool": ev("BeforeTool"), "AfterTool": ev("AfterTool"), "AfterAgent": ev("AfterAgent"),
                             "SessionEnd": ev("SessionEnd")}
    if a.mcp:
        settings["mcpServers"] = {"memidx": {"command": SERVER, "args": ["mcp"]}}
    write(os.path.join(proj, ".gemini/settings.json"), json.dumps(settings, indent=1))
    env = {"GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
           "GEMINI_CLI_HOME": d["cfg"]}
    if a.trust == "trusted":
        env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
    argv = [os.path.join(CLIS, "gemini/node_modules/.bin/gemini"), "-m", "mock-model", "--yolo", "-p", a.prompt]
    return argv, env


def save_payloads(run, agent, out):
    """One payload per event from DIR/hooks.jsonl, pretty-printed, temp paths replaced by placeholders.
    After-tool events are saved per command: <Event>-ok.json (echo) and <Event>-failed.json (ls of a
    missing dir); a before-tool event once (the echo).
    Copilot's PascalCase (Claude-style) events go to copilot/pascal/ so no two names differ only in case."""
    subst = [(os.path.join(run, "proj"), "/tmp/PROJECT"), (os.path.join(run, "cfg"), "/tmp/CONFIG_HOME"),
             (os.path.join(run, "home"), "/tmp/HOME"), (run, "/tmp/RUN")]
    saved = {}
    with open(os.path.join(run, "hooks.jsonl"), encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            event, payload = (entry["argv"] or ["unknown"])[0], entry["stdin"]
            text = json.dumps(payload, ensure_ascii=False)
            tool = payload.get("tool_name") or payload.get("toolName") or ""
            if tool and tool.lower() not in SHELLS:  # a file tool's events: <Event>-<tool>.json
                event += "-" + tool
            elif event in ("PostToolUse", "postToolUse", "AfterTool"):
                event += "-failed" if "nonexistent-dir-xyz" in text else "-ok"
            folder = os.path.join(out, agent, "pascal" if agent == "copilot" and event[0].isupper() else "")
            if (folder, event) in saved:
                continue
            for old, new in subst:
                text = text.replace(old, new)
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, event + ".json"), "w", encoding="utf-8") as g:
                g.write(json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n")
            saved[(folder, event)] = True
    return sorted(os.path.relpath(os.path.join(f, e + ".json"), out) for f, e in saved)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True, choices=["codex", "copilot", "gemini"])
    ap.add_argument("--run", required=True)
    ap.add_argument("--prompt", default=PROMPT)
    ap.add_argument("--script")
    ap.add_argument("--reply")
    ap.add_argument("--reply-event")
    ap.add_argument("--trust", default="trusted", help="'trusted' or anything else (not trusted)")
    ap.add_argument("--mcp", action="store_true")
    ap.add_argument("--no-hooks", action="store_true")
    ap.add_argument("--copilot-events", default="sessionStart,userPromptSubmitted,preToolUse,postToolUse,"
                    "errorOccurred,agentStop,sessionEnd,SessionStart,UserPromptSubmit,PreToolUse,PostToolUse,"
                    "PostToolUseFailure,Stop,SessionEnd")
    ap.add_argument("--setup", help="bash run in the project after the config is written ($HOOK, $RUN, $CFG)")
    ap.add_argument("--arg", action="append", default=[], help="one more argument for the CLI")
    ap.add_argument("--save-payloads", help="write one payload per event under DIR/<agent>/")
    ap.add_argument("--no-bypass", action="store_true", help="codex: without --dangerously-bypass-hook-trust")
    ap.add_argument("--timeout", type=float, default=180)
    a = ap.parse_args()
    run = os.path.abspath(a.run)
    shutil.rmtree(run, ignore_errors=True)
    d = {k: os.path.join(run, k) for k in ("home", "cfg", "proj", "req")}
    for k in ("home", "cfg", "proj"):
        os.makedirs(d[k])
    subprocess.run(["git", "init", "-q", d["proj"]], check=True, timeout=30)
    script = os.path.join(run, "script.json")
    if a.script:
        shutil.copy(a.script, script)
    else:
        write(script, json.dumps(DEFAULT_SCRIPT))
    port_file = os.path.join(run, "port")
    mock = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_api.py"), "--record", d["req"],
                             "--port-file", port_file, "--script", script, "--timeout", str(a.timeout + 30)])
    try:
        deadline = time.time() + 15
        while not os.path.exists(port_file):
            if time.time() > deadline or mock.poll() is not None:
                raise RuntimeError("the mock API did not start")
            time.sleep(0.05)
        port = open(port_file).read().strip()
        argv, extra = globals()["setup_" + a.agent](a, d, port)
        argv += a.arg
        if a.setup:  # an experiment's own extra files, e.g. another config location
            subprocess.run(["bash", "-c", a.setup], cwd=d["proj"], check=True, timeout=30,
                           env=dict(os.environ, HOOK=HOOK, RUN=run, CFG=d["cfg"], HOMEDIR=d["home"]))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ANTHROPIC", "OPENAI",
                                                                          "CODEX", "COPILOT", "GEMINI", "GOOGLE"))}
        env.pop("MEMORY_INDEX_LSP_CACHE_DIR", None)  # the hook's state under this run's HOME
        env.update(HOME=d["home"], RECORD_HOOK_LOG=os.path.join(run, "hooks.jsonl"),
                   XDG_CACHE_HOME=os.path.join(d["home"], ".cache"), NO_COLOR="1", TMPDIR=os.path.join(run, "tmp"))
        env.update(extra)
        os.makedirs(env["TMPDIR"])
        if a.reply:
            env["RECORD_HOOK_REPLY"] = os.path.abspath(a.reply)
            if a.reply_event:
                env["RECORD_HOOK_REPLY_EVENT"] = a.reply_event
        t0 = time.time()
        with open(os.path.join(run, "stdout.txt"), "w") as out, open(os.path.join(run, "stderr.txt"), "w") as err:
            try:
                rc = subprocess.run(argv, cwd=d["proj"], env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    timeout=a.timeout).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        secs = round(time.time() - t0, 1)
    finally:
        mock.terminate()
        mock.wait(timeout=10)
    events = []
    if os.path.exists(os.path.join(run, "hooks.jsonl")):
        with open(os.path.join(run, "hooks.jsonl"), encoding="utf-8") as f:
            events = [(json.loads(line)["argv"] or ["?"])[0] for line in f]
    reqs = sorted(glob.glob(os.path.join(d["req"], "*.json")))
    paths = [json.load(open(p))["path"] for p in reqs]
    summary = {"agent": a.agent, "rc": rc, "seconds": secs, "events": events, "requests": paths}
    if a.save_payloads and events:
        summary["saved"] = save_payloads(run, a.agent, a.save_payloads)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
