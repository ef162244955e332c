"""Running the server for real: mail through a real SMTP server on loopback (aiosmtpd), the
password reset followed in the browser, invitations by mail, metrics refused from elsewhere,
JSON logs, and the backup drill with the commands an operator runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
import urllib.request
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect

from conftest import (
    DEFAULT_PASSWORD,
    REPO,
    at_desktop,
    at_phone,
    free_port,
    http_get,
    server_binary,
    shot,
    sign_in,
    sign_up,
    unique_email,
    wait_for_path,
)


class Sink:
    """An aiosmtpd handler that keeps every message it accepts."""

    def __init__(self) -> None:
        self.messages: list = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def wait_for(self, recipient: str, count: int = 1, timeout: float = 30.0):
        """The `count`-th message to `recipient`, waiting for the server's sender."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [m for rcpt, m in self.messages if recipient in rcpt]
            if len(found) >= count:
                return found[count - 1]
            time.sleep(0.2)
        pytest.fail(f"no mail #{count} to {recipient} within {timeout} s", pytrace=False)


@pytest.fixture
def smtp():
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


def mail_env(port: int) -> dict[str, str]:
    return {
        "BACKOFFICE_SMTP_HOST": "127.0.0.1",
        "BACKOFFICE_SMTP_PORT": str(port),
        "BACKOFFICE_SMTP_SECURITY": "none",
        "BACKOFFICE_MAIL_FROM": "backoffice@example.org",
    }


def link_in(message, path: str) -> str:
    text = message.get_body(preferencelist=("plain",)).get_content()
    found = re.search(r"(https?://\S+" + re.escape(path) + r"\S*)", text)
    assert found, f"no {path} link in:\n{text}"
    return found.group(1)


def test_sign_up_confirm_and_reset_the_password_by_mail(start_server, new_page, smtp) -> None:
    sink, port = smtp
    server = start_server(mail_env(port), name="mail")
    page = new_page()
    email = unique_email()

    # Sign-up asks to confirm the address.
    page.goto(server.url("/sign-up"))
    page.locator('input[name="email"]').fill(email)
    page.locator('input[name="password"]').fill(DEFAULT_PASSWORD)
    page.locator('form[action="/sign-up"] button').click()
    expect(page.get_by_role("heading", name="Check your inbox")).to_be_visible()
    confirmation = sink.wait_for(email)
    assert confirmation["Subject"] == "Confirm your Backoffice account"
    page.goto(link_in(confirmation, "/sign-up/confirm/"))
    page.get_by_role("button", name="Create the account").click()
    wait_for_path(page, "/")
    page.get_by_role("button", name="Sign out", exact=True).click()
    wait_for_path(page, "/sign-in")

    # Forgot the password: the link from the mail, followed in the browser.
    page.get_by_role("link", name="Forgot your password?").click()
    wait_for_path(page, "/forgot-password")
    at_phone(page)
    shot(page, "operations-forgot-password-phone")
    at_desktop(page)
    shot(page, "operations-forgot-password-desktop")
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text(email)
    at_phone(page)
    shot(page, "operations-reset-sent-phone")
    at_desktop(page)
    reset = sink.wait_for(email, count=2)
    assert reset["Subject"] == "Reset your Backoffice password"
    link = link_in(reset, "/reset-password/")
    assert link.startswith(server.base_url)
    page.goto(link)
    at_phone(page)
    shot(page, "operations-reset-form-phone")
    at_desktop(page)
    shot(page, "operations-reset-form-desktop")
    page.get_by_label("New password", exact=True).fill("a brand new passphrase")
    page.get_by_label("Repeat new password", exact=True).fill("a brand new passphrase")
    page.get_by_role("button", name="Save the new password").click()
    wait_for_path(page, "/sign-in")
    expect(page.get_by_role("status")).to_contain_text("Your password was changed")
    sign_in(page, server.base_url, email, "a brand new passphrase")
    wait_for_path(page, "/")
    # The first account is the server's administrator: its settings show the server's mail.
    page.goto(server.url("/settings"))
    expect(page.get_by_role("heading", name="Outgoing mail")).to_be_visible()
    at_phone(page)
    shot(page, "operations-settings-mail-phone")
    at_desktop(page)
    shot(page, "operations-settings-mail-desktop")
    # The link worked once.
    page.goto(link)
    expect(page.get_by_role("alert")).to_contain_text("can no longer be used")


