#!/usr/bin/env python3
"""A loopback stand-in for the Anthropic Messages API, for end-to-end tests of Claude Code.

Records every request body as DIR/NNN.json and answers with server-sent
events. Replies come from a script (JSON list of rules, first match wins):
  {"match": "substring of the request body", "unless": "substring",
   "text": "plain reply"}                               or
  {"match": ..., "tool": "Skill", "input": {...}}       (a tool_use block)
A request no rule matches gets the text "Done.". Prints the port it listens
on to --port-file and stops by itself after --timeout seconds.

  mock_api.py --record DIR --port-file FILE [--script FILE] [--timeout 120]
"""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def events(reply, n):
    """The SSE events of one assistant message answering with `reply`."""
    msg_id = f"msg_mock_{n}"
    out = [("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": "claude-mock",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})]
    if "tool" in reply:
        block = {"type": "tool_use", "id": f"toolu_mock_{n}", "name": reply["tool"], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.get("input", {}))}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": reply.get("text", "Done.")}
        stop = "end_turn"
    out += [
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return out


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

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_HEAD(self):
            self.send_response(200)
            self.end_headers()

        def do_GET(self):
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace")
            with lock:
                count[0] += 1
                n = count[0]
            with open(os.path.join(args.record, f"{n:03d}.json"), "w", encoding="utf-8") as f:
                f.write(json.dumps({"path": self.path, "body": json.loads(body or "null")}))
            if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"input_tokens": 10}')
                return
            reply = {"text": "Done."}
            for r in rules:
                if r.get("match", "") in body and not (r.get("unless") and r["unless"] in body):
                    reply = r
                    break
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            for name, data in events(reply, n):
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    threading.Thread(target=lambda: (time.sleep(args.timeout), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
