"""Schemathesis against the served OpenAPI document, with a real API token.

Every documented operation gets generated requests (valid and invalid) in every phase
schemathesis has: the document's examples, coverage of each schema's edges, random fuzzing, and
stateful scenarios that follow the document's links (create an expense, read it, change it with
its ETag as If-Match, delete it, ...). Every check runs (`--checks all`): no 5xx, documented
statuses, bodies, content types and headers, valid requests accepted and invalid ones refused,
405 with Allow for other methods, auth enforced, created records readable and deleted ones gone.
e2e/schemathesis.toml and e2e/schemathesis_hooks.py hold what the document cannot say (see their
comments).

The run is bounded by time, so CI stays within about three minutes: examples and coverage run
once, then fuzzing (FUZZ_EXAMPLES cases per operation and round) and stateful scenarios take
turns until FUZZ_SECONDS are spent. The seed is fixed, so a failure found in CI comes back when
the test is run again. Raise FUZZ_EXAMPLES and FUZZ_SECONDS to dig deeper by hand.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path

E2E = Path(__file__).resolve().parent
DOCUMENT = E2E.parent / "Public" / "openapi.json"
CONFIG = E2E / "schemathesis.toml"
PHASES = "examples,coverage,fuzzing,stateful"


def _csrf(html: str) -> str:
    match = re.search(r'name="_csrf" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def create_token(base: str, email: str) -> str:
    """Signs up through the real forms and creates an API token on the settings page."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(path: str, fields: dict[str, str], page: str) -> str:
        html = opener.open(base + page).read().decode()
        body = urllib.parse.urlencode({**fields, "_csrf": _csrf(html)}).encode()
        return opener.open(base + path, body).read().decode()

    post("/sign-up", {"email": email, "password": "fuzzing password 1"}, "/sign-up")
    page = post("/settings/tokens", {"name": "schemathesis"}, "/settings")
    match = re.search(r'id="new-token">([^<]+)<', page)
    assert match, "the new token is not shown"
    return match.group(1)


def _operations(document: dict) -> dict[str, dict]:
    """Every operation by its id, with the path's own parameters added to its list."""
    operations = {}
    for item in document["paths"].values():
        shared = item.get("parameters", [])
        for method, operation in item.items():
            if method in {"get", "put", "post", "patch", "delete"}:
                operations[operation["operationId"]] = {
                    **operation,
                    "parameters": shared + operation.get("parameters", []),
                }
    return operations


def _deref(document: dict, node: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def test_every_if_match_write_documents_412_and_is_the_configs_list() -> None:
    """The operations that take If-Match answer a stale one with 412 in the error envelope, and
    they are exactly the operations e2e/schemathesis.toml lets answer 412 (a status the fuzzer's
    acceptance checks do not allow on their own)."""
    document = json.loads(DOCUMENT.read_text())
    with_if_match = set()
    for operation_id, operation in _operations(document).items():
        names = {_deref(document, parameter)["name"] for parameter in operation["parameters"]}
        if "If-Match" not in names:
            continue
        with_if_match.add(operation_id)
        response = _deref(document, operation["responses"].get("412", {}))
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        assert schema.get("$ref") == "#/components/schemas/Error", f"{operation_id}: no 412 envelope"
    assert len(with_if_match) == 14, sorted(with_if_match)
    config = tomllib.loads(CONFIG.read_text())
    allowed = [
        set(entry["include-operation-id"])
        for entry in config["operations"]
        if "412" in entry["checks"]["positive_data_acceptance"]["expected-statuses"]
    ]
    assert allowed == [with_if_match]


def test_a_silent_server_still_fails_the_fuzz_run() -> None:
    """The fuzz run tolerates a slow client (the total of an exchange is checked only for a
    hang) but not a silent server: the read timeout stays at Schemathesis' 10 s and the total
    limit stays a limit, not switched off."""
    config = tomllib.loads(CONFIG.read_text())
    assert 0 < config["request-timeout"] <= 10
    assert 0 < config["checks"]["max_response_time"] <= 60


def test_api_matches_its_document(start_server) -> None:
    # A server of its own: the run leaves thousands of records behind.
    server = start_server(name="fuzz")
    token = create_token(server.url(""), "fuzz@example.com")
    executable = shutil.which("schemathesis") or shutil.which("st")
    command = [executable] if executable else [sys.executable, "-m", "schemathesis.cli"]
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": str(E2E / "schemathesis_hooks.py"),
        "FUZZ_API_TOKEN": token,
    }
    result = subprocess.run(
        command
        + [
            "--config-file",
            str(CONFIG),
            "run",
            server.url("/openapi.json"),
            "--header",
            f"Authorization: Bearer {token}",
            "--phases",
            PHASES,
            "--max-examples",
            os.environ.get("FUZZ_EXAMPLES", "25"),
            "--max-time",
            os.environ.get("FUZZ_SECONDS", "150"),
            "--checks",
            "all",
            "--seed",
            "20261122",
            "--generation-database",
            "none",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    output = result.stdout + result.stderr
    server.stop()
    # The message (read only on failure) tells a slow server from a slow client.
    assert result.returncode == 0, (
        "schemathesis found problems:\n"
        + output[-6000:]
        + "\n-- the server's slowest requests (its own timing) --\n"
        + server.slowest_requests()
    )
    # Coverage warnings (e.g. ids it could not guess) are not failures; failed cases are.
    summary = re.search(r"(\d+) generated, ([^\n]*)", output)
    assert summary and int(summary.group(1)) > 0, output[-3000:]
    assert "failed" not in summary.group(2) and "error" not in summary.group(2), summary.group(0)
    # Every phase ran, and the stateful one followed links into the versioned writes.
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert re.search(rf"✅ {phase}\b", output), f"{phase} did not pass:\n" + output[-3000:]
    links = re.search(r"API Links:\s+(\d+) covered", output)
    assert links and int(links.group(1)) > 0, output[-3000:]
    unlinked = re.search(r"No links point to th[a-z ]+\([^)]*\):\n((?:  - [^\n]+\n)+)", output)
    for label in (unlinked.group(1).splitlines() if unlinked else []):
        assert not re.search(r"(PUT|PATCH|DELETE) /api/v1/(expenses|products|fundraisers|ad-payments|marketing/plans)/", label), label
