#!/usr/bin/env python3
"""The offline catalog on a device: how long a 10 000-product catalog takes to reach a browser's
copy, and how long a keystroke of the search takes in that copy with no network.

    python3 bench/offline.py                        # release build, 10 000 products
    python3 bench/offline.py --no-build --products 20000 --runs 5

Steps:
1. `swift build -c release` (skipped with --no-build or --bin).
2. Seeds an account through `backoffice import` (the generated account file of bench/run.py).
3. Chromium (Playwright, the system's browser) signs in and, for each run, on a fresh copy:
   - the whole catalog through the change feed into IndexedDB (catalog.js, as the pages do it);
   - beside it, in the same run, what a device without a feed would do: the whole catalog
     through the paged list API (100 a page) into IndexedDB;
   - then 25 changes made on the server and an incremental sync of just those.
4. Offline (the browser's network cut), the products page from the device's copy: for each
   keystroke of several searches, from the input event to the results drawn on the page.

Prints a Markdown table for docs/PERFORMANCE.md with medians and the worst run, and checks the
targets (sync under 10 s, a keystroke under 50 ms). Run by hand; it is not part of CI.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import EMAIL, PASSWORD, REPO, account_file, command, start, stop  # noqa: E402

TARGETS = {"sync_s": 10.0, "keystroke_ms": 50.0}
QUERIES = ["maple", "cobalt la", "zest", "river mug 1", "ta"]

# A fresh copy of the catalog through the feed, timed in the page.
SYNC = """async () => {
  const { Catalog, dbName } = await import("/js/catalog.js");
  const page = document.body.dataset;
  await new Promise((ok) => { const r = indexedDB.deleteDatabase(dbName(page.account) + "-bench"); r.onsuccess = r.onerror = r.onblocked = ok; });
  const copy = new Catalog({ account: page.account + "-bench", api: page.catalogApi, format: page.catalogFormat });
  const began = performance.now();
  const applied = await copy.pull();
  const seconds = (performance.now() - began) / 1000;
  const count = (await copy.products()).length;
  window.benchCopy = copy;
  return { seconds, applied, count };
}"""

# The same catalog through the paged list API, into a store of its own.
PAGED = """async () => {
  const name = "bench-paged-" + document.body.dataset.account;
  await new Promise((ok) => { const r = indexedDB.deleteDatabase(name); r.onsuccess = r.onerror = r.onblocked = ok; });
  const db = await new Promise((ok, fail) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore("products", { keyPath: "id" });
    open.onsuccess = () => ok(open.result); open.onerror = fail;
  });
  const began = performance.now();
  let count = 0;
  for (let page = 1; ; page += 1) {
    const body = await (await fetch(`/api/v1/products?per_page=100&page=${page}`, { credentials: "same-origin" })).json();
    const tx = db.transaction("products", "readwrite");
    for (const item of body.items) tx.objectStore("products").put(item);
    await new Promise((ok, fail) => { tx.oncomplete = ok; tx.onerror = fail; });
    count += body.items.length;
    if (!body.has_more) break;
  }
  const seconds = (performance.now() - began) / 1000;
  db.close();
  return { seconds, count };
}"""

# 25 edits on the server, then the sync that brings just those.
INCREMENTAL = """async () => {
  const copy = window.benchCopy;
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const some = (await copy.products()).slice(0, 25);
  for (const p of some) {
    const r = await fetch(`/api/v1/products/${p.id}`, { method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: JSON.stringify({ name: p.name + " v", type: p.type, price: p.price, tax: p.tax }) });
    if (!r.ok) throw new Error(String(r.status));
  }
  const began = performance.now();
  const applied = await copy.pull();
  return { seconds: (performance.now() - began) / 1000, applied };
}"""

# One keystroke: set the value, send the input event, wait for the results to be drawn.
KEYSTROKE = """async (text) => {
  const input = document.getElementById("product-q");
  const results = document.getElementById("product-search-results");
  const drawn = new Promise((resolve) => {
    const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()); });
    observer.observe(results, { childList: true, subtree: true });
  });
  const began = performance.now();
  input.value = text;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  const ended = await drawn;
  await new Promise((r) => requestAnimationFrame(() => r()));
  return { ms: ended - began, shown: results.querySelectorAll(".search-item").length };
}"""


def machine() -> str:
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), platform.processor())
    return f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=Path, help="server binary (default: release build)")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--products", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("playwright is missing: python3 -m pip install -r e2e/requirements.txt")
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("chromium is missing: apt-get install chromium")

    binary = args.bin or REPO / ".build" / "release" / "backoffice"
    if not args.bin and not args.no_build:
        print("building the release binary …", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "backoffice"],
                       cwd=REPO, check=True)

    data = Path(tempfile.mkdtemp(prefix="backoffice-offline-bench-"))
    process = None
    try:
        command(binary, data, "user", "create", "--email", EMAIL, stdin=PASSWORD + "\n")
        file = data / "account.json"
        file.write_text(json.dumps(account_file(args.products, 0, 0, 0)))
        command(binary, data, "import", "--email", EMAIL, str(file))
        process, port, _ = start(binary, data)
        base = f"http://127.0.0.1:{port}"

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-dev-shm-usage"])
            context = browser.new_context(viewport={"width": 375, "height": 812}, locale="en-US")
            page = context.new_page()
            page.goto(base + "/sign-in")
            page.fill('input[name="email"]', EMAIL)
            page.fill('input[name="password"]', PASSWORD)
            with page.expect_navigation():
                page.click('form[action="/sign-in"] button[type="submit"]')
            page.wait_for_function(
                "() => document.documentElement.dataset.offlineReady === 'yes'", timeout=120_000)

            syncs, pageds, incrementals = [], [], []
            for run in range(args.runs):
                sync = page.evaluate(SYNC)
                assert sync["count"] == args.products, sync
                paged = page.evaluate(PAGED)
                assert paged["count"] == args.products, paged
                incremental = page.evaluate(INCREMENTAL)
                assert incremental["applied"] == 25, incremental
                syncs.append(sync["seconds"])
                pageds.append(paged["seconds"])
                incrementals.append(incremental["seconds"])
                print(f"run {run + 1}: feed {sync['seconds']:.2f} s, paged list "
                      f"{paged['seconds']:.2f} s, 25 changes {incremental['seconds'] * 1000:.0f} ms",
                      flush=True)

            # The page's own copy is up to date (a sync at load); then offline.
            page.goto(base + "/products")
            page.wait_for_function(
                "() => document.documentElement.dataset.offlineReady === 'yes'", timeout=120_000)
            context.set_offline(True)
            page.reload()
            page.wait_for_function(
                "() => (document.querySelector('.products-page')?.dataset.rendered || '').startsWith('device:')",
                timeout=60_000)
            strokes = []
            for query in QUERIES:
                line = []
                for length in range(1, len(query) + 1):
                    result = page.evaluate(KEYSTROKE, query[:length])
                    strokes.append(result["ms"])
                    line.append(f"{query[:length]!r} {result['ms']:.1f} ms ({result['shown']})")
                page.evaluate(KEYSTROKE, "")
                print("; ".join(line), flush=True)
            context.set_offline(False)
            browser.close()
    finally:
        if process:
            stop(process)
        shutil.rmtree(data, ignore_errors=True)

    def row(label: str, values: list[float], unit: str, scale: float = 1.0) -> str:
        median = statistics.median(values) * scale
        worst = max(values) * scale
        return f"| {label} | {median:.1f} {unit} | {worst:.1f} {unit} |"

    strokes_sorted = sorted(strokes)
    p95 = strokes_sorted[max(0, int(len(strokes_sorted) * 0.95) - 1)]
    print()
    print(f"Machine: {machine()}; {args.products} products; Chromium "
          f"{subprocess.run([chromium, '--version'], capture_output=True, text=True).stdout.strip()}")
    print()
    print("| step | median | worst |")
    print("|---|---|---|")
    print(row("whole catalog through the change feed into IndexedDB", syncs, "s"))
    print(row("whole catalog through the paged list API (100 a page), same run", pageds, "s"))
    print(row("25 changes made on the server, incremental sync", incrementals, "ms", 1000))
    print(row(f"offline search, one keystroke ({len(strokes)} keystrokes)", strokes, "ms"))
    print(f"| offline search, 95th percentile keystroke | {p95:.1f} ms | |")
    failed = []
    if max(syncs) > TARGETS["sync_s"]:
        failed.append(f"sync {max(syncs):.2f} s > {TARGETS['sync_s']} s")
    if max(strokes) > TARGETS["keystroke_ms"]:
        failed.append(f"keystroke {max(strokes):.1f} ms > {TARGETS['keystroke_ms']} ms")
    print()
    print("targets: " + ("all met" if not failed else "MISSED: " + "; ".join(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
