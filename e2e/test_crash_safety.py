"""Crash safety: every create the server answered with 2xx survives a SIGKILL.

A stream of API creates runs from several threads; the server is killed with SIGKILL in the
middle of it, restarted on the same data, and every answered record must be there, intact.
Runs on SQLite always, and on PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from test_api_fuzz import create_token

WRITERS = 4
KILL_AFTER = 120  # answered creates before the kill

# What is created: ad payments go through the model layer; products through the API go through
# SQLite's direct writer (one transaction on a thread of its own) when the data is a SQLite file.
KINDS = {
    "ad-payments": lambda n: {"name": f"Crash entry {n:06d}", "url": f"https://crash{n}.example.com/p?q={n}"},
    "products": lambda n: {"name": f"Crash product {n:06d}", "type": "Crash", "price": f"{n}.25", "tax": "7"},
}
CHECKED = {"ad-payments": ("name", "url"), "products": ("name", "type", "price")}


def api(base: str, token: str, method: str, path: str, body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def stream_until_killed(server, token: str, kind: str) -> dict[str, dict]:
    """Creates entries until the server dies; returns the answered ones by id."""
    answered: dict[str, dict] = {}
    lock = threading.Lock()
    killed = threading.Event()
    counter = iter(range(1_000_000))

    def writer() -> None:
        while not killed.is_set():
            with lock:
                n = next(counter)
            body = KINDS[kind](n)
            try:
                status, created = api(server.base_url, token, "POST", f"/api/v1/{kind}", body)
            except OSError:
                return  # the server is gone
            if 200 <= status < 300 and created:
                with lock:
                    answered[created["id"]] = body
                    if len(answered) >= KILL_AFTER and not killed.is_set():
                        killed.set()
                        server.process.send_signal(signal.SIGKILL)

    with ThreadPoolExecutor(WRITERS) as pool:
        for _ in range(WRITERS):
            pool.submit(writer)
    server.process.wait(timeout=30)
    assert server.process.returncode == -signal.SIGKILL
    return answered


def check_survivors(server, token: str, answered: dict[str, dict], kind: str) -> None:
    assert len(answered) >= KILL_AFTER
    missing, damaged = [], []
    for entry_id, body in answered.items():
        status, record = api(server.base_url, token, "GET", f"/api/v1/{kind}/{entry_id}")
        if status != 200:
            missing.append(entry_id)
        elif any(record.get(field) != body[field] for field in CHECKED[kind]):
            damaged.append((entry_id, record, body))
    assert not missing, f"{len(missing)} answered creates are gone after the crash"
    assert not damaged, f"records changed by the crash: {damaged[:3]}"


def run_crash_round_trip(start_server, env: dict[str, str], name: str, kind: str) -> None:
    first = start_server(env, name=f"{name}-before")
    token = create_token(first.base_url, f"{name}@example.com")
    answered = stream_until_killed(first, token, kind)
    # Same data, fresh process: the data folder (SQLite) or database (Postgres) is reused.
    second = start_server({**env, "BACKOFFICE_DATA_DIR": str(first.data_dir)}, name=f"{name}-after")
    check_survivors(second, token, answered, kind)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_sqlite_keeps_every_answered_create(start_server, kind: str) -> None:
    run_crash_round_trip(start_server, {}, f"crash-sqlite-{kind}", kind)


def reset_postgres(url: str) -> None:
    psql = shutil.which("psql")
    assert psql, "psql is needed to reset the crash-test database"
    subprocess.run(
        [psql, url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
         "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;"],
        check=True,
        timeout=60,
    )


@pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="TEST_DATABASE_URL is not set: the PostgreSQL crash test needs a database",
)
def test_postgres_keeps_every_answered_create(start_server) -> None:
    url = os.environ["TEST_DATABASE_URL"]
    for kind in sorted(KINDS):
        reset_postgres(url)
        run_crash_round_trip(start_server, {"DATABASE_URL": url}, f"crash-postgres-{kind}", kind)
