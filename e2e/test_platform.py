"""Accounts, layout and security headers, clicked through as a person would."""

import json
import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import APIResponse, Page, Response, expect

from conftest import (
    ARTIFACTS,
    DEFAULT_PASSWORD,
    DESKTOP,
    PHONE,
    PageFactory,
    Server,
    ServerFactory,
    http_get,
    path_of,
    scroll_width,
    shot,
    sign_in,
    sign_out,
    sign_up,
    unique_email,
    wait_for_path,
)

SETTINGS_SECTIONS = ("Profile", "Locale and currency", "Password", "API tokens")
SCRIPT_PATH = re.compile(r"/js/[\w./-]+\.js")


def assert_csp_and_scripts(page: Page, response: Response | None) -> None:
    """The page sends a CSP that forbids inline scripts and loads only /js/*.js modules."""
    assert response is not None, f"no response for {page.url}"
    policy = response.headers.get("content-security-policy")
    assert policy, f"no Content-Security-Policy header on {page.url}"
    directives = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    script_sources = directives.get("script-src", directives.get("default-src"))
    assert script_sources is not None, f"the CSP does not restrict scripts: {policy}"
    assert "'unsafe-inline'" not in script_sources, policy

    scripts = page.eval_on_selector_all(
        "script",
        """elements => elements.map(e => ({
            src: e.getAttribute("src"), type: e.getAttribute("type"), text: e.textContent.trim()
        }))""",
    )
    for script in scripts:
        if script["type"] == "application/json" and not script["src"]:
            # Data, never run: the interface texts the page's scripts show.
            json.loads(script["text"])
            continue
        assert not script["text"], f"inline script on {page.url}: {script['text'][:80]}"
        src = urlparse(script["src"] or "")
        assert src.netloc in ("", urlparse(page.url).netloc), f"third-party script: {script}"
        assert SCRIPT_PATH.fullmatch(src.path), f"script outside /js/ on {page.url}: {script}"
        assert script["type"] == "module", f"script is not an ES module on {page.url}: {script}"


def is_redirect_home(response: APIResponse) -> bool:
    location = response.headers.get("location", "")
    return 300 <= response.status < 400 and urlparse(location).path == "/"


def sign_in_is_refused(page: Page, base_url: str, email: str) -> None:
    sign_in(page, base_url, email, DEFAULT_PASSWORD)
    assert path_of(page) == "/sign-in"
    incorrect = page.get_by_role("alert").filter(has_text="Email or password is incorrect.")
    expect(incorrect).to_be_visible()


# ---------------------------------------------------------------- probes


def test_health_and_ready(server: Server) -> None:
    for path, status_text in (("/health", "ok"), ("/ready", "ready")):
        status, headers, body = http_get(server.url(path))
        assert status == 200, (path, status, body)
        assert "json" in headers.get("content-type", ""), (path, headers.get("content-type"))
        assert json.loads(body)["status"] == status_text, (path, body)


def test_signed_out_home_redirects_to_sign_in(server: Server) -> None:
    status, headers, _ = http_get(server.url("/"))
    assert 300 <= status < 400, status
    assert urlparse(headers.get("location", "")).path == "/sign-in"


def test_security_headers(page: Page, base_url: str) -> None:
    for path in ("/sign-in", "/sign-up"):
        response = page.goto(base_url + path)
        assert_csp_and_scripts(page, response)
        assert response.headers.get("x-content-type-options") == "nosniff", path
        assert response.headers.get("referrer-policy"), f"no Referrer-Policy on {path}"


# ---------------------------------------------------------------- accounts


