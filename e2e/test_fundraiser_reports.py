"""Fundraiser reports: a volunteer buys with the money raised, keeps receipts on the expenses,
closes the fundraiser and publishes the report; a donor reads it signed out, and the report
poster's QR code (read by zbar) opens it. The jar's API is a stub on loopback."""

from __future__ import annotations

import re
import shutil
import subprocess

from playwright.sync_api import Page, expect

from conftest import ARTIFACTS, PHONE, at_desktop, at_phone, scroll_width, shot, sign_up
# The fundraisers' jar stub and the server that asks it (module fixtures: one of each here).
from test_fundraisers import (  # noqa: F401 (fixtures are found by name)
    JAR_ID, UKRAINIAN, JarStub, fr_server, jar_stub, make_png, saved_fundraiser,
)


PURCHASES = [
    # title, amount as typed (uk-UA), the receipt's file, published
    ("Mavic 3 Pro", "41500", "mavic.png", True),
    ("Акумулятори", "6200,50", "batteries.png", False),
    ("Доставка", "350", "delivery.png", False),
]


def add_expense(page: Page, base: str, fundraiser_id: str, title: str, amount: str,
                receipt: dict, public: bool) -> None:
    page.goto(f"{base}/expenses/new?fundraiser={fundraiser_id}")
    form = page.locator("form[data-expense-form]")
    # Picked already: the link came from the fundraiser.
    expect(form.locator('select[name="fundraiser"]')).to_have_value(fundraiser_id)
    form.locator("#field-title").fill(title)
    form.locator("#field-amount").fill(amount)
    form.locator("#field-receipts").set_input_files([receipt])
    public_box = form.locator('input[name="receipts_public"]')
    expect(public_box).not_to_be_checked()  # hidden unless ticked
    if public:
        public_box.check()
    form.locator("[data-save]").click()
    page.wait_for_url(re.compile(r"/expenses(\?.*)?$"))


