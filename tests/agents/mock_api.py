#!/usr/bin/env python3
"""A loopback stand-in for three model APIs, for offline end-to-end tests of coding-agent CLIs.

It answers, chosen by request path:
  * OpenAI Responses API   POST .../responses             (Codex, wire_api="responses", SSE)
  * OpenAI Chat Completions POST .../chat/completions     (Copilot CLI's BYOK provider; SSE or JSON)
  * Gemini API             POST .../models/M:streamGenerateContent (SSE) / :generateContent (JSON)
                           / :countTokens                 (Gemini CLI via GOOGLE_GEMINI_BASE_URL)
Any GET/HEAD (model lists, probes) gets a small JSON listing one model, "mock-model".

Every request is recorded as DIR/NNN.json {"path", "body"}. Replies come from a
script (a JSON list of rules, first match wins; "match"/"unless" are substrings
of the raw request body):
  {"match": "...", "unless": "...", "text": "plain reply"}     or
  {"match": "...", "unless": "...", "shell": "ls -la"}                          or
  {"match": "...", "unless": "...", "file": {"op": "read"|"edit"|"create", "path": P,
                                             "old": "...", "new": "...", "text": "..."}}
A "shell" rule answers with ONE call of the CLI's shell tool (its name and
argument shape are read from the tools the request offers: Codex
`exec_command`/`shell_command`/`shell`, Copilot `bash`, Gemini
`run_shell_command`). A "file" rule answers with one call of the CLI's file
tool for that operation: Copilot `view`/`edit`/`create`, Gemini
`read_file`/`replace`/`write_file`, Codex `apply_patch` (a freeform custom
tool; it reads files with its shell: `cat P`). A rule does not fire again once the result of a
call it issued is in the conversation (its call id appears in the body), so
the next request gets "Done.". Any request no rule matches gets "Done.".
Prints its port to --port-file; stops by itself after --timeout seconds.

  mock_api.py --record DIR --port-file FILE [--script FILE] [--timeout 120]
"""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "mock-model"


def tool_names(body):
    """Names of the function tools a request offers, whichever API shape it uses."""
    names = []
    for t in body.get("tools") or []:
        if not isinstance(t, dict):
            continue
        if "name" in t:  # Responses: {"type": "function", "name": ...}
            names.append(t["name"])
        if isinstance(t.get("function"), dict):  # Chat Completions: {"function": {"name": ...}}
            names.append(t["function"].get("name"))
        for d in t.get("functionDeclarations") or []:  # Gemini
            names.append(d.get("name"))
    return [n for n in names if n]


def shell_call(body, command):
    """(tool name, arguments) that make the agent run `command` through its shell tool."""
    names = tool_names(body)
    candidates = [  # first one offered wins
        ("exec_command", {"cmd": command}),                       # Codex unified exec
        ("shell_command", {"command": command}),                  # Codex, string form
        ("shell", {"command": ["bash", "-lc", command]}),         # Codex, argv form
        ("bash", {"command": command, "description": "Run the command"}),  # Copilot
        ("run_shell_command", {"command": command, "description": "Run the command"}),  # Gemini
    ]
    for name, args in candidates:
        if name in names:
            return name, args
    return (names[0] if names else "shell"), {"command": command}


def file_call(body, spec):
    """(kind, tool name, arguments) for a file operation through the CLI's own file tools; kind is
    "function" (JSON arguments) or "custom" (Codex's freeform apply_patch, arguments a string)."""
    names, op, path = tool_names(body), spec["op"], spec["path"]
    if "apply_patch" in names or "exec_command" in names:  # Codex
        if op == "read":
            name, args = shell_call(body, f"cat {path}")
            return "function", name, args
        if op == "create":
            lines = "".join("+" + l + "\n" for l in spec.get("text", "").splitlines())
            patch = f"*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n"
        else:
            patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-{spec['old']}\n+{spec['new']}\n*** End Patch\n"
        return "custom", "apply_patch", patch
    table = {  # first one offered wins
        "read": [("view", {"path": path}), ("read_file", {"file_path": path})],
        "edit": [("edit", {"path": path, "old_str": spec.get("old"), "new_str": spec.get("new")}),
                 ("replace", {"file_path": path, "old_string": spec.get("old"), "new_string": spec.get("new"),
                              "instruction": "Make the change"})],
        "create": [("create", {"path": path, "file_text": spec.get("text", "")}),
                   ("write_file", {"file_path": path, "content": spec.get("text", "")})],
    }
    for name, args in table[op]:
        if name in names:
            return "function", name, args
    raise ValueError(f"no {op} tool among {names}")


def call_of(body, reply):
    """(kind, name, arguments) of the tool call a "shell" or "file" reply asks for."""
    if "file" in reply:
        return file_call(body, reply["file"])
    name, args = shell_call(body, reply["shell"])
    return "function", name, args


