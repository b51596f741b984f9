#!/usr/bin/env python3
"""The load check of issue #58 (hostile inputs, round 3): `serve --http --mode code`
while one caller (mallory) sends the worst scripts of F01, F02 and F03 without pause,
and another (alice) makes cheap calls (`execute` of `return 1`, one after another).

Mallory's scripts, from four threads, in turn:
  F01  a loop that never yields: `while (true) {}`; the CPU limit is set above the wall
       limit, so the wall limit (plus the watchdog's grace) is what must stop it
  F01b a built-in that loops in C: `Array.prototype.reverse.call({length: 2**53 - 1})`
  F02  60 calls with 1 MiB of arguments each to an API that answers after 10 s, plus
       52 MiB of typed arrays in the heap
  F03  52 MiB of typed arrays, then calls to the slow API; the caller hangs up after 1 s

Reported: alice's latency (p50, p99, max) and failures; the server's peak RSS against the
bound (--max-scripts-per-caller x 2 x --script-memory, heap plus host memory, + 200 MiB
for the server itself); how long each spinning script took against its wall limit + 1 s;
the server's CPU use in the 2 s after mallory stops (no core left spinning).

Usage: benches/code_load.py TOOLWRIGHT_BIN [SECONDS]   (default 30 s of load)
Results: benches/input_limits.md.
"""

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
WALL_S = 3
SCRIPT_MIB = 64
PER_CALLER = 4
VERSION = "2026-07-28"


class Api(BaseHTTPRequestHandler):
    """The tracker API: an issue at once, or after 10 s for project `slow`."""

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if "/slow/" in self.path:
            time.sleep(10)
        body = b'{"number": 7, "title": "t", "state": "open"}'
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass

    do_GET = do_POST = do_PATCH = do_DELETE = answer

    def log_message(self, *args):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, token, script, timeout):
    """One stateless `tools/call` of `execute`: (seconds, answer or None on hang-up)."""
    body = json.dumps({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": "execute", "arguments": {"script": script},
            "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION,
                      "io.modelcontextprotocol/clientCapabilities": {}},
        },
    })
    headers = {
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": VERSION,
        "Mcp-Method": "tools/call", "Mcp-Name": "execute",
    }
    started = time.time()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", "/mcp", body, headers)
        response = connection.getresponse()
        data = response.read()
        answer = json.loads(data) if response.status == 200 else {"status": response.status}
    except (socket.timeout, TimeoutError):
        answer = None
    finally:
        connection.close()
    return time.time() - started, answer


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SCRIPTS = {
    "F01": ("while (true) {}", 30),
    "F01b": ("return Array.prototype.reverse.call({ length: 2 ** 53 - 1 });", 30),
    "F02": ("const keep = []; for (let i = 0; i < 52; i++) keep.push(new Uint8Array(1 << 20).fill(i + 1)); "
            "const body = 'x'.repeat(1 << 20); const ps = []; "
            "for (let i = 0; i < 60; i++) { try { ps.push(tracker.create_issue({ project: 'slow', title: 't', body }).catch(() => 0)); } catch (e) {} } "
            "await Promise.all(ps); return keep.length;", 30),
    "F03": ("const keep = []; for (let i = 0; i < 52; i++) keep.push(new Uint8Array(1 << 20).fill(i + 1)); "
            "for (let j = 0; j < 4; j++) await tracker.get_issue({ project: 'slow', number: 1 }); return keep.length;", 1),
}


def main():
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    api.daemon_threads = True
    threading.Thread(target=api.serve_forever, daemon=True).start()
    port = free_port()
    server = subprocess.Popen(
        [BIN, "serve", "examples/issue-tracker/adapters", "--mode", "code",
         "--http", f"127.0.0.1:{port}",
         "--base-url", f"tracker=http://127.0.0.1:{api.server_address[1]}/api/v1",
         "--auth-token", "mallory=T_M", "--auth-token", "alice=T_A",
         "--script-seconds", str(WALL_S), "--script-cpu-ms", "60000",
         "--script-memory", str(SCRIPT_MIB), "--max-scripts-per-caller", str(PER_CALLER)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={"T_M": "mallory-token-0123456789abcdef", "T_A": "alice-token-0123456789abcdef0",
             "TRACKER_TOKEN": "t", "PATH": os.environ.get("PATH", ""),
             **{k: v for k, v in os.environ.items() if k.startswith("MALLOC_")}})
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    pid = server.pid
    start_rss = rss_mib(pid)
    stop = threading.Event()
    peak = [start_rss]
    spins = []  # (kind, seconds, code)
    refused = [0]

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_mib(pid))
            time.sleep(0.05)

    def mallory(offset):
        kinds = list(SCRIPTS)
        i = offset
        while not stop.is_set():
            kind = kinds[i % len(kinds)]
            i += 1
            script, timeout = SCRIPTS[kind]
            took, answer = call(port, "mallory-token-0123456789abcdef", script, timeout)
            text = json.dumps(answer) if answer else ""
            if "as many scripts" in text:
                refused[0] += 1
                time.sleep(0.05)
                continue
            if kind.startswith("F01") and answer:
                code = (answer.get("result", {}).get("structuredContent", {}).get("error", {}) or {}).get("code")
                spins.append((kind, took, code))

    alice = []  # (seconds, ok)

    def cheap():
        while not stop.is_set():
            took, answer = call(port, "alice-token-0123456789abcdef0", "return 1", 30)
            ok = bool(answer) and answer.get("result", {}).get("structuredContent", {}).get("result") == 1
            alice.append((took, ok))
            time.sleep(0.05)

    threads = [threading.Thread(target=sample)]
    threads += [threading.Thread(target=mallory, args=(k,)) for k in range(PER_CALLER)]
    threads += [threading.Thread(target=cheap)]
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    stop.set()
    for t in threads:
        t.join()
    # The engines of scripts still running stop within their wall limit + grace.
    time.sleep(WALL_S + 1.5)
    cpu_before = cpu_seconds(pid)
    time.sleep(2)
    idle_cpu = cpu_seconds(pid) - cpu_before
    end_rss = rss_mib(pid)
    server.kill()
    server.wait()
    api.shutdown()

    latencies = sorted(t for t, _ in alice)
    failures = sum(1 for _, ok in alice if not ok)
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    bound = PER_CALLER * 2 * SCRIPT_MIB + 200
    late = [s for s in spins if s[1] > WALL_S + 1]
    print(f"load: {SECONDS:.0f} s, mallory {PER_CALLER} threads (F01, F01b, F02, F03 in turn), alice 1 thread")
    print(f"alice: {len(latencies)} calls, {failures} failed; p50 {p(0.5) * 1000:.0f} ms, "
          f"p99 {p(0.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms  (target p99 < 1000 ms)")
    print(f"server RSS: {start_rss:.0f} MiB at start, peak {peak[0]:.0f} MiB, {end_rss:.0f} MiB after  "
          f"(bound {bound} MiB = {PER_CALLER} scripts x 2 x {SCRIPT_MIB} MiB + 200)")
    if spins:
        worst = max(s[1] for s in spins)
        codes = sorted({s[2] for s in spins if s[2]})
        print(f"spinning scripts: {len(spins)} answered, slowest {worst:.2f} s, {len(late)} past "
              f"wall {WALL_S} s + 1 s; codes {codes}")
    print(f"mallory refused (past her share): {refused[0]}")
    print(f"server CPU in the 2 s after the load (engines stopped): {idle_cpu:.2f} s")
    ok = p(0.99) < 1.0 and peak[0] < bound and not late and idle_cpu < 0.5 and failures == 0
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
