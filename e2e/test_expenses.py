"""Expenses, clicked through as a person would: a de-DE account types amounts its way."""

import csv
import io
import re

from playwright.sync_api import Browser, Page, expect

from conftest import (
    ARTIFACTS,
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


def plain(text: str) -> str:
    """Text with no-break spaces as ordinary spaces, as a person reads it."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def use_locale(page: Page, base: str, locale: str, currency: str) -> None:
    page.goto(base + "/settings")
    page.get_by_label("Locale", exact=True).select_option(locale)
    page.get_by_label("Currency", exact=True).fill(currency)
    page.get_by_role("button", name="Save locale and currency").click()
    expect(page.get_by_text("Locale and currency saved.")).to_be_visible()


def rows(page: Page):
    return page.locator(".expense-row")


def test_de_de_account_types_12_50_and_sees_euros(new_page: PageFactory, base_url: str) -> None:
    page = new_page("desktop")
    sign_up(page, base_url)
    use_locale(page, base_url, "de-DE", "EUR")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Expenses").click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_role("heading", name="No expenses yet")).to_be_visible()
    shot(page, "expenses-empty")

    page.get_by_role("link", name="Add expense").first.click()
    wait_for_path(page, "/expenses/new")
    title = page.get_by_label("Title", exact=True)
    amount = page.get_by_label("Amount (EUR)", exact=True)
    save = page.get_by_role("button", name="Save", exact=True)
    title_footer = page.locator("#field-title-feedback")
    amount_footer = page.locator("#field-amount-feedback")

    # A fresh form is red and cannot be saved, like the original app.
    expect(title_footer).to_have_text("Title must be filled!")
    expect(title_footer).to_have_class(re.compile("feedback-error"))
    expect(amount_footer).to_have_text("Amount must be filled!")
    expect(save).to_be_disabled()

    # Typing past 15 characters is cut back to 15; the footer turns green.
    title.press_sequentially("Wochenmarkt Obst und Gemüse")
    expect(title).to_have_value("Wochenmarkt Obs")
    expect(page.locator("#field-title-count")).to_have_text("15/15")
    expect(title_footer).to_have_text("Approved!")
    expect(title_footer).to_have_class(re.compile("feedback-ok"))
    expect(save).to_be_disabled()

    # Keystrokes that break the amount rule are undone: letters, a third decimal, a second comma.
    amount.press_sequentially("a12,5x0,5")
    expect(amount).to_have_value("12,50")
    expect(amount_footer).to_have_text("Approved!")
    expect(amount_footer).to_have_class(re.compile("feedback-ok"))
    expect(save).to_be_enabled()
    amount.press("Backspace")
    amount.press("Backspace")
    amount.press("Backspace")
    amount.press("Backspace")
    amount.press("Backspace")
    expect(amount).to_have_value("")
    expect(amount_footer).to_have_text("Amount must be filled!")
    expect(save).to_be_disabled()
    amount.press_sequentially("12,50")

    page.get_by_label("Category", exact=True).select_option("Food")

    # The date picker appears only when the switch is on.
    picker = page.get_by_label("Date and time (UTC)", exact=True)
    expect(picker).to_be_hidden()
    page.get_by_label("Date (optional)", exact=True).check()
    expect(picker).to_be_visible()
    picker.fill("2025-11-22T15:05")
    shot(page, "expenses-form-desktop")
    at_phone(page)
    assert scroll_width(page) <= PHONE["width"]
    shot(page, "expenses-form-phone")
    at_desktop(page)

    save.click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_text("Added “Wochenmarkt Obs”.")).to_be_visible()
    expect(rows(page)).to_have_count(1)
    row = rows(page).first
    assert plain(row.locator(".expense-amount").inner_text()) == "12,50 €"
    expect(row.locator("time")).to_have_text("22.11.2025, 15:05")
    expect(row.locator(".ex-chip")).to_have_text("Food")

    # An undated expense goes below the dated one.
    page.get_by_role("link", name="Add expense").first.click()
    page.get_by_label("Title", exact=True).fill("Sparschwein")
    page.get_by_label("Amount (EUR)", exact=True).press_sequentially("100")
    page.get_by_label("Category", exact=True).select_option("Savings")
    page.get_by_role("button", name="Save", exact=True).click()
    wait_for_path(page, "/expenses")
    expect(rows(page)).to_have_count(2)
    expect(rows(page).nth(1).locator(".expense-title")).to_have_text("Sparschwein")
    expect(rows(page).nth(1).locator(".no-date")).to_have_text("No date")
    assert plain(page.locator("#expense-total").inner_text()) == "112,50 €"

    # The month's chart, drawn by the server.
    page.goto(base_url + "/expenses?month=2025-11")
    chart = page.get_by_role("img", name=re.compile("Spending per category, November 2025"))
    expect(chart).to_be_visible()
    expect(chart.locator("g[data-category='Food'] .chart-value")).to_contain_text("12,50")
    assert plain(page.locator("#expense-total").inner_text()) == "12,50 €"
    assert scroll_width(page) <= DESKTOP["width"]
    shot(page, "expenses-list-desktop")

    # Edit from the row: the amount comes back as the locale writes it.
    page.goto(base_url + "/expenses")
    rows(page).first.get_by_role("link", name="Edit Wochenmarkt Obs").click()
    amount = page.get_by_label("Amount (EUR)", exact=True)
    expect(amount).to_have_value("12,50")
    expect(page.get_by_label("Date and time (UTC)", exact=True)).to_have_value("2025-11-22T15:05")
    amount.fill("")
    amount.press_sequentially("7,5")
    page.get_by_role("button", name="Update", exact=True).click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_text("Updated “Wochenmarkt Obs”.")).to_be_visible()
    assert plain(rows(page).first.locator(".expense-amount").inner_text()) == "7,50 €"

    # Delete offers Undo.
    rows(page).first.get_by_role("button", name="Delete Wochenmarkt Obs").click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_text("Deleted “Wochenmarkt Obs”.")).to_be_visible()
    expect(rows(page)).to_have_count(1)
    shot(page, "expenses-undo")
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_text("Restored “Wochenmarkt Obs”.")).to_be_visible()
    expect(rows(page)).to_have_count(2)

    at_phone(page)
    page.goto(base_url + "/expenses?month=2025-11")
    assert scroll_width(page) <= PHONE["width"]
    shot(page, "expenses-list-phone")

    # On a phone the list is the first thing under the buttons: its first expense is on the
    # first screen, the filters are folded under one line, the totals and chart below.
    page.goto(base_url + "/expenses")
    first = rows(page).first.bounding_box()
    assert first and first["y"] + first["height"] <= PHONE["height"], first
    fold = page.locator("details.filter-fold")
    expect(fold).not_to_have_attribute("open", "")
    expect(page.get_by_label("Title contains", exact=True)).to_be_hidden()
    totals = page.locator(".expense-totals").bounding_box()
    assert totals and totals["y"] > first["y"], (totals, first)
    page.screenshot(path=str(ARTIFACTS / "expenses-list-first-screen-phone.png"))
    fold.locator("summary").click()
    expect(page.get_by_label("Title contains", exact=True)).to_be_visible()
    # On a wide screen the filters are open and the totals sit beside the list.
    at_desktop(page)
    page.goto(base_url + "/expenses")
    expect(page.get_by_label("Title contains", exact=True)).to_be_visible()
    totals = page.locator(".expense-totals").bounding_box()
    first = rows(page).first.bounding_box()
    assert totals and first and totals["x"] > first["x"] + first["width"] - 1, (totals, first)
    shot(page, "expenses-list-wide")
    at_phone(page)

    page.goto(base_url + "/")
    expect(page.locator("#home-expenses")).to_be_visible()
    shot(page, "expenses-home-phone")


def test_form_works_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        sign_up(page, base_url)
        page.goto(base_url + "/expenses/new")
        # Without scripts the server repeats every rule.
        page.get_by_label("Title", exact=True).fill("   ")
        page.get_by_label("Amount (USD)", exact=True).fill("12.345")
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.get_by_text("The expense was not saved")).to_be_visible()
        expect(page.locator("#field-title-feedback")).to_have_text("Title must be filled!")
        expect(page.locator("#field-amount-feedback")).to_contain_text(
            "It is unclear whether the separator groups thousands"
        )
        expect(page.get_by_label("Amount (USD)", exact=True)).to_have_value("12.345")
        shot(page, "expenses-form-errors-phone")

        page.get_by_label("Title", exact=True).fill("A title that is far too long")
        page.get_by_label("Amount (USD)", exact=True).fill("12,5")
        page.get_by_role("button", name="Save", exact=True).click()
        wait_for_path(page, "/expenses")
        row = page.locator(".expense-row").first
        expect(row.locator(".expense-title")).to_have_text("A title that is")
        expect(row.locator(".expense-amount")).to_have_text("$12.50")
    finally:
        context.close()


def test_csv_import_and_export(new_page: PageFactory, base_url: str, tmp_path) -> None:
    page = new_page("desktop")
    sign_up(page, base_url)
    page.goto(base_url + "/expenses")
    page.get_by_role("link", name="Import CSV").click()
    wait_for_path(page, "/expenses/import")
    shot(page, "expenses-import-desktop")

    bad = tmp_path / "expenses.csv"
    bad.write_text(
        "date,title,category,amount\n"
        "2025-11-01,Bread,Food,2.40\n"
        ",,Food,1\n"
        "2025-11-02T10:00,Bus,Transport,12.345\n",
        encoding="utf-8",
    )
    page.get_by_label("CSV file", exact=True).set_input_files(str(bad))
    page.get_by_role("button", name="Import", exact=True).click()
    alert = page.locator("#import-error")
    expect(alert).to_contain_text("Nothing was imported: 2 rows have errors.")
    expect(alert).to_contain_text("Row 3: Title must be filled!")
    expect(alert).to_contain_text("Row 4: Amount can have at most 2 decimals")
    at_phone(page)
    assert scroll_width(page) <= PHONE["width"]
    shot(page, "expenses-import-errors-phone")
    at_desktop(page)

    page.get_by_label("CSV file", exact=True).set_input_files(str(bad))
    page.get_by_label("Skip rows with errors", exact=True).check()
    page.get_by_role("button", name="Import", exact=True).click()
    # The import runs in the background; its page shows the result once it is done.
    report = page.locator(".import-report")
    expect(report).to_contain_text(
        "1 expense imported, 0 already present. Skipped 2 rows with errors.")
    expect(report).to_contain_text("Row 3: Title must be filled!")
    assert path_of(page).startswith("/imports/")
    shot(page, "expenses-import-result-desktop")
    report.get_by_role("link", name="Go to the list").click()
    wait_for_path(page, "/expenses")
    expect(page.locator(".expense-row")).to_have_count(1)

    with page.expect_download() as info:
        page.get_by_role("link", name="Export CSV").click()
    download = info.value
    assert re.fullmatch(r"expenses-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename)
    text = open(download.path(), encoding="utf-8-sig").read()
    assert list(csv.reader(io.StringIO(text))) == [
        ["date", "title", "category", "amount", "fundraiser"],
        ["2025-11-01T00:00:00Z", "Bread", "Food", "2.40", ""],
    ]
    assert path_of(page) == "/expenses"

    # The exported file imported into the same account adds nothing, and says so.
    page.goto(base_url + "/expenses/import")
    page.get_by_label("CSV file", exact=True).set_input_files(download.path())
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".import-report")).to_contain_text(
        "0 expenses imported, 1 already present.")
    page.goto(base_url + "/expenses")
    expect(page.locator(".expense-row")).to_have_count(1)

    # Imported again on purpose, it is there twice.
    page.goto(base_url + "/expenses/import")
    page.get_by_label("CSV file", exact=True).set_input_files(download.path())
    page.get_by_label("Import rows that are already present", exact=True).check()
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".import-report")).to_contain_text(
        "1 expense imported (rows already present were imported again, as asked).")
    page.locator(".import-report").get_by_role("link", name="Go to the list").click()
    wait_for_path(page, "/expenses")
    expect(page.locator(".expense-row")).to_have_count(2)
