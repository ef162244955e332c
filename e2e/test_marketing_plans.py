"""Marketing plans: the four steps to a downloaded .eml, and the catalog refresh banner."""

from __future__ import annotations

import email
import email.policy
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import (
    PHONE,
    PageFactory,
    ServerFactory,
    at_desktop,
    at_phone,
    scroll_width,
    shot,
    sign_up,
    wait_for_path,
)

TARGETING_ID = "b22fd39c053b256222b1"
FACEBOOK = "0af1bfee844a7003cec5"


def both_sizes(page: Page, name: str) -> None:
    """Screenshots at 375 px and 1280 px; nothing may be wider than the phone screen."""
    # From the top, so the sticky header sits where a reader sees it.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.evaluate("window.scrollTo(0, 0)")
    at_phone(page)
    page.wait_for_timeout(100)
    assert scroll_width(page) <= PHONE["width"], f"{name} overflows at 375 px"
    shot(page, f"marketing-{name}-375")
    at_desktop(page)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"marketing-{name}-1280")


# ---------------------------------------------------------------- the four steps


def test_build_save_reopen_and_send_a_plan(page: Page, base_url: str, tmp_path: Path) -> None:
    sign_up(page, base_url)
    page.get_by_role("link", name="Marketing plans", exact=True).first.click()
    wait_for_path(page, "/marketing")
    expect(page.get_by_role("heading", name="No marketing plans yet")).to_be_visible()
    both_sizes(page, "plans-empty")

    page.get_by_role("button", name="New plan").first.click()
    expect(page.get_by_role("heading", name="Select Targeting")).to_be_visible()
    expect(page.get_by_text("Selected: 0 option(s)")).to_be_visible()
    expect(page.get_by_role("button", name="Continue")).to_be_disabled()
    location = page.locator("#target-0 button")
    expect(location).to_contain_text("Target based on Location")
    expect(location).to_contain_text("5 available channels")
    expect(location).to_contain_text("+2 more")

    location.click()
    expect(location).to_have_attribute("aria-pressed", "true")
    page.locator("#target-6 button").click()  # Industry: Linkedin, SEO
    expect(page.locator("#target-6 button")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("Selected: 2 option(s)")).to_be_visible()
    both_sizes(page, "step1-targets")

    # A reload loses nothing: every click was saved.
    page.reload()
    expect(page.get_by_text("Selected: 2 option(s)")).to_be_visible()

    page.get_by_role("link", name="Continue").click()
    expect(page.get_by_role("heading", name="Select Channels")).to_be_visible()
    titles = page.locator(".mk-option-title").all_inner_texts()
    assert titles == ["Facebook", "Linkedin", "Twitter", "Instagram", "Google AdWords", "SEO"]
    both_sizes(page, "step2-channels")
    # On a phone the step links show numbers, but each is still named by its step.
    at_phone(page)
    steps = page.get_by_role("navigation", name="Plan steps")
    expect(steps.get_by_role("link", name=re.compile("Targeting"))).to_be_visible()
    expect(steps.get_by_role("link", name=re.compile("Channels"))).to_be_visible()
    # The action bar that sticks to the bottom of the screen sits above the tab bar.
    page.evaluate("window.scrollTo(0, 0)")
    bar = page.locator(".mk-actionbar").bounding_box()
    tabs = page.get_by_role("navigation", name="Main").bounding_box()
    assert bar and tabs and bar["y"] + bar["height"] <= tabs["y"] + 0.5, (bar, tabs)
    expect(page.locator(".mk-actionbar").get_by_role("link", name="Back")).to_be_in_viewport()
    at_desktop(page)

    page.get_by_role("link", name="Facebook").click()
    expect(page.get_by_role("heading", name="Select one package for Facebook")).to_be_visible()
    first = page.locator("#package-0")
    more = first.locator("details.mk-more")
    expect(more.locator("summary")).to_have_text("... and 6 more", use_inner_text=True)
    more.locator("summary").click()
    expect(more.locator("summary")).to_have_text("Show less", use_inner_text=True)
    first.get_by_role("button").first.click()
    expect(page.locator("#package-button-0")).to_have_attribute("aria-pressed", "true")
    # Another package replaces it: one per channel.
    page.locator("#package-button-1").click()
    expect(page.locator("#package-button-1")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#package-button-0")).to_have_attribute("aria-pressed", "false")
    both_sizes(page, "step3-packages")
    page.get_by_role("link", name="Done").click()
    expect(page.get_by_text("Selected: Facebook Package 2 (€200.00)")).to_be_visible()

    page.get_by_role("link", name="Linkedin").click()
    page.locator("#package-button-2").click()
    expect(page.locator("#package-button-2")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("link", name="Done").click()
    page.get_by_role("link", name="Review Selected Packages").click()

    expect(page.get_by_role("heading", name="Review Selection")).to_be_visible()
    expect(page.locator("#mk-total")).to_have_text("€290.00")
    expect(page.get_by_text("2 package(s) selected from 2 channel(s)", exact=True)).to_be_visible()
    cards = page.locator(".mk-review-head h2").all_inner_texts()
    assert cards == ["Facebook Package 2", "Linkedin Package 3"]
    expect(page.get_by_role("button", name="Copy summary")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_visible()

    # Typing the email details saves them and updates the mail link.
    page.get_by_label("Recipient").fill("boss@example.com")
    page.get_by_label("Subject").fill("Spring campaign")
    mailto = page.locator("#mk-mailto")
    expect(mailto).to_have_attribute(
        "href", re.compile(r"^mailto:boss@example\.com\?subject=Spring%20campaign&body=")
    )
    href = mailto.get_attribute("href")
    assert "body=Marketing%20Campaign%20Selection" in href
    assert len(href) <= 1800
    both_sizes(page, "step4-review")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download email").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".eml")
    saved = tmp_path / "plan.eml"
    download.save_as(saved)
    message = email.message_from_bytes(saved.read_bytes(), policy=email.policy.default)
    assert message.get_content_type() == "multipart/alternative"
    assert not message.defects
    parts = list(message.iter_parts())
    assert [part.get_content_type() for part in parts] == ["text/plain", "text/html"]
    assert str(message["subject"]) == "Spring campaign"
    assert str(message["to"]) == "boss@example.com"
    text = parts[0].get_content()
    assert "Total Monthly Cost: €290.00" in text
    assert "Facebook Package 2 [Facebook]" in text
    assert "<h3" in parts[1].get_content()

    # Remove one package; the total follows.
    page.get_by_role("button", name="Remove Linkedin Package 3").click()
    expect(page.locator("#mk-total")).to_have_text("€200.00")

    # Reopen from the list: the saved details come back.
    page.get_by_role("link", name="All plans").click()
    wait_for_path(page, "/marketing")
    expect(page.get_by_text("Total Monthly Cost: €200.00")).to_be_visible()
    both_sizes(page, "plans-list")
    page.get_by_role("link", name="Open").first.click()
    expect(page.get_by_role("heading", name="Review Selection")).to_be_visible()
    expect(page.get_by_label("Recipient")).to_have_value("boss@example.com")
    expect(page.get_by_label("Subject")).to_have_value("Spring campaign")

    # Rename, duplicate, delete.
    page.get_by_text("Rename", exact=True).click()
    page.get_by_label("Plan name").fill("Spring push")
    page.get_by_role("button", name="Save name").click()
    expect(page.locator(".mk-planname")).to_have_text("Spring push")
    page.get_by_role("link", name="All plans").click()
    page.get_by_role("button", name="Duplicate").click()
    expect(page.get_by_text("Plan duplicated as “Copy of Spring push”.")).to_be_visible()
    row = page.locator(".mk-plan").filter(has_text="Copy of Spring push")
    row.locator("summary", has_text="Delete").click()
    row.get_by_role("button", name="Yes, delete").click()
    expect(page.get_by_text("Plan “Copy of Spring push” deleted.")).to_be_visible()
    expect(page.locator(".mk-plan")).to_have_count(1)

    page.goto(base_url + "/")
    expect(page.locator("#home-marketing")).to_contain_text("1 plan")


def test_steps_work_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        sign_up(page, base_url)
        page.goto(base_url + "/marketing")
        page.get_by_role("button", name="New plan").first.click()
        page.locator("#target-5 button").click()  # Company: Linkedin
        expect(page.locator("#target-5 button")).to_have_attribute("aria-pressed", "true")
        page.get_by_role("link", name="Continue").click()
        page.get_by_role("link", name="Linkedin").click()
        page.locator("#package-button-0").click()
        page.get_by_role("link", name="Done").click()
        page.get_by_role("link", name="Review Selected Packages").click()
        expect(page.locator("#mk-total")).to_have_text("€150.00")
        # Without scripts the summary is there to copy by hand; the script-only buttons are not.
        expect(page.locator("#mk-summary-text")).to_be_visible()
        expect(page.get_by_role("button", name="Copy summary")).to_be_hidden()
        page.get_by_label("Recipient").fill("not an address")
        page.get_by_role("button", name="Save email details").click()
        expect(page.get_by_text("Enter an email address like name@example.com.")).to_be_visible()
        page.get_by_label("Recipient").fill("team@example.com")
        page.get_by_role("button", name="Save email details").click()
        expect(page.get_by_text("Email details saved.")).to_be_visible()
        href = page.locator("#mk-mailto").get_attribute("href")
        assert href.startswith("mailto:team@example.com?subject=Marketing%20Campaign%20Selection")
    finally:
        context.close()


# ---------------------------------------------------------------- catalog refresh


class CatalogHost:
    """A tiny catalog host on loopback whose answers the test switches."""

    def __init__(self, documents: dict[str, bytes]) -> None:
        self.documents = documents
        self.mode = "ok"
        host = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                key = self.path.strip("/")
                if host.mode == "slow":
                    time.sleep(4)
                if host.mode == "fail":
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(b"upstream trouble")
                    return
                body = b"{not json" if host.mode == "malformed" else host.documents.get(key)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def catalog_host():
    """A catalog host with no documents yet; the test fills them in."""
    host = CatalogHost({})
    yield host
    host.stop()


def test_refresh_survives_every_upstream_failure_with_an_honest_banner(
    start_server: ServerFactory, new_page: PageFactory, catalog_host: CatalogHost
) -> None:
    server = start_server({"BACKOFFICE_CATALOG_URL": catalog_host.url}, name="marketing-catalog")
    page = new_page()
    sign_up(page, server.base_url)

    # The host serves this server's own catalog, with one price changed.
    response = page.request.get(server.url("/marketing/catalog/export.json"))
    assert response.ok
    documents = json.loads(response.body())
    documents[FACEBOOK]["monthly_fees"][0]["price"] = 145
    catalog_host.documents = {key: json.dumps(value).encode() for key, value in documents.items()}

    page.goto(server.url("/marketing/catalog"))
    expect(page.locator("#mk-catalog-source")).to_contain_text("bundled with Backoffice")
    page.get_by_role("button", name="Refresh catalog").click()
    expect(page.get_by_text("Catalog refreshed: 15 targets, 6 channels, 23 packages.")).to_be_visible()
    expect(page.locator("#mk-catalog-source")).to_contain_text(f"refreshed from {catalog_host.url}")
    expect(page.locator(".mk-catalog-list li").first).to_contain_text("Facebook — 4 packages: €145.00")
    expect(page.locator(".mk-banner")).to_have_count(0)

    catalog_host.mode = "fail"
    page.get_by_role("button", name="Refresh catalog").click()
    banner = page.locator(".mk-banner-error")
    expect(banner).to_contain_text(f"Catalog refresh failed: HTTP 500 from {catalog_host.url}{TARGETING_ID}")
    expect(page.locator(".mk-catalog-list li").first).to_contain_text("Facebook — 4 packages: €145.00")
    both_sizes(page, "catalog-error")

    catalog_host.mode = "malformed"
    page.get_by_role("button", name="Refresh catalog").click()
    expect(page.locator(".mk-banner-error")).to_contain_text(
        f"targeting document {TARGETING_ID}: the document is not valid JSON"
    )

    catalog_host.mode = "slow"
    page.get_by_role("button", name="Refresh catalog").click(timeout=15_000)
    expect(page.locator(".mk-banner-offline")).to_contain_text("Offline data from", timeout=15_000)
    expect(page.locator(".mk-banner-offline")).to_contain_text("stopped answering")
    expect(page.locator(".mk-catalog-list li").first).to_contain_text("Facebook — 4 packages: €145.00")
    both_sizes(page, "catalog-offline")

    # Every step shows the banner.
    page.goto(server.url("/marketing"))
    expect(page.locator(".mk-banner-offline")).to_be_visible()
    page.get_by_role("button", name="New plan").first.click()
    expect(page.locator(".mk-banner-offline")).to_contain_text("Offline data from")
    both_sizes(page, "step1-offline")

    catalog_host.mode = "ok"
    page.goto(server.url("/marketing/catalog"))
    page.get_by_role("button", name="Refresh catalog").click()
    expect(page.get_by_text("Catalog refreshed")).to_be_visible()
    expect(page.locator(".mk-banner")).to_have_count(0)
