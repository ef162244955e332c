"""Working without a network, as a phone in a shop does: a cold start offline, the catalog read
and searched from the device's copy, changes queued and synced exactly once through a flapping
connection, conflicts with changes made elsewhere, and the other areas as read-only copies."""

from __future__ import annotations

import base64
import json
import re
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from conftest import (
    DESKTOP,
    PHONE,
    PageFactory,
    at_desktop,
    at_phone,
    shot,
    sign_out,
    sign_up,
    unique_email,
    wait_for_path,
)
from test_fundraisers import make_png
from test_products import fill_product, only_offline_errors, outbox_size, server_products
from test_teams import invite, join_as_new_account

PNG = base64.b64encode(make_png(300, 200)).decode()

# Creates products through the JSON API with the page's session (and its CSRF token).
CREATE = """async (products) => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const made = [];
  for (const p of products) {
    const response = await fetch("/api/v1/products", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
      body: JSON.stringify(p),
    });
    if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
    made.push(await response.json());
  }
  return made;
}"""


def product(name: str, type_: str = "Fruit", price: str = "1.50", tax: str = "0") -> dict:
    return {"name": name, "type": type_, "price": price, "tax": tax}


def ready_offline(page: Page) -> None:
    """Waits until the page says the device can start offline: the service worker holds the
    pages and the catalog's copy has synced."""
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'yes'", timeout=30_000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def go_offline(context: BrowserContext, page: Page) -> None:
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")


def go_online(context: BrowserContext, page: Page) -> None:
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def wait_for_copy(page: Page, store: str, count: int, timeout: int = 30_000) -> None:
    """Waits until the device's copy of the catalog holds `count` entries in `store`."""
    page.wait_for_function(
        """async ([store, count]) => {
          const open = indexedDB.open("backoffice-catalog-" + document.body.dataset.account);
          const db = await new Promise((ok, fail) => { open.onsuccess = () => ok(open.result); open.onerror = fail; });
          const found = await new Promise((ok) => { const r = db.transaction(store).objectStore(store).count(); r.onsuccess = () => ok(r.result); });
          db.close();
          return found === count;
        }""",
        arg=[store, count],
        timeout=timeout,
    )


def card_names(page: Page) -> list[str]:
    return page.locator(".product-grid .product-name").all_inner_texts()


