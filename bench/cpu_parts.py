#!/usr/bin/env python3
"""Where a request's processor time goes: Backoffice beside `hb`, by part, in microseconds.

    python3 bench/cpu_parts.py                          # /health, me, list: Backoffice and hb
    python3 bench/cpu_parts.py --scenarios me --data /tmp/profdata1000 --top 25

For each server and scenario, `wrk -t2 -c32` sends the scenario's requests (as bench/peers.py
does) while `perf record` samples the server's process (on-CPU samples of every thread,
kernel included). Each sample is put in the part its leaf function belongs to: the kernel,
malloc/free, reference counting, the Swift runtime's metadata look-ups and casts, Swift
concurrency, the standard library, Foundation, SwiftNIO, Vapor and its kits, Hummingbird,
GRDB, SQLite, the app itself (BackofficeServer, BackofficeCore; `HBPeer` for the peer), the
rest. A part's share of the samples times the processor time per request measured in the
same run (utime + stime over the requests `wrk` made) is that part's microseconds.

Leaf functions only: time in a library function called from the app counts for the library.
Swift symbols are classified by the module their mangled name starts with, so a generic
function specialized into the app counts for the app. Needs perf and wrk (and root, or
perf_event_paranoid ≤ 1); seeds an account with --products products unless --data names a
folder seeded before (bench/allocations.py and this script share that format).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import peers as P  # noqa: E402  (bench/peers.py)

# Swift modules by the name their mangled symbols start with (`$s7NIOCore…` → `NIOCore`).
SWIFT_MODULES = [
    ("SwiftNIO", re.compile(r"^(NIO|_NIO|CNIO)")),
    ("Vapor and its kits", re.compile(r"^(Vapor|RoutingKit|ConsoleKit|AsyncKit|MultipartKit|"
                                      r"WebSocketKit|Fluent|FluentKit|SQLKit|SQLiteKit|SQLiteNIO|"
                                      r"PostgresKit|PostgresNIO)")),
    ("Hummingbird", re.compile(r"^(Hummingbird|HTTPTypes|ServiceLifecycle)")),
    ("GRDB", re.compile(r"^GRDB")),
    ("Foundation", re.compile(r"^(Foundation|FoundationEssentials|FoundationInternationalization)")),
    ("the app", re.compile(r"^(BackofficeServer|BackofficeCore|backoffice|HBPeer|main)$")),
    ("logging, metrics, crypto", re.compile(r"^(Logging|Metrics|CoreMetrics|Prometheus|Crypto|"
                                            r"_CryptoExtras|Tracing|Instrumentation|"
                                            r"ServiceContextModule)")),
]

MALLOC = re.compile(r"^(malloc|free|calloc|realloc|cfree|_int_|__libc_(malloc|free|calloc)|"
                    r"tcache|malloc_consolidate|unlink_chunk|swift_slowAlloc|swift_slowDealloc|"
                    r"swift_allocObject|swift_deallocObject|swift_deallocClassInstance)")
REFCOUNT = re.compile(r"^(swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease|"
                      r"unknownObjectRetain|unknownObjectRelease|nonatomic|tryRetain|"
                      r"isUniquelyReferenced|weak)|_swift_(retain|release)|"
                      r"swift::RefCounts|bool swift::RefCounts)")

PARTS = ["kernel", "malloc/free", "retain/release", "Swift runtime: metadata, casts",
         "Swift concurrency and Dispatch", "Swift standard library"] + \
        [name for name, _ in SWIFT_MODULES] + \
        ["SQLite", "C library: strings, locks, time", "the rest"]


def swift_module(symbol: str) -> str | None:
    """The first module named in a mangled Swift symbol (`$s7NIOCore…` → `NIOCore`)."""
    if symbol.startswith(("$ss", "_$ss", "$sS", "_$sS")):
        return "Swift"
    found = re.match(r"^_?\$s(\d+)", symbol)
    if not found:
        return None
    start = found.end()
    return symbol[start:start + int(found.group(1))]


def part_of(symbol: str, dso: str) -> str:
    """The part a sample's leaf function belongs to, from its name and the file it is in."""
    if dso.startswith("[kernel") or dso == "[vdso]":
        return "kernel"
    if MALLOC.search(symbol):
        return "malloc/free"
    if REFCOUNT.search(symbol):
        return "retain/release"
    name = Path(dso).name
    if name.startswith(("libswift_Concurrency", "libdispatch", "libswiftDispatch",
                        "libBlocksRuntime")) or symbol.startswith(("swift_task", "swift_job",
                                                                   "swift_continuation")):
        return "Swift concurrency and Dispatch"
    if "sqlite" in name or symbol.startswith("sqlite3"):
        return "SQLite"
    if symbol.startswith(("__swift_", "_swift_", "$sypWOb")):
        # Existential boxes and type look-ups the compiler emits into each binary.
        return "Swift runtime: metadata, casts"
    if symbol.startswith(("c_nio_", "CNIO")):
        return "SwiftNIO"
    if symbol.startswith("CCryptoBoringSSL"):
        return "logging, metrics, crypto"
    module = swift_module(symbol)
    if module == "Swift":
        return "Swift standard library"
    if module:
        for part, pattern in SWIFT_MODULES:
            if pattern.search(module):
                return part
        return "the rest"
    if name.startswith("libswiftCore"):
        # The runtime's C and C++ entry points: metadata caches, casts, conformances.
        return "Swift runtime: metadata, casts"
    if name.startswith("libFoundation"):
        return "Foundation"
    if name.startswith(("libc.so", "libm.so", "ld-linux", "libpthread")):
        return "C library: strings, locks, time"
    return "the rest"


