"""Ad payments, clicked through as a person would: add, edit, search, delete, every message."""

import re
from urllib.parse import urlparse

from playwright.sync_api import Page, expect

from conftest import (
    DESKTOP,
    PHONE,
    PageFactory,
    at_desktop,
    at_phone,
    path_of,
    scroll_width,
    shot,
    sign_up,
    wait_for_path,
)

BLANK_NAME = "Name cannot be blank."
INVALID_URL = "Please enter a valid URL (e.g., https://www.example.com)"


def field_error(page: Page, field: str):
    return page.locator(f"#field-{field}-error")


def row(page: Page, name: str):
    return page.locator(".ad-payment-row").filter(
        has=page.locator(".ad-payment-name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


def listed_names(page: Page) -> list[str]:
    return page.locator(".ad-payment-name").all_inner_texts()


def shoot_both(page: Page, name: str) -> None:
    """Screenshots at desktop and phone width; neither may scroll sideways."""
    at_desktop(page)
    assert scroll_width(page) <= DESKTOP["width"], f"{name} scrolls sideways on a desktop"
    shot(page, f"ad-payments-{name}-desktop")
    at_phone(page)
    assert scroll_width(page) <= PHONE["width"], f"{name} scrolls sideways on a phone"
    shot(page, f"ad-payments-{name}-phone")
    at_desktop(page)


def save_and_return_to_list(page: Page) -> None:
    """Saves the form and waits for the list (a refused form is also served at /ad-payments)."""
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("heading", name="Ad payments", exact=True, level=1)).to_be_visible()


def add_entry(page: Page, name: str, url: str) -> None:
    page.get_by_role("link", name="Add", exact=True).first.click()
    wait_for_path(page, "/ad-payments/new")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("URL", exact=True).fill(url)
    save_and_return_to_list(page)


def test_add_edit_search_delete_with_every_message(page: Page, base_url: str) -> None:
    sign_up(page, base_url)
    home_card = page.locator("#home-ad-payments")
    expect(home_card).to_contain_text("0 entries")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Ad payments").click()
    wait_for_path(page, "/ad-payments")
    expect(page.get_by_role("heading", name="Ad payments", exact=True, level=1)).to_be_visible()
    expect(page.get_by_text("No payments added yet")).to_be_visible()
    expect(page.get_by_text("Use the Add button to create your first payment entry")).to_be_visible()
    shoot_both(page, "empty")

    # Add: saving an empty form shows both messages next to their fields.
    page.get_by_role("link", name="Add", exact=True).first.click()
    wait_for_path(page, "/ad-payments/new")
    expect(page.get_by_role("heading", name="Add Payments")).to_be_visible()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(field_error(page, "name")).to_have_text(BLANK_NAME)
    expect(field_error(page, "url")).to_have_text(INVALID_URL)
    expect(page.get_by_label("Name", exact=True)).to_be_focused()
    shoot_both(page, "add-errors")

    # Live: a fixed field clears as it is typed; a bad link is flagged when the field is left.
    page.get_by_label("Name", exact=True).fill("  Spring campaign  ")
    expect(field_error(page, "name")).to_be_hidden()
    url = page.get_by_label("URL", exact=True)
    for bad in ("http://google", "https://invalid.", "ftp://x.com", "http://1.2.3.4"):
        url.fill("https://www.example.com")
        expect(field_error(page, "url")).to_be_hidden()
        url.fill(bad)
        expect(field_error(page, "url")).to_have_text(INVALID_URL)
    url.fill("http://test")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(field_error(page, "url")).to_have_text(INVALID_URL)
    expect(page.get_by_label("Name", exact=True)).to_have_value("  Spring campaign  ")
    expect(url).to_have_value("http://test")

    url.fill("https://www.example.com/spring")
    save_and_return_to_list(page)
    expect(page.get_by_role("status").filter(has_text="Payment “Spring campaign” saved.")).to_be_visible()
    assert listed_names(page) == ["Spring campaign"]

    # A second entry with the same link: the form warns while typing, then saving is allowed.
    page.get_by_role("link", name="Add", exact=True).first.click()
    wait_for_path(page, "/ad-payments/new")
    page.get_by_label("Name", exact=True).fill("autumn")
    page.get_by_label("URL", exact=True).fill("HTTPS://WWW.EXAMPLE.COM/spring/")
    page.get_by_label("Name", exact=True).focus()
    warning = page.locator("#ad-payment-duplicate")
    expect(warning).to_contain_text("This URL is already saved as “Spring campaign”")
    expect(warning.get_by_role("link", name="“Spring campaign”")).to_have_attribute(
        "href", re.compile(r"^/ad-payments/[0-9a-f-]{36}/edit$")
    )
    shoot_both(page, "duplicate-warning")
    save_and_return_to_list(page)
    notice = page.locator(".ad-payment-warning")
    expect(notice).to_contain_text("“autumn” has the same URL as “Spring campaign”.")
    assert listed_names(page) == ["autumn", "Spring campaign"], "sorted ignoring case"

    # Edit: the typed values stay when a rule fails, and the fix is saved.
    row(page, "autumn").get_by_role("link", name="Edit “autumn”").click()
    expect(page.get_by_role("heading", name="Edit Ad Payment")).to_be_visible()
    expect(page.locator("#ad-payment-duplicate")).to_be_visible()
    page.get_by_label("Name", exact=True).fill("   ")
    page.get_by_label("URL", exact=True).fill("https://autumn.example.org/sale")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(field_error(page, "name")).to_have_text(BLANK_NAME)
    expect(page.get_by_label("URL", exact=True)).to_have_value("https://autumn.example.org/sale")
    expect(page.locator("#ad-payment-duplicate")).to_be_hidden()
    shoot_both(page, "edit-errors")
    page.get_by_label("Name", exact=True).fill("Zeta sale")
    save_and_return_to_list(page)
    expect(page.get_by_role("status").filter(has_text="Payment “Zeta sale” updated.")).to_be_visible()
    assert listed_names(page) == ["Spring campaign", "Zeta sale"]
    add_entry(page, "Émile ads", "https://emile.example.net")
    assert listed_names(page) == ["Émile ads", "Spring campaign", "Zeta sale"]
    shoot_both(page, "list")

    # Search (as you type) by part of a name or a link, ignoring case and accents.
    search = page.get_by_label("Search by name or URL")
    search.fill("EMILE")
    expect(page.locator(".ad-payment-name")).to_have_text(["Émile ads"])
    assert urlparse(page.url).query == "q=EMILE"
    search.fill("autumn.example")
    expect(page.locator(".ad-payment-name")).to_have_text(["Zeta sale"])
    search.fill("nothing like it")
    expect(page.get_by_text("No payments match “nothing like it”")).to_be_visible()
    search.fill("")
    expect(page.locator(".ad-payment-name")).to_have_count(3)
    # Without waiting for the script: the form itself searches too.
    search.fill("spring")
    search.press("Enter")
    expect(page.locator(".ad-payment-name")).to_have_text(["Spring campaign"])

    # Delete asks first, then the entry is gone.
    target = row(page, "Spring campaign")
    target.get_by_text("Delete", exact=True).click()
    expect(target.get_by_text("Delete “Spring campaign”? This cannot be undone.")).to_be_visible()
    shoot_both(page, "delete-confirm")
    target.get_by_role("button", name="Yes, delete").click()
    expect(page.get_by_role("status").filter(has_text="Payment “Spring campaign” deleted.")).to_be_visible()
    assert path_of(page) == "/ad-payments"
    expect(page.get_by_text("No payments match “spring”")).to_be_visible()
    page.get_by_role("link", name="Show all payments").click()
    expect(page.locator(".ad-payment-name")).to_have_text(["Émile ads", "Zeta sale"])

    page.goto(base_url + "/")
    expect(home_card).to_contain_text("2 entries")
    shoot_both(page, "home")


def test_import_and_export(page: Page, base_url: str, tmp_path) -> None:
    sign_up(page, base_url)
    page.goto(base_url + "/ad-payments")
    page.get_by_role("link", name="Import CSV").click()
    wait_for_path(page, "/ad-payments/import")
    expect(page.get_by_role("heading", name="Import ad payments")).to_be_visible()
    shoot_both(page, "import")

    csv = "name,url\nGood one,https://good.example.com\n ,http://google\nBad link,ftp://x.com\n"
    file = {"name": "payments.csv", "mimeType": "text/csv", "buffer": csv.encode()}
    page.get_by_label("CSV file").set_input_files(file)
    page.get_by_role("button", name="Import", exact=True).click()
    report = page.locator(".import-report")
    expect(report).to_contain_text("Nothing was imported: 2 rows have errors.")
    expect(report).to_contain_text(f"Row 3: {BLANK_NAME} {INVALID_URL}")
    expect(report).to_contain_text(f"Row 4: {INVALID_URL}")
    shoot_both(page, "import-errors")

    page.get_by_label("CSV file").set_input_files(file)
    page.get_by_label("Skip rows with errors").check()
    page.get_by_role("button", name="Import", exact=True).click()
    expect(report).to_contain_text(
        "1 payment imported, 0 already present. Skipped 2 rows with errors.")
    shoot_both(page, "import-partial")
    report.get_by_role("link", name="Go to the list").click()
    expect(page.locator(".ad-payment-name")).to_have_text(["Good one"])

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export CSV").click()
    download = download_info.value
    assert re.fullmatch(r"ad-payments-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename)
    path = tmp_path / "export.csv"
    download.save_as(path)
    assert path.read_bytes().decode("utf-8-sig") == "name,url\r\nGood one,https://good.example.com\r\n"


def test_phone_add_and_list(new_page: PageFactory, base_url: str) -> None:
    page = new_page("phone")
    sign_up(page, base_url)
    page.goto(base_url + "/ad-payments")
    long_url = "https://www.example.com/" + "very-long-path-segment/" * 6 + "?utm_source=newsletter"
    add_entry(page, "A rather long campaign name that needs to wrap on a phone", long_url)
    add_entry(page, "Short", "https://s.example.com")
    assert scroll_width(page) <= PHONE["width"], "the list scrolls sideways"
    shot(page, "ad-payments-list-long-phone")
    row(page, "Short").get_by_role("link", name="Edit “Short”").click()
    assert scroll_width(page) <= PHONE["width"], "the edit form scrolls sideways"
    page.get_by_text("Delete this payment").click()
    page.get_by_role("button", name="Yes, delete").click()
    wait_for_path(page, "/ad-payments")
    expect(page.locator(".ad-payment-name")).to_have_count(1)