@pytest.mark.console_errors_ok
def test_a_cold_start_offline_adds_three_products_and_searches_the_catalog(
    new_page: PageFactory, base_url: str, console_errors: list[str]
) -> None:
    """Sign up, and go offline right after the first page: the listing, the categories and the
    search work from the device's copy (never opened online), three products are added and
    show in the grid marked as waiting; back online they reach the server once; offline again
    after a reload, they are listed with the bar saying how old the copy is."""
    page = new_page("phone")
    context = page.context
    sign_up(page, base_url)
    page.evaluate(CREATE, [product("Avocado"), product("Apple"), product("Crème brûlée", "Dessert", "4.20")])
    plum_made = page.evaluate(CREATE, [{**product("Plum"), "photo": "data:image/png;base64," + PNG}])[0]
    page.reload()
    ready_offline(page)
    # The photo's thumbnail is made on the device after the sync.
    wait_for_copy(page, "thumbs", 1)
    # Whether or not a page showed the full photo online, offline it is the device's thumbnail.
    page.evaluate("caches.delete('photos-v1')")

    go_offline(context, page)
    page.goto(base_url + "/products")
    bar = page.locator("#offline-bar")
    expect(bar).to_contain_text("Offline — showing your copy from")
    expect(page.locator(".products-page")).to_have_attribute("data-rendered", "device:4")
    assert card_names(page) == ["Plum", "Crème brûlée", "Apple", "Avocado"]
    # Its picture comes from the device's thumbnail.
    plum = page.locator(".product-card").filter(has_text="Plum").locator("img")
    expect(plum).to_have_attribute("src", re.compile(r"^blob:"))
    page.wait_for_function("img => img.complete && img.naturalWidth === 160", arg=plum.element_handle())
    # The photo's own address too (a stored page's picture): the service worker answers it
    # with that thumbnail.
    photo_path = urlparse(plum_made["image_url"]).path.removeprefix("/api/v1")
    photo_path += "?" + urlparse(plum_made["image_url"]).query
    width = page.evaluate(
        """(src) => new Promise((ok, fail) => {
            const img = new Image();
            img.onload = () => ok(img.naturalWidth);
            img.onerror = () => fail(new Error("no picture for " + src));
            img.src = src;
        })""",
        photo_path,
    )
    assert width == 160
    expect(page.locator(".chips")).to_contain_text("Dessert")
    shot(page, "offline-cold-listing-phone")

    # Search as you type, in the copy, with the server's folding of accents.
    search = page.locator("#product-q")
    search.fill("creme")
    results = page.locator("#product-search-results")
    expect(results).to_contain_text("Crème brûlée")
    expect(results).to_contain_text("Found in this device’s copy.")
    search.fill("a")
    expect(results.locator(".search-name")).to_have_text(["Apple", "Avocado"])
    search.fill("zz")
    expect(results).to_contain_text("Not found")
    search.fill("")

    # A category chip is a page of the copy too.
    page.locator(".chips a", has_text="Dessert").click()
    expect(page.locator(".product-grid .product-name")).to_have_text(["Crème brûlée"])
    expect(bar).to_be_visible()

    page.locator("a.fab").click()
    wait_for_path(page, "/products/new")
    for name, price in (("Offline kettle", "25.50"), ("Offline mug", "7"), ("Offline tray", "3.10")):
        fill_product(page, name, "Kitchen", price, "5")
        page.get_by_role("button", name="Upload Product").click()
        expect(page.get_by_label("Product name")).to_have_value("")
    expect(page.locator("#product-outbox")).to_contain_text("3 products waiting to sync")

    page.goto(base_url + "/products")
    expect(page.locator(".products-page")).to_have_attribute("data-rendered", "device:7")
    waiting = page.locator(".product-card.product-waiting")
    expect(waiting).to_have_count(3)
    expect(waiting.first).to_contain_text("Waiting")
    expect(waiting.filter(has_text="Offline kettle")).to_contain_text("$25.50")
    search.fill("offline m")
    expect(results.locator(".search-name")).to_have_text(["Offline mug"])
    search.fill("")
    shot(page, "offline-cold-waiting-phone")
    assert sorted(p["name"] for p in server_products(context, base_url)) == [
        "Apple", "Avocado", "Crème brûlée", "Plum"]

    go_online(context, page)
    expect(page.locator("#product-outbox")).to_contain_text("Upload Successful", timeout=30_000)
    expect(page.locator(".product-card.product-waiting")).to_have_count(0, timeout=15_000)
    names = sorted(p["name"] for p in server_products(context, base_url))
    assert names == [
        "Apple", "Avocado", "Crème brûlée", "Offline kettle", "Offline mug", "Offline tray", "Plum"]

    # Offline again, after a reload: the new products are in the copy, with the bar.
    wait_for_copy(page, "products", 7, timeout=20_000)
    go_offline(context, page)
    page.reload()
    expect(bar).to_contain_text("Offline — showing your copy from")
    expect(page.locator(".products-page")).to_have_attribute("data-rendered", "device:7")
    expect(page.locator(".product-card.product-waiting")).to_have_count(0)
    for name in ("Offline kettle", "Offline mug", "Offline tray"):
        expect(page.locator(".product-card").filter(has_text=name)).to_be_visible()
    shot(page, "offline-after-sync-phone")
    at_desktop(page)
    shot(page, "offline-after-sync-desktop")
    context.set_offline(False)
    assert only_offline_errors(console_errors) == [], console_errors


