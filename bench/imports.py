#!/usr/bin/env python3
"""How long other accounts' writes wait while a large CSV import runs.

    python3 bench/imports.py                  # release build, 150 000 rows, SQLite
    python3 bench/imports.py --no-build --rows 20000

Steps:
1. `swift build -c release --product backoffice` (skipped with --no-build or --bin).
2. Starts the server on a fresh SQLite data folder and signs up two accounts through the forms:
   the importer, and another account with an API token.
3. Writes a CSV file of --rows expenses (about 5 MB for 150 000 rows).
4. The other account creates an expense through the API every --every ms and, on another
   connection, reads its list as often, from a few seconds before the upload until a few
   seconds after the imports have finished, and records how long each request took.
5. The importer uploads the file through the import form, follows the progress page's JSON
   until the import is done, then uploads the same file again (every row is already present).
6. Prints the figures for docs/PERFORMANCE.md: upload time, import time, and the other
   account's write and read latency before, during and after (p50, p99, max, failures).

Run by hand; not part of CI.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import REPO, free_port, server_env, stop  # noqa: E402

PASSWORD = "bench password 1"
WORDS = "tea bus gym rent bread milk fuel taxi book film cafe lunch gift soap".split()
CATEGORIES = ["Personal", "Hobby", "Transport", "Food", "Insurance", "Savings"]


def start(binary: Path, data: Path, log: Path | None) -> tuple[subprocess.Popen, int]:
    """Starts the server (its log at debug level in `log`, if given) and waits for /ready."""
    port = free_port()
    env = server_env(data)
    output = subprocess.DEVNULL
    if log:
        env["LOG_LEVEL"] = "debug"
        output = log.open("w")
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=env, stdout=output, stderr=output,
    )
    began = time.monotonic()
    while time.monotonic() - began < 60:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=1) as response:
                if response.status == 200:
                    return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit("the server did not become ready")


class Browser:
    """A signed-in browser session: cookies and the CSRF token of the last page."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect())
        self.csrf = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path) as response:
            html = response.read().decode()
        found = re.search(r'name="_csrf" value="([^"]+)"', html)
        if found:
            self.csrf = found.group(1)
        return html

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        body = urllib.parse.urlencode({**fields, "_csrf": self.csrf}).encode()
        try:
            with self.opener.open(self.base + path, body) as response:
                return response.status, response.headers.get("Location", ""), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", ""), error.read().decode()

    def upload(self, path: str, csv: bytes, fields: dict[str, str]) -> tuple[int, str]:
        boundary = "----bench" + uuid.uuid4().hex
        parts = []
        for name, value in {**fields, "_csrf": self.csrf}.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                .encode())
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="expenses.csv"\r\nContent-Type: text/csv\r\n\r\n'.encode())
        body = b"".join(parts) + csv + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(
            self.base + path, body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        try:
            with self.opener.open(request) as response:
                return response.status, response.headers.get("Location", "")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "")

    def sign_up(self, email: str) -> None:
        self.get("/sign-up")
        status, _, _ = self.post("/sign-up", {"email": email, "password": PASSWORD})
        if status != 303:
            sys.exit(f"sign-up failed: {status}")
        self.get("/")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


def csv_file(rows: int) -> bytes:
    rng = random.Random(7)
    lines = ["date,title,category,amount"]
    for n in range(rows):
        day = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        date = day if n % 5 else f"{day}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        if n % 11 == 0:
            date = ""
        title = f"{WORDS[n % len(WORDS)]} {n % 1000}"
        amount = f"{rng.randint(1, 99)}.{rng.randint(0, 99):02d}"
        lines.append(f"{date},{title},{CATEGORIES[n % len(CATEGORIES)]},{amount}")
    return ("\n".join(lines) + "\n").encode()


