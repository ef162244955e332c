"""Fixtures and helpers for the browser tests.

The tests drive the real server binary on loopback with the system Chromium.
See e2e/README.md for how to run them.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from urllib.parse import urlparse

import pytest

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError as error:
    raise ImportError(
        "playwright is not installed: python3 -m pip install -r e2e/requirements.txt"
    ) from error

E2E_DIR = Path(__file__).resolve().parent
REPO = E2E_DIR.parent
ARTIFACTS = E2E_DIR / "artifacts"

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}
DEFAULT_PASSWORD = "correct horse battery"
READY_TIMEOUT = 60.0
TIMEOUT_MS = 10_000  # generous: CI machines may be compiling alongside

expect.set_options(timeout=TIMEOUT_MS)

# Settings in the caller's environment that would point the server elsewhere.
SERVER_ENV_DROPPED = ("DATABASE_URL", "BACKOFFICE_SIGNUP", "BACKOFFICE_DATA_DIR")
# Port 9 (discard) is closed on loopback: a request there fails at once, offline-style.
CLOSED_PORT_URL = "http://127.0.0.1:9/"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "console_errors_ok: the test expects browser console errors; skip the automatic check",
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for stale in [*ARTIFACTS.glob("*.log"), *ARTIFACTS.glob("failed-*.png")]:
        stale.unlink()


# ---------------------------------------------------------------- server


def server_binary() -> Path:
    path = Path(os.environ.get("BACKOFFICE_BIN", REPO / ".build" / "debug" / "backoffice"))
    if not path.is_absolute():
        path = REPO / path
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_get(url: str, timeout: float = 5.0) -> tuple[int, Message, bytes]:
    """A plain GET that does not follow redirects and does not raise on 4xx/5xx."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@dataclass
class Server:
    name: str
    base_url: str
    data_dir: Path
    log_path: Path
    process: subprocess.Popen
    _log_file: object = field(repr=False, default=None)

    def url(self, path: str) -> str:
        return self.base_url + path

    def log_tail(self, lines: int = 80) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def slowest_requests(self, count: int = 15) -> str:
        """The log's `count` request lines with the longest server-side duration, longest first."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return "(no server log)"
        timed = []
        for line in lines:
            found = re.search(r"duration_ms: ([0-9.]+)", line)
            if found:
                timed.append((float(found.group(1)), line))
        timed.sort(key=lambda pair: pair[0], reverse=True)
        return "\n".join(line for _, line in timed[:count]) or "(no request lines)"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        shutil.rmtree(self.data_dir, ignore_errors=True)


class ServerFactory:
    """Starts servers on free ports; every one still running is stopped at the end."""

    def __init__(self) -> None:
        self.servers: list[Server] = []

    def __call__(self, extra_env: dict[str, str] | None = None, name: str = "server") -> Server:
        binary = server_binary()
        if not binary.is_file():
            pytest.fail(
                f"server binary not found at {binary}: build it first with `swift build`"
                " (or set BACKOFFICE_BIN)",
                pytrace=False,
            )
        port = free_port()
        data_dir = Path(tempfile.mkdtemp(prefix="backoffice-e2e-"))
        log_path = ARTIFACTS / f"{name}-{port}.log"
        env = {k: v for k, v in os.environ.items() if k not in SERVER_ENV_DROPPED}
        env["BACKOFFICE_DATA_DIR"] = str(data_dir)
        # Every browser test signs up from 127.0.0.1; the per-address limit has its own test.
        env.setdefault("BACKOFFICE_SIGNUPS_PER_HOUR", "100000")
        # As a deployment names its address: public pages write absolute URLs only from it.
        env.setdefault("BACKOFFICE_PUBLIC_URL", f"http://127.0.0.1:{port}")
        # Tests never reach the internet: outside services point at a closed loopback port
        # unless a test starts its own stub and passes its address.
        env["BACKOFFICE_CATALOG_URL"] = CLOSED_PORT_URL
        env["BACKOFFICE_MONOBANK_URL"] = CLOSED_PORT_URL
        env.update(extra_env or {})
        log_file = open(log_path, "w")  # closed by Server.stop
        process = subprocess.Popen(
            [str(binary), "serve", "--hostname", "127.0.0.1", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        server = Server(name, f"http://127.0.0.1:{port}", data_dir, log_path, process, log_file)
        self.servers.append(server)
        self._wait_until_ready(server)
        return server

    @staticmethod
    def _wait_until_ready(server: Server) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        last = "no answer"
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                last = f"process exited with status {server.process.returncode}"
                break
            try:
                status, _, body = http_get(server.url("/ready"), timeout=2)
                if status == 200:
                    return
                last = f"/ready answered {status}: {body[:200]!r}"
            except OSError as error:
                last = str(error)
            time.sleep(0.25)
        server.stop()
        pytest.fail(
            f"server did not become ready ({last}); log {server.log_path}:\n{server.log_tail()}",
            pytrace=False,
        )

    def stop_all(self) -> None:
        for server in self.servers:
            server.stop()


@pytest.fixture(scope="session")
def start_server():
    """Factory: start_server(extra_env=None, name="server") -> Server, for custom settings."""
    factory = ServerFactory()
    yield factory
    factory.stop_all()


@pytest.fixture(scope="session")
def server(start_server: ServerFactory) -> Server:
    """One server with default settings (SQLite in a temporary folder) for the whole run."""
    return start_server()


@pytest.fixture(scope="session")
def base_url(server: Server) -> str:
    return server.base_url


# ---------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser() -> Browser:
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail(
            "chromium is not on PATH; install it with `apt-get install chromium`"
            " (bash .ci/run setup does this)",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        # CI runs as root, where Chromium refuses its sandbox; containers have a small /dev/shm.
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield browser
        browser.close()


class PageFactory:
    """Opens pages in fresh contexts and records script errors, CSP violations and
    sub-resources (scripts, styles, images) that failed to load."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.pages: list[Page] = []
        self.console_errors: list[str] = []

    def __call__(self, viewport: str = "desktop", storage_state=None, locale: str = "en-US") -> Page:
        phone = viewport == "phone"
        context = self.browser.new_context(
            viewport=PHONE if phone else DESKTOP,
            is_mobile=phone,
            has_touch=phone,
            locale=locale,
            storage_state=storage_state,
        )
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.on("console", lambda message: self._on_console(page, message))
        page.on("pageerror", lambda error: self.console_errors.append(f"{page.url}: {error}"))
        page.on("response", lambda response: self._on_response(page, response))
        page.on("requestfailed", lambda request: self._on_request_failed(page, request))
        self.pages.append(page)
        return page

    def _on_console(self, page: Page, message) -> None:
        # Bad statuses are reported by _on_response, where a page's own 401/404/422 is allowed.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.console_errors.append(f"{page.url}: {message.text}")

    def _on_response(self, page: Page, response) -> None:
        request = response.request
        if response.status < 400 or request.resource_type == "document":
            return
        if urlparse(request.url).path == "/favicon.ico":
            return
        self.console_errors.append(
            f"{page.url}: {request.resource_type} {request.url} answered {response.status}"
        )

    def _on_request_failed(self, page: Page, request) -> None:
        # ERR_ABORTED: cancelled by a navigation, or already reported with its status.
        if request.resource_type != "document" and "ERR_ABORTED" not in (request.failure or ""):
            self.console_errors.append(
                f"{page.url}: {request.resource_type} {request.url} failed: {request.failure}"
            )

    def close(self) -> None:
        for page in self.pages:
            page.context.close()