@pytest.mark.console_errors_ok
def test_a_flapping_connection_during_sync_still_makes_exactly_three_products(
    new_page: PageFactory, base_url: str, console_errors: list[str]
) -> None:
    page = new_page("phone")
    context = page.context
    sign_up(page, base_url)
    ready_offline(page)
    go_offline(context, page)
    page.goto(base_url + "/products/new")
    for name in ("Flap one", "Flap two", "Flap three"):
        fill_product(page, name, "Misc", "2", "0")
        page.get_by_role("button", name="Upload Product").click()
        expect(page.get_by_label("Product name")).to_have_value("")
    expect(page.locator("#product-outbox")).to_contain_text("3 products waiting to sync")

    # The connection comes and goes five times while the outbox sends; each return sends
    # again whatever is still waiting, with the same keys.
    for delay in (40, 5, 120, 15, 60):
        go_online(context, page)
        page.wait_for_timeout(delay)
        go_offline(context, page)
        page.wait_for_timeout(30)
    go_online(context, page)
    expect(page.locator("#product-outbox")).not_to_contain_text("waiting to sync", timeout=60_000)
    page.wait_for_timeout(500)
    names = sorted(p["name"] for p in server_products(context, base_url))
    assert names == ["Flap one", "Flap three", "Flap two"], names
    assert outbox_size(page) == 0
    assert only_offline_errors(console_errors, ("ERR_NETWORK_CHANGED", "ERR_FAILED")) == [], console_errors


@pytest.mark.console_errors_ok
def test_offline_edits_deletes_and_hearts_wait_and_a_conflict_is_settled_by_the_user(
    new_page: PageFactory, base_url: str, console_errors: list[str]
) -> None:
    """Offline, one product is edited (in a form never opened online), another deleted and a
    third starred; meanwhile someone else changes the edited one on the server. Back online,
    the delete and the heart go through, and the edit is shown as a conflict with both
    values; "Keep mine" saves it onto the server's version."""
    page = new_page("phone")
    context = page.context
    sign_up(page, base_url)
    made = page.evaluate(CREATE, [product("Chair"), product("Table"), product("Lamp")])
    ids = {p["name"]: p["id"] for p in made}
    page.reload()
    ready_offline(page)

    go_offline(context, page)
    page.goto(base_url + "/products")
    expect(page.locator(".products-page")).to_have_attribute("data-rendered", "device:3")
    # A heart, offline.
    lamp = page.locator(".product-card").filter(has_text="Lamp")
    lamp.get_by_role("button", name="Add “Lamp” to favourites").click()
    expect(page.locator("#favorites")).to_contain_text("Lamp")
    # An edit, in the edit form the device never opened: the Add form stands in for it.
    page.locator(".product-card").filter(has_text="Chair").get_by_role("link", name="Chair").click()
    wait_for_path(page, f"/products/{ids['Chair']}/edit")
    expect(page.get_by_role("heading", name="Edit product")).to_be_visible()
    expect(page.get_by_label("Product name")).to_have_value("Chair")
    expect(page.get_by_label("Price (USD)")).to_have_value("1.50")
    page.get_by_label("Product name").fill("Chair (oak)")
    page.get_by_label("Price (USD)").fill("2")
    shot(page, "offline-edit-form-phone")
    page.get_by_role("button", name="Save changes").click()
    wait_for_path(page, "/products")
    expect(page.locator(".product-card.product-waiting")).to_contain_text("Chair (oak)")
    # A delete, with its question.
    page.locator(".product-card").filter(has_text="Table").get_by_role("link", name="Table").click()
    wait_for_path(page, f"/products/{ids['Table']}/edit")
    page.get_by_role("button", name="Delete product").click()
    page.get_by_role("button", name="Yes, delete").click()
    wait_for_path(page, "/products")
    expect(page.locator(".products-page")).to_have_attribute("data-rendered", "device:2")
    outbox = page.locator("#product-outbox")
    expect(outbox).to_contain_text("3 products waiting to sync")
    expect(outbox).to_contain_text("Edit")
    expect(outbox).to_contain_text("Delete")
    expect(outbox).to_contain_text("Favourite")
    shot(page, "offline-changes-waiting-phone")

    # Someone else renames the chair on the server meanwhile.
    other = new_page("desktop")
    other.context.add_cookies(context.cookies(base_url))
    other.goto(base_url + f"/products/{ids['Chair']}/edit")
    other.get_by_label("Product name").fill("Chair (pine)")
    other.get_by_role("button", name="Save changes").click()
    wait_for_path(other, "/products")

    go_online(context, page)
    expect(outbox).to_contain_text("1 change needs your decision", timeout=30_000)
    conflict = outbox.locator(".outbox-conflict")
    expect(conflict).to_contain_text("“Chair (oak)” was changed on the server")
    expect(conflict.locator('tr[data-field="name"] .conflict-mine')).to_have_text("Chair (oak)")
    expect(conflict.locator('tr[data-field="name"] .conflict-theirs')).to_have_text("Chair (pine)")
    shot(page, "offline-conflict-phone")
    by_name = {p["name"]: p for p in server_products(context, base_url)}
    assert set(by_name) == {"Chair (pine)", "Lamp"}, by_name
    assert by_name["Lamp"]["favorite"] is True

    conflict.get_by_role("button", name="Keep mine").click()
    expect(outbox.locator(".outbox-conflict")).to_have_count(0, timeout=20_000)
    page.wait_for_function(
        "() => !document.querySelector('#product-outbox [data-outbox-id]')", timeout=20_000)
    by_name = {p["name"]: p for p in server_products(context, base_url)}
    assert set(by_name) == {"Chair (oak)", "Lamp"}, by_name
    assert by_name["Chair (oak)"]["price"] == "2.00"
    assert by_name["Chair (oak)"]["version"] == 3
    assert outbox_size(page) == 0
    at_desktop(page)
    shot(page, "offline-conflict-settled-desktop")
    assert only_offline_errors(console_errors, ("412", "ERR_FAILED")) == [], console_errors