class Other(threading.Thread):
    """The other account: one API request every `every` seconds, each timed. `write` creates an
    expense (`POST /api/v1/expenses`); otherwise it reads its list (`GET /api/v1/expenses`)."""

    def __init__(self, port: int, token: str, every: float, write: bool) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.token = token
        self.every = every
        self.write = write
        self.samples: list[tuple[float, float, int]] = []  # (start, seconds, status)
        self.stopped = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        n = 0
        while not self.stopped.is_set():
            n += 1
            began = time.monotonic()
            try:
                if self.write:
                    body = json.dumps({"title": f"Other {n}", "amount": "1.00", "category": "Food"})
                    connection.request("POST", "/api/v1/expenses", body, headers)
                else:
                    connection.request("GET", "/api/v1/expenses?per=20", headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
            except OSError:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                status = 0
            took = time.monotonic() - began
            self.samples.append((began, took, status))
            time.sleep(max(0.0, self.every - took))


def figures(samples: list[tuple[float, float, int]]) -> dict[str, float] | None:
    """Count, p50, p99 and max in ms, and how many failed, of (began, seconds, status) samples."""
    if not samples:
        return None
    times = sorted(s[1] * 1000 for s in samples)
    return {
        "count": len(times), "p50": statistics.median(times),
        "p99": times[min(len(times) - 1, int(len(times) * 0.99))], "max": times[-1],
        "failed": sum(1 for s in samples if s[2] not in (200, 201)),
    }


def stats(samples: list[tuple[float, float, int]]) -> str:
    found = figures(samples)
    if not found:
        return "| – | – | – | – | – |"
    return (
        f"| {found['count']} | {found['p50']:.1f} ms | {found['p99']:.1f} ms | "
        f"{found['max']:.1f} ms | {found['failed']} |")


def import_once(importer: Browser, csv: bytes) -> dict[str, float | str]:
    importer.get("/expenses/import")
    began = time.monotonic()
    status, location = importer.upload("/expenses/import", csv, {})
    uploaded = time.monotonic()
    if status != 303 or not location.startswith("/imports/"):
        sys.exit(f"upload failed: {status} {location}")
    while True:
        with importer.opener.open(importer.base + location + "/status") as response:
            state = json.loads(response.read())
        if state["status"] != "running":
            break
        time.sleep(0.2)
    finished = time.monotonic()
    if state["status"] != "done":
        sys.exit(f"import stopped: {state}")
    return {
        "began": began, "uploaded": uploaded, "finished": finished, "text": state["text"],
        "upload_s": uploaded - began, "import_s": finished - uploaded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=150_000)
    parser.add_argument("--every", type=float, default=20, help="ms between the other writes")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--bin", type=Path)
    parser.add_argument("--server-log", type=Path, help="write the server's debug log here")
    parser.add_argument("--json", type=Path, help="also write the figures here (bench/peers.py)")
    args = parser.parse_args()

    binary = args.bin or REPO / ".build/release/backoffice"
    if not args.bin and not args.no_build:
        subprocess.run(
            ["swift", "build", "-c", "release", "--product", "backoffice"], cwd=REPO, check=True)

    csv = csv_file(args.rows)
    print(f"file: {args.rows} rows, {len(csv) / 1_000_000:.2f} MB")
    with tempfile.TemporaryDirectory() as folder:
        process, port = start(binary, Path(folder), args.server_log)
        base = f"http://127.0.0.1:{port}"
        try:
            importer = Browser(base)
            importer.sign_up("importer@example.com")
            other = Browser(base)
            other.sign_up("other@example.com")
            other.get("/settings")
            _, _, page = other.post("/settings/tokens", {"name": "bench"})
            token = re.search(r'id="new-token">([^<]+)<', page).group(1)

            writer = Other(port, token, args.every / 1000, write=True)
            reader = Other(port, token, args.every / 1000, write=False)
            writer.start()
            reader.start()
            time.sleep(3)
            first = import_once(importer, csv)
            time.sleep(2)
            second = import_once(importer, csv)
            time.sleep(3)
            for other in (writer, reader):
                other.stopped.set()
                other.join()
        finally:
            stop(process)

    print()
    print(f"first import:  upload {first['upload_s']:.2f} s, import {first['import_s']:.1f} s"
          f" — {first['text']}")
    print(f"second import: upload {second['upload_s']:.2f} s, import {second['import_s']:.1f} s"
          f" — {second['text']}")
    phases = [
        ("before the upload", 0, first["began"]),
        ("while the file is read and checked (first upload)", first["began"], first["uploaded"]),
        ("while the first import runs", first["uploaded"], first["finished"]),
        ("while the second import runs (all present)", second["uploaded"], second["finished"]),
        ("after both", second["finished"], float("inf")),
    ]
    found: dict = {"rows": args.rows, "first": first, "second": second, "phases": {}}
    for other, kind, title in (
        (writer, "writes", "other account's writes (`POST /api/v1/expenses`)"),
        (reader, "reads", "other account's reads (`GET /api/v1/expenses?per=20`)"),
    ):
        print()
        print(f"| {title} | requests | p50 | p99 | max | failed |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, a, b in phases:
            samples = [s for s in other.samples if a <= s[0] < b]
            found["phases"].setdefault(name, {})[kind] = figures(samples)
            print(f"| {name} " + stats(samples))
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
