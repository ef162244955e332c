#!/usr/bin/env python3
"""Heap allocations per request, counted exactly: a probe on the C library's `malloc`.

    python3 bench/allocations.py                       # /health, me, list: Backoffice and hb
    python3 bench/allocations.py --binary /tmp/base/.build/release/backoffice --servers bo
    python3 bench/allocations.py --where me            # also: which code allocates, per request

Timings on a shared virtual machine move by a fifth between two runs of the same build, so a
change that saves three microseconds cannot be seen in them. The number of allocations a
request makes does not move at all, and on this server each one costs about as much as the
work around it (the object it makes, its reference counting, its release). So this counts
them: a `perf` uprobe on glibc's `malloc` in the server's process while `wrk` sends one
scenario's requests on few connections, divided by the number of requests `wrk` made. The
probe slows each allocation down, so the request rate it shows means nothing; the count is
exact (the server's own background work, such as the metrics, adds well under one per request).

Needs root (or perf_event_paranoid ≤ 1), perf and wrk; seeds one account with --products
products (through the app's own import, as bench/peers.py does) unless --data names a folder
seeded before. `--where SCENARIO` records the call stacks of one scenario's allocations
(DWARF unwinding, since the Swift runtime has no frame pointers) and prints the places in the
code that allocate most, per request.
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

LIBC_CANDIDATES = ["/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
                   "/lib/aarch64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6"]
EVENT = "probe_libc:malloc"

# Frames that say where memory is taken, not who asked for it: skipped to name the caller.
PLUMBING = re.compile(
    r"^(swift_|_swift|swift::|__swift|\$ss|malloc|_int_|__libc_malloc|\[unknown\]|"
    r"_allocateStringStorage|specialized _Contiguous|_ContiguousArray|_NativeDictionary|"
    r"specialized _NativeDictionary|static _DictionaryStorage|specialized static __StringStorage|"
    r"specialized static String\._|specialized String\.|_StringGuts|ManagedBuffer|"
    r"specialized static ManagedBuffer|specialized Array|Array\.|outlined)")


def ensure_probe() -> None:
    listed = subprocess.run(["perf", "probe", "-l"], capture_output=True, text=True).stdout
    if EVENT in listed:
        return
    libc = next((p for p in LIBC_CANDIDATES if Path(p).exists()), None)
    if libc is None:
        sys.exit("glibc not found for the malloc probe")
    made = subprocess.run(["perf", "probe", "-x", libc, "malloc"], capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"could not add the malloc probe (root needed?): {made.stderr.strip()}")


def wrk(base: str, script: Path, seconds: int, connections: int = 4) -> int:
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", str(script), base],
        capture_output=True, text=True).stdout
    found = re.search(r"(\d+) requests in", out)
    return int(found.group(1)) if found else 0


def count(server: dict, scenario: str, creds: dict, seconds: int) -> float:
    base = f"http://127.0.0.1:{server['port']}"
    script = Path(f"/tmp/backoffice-alloc-{scenario}.lua")
    script.write_text(P.peers.scenario_script(scenario, creds, "alloc"))
    wrk(base, script, 2)  # warm-up: statement caches, first-use allocations
    stat = subprocess.Popen(
        ["perf", "stat", "-x,", "-e", EVENT, "-p", str(server["proc"].pid)],
        stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    requests = wrk(base, script, seconds)
    time.sleep(0.3)
    stat.send_signal(2)
    err = stat.communicate()[1]
    total = next((int(line.split(",")[0]) for line in err.splitlines()
                  if line[:1].isdigit() and EVENT in line), 0)
    return total / requests if requests else float("nan")


def where(server: dict, scenario: str, creds: dict, top: int) -> None:
    base = f"http://127.0.0.1:{server['port']}"
    script = Path(f"/tmp/backoffice-alloc-{scenario}.lua")
    script.write_text(P.peers.scenario_script(scenario, creds, "alloc"))
    wrk(base, script, 2)
    data = Path("/tmp/backoffice-alloc.data")
    record = subprocess.Popen(
        ["perf", "record", "-e", EVENT, "--call-graph", "dwarf,16384", "-p",
         str(server["proc"].pid), "-o", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    requests = wrk(base, script, 1, connections=2)
    time.sleep(0.3)
    record.send_signal(2)
    record.wait()
    text = subprocess.run(["perf", "script", "-i", str(data)], capture_output=True,
                          text=True).stdout
    if shutil.which("swift"):
        text = subprocess.run(["swift", "demangle", "--simplified"], input=text,
                              capture_output=True, text=True).stdout
    places: Counter[str] = Counter()
    samples = 0
    for stack in text.split("\n\n"):
        lines = [line.strip() for line in stack.strip().splitlines() if line.strip()]
        if len(lines) < 2:
            continue
        samples += 1
        frames = [line.split(None, 1)[1].rsplit(" (", 1)[0] for line in lines[1:]
                  if len(line.split(None, 1)) > 1]
        callers = [re.sub(r"\+0x[0-9a-f]+$", "", f) for f in frames if not PLUMBING.search(f)]
        places[" <- ".join(callers[:2]) or "(runtime only)"] += 1
    # DWARF unwinding drops samples when its buffer fills: shares are of the samples kept.
    print(f"\n{scenario}: {samples} allocations recorded over {requests} requests; "
          "the places that allocate most (shares of those recorded):")
    for place, n in places.most_common(top):
        print(f"  {100 * n / samples:5.1f} %  {place[:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", type=Path, default=P.REPO / ".build/release/backoffice")
    parser.add_argument("--servers", default="bo,hb", help="bo (Backoffice, cache off) and/or hb")
    parser.add_argument("--scenarios", default="health,me,list")
    parser.add_argument("--products", type=int, default=1000)
    parser.add_argument("--data", type=Path, help="a folder seeded by an earlier run")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--where", help="also record where SCENARIO allocates (Backoffice)")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    for tool in ("perf", "wrk"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed")
    ensure_probe()
    if args.data:
        data, creds = args.data, json.loads((args.data / "creds.json").read_text())
    else:
        data, creds = P.seed(args.binary, args.products, 0, False)
        print(f"seeded {data} (reuse it with --data)")
    servers = args.servers.split(",")
    if "hb" in servers:
        P.peers.HB = P.build_hb()
    scenarios = args.scenarios.split(",")
    results: dict[tuple[str, str], float] = {}
    for kind in servers:
        server = (P.peers.start_server("hb", data) if kind == "hb"
                  else P.start("bo-nocache", data, args.binary))
        try:
            for scenario in scenarios:
                results[(kind, scenario)] = count(server, scenario, creds, args.seconds)
            if args.where and kind != "hb":
                where(server, args.where, creds, args.top)
        finally:
            P.peers.stop_server(server)
    print("\nallocations per request")
    print(f"{'scenario':10}" + "".join(f"{kind:>10}" for kind in servers))
    for scenario in scenarios:
        print(f"{scenario:10}" + "".join(f"{results[(k, scenario)]:10.1f}" for k in servers))


if __name__ == "__main__":
    main()