def test_the_device_folds_names_exactly_as_the_server(page: Page, base_url: str) -> None:
    """The copy's search folds a query with the server's rules: for names in many scripts the
    device's key equals the key the server sent, and the copy orders them as the server."""
    sign_up(page, base_url)
    names = [
        "Crème Brûlée", "ÅNGSTRÖM", "Straße", "Ёлка", "ЙОГУРТ", "Їжак", "мʼясо", "М’ЯСО",
        "ﬁsh  and chips", "Ｆｕｌｌ ｗｉｄｔｈ", "ΟΔΟΣ", "İstanbul", "Œuvre", "Łódź", "soft\u00adhyphen",
        "zero\u200bwidth", "  spaced   out  ", "שָׁלוֹם", "مَرْحَبًا", "Ǆemal", "ḱ̃ combined", "👩‍💻 coder",
        "Ґанок", "ùñíçødé", "Æsir", "Đorđe",
    ]
    page.goto(base_url + "/products")
    page.evaluate(CREATE, [product(name, name) for name in names])
    page.goto(base_url + "/products")
    result = page.evaluate(
        """async () => {
          const catalog = await import("/js/catalog.js");
          const sheet = JSON.parse(document.getElementById("search-rules").textContent);
          const feed = await (await fetch("/api/v1/product-changes?limit=1000")).json();
          const server = feed.changes.map((c) => [c.product.name, c.name_key, c.type_key]);
          const device = server.map(([name]) => [name, catalog.normalize(name, sheet), catalog.normalize(name, sheet)]);
          const byName = (await (await fetch("/api/v1/products?sort=name&per_page=100")).json()).items.map((p) => p.name);
          const products = feed.changes.map((c) => ({...c.product, name_key: c.name_key, type_key: c.type_key}));
          const local = catalog.listing(products, {sort: "name", per: 100}, sheet).items.map((p) => p.name);
          const serverChips = (await (await fetch("/api/v1/product-types")).json()).items;
          const localChips = catalog.chips(products);
          return {server, device, byName, local, serverChips, localChips};
        }"""
    )
    assert result["device"] == result["server"]
    assert result["local"] == result["byName"]
    assert [(c["key"], c["count"]) for c in result["localChips"]] == [
        (c["key"], c["count"]) for c in result["serverChips"]]
    assert [c["title"] for c in result["localChips"]] == [c["title"] for c in result["serverChips"]]


