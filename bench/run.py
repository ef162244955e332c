#!/usr/bin/env python3
"""Backoffice under load: a release build, a large account, wrk on loopback.

    python3 bench/run.py                       # builds the release binary, full data set
    python3 bench/run.py --no-build --seconds 5 --products 20000

Steps:
1. `swift build -c release` (skipped with --no-build or --bin).
2. Start to /ready on an empty data folder, three times; the median is reported.
3. Idle memory of a freshly started server.
4. Seeds a temporary SQLite data folder through the app's own code: a generated account file
   (100 000 products, 20 000 expenses, 2 000 ad payments, 200 fundraisers with photos) read by
   `backoffice import`, which checks every record with the same rules as the forms and writes
   them in batches.
5. wrk (Debian package `wrk`) against /health, the product JSON list, prefix search, the
   products HTML page, expense totals, a poster SVG and product creation, each for --seconds at
   --connections; requests/s, p50/p99 latency, and each figure as a ratio to /health.
6. Peak memory (the kernel's high-water mark of the server process) and memory after the load.

Prints a Markdown table for docs/PERFORMANCE.md and checks the targets. Run by hand; it is not
part of CI. Needs wrk (apt-get install wrk).
"""

from __future__ import annotations

import argparse
import base64
import http.cookiejar
import json
import os
import platform
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EMAIL = "bench@example.com"
PASSWORD = "bench password 1"
WORDS = (
    "alpha amber apple arctic aurora basil berry birch blue bold breeze brick cedar cherry citrus "
    "clover cobalt coral crisp daisy delta dune ember fern flint forest frost garnet ginger glacier "
    "harbor hazel honey indigo iris ivory jade jasmine juniper kiwi lagoon lemon lilac lime linen "
    "lotus maple marble meadow mint misty mocha nectar nova oak olive onyx opal orchid pearl pepper "
    "pine plum polar quartz raven river ruby saffron sage salt sand silver slate spruce stone storm "
    "sunny tango teal thistle timber topaz tulip umber velvet violet walnut willow winter zest"
).split()
NOUNS = "chair lamp mug phone kettle table jacket bottle shelf pillow speaker candle".split()
CATEGORIES = ["Personal", "Hobby", "Transport", "Food", "Insurance", "Savings"]

TARGETS = {
    "search_p99_ms": 10.0,
    "list_ratio": 0.5,
    "poster_rps": 1000.0,
    "idle_mb": 60.0,
    "ready_s": 1.0,
}


# ------------------------------------------------------------------ server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(data: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "BACKOFFICE_DATA_DIR": str(data),
        "BACKOFFICE_CATALOG_URL": "http://127.0.0.1:9/",
        "BACKOFFICE_MONOBANK_URL": "http://127.0.0.1:9/",
        "BACKOFFICE_JAR_REFRESH_MINUTES": "0",
        "LOG_LEVEL": "error",
    }
    env.pop("DATABASE_URL", None)
    return env


def start(binary: Path, data: Path) -> tuple[subprocess.Popen, int, float]:
    """Starts the server and returns it, its port and the seconds until /ready answered 200."""
    port = free_port()
    began = time.monotonic()
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=server_env(data), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    while time.monotonic() - began < 60:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"GET /ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if s.recv(16).startswith(b"HTTP/1.1 200"):
                    return process, port, time.monotonic() - began
        except OSError:
            time.sleep(0.002)
    process.kill()
    sys.exit("the server did not become ready")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


