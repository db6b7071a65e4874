#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A mock of the two model APIs the harnesses call, for make check-harness
(tests/harness/run.sh): the Anthropic Messages API (POST .../v1/messages)
and the OpenAI Responses API (POST .../v1/responses), both streamed as
server-sent events, on one loopback port of the test's own network
namespace. Python 3 standard library only.

usage: mockmodel.py PORT DIR CALLS COMMAND [SECONDS]

A conversation is a run of shell tool calls, then a final text: while the
request carries fewer than CALLS results of our calls, the answer is one
more call of the shell tool the request offers (Claude Code's Bash,
Codex's exec_command or shell_command), running COMMAND with "{n}"
replaced by the call's number (1, 2, ...); once it carries CALLS results,
the answer is a text ("MOCK-DONE: ...") with stop reason end_turn (a
response.completed holding a message, for OpenAI), and the harness ends
its turn. A request that offers no shell tool (a title, a summary) gets a
short text.

What it saw, in DIR:
  requests.log  one line a request: method, path, what it answered
  results.jsonl each tool result the harness sent back, the first time it
                is seen: {"n": CALL, "id": ID, "dt": SECONDS, "text": TEXT},
                dt the time from the call sent to its result received
  keys.log      each distinct key the requests carried (x-api-key, or
                Authorization: Bearer), one a line: the test's fake key
                reached the model

Each answer closes its connection (Connection: close), so no keep-alive
connection is left for a harness to wait on. It prints "ready" once it
listens, and exits by itself after SECONDS (default 600).
"""
import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, DIR, CALLS, COMMAND = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                             sys.argv[4])
SECONDS = float(sys.argv[5]) if len(sys.argv) > 5 else 600.0
lock = threading.Lock()
seen = set()
creds = set()
sent = {}  # call number -> when it was sent (time.monotonic())

# the shell tools each harness offers, and the input each takes
SHELL_TOOLS = {
    "Bash": lambda cmd: {"command": cmd, "description": "mock command"},
    "exec_command": lambda cmd: {"cmd": cmd, "yield_time_ms": 30000},
    "shell_command": lambda cmd: {"command": cmd},
    "shell": lambda cmd: {"command": ["bash", "-lc", cmd]},
}


def log(line):
    with lock, open(os.path.join(DIR, "requests.log"), "a") as f:
        f.write(line + "\n")


def note_result(n, rid, text):
    with lock:
        if rid in seen:
            return
        seen.add(rid)
        dt = time.monotonic() - sent[n] if n in sent else None
        with open(os.path.join(DIR, "results.jsonl"), "a") as f:
            f.write(json.dumps({"n": n, "id": rid, "dt": dt,
                                "text": text}) + "\n")


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(c.get("text", c.get("output", "")))
                       for c in content if isinstance(c, dict))
    return str(content)


def results_in(body):
    """Our calls' results the request carries, in order: (id, text)."""
    out = []
    for m in body.get("messages", []) or []:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            for c in content:
                if isinstance(c, dict) and c.get("type") == "tool_result":
                    out.append((c.get("tool_use_id"),
                                text_of(c.get("content"))))
    for m in body.get("input", []) if isinstance(body.get("input"),
                                                 list) else []:
        if isinstance(m, dict) and m.get("type") in (
                "function_call_output", "custom_tool_call_output"):
            out.append((m.get("call_id"), text_of(m.get("output"))))
    return out


def shell_tool(body):
    for t in body.get("tools", []) or []:
        name = t.get("name") if isinstance(t, dict) else None
        if name in SHELL_TOOLS:
            return name
    return None


def next_step(body):
    """(tool name, n) for the next call, or (None, number of results)."""
    results = results_in(body)
    for i, (rid, text) in enumerate(results):
        note_result(i + 1, rid, text)
    tool = shell_tool(body)
    if tool and len(results) < CALLS:
        with lock:
            sent[len(results) + 1] = time.monotonic()
        return tool, len(results) + 1
    return None, len(results)


def sse(handler, events):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.close_connection = True
    handler.end_headers()
    for name, data in events:
        chunk = "event: %s\ndata: %s\n\n" % (name, json.dumps(data))
        handler.wfile.write(chunk.encode())
    handler.wfile.flush()


def anthropic(handler, body):
    tool, n = next_step(body)
    model = body.get("model", "claude-mock")
    start = ("message_start", {"type": "message_start", "message": {
        "id": "msg_" + uuid.uuid4().hex[:20], "type": "message",
        "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})
    if tool:
        cmd = COMMAND.replace("{n}", str(n))
        block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20],
                 "name": tool, "input": {}}
        delta = {"type": "input_json_delta",
                 "partial_json": json.dumps(SHELL_TOOLS[tool](cmd))}
        stop = "tool_use"
        log("POST %s: call %d (%s)" % (handler.path, n, tool))
    else:
        text = "MOCK-DONE: %d results" % n if shell_tool(body) else "Mock"
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": text}
        stop = "end_turn"
        log("POST %s: text" % handler.path)
    sse(handler, [
        start,
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": stop,
                                     "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"})])


def openai(handler, body):
    tool, n = next_step(body)
    rid = "resp_" + uuid.uuid4().hex[:20]
    base = {"id": rid, "object": "response",
            "model": body.get("model", "gpt-mock"), "status": "in_progress",
            "output": []}
    if tool:
        cmd = COMMAND.replace("{n}", str(n))
        item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:16],
                "call_id": "call_" + uuid.uuid4().hex[:20], "name": tool,
                "status": "completed",
                "arguments": json.dumps(SHELL_TOOLS[tool](cmd))}
        log("POST %s: call %d (%s)" % (handler.path, n, tool))
    else:
        item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:16],
                "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "annotations": [],
                             "text": "MOCK-DONE: %d results" % n}]}
        log("POST %s: text" % handler.path)
    done = dict(base, status="completed", output=[item],
                usage={"input_tokens": 10, "output_tokens": 5,
                       "total_tokens": 15,
                       "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens_details": {"reasoning_tokens": 0}})
    sse(handler, [
        ("response.created", {"type": "response.created", "response": base}),
        ("response.output_item.added", {"type": "response.output_item.added",
                                        "output_index": 0, "item": item}),
        ("response.output_item.done", {"type": "response.output_item.done",
                                       "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed",
                                "response": done})])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        cred = self.headers.get("x-api-key") or (
            self.headers.get("Authorization") or "").replace("Bearer ", "")
        with lock:
            if cred not in creds:
                creds.add(cred)
                with open(os.path.join(DIR, "keys.log"), "a") as f:
                    f.write(cred + "\n")
        if path.endswith("/messages"):
            anthropic(self, body)
        elif path.endswith("/responses"):
            openai(self, body)
        else:
            log("POST %s: {}" % self.path)
            self.reply({"input_tokens": 10} if "count_tokens" in path
                       else {})

    def do_GET(self):
        log("GET %s: {}" % self.path)
        self.reply({"data": [], "models": []})

    def reply(self, obj):
        data = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(data)


srv = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
srv.daemon_threads = True
threading.Timer(SECONDS, lambda: os._exit(0)).start()
print("ready", flush=True)
srv.serve_forever()
