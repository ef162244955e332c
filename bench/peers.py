#!/usr/bin/env python3
"""Backoffice beside its peers on the same data, in one run, with every figure as a ratio.

    python3 bench/peers.py                      # 100 000 products, growth at 10k and 1M
    python3 bench/peers.py --sizes 100000 --seconds 5 --reps 1

The peers live in ../shared/bench-peers (or $BENCH_PEERS): Flask + sqlite3, a plain ASGI app with
orjson, and Hummingbird 2 + GRDB (`hb`, built here in release mode from a copy of its folder).
Each reads its own copy of the SQLite file Backoffice was seeded into, with the same SQL and
the same JSON.

For the main size (the first of --sizes) every server runs /health, /api/v1/me (the token check
and a small answer: the fixed cost of every API call), the product JSON list (pages 1–100) and
prefix search (the rotating prefixes of bench/run.py), and the list and search again while
another process changes one product of that server's file every 50 ms (`list+w`, `search+w`),
interleaved (A B C …, then backwards) so drifting background load hits all alike; then
Backoffice alone runs the products HTML page, expense totals, a poster SVG and product
creation. For the other sizes Backoffice and `hb` run list and search, for the growth table.

Then the other targets on the same binary (`--extras`): start to /ready on an empty data
folder (three times), another workspace's writes during a 150 000-row import
(bench/imports.py) and the stress scenario (bench/stress.py); with `--baseline BIN`, the page
and totals of an earlier build beside this one's (bench/baseline.py). The run ends with the
table of targets, each met or missed.

Backoffice runs twice: `bo` as shipped (with its read cache) and `bo-nocache` with
BACKOFFICE_READ_CACHE_MB=0, so the cache's share is visible; `hb-respcache` is the peer with its
own response cache. Ratios are to `hb` (the plain peer) and to Backoffice's own /health.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import subprocess
import threading
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PEERS = Path(os.environ.get("BENCH_PEERS", REPO.parent / "shared" / "bench-peers")).resolve()
os.environ.setdefault("BACKOFFICE_REPO", str(REPO))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(PEERS))
import run  # noqa: E402  (bench/run.py)

try:
    import bench as peers  # noqa: E402  (../shared/bench-peers/bench.py)
except ImportError:
    sys.exit(f"the peers are missing: {PEERS} (set BENCH_PEERS)")

HB_BUILD = Path(os.environ.get("HB_BUILD", "/tmp/backoffice-bench-hbpeer"))


def build_hb() -> Path:
    """Builds the Hummingbird peer from a copy (the peers' folder may be read-only)."""
    binary = HB_BUILD / ".build" / "release" / "HBPeer"
    if not binary.exists():
        shutil.rmtree(HB_BUILD, ignore_errors=True)
        shutil.copytree(PEERS / "hbpeer", HB_BUILD, ignore=shutil.ignore_patterns(".build"))
        print("building the Hummingbird peer …", flush=True)
        subprocess.run(["swift", "build", "-c", "release"], cwd=HB_BUILD, check=True)
    return binary


def seed(binary: Path, products: int, expenses: int, extras: bool) -> tuple[Path, dict]:
    data = Path(tempfile.mkdtemp(prefix=f"backoffice-peers-{products}-"))
    run.command(binary, data, "user", "create", "--email", run.EMAIL, stdin=run.PASSWORD + "\n")
    file = data / "account.json"
    file.write_text(json.dumps(run.account_file(
        products, expenses, 2_000 if extras else 0, 200 if extras else 0)))
    began = time.monotonic()
    run.command(binary, data, "import", "--email", run.EMAIL, str(file))
    print(f"seeded {products:,} products in {time.monotonic() - began:.1f} s", flush=True)
    file.unlink()
    process, port, _ = run.start(binary, data)
    try:
        cookie, token = run.sign_in(f"http://127.0.0.1:{port}")
    finally:
        run.stop(process)
    creds = {"cookie": cookie, "token": token}
    (data / "creds.json").write_text(json.dumps(creds))
    return data, creds


def backoffice_copy(data: Path, tag: str) -> Path:
    """A data folder of its own for one Backoffice server, from a consistent copy."""
    folder = Path(tempfile.mkdtemp(prefix=f"backoffice-{tag}-", dir=str(data.parent)))
    source = peers.db_file(data)
    subprocess.run(["sqlite3", str(source), f".backup '{folder / source.name}'"], check=True)
    return folder


def start(kind: str, data: Path, binary: Path) -> dict:
    if not kind.startswith("bo"):
        return peers.start_server(kind, data)
    folder = backoffice_copy(data, kind)
    env = run.server_env(folder)
    if kind == "bo-nocache":
        env["BACKOFFICE_READ_CACHE_MB"] = "0"
    port = run.free_port()
    process = subprocess.Popen(
        [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peers.wait_ready(port)
    time.sleep(1)
    return {"kind": kind, "proc": process, "port": port,
            "idle_rss": peers.tree_rss(process.pid)[0], "folder": folder}


def database_of(server: dict) -> Path:
    """The SQLite file a running server reads."""
    if "folder" in server:
        return peers.db_file(server["folder"])
    environ = Path(f"/proc/{server['proc'].pid}/environ").read_bytes().split(b"\0")
    for entry in environ:
        if entry.startswith(b"PEER_DB="):
            return Path(entry[len(b"PEER_DB="):].decode())
    raise SystemExit(f"no database file for {server['kind']}")


class Writer:
    """Another process's writes to a server's file while it is measured: one product changed
    every 50 ms (its price, version and time), as a catalog in use is written to. Each write
    bumps the catalog's change version through the triggers, so a read cache keyed by it is
    emptied as in real use."""

    def __init__(self, path: Path, interval: float = 0.05):
        self.path, self.interval = path, interval
        self.stop = threading.Event()
        self.count = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        db = sqlite3.connect(str(self.path), timeout=10, isolation_level=None)
        db.execute("PRAGMA busy_timeout = 10000")
        numbers = [n for (n,) in db.execute("SELECT number FROM products ORDER BY number LIMIT 500")]
        while not self.stop.wait(self.interval):
            number = numbers[self.count % len(numbers)]
            db.execute(
                "UPDATE products SET price_minor = price_minor + 1, version = version + 1, "
                "updated_at = ? WHERE number = ?", (time.time(), number))
            self.count += 1
        db.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def measure(server: dict, scenario: str, script_for, conns: int, seconds: int, warm: int,
            rep: int) -> dict:
    if scenario.endswith("+w"):
        with Writer(database_of(server)) as writer:
            result = measure(server, scenario[:-2], script_for, conns, seconds, warm, rep)
        result["scenario"] = scenario
        result["writes"] = writer.count
        return result
    base = f"http://127.0.0.1:{server['port']}"
    tag = f"{server['kind']}{int(time.time() * 1000) % 10**9}"
    if warm:
        run.wrk(base, script_for(tag + "w"), conns, warm)
    cpu0 = peers.tree_cpu(server["proc"].pid)
    result = run.wrk(base, script_for(tag), conns, seconds)
    cpu1 = peers.tree_cpu(server["proc"].pid)
    result["cpu_us"] = (cpu1 - cpu0) / max(1, result["rps"] * seconds) * 1e6
    rss, hwm = peers.tree_rss(server["proc"].pid)
    result.update(server=server["kind"], scenario=scenario, rep=rep, rss=rss, hwm=hwm,
                  load=os.getloadavg()[0])
    print(f"{scenario:9} rep{rep} {server['kind']:13} {result['rps']:9.0f} req/s  "
          f"p50 {result['p50']:7.2f}  p99 {result['p99']:7.2f} ms  "
          f"cpu {result['cpu_us']:6.0f} µs/req  rss {rss:6.1f} MB  "
          f"non-2xx {result['errors']}  load {result['load']:.1f}", flush=True)
    return result


def compare(data: Path, creds: dict, binary: Path, kinds: list[str], scenarios: list[str],
            args) -> tuple[list[dict], dict]:
    servers = {}
    results = []
    try:
        for kind in kinds:
            servers[kind] = start(kind, data, binary)
            print(f"{kind}: idle RSS {servers[kind]['idle_rss']:.1f} MB", flush=True)
        for scenario in scenarios:
            for rep in range(args.reps):
                order = kinds if rep % 2 == 0 else list(reversed(kinds))
                for kind in order:
                    results.append(measure(
                        servers[kind], scenario,
                        lambda tag, s=scenario.removesuffix("+w"): peers.scenario_script(
                            s, creds, tag),
                        args.connections, args.seconds, args.warm, rep))
    finally:
        for server in servers.values():
            peers.stop_server(server)
            if "folder" in server:
                shutil.rmtree(server["folder"], ignore_errors=True)
    return results, {k: s["idle_rss"] for k, s in servers.items()}


def backoffice_alone(data: Path, creds: dict, binary: Path, args) -> list[dict]:
    """The scenarios only Backoffice serves, on its own copy of the data: as shipped, and the
    page and totals again with the read cache off (a catalog in use is written to, and every
    write empties the cache)."""
    return (backoffice_alone_as(data, creds, binary, args, "bo", everything=True)
            + backoffice_alone_as(data, creds, binary, args, "bo-nocache", everything=False))


def backoffice_alone_as(data: Path, creds: dict, binary: Path, args, kind: str,
                        everything: bool) -> list[dict]:
    server = start(kind, data, binary)
    try:
        base = f"http://127.0.0.1:{server['port']}"
        token = creds["token"]
        auth = {"Authorization": f"Bearer {token}"}
        fundraisers = [f["id"] for f in
                       run.api_get(base, token, "/api/v1/fundraisers?per=100")["items"]]
        scripts = {
            "page": lambda tag: run.rotating(
                {"Cookie": creds["cookie"]}, [f"/products?page={p}" for p in range(1, 51)]),
            "totals": lambda tag: run.rotating(auth, [
                "/api/v1/expenses/summary", "/api/v1/expenses/summary?month=2026-01",
                "/api/v1/expenses/summary?category=Food", "/api/v1/expenses/summary?q=amber"]),
            "poster": lambda tag: run.rotating(auth, [
                f"/api/v1/fundraisers/{f}/poster.svg?format={fmt}"
                for f in fundraisers[:50] for fmt in ("post", "portrait", "story")]),
            "create": lambda tag: peers.creating(token, tag),
        }
        if not everything:
            scripts = {name: scripts[name] for name in ("page", "totals")}
        return [measure(server, name, script, args.connections, args.seconds, args.warm, 0)
                for name, script in scripts.items()]
    finally:
        peers.stop_server(server)
        shutil.rmtree(server["folder"], ignore_errors=True)


def peer_creations(data: Path, creds: dict, kinds: list[str], args) -> list[dict]:
    """Product creation on the peers that write (their own copy each), for the ratio to
    Backoffice's creation."""
    rows = []
    for kind in kinds:
        server = start(kind, data, Path("/nonexistent"))
        try:
            rows.append(measure(server, "create", lambda tag: peers.creating(creds["token"], tag),
                                args.connections, args.seconds, args.warm, 0))
        finally:
            peers.stop_server(server)
    return rows


def mean(rows: list[dict], key: str) -> float:
    return sum(r[key] for r in rows) / len(rows)


def ready_times(binary: Path, times: int = 3) -> list[float]:
    """Seconds from starting the server on an empty data folder to its first 200 from /ready
    (the migrations included), `times` times."""
    found = []
    for _ in range(times):
        data = Path(tempfile.mkdtemp(prefix="backoffice-ready-"))
        try:
            process, _, seconds = run.start(binary, data)
            run.stop(process)
            found.append(seconds)
        finally:
            shutil.rmtree(data, ignore_errors=True)
    return found


def script_figures(script: str, *arguments: str) -> dict:
    """Runs one of bench/'s other scripts on this run's binary and reads the figures it writes."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        print(f"\n==> bench/{script} {' '.join(arguments)}", flush=True)
        subprocess.run([sys.executable, str(HERE / script), *arguments, "--json", str(out)],
                       check=True)
        return json.loads(out.read_text())


def targets(main_rows: list[dict], alone: list[dict], idle: dict, extras: dict) -> list[tuple]:
    """The issue's targets from this run's figures: (target, figure, met)."""
    def rate(scenario: str, server: str) -> float | None:
        rows = [r for r in main_rows + alone
                if r["scenario"] == scenario and r["server"] == server]
        return mean(rows, "rps") if rows else None

    def ratio(scenario: str, server: str, peer: str) -> float | None:
        mine, theirs = rate(scenario, server), rate(scenario, peer)
        return mine / theirs if mine and theirs else None

    found = []
    for scenario, title in (("list", "list, cache off"), ("search", "search, cache off"),
                            ("list+w", "list while written to, cache off"),
                            ("search+w", "search while written to, cache off"),
                            ("me", "/api/v1/me, as shipped")):
        server = "bo" if scenario == "me" else "bo-nocache"
        value = ratio(scenario, server, "hb")
        if value is not None:
            found.append((f"{title} ≥ 1.0× hb", f"{value:.2f}×", value >= 1.0))
    value = ratio("create", "bo", "flasksync")
    if value is not None:
        found.append(("creation ≥ 2× Flask", f"{value:.2f}×", value >= 2.0))
    # Judged uncached (a catalog in use is written to, and every write empties the cache);
    # the cached ratio is shown beside it.
    for scenario, title in (("page", "products page"), ("totals", "expense totals")):
        baseline = extras.get("baseline", {})
        value, cached = baseline.get((scenario, "bo-nocache")), baseline.get((scenario, "bo"))
        if value is not None:
            beside = f" ({cached:.2f}× with the cache)" if cached is not None else ""
            found.append((f"{title}, cache off, ≥ 2× the baseline build",
                           f"{value:.2f}×{beside}", value >= 2.0))
    if "bo" in idle:
        found.append(("idle memory ≤ 60 MB", f"{idle['bo']:.1f} MB", idle["bo"] <= 60))
    if "ready" in extras:
        middle = sorted(extras["ready"])[len(extras["ready"]) // 2] * 1000
        found.append(("start to /ready ≤ 300 ms (median)", f"{middle:.0f} ms", middle <= 300))
    if "imports" in extras:
        during = extras["imports"]["phases"]["while the first import runs"]["writes"]
        found.append((f"another workspace's write p99 during a {extras['imports']['rows']:,}-row "
                      "import ≤ 200 ms",
                      f"{during['p99']:.1f} ms ({during['failed']} failed)",
                      during["p99"] <= 200 and during["failed"] == 0))
    if "stress" in extras:
        stress = extras["stress"]
        failed = sum(k["failed"] for k in stress["kinds"].values() if k)
        health = stress["kinds"]["/health"]["p99"]
        found.append(("stress: every request answered", f"{failed} failed, server alive: "
                      f"{stress['alive']}", failed == 0 and stress["alive"]))
        found.append(("stress: /health p99 ≤ 100 ms", f"{health:.1f} ms", health <= 100))
    return found


def baseline_ratios(baseline: Path, args) -> dict:
    """bench/baseline.py: this build's page and totals rate ÷ an earlier build's, by scenario
    and server."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "baseline.json"
        print(f"\n==> bench/baseline.py --baseline {baseline}", flush=True)
        subprocess.run([sys.executable, str(HERE / "baseline.py"), "--baseline", str(baseline),
                        "--connections", str(args.connections), "--seconds", str(args.seconds),
                        "--warm", str(args.warm), "--out", str(out)], check=True)
        rows = json.loads(out.read_text())
    ratios = {}
    for scenario in ("page", "totals"):
        for server in ("bo", "bo-nocache"):
            picked = {build: [r for r in rows if r["build"] == build and r["server"] == server
                              and r["scenario"] == scenario] for build in ("base", "this")}
            if picked["base"] and picked["this"]:
                ratios[(scenario, server)] = mean(picked["this"], "rps") / mean(
                    picked["base"], "rps")
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--sizes", default="100000,10000,1000000",
                        help="product counts; the first gets the full comparison")
    parser.add_argument("--servers", default="bo,bo-nocache,hb,hb-respcache,flasksync,asgi")
    parser.add_argument("--growth-servers", default="bo,hb")
    parser.add_argument("--create-peers", default="flasksync",
                        help="peers whose product creation is measured beside Backoffice's")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--warm", type=int, default=2)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("/tmp/backoffice-peers.json"))
    parser.add_argument("--extras", default="ready,imports,stress",
                        help="the other targets' scenarios run after the peers, on the same "
                        "binary: ready (start to /ready), imports (bench/imports.py, 150 000 "
                        "rows), stress (bench/stress.py); empty for none")
    parser.add_argument("--import-rows", type=int, default=150_000)
    parser.add_argument("--stress-seconds", type=int, default=120)
    parser.add_argument("--stress-rows", type=int, default=30_000)
    parser.add_argument("--baseline", type=Path,
                        help="an earlier build's binary: its products page and expense totals "
                        "beside this one's (bench/baseline.py)")
    args = parser.parse_args()
    for tool in ("wrk", "sqlite3"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install {tool}")
    # The Python peers' servers, checked before the long seeding rather than after it.
    named = set(args.servers.split(",")) | set(filter(None, args.create_peers.split(",")))
    for kind, tool in (("flask", "gunicorn"), ("asgi", "uvicorn")):
        if any(name.startswith(kind) for name in named) and not shutil.which(tool):
            sys.exit(f"{tool} is missing: pip install flask gunicorn uvicorn uvloop httptools "
                     "orjson")
    binary = REPO / ".build" / "release" / "backoffice"
    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "backoffice"],
                       cwd=REPO, check=True)
    peers.HB = build_hb()

    sizes = [int(s) for s in args.sizes.split(",")]
    everything: dict = {"machine": {}, "sizes": {}}
    main_rows: list[dict] = []
    alone: list[dict] = []
    idle: dict = {}
    for index, size in enumerate(sizes):
        first = index == 0
        data, creds = seed(binary, size, 20_000 if first else 0, extras=first)
        try:
            kinds = args.servers.split(",") if first else args.growth_servers.split(",")
            scenarios = (["health", "me", "list", "search", "list+w", "search+w"] if first
                         else ["list", "search"])
            rows, idle_here = compare(data, creds, binary, kinds, scenarios, args)
            everything["sizes"][size] = rows
            if first:
                main_rows, idle = rows, idle_here
                alone = backoffice_alone(data, creds, binary, args)
                if args.create_peers:
                    alone += peer_creations(data, creds, args.create_peers.split(","), args)
                everything["alone"] = alone
        finally:
            shutil.rmtree(data, ignore_errors=True)
    extras: dict = {}
    wanted = [e for e in args.extras.split(",") if e]
    if "ready" in wanted:
        extras["ready"] = ready_times(binary)
    if "imports" in wanted:
        extras["imports"] = script_figures("imports.py", "--bin", str(binary),
                                           "--rows", str(args.import_rows))
    if "stress" in wanted:
        extras["stress"] = script_figures("stress.py", "--bin", str(binary), "--seconds",
                                          str(args.stress_seconds), "--rows",
                                          str(args.stress_rows))
    if args.baseline:
        extras["baseline"] = baseline_ratios(args.baseline, args)
    everything["extras"] = {k: ({f"{a} {b}": r for (a, b), r in v.items()} if k == "baseline"
                                else v) for k, v in extras.items()}
    machine = (f"{platform.node()}: {os.cpu_count()} cores, {platform.machine()}, "
               f"Linux {platform.release()}; wrk -t2 -c{args.connections} -d{args.seconds}s, "
               f"{args.reps} interleaved runs each")
    everything["machine"] = machine
    args.out.write_text(json.dumps(everything, indent=1))

    groups = defaultdict(list)
    for r in main_rows:
        groups[(r["scenario"], r["server"])].append(r)
    # The /health column is against the first Backoffice server measured (a run may leave
    # out the one with its cache on).
    own = groups.get(("health", "bo")) or groups.get(("health", "bo-nocache"))
    health = mean(own, "rps") if own else float("nan")
    print(f"\n{machine}; {sizes[0]:,} products\n")
    print("| scenario | server | req/s (each run) | p50 ms | p99 ms | CPU µs/req | "
          "÷ hb | ÷ bo /health |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (scenario, server), rows in groups.items():
        hb = groups.get((scenario, "hb"))
        rps = mean(rows, "rps")
        print(f"| {scenario} | {server} | {' / '.join('%.0f' % r['rps'] for r in rows)} | "
              f"{mean(rows, 'p50'):.2f} | {mean(rows, 'p99'):.2f} | {mean(rows, 'cpu_us'):.0f} | "
              f"{rps / mean(hb, 'rps'):.2f} | {rps / health:.2f} |" if hb else "")
    for r in alone:
        print(f"| {r['scenario']} | {r['server']} | {r['rps']:.0f} | {r['p50']:.2f} | "
              f"{r['p99']:.2f} | {r['cpu_us']:.0f} | | {r['rps'] / health:.2f} |")
    print("\nidle RSS MB:", {k: round(v, 1) for k, v in idle.items()})
    if "ready" in extras:
        print("start to /ready, empty data folder (ms):",
              ", ".join(f"{t * 1000:.0f}" for t in extras["ready"]))
    print("\n| target | this run | |\n|---|---:|---|")
    for target, figure, met in targets(main_rows, alone, idle, extras):
        print(f"| {target} | {figure} | {'met' if met else '**missed**'} |")
    if len(sizes) > 1:
        print("\n| products | scenario | server | req/s | p50 ms | p99 ms | CPU µs/req |")
        print("|---:|---|---|---:|---:|---:|---:|")
        for size in sorted(sizes):
            per = defaultdict(list)
            for r in everything["sizes"][size]:
                if r["scenario"] in ("list", "search"):
                    per[(r["scenario"], r["server"])].append(r)
            for (scenario, server), rows in sorted(per.items()):
                if server not in args.growth_servers.split(","):
                    continue
                print(f"| {size:,} | {scenario} | {server} | {mean(rows, 'rps'):.0f} | "
                      f"{mean(rows, 'p50'):.2f} | {mean(rows, 'p99'):.2f} | "
                      f"{mean(rows, 'cpu_us'):.0f} |")


if __name__ == "__main__":
    main()
