#!/usr/bin/env python3
"""The products HTML page and expense totals of an earlier build beside this one's, on the
same machine in one run: the "twice the rate" targets are about one machine, and figures from
another run (or another VM) do not compare.

    git clone . /tmp/base && git -C /tmp/base checkout <commit>
    (cd /tmp/base && swift build -c release --product backoffice)
    python3 bench/baseline.py --baseline /tmp/base/.build/release/backoffice

Each build seeds its own data folder with the same generated account (100 000 products,
20 000 expenses), so each reads a schema it created itself. Then, repetition by repetition and
in alternating order, each build serves the page (pages 1–50, signed in) and the totals (four
summaries) as shipped (`bo`, read cache on) and with the cache off (`bo-nocache`). The table
gives requests per second, processor time per request and this build's ratio to the other.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402  (bench/peers.py)
import run  # noqa: E402


def scripts(creds: dict) -> dict:
    auth = {"Authorization": f"Bearer {creds['token']}"}
    return {
        "page": lambda tag: run.rotating(
            {"Cookie": creds["cookie"]}, [f"/products?page={p}" for p in range(1, 51)]),
        "totals": lambda tag: run.rotating(auth, [
            "/api/v1/expenses/summary", "/api/v1/expenses/summary?month=2026-01",
            "/api/v1/expenses/summary?category=Food", "/api/v1/expenses/summary?q=amber"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the earlier build's binary")
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("/tmp/backoffice-baseline.json"))
    args = parser.parse_args()
    builds = {"base": args.baseline.resolve(),
              "this": peers.REPO / ".build" / "release" / "backoffice"}
    for name, binary in builds.items():
        if not binary.exists():
            sys.exit(f"{name}: no binary at {binary}")
    seeded = {name: peers.seed(binary, args.products, 20_000, extras=False)
              for name, binary in builds.items()}
    rows = []
    try:
        for rep in range(args.reps):
            order = list(builds) if rep % 2 == 0 else list(reversed(builds))
            for name in order:
                data, creds = seeded[name]
                for kind in ("bo", "bo-nocache"):
                    server = peers.start(kind, data, builds[name])
                    try:
                        for scenario, script in scripts(creds).items():
                            row = peers.measure(server, scenario, script, args.connections,
                                                args.seconds, args.warm, rep)
                            row["build"] = name
                            rows.append(row)
                    finally:
                        peers.peers.stop_server(server)
                        shutil.rmtree(server["folder"], ignore_errors=True)
    finally:
        for data, _ in seeded.values():
            shutil.rmtree(data, ignore_errors=True)
    args.out.write_text(json.dumps(rows, indent=1, default=str))

    print("\n| scenario | server | base req/s | this req/s | base µs CPU | this µs CPU | this ÷ base |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for scenario in ("page", "totals"):
        for kind in ("bo", "bo-nocache"):
            def pick(build: str) -> list[dict]:
                return [r for r in rows if r["build"] == build and r["server"] == kind
                        and r["scenario"] == scenario]
            base, this = pick("base"), pick("this")
            rate = {b: peers.mean(rs, "rps") for b, rs in (("base", base), ("this", this))}
            cpu = {b: peers.mean(rs, "cpu_us") for b, rs in (("base", base), ("this", this))}
            print(f"| {scenario} | {kind} | {rate['base']:.0f} | {rate['this']:.0f} | "
                  f"{cpu['base']:.0f} | {cpu['this']:.0f} | "
                  f"**{rate['this'] / rate['base']:.2f}×** |")


if __name__ == "__main__":
    main()
