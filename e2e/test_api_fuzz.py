"""Schemathesis against the served OpenAPI document, with a real API token.

Every documented operation gets generated requests (valid and invalid) and every check
schemathesis has (`--checks all`): no 5xx, documented statuses, bodies, content types and headers,
valid requests accepted and invalid ones refused, 405 with Allow for other methods, auth enforced,
created records readable and deleted ones gone. e2e/schemathesis.toml and
e2e/schemathesis_hooks.py hold what the document cannot say (see their comments). The number of
examples per operation is bounded so CI stays quick (about 1.5 minutes); set FUZZ_EXAMPLES to
dig deeper by hand.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

E2E = Path(__file__).resolve().parent


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


def test_api_matches_its_document(server) -> None:
    token = create_token(server.url(""), "fuzz@example.com")
    executable = shutil.which("schemathesis") or shutil.which("st")
    command = [executable] if executable else [sys.executable, "-m", "schemathesis.cli"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": str(E2E / "schemathesis_hooks.py")}
    result = subprocess.run(
        command
        + [
            "--config-file",
            str(E2E / "schemathesis.toml"),
            "run",
            server.url("/openapi.json"),
            "--header",
            f"Authorization: Bearer {token}",
            "--max-examples",
            os.environ.get("FUZZ_EXAMPLES", "25"),
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
    assert result.returncode == 0, "schemathesis found problems:\n" + output[-6000:]
    # Coverage warnings (e.g. ids it could not guess) are not failures; failed cases are.
    summary = re.search(r"(\d+) generated, ([^\n]*)", output)
    assert summary and int(summary.group(1)) > 0, output[-3000:]
    assert "failed" not in summary.group(2) and "error" not in summary.group(2), summary.group(0)
