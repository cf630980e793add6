#!/usr/bin/env python3
"""A hook command for coding-agent CLIs that records what it was given.

Appends one JSON line to the log named by $RECORD_HOOK_LOG (or by the first
argument that ends in .jsonl): {"argv", "cwd", "stdin" (parsed JSON, or the raw
text), "env_names" (sorted names of every variable it got), "env" (values of the
variables that look agent-specific, never of keys/tokens/secrets)}.
Prints nothing and exits 0, unless $RECORD_HOOK_REPLY names a file: then that
file's contents are printed as the hook's output (used to see where a given
output shape lands in the model's request), with "{EVENT}" replaced by the
event's name (the first argument that is not a .jsonl path, else the payload's
hook_event_name/hookEventName). With $RECORD_HOOK_REPLY_EVENT set, only that
event gets the reply.
"""

import json
import os
import re
import sys

AGENT_VARS = re.compile(r"PROJECT|SESSION|HOOK|CODEX|COPILOT|GEMINI|CLAUDE|AGENT|_DIR$|^PWD$|^HOME$")
SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|AUTH", re.I)


def main():
    raw = sys.stdin.read()
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = raw
    log = os.environ.get("RECORD_HOOK_LOG") or next((a for a in sys.argv[1:] if a.endswith(".jsonl")), None)
    env = {k: v for k, v in os.environ.items() if AGENT_VARS.search(k) and not SECRET.search(k)}
    entry = {"argv": sys.argv[1:], "cwd": os.getcwd(), "stdin": payload, "env_names": sorted(os.environ), "env": env}
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    reply = os.environ.get("RECORD_HOOK_REPLY")
    event = os.environ.get("RECORD_HOOK_REPLY_EVENT", "")
    name = next((a for a in sys.argv[1:] if not a.endswith(".jsonl")), None)
    if name is None and isinstance(payload, dict):
        name = payload.get("hook_event_name") or payload.get("hookEventName") or ""
    if reply and os.path.exists(reply) and (not event or event == name):
        with open(reply, encoding="utf-8") as f:
            sys.stdout.write(f.read().replace("{EVENT}", name or ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
