"""One language per page: an English and a Ukrainian account walk every area in Chromium and
find no text of the other language, checked against both catalogues."""

from __future__ import annotations

import base64
import json
import re

import pytest
from playwright.sync_api import Page, expect

from conftest import (
    ARTIFACTS,
    PHONE,
    REPO,
    PageFactory,
    scroll_width,
    shot,
    unique_email,
    wait_for_path,
    DEFAULT_PASSWORD,
)
from test_fundraisers import make_png

CATALOGUES = REPO / "Sources" / "BackofficeCore" / "Resources" / "Localization"

# The readable text of the page: visible text and the names people hear, leaving out anything
# marked with a language other than the page's (a language or locale named in itself).
READABLE_TEXT = """() => {
  const lang = document.documentElement.lang;
  const foreign = (el) => {
    const marked = el.closest('[lang]');
    return marked && marked.getAttribute('lang') !== lang;
  };
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || foreign(parent) || parent.closest('script,style,template')) continue;
    if (!parent.checkVisibility()) continue;
    const text = node.textContent.trim();
    if (text) parts.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label],[placeholder],[title],img[alt]')) {
    if (foreign(el)) continue;
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = el.getAttribute(name);
      if (value && value.trim()) parts.push(value.trim());
    }
  }
  parts.push(document.title);
  return parts;
}"""

# Names of things that are Latin in either language, and what the test types.
LATIN_NAMES = ["Backoffice", "CSV", "JSON", "API", "URL", "PNG", "SVG", "JPEG", "Monobank",
               "ISO 4217", "UTC", "UAH", "EUR", "USD", "GBP", "Authorization: Bearer <token>", "ETag",
               "If-Match", "backoffice import"]


def load(language: str) -> dict[str, list[str]]:
    entries = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    out = {}
    for key, value in entries.items():
        forms = list(value.values()) if isinstance(value, dict) else [value]
        out[key] = forms
    return out


ENGLISH = load("en")
UKRAINIAN = load("uk")


def phrases(catalogue: dict[str, list[str]], other: dict[str, list[str]]) -> set[str]:
    """Whole sentences of one catalogue that the other does not also use (placeholders cut:
    the longest literal piece of each form, when it is at least two words)."""
    found = set()
    for key, forms in catalogue.items():
        for form in forms:
            if form in other.get(key, []):
                continue
            for piece in re.split(r"\{\w+\}", form):
                piece = piece.strip(" .,:;…–—()“”«»")
                if len(piece) >= 8 and " " in piece:
                    found.add(piece)
    return found


ENGLISH_PHRASES = phrases(ENGLISH, UKRAINIAN)
UKRAINIAN_PHRASES = phrases(UKRAINIAN, ENGLISH)
CYRILLIC = re.compile(r"[\u0400-\u04FF]")
ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}[ ,.:;]+[A-Za-z]{2,}\b")


def check_page(page: Page, language: str, typed: list[str]) -> None:
    where = page.url
    assert page.evaluate("document.documentElement.lang") == language, where
    for text in page.evaluate(READABLE_TEXT):
        rest = text
        for item in sorted(typed + LATIN_NAMES, key=len, reverse=True):
            rest = rest.replace(item, " ")
        rest = re.sub(r"\S+@\S+|https?://\S+|/[a-z0-9/._?=&:-]+", " ", rest)
        if language == "en":
            assert not CYRILLIC.search(rest), f"{where}: Ukrainian text {text!r}"
            for phrase in UKRAINIAN_PHRASES:
                assert phrase not in rest, f"{where}: {phrase!r}"
        else:
            assert not ENGLISH_WORDS.search(rest), f"{where}: English text {text!r}"
            for phrase in ENGLISH_PHRASES:
                assert phrase not in rest, f"{where}: {phrase!r}"


def api(page: Page, base_url: str, method: str, path: str, body: dict) -> dict:
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    response = page.request.fetch(
        base_url + path, method=method, data=json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf or ""})
    assert response.ok, (path, response.status, response.text())
    return response.json()


def catalog_texts(node) -> list[str]:
    if isinstance(node, dict):
        found = [value for key, value in node.items()
                 if key in ("name", "description") and isinstance(value, str)]
        return found + [text for value in node.values() for text in catalog_texts(value)]
    if isinstance(node, list):
        return [text for value in node for text in catalog_texts(value)]
    return []


PHOTO = base64.b64encode(make_png(480, 320)).decode()


