"""A stop signal under load: the real binary, on a SQLite file as `swift run backoffice` runs it.

Four API writers, a 30 000-row CSV import, backup downloads and page reads run at once; the
server gets SIGTERM in the middle of it. It must stop accepting, let what is running finish or
refuse it cleanly, exit with status 0 and print no crash trace; started again on the same data,
every write it acknowledged is there and the import's page answers (finished, or stopped and
offered to run again).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import signal
import threading
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from test_api_fuzz import _csrf
from test_crash_safety import api

WRITERS = 4
SIGNAL_AFTER = 150  # acknowledged writes before the signal
IMPORT_ROWS = 30_000


class Browser:
    """A cookie-keeping client that sends the CSRF token of the last page it read."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )
        self.csrf = ""

    def open(self, path: str, data: bytes | None = None, headers: dict | None = None):
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def page(self, path: str) -> str:
        status, _, body = self.open(path)
        html = body.decode(errors="replace")
        if status == 200:
            self.csrf = _csrf(html)
        return html

    def post(self, path: str, fields: dict[str, str]):
        body = urllib.parse.urlencode({**fields, "_csrf": self.csrf}).encode()
        return self.open(path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def upload(self, path: str, filename: str, content: bytes):
        boundary = "----graceful-stop-boundary"
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n{self.csrf}\r\n'.encode(),
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                "Content-Type: text/csv\r\n\r\n"
            ).encode()
            + content
            + b"\r\n",
            f"--{boundary}--\r\n".encode(),
        ]
        return self.open(
            path, b"".join(parts), {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        )


def signed_in(base: str, email: str) -> tuple[Browser, str]:
    browser = Browser(base)
    browser.page("/sign-up")
    status, _, _ = browser.post("/sign-up", {"email": email, "password": "a stop signal 1"})
    assert status == 303, f"sign-up answered {status}"
    browser.page("/settings")
    status, _, body = browser.post("/settings/tokens", {"name": "stop"})
    match = re.search(r'id="new-token">([^<]+)<', body.decode())
    assert match, f"no token shown ({status})"
    return browser, match.group(1)


def test_sigterm_under_load_exits_cleanly_and_keeps_every_acknowledged_write(start_server):
    first = start_server(name="graceful-stop")
    browser, token = signed_in(first.base_url, "stop@example.com")

    # The import starts first and is still running when the signal comes.
    csv = "date,title,category,amount\n" + "".join(
        f",Row {n},Food,{n % 900 + 1}.50\n" for n in range(IMPORT_ROWS)
    )
    browser.page("/expenses/import")
    status, headers, _ = browser.upload("/expenses/import", "big.csv", csv.encode())
    assert status == 303, f"the import was not accepted: {status}"
    job = headers["Location"]
    assert job.startswith("/imports/")

    answered: dict[str, tuple[str, dict]] = {}
    other: list[int] = []
    lock = threading.Lock()
    signalled = threading.Event()
    counter = iter(range(1_000_000))

    def writer(index: int) -> None:
        kind = "products" if index % 2 == 0 else "ad-payments"
        while True:
            with lock:
                n = next(counter)
            body = (
                {"name": f"Stop product {n}", "type": "Stop", "price": f"{n}.10", "tax": "5"}
                if kind == "products"
                else {"name": f"Stop entry {n}", "url": f"https://stop{n}.example.com/pay"}
            )
            try:
                status, created = api(first.base_url, token, "POST", f"/api/v1/{kind}", body)
            except OSError:
                return  # the server stopped accepting
            with lock:
                if status == 201 and created:
                    answered[created["id"]] = (kind, body)
                    if len(answered) >= SIGNAL_AFTER and not signalled.is_set():
                        signalled.set()
                        first.process.send_signal(signal.SIGTERM)
                else:
                    other.append(status)

    def reader(path: str) -> None:
        reading = Browser(first.base_url)
        reading.jar = browser.jar
        reading.opener = browser.opener
        while True:
            try:
                status, _, _ = reading.open(path)
            except OSError:
                return
            with lock:
                if status != 200:
                    other.append(status)

    with ThreadPoolExecutor(WRITERS + 2) as pool:
        futures = [pool.submit(writer, index) for index in range(WRITERS)]
        futures.append(pool.submit(reader, "/settings/backup"))
        futures.append(pool.submit(reader, "/products"))
        for future in futures:
            future.result(timeout=300)

    first.process.wait(timeout=120)
    log = first.log_path.read_text(errors="replace")
    assert first.process.returncode == 0, f"exit status {first.process.returncode}:\n{log[-4000:]}"
    for trace in ("Fatal error", "Unexpectedly found nil", "Stack dump", "connection deadlock"):
        assert trace not in log, f"{trace!r} in the log:\n{log[-4000:]}"
    assert all(status < 500 for status in other), f"answers during the stop: {sorted(set(other))}"

    # Started again on the same data: every acknowledged write is there.
    second = start_server({"BACKOFFICE_DATA_DIR": str(first.data_dir)}, name="graceful-stop-after")
    missing = []
    for entry_id, (kind, body) in answered.items():
        status, record = api(second.base_url, token, "GET", f"/api/v1/{kind}/{entry_id}")
        if status != 200 or record.get("name") != body["name"]:
            missing.append((kind, entry_id, status))
    assert not missing, f"{len(missing)} of {len(answered)} acknowledged writes are gone: {missing[:5]}"

    # The import's page answers: finished, or stopped by the restart and offered again.
    again = Browser(second.base_url)
    again.jar, again.opener = browser.jar, browser.opener
    status, _, body = again.open(job + "/status")
    assert status == 200, f"the import's status answered {status}"
    # "failed" is how a job stopped by the restart shows: its page offers to run it again.
    state = json.loads(body)["status"]
    assert state in {"done", "failed"}, state
    if state == "failed":
        status, _, page = again.open(job)
        assert status == 200 and job + "/retry" in page.decode(), "no way to run it again"