def record(server: dict, scenario: str, creds: dict, seconds: int) -> tuple[Counter, Counter, float]:
    """Samples by part and by leaf symbol, and the processor time per request (µs)."""
    base = f"http://127.0.0.1:{server['port']}"
    script = Path(f"/tmp/backoffice-profile-{scenario}.lua")
    script.write_text(P.peers.scenario_script(scenario, creds, f"profile{time.time_ns()}"))
    subprocess.run(["wrk", "-t2", "-c32", "-d2s", "-s", str(script), base],
                   capture_output=True)  # warm-up: caches, first-use allocations
    data = Path(f"/tmp/backoffice-profile-{server['kind']}.data")
    pid = server["proc"].pid
    perf = subprocess.Popen(
        ["perf", "record", "-F", "1999", "-p", str(pid), "-o", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    cpu0 = P.peers.tree_cpu(pid)
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "-s", str(script), base],
                         capture_output=True, text=True).stdout
    cpu1 = P.peers.tree_cpu(pid)
    perf.send_signal(2)
    perf.wait()
    found = re.search(r"(\d+) requests in", out)
    requests = int(found.group(1)) if found else 0
    cpu_us = (cpu1 - cpu0) / max(1, requests) * 1e6
    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,sym,dso"],
                          capture_output=True, text=True).stdout
    parts: Counter[str] = Counter()
    symbols: Counter[str] = Counter()
    for line in text.splitlines():
        # `    7f56b287cf27 swift_task_getCurrent (/…/libswift_Concurrency.so)`
        found = re.match(r"^\s*[0-9a-f]+\s+(.*?)\s*\(([^()]*)\)\s*$", line)
        if not found:
            continue
        symbol, dso = found.group(1) or "[unknown]", found.group(2)
        part = part_of(symbol, dso)
        parts[part] += 1
        symbols[f"[{part}] {symbol}"] += 1
    return parts, symbols, cpu_us


def demangled(symbols: list[str]) -> list[str]:
    if not shutil.which("swift"):
        return symbols
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(symbols),
                         capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(symbols) else symbols


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", type=Path, default=P.REPO / ".build/release/backoffice")
    parser.add_argument("--servers", default="bo,hb",
                        help="bo (Backoffice as shipped), bo-nocache and/or hb")
    parser.add_argument("--scenarios", default="health,me,list")
    parser.add_argument("--products", type=int, default=1000)
    parser.add_argument("--data", type=Path, help="a folder seeded by an earlier run")
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--top", type=int, default=0, help="also the N busiest leaf functions")
    args = parser.parse_args()
    for tool in ("perf", "wrk"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed")
    if args.data:
        data, creds = args.data, json.loads((args.data / "creds.json").read_text())
    else:
        data, creds = P.seed(args.binary, args.products, 0, False)
        print(f"seeded {data} (reuse it with --data)")
    kinds = args.servers.split(",")
    if "hb" in kinds:
        P.peers.HB = P.build_hb()
    scenarios = args.scenarios.split(",")
    for scenario in scenarios:
        columns: dict[str, tuple[Counter, float]] = {}
        for kind in kinds:
            server = (P.peers.start_server("hb", data) if kind == "hb"
                      else P.start(kind, data, args.binary))
            try:
                parts, symbols, cpu_us = record(server, scenario, creds, args.seconds)
            finally:
                P.peers.stop_server(server)
            columns[kind] = (parts, cpu_us)
            if args.top:
                total = sum(symbols.values())
                names = [name for name, _ in symbols.most_common(args.top)]
                print(f"\n{scenario}, {kind}: the busiest leaf functions (share of samples)")
                for name, shown in zip(names, demangled(names)):  # noqa: B905
                    print(f"  {100 * symbols[name] / total:5.1f} %  {shown[:150]}")
        print(f"\n{scenario}: µs of processor time per request, by part (share of samples)")
        print(f"{'part':34}" + "".join(f"{kind:>20}" for kind in kinds))
        for part in PARTS + ["total"]:
            row = f"{part:34}"
            for kind in kinds:
                parts, cpu_us = columns[kind]
                total = sum(parts.values()) or 1
                share = 1.0 if part == "total" else parts[part] / total
                row += f"{cpu_us * share:12.1f} ({100 * share:4.1f} %)"
            print(row)


if __name__ == "__main__":
    main()
