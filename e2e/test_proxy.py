"""The server behind a real nginx: each client is known by its own address.

nginx (Debian's package; `apt-get install nginx`) runs in the foreground as a child of the
test, on a free loopback port, with its configuration, pid file, logs and temporary files in a
folder of its own. It proxies to the real server binary, started with
BACKOFFICE_TRUSTED_PROXIES=127.0.0.1 and a sign-up limit of 2 an hour. Clients reach nginx from
different loopback source addresses (127.0.0.2, 127.0.0.3, … all belong to the loopback
interface on Linux), and nginx appends the address it sees to X-Forwarded-For, exactly as the
configuration in docs/platform.md does.
"""

from __future__ import annotations

import http.client
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from conftest import DEFAULT_PASSWORD, Server, ServerFactory, free_port

SIGNUPS_PER_HOUR = 2
PUBLIC_URL = "https://backoffice.example.org"


def nginx_config(folder: Path, port: int, upstream_port: int) -> str:
    return f"""
daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 64; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    client_max_body_size 25m;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream_port};
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


class Nginx:
    def __init__(self, upstream: Server) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).is_file():
            pytest.fail(
                "nginx is not installed: apt-get install nginx (bash .ci/run setup does this)",
                pytrace=False,
            )
        self.folder = Path(tempfile.mkdtemp(prefix="backoffice-nginx-"))
        self.port = free_port()
        upstream_port = int(urllib.parse.urlparse(upstream.base_url).port)
        config = self.folder / "nginx.conf"
        config.write_text(nginx_config(self.folder, self.port, upstream_port))
        self.process = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(config), "-e", str(self.folder / "error.log")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"nginx exited with {self.process.returncode}:\n{self.error_log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail(f"nginx did not start listening:\n{self.error_log()}")

    def error_log(self) -> str:
        try:
            return (self.folder / "error.log").read_text(errors="replace")[-3000:]
        except OSError:
            return "(no error log)"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Visitor:
    """A browser stand-in over http.client from one loopback source address: cookies, the
    CSRF token of the last page, and headers of its own choosing on every request."""

    def __init__(self, port: int, source: str, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.source = source
        self.headers = headers or {}
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, method: str, path: str, body: bytes | None = None, headers=None):
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        try:
            sent = {**self.headers, **(headers or {})}
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, value = cookie.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = value.strip()
            match = re.search(rb'name="_csrf" value="([^"]+)"', data)
            if match:
                self.csrf = match.group(1).decode()
            return response.status, data
        finally:
            connection.close()

    def sign_up(self) -> int:
        """Opens the form as a new browser and sends it with a new email; the answer's status."""
        self.cookies.clear()
        self.request("GET", "/sign-up")
        fields = {
            "email": f"proxy-{uuid.uuid4().hex[:10]}@example.com",
            "password": DEFAULT_PASSWORD,
            "_csrf": self.csrf,
        }
        status, _ = self.request(
            "POST",
            "/sign-up",
            body=urllib.parse.urlencode(fields).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        return status


@pytest.fixture(scope="module")
def app(start_server: ServerFactory) -> Server:
    return start_server(
        {
            "BACKOFFICE_TRUSTED_PROXIES": "127.0.0.1",
            "BACKOFFICE_SIGNUPS_PER_HOUR": str(SIGNUPS_PER_HOUR),
            "BACKOFFICE_PUBLIC_URL": PUBLIC_URL,
            # The public URL is https; these clients speak plain HTTP to nginx.
            "BACKOFFICE_SECURE_COOKIES": "false",
        },
        name="behind-nginx",
    )


@pytest.fixture(scope="module")
def nginx(app: Server):
    proxy = Nginx(app)
    yield proxy
    proxy.stop()


def app_port(app: Server) -> int:
    return int(urllib.parse.urlparse(app.base_url).port)


def test_each_client_behind_nginx_has_its_own_sign_up_limit(app: Server, nginx: Nginx) -> None:
    first = Visitor(nginx.port, "127.0.0.2")
    for _ in range(SIGNUPS_PER_HOUR):
        assert first.sign_up() == 303, app.log_tail()
    assert first.sign_up() == 429
    # Another client of the same proxy still has its own two.
    second = Visitor(nginx.port, "127.0.0.3")
    assert second.sign_up() == 303, app.log_tail()
    # The log names the clients, not the proxy.
    log = app.log_path.read_text(errors="replace")
    # One line per request: "request [client: …, …, method: POST, …, route: /sign-up, …]".
    def signed_up_from(address: str) -> bool:
        pattern = r"request \[client: " + re.escape(address) + r",[^\]]*method: POST[^\]]*route: /sign-up,"
        return re.search(pattern, log) is not None

    assert signed_up_from("127.0.0.2"), log[-2000:]
    assert signed_up_from("127.0.0.3"), log[-2000:]
    assert not signed_up_from("127.0.0.1"), log[-2000:]


def test_a_forged_forwarded_for_through_nginx_counts_only_nginx_s_own_entry(
    app: Server, nginx: Nginx
) -> None:
    spent = Visitor(nginx.port, "127.0.0.4")
    for _ in range(SIGNUPS_PER_HOUR):
        assert spent.sign_up() == 303, app.log_tail()
    assert spent.sign_up() == 429
    # nginx keeps what the client wrote and appends 127.0.0.4: the app reads the right-most
    # entry, so naming other addresses (fresh ones, or another client's) gains nothing.
    for forged in ("198.51.100.7", "203.0.113.1, 198.51.100.8", "127.0.0.5"):
        liar = Visitor(nginx.port, "127.0.0.4", {"X-Forwarded-For": forged})
        assert liar.sign_up() == 429, forged
    forwarded = Visitor(nginx.port, "127.0.0.4", {"Forwarded": "for=198.51.100.9"})
    assert forwarded.sign_up() == 429
    # Nor did the forgeries spend the budget of the client they named.
    assert Visitor(nginx.port, "127.0.0.5").sign_up() == 303


def test_a_forged_forwarded_for_straight_to_the_app_gains_nothing(app: Server, nginx: Nginx) -> None:
    # 127.0.0.6 is no trusted proxy: its forwarding headers are ignored entirely.
    for n in range(SIGNUPS_PER_HOUR):
        direct = Visitor(app_port(app), "127.0.0.6", {"X-Forwarded-For": f"198.51.100.{20 + n}"})
        assert direct.sign_up() == 303, app.log_tail()
    for headers in (
        {"X-Forwarded-For": "198.51.100.30"},
        {"Forwarded": "for=198.51.100.31"},
        {"X-Forwarded-For": "127.0.0.7", "X-Real-IP": "127.0.0.7"},
    ):
        assert Visitor(app_port(app), "127.0.0.6", headers).sign_up() == 429, headers
    # The address it claimed keeps its own budget, through nginx as straight to the app.
    assert Visitor(nginx.port, "127.0.0.7").sign_up() == 303
    log = app.log_path.read_text(errors="replace")
    assert "client: 198.51.100." not in log


def test_absolute_addresses_come_from_the_public_url_not_the_host(app: Server, nginx: Nginx) -> None:
    owner = Visitor(nginx.port, "127.0.0.8", {"Host": "evil.example"})
    assert owner.sign_up() == 303
    owner.request("GET", "/settings/members")
    status, page = owner.request(
        "POST",
        "/settings/invitations",
        body=urllib.parse.urlencode({"role": "editor", "days": "7", "_csrf": owner.csrf}).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 201, page[:2000]
    text = page.decode()
    assert re.search(re.escape(PUBLIC_URL) + r"/join/[A-Za-z0-9_-]{43}", text), text[:3000]
    assert "evil.example" not in text