@pytest.fixture
def new_page(browser: Browser, request: pytest.FixtureRequest):
    """Factory: new_page("desktop" | "phone", storage_state=None) -> Page.

    After the test, any console error (CSP violations, failed scripts, 404s) fails it,
    unless the test is marked console_errors_ok.
    """
    factory = PageFactory(browser)
    yield factory
    factory.close()
    if factory.console_errors and not request.node.get_closest_marker("console_errors_ok"):
        pytest.fail("browser console errors:\n" + "\n".join(factory.console_errors), pytrace=False)


@pytest.fixture
def page(new_page: PageFactory) -> Page:
    return new_page("desktop")


@pytest.fixture
def console_errors(new_page: PageFactory) -> list[str]:
    """The console errors seen so far by every page of this test."""
    return new_page.console_errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.when == "call" and report.failed:
        pages = item.funcargs.get("new_page")
        if isinstance(pages, PageFactory):
            for index, page in enumerate(pages.pages):
                if page.is_closed():
                    continue
                try:
                    path = shot(page, f"failed-{item.name}-{index}")
                except Exception as error:  # a crashed page must not hide the real failure
                    path = f"no screenshot: {error}"
                report.sections.append(("screenshot", f"{path} ({page.url})"))
        servers = item.funcargs.get("start_server")
        if isinstance(servers, ServerFactory):
            for server in servers.servers:
                report.sections.append(
                    (f"{server.name} log ({server.log_path})", server.log_tail(60))
                )
    return report


# ---------------------------------------------------------------- helpers


def path_of(page: Page) -> str:
    return urlparse(page.url).path


def wait_for_path(page: Page, path: str) -> None:
    """Waits for a page at `path`, whatever its query string."""
    page.wait_for_url(lambda url: urlparse(url).path == path)


def unique_email() -> str:
    return f"e2e-{uuid.uuid4().hex[:12]}@example.com"


def sign_up(
    page: Page, base: str, email: str | None = None, password: str = DEFAULT_PASSWORD
) -> tuple[str, str]:
    """Creates an account through the form and lands on the home page."""
    email = email or unique_email()
    page.goto(base + "/sign-up")
    # By field names, so it works in either interface language.
    form = page.locator('form[action="/sign-up"]')
    form.locator('input[name="email"]').fill(email)
    form.locator('input[name="password"]').fill(password)
    form.locator('button[type="submit"]').click()
    wait_for_path(page, "/")
    return email, password


def sign_in(page: Page, base: str, email: str, password: str = DEFAULT_PASSWORD) -> None:
    """Submits the sign-in form; the caller checks where it landed."""
    page.goto(base + "/sign-in")
    page.get_by_label("Email", exact=True).fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in", exact=True).click()


def sign_out(page: Page) -> None:
    page.get_by_role("button", name="Sign out", exact=True).click()
    wait_for_path(page, "/sign-in")


def shot(page: Page, name: str) -> Path:
    """Saves a full-page screenshot as e2e/artifacts/<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def at_phone(page: Page) -> None:
    page.set_viewport_size(PHONE)


def at_desktop(page: Page) -> None:
    page.set_viewport_size(DESKTOP)


def scroll_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")
