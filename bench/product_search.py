#!/usr/bin/env python3
"""Prefix search on a large catalog, measured with wrk on loopback.

Seeds N products through the app's own JSON API (the same validation and normalisation a user
gets), then runs wrk against the prefix search and against /health on the same server, and
prints requests/s, p50/p99 latency, the ratio to /health, and the server's memory.

    python3 bench/product_search.py                     # 100 000 products, 32 connections
    python3 bench/product_search.py --products 20000 --bin .build/release/backoffice

Needs wrk (apt-get install wrk). Run by hand; the figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORDS = (
    "alpha amber apple arctic aurora basil berry birch blue bold breeze brick cedar cherry citrus "
    "clover cobalt coral crisp daisy delta dune ember fern flint forest frost garnet ginger glacier "
    "harbor hazel honey indigo iris ivory jade jasmine juniper kiwi lagoon lemon lilac lime linen "
    "lotus maple marble meadow mint misty mocha nectar nova oak olive onyx opal orchid pearl pepper "
    "pine plum polar quartz raven river ruby saffron sage salt sand silver slate spruce stone storm "
    "sunny tango teal thistle timber topaz tulip umber velvet violet walnut willow winter zest"
).split()
NOUNS = "chair lamp mug phone kettle table jacket bottle shelf pillow speaker candle".split()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary: Path, data: Path, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "BACKOFFICE_DATA_DIR": str(data),
        "BACKOFFICE_CATALOG_URL": "http://127.0.0.1:9/",
        "BACKOFFICE_MONOBANK_URL": "http://127.0.0.1:9/",
        "BACKOFFICE_JAR_REFRESH_MINUTES": "0",
        "LOG_LEVEL": "warning",
    }
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=1) as r:
                if r.status == 200:
                    return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    sys.exit("the server did not become ready")


def create_token(base: str) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(path: str, fields: dict[str, str], page: str) -> str:
        html = opener.open(base + page).read().decode()
        token = re.search(r'name="_csrf" value="([^"]+)"', html).group(1)
        body = urllib.parse.urlencode({**fields, "_csrf": token}).encode()
        return opener.open(base + path, body).read().decode()

    post("/sign-up", {"email": "bench@example.com", "password": "bench password 1"}, "/sign-up")
    page = post("/settings/tokens", {"name": "bench"}, "/settings")
    return re.search(r'id="new-token">([^<]+)<', page).group(1)


def seed(port: int, token: str, count: int, workers: int = 4) -> float:
    counter = iter(range(count))
    lock = threading.Lock()
    started = time.monotonic()

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        while True:
            with lock:
                n = next(counter, None)
            if n is None:
                return
            name = f"{WORDS[n % len(WORDS)]} {NOUNS[(n // len(WORDS)) % len(NOUNS)]} {n}"
            body = json.dumps({
                "name": name, "type": NOUNS[n % len(NOUNS)],
                "price": f"{(n % 5000) + 1}.{n % 100:02d}", "tax": str(n % 28),
            })
            connection.request("POST", "/api/v1/products", body, headers)
            response = connection.getresponse()
            response.read()
            if response.status != 201:
                raise SystemExit(f"seeding failed at {n}: HTTP {response.status}")

    with ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return time.monotonic() - started


def wrk(url: str, token: str, connections: int, seconds: int, search: bool) -> dict[str, float]:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    prefixes = [w[:3] for w in WORDS] + [w[:1] for w in WORDS[:10]] + [f"{w} " for w in WORDS[:20]]
    script.write(
        'wrk.headers["Authorization"] = "Bearer %s"\n' % token
        + "local prefixes = {%s}\n" % ",".join(json.dumps(p) for p in prefixes)
        + "local i = 0\n"
        + "request = function()\n"
        + ("  i = i + 1\n  local q = prefixes[(i %% #prefixes) + 1]:gsub(' ', '%%%%20')\n"
           "  return wrk.format('GET', '/api/v1/products?per=20&q=' .. q)\n" if search else
           "  return wrk.format('GET', '/health')\n")
        + "end\n"
    )
    script.close()
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script.name, url],
        capture_output=True, text=True, check=True,
    ).stdout
    os.unlink(script.name)

    def ms(label: str) -> float:
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": ms("50%"), "p99": ms("99%"),
        "errors": int(errors.group(1)) if errors else 0,
    }


def memory_kb(pid: int, field: str) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=15)
    default_bin = REPO / ".build/release/backoffice"
    if not default_bin.exists():
        default_bin = REPO / ".build/debug/backoffice"
    parser.add_argument("--bin", type=Path, default=default_bin)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")

    data = Path(tempfile.mkdtemp(prefix="backoffice-bench-"))
    port = free_port()
    process = start_server(args.bin, data, port)
    try:
        idle = memory_kb(process.pid, "VmRSS")
        token = create_token(f"http://127.0.0.1:{port}")
        took = seed(port, token, args.products)
        url = f"http://127.0.0.1:{port}"
        health = wrk(url, token, args.connections, args.seconds, search=False)
        search = wrk(url, token, args.connections, args.seconds, search=True)
        peak = memory_kb(process.pid, "VmHWM")
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)

    print(f"binary            {args.bin.relative_to(REPO) if args.bin.is_relative_to(REPO) else args.bin}")
    print(f"machine           {os.cpu_count()} cores, {os.uname().machine}, {os.uname().release}")
    print(f"seeded            {args.products} products in {took:.1f} s ({args.products / took:.0f}/s)")
    print(f"wrk               {args.connections} connections, {args.seconds} s, loopback")
    for name, figures in (("/health", health), ("prefix search", search)):
        print(
            f"{name:<17} {figures['rps']:>9.0f} req/s  p50 {figures['p50']:.2f} ms  "
            f"p99 {figures['p99']:.2f} ms  non-2xx {figures['errors']}  "
            f"ratio {figures['rps'] / health['rps']:.2f}"
        )
    print(f"memory            idle {idle / 1024:.1f} MB, peak {peak / 1024:.1f} MB")


if __name__ == "__main__":
    main()
