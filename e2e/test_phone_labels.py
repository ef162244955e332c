"""Every tab of the phone's tab bar, every field's label and hint and every search box's hint
fits its box at 320 px and 375 px, in English and in Ukrainian: no text runs out of its box
into a neighbour, and none is cut short with an ellipsis.

The pages are those of the accessibility pass (test_accessibility.py): every page of the route
table as the workspace's owner, who sees every form, and the signed-out ones. A hint in a box
(the placeholder of a search or another field) is measured in the box's font against the room
inside its padding, since a browser cuts it silently.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from conftest import DESKTOP, shot
from test_accessibility import LANGUAGES, LOCALES, Workspace, new_context, workspace  # noqa: F401

WIDTHS = (320, 375)
HEIGHT = 740

# Texts that have to fit: the tabs and the account's links, labels, legends, hints, buttons.
MEASURED = ("nav.main-nav a, nav.account-nav a, nav.account-nav button, label, legend, .hint,"
            " [id$='-hint'], button, .button")

# What does not fit, as "what: why" lines. A text overflows when its box scrolls (it is wider
# than the box, or cut with an ellipsis) or when a line of it lies outside the box (a long
# word sticking out of a centred tab), and the page must not be wider than the screen. Text
# hidden on purpose (read only by assistive technology) is not measured.
OVERFLOWS = """(selector) => {
  const problems = [];
  const name = (el) => {
    const text = (el.innerText || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    return `${el.tagName.toLowerCase()}${cls} “${text.slice(0, 60)}”`;
  };
  const hiddenOnPurpose = (node, root) => {
    for (let el = node; el && el !== root.parentElement; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.clipPath !== 'none' || style.clip !== 'auto') return true;
      if (style.overflow === 'hidden' && el.getBoundingClientRect().width <= 1) return true;
    }
    return false;
  };
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 1
    && !hiddenOnPurpose(el, document.body);
  for (const el of document.querySelectorAll(selector)) {
    if (!shown(el)) continue;
    const inline = getComputedStyle(el).display === 'inline';
    const frame = inline ? el.parentElement : el;
    if (!inline && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)}: needs ${el.scrollWidth} px, has ${el.clientWidth} px`);
      continue;
    }
    const box = frame.getBoundingClientRect();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    outer: for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || hiddenOnPurpose(node.parentElement, el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of range.getClientRects()) {
        if (line.width > 0 && (line.left < box.left - 0.5 || line.right > box.right + 0.5)) {
          problems.push(`${name(el)}: “${node.textContent.trim().slice(0, 40)}” spans `
            + `${line.left.toFixed(1)}–${line.right.toFixed(1)} px, its box `
            + `${box.left.toFixed(1)}–${box.right.toFixed(1)} px`);
          break outer;
        }
      }
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll('body *')].filter(el => shown(el)
      && el.getBoundingClientRect().right > window.innerWidth + 0.5
      && !el.closest('nav.main-nav')).slice(0, 3).map(name);
    problems.push(`the page is ${page.scrollWidth} px wide: ${wide.join(', ')}`);
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const input of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (!shown(input) || !input.matches(':placeholder-shown')) continue;
    const style = getComputedStyle(input, '::placeholder');
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    canvas.letterSpacing = style.letterSpacing === 'normal' ? '0px' : style.letterSpacing;
    const own = getComputedStyle(input);
    const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
    const needs = canvas.measureText(input.placeholder).width;
    if (needs > room + 0.5) {
      problems.push(`hint of ${input.tagName.toLowerCase()}#${input.id} “${input.placeholder}”:`
        + ` needs ${needs.toFixed(1)} px, has ${room.toFixed(1)} px`);
    }
  }
  return problems;
}"""


def overflows(page: Page) -> list[str]:
    return page.evaluate(OVERFLOWS, MEASURED)


def check_pages(page: Page, base: str, paths: list[str], found: dict[str, list[str]]) -> None:
    for path in paths:
        page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
        page.goto(base + path)
        for width in WIDTHS:  # the page laid out again at each width, without loading it again
            page.set_viewport_size({"width": width, "height": HEIGHT})
            for problem in overflows(page):
                found.setdefault(problem, []).append(f"{path} at {width} px")


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{problem}\n    on {', '.join(places[:6])}"
                     + (f" (+{len(places) - 6})" if len(places) > 6 else "")
                     for problem, places in sorted(found.items()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_and_hint_fits_a_phone(workspace: Workspace, language: str) -> None:
    workspace.set_language("owner", language)
    page = workspace.page("owner")
    found: dict[str, list[str]] = {}
    try:
        check_pages(page, workspace.server.base_url, workspace.pages, found)
        # The tab bar was measured on every page, so with each area's tab marked current.
        assert page.locator("nav.main-nav a").count() == 6
        # Screenshots of what this changes: the tab bar and the products page.
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT})
            page.goto(workspace.url("/marketing"))
            shot(page, f"phone-labels-marketing-{language}-{width}")
            page.goto(workspace.url("/products"))
            shot(page, f"phone-labels-products-{language}-{width}")
        page.set_viewport_size(DESKTOP)
        page.goto(workspace.url("/products"))
        shot(page, f"phone-labels-products-{language}-desktop")
    finally:
        page.set_viewport_size(DESKTOP)
    assert not found, f"texts that do not fit, as the owner in {language}:\n{report(found)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_signed_out_label_and_hint_fits_a_phone(browser: Browser, workspace: Workspace,
                                                      language: str) -> None:
    context = new_context(browser, locale=LOCALES[language])
    found: dict[str, list[str]] = {}
    try:
        check_pages(context.pages[0], workspace.server.base_url, workspace.outside_pages, found)
    finally:
        context.close()
    assert not found, f"texts that do not fit, signed out in {language}:\n{report(found)}"