def memory_mb(pid: int) -> dict[str, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    values = {}
    for key in ("VmRSS", "VmHWM"):
        values[key] = int(re.search(rf"^{key}:\s+(\d+) kB", status, re.M).group(1)) / 1024
    return values


def command(binary: Path, data: Path, *args: str, stdin: str = "") -> str:
    result = subprocess.run(
        [str(binary), *args], cwd=REPO, env=server_env(data), input=stdin,
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        sys.exit(f"backoffice {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout + result.stderr


# ------------------------------------------------------------------ data


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 4 % 256, y * 4 % 256, 128)) for x in range(width))
        for y in range(height)
    )
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def account_file(products: int, expenses: int, payments: int, fundraisers: int) -> dict:
    """A whole account in the backup format, generated."""
    base = time.time() - 400 * 86400

    def at(seconds: float) -> str:
        value = time.gmtime(base + seconds)
        return time.strftime("%Y-%m-%dT%H:%M:%S", value) + f".{int(seconds * 1000) % 1000:03d}Z"

    photo = {"mime": "image/png", "data": base64.b64encode(png(64, 64)).decode()}
    items = []
    for n in range(products):
        name = f"{WORDS[n % len(WORDS)]} {NOUNS[(n // len(WORDS)) % len(NOUNS)]} {n}"
        items.append({
            "id": str(uuid.uuid4()), "number": n + 1, "name": name,
            "type": NOUNS[n % len(NOUNS)], "price": f"{(n % 5000) + 1}.{n % 100:02d}",
            "tax": f"{n % 28}.00", "favorited_at": at(n) if n % 50 == 0 else None,
            "photo": None, "created_at": at(n), "updated_at": at(n),
        })
    return {
        "format": "backoffice-account", "version": 1, "exported_at": at(0),
        "account": {"email": EMAIL, "locale": "en-US", "currency": "USD"},
        "products": {"last_number": products, "items": items},
        "expenses": [
            {
                "id": str(uuid.uuid4()), "title": f"{WORDS[n % len(WORDS)]} {n % 1000}",
                "amount": f"{(n % 300) + 1}.{n % 100:02d}",
                "category": CATEGORIES[n % len(CATEGORIES)],
                "spent_at": at(n * 1500) if n % 10 else None,
                "created_at": at(n), "updated_at": at(n),
            }
            for n in range(expenses)
        ],
        "ad_payments": [
            {
                "id": str(uuid.uuid4()), "name": f"{WORDS[n % len(WORDS)]} campaign {n}",
                "url": f"https://pay{n % 37}.example.com/c/{n}", "created_at": at(n),
                "updated_at": at(n),
            }
            for n in range(payments)
        ],
        "marketing_plans": [],
        "fundraisers": [
            {
                "id": str(uuid.uuid4()), "purpose": f"На дрон для бригади №{n}",
                "target": f"{(n + 1) * 1000}.00", "jar_id": None, "template": n % 15 + 1,
                "scale": 1.0, "offset_x": 0.0, "offset_y": 0.0, "show_progress": False,
                "photo": photo, "jar_snapshots": [], "created_at": at(n), "updated_at": at(n),
            }
            for n in range(fundraisers)
        ],
    }


