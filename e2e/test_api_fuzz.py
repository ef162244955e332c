"""Schemathesis against the served OpenAPI document, with a real API token.

Every documented operation gets generated requests (valid and invalid). The checks: no 5xx,
every status code is documented, every response body and content type matches the document.
The number of examples per operation is bounded so CI stays quick; set FUZZ_EXAMPLES to dig
deeper by hand.
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

CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
    ]
)


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
    result = subprocess.run(
        command
        + [
            "run",
            server.url("/openapi.json"),
            "--header",
            f"Authorization: Bearer {token}",
            "--max-examples",
            os.environ.get("FUZZ_EXAMPLES", "25"),
            "--checks",
            CHECKS,
            "--seed",
            "20261122",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, "schemathesis found problems:\n" + output[-6000:]
    # Coverage warnings (e.g. ids it could not guess) are not failures; failed cases are.
    summary = re.search(r"(\d+) generated, ([^\n]*)", output)
    assert summary and int(summary.group(1)) > 0, output[-3000:]
    assert "failed" not in summary.group(2) and "error" not in summary.group(2), summary.group(0)
