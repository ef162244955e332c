"""Backup: `backoffice export` and `backoffice import` on the real binary and data folder.

An account gets records through the JSON API, is exported by the command while the server runs,
and imported into a second account made with `backoffice user create`; the second account then
sees the same records in the browser and can download the same data from its settings page.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import zlib
from pathlib import Path

from conftest import (
    DEFAULT_PASSWORD,
    REPO,
    at_desktop,
    at_phone,
    scroll_width,
    server_binary,
    shot,
    sign_in,
    unique_email,
    wait_for_path,
)
from test_api_fuzz import create_token
from test_crash_safety import api


def tiny_png() -> bytes:
    """A valid 2×2 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def command(server, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Runs the binary against the server's data folder, as an operator would."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "LOG_LEVEL")}
    env["BACKOFFICE_DATA_DIR"] = str(server.data_dir)
    return subprocess.run(
        [str(server_binary()), *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_export_and_import_move_an_account(start_server, new_page, tmp_path: Path) -> None:
    server = start_server(name="backup")
    base = server.url("")
    owner = unique_email()
    token = create_token(base, owner)

    status, _ = api(
        base, token, "POST", "/api/v1/products",
        {"name": "Backup chair", "type": "Chairs", "price": "49.90", "tax": "20"},
    )
    assert status == 201
    status, _ = api(
        base, token, "POST", "/api/v1/expenses",
        {"title": "Backup taxi", "amount": "18.40", "category": "Transport"},
    )
    assert status == 201
    status, _ = api(
        base, token, "POST", "/api/v1/ad-payments",
        {"name": "Backup ads", "url": "https://pay.example.com/backup"},
    )
    assert status == 201
    photo = "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
    status, body = api(
        base, token, "POST", "/api/v1/fundraisers",
        {"purpose": "Резервна копія", "target": "5000", "template": 3, "photo": photo},
    )
    assert status == 201, body

    file = tmp_path / "account.json"
    result = command(server, "export", "--email", owner, "--output", str(file))
    assert result.returncode == 0, result.stderr
    assert "1 product, 1 expense, 1 ad payment, 0 marketing plans, 1 fundraiser" in result.stderr
    exported = json.loads(file.read_text())
    assert exported["format"] == "backoffice-account"
    assert exported["products"]["items"][0]["name"] == "Backup chair"
    assert exported["fundraisers"][0]["photo"]["data"]

    copy = unique_email()
    result = command(server, "user", "create", "--email", copy, stdin=DEFAULT_PASSWORD + "\n")
    assert result.returncode == 0, result.stderr
    result = command(server, "import", "--email", copy, str(file))
    assert result.returncode == 0, result.stderr
    assert "Imported 1 product, 1 expense, 1 ad payment" in result.stdout
    # A command says what it did and nothing else (no migration or request log lines).
    assert "[ INFO ]" not in result.stdout + result.stderr

    # A second import into the now non-empty account is refused without --merge, and a
    # merge adds nothing because the account already has every record.
    result = command(server, "import", "--email", copy, str(file))
    assert result.returncode != 0
    assert "already has data" in result.stderr
    assert (result.stdout + result.stderr).count("already has data") == 1, "said once"
    result = command(server, "import", "--email", copy, "--merge", str(file))
    assert result.returncode == 0, result.stderr
    assert "Imported 0 products" in result.stdout

    # A file that is not a backup is refused with a readable line.
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    result = command(server, "import", "--email", copy, str(bad))
    assert result.returncode != 0
    assert "not a Backoffice account backup" in result.stderr

    page = new_page()
    sign_in(page, base, copy)
    wait_for_path(page, "/")
    page.goto(base + "/products")
    assert page.get_by_text("Backup chair").first.is_visible()
    page.goto(base + "/fundraisers")
    assert page.get_by_text("Резервна копія").first.is_visible()

    page.goto(base + "/settings#backup")
    for viewport, name in ((at_phone, "backup-settings-phone"), (at_desktop, "backup-settings")):
        viewport(page)
        assert scroll_width(page) <= page.viewport_size["width"]
        shot(page, name)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download a backup").click()
    downloaded = json.loads(Path(download_info.value.path()).read_text())
    assert downloaded["account"]["email"] == copy
    assert [p["name"] for p in downloaded["products"]["items"]] == ["Backup chair"]
    assert downloaded["expenses"][0]["amount"] == "18.40"
