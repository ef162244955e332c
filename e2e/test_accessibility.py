"""Every page passes axe-core in Chromium: for the owner, an editor and a viewer of one
workspace and for a visitor who is signed out, in English and in Ukrainian.

The pages come from the route table (Sources/BackofficeServer/AppRoute.swift): every GET
route outside /api/ whose answer is an HTML page, with its ids filled from records made first
(a product, an expense, an ad payment, a marketing plan, a fundraiser made public, an import
job, an invitation). A signed-out visitor gets the routes that need no workspace (sign-in,
sign-up, a public fundraiser page, an invitation's join page) and an error page. Besides the
route table a few states are checked too: a form sent back with its errors, the search's list
of matches while typing, a search that finds nothing, a missing record, a favourite.

Rules: every rule axe-core runs by default (WCAG 2.0/2.1/2.2 A and AA, and best practices)
must report nothing, except those in `LEFT_OUT`, each with its reason there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import DEFAULT_PASSWORD, REPO, TIMEOUT_MS, Server, unique_email, wait_for_path
from test_languages import PHOTO

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError as error:
    raise ImportError(
        "axe-playwright-python is not installed: python3 -m pip install -r e2e/requirements.txt"
    ) from error

ROUTE_TABLE = REPO / "Sources" / "BackofficeServer" / "AppRoute.swift"

# The rules the issue names; they must hold whatever else is left out.
REQUIRED_RULES = {
    "label", "select-name", "duplicate-id", "duplicate-id-aria", "duplicate-id-active",
    "aria-input-field-name", "button-name", "link-name", "form-field-multiple-labels",
}

# Rules not held to, and why. Nothing of REQUIRED_RULES may be here.
LEFT_OUT: dict[str, str] = {}

ROLES = ("owner", "editor", "viewer")
LANGUAGES = ("en", "uk")
LOCALES = {"en": "en-US", "uk": "uk-UA"}
MISSING = "00000000-0000-0000-0000-000000000000"


# ---------------------------------------------------------------- the route table


@dataclass(frozen=True)
class Route:
    template: str
    outside: bool  # needs no workspace: a signed-out visitor may open it


def page_routes() -> list[Route]:
    """GET routes of the route table, leaving out the JSON API."""
    text = ROUTE_TABLE.read_text(encoding="utf-8")
    routes = []
    for match in re.finditer(r'AppRoute\(\s*\.GET,\s*"([^"]+)"([^)]*)\)', text):
        template, rest = match.group(1), match.group(2)
        if template.startswith("/api/"):
            continue
        routes.append(Route(template, ".outside" in rest))
    assert len(routes) > 20, f"only {len(routes)} GET routes read from {ROUTE_TABLE}"
    return routes


def fill(template: str, ids: dict[str, str]) -> str:
    return re.sub(r":([A-Za-z]+)", lambda m: ids.get(m.group(1), MISSING), template)


# ---------------------------------------------------------------- the workspace


@dataclass
class Workspace:
    """One server, one workspace with a record of every kind, a signed-in browser per role and
    the pages to visit."""

    server: Server
    contexts: dict[str, BrowserContext]
    ids: dict[str, str]
    pages: list[str] = field(default_factory=list)  # signed-in pages (paths)
    outside_pages: list[str] = field(default_factory=list)  # pages for a signed-out visitor
    not_pages: dict[str, str] = field(default_factory=dict)  # route → what it answered
    language: dict[str, str] = field(default_factory=dict)  # role → language now

    def url(self, path: str) -> str:
        return self.server.url(path)

    def page(self, role: str) -> Page:
        return self.contexts[role].pages[0]

    def set_language(self, role: str, language: str) -> None:
        """The person's interface language, through the settings form."""
        if self.language.get(role) == language:
            return
        page = self.page(role)
        page.goto(self.url("/settings"))
        form = page.locator('form[action="/settings/locale"]')
        form.locator('select[name="language"]').select_option(language)
        with page.expect_navigation():
            form.locator('button[type="submit"], button:not([type])').last.click()
        page.goto(self.url("/settings"))
        assert page.evaluate("document.documentElement.lang") == language
        self.language[role] = language


