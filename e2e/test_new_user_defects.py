"""A workspace as new people meet it, in English and in Ukrainian: an owner invites an editor and
a viewer (each in a browser of their own), the members page shows what was just done and names
every control apart, a viewer is asked to press no button they lack, an editor removed while a
form is open is told they lost access (not that the product was deleted), and donors see the
amounts behind the percentage on the public page."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import Page, expect

from conftest import DESKTOP, PHONE, ServerFactory, scroll_width, shot, unique_email, wait_for_path
from test_fundraisers import JarStub, make_png

JAR_ID = "NewUser0001"
JAR_LINK = f"https://send.monobank.ua/jar/{JAR_ID}"
NARROW = {"width": 320, "height": 720}

TEXTS = {
    "en": {
        "locale": "en-US",
        "create_link": "Create invitation link",
        "none_waiting": "No invitations waiting.",
        "revoke": "Revoke",
        "role": "Role",
        "role_of": "Role of {email}",
        "create_account": "Create account",
        "join": "Join",
        "refresh": "Refresh",
        "no_data_viewer": "No data from the jar yet.",
        "press": "press",
        "open_public": "Open the public page",
        "progress": "Progress 62%",
        "collected": "Collected: 6\u00a0200\u00a0UAH",
        "goal": "Goal: 10\u00a0000\u00a0UAH",
        "as_of": "Jar data as of",
        "remove": "Remove",
        "remove_yes": "Yes, remove",
        "save": "Save changes",
        "left": "You are no longer a member of the workspace",
        "deleted": "deleted since you opened it",
        "add_again": "add it again",
    },
    "uk": {
        "locale": "uk-UA",
        "create_link": "Створити посилання-запрошення",
        "none_waiting": "Немає запрошень, що очікують.",
        "revoke": "Відкликати",
        "role": "Роль",
        "role_of": "Роль {email}",
        "create_account": "Створити обліковий запис",
        "join": "Приєднатися",
        "refresh": "Оновити",
        "no_data_viewer": "Даних з банки ще немає.",
        "press": "натисніть",
        "open_public": "Відкрити публічну сторінку",
        "progress": "Прогрес 62%",
        "collected": "Зібрано: 6\u00a0200\u00a0грн.",
        "goal": "Ціль: 10\u00a0000\u00a0грн.",
        "as_of": "Дані банки на",
        "remove": "Вилучити",
        "remove_yes": "Так, вилучити",
        "save": "Зберегти зміни",
        "left": "Ви більше не учасник робочого простору",
        "deleted": "Його видалили після того",
        "add_again": "додати його знову",
    },
}

# A write through the page's session and CSRF token, as the page's own scripts send it.
API_POST = """async ([path, body]) => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "Accept": "application/json",
              "X-CSRF-Token": token},
    body: JSON.stringify(body),
  });
  return {status: response.status, body: await response.json()};
}"""


@pytest.fixture
def jar_stub():
    stub = JarStub()
    yield stub
    stub.stop()


def join(page: Page, link: str, email: str, t: dict) -> None:
    page.goto(link)
    page.get_by_role("link", name=t["create_account"]).last.click()
    form = page.locator('form[action^="/sign-up"]')
    form.locator('input[name="email"]').fill(email)
    form.locator('input[name="password"]').fill("correct horse battery")
    form.locator('button[type="submit"]').click()
    page.get_by_role("button", name=t["join"]).click()
    wait_for_path(page, "/")


def three_widths(page: Page, name: str, reload: bool = True) -> None:
    """Screenshots at 320 px, 375 px and desktop; nothing wider than the screen."""
    for label, size in (("320", NARROW), ("375", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        if reload:
            page.reload()
        assert scroll_width(page) <= size["width"], f"{name} at {label}: {scroll_width(page)}"
        shot(page, f"{name}-{label}")
    page.set_viewport_size(DESKTOP)


def invite(owner: Page, base: str, role: str, t: dict) -> str:
    owner.goto(base + "/settings/members")
    owner.locator('form[action="/settings/invitations"] select[name="role"]').select_option(role)
    owner.get_by_role("button", name=t["create_link"]).click()
    link = owner.locator("#new-invitation").inner_text().strip()
    assert "/join/" in link, link
    return link


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_new_team_meets_no_stale_or_misleading_page(
    language: str, start_server: ServerFactory, jar_stub: JarStub, new_page
) -> None:
    t = TEXTS[language]
    server = start_server(
        {"BACKOFFICE_MONOBANK_URL": jar_stub.url, "BACKOFFICE_JAR_REFRESH_MINUTES": "0"},
        name=f"new-users-{language}",
    )
    base = server.base_url
    jar_stub.jars[JAR_ID] = (620_000, 2_000_000, "ACTIVE")

    owner = new_page("desktop", locale=t["locale"])
    owner.goto(base + "/sign-up")
    form = owner.locator('form[action^="/sign-up"]')
    form.locator('input[name="email"]').fill(unique_email())
    form.locator('input[name="password"]').fill("correct horse battery")
    form.locator('button[type="submit"]').click()
    wait_for_path(owner, "/")

    # 1. The link just made is listed with the waiting ones, revocable at once.
    editor_link = invite(owner, base, "editor", t)
    invitations = owner.locator("section[aria-labelledby=invitations]")
    expect(invitations).not_to_contain_text(t["none_waiting"])
    expect(invitations.locator(".token-row")).to_have_count(1)
    expect(invitations.get_by_text(t["revoke"], exact=True)).to_have_count(1)
    shot(owner, f"new-users-members-invited-{language}")
    viewer_link = invite(owner, base, "viewer", t)
    expect(owner.locator("section[aria-labelledby=invitations] .token-row")).to_have_count(2)

    editor_email, viewer_email = unique_email(), unique_email()
    editor = new_page("desktop", locale=t["locale"])
    join(editor, editor_link, editor_email, t)
    viewer = new_page("phone", locale=t["locale"])
    join(viewer, viewer_link, viewer_email, t)

    # 2. Every control has a name of its own: the invitation's Role, each member's picker.
    owner.goto(base + "/settings/members")
    duplicates = owner.evaluate(
        """() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
                   return ids.filter((id, i) => ids.indexOf(id) !== i); }"""
    )
    assert duplicates == [], duplicates
    invite_role = owner.locator('form[action="/settings/invitations"] select[name="role"]')
    expect(invite_role).to_have_accessible_name(t["role"])
    for email in (editor_email, viewer_email):
        picker = owner.locator(".member-row", has_text=email).locator('select[name="role"]')
        expect(picker).to_have_accessible_name(t["role_of"].format(email=email))
    expect(owner.get_by_label(t["role"], exact=True)).to_have_count(1)
    three_widths(owner, f"new-users-members-{language}")

    # The owner makes a fundraiser with a jar and a product, through the page's own session.
    photo = base64.b64encode(make_png(480, 320)).decode()
    made = owner.evaluate(
        API_POST,
        ["/api/v1/fundraisers", {"purpose": "Дрон для бригади", "target": "10000",
                                 "jar_link": JAR_LINK, "template": 7, "photo": photo}],
    )
    assert made["status"] == 201, made
    fundraiser = f"/fundraisers/{made['body']['id']}"
    product = owner.evaluate(
        API_POST, ["/api/v1/products", {"name": "Rye loaf", "type": "Bread", "price": "3.40", "tax": "0"}]
    )
    assert product["status"] == 201, product

    # 3. The viewer's fundraiser page has no Refresh, and asks for none.
    viewer.goto(base + fundraiser)
    panel = viewer.locator(".fr-progress-panel")
    expect(panel).to_contain_text(t["no_data_viewer"])
    expect(panel).not_to_contain_text(t["press"])
    expect(viewer.get_by_role("button", name=t["refresh"])).to_have_count(0)
    three_widths(viewer, f"new-users-viewer-fundraiser-{language}")
    owner.goto(base + fundraiser)
    expect(owner.get_by_role("button", name=t["refresh"], exact=True)).to_be_visible()

    # 7. The public page shows the amounts behind the percentage, and when the jar said so.
    owner.get_by_role("button", name=t["refresh"], exact=True).click()
    owner.get_by_role("button", name=t["open_public"]).click()
    public_path = owner.locator("#fr-public-url").inner_text().strip()
    donor = new_page("phone", locale=t["locale"])
    donor.goto(base + public_path)
    main = donor.locator("main")
    expect(main).to_contain_text(t["progress"])
    expect(main).to_contain_text(t["collected"])
    expect(main).to_contain_text(t["goal"])
    expect(main).to_contain_text(t["as_of"])
    three_widths(donor, f"new-users-public-page-{language}")

    # 6. The editor has the product open when the owner removes them; the browser makes another
    # request first (another tab), then the form is saved: refused, saying they lost access.
    editor.goto(base + f"/products/{product['body']['id']}/edit")
    editor.locator('input[name="name"]').fill("Rye loaf (renamed)")
    owner.goto(base + "/settings/members")
    row = owner.locator(".member-row", has_text=editor_email)
    row.get_by_text(t["remove"], exact=True).click()
    row.get_by_role("button", name=t["remove_yes"]).click()
    other_tab = editor.context.new_page()
    other_tab.goto(base + "/products")
    other_tab.close()
    editor.get_by_role("button", name=t["save"]).click()
    expect(editor.locator("main")).to_contain_text(t["left"])
    expect(editor.locator("main")).not_to_contain_text(t["deleted"])
    expect(editor.locator("main")).not_to_contain_text(t["add_again"])
    three_widths(editor, f"new-users-removed-editor-{language}", reload=False)
    owner.goto(base + "/products")
    expect(owner.locator(".product-card", has_text="Rye loaf")).to_be_visible()
    expect(owner.locator(".product-card", has_text="renamed")).to_have_count(0)
