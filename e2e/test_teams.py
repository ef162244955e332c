"""Two people in two browsers in one workspace, on SQLite and on PostgreSQL: the owner invites
an editor and a viewer, the editor's product and expense are the owner's to see, the viewer
changes nothing, and once the owner removes the editor, the editor's next save is refused."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from conftest import PageFactory, ServerFactory, at_desktop, at_phone, shot, unique_email, wait_for_path
from test_crash_safety import reset_postgres
from test_products import fill_product

# A write through the JSON API with the page's session and CSRF token; returns the status.
API_WRITE = """async () => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch("/api/v1/products", {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
    body: JSON.stringify({name: "Sneaky", type: "X", price: "1", tax: "0"}),
  });
  return {status: response.status, body: await response.json()};
}"""


def create_account(page: Page, base: str, email: str) -> None:
    """The sign-up form, whatever page it was reached from (its `next` is kept)."""
    form = page.locator('form[action^="/sign-up"]')
    form.locator('input[name="email"]').fill(email)
    form.locator('input[name="password"]').fill("correct horse battery")
    form.locator('button[type="submit"]').click()


def invite(owner: Page, base: str, role: str) -> str:
    owner.goto(base + "/settings/members")
    owner.get_by_label("Role", exact=True).select_option(role)
    owner.get_by_role("button", name="Create invitation link").click()
    link = owner.locator("#new-invitation").inner_text().strip()
    assert "/join/" in link, link
    return link


def join_as_new_account(page: Page, link: str, email: str) -> None:
    page.goto(link)
    expect(page.get_by_role("heading", name="Join “")).to_be_visible()
    page.get_by_role("link", name="Create account").last.click()
    create_account(page, "", email)
    # Back on the invitation, signed in now.
    page.get_by_role("button", name="Join").click()
    wait_for_path(page, "/")
    expect(page.locator(".flash")).to_contain_text("You joined")


@pytest.mark.console_errors_ok
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_two_people_work_in_one_workspace(
    database: str, start_server: ServerFactory, new_page: PageFactory, console_errors: list[str]
) -> None:
    if database == "postgres":
        url = os.environ.get("TEST_DATABASE_URL")
        if not url:
            pytest.skip("TEST_DATABASE_URL is not set: the PostgreSQL run needs a database (CI sets it)")
        reset_postgres(url)
        server = start_server({"DATABASE_URL": url}, name="teams-postgres")
    else:
        server = start_server(name="teams-sqlite")
    base = server.base_url

    owner = new_page("desktop")
    owner_email = unique_email()
    owner.goto(base + "/sign-up")
    create_account(owner, base, owner_email)
    wait_for_path(owner, "/")
    # The workspace is named after its owner; give it a name of its own.
    owner.goto(base + "/settings/members")
    owner.get_by_label("Name", exact=True).fill("Kyiv bakery")
    owner.get_by_role("button", name="Save name").click()
    expect(owner.locator(".workspace-name")).to_have_text("Kyiv bakery")

    editor_link = invite(owner, base, "editor")
    shot(owner, f"teams-members-invitation-desktop-{database}")
    viewer_link = invite(owner, base, "viewer")

    editor = new_page("phone")
    join_as_new_account(editor, editor_link, unique_email())
    expect(editor.locator(".workspace-menu")).to_contain_text("Kyiv bakery")
    shot(editor, f"teams-editor-joined-phone-{database}")
    viewer = new_page("desktop")
    join_as_new_account(viewer, viewer_link, unique_email())

    # The editor adds a product and an expense; the owner sees both.
    editor.goto(base + "/products/new")
    fill_product(editor, "Rye loaf", "Bread", "3.40", "0")
    editor.get_by_role("button", name="Upload Product").click()
    wait_for_path(editor, "/products")
    editor.goto(base + "/expenses/new")
    editor.get_by_label("Title", exact=True).fill("Flour")
    editor.get_by_label("Amount (USD)", exact=True).fill("18.20")
    editor.get_by_role("button", name="Save", exact=True).click()
    wait_for_path(editor, "/expenses")

    owner.goto(base + "/products")
    expect(owner.locator(".product-card").filter(has_text="Rye loaf")).to_be_visible()
    owner.goto(base + "/expenses")
    expect(owner.get_by_role("link", name="Flour", exact=True)).to_be_visible()
    owner.goto(base + "/settings/activity")
    expect(owner.locator(".activity-list")).to_contain_text("added the product “Rye loaf”")
    expect(owner.locator(".activity-list")).to_contain_text("added the expense “Flour”")
    shot(owner, f"teams-activity-desktop-{database}")

    # The viewer reads everything and has no way to change anything.
    viewer.goto(base + "/products")
    expect(viewer.locator(".product-card").filter(has_text="Rye loaf")).to_be_visible()
    expect(viewer.get_by_role("link", name="Add product")).to_have_count(0)
    expect(viewer.locator("a.fab")).to_have_count(0)
    expect(viewer.locator(".product-card a[href$='/edit']")).to_have_count(0)
    viewer.goto(base + "/expenses")
    expect(viewer.get_by_role("link", name="Add expense")).to_have_count(0)
    expect(viewer.locator(".expense-actions")).to_have_count(0)
    answer = viewer.evaluate(API_WRITE)
    assert answer["status"] == 403, answer
    assert answer["body"]["error"]["code"] == "forbidden", answer
    response = viewer.goto(base + "/products/new")
    assert response is not None and response.status == 403
    at_phone(viewer)
    viewer.goto(base + "/products")
    shot(viewer, f"teams-viewer-products-phone-{database}")

    # The editor has a product open when the owner removes them: the save is refused.
    editor.goto(base + "/products")
    editor.locator(".product-card").filter(has_text="Rye loaf").get_by_role("link").first.click()
    editor.get_by_label("Product name").fill("Rye loaf (stolen)")
    owner.goto(base + "/settings/members")
    member = owner.locator(".member-row").filter(has=owner.locator(".role-chip", has_text="Editor"))
    member.get_by_text("Remove", exact=True).click()
    member.get_by_role("button", name="Yes, remove").click()
    expect(owner.locator(".flash")).to_contain_text("Their access has ended.")
    shot(owner, f"teams-member-removed-desktop-{database}")

    editor.get_by_role("button", name="Save changes").click()
    # Refused before anything is written, saying why (not that the product was deleted).
    expect(editor.locator("main")).to_contain_text("You are no longer a member of the workspace")
    expect(editor.locator("main")).not_to_contain_text("deleted since you opened it")
    editor.goto(base + "/products")
    expect(editor.locator(".product-card").filter(has_text="Rye loaf")).to_have_count(0)
    expect(editor.locator(".workspace-menu")).not_to_contain_text("Kyiv bakery")
    owner.goto(base + "/products")
    expect(owner.locator(".product-card").filter(has_text="Rye loaf")).to_be_visible()
    expect(owner.locator(".product-card").filter(has_text="stolen")).to_have_count(0)
    at_phone(owner)
    owner.goto(base + "/settings/members")
    shot(owner, f"teams-members-phone-{database}")
    at_desktop(owner)

    # The owner deletes the workspace: a mistyped name deletes nothing, the exact one deletes
    # everything; the viewer's next page is their own workspace.
    owner.goto(base + "/settings/members")
    owner.get_by_text("Delete this workspace…").click()
    confirm = owner.get_by_label("Type “Kyiv bakery” to confirm")
    confirm.fill("Kyiv Bakery")
    owner.get_by_role("button", name="Delete the workspace and everything in it").click()
    expect(owner.locator("#field-confirm-error")).to_contain_text("Nothing was deleted.")
    expect(owner.get_by_label("Type “Kyiv bakery” to confirm")).to_have_value("Kyiv Bakery")
    shot(owner, f"teams-delete-refused-desktop-{database}")
    at_phone(owner)
    shot(owner, f"teams-delete-refused-phone-{database}")
    at_desktop(owner)
    owner.get_by_label("Type “Kyiv bakery” to confirm").fill("Kyiv bakery")
    owner.get_by_role("button", name="Delete the workspace and everything in it").click()
    wait_for_path(owner, "/")
    expect(owner.locator(".flash")).to_contain_text("“Kyiv bakery” was deleted with everything in it.")
    owner.goto(base + "/products")
    expect(owner.locator(".product-card")).to_have_count(0)
    expect(owner.locator(".workspace-name")).not_to_have_text("Kyiv bakery")
    viewer.goto(base + "/products")
    expect(viewer.locator(".product-card").filter(has_text="Rye loaf")).to_have_count(0)
    expect(viewer.locator(".workspace-menu")).not_to_contain_text("Kyiv bakery")
