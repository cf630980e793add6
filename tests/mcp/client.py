#!/usr/bin/env python3
"""The MCP server through the official MCP Python SDK's stdio client, and raw malformed requests.

Usage: client.py BINARY REPO. Works on a temporary copy of fixtures/demo.
Prints one PASS line per check and exits 1 on the first failure.
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN, REPO = sys.argv[1], Path(sys.argv[2])


def check(name, ok, detail=""):
    if not ok:
        print(f"FAIL {name}: {detail}")
        sys.exit(1)
    print(f"PASS {name}")


def field(obj, snake, camel, default=None):
    """SDK 2.x names fields in snake_case, 1.x in camelCase."""
    return getattr(obj, snake, getattr(obj, camel, default))


def err(result, default=False):
    return bool(field(result, "is_error", "isError", default))


def text_of(result):
    return "\n".join(getattr(c, "text", "") for c in result.content)


async def sdk_session(root):
    params = StdioServerParameters(command=BIN, args=["mcp", "--root", str(root)])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("initialize names the server", field(init, "server_info", "serverInfo").name == "memory-index-lsp", init)
            tools = {t.name: t for t in (await session.list_tools()).tools}
            check("four tools listed", set(tools) == {"resolve", "search", "remember", "check"}, list(tools))
            check("tool descriptions guide the agent", "before deciding" in tools["resolve"].description.lower(), tools["resolve"].description)

            r = await session.call_tool("resolve", {"query": "writing mock tests", "operator": "when"})
            check("resolve prints the section", not err(r) and text_of(r).startswith("# When Writing Mock Tests\n"), text_of(r))
            r = await session.call_tool("resolve", {"query": "kubernetes pod autoscaling"})
            check("resolve without a match is a tool error", err(r) and "No match" in text_of(r), text_of(r))
            r = await session.call_tool("resolve", {"query": "x", "operator": "why"})
            check("a bad operator is a tool error", err(r) and "operator" in text_of(r), text_of(r))

            r = await session.call_tool("search", {"text": "how should we store ticket prices, cents or decimal?", "limit": 3})
            found = json.loads(text_of(r))
            check("search ranks the decision first", found and found[0]["heading"] == "How to Store Ticket Prices", found)
            check("search gives file, line and confidence", found[0]["file"] == "agents/decisions/data.md" and 0 < found[0]["confidence"] <= 1, found[0])
            r = await session.call_tool("search", {"text": "store ticket prices", "limit": 0})
            check("search with limit 0 is refused, saying the range", err(r) and "limit must be 1 to 20" in text_of(r), text_of(r))

            body = "Refund to the original payment method within 5 days.\nCancelled holds release their seats at once.\nNever refund in cash.\n"
            args = {"operator": "how", "title": "Refund Cancelled Tickets", "body": body, "file": "data.md"}
            r = await session.call_tool("remember", {**args, "dry_run": True})
            check("remember dry run shows the diff", not err(r) and "+## How to Refund Cancelled Tickets" in text_of(r), text_of(r))
            check("dry run writes nothing", "Refund Cancelled" not in (root / "agents/decisions/data.md").read_text())
            r = await session.call_tool("remember", args)
            check("remember writes", not err(r) and text_of(r).startswith("Remembered How to Refund Cancelled Tickets"), text_of(r))
            r = await session.call_tool("resolve", {"query": "refund cancelled tickets", "operator": "how"})
            check("the new decision resolves", not err(r) and "Never refund in cash." in text_of(r), text_of(r))
            r = await session.call_tool("remember", args)
            check("a second identical remember is refused", err(r) and "exists already" in text_of(r), text_of(r))

            near = {**args, "title": "Refunding Tickets That Were Cancelled"}
            r = await session.call_tool("remember", near)
            check("a near-duplicate is refused in the tool's words", err(r) and "force: true" in text_of(r) and "--" not in text_of(r), text_of(r))
            r = await session.call_tool("remember", {**args, "title": "Refund\u0000 Tickets", "body": body})
            check("a NUL in a title is refused by name", err(r) and "U+0000 (NUL)" in text_of(r), text_of(r))
            r = await session.call_tool("resolve", {"query": "x" * 1_000_000})
            check("a 1 MB query is refused, not quoted back", err(r) and len(text_of(r)) < 1000, len(text_of(r)))
            big = "".join(f"Line {i}: refunds are audited weekly by finance.\n" for i in range(150)) + "Refunds over 100 EUR need a second approver, whose name goes in the ledger entry. " * 300 + "\n"
            r = await session.call_tool("remember", {"operator": "when", "title": "Auditing Refunds", "body": big, "file": "audit.md", "dry_run": True})
            check("a large diff is summarised", not err(r) and len(text_of(r)) < 20_000 and "more lines of the diff not shown" in text_of(r), len(text_of(r)))

            r = await session.call_tool("check", {})
            findings = json.loads(text_of(r))
            codes = {f["code"] for f in findings}
            check("check lists findings as JSON", "orphan-entry" in codes and all("line" in f for f in findings), codes)

            try:
                r = await session.call_tool("no-such-tool", {})
                refused = err(r, True)
            except Exception as e:  # the SDK raises the JSON-RPC error
                refused = "not found" in str(e)
            check("an unknown tool gets an error", refused)
            r = await session.call_tool("resolve", {"query": "..data.md"})
            check("the session goes on after an error", not err(r) and "Refund Cancelled Tickets" in text_of(r), text_of(r))

            # A decision file the memory cannot read (a pipe): the answer names it in a block of its own.
            os.mkfifo(root / "agents/decisions/pipe.md")
            r = await session.call_tool("resolve", {"query": "writing mock tests", "operator": "when"})
            blocks = [getattr(c, "text", "") for c in r.content]
            check("resolve names a file it cannot read", not err(r) and blocks[0].startswith("# When Writing Mock Tests") and any("cannot read agents/decisions/pipe.md" in b for b in blocks[1:]), blocks)
            r = await session.call_tool("search", {"text": "how should we store ticket prices, cents or decimal?", "limit": 3})
            blocks = [getattr(c, "text", "") for c in r.content]
            check("search stays JSON and names it after", json.loads(blocks[0])[0]["heading"] == "How to Store Ticket Prices" and "left out" in blocks[-1], blocks)
            os.remove(root / "agents/decisions/pipe.md")
    return True


async def no_memory_session(root):
    """A project without a memory: every tool says so and how to start one, none answers as if it were empty."""
    params = StdioServerParameters(command=BIN, args=["mcp", "--root", str(root)])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for tool, args in (("check", {}), ("search", {"text": "writing tests"}), ("resolve", {"query": "writing tests"})):
                r = await session.call_tool(tool, args)
                check(f"{tool} without a memory is an error naming init", err(r) and "no memory index" in text_of(r) and "memory-index-lsp init" in text_of(r), text_of(r))
    return True


def raw_malformed(root):
    """Garbage and malformed JSON-RPC on the pipe: errors where an id is known, and the server stays up."""
    p = subprocess.Popen([BIN, "mcp", "--root", str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def send(obj):
        p.stdin.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
        p.stdin.flush()

    def read_reply(want_id):
        while True:
            line = p.stdout.readline()
            if not line:
                return None
            msg = json.loads(line)
            if msg.get("id") == want_id:
                return msg

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
    check("raw: initialize answered", read_reply(1) is not None)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send("{this is not json")
    reply = read_reply(None)
    check("raw: a line that is not JSON gets a parse error", reply is not None and reply.get("error", {}).get("code") == -32700, reply)
    send({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"})
    reply = read_reply(2)
    check("raw: an unknown method gets a JSON-RPC error", reply is not None and "error" in reply, reply)
    send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search"}})
    reply = read_reply(3)
    check("raw: a call without arguments is an error", reply is not None and ("error" in reply or reply.get("result", {}).get("isError")), reply)
    send({"jsonrpc": "2.0", "id": 4, "method": "tools/list"})
    reply = read_reply(4)
    check("raw: the server stays up after malformed input", reply is not None and len(reply["result"]["tools"]) == 4, reply)
    p.stdin.close()
    p.wait(timeout=10)
    check("raw: the server exits when stdin closes", p.returncode is not None)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "demo"
        shutil.copytree(REPO / "fixtures/demo", root)
        asyncio.run(asyncio.wait_for(sdk_session(root), 60))
        raw_malformed(root)
        empty = Path(tmp) / "empty"
        empty.mkdir()
        asyncio.run(asyncio.wait_for(no_memory_session(empty), 60))
    print("mcp: all checks passed")


if __name__ == "__main__":
    main()