@pytest.mark.console_errors_ok
def test_other_areas_are_read_only_copies_offline(
    new_page: PageFactory, base_url: str, console_errors: list[str]
) -> None:
    page = new_page("phone")
    context = page.context
    sign_up(page, base_url)
    ready_offline(page)
    page.goto(base_url + "/expenses/new")
    page.get_by_label("Title", exact=True).fill("Coffee beans")
    page.get_by_label("Amount (USD)", exact=True).fill("12.40")
    page.get_by_role("button", name="Save", exact=True).click()
    wait_for_path(page, "/expenses")
    expect(page.get_by_role("link", name="Coffee beans", exact=True)).to_be_visible()

    go_offline(context, page)
    page.reload()
    bar = page.locator("#offline-bar")
    expect(bar).to_contain_text("Offline — showing your copy from")
    expect(page.get_by_role("link", name="Coffee beans", exact=True)).to_be_visible()
    # Nothing here can be changed offline: its buttons wait, and say so.
    held = page.locator("main form[method='post'] button[data-offline-held]")
    assert held.count() > 0
    shot(page, "offline-expenses-copy-phone")
    # A page never seen on this device: the offline page.
    page.goto(base_url + "/ad-payments")
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    shot(page, "offline-page-phone")

    go_online(context, page)
    page.goto(base_url + "/expenses")
    expect(page.locator("#offline-bar")).to_have_count(0)
    assert only_offline_errors(console_errors) == [], console_errors


def test_signing_out_deletes_the_devices_copy_of_the_catalog(new_page: PageFactory, base_url: str) -> None:
    page = new_page("desktop")
    sign_up(page, base_url)
    page.evaluate(CREATE, [product("Private thing")])
    page.reload()
    ready_offline(page)
    account = page.evaluate("document.body.dataset.account")
    names = page.evaluate("indexedDB.databases().then((all) => all.map((d) => d.name))")
    assert f"backoffice-catalog-{account}" in names
    sign_out(page)
    page.wait_for_function(
        """(name) => indexedDB.databases().then((all) => !all.some((d) => d.name === name))""",
        arg=f"backoffice-catalog-{account}",
        timeout=15_000,
    )
    kept = page.evaluate("caches.keys().then((names) => names.filter((n) => n.startsWith('pages-')))")
    assert kept == []


@pytest.mark.console_errors_ok
def test_a_member_removed_from_a_workspace_keeps_no_copy_of_it(
    new_page: PageFactory, base_url: str, console_errors: list[str]
) -> None:
    """An editor's device holds the shared workspace's pages and catalog; once the owner
    removes them, their next page (in their own workspace) deletes those copies, and offline
    they see only their own."""
    owner = new_page("desktop")
    sign_up(owner, base_url)
    owner.evaluate(CREATE, [product("Shared secret lamp")])
    link = invite(owner, base_url, "editor")

    editor = new_page("phone")
    join_as_new_account(editor, link, unique_email())
    editor.goto(base_url + "/products")
    ready_offline(editor)
    expect(editor.locator(".product-card").filter(has_text="Shared secret lamp")).to_be_visible()
    shared_key = editor.evaluate("document.body.dataset.account")
    editor.wait_for_function(
        """(key) => caches.open("pages-v2-" + key).then((c) => c.match("/products")).then(Boolean)""",
        arg=shared_key,
    )

    removed = owner.evaluate(
        """async (id) => {
          const token = document.querySelector('meta[name="csrf-token"]').content;
          const response = await fetch("/api/v1/workspace/members/" + id, {
            method: "DELETE", credentials: "same-origin", headers: {"X-CSRF-Token": token},
          });
          return response.status;
        }""",
        shared_key[:36],
    )
    assert removed == 204

    # The next page is the editor's own workspace, and the shared one's copies go with it.
    editor.goto(base_url + "/products")
    ready_offline(editor)
    own_key = editor.evaluate("document.body.dataset.account")
    assert own_key != shared_key
    editor.wait_for_function(
        """async (key) => {
          const names = await caches.keys();
          const dbs = (await indexedDB.databases()).map((d) => d.name);
          return !names.includes("pages-v2-" + key) && !dbs.includes("backoffice-catalog-" + key);
        }""",
        arg=shared_key,
        timeout=15_000,
    )

    go_offline(editor.context, editor)
    for path in ("/products", "/products/new", "/"):
        editor.goto(base_url + path)
        expect(editor.locator("body")).not_to_contain_text("Shared secret lamp")
    editor.goto(base_url + "/products")
    expect(editor.locator(".products-page")).to_have_attribute("data-rendered", "device:0")
    editor.context.set_offline(False)
    assert only_offline_errors(console_errors) == [], console_errors