def new_context(browser: Browser, locale: str = "en-US") -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    context.new_page()
    return context


def create_account(page: Page, base: str, email: str) -> None:
    page.goto(base + "/sign-up")
    form = page.locator('form[action^="/sign-up"]')
    form.locator('input[name="email"]').fill(email)
    form.locator('input[name="password"]').fill(DEFAULT_PASSWORD)
    form.locator('button[type="submit"]').click()
    wait_for_path(page, "/")


def api(page: Page, base: str, method: str, path: str, body: dict | None = None) -> dict:
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content") or ""
    response = page.request.fetch(
        base + path, method=method, data=body,
        headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
    assert response.ok, (path, response.status, response.text())
    return response.json()


def form_post(page: Page, base: str, path: str, form: dict[str, str]) -> str:
    """A form post with the page's CSRF token; returns the page it leads to."""
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content") or ""
    response = page.request.post(base + path, form={"_csrf": csrf, **form})
    assert response.ok, (path, response.status, response.text()[:500])
    return response.text()


def invitation(owner: Page, base: str, role: str) -> str:
    owner.goto(base + "/settings/members")
    owner.locator('form[action="/settings/invitations"] select[name="role"]').select_option(role)
    owner.locator('form[action="/settings/invitations"] button').click()
    link = owner.locator("#new-invitation").inner_text().strip()
    assert "/join/" in link, link
    return link


def join(context: BrowserContext, base: str, link: str) -> None:
    page = context.pages[0]
    create_account(page, base, unique_email())
    page.goto(link)
    page.locator(f'form[action="{link[link.index("/join/"):]}"] button').click()
    wait_for_path(page, "/")


def make_records(owner: Page, base: str) -> dict[str, str]:
    """One record of every kind the route table has ids for."""
    ids: dict[str, str] = {}
    ids["productID"] = api(owner, base, "POST", "/api/v1/products",
                           {"name": "Kettle", "type": "Kitchen", "price": "25.50",
                            "tax": "20"})["id"]
    form_post(owner, base, f"/products/{ids['productID']}/favorite", {"favorite": "1"})
    ids["expenseID"] = api(owner, base, "POST", "/api/v1/expenses",
                           {"title": "Tea", "amount": "3.20", "category": "food"})["id"]
    ids["entryID"] = api(owner, base, "POST", "/api/v1/ad-payments",
                         {"name": "Search ads", "url": "https://pay.example.com/ads"})["id"]
    fundraiser = api(owner, base, "POST", "/api/v1/fundraisers",
                     {"purpose": "Drone", "target": "15000", "template": 3, "photo": PHOTO,
                      "jar_link": "https://send.monobank.ua/jar/AbCdE12345"})
    ids["fundraiserID"] = fundraiser["id"]
    shown = form_post(owner, base, f"/fundraisers/{fundraiser['id']}/public", {"public": "1"})
    slug = re.search(r'/f/([A-Za-z0-9_-]+)', shown)
    assert slug, "the public page's address is not on the fundraiser's page"
    ids["slug"] = slug.group(1)
    # The expense was spent for the fundraiser and has a public receipt; the fundraiser is
    # closed and its report published, so the public page shows the report and the receipt.
    api(owner, base, "PUT", f"/api/v1/expenses/{ids['expenseID']}",
        {"title": "Tea", "amount": "3.20", "category": "food", "fundraiser_id": fundraiser["id"]})
    ids["receiptID"] = api(owner, base, "POST", f"/api/v1/expenses/{ids['expenseID']}/receipts",
                           {"photo": PHOTO, "public": True})["id"]
    for stage in ("closed", "reported"):
        api(owner, base, "POST", f"/api/v1/fundraisers/{fundraiser['id']}/stage", {"stage": stage})

    # A marketing plan with a target chosen, so its channel steps have something to show.
    owner.goto(base + "/marketing")
    owner.locator('form[action="/marketing/plans"] button').first.click()
    owner.wait_for_url(re.compile(r"/marketing/plans/[^/]+/targets"))
    ids["planID"] = re.search(r"/marketing/plans/([^/]+)/", owner.url).group(1)
    owner.locator("#target-0 button").click()
    expect(owner.locator("#target-0 button")).to_have_attribute("aria-pressed", "true")
    owner.goto(base + f"/marketing/plans/{ids['planID']}/channels")
    channel = owner.locator(f'a[href^="/marketing/plans/{ids["planID"]}/channels/"]').first
    ids["channelID"] = channel.get_attribute("href").rsplit("/", 1)[1]

    # An import job of one expense, done in the background.
    owner.goto(base + "/expenses/import")
    owner.locator('input[type="file"][name="file"]').set_input_files(files=[{
        "name": "expenses.csv", "mimeType": "text/csv",
        "buffer": b"date,title,category,amount\n2025-11-01,Bread,Food,2.40\n"}])
    owner.locator('form[action="/expenses/import"] button[type="submit"]').click()
    owner.wait_for_url(re.compile(r"/imports/[^/?]+"))
    ids["jobID"] = re.search(r"/imports/([^/?]+)", owner.url).group(1)
    return ids


def is_page(context: BrowserContext, url: str) -> tuple[bool, str]:
    response = context.request.get(url, max_redirects=0)
    kind = response.headers.get("content-type", "")
    return (response.status == 200 and kind.startswith("text/html"),
            f"{response.status} {kind.split(';')[0]}")


# Built once per run, also when test_phone_labels.py imports the fixture (pytest would make a
# session fixture of each module that has it); the browser and the server outlive it.
_BUILT: list[Workspace] = []


@pytest.fixture(scope="session")
def workspace(browser: Browser, start_server) -> Workspace:
    if not _BUILT:
        _BUILT.append(build_workspace(browser, start_server))
    return _BUILT[0]


def build_workspace(browser: Browser, start_server) -> Workspace:
    server = start_server(name="accessibility")
    base = server.base_url
    contexts = {role: new_context(browser) for role in ROLES}
    owner = contexts["owner"].pages[0]
    create_account(owner, base, unique_email())
    ids = make_records(owner, base)
    for role in ("editor", "viewer"):
        join(contexts[role], base, invitation(owner, base, role))
    ids["token"] = invitation(owner, base, "viewer").rsplit("/", 1)[1]  # left unused
    world = Workspace(server, contexts, ids)

    signed_out = new_context(browser)
    for route in page_routes():
        path = fill(route.template, ids)
        ok, answer = is_page(contexts["owner"], world.url(path))
        if ok:
            world.pages.append(path)
        else:
            world.not_pages[route.template] = answer
        if route.outside and is_page(signed_out, world.url(path))[0]:
            world.outside_pages.append(path)
    signed_out.close()
    # Whatever is not a page has to be a file, an image or a redirect, never a missing record
    # (only an image the records have none of: no product photo, no shared poster picture).
    # Links that only mail carries (a reset link, a sign-up confirmation) cannot be made here:
    # these servers send no mail. What a visitor with an unknown one gets, the 404 page saying
    # the link no longer works, is checked below like every other page.
    mail_links = ("/reset-password/:token", "/sign-up/confirm/:token")
    missing = {t: a for t, a in world.not_pages.items() if a.startswith(("404", "5"))
               and not re.search(r"(/photo|\.png|/photos/:photoID)$", t)
               and t not in mail_links}
    assert not missing, f"routes the workspace's records did not fill: {missing}"
    # States the route table does not list.
    world.pages += ["/products?q=zzz", f"/products/{MISSING}/edit", "/no-such-page"]
    world.outside_pages += ["/no-such-page", f"/f/{'x' * 12}"]
    world.outside_pages += [fill(t, {"token": "x" * 43}) for t in mail_links]
    return world


# ---------------------------------------------------------------- the pass


# axe-core 4.7 and later no longer run the two plain duplicate-id rules unless asked, and report
# a failed duplicate-id-aria as "needs review" (incomplete) rather than as a violation.
AXE_OPTIONS = {
    "resultTypes": ["violations", "incomplete"],
    "rules": {"duplicate-id": {"enabled": True}, "duplicate-id-active": {"enabled": True}},
}


def audit(page: Page, axe: Axe, where: str, found: dict[str, set[str]]) -> None:
    results = axe.run(page, options=AXE_OPTIONS).response
    needing_review = [item for item in results["incomplete"] if item["id"] in REQUIRED_RULES]
    for violation in results["violations"] + needing_review:
        if violation["id"] in LEFT_OUT:
            continue
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
        found.setdefault(violation["id"], set()).add(
            f"{where}: {violation['impact']}: {', '.join(targets[:4])}"
            + (f" (+{len(targets) - 4})" if len(targets) > 4 else ""))


def report(found: dict[str, set[str]]) -> str:
    return "\n".join(f"{rule}:\n  " + "\n  ".join(sorted(places))
                     for rule, places in sorted(found.items()))


def test_left_out_rules_keep_the_required_ones() -> None:
    assert not REQUIRED_RULES & LEFT_OUT.keys()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_every_page_passes_axe(workspace: Workspace, role: str, language: str) -> None:
    workspace.set_language(role, language)
    page = workspace.page(role)
    axe = Axe()
    found: dict[str, set[str]] = {}
    for path in workspace.pages:
        page.goto(workspace.url(path))
        assert page.evaluate("document.documentElement.lang") == language, path
        audit(page, axe, path, found)
    # The products search's list of matches, drawn by its script while typing.
    page.goto(workspace.url("/products"))
    page.locator("#product-q").fill("Ket")
    expect(page.locator("#product-search-results")).to_be_visible()
    expect(page.locator("#product-search-results")).to_contain_text("Kettle")
    audit(page, axe, "/products (matches while typing)", found)
    # A form sent back with its errors (a viewer's is refused before that).
    if role != "viewer":
        for path in ("/products/new", "/expenses/new", "/ad-payments/new"):
            page.goto(workspace.url(path))
            action = path.removesuffix("/new")
            # Past the scripts that keep an empty form from being sent.
            with page.expect_navigation():
                page.evaluate("(a) => document.querySelector(`main form[action='${a}']`).submit()",
                              action)
            audit(page, axe, f"{path} (sent empty)", found)
    assert not found, f"axe found, as {role} in {language}:\n{report(found)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_signed_out_page_passes_axe(browser: Browser, workspace: Workspace,
                                          language: str) -> None:
    context = new_context(browser, locale=LOCALES[language])
    page = context.pages[0]
    axe = Axe()
    found: dict[str, set[str]] = {}
    try:
        for path in workspace.outside_pages + ["/sign-in?next=%2Fproducts"]:
            page.goto(workspace.url(path))
            assert page.evaluate("document.documentElement.lang") == language, path
            audit(page, axe, path, found)
        # Sign-in sent back with its error.
        page.goto(workspace.url("/sign-in"))
        page.locator('input[name="email"]').fill(unique_email())
        page.locator('input[name="password"]').fill("wrong password here")
        page.locator('form[action^="/sign-in"] button[type="submit"]').click()
        page.wait_for_load_state()
        audit(page, axe, "/sign-in (refused)", found)
    finally:
        context.close()
    assert "/sign-in" in workspace.outside_pages and "/sign-up" in workspace.outside_pages
    assert any(p.startswith("/join/") for p in workspace.outside_pages)
    assert any(p.startswith("/f/") for p in workspace.outside_pages)
    assert not found, f"axe found, signed out in {language}:\n{report(found)}"