# --- OpenAI Responses API (Codex) --------------------------------------------------------------
def responses_events(reply, n, body):
    rid = f"resp_mock_{n}"
    if "shell" in reply or "file" in reply:
        kind, name, args = call_of(body, reply)
        if kind == "custom":
            item = {"type": "custom_tool_call", "id": f"ctc_mock_{n}", "call_id": reply["call_id"],
                    "name": name, "input": args, "status": "completed"}
        else:
            item = {"type": "function_call", "id": f"fc_mock_{n}", "call_id": reply["call_id"],
                    "name": name, "arguments": json.dumps(args), "status": "completed"}
    else:
        item = {"type": "message", "id": f"msg_mock_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": reply.get("text", "Done."), "annotations": []}]}
    base = {"id": rid, "object": "response", "created_at": int(time.time()), "model": MODEL,
            "status": "in_progress", "output": []}
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    out = [{"type": "response.created", "response": base},
           {"type": "response.output_item.added", "output_index": 0, "item": dict(item, status="in_progress")}]
    if item["type"] == "message":
        out.append({"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0,
                    "content_index": 0, "delta": item["content"][0]["text"]})
    out += [{"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": dict(base, status="completed", output=[item], usage=usage)}]
    return [(e["type"], e) for e in out]


# --- OpenAI Chat Completions (Copilot CLI) ------------------------------------------------------
def chat_reply(reply, n, body):
    """(list of SSE chunks, the non-streaming completion) for one assistant turn."""
    head = {"id": f"chatcmpl-mock-{n}", "created": int(time.time()), "model": MODEL}
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if "shell" in reply or "file" in reply:
        _, name, args = call_of(body, reply)
        call = {"id": reply["call_id"], "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        delta = {"role": "assistant", "content": None, "tool_calls": [dict(call, index=0)]}
    else:
        message = {"role": "assistant", "content": reply.get("text", "Done.")}
        finish, delta = "stop", dict(message)
    chunk = dict(head, object="chat.completion.chunk")
    chunks = [dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
              dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)]
    whole = dict(head, object="chat.completion", usage=usage,
                 choices=[{"index": 0, "message": message, "finish_reason": finish}])
    return chunks, whole


# --- Gemini generateContent (Gemini CLI) --------------------------------------------------------
def gemini_reply(reply, n, body):
    if "shell" in reply or "file" in reply:
        _, name, args = call_of(body, reply)
        part = {"functionCall": {"id": reply["call_id"], "name": name, "args": args}}
    else:
        part = {"text": reply.get("text", "Done.")}
    return {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": MODEL, "responseId": f"mock-{n}"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--record", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--script")
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    os.makedirs(args.record, exist_ok=True)
    rules = []
    if args.script:
        with open(args.script, encoding="utf-8") as f:
            rules = json.load(f)
    lock = threading.Lock()
    count = [0]
    issued = {}  # rule index -> call ids it has issued

    def choose(raw):
        """The reply for a request body (raw text): the first matching rule, else "Done."."""
        for i, r in enumerate(rules):
            if r.get("match", "") not in raw or (r.get("unless") and r["unless"] in raw):
                continue
            if "shell" in r or "file" in r:
                if any(cid in raw for cid in issued.get(i, [])):
                    continue  # the tool result of this rule's call is already in the conversation
                cid = f"call_mock_{i}_{len(issued.get(i, []))}"
                issued.setdefault(i, []).append(cid)
                return dict(r, call_id=cid)
            return r
        return {"text": "Done."}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def send_json(self, obj, status=200):
            data = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def send_sse(self, events):
            """events: list of (event name or None, JSON-able data or a raw string)."""
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            for name, data in events:
                text = data if isinstance(data, str) else json.dumps(data)
                self.wfile.write(((f"event: {name}\n" if name else "") + f"data: {text}\n\n").encode())
                self.wfile.flush()
            self.close_connection = True

        def read_body(self):
            if "chunked" in (self.headers.get("transfer-encoding") or "").lower():
                raw = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return raw
                    raw += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("content-length") or 0))

        def record(self, body):
            with lock:
                count[0] += 1
                n = count[0]
            with open(os.path.join(args.record, f"{n:03d}.json"), "w", encoding="utf-8") as f:
                json.dump({"path": self.path, "method": self.command, "body": body}, f)
            return n

        def do_GET(self):
            self.record(None)
            model = {"id": MODEL, "object": "model", "created": 0, "owned_by": "mock", "name": f"models/{MODEL}",
                     "capabilities": {"type": "chat", "family": MODEL, "limits": {"max_prompt_tokens": 128000,
                                      "max_output_tokens": 8192}, "supports": {"tool_calls": True, "streaming": True}}}
            self.send_json({"object": "list", "data": [model], "models": []})

        do_HEAD = do_GET

        def do_POST(self):
            raw = self.read_body().decode("utf-8", "replace")
            try:
                body = json.loads(raw or "null")
            except ValueError:
                body = raw
            n = self.record(body)
            body = body if isinstance(body, dict) else {}
            path = self.path.split("?")[0]
            with lock:
                reply = choose(raw) if not path.endswith(":countTokens") else None
            if path.endswith("/responses"):
                self.send_sse(responses_events(reply, n, body))
            elif path.endswith("/chat/completions"):
                chunks, whole = chat_reply(reply, n, body)
                if body.get("stream"):
                    self.send_sse([(None, c) for c in chunks] + [(None, "[DONE]")])
                else:
                    self.send_json(whole)
            elif path.endswith(":streamGenerateContent"):
                self.send_sse([(None, gemini_reply(reply, n, body))])
            elif path.endswith(":generateContent"):
                self.send_json(gemini_reply(reply, n, body))
            elif path.endswith(":countTokens"):
                self.send_json({"totalTokens": 10})
            else:
                self.send_json({})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    threading.Thread(target=lambda: (time.sleep(args.timeout), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