def test_an_invitation_goes_out_by_mail(start_server, new_page, smtp) -> None:
    sink, port = smtp
    server = start_server(mail_env(port), name="invite-mail")
    owner = new_page()
    email = unique_email()
    owner.goto(server.url("/sign-up"))
    owner.locator('input[name="email"]').fill(email)
    owner.locator('input[name="password"]').fill(DEFAULT_PASSWORD)
    owner.locator('form[action="/sign-up"] button').click()
    owner.goto(link_in(sink.wait_for(email), "/sign-up/confirm/"))
    owner.get_by_role("button", name="Create the account").click()
    wait_for_path(owner, "/")

    friend = unique_email()
    owner.goto(server.url("/settings/members"))
    owner.get_by_label("Send the link to (optional)").fill(friend)
    owner.get_by_role("button", name="Create invitation link").click()
    shown = owner.locator("#new-invitation").inner_text()
    invitation = sink.wait_for(friend)
    assert email in invitation["Subject"]
    assert link_in(invitation, "/join/") == shown
    owner.goto(server.url("/settings/members"))
    expect(owner.locator(".mail-status")).to_contain_text(friend)
    at_phone(owner)
    shot(owner, "operations-invitation-mail-phone")
    at_desktop(owner)
    shot(owner, "operations-invitation-mail-desktop")


def metrics_status(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_metrics_answer_here_and_are_refused_from_elsewhere(start_server) -> None:
    server = start_server(name="metrics")
    http_get(server.url("/health"))
    status, headers, body = http_get(server.url("/metrics"))
    assert status == 200
    text = body.decode()
    assert 'http_requests_total{method="GET",path="/health",status="200"}' in text
    assert "backoffice_db_read_wait_seconds_bucket" in text
    # Through a proxy the server does not trust: not loopback any more.
    assert metrics_status(server.url("/metrics"), {"X-Forwarded-For": "203.0.113.9"}) == 403

    token = "e2e-metrics-token-0123456789"
    guarded = start_server(
        {"BACKOFFICE_METRICS_ALLOW": "10.0.0.0/8", "BACKOFFICE_METRICS_TOKEN": token},
        name="metrics-token",
    )
    assert metrics_status(guarded.url("/metrics")) == 401
    assert metrics_status(guarded.url("/metrics"), {"Authorization": "Bearer nope"}) == 401
    assert metrics_status(guarded.url("/metrics"), {"Authorization": f"Bearer {token}"}) == 200


def test_json_logs_one_line_per_request(start_server) -> None:
    server = start_server({"LOG_FORMAT": "json"}, name="json-logs")
    http_get(server.url("/health"))
    http_get(server.url("/no/such/page?secret=1"))
    time.sleep(0.5)
    lines = [json.loads(line) for line in server.log_path.read_text().splitlines() if line.strip()]
    requests = [line for line in lines if line.get("message") == "request"]
    health = [line for line in requests if line.get("route") == "/health"]
    assert health and health[0]["status"] == 200 and health[0]["client"] == "127.0.0.1"
    assert isinstance(health[0]["duration_ms"], (int, float))
    missing = [line for line in requests if line.get("path") == "/no/such/page"]
    assert missing and missing[0]["status"] == 404
    assert all("secret=1" not in json.dumps(line) for line in lines)


def run(*args: str, data_dir: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "LOG_LEVEL")}
    env["BACKOFFICE_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [str(server_binary()), *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def api(server, path: str, token: str, body: dict | None = None) -> tuple[int, str]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        server.url(path),
        data=data,
        method="POST" if body is not None else "GET",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_backup_drill_with_the_commands(start_server, new_page, tmp_path: Path) -> None:
    server = start_server(name="drill")
    page = new_page()
    email, _ = sign_up(page, server.base_url)
    page.goto(server.url("/settings"))
    page.locator('form[action="/settings/tokens"] input[name="name"]').fill("drill")
    page.get_by_role("button", name="Create token").click()
    token = page.locator("#new-token").inner_text()
    for name in ("Кава", "Tea"):
        product = {"name": name, "type": "Product", "price": "10.00", "tax": "18"}
        status, body = api(server, "/api/v1/products", token, product)
        assert status == 201, body
    before = {path: api(server, path, token)[1] for path in ("/api/v1/products", "/api/v1/me")}

    # A backup while the server runs.
    backups = tmp_path / "backups"
    made = run("backup", "--to", str(backups), data_dir=server.data_dir)
    assert made.returncode == 0, made.stderr + made.stdout
    files = sorted(backups.glob("backoffice-*.sqlite"))
    assert len(files) == 1

    # The server and its data are gone; restore into an empty folder and start again.
    server.stop()
    fresh = tmp_path / "fresh"
    restored = run("restore", "--from", str(files[0]), data_dir=fresh)
    assert restored.returncode == 0, restored.stderr
    assert "1 account" in restored.stdout
    again = run("restore", "--from", str(files[0]), data_dir=fresh)
    assert again.returncode != 0 and "not overwritten" in again.stderr
    back = start_server({"BACKOFFICE_DATA_DIR": str(fresh)}, name="drill-restored")
    for path, body in before.items():
        assert api(back, path, token) == (200, body), path