def test_a_volunteer_reports_and_a_donor_reads_it(fr_server, jar_stub: JarStub, new_page,
                                                   tmp_path):
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg (Debian zbar-tools) is needed to read the poster's QR code"
    base = fr_server.base_url
    jar_stub.jars[JAR_ID] = (1_250_000, 5_000_000, "ACTIVE")  # 12 500 of 50 000

    owner = new_page("desktop", locale=UKRAINIAN)
    sign_up(owner, base)
    address = saved_fundraiser(owner, base)
    fundraiser_id = address.rstrip("/").split("/")[-1]

    # The jar moves twice; each refresh keeps a point of the chart.
    for amount in (2_600_000, 4_800_000):
        jar_stub.jars[JAR_ID] = (amount, 5_000_000, "ACTIVE")
        owner.goto(address)
        owner.locator('form[action$="/refresh"] button').first.click()
        expect(owner.locator(".flash-success")).to_be_visible()

    # Three purchases with a receipt photo each; only the first receipt is published.
    for index, (title, amount, name, public) in enumerate(PURCHASES):
        photo = {"name": name, "mimeType": "image/png", "buffer": make_png(120 + index, 160)}
        add_expense(owner, base, fundraiser_id, title, amount, photo, public)
    listed = owner.goto(f"{base}/expenses?fundraiser={fundraiser_id}")
    assert listed and listed.ok
    expect(owner.locator(".expense-row")).to_have_count(3)
    expect(owner.locator(".expense-row .receipt-thumb img")).to_have_count(3)
    for img in owner.locator(".expense-row .receipt-thumb img").all():
        assert img.evaluate("i => i.complete && i.naturalWidth > 0")
    shot(owner, "expenses-with-receipts-desktop")
    at_phone(owner)
    assert scroll_width(owner) <= PHONE["width"]
    shot(owner, "expenses-with-receipts-phone")
    owner.locator(".expense-row .expense-title").first.click()
    expect(owner.locator(".receipt-item")).to_have_count(1)
    shot(owner, "expense-edit-receipts-phone")
    at_desktop(owner)
    shot(owner, "expense-edit-receipts-desktop")

    # The fundraiser's page: raised (the jar), spent (the three, exactly), the chart.
    owner.goto(address)
    report = owner.locator(".fr-report-panel")
    expect(report).to_contain_text("48\u00a0000")  # raised: the jar's last reading
    expect(report).to_contain_text("48\u00a0050,50")  # spent: 41 500 + 6 200,50 + 350
    for title, *_ in PURCHASES:
        expect(report).to_contain_text(title)
    chart = owner.locator(".fr-progress-panel svg")
    expect(chart).to_be_visible()
    shot(owner, "fundraiser-report-owner-desktop")
    at_phone(owner)
    assert scroll_width(owner) <= PHONE["width"]
    shot(owner, "fundraiser-report-owner-phone")
    at_desktop(owner)

    # Close (the jar is asked no more), then publish the report.
    requests_before = len(jar_stub.requests)
    for move in ("close", "report"):
        panel = owner.locator(f'.fr-stage-move[data-stage="{"closed" if move == "close" else "reported"}"]')
        panel.locator("summary").click()
        panel.locator('button[type="submit"]').click()
        expect(owner.locator(".flash-success")).to_be_visible()
    expect(owner.locator("#fr-stage")).to_have_text(re.compile("Звіт опубліковано"))
    public_path = owner.locator("#fr-public-url").get_attribute("href")
    assert re.fullmatch(r"/f/[a-z2-9]{10}", public_path or ""), public_path
    assert len(jar_stub.requests) - requests_before <= 1, "only the closing reading"

    # A donor, signed out, in a fresh browser: the report with exactly the one published receipt.
    visitor = new_page("phone", locale=UKRAINIAN)
    visitor.goto(base + public_path)
    section = visitor.locator(".fp-report")
    expect(section).to_be_visible()
    expect(section).to_contain_text("48\u00a0050,50")
    for title, *_ in PURCHASES:
        expect(section).to_contain_text(title)
    receipts = section.locator("img")
    expect(receipts).to_have_count(1)
    assert receipts.first.evaluate("i => i.complete && i.naturalWidth > 0")
    assert "@" not in visitor.content()
    assert scroll_width(visitor) <= PHONE["width"]
    shot(visitor, "fundraiser-public-report-phone")
    at_desktop(visitor)
    shot(visitor, "fundraiser-public-report-desktop")
    # The hidden receipts are not reachable from the public page under any id it shows.
    shown = set(re.findall(r"/receipts/([0-9A-Fa-f-]{36})", visitor.content()))
    assert len(shown) == 1, shown

    # The report poster in its three formats: the QR code opens the public report.
    for fmt, height in (("post", 1080), ("portrait", 1350), ("story", 1920)):
        owner.set_viewport_size({"width": 1080, "height": height})
        answer = owner.goto(f"{address}/report-poster.svg?format={fmt}")
        assert answer and answer.ok, fmt
        picture = tmp_path / f"report-{fmt}.png"
        owner.screenshot(path=str(picture))
        decoded = subprocess.run(
            [zbarimg, "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(picture)],
            capture_output=True, text=True, check=False,
        ).stdout.split()
        assert decoded == [base + public_path], f"{fmt}: {decoded}"
        shutil.copy(picture, ARTIFACTS / f"fundraiser-report-poster-{fmt}.png")


def noisy_png(width: int, height: int) -> bytes:
    """A PNG of random pixels: it does not compress, like a phone photo of that size."""
    import os
    import struct
    import zlib

    rows = b"".join(b"\x00" + os.urandom(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def test_a_phone_photo_over_the_limit_is_made_smaller_before_upload(fr_server, new_page):
    base = fr_server.base_url
    page = new_page("phone")
    sign_up(page, base)
    page.goto(base + "/expenses/new")
    form = page.locator("form[data-expense-form]")
    limit = int(form.locator("#field-receipts").get_attribute("data-max-bytes"))
    photo = noisy_png(1450, 1450)
    assert len(photo) > limit, len(photo)
    form.locator("#field-title").fill("Big receipt")
    form.locator("#field-amount").fill("12")
    form.locator("#field-receipts").set_input_files(
        [{"name": "IMG_2041.png", "mimeType": "image/png", "buffer": photo}])
    # Replaced in the field by a JPEG within the limit, under the same name.
    page.wait_for_function(
        "() => { const f = document.querySelector('#field-receipts').files[0];"
        " return f && f.type === 'image/jpeg'; }")
    size, name = page.evaluate(
        "() => { const f = document.querySelector('#field-receipts').files[0];"
        " return [f.size, f.name]; }")
    assert size <= limit and name == "IMG_2041.jpg", (size, name)
    form.locator("[data-save]").click()
    page.wait_for_url(re.compile(r"/expenses(\?.*)?$"))
    thumb = page.locator(".expense-row .receipt-thumb img")
    expect(thumb).to_have_count(1)
    assert thumb.evaluate("i => i.complete && i.naturalWidth > 0")