@pytest.mark.parametrize("language", ["en", "uk"])
def test_every_area_speaks_one_language(new_page: PageFactory, base_url: str,
                                        language: str, console_errors: list[str]) -> None:
    locale = "uk-UA" if language == "uk" else "en-US"
    page = new_page("desktop", locale=locale)
    page.goto(base_url + "/sign-up")
    assert page.evaluate("document.documentElement.lang") == language
    page.locator('input[name="email"]').fill(unique_email())
    page.locator('input[name="password"]').fill(DEFAULT_PASSWORD)
    page.locator('form button[type="submit"], form button:not([type])').last.click()
    wait_for_path(page, "/")

    # One record in each area, so lists, cards and record pages show too.
    typed = ["Kettle", "Tea", "Search ads", "https://pay.example.com/ads", "Drone", "Kitchen"]
    product = api(page, base_url, "POST", "/api/v1/products",
                  {"name": "Kettle", "type": "Kitchen", "price": "25.50", "tax": "20"})
    expense = api(page, base_url, "POST", "/api/v1/expenses",
                  {"title": "Tea", "amount": "3.20", "category": "food"})
    entry = api(page, base_url, "POST", "/api/v1/ad-payments",
                {"name": "Search ads", "url": "https://pay.example.com/ads"})
    fundraiser = api(page, base_url, "POST", "/api/v1/fundraisers",
                     {"purpose": "Drone", "target": "15000", "template": 3, "photo": PHOTO})

    # The shared marketing catalog is data the administrator writes, in the catalog's language.
    typed += catalog_texts(page.request.get(base_url + "/api/v1/marketing/catalog").json())

    paths = ["/", "/products", "/products/new", f"/products/{product['id']}/edit",
             "/expenses", "/expenses/new", f"/expenses/{expense['id']}/edit", "/expenses/import",
             "/ad-payments", "/ad-payments/new", f"/ad-payments/{entry['id']}/edit",
             "/ad-payments/import", "/marketing", "/fundraisers", "/fundraisers/new",
             f"/fundraisers/{fundraiser['id']}", f"/fundraisers/{fundraiser['id']}/edit",
             "/settings"]
    for path in paths:
        page.goto(base_url + path)
        check_page(page, language, typed)

    # A marketing plan through its steps, and a form sent back with its errors.
    page.goto(base_url + "/marketing")
    page.locator('form[action="/marketing/plans"] button').first.click()
    page.wait_for_url(re.compile(r"/marketing/plans/[^/]+/targets"))
    check_page(page, language, typed)
    page.goto(base_url + "/products/new")
    page.locator('input[name="tax"]').fill("150")
    page.locator('form.product-form button[type="submit"], form button.button-primary').first.click()
    page.wait_for_load_state()
    check_page(page, language, typed)

    # Nothing found, an error page, and the phone's navigation in this language.
    page.goto(base_url + "/products/00000000-0000-0000-0000-000000000000/edit")
    check_page(page, language, typed)
    page.set_viewport_size(PHONE)
    page.goto(base_url + "/expenses")
    check_page(page, language, typed)
    nav = page.locator("nav.main-nav a")
    expect(nav).to_have_count(6)
    for index in range(6):
        box = nav.nth(index).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
        assert box["height"] >= 44 and box["width"] >= 44, box
    # Settings and Sign out, in this language's longer or shorter words, fit on the screen too.
    account = page.locator("nav.account-nav")
    for target in (account.locator('a[href="/settings"]'), account.locator("button")):
        box = target.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
        assert box["y"] >= 0 and box["height"] >= 44, box
    assert scroll_width(page) <= PHONE["width"]
    shot(page, f"languages-expenses-{language}-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base_url + "/products")
    shot(page, f"languages-products-{language}")


@pytest.mark.parametrize("language", ["en", "uk"])
def test_signed_out_pages_fit_a_phone_in_both_languages(new_page: PageFactory, base_url: str,
                                                       language: str) -> None:
    page = new_page("phone", locale="uk-UA" if language == "uk" else "en-US")
    for path in ("/sign-in", "/sign-up"):
        page.goto(base_url + path)
        assert page.evaluate("document.documentElement.lang") == language
        assert scroll_width(page) <= PHONE["width"], f"{path} in {language} scrolls sideways"
        for link in page.locator("nav.account-nav a").all():
            box = link.bounding_box()
            assert box and box["x"] + box["width"] <= PHONE["width"] + 0.5 and box["height"] >= 44, box
    shot(page, f"languages-sign-up-{language}-phone")