def test_account_lifecycle(page: Page, base_url: str, console_errors: list[str]) -> None:
    response = page.goto(base_url + "/sign-up")
    assert_csp_and_scripts(page, response)
    form = page.locator("form").filter(
        has=page.get_by_role("button", name="Create account", exact=True)
    )
    expect(form.locator('input[type="hidden"][name="_csrf"]')).to_have_count(1)
    expect(page.get_by_label("Email", exact=True)).to_have_attribute("type", "email")
    expect(page.get_by_label("Password", exact=True)).to_have_attribute("type", "password")
    shot(page, "sign-up")

    email, password = sign_up(page, base_url)
    expect(page.get_by_text("Welcome to Backoffice.")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Overview")
    nav = page.get_by_role("navigation", name="Main")
    account = page.get_by_role("navigation", name="Account")
    expect(nav.get_by_role("link", name="Home", exact=True)).to_be_in_viewport()
    expect(account.get_by_role("link", name="Settings", exact=True)).to_be_in_viewport()
    expect(page.get_by_role("button", name="Sign out", exact=True)).to_be_in_viewport()
    assert scroll_width(page) <= DESKTOP["width"]
    shot(page, "home-desktop")

    account.get_by_role("link", name="Settings", exact=True).click()
    wait_for_path(page, "/settings")
    expect(page.locator("h1")).to_have_text("Settings")
    for section in SETTINGS_SECTIONS:
        expect(page.get_by_role("heading", name=section, exact=True)).to_be_visible()
    assert scroll_width(page) <= DESKTOP["width"]
    shot(page, "settings")

    for path in ("/", "/settings"):
        assert_csp_and_scripts(page, page.goto(base_url + path))

    sign_out(page)
    expect(page.get_by_text("You have been signed out.")).to_be_visible()
    page.goto(base_url + "/")
    assert path_of(page) == "/sign-in"

    sign_in(page, base_url, email, "not the password")
    assert path_of(page) == "/sign-in"
    incorrect = page.get_by_role("alert").filter(has_text="Email or password is incorrect.")
    expect(incorrect).to_be_visible()
    shot(page, "sign-in-wrong-password")

    sign_in(page, base_url, email, password)
    assert path_of(page) == "/"
    expect(page.locator("h1")).to_have_text("Overview")
    assert console_errors == []


def test_sign_up_refuses_missing_csrf_and_short_password(
    page: Page, new_page: PageFactory, base_url: str
) -> None:
    def csrf_token() -> str:
        page.goto(base_url + "/sign-up")
        return page.locator('input[name="_csrf"]').first.input_value()

    def post(fields: dict[str, str]) -> APIResponse:
        return page.request.post(base_url + "/sign-up", form=fields, max_redirects=0)

    no_token = unique_email()
    csrf_token()  # the session exists, only the token is left out
    response = post({"email": no_token, "password": DEFAULT_PASSWORD})
    assert not is_redirect_home(response), "sign-up without a CSRF token was accepted"

    too_short = unique_email()
    response = post({"_csrf": csrf_token(), "email": too_short, "password": "7 chars"})
    assert not is_redirect_home(response), "a 7-character password was accepted"

    # The same request with a token and a long enough password does create an account.
    accepted = unique_email()
    response = post({"_csrf": csrf_token(), "email": accepted, "password": DEFAULT_PASSWORD})
    assert is_redirect_home(response), (response.status, response.headers)

    checker = new_page()
    sign_in_is_refused(checker, base_url, no_token)
    sign_in_is_refused(checker, base_url, too_short)


@pytest.mark.console_errors_ok  # a closed sign-up page may answer 403 or 404
def test_closed_sign_up_creates_no_account(
    start_server: ServerFactory, new_page: PageFactory
) -> None:
    closed = start_server({"BACKOFFICE_SIGNUP": "closed"}, name="signup-closed")
    try:
        page = new_page()
        page.goto(closed.url("/sign-up"))
        shot(page, "sign-up-closed")
        from_page = unique_email()
        create = page.get_by_role("button", name="Create account", exact=True)
        if create.count() > 0:
            page.get_by_label("Email", exact=True).fill(from_page)
            page.get_by_label("Password", exact=True).fill(DEFAULT_PASSWORD)
            with page.expect_navigation():
                create.click()
            assert path_of(page) != "/", "an account was created while sign-up is closed"

        # Posting the form directly, with the session's token, is refused as well.
        page.goto(closed.url("/sign-in"))
        token = page.locator('input[name="_csrf"]').first.input_value()
        posted = unique_email()
        response = page.request.post(
            closed.url("/sign-up"),
            form={"_csrf": token, "email": posted, "password": DEFAULT_PASSWORD},
            max_redirects=0,
        )
        assert not is_redirect_home(response), "sign-up accepted a post while closed"

        sign_in_is_refused(page, closed.base_url, from_page)
        sign_in_is_refused(page, closed.base_url, posted)
    finally:
        closed.stop()


# ---------------------------------------------------------------- layout


AREAS = ["Home", "Products", "Expenses", "Ad payments", "Marketing plans", "Fundraisers"]


def assert_phone_navigation(page: Page, current: str | None) -> None:
    """Every area, Settings and Sign out visible inside the 375 px screen as it is now."""
    nav = page.get_by_role("navigation", name="Main")
    account = page.get_by_role("navigation", name="Account")
    targets = [nav.get_by_role("link", name=area, exact=True) for area in AREAS]
    targets += [account.get_by_role("link", name="Settings", exact=True),
                account.get_by_role("button", name="Sign out", exact=True)]
    for target in targets:
        expect(target).to_be_visible()
        box = target.bounding_box()
        assert box, target
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, box
        assert box["width"] >= 44 and box["height"] >= 44, box
    marked = nav.locator('[aria-current="page"]')
    if current is None:
        expect(marked).to_have_count(0)
    else:
        expect(marked).to_have_text(current)


def test_phone_layout(new_page: PageFactory, base_url: str, console_errors: list[str]) -> None:
    page = new_page("phone")
    for path in ("/sign-in", "/sign-up"):
        page.goto(base_url + path)
        assert scroll_width(page) <= PHONE["width"], f"{path} scrolls sideways"
    shot(page, "sign-up-phone")

    sign_up(page, base_url)
    expect(page.locator("h1")).to_have_text("Overview")
    assert scroll_width(page) <= PHONE["width"], "home scrolls sideways"
    shot(page, "home-phone")

    # Every area, Settings and Sign out are on the phone's screen at once, without scrolling
    # in any direction, each at least 44 px square; the areas stay at the bottom edge.
    assert_phone_navigation(page, current="Home")
    for area in AREAS[1:]:
        page.get_by_role("navigation", name="Main").get_by_role("link", name=area).click()
        expect(page.get_by_role("navigation", name="Main").get_by_role("link", name=area)
               ).to_have_attribute("aria-current", "page")
        assert_phone_navigation(page, current=area)
        assert scroll_width(page) <= PHONE["width"], f"{area} scrolls sideways"
        if area == "Products":
            # The floating add button floats above the tab bar, not over it.
            fab = page.locator("a.fab").bounding_box()
            bar = page.get_by_role("navigation", name="Main").bounding_box()
            assert fab and bar and fab["y"] + fab["height"] <= bar["y"], (fab, bar)
        page.screenshot(path=str(ARTIFACTS / f"nav-{area.lower().replace(' ', '-')}-phone.png"))
    page.get_by_role("navigation", name="Account").get_by_role(
        "link", name="Settings", exact=True).click()
    wait_for_path(page, "/settings")
    expect(page.locator("h1")).to_have_text("Settings")
    assert_phone_navigation(page, current=None)
    assert scroll_width(page) <= PHONE["width"], "settings scrolls sideways"
    shot(page, "settings-phone")

    # A new token's secret, shown once, is on the first screen of the page that follows.
    page.get_by_label("New token name").fill("Phone script")
    page.get_by_role("button", name="Create token").click()
    expect(page.locator("#new-token")).to_be_in_viewport()
    expect(page.get_by_role("button", name="Copy", exact=True)).to_be_in_viewport()
    page.screenshot(path=str(ARTIFACTS / "settings-new-token-phone.png"))

    # At the bottom of a long page the last of the page is above the tab bar, not under it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    bar = page.get_by_role("navigation", name="Main").bounding_box()
    footer = page.locator(".site-footer").bounding_box()
    assert bar and footer and footer["y"] + footer["height"] <= bar["y"] + 1, (footer, bar)
    assert_phone_navigation(page, current=None)

    # Wider than a phone, the areas are a row in the header again.
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    bar = page.get_by_role("navigation", name="Main").bounding_box()
    assert bar and bar["y"] < 80, bar
    shot(page, "settings-desktop-nav")
    page.set_viewport_size(PHONE)

    sign_out(page)
    assert console_errors == []
