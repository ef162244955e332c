#!/usr/bin/env python3
"""Concurrent writes to SQLite through the one writer (GRDB's, in its turn at the gate).

    python3 bench/writes.py --no-build --seconds 8 --reps 2

Starts the release server on a copy of a fresh data folder and runs, with `wrk -t2 -c32`:

- expense creation through the API (the model layer's path: a transaction of several
  statements, holding the writer from BEGIN to COMMIT);
- product edits through the API (`PUT`, rotating over 200 products);
- a mix per connection: create an expense, edit a product, read the product list.

Prints requests/s, p50/p99 and the server's CPU per request (run it on a quiet machine: the CPU
figure is the steadier one when something else runs).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import run  # noqa: E402  (bench/run.py)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(binary: Path, data: Path, extra: dict[str, str]) -> tuple[subprocess.Popen, int]:
    port = run.free_port()
    env = {**run.server_env(data), **extra}
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(3000):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready") as response:
                if response.status == 200:
                    return process, port
        except OSError:
            time.sleep(0.01)
    process.kill()
    sys.exit("the server did not become ready")


def post_json(base: str, token: str, path: str, body: dict, method: str = "POST") -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def script(token: str, ids: list[str], kind: str) -> str:
    lines = [
        f'wrk.headers["Authorization"] = "Bearer {token}"',
        'wrk.headers["Content-Type"] = "application/json"',
        f"local ids = {run.lua_list(ids)}",
        "local i = 0",
        "request = function()",
        "  i = i + 1",
        "  local step = i % 3",
    ]
    expense = ("return wrk.format('POST', '/api/v1/expenses', nil, "
               "'{\"title\":\"bench ' .. i .. '\",\"amount\":\"12.50\"}')")
    edit = ("return wrk.format('PUT', '/api/v1/products/' .. ids[(i % #ids) + 1], nil, "
            "'{\"name\":\"edited ' .. i .. '\",\"type\":\"bench\",\"price\":\"9.99\","
            "\"tax\":\"20\"}')")
    read = "return wrk.format('GET', '/api/v1/products?page=' .. ((i % 20) + 1))"
    if kind == "expense creation":
        lines.append("  " + expense)
    elif kind == "product edits":
        lines.append("  " + edit)
    else:
        lines += [f"  if step == 0 then {expense} end",
                  f"  if step == 1 then {edit} end",
                  f"  {read}"]
    lines.append("end")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "backoffice"],
                       cwd=REPO, check=True)
    binary = REPO / ".build" / "release" / "backoffice"

    root = Path(tempfile.mkdtemp(prefix="backoffice-writes-"))
    try:
        seed = root / "seed"
        run.command(binary, seed, "user", "create", "--email", run.EMAIL,
                    stdin=run.PASSWORD + "\n")
        process, port = start(binary, seed, {})
        base = f"http://127.0.0.1:{port}"
        _, token = run.sign_in(base)
        ids = [post_json(base, token, "/api/v1/products",
                         {"name": f"seed {n}", "type": "bench", "price": "1.00", "tax": "0"})["id"]
               for n in range(200)]
        run.stop(process)

        servers = {}
        for name, extra in (("shipped", {}),):
            folder = root / name
            shutil.copytree(seed, folder)
            servers[name] = start(binary, folder, extra)
        rows = []
        kinds = ["expense creation", "product edits", "mixed"]
        for rep in range(args.reps):
            order = list(servers) if rep % 2 == 0 else list(reversed(servers))
            for kind in kinds:
                for name in order:
                    process, port = servers[name]
                    base = f"http://127.0.0.1:{port}"
                    before = cpu_seconds(process.pid)
                    result = run.wrk(base, script(token, ids, kind), args.connections,
                                     args.seconds)
                    used = cpu_seconds(process.pid) - before
                    result["cpu_us"] = used / max(1, result["rps"] * args.seconds) * 1e6
                    rows.append({"kind": kind, "server": name, **result})
                    print(f"{kind:17} {name:7} {result['rps']:8.0f} req/s  "
                          f"p50 {result['p50']:7.2f}  p99 {result['p99']:8.2f} ms  "
                          f"cpu {result['cpu_us']:6.0f} µs/req  non-2xx {result['errors']}",
                          flush=True)
        for process, _ in servers.values():
            run.stop(process)

        print(f"\n{os.cpu_count()} cores; wrk -t2 -c{args.connections} -d{args.seconds}s, "
              f"{args.reps} interleaved runs each\n")
        print("| writes | server | req/s | p50 ms | p99 ms | CPU µs/req | non-2xx |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for kind in kinds:
            for name in servers:
                mine = [r for r in rows if r["kind"] == kind and r["server"] == name]

                def mean(key: str) -> float:
                    return sum(r[key] for r in mine) / len(mine)

                print(f"| {kind} | {name} | {mean('rps'):.0f} | {mean('p50'):.2f} | "
                      f"{mean('p99'):.2f} | {mean('cpu_us'):.0f} | "
                      f"{sum(r['errors'] for r in mine)} |")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