def sign_in(base: str) -> tuple[str, str]:
    """Signs in through the form; returns the session cookie and a new API token."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(path: str, fields: dict[str, str], page: str) -> str:
        html = opener.open(base + page).read().decode()
        token = re.search(r'name="_csrf" value="([^"]+)"', html).group(1)
        body = urllib.parse.urlencode({**fields, "_csrf": token}).encode()
        return opener.open(base + path, body).read().decode()

    post("/sign-in", {"email": EMAIL, "password": PASSWORD}, "/sign-in")
    page = post("/settings/tokens", {"name": "bench"}, "/settings")
    token = re.search(r'id="new-token">([^<]+)<', page).group(1)
    cookie = next(c for c in jar if c.name == "backoffice_session")
    return f"{cookie.name}={cookie.value}", token


def api_get(base: str, token: str, path: str) -> dict:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


# ------------------------------------------------------------------ wrk


def lua_list(values: list[str]) -> str:
    return "{" + ",".join(json.dumps(v) for v in values) + "}"


def wrk(base: str, script: str, connections: int, seconds: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", file.name, base],
        capture_output=True, text=True, check=True,
    ).stdout
    os.unlink(file.name)

    def ms(label: str) -> float:
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": ms("50%"), "p99": ms("99%"),
        "errors": int(errors.group(1)) if errors else 0,
        "socket_errors": socket_errors.group(1) if socket_errors else "",
    }


def rotating(headers: dict[str, str], paths: list[str], method: str = "GET") -> str:
    lines = [f'wrk.headers["{k}"] = {json.dumps(v)}' for k, v in headers.items()]
    lines += [
        f"local paths = {lua_list(paths)}",
        "local i = 0",
        "request = function()",
        "  i = i + 1",
        f"  return wrk.format('{method}', paths[(i % #paths) + 1])",
        "end",
    ]
    return "\n".join(lines) + "\n"


def creating(token: str) -> str:
    return (
        f'wrk.headers["Authorization"] = "Bearer {token}"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        "local i = 0\n"
        "local run = tostring(math.random(100000, 999999))\n"
        "request = function()\n"
        "  i = i + 1\n"
        "  local body = '{\"name\":\"bench new ' .. run .. ' ' .. i .. "
        "'\",\"type\":\"bench\",\"price\":\"12.50\",\"tax\":\"20\"}'\n"
        "  return wrk.format('POST', '/api/v1/products', nil, body)\n"
        "end\n"
        "init = function(args) run = run .. tostring(math.random(1000, 9999)) end\n"
    )


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=Path, help="server binary (default: release build)")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--expenses", type=int, default=20_000)
    parser.add_argument("--ad-payments", type=int, default=2_000)
    parser.add_argument("--fundraisers", type=int, default=200)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--only", help="comma-separated words; run the scenarios whose name "
                        "contains one of them (and /health)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")

    binary = args.bin or REPO / ".build" / "release" / "backoffice"
    if not args.bin and not args.no_build:
        print("building the release binary …", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "backoffice"],
                       cwd=REPO, check=True)

    # Start to /ready on empty data folders, and idle memory of a fresh server.
    starts = []
    idle = None
    for _ in range(3):
        with tempfile.TemporaryDirectory(prefix="backoffice-bench-") as empty:
            process, _, seconds = start(binary, Path(empty))
            starts.append(seconds)
            time.sleep(3)
            idle = memory_mb(process.pid)["VmRSS"]
            stop(process)
    ready = statistics.median(starts)
    print(f"start to /ready, empty data folder: {', '.join(f'{s:.3f}' for s in starts)} s "
          f"(median {ready:.3f} s); idle memory {idle:.1f} MB", flush=True)

    data = Path(tempfile.mkdtemp(prefix="backoffice-bench-"))
    try:
        command(binary, data, "user", "create", "--email", EMAIL, stdin=PASSWORD + "\n")
        file = data / "account.json"
        file.write_text(json.dumps(account_file(
            args.products, args.expenses, args.ad_payments, args.fundraisers)))
        size_mb = file.stat().st_size / 1e6
        began = time.monotonic()
        summary = command(binary, data, "import", "--email", EMAIL, str(file))
        seeding = time.monotonic() - began
        print(f"seeded in {seeding:.1f} s from a {size_mb:.1f} MB file: {summary.strip()}",
              flush=True)

        process, port, _ = start(binary, data)
        base = f"http://127.0.0.1:{port}"
        cookie, token = sign_in(base)
        auth = {"Authorization": f"Bearer {token}"}
        fundraisers = [f["id"] for f in api_get(base, token, "/api/v1/fundraisers?per=100")["items"]]
        prefixes = [w[:3] for w in WORDS] + [w[:1] for w in WORDS[:10]] + [
            f"{w}%20" for w in WORDS[:20]]
        scenarios = [
            ("/health", rotating({}, ["/health"])),
            ("product JSON list (20 per page)",
             rotating(auth, [f"/api/v1/products?per=20&page={p}" for p in range(1, 101)])),
            ("prefix search (20 per page)",
             rotating(auth, [f"/api/v1/products?per=20&q={p}" for p in prefixes])),
            ("products HTML page",
             rotating({"Cookie": cookie}, [f"/products?page={p}" for p in range(1, 51)])),
            ("expense totals",
             rotating(auth, ["/api/v1/expenses/summary", "/api/v1/expenses/summary?month=2026-01",
                             "/api/v1/expenses/summary?category=Food",
                             "/api/v1/expenses/summary?q=amber"])),
            ("poster SVG",
             rotating(auth, [f"/api/v1/fundraisers/{f}/poster.svg?format={fmt}"
                             for f in fundraisers[:50] for fmt in ("post", "portrait", "story")])),
            ("product creation", creating(token)),
        ]
        if args.only:
            words = args.only.split(",")
            scenarios = [s for s in scenarios
                         if s[0] == "/health" or any(w in s[0] for w in words)]
        results = []
        for name, script in scenarios:
            wrk(base, script, args.connections, 2)  # warm-up
            result = wrk(base, script, args.connections, args.seconds)
            results.append((name, result))
            print(f"{name}: {result}", flush=True)
        time.sleep(3)
        memory = memory_mb(process.pid)
        stop(process)
    finally:
        shutil.rmtree(data, ignore_errors=True)

    health = results[0][1]["rps"]
    print()
    print(f"{platform.node()}: {os.cpu_count()} cores, {platform.machine()}, "
          f"Linux {platform.release()}, release build, SQLite; wrk -t2 -c{args.connections} "
          f"-d{args.seconds}s on loopback")
    print()
    print("| | requests/s | p50 | p99 | ratio to /health | non-2xx |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in results:
        print(f"| {name} | {r['rps']:,.0f} | {r['p50']:.2f} ms | {r['p99']:.2f} ms | "
              f"{r['rps'] / health:.2f} | {r['errors']} |")
    print()
    print(f"Start to /ready (empty data folder, median of 3): {ready * 1000:.0f} ms")
    print(f"Idle memory after start: {idle:.1f} MB; after the load: {memory['VmRSS']:.1f} MB; "
          f"peak: {memory['VmHWM']:.1f} MB")
    print(f"Seeding: {seeding:.1f} s for {args.products:,} products, {args.expenses:,} expenses, "
          f"{args.ad_payments:,} ad payments, {args.fundraisers:,} fundraisers "
          f"({size_mb:.1f} MB file)")

    by_name = dict(results)
    if args.only:
        return
    checks = [
        ("prefix search p99 ≤ 10 ms", by_name["prefix search (20 per page)"]["p99"]
         <= TARGETS["search_p99_ms"]),
        ("JSON list ≥ 50 % of /health",
         by_name["product JSON list (20 per page)"]["rps"] / health >= TARGETS["list_ratio"]),
        ("poster SVG ≥ 1 000/s", by_name["poster SVG"]["rps"] >= TARGETS["poster_rps"]),
        ("idle memory ≤ 60 MB", idle <= TARGETS["idle_mb"]),
        ("start to /ready ≤ 1 s", ready <= TARGETS["ready_s"]),
        ("no failed requests", all(r["errors"] == 0 and not r["socket_errors"]
                                   for _, r in results)),
    ]
    print()
    for label, ok in checks:
        print(f"{'met ' if ok else 'MISSED'}  {label}")


if __name__ == "__main__":
    main()
