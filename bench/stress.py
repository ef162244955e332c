#!/usr/bin/env python3
"""The stress scenario: everything at once for two minutes, every request answered.

    python3 bench/stress.py --bin PATH            # the release binary to measure
    python3 bench/stress.py --no-build --seconds 60

For `--seconds` (120): 8 writers (each its own account's API token, alternating expense and
product creation), one 30 000-row CSV import through the import form (then the same file
again), a loop downloading the workspace backup (Settings → Backup), a loop reading the
products page, and `/health` asked every 50 ms. Prints, per kind, how many requests were made,
how many failed (anything but the expected status, or no answer), p50, p99 and max. Run by
hand; not part of CI.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from imports import Browser, csv_file, figures, import_once, start, stats  # noqa: E402
from run import REPO, stop  # noqa: E402


class Loop(threading.Thread):
    """Makes one kind of request again and again until stopped, timing each."""

    def __init__(self, port: int, request, every: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.request = request  # (connection, n) -> status
        self.every = every
        self.samples: list[tuple[float, float, int]] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        n = 0
        while not self.stopped.is_set():
            n += 1
            began = time.monotonic()
            try:
                status = self.request(connection, n)
            except OSError:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                status = 0
            took = time.monotonic() - began
            self.samples.append((began, took, status))
            if self.every:
                time.sleep(max(0.0, self.every - took))


def answer(connection: http.client.HTTPConnection, method: str, path: str, body=None,
           headers=None) -> int:
    connection.request(method, path, body, headers or {})
    response = connection.getresponse()
    response.read()
    return response.status


def writer(token: str):
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def request(connection, n):
        if n % 2:
            body = json.dumps({"title": f"Stress {n}", "amount": "2.50", "category": "Food"})
            status = answer(connection, "POST", "/api/v1/expenses", body, headers)
        else:
            body = json.dumps({"name": f"Stress {n}", "type": "Product", "price": "3.00", "tax": "18"})
            status = answer(connection, "POST", "/api/v1/products", body, headers)
        return 200 if status == 201 else status
    return request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--rows", type=int, default=30_000)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--bin", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures here (bench/peers.py)")
    args = parser.parse_args()

    binary = args.bin or REPO / ".build/release/backoffice"
    if not args.bin and not args.no_build:
        subprocess.run(
            ["swift", "build", "-c", "release", "--product", "backoffice"], cwd=REPO, check=True)
    csv = csv_file(args.rows)
    with tempfile.TemporaryDirectory() as folder:
        process, port = start(binary, Path(folder), None)
        base = f"http://127.0.0.1:{port}"
        try:
            tokens = []
            for index in range(8):
                account = Browser(base)
                account.sign_up(f"writer{index}@example.com")
                account.get("/settings")
                _, _, page = account.post("/settings/tokens", {"name": "stress"})
                tokens.append(re.search(r'id="new-token">([^<]+)<', page).group(1))
            importer = Browser(base)
            importer.sign_up("importer@example.com")
            cookie = "; ".join(f"{c.name}={c.value}" for c in importer.jar)

            loops = {f"writer {i + 1}": Loop(port, writer(t)) for i, t in enumerate(tokens)}
            loops["backup download"] = Loop(
                port, lambda c, n: answer(c, "GET", "/settings/backup", headers={"Cookie": cookie}))
            loops["products page"] = Loop(
                port, lambda c, n: answer(c, "GET", "/products", headers={"Cookie": cookie}))
            loops["/health"] = Loop(port, lambda c, n: answer(c, "GET", "/health"), every=0.05)
            began = time.monotonic()
            for loop in loops.values():
                loop.start()
            imports = []
            while time.monotonic() - began < args.seconds - 5 and len(imports) < 2:
                imports.append(import_once(importer, csv))
            time.sleep(max(0.0, args.seconds - (time.monotonic() - began)))
            for loop in loops.values():
                loop.stopped.set()
            for loop in loops.values():
                loop.join(timeout=130)
            alive = process.poll() is None
        finally:
            stop(process)

    print(f"{args.seconds:.0f} s, {args.rows}-row import run {len(imports)} time(s): "
          + "; ".join(f"{i['text']} in {i['import_s']:.1f} s" for i in imports))
    print(f"server still running at the end: {alive}\n")
    print("| requests | count | p50 | p99 | max | failed |")
    print("|---|---:|---:|---:|---:|---:|")
    writes = [s for name, loop in loops.items() if name.startswith("writer") for s in loop.samples]
    print("| 8 writers (expenses and products) " + stats(writes))
    for name in ("backup download", "products page", "/health"):
        print(f"| {name} " + stats(loops[name].samples))
    if args.json:
        kinds = {"8 writers": figures(writes)}
        kinds.update({name: figures(loops[name].samples)
                      for name in ("backup download", "products page", "/health")})
        args.json.write_text(json.dumps({
            "seconds": args.seconds, "rows": args.rows, "alive": alive,
            "imports": [i["text"] for i in imports], "kinds": kinds}, indent=1))


if __name__ == "__main__":
    main()
