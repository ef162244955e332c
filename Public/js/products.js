// Products pages: search as you type, one-tap favourites, square photo cropping, and work
// without a network: the listing, the categories, the favourites and the search read the
// device's copy of the catalog when the page is not live, and adding, editing, deleting and
// hearts wait in the outbox until the server can be reached. Every page works without this
// file; it makes them quicker and lets them work offline.

import { t, tn } from "./i18n.js";
import { Outbox, csrfToken, isLocal, kindOf, newKey } from "./products-outbox.js";
import { checkProduct, pageRules } from "./product-rules.js";
import { catalog, offlineCopy, setOfflineBar, shortTime, syncCatalog } from "./app.js";
import { capitalized, listing, normalize } from "./catalog.js";
import {
  decimalSeparator,
  editHref,
  el,
  icon,
  listingQuery,
  localProducts,
  media,
  priceDisplay,
  renderListing,
  searchRules,
  typedDecimal,
} from "./products-offline.js";

const SEARCH_DELAY_MS = 300;
const CROP_MAX_SIDE = 1200;

// ------------------------------------------------------------------ helpers

const pageRoot = document.querySelector(".products-page, .product-form-page");
const data = pageRoot?.dataset ?? {};
const locale = data.locale || "en-US";
const currency = data.currency || "USD";
const sheet = searchRules();

/** The page's addresses (route templates with `:productID`), never written here. */
const routes = {
  list: data.routeList || "",
  form: data.outboxForm || "",
  new: data.outboxForm || "",
  edit: data.routeEdit || "",
  favorite: data.routeFavorite || "",
  favoriteApi: data.routeFavoriteApi || "",
  productApi: data.routeProductApi || "",
  photo: data.routePhoto || "",
};

function route(name, id = "") {
  return (routes[name] || "").replace(":productID", encodeURIComponent(id));
}

/** The product id in an edit form's address (`/products/<id>/edit`), or null. */
function editedProductID(path = location.pathname) {
  if (!routes.edit) return null;
  const pattern = new RegExp(
    "^" + routes.edit.split(":productID").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("([^/]+)") + "$",
  );
  const match = path.match(pattern);
  return match ? decodeURIComponent(match[1]) : null;
}

/** The page is a stored copy served by the service worker, or the network is gone. */
function notLive() {
  return offlineCopy !== undefined || !navigator.onLine;
}

// ------------------------------------------------------------------ outbox

let outbox = null;
const viewer = document.body?.dataset.role === "viewer";
if (pageRoot && "indexedDB" in window && data.outboxAccount && !viewer) {
  outbox = new Outbox({
    account: data.outboxAccount,
    api: data.outboxApi,
    locale,
    productApi: routes.productApi,
    favoriteApi: routes.favoriteApi,
  });
  outbox.addEventListener("change", (event) => {
    renderOutbox();
    const { sent, answer } = event.detail;
    if (sent) {
      if (kindOf(sent) === "create") uploaded.push(sent.name);
      afterSent(sent, answer);
    } else {
      refreshView();
    }
  });
  window.addEventListener("offline", () => {
    renderOutbox();
    showBar();
  });
  window.addEventListener("online", () => {
    renderOutbox();
    showBar();
  });
}

/** Names of the products this page saw reach the server. */
const uploaded = [];

/** What the server answered goes into the device's copy at once; a sync follows. */
async function afterSent(item, answer) {
  const copy = await catalog;
  try {
    if (copy && answer?.id && ["create", "edit"].includes(kindOf(item))) {
      await copy.remember({
        ...answer,
        name_key: sheet ? normalize(answer.name, sheet) : undefined,
        type_key: sheet ? normalize(answer.type, sheet) : undefined,
      });
    } else if (copy && kindOf(item) === "delete") {
      await copy.forget(item.productId);
    }
  } catch {
    // The sync below brings the same.
  }
  syncSoon();
}

let syncTimer = null;

function syncSoon() {
  clearTimeout(syncTimer);
  syncTimer = setTimeout(async () => {
    await syncCatalog();
    refreshView({ fromServer: true });
  }, 300);
}

// ------------------------------------------------------------------ the device's view

// The device's view and the thumbnails' addresses, worked out again only when the copy or
// the outbox changes (not on every keystroke of a search).
let view = null;
let viewRevision = -1;
let thumbsReady = null;

function forgetView() {
  view = null;
}

/** The catalog as this device sees it (copy + outbox), or null without a copy. */
function localView() {
  // Items changed in another tab are seen through the copy's or the outbox's events; in this
  // tab the outbox's revision says whether its items changed since the view was made.
  if (outbox && outbox.revision !== viewRevision) {
    view = null;
    viewRevision = outbox.revision;
  }
  if (!view) {
    view = (async () => {
      const copy = await catalog;
      if (!copy) return null;
      let products = [];
      try {
        products = await copy.products();
      } catch {
        return null;
      }
      const items = outbox ? await outbox.items().catch(() => []) : [];
      return localProducts(products, items, { sheet, locale, currency });
    })();
  }
  return view;
}

let thumbURLs = new Map();

function thumbnailURLs() {
  if (!thumbsReady) thumbsReady = makeThumbnailURLs();
  return thumbsReady;
}

async function makeThumbnailURLs() {
  const copy = await catalog;
  if (!copy) return new Map();
  const stored = await copy.thumbnails().catch(() => new Map());
  // The old addresses go a while later, not now: cards drawn with them may still be loading
  // their picture (revoked at once, the picture failed to show: ERR_FILE_NOT_FOUND).
  const old = [...thumbURLs.values()];
  if (old.length) setTimeout(() => old.forEach((url) => URL.revokeObjectURL(url)), 30_000);
  thumbURLs = new Map();
  const products = new Map((await copy.products().catch(() => [])).map((product) => [product.id, product]));
  for (const [id, entry] of stored) {
    if (products.get(id)?.image_url === entry.url) thumbURLs.set(id, URL.createObjectURL(entry.blob));
  }
  return thumbURLs;
}

/** "Offline — showing your copy from 14:05" while the page is not live. */
async function showBar() {
  if (!pageRoot) return;
  if (!notLive()) {
    setOfflineBar(null);
    return;
  }
  if (navigator.onLine) {
    // A stored copy while the network is back: the listing is the synced copy; a reload
    // brings the live page.
    setOfflineBar(t("app.offline.back"), { reload: true });
    return;
  }
  const copy = await catalog;
  const state = copy ? await copy.state().catch(() => null) : null;
  setOfflineBar(
    state ? t("products.offline.copy", { time: shortTime(new Date(state.syncedAt)) }) : t("products.offline.no_copy"),
  );
}

/** Items in the outbox that change what the listing shows. */
async function waitingItems() {
  if (!outbox) return [];
  return (await outbox.items().catch(() => [])).filter((item) => item.status !== "refused");
}

let renderedLocally = false;

/**
 * The listing drawn from the device when the page is not live, or while changes made here
 * wait (so they show in the grid, not only in the queue). Otherwise, once something this page
 * queued has reached the server, the live listing is read again.
 */
async function refreshView({ fromServer = false } = {}) {
  const root = document.querySelector(".products-page");
  if (!root) return;
  const waiting = (await waitingItems()).length > 0;
  if (notLive() || waiting) {
    const products = await localView();
    if (!products || !sheet) return;
    const thumbs = await thumbnailURLs();
    const rendered = renderListing(root, products, { sheet, locale, routes, thumbs, query: listingQuery() });
    renderedLocally = true;
    root.dataset.rendered = `device:${rendered.total}`;
    bindListing();
  } else if (renderedLocally || (fromServer && uploaded.length)) {
    renderedLocally = false;
    scheduleListingRefresh();
  }
}

// ------------------------------------------------------------------ outbox status

async function renderOutbox() {
  const section = document.getElementById("product-outbox");
  if (!section || !outbox) return;
  let items;
  try {
    items = await outbox.items();
  } catch {
    return; // IndexedDB unavailable (private mode in some browsers): nothing was queued.
  }
  const pending = items.filter((item) => item.status === "pending");
  const refused = items.filter((item) => item.status === "refused");
  const conflicts = items.filter((item) => item.status === "conflict");
  const children = [];

  if (pending.length > 0) {
    let note;
    if (!navigator.onLine) note = t("products.outbox.offline");
    else if (outbox.blocked) note = t("products.outbox.sign_in_again");
    else if (outbox.nextTryAt) {
      const seconds = Math.max(1, Math.round((outbox.nextTryAt - Date.now()) / 1000));
      note = t("products.outbox.retry_in", { seconds });
    } else note = t("products.outbox.uploading");
    children.push(
      el("div", { class: "outbox-summary" }, [
        el("p", {}, [
          el("strong", { class: "outbox-count", text: tn("products.outbox.waiting", pending.length) }),
          el("span", { class: "outbox-note", text: note }),
        ]),
        el("button", { type: "button", class: "button", "data-outbox-sync": "", text: t("products.outbox.sync_now") }),
      ]),
      el("ul", { class: "outbox-list" }, pending.map((item) => outboxItem(item))),
    );
  }
  if (conflicts.length > 0) {
    children.push(
      el("h2", { class: "outbox-heading", text: tn("products.outbox.conflict_heading", conflicts.length) }),
      el("ul", { class: "outbox-list" }, conflicts.map(conflictItem)),
    );
  }
  if (refused.length > 0) {
    children.push(
      el("h2", { class: "outbox-heading", text: tn("products.outbox.refused_heading", refused.length) }),
      el("p", { class: "muted small", text: t("products.outbox.refused_note") }),
      el("ul", { class: "outbox-list" }, refused.map(refusedItem)),
    );
  }
  if (uploaded.length > 0 && pending.length === 0) {
    const done = uploaded.length === 1
      ? t("products.outbox.done_one", { name: uploaded[0] })
      : tn("products.outbox.done_many", uploaded.length);
    children.push(el("p", { class: "outbox-done", text: done }));
  }
  section.replaceChildren(...children);
  section.hidden = children.length === 0;
  // "Saved on this device" is out of date once nothing is waiting any more.
  const status = document.getElementById("product-form-status");
  if (status && status.dataset.offlineNotice === "yes" && pending.length === 0) {
    status.hidden = true;
    delete status.dataset.offlineNotice;
  }
}

// A typed price ("19.99", "19,99" in de-DE) as an amount in the account's currency, the way
// the listing shows saved ones; as typed when it cannot be read for certain.
function priceText(typed) {
  const text = String(typed || "").trim();
  if (!text) return "";
  const price = typedDecimal(text, locale);
  if (price && currency) return priceDisplay(price, locale, currency);
  return currency ? `${text} ${currency}` : text;
}

function kindLabel(item) {
  switch (kindOf(item)) {
    case "edit": return t("products.outbox.kind_edit");
    case "delete": return t("products.outbox.kind_delete");
    case "favorite": return item.on ? t("products.outbox.kind_favorite_on") : t("products.outbox.kind_favorite_off");
    default: return t("products.outbox.kind_create");
  }
}

function thumb(item) {
  const media = item.photo
    ? el("img", { src: item.photo, alt: "", width: "48", height: "48", class: "outbox-thumb" })
    : el("span", { class: "outbox-thumb product-placeholder", "aria-hidden": "true" });
  if (!item.photo) media.innerHTML = icon("placeholder");
  return media;
}

function itemText(item) {
  const details = ["create", "edit"].includes(kindOf(item))
    ? [capitalized(String(item.type || "").trim()), priceText(item.price)].filter(Boolean).join(" · ")
    : "";
  return el("div", { class: "outbox-text" }, [
    el("strong", { class: "outbox-name", text: item.name || t("products.outbox.no_name") }),
    el("span", { class: "muted small", text: [kindLabel(item), details].filter(Boolean).join(" · ") }),
  ]);
}

function outboxItem(item) {
  return el("li", { class: "outbox-item", "data-outbox-id": item.id, "data-outbox-kind": kindOf(item) }, [
    thumb(item),
    itemText(item),
    el("span", { class: "outbox-badge", text: t("products.outbox.waiting_badge") }),
  ]);
}

function fixHref(item) {
  const hash = `#outbox=${encodeURIComponent(item.id)}`;
  return kindOf(item) === "edit" ? route("edit", item.productId) + hash : routes.form + hash;
}

function refusedItem(item) {
  const text = itemText(item);
  const messages = Object.values(item.error?.fields || {});
  text.append(
    el("ul", { class: "outbox-errors" }, (messages.length ? messages : [item.error?.message || t("products.outbox.refused")]).map(
      (message) => el("li", { text: message }),
    )),
  );
  const fixable = ["create", "edit"].includes(kindOf(item));
  return el("li", { class: "outbox-item outbox-refused", "data-outbox-id": item.id }, [
    thumb(item),
    text,
    el("div", { class: "outbox-actions" }, [
      fixable
        ? el("a", {
            class: "button",
            href: fixHref(item),
            text: t("products.outbox.fix"),
            "aria-label": t("products.outbox.fix_label", { name: item.name }),
          })
        : null,
      discardButton(item),
    ]),
  ]);
}

function discardButton(item) {
  return el("button", {
    type: "button",
    class: "button button-danger",
    "data-outbox-discard": item.id,
    text: t("products.outbox.discard"),
    "aria-label": t("products.outbox.discard_label", { name: item.name }),
  });
}

/** A conflict: what the device has and what the server has, side by side, and the choices. */
function conflictItem(item) {
  const server = item.error?.server;
  const kind = kindOf(item);
  let message;
  const actions = [];
  const choice = (value, label, danger = false) =>
    el("button", {
      type: "button",
      class: danger ? "button button-danger" : "button",
      "data-outbox-resolve": item.id,
      "data-choice": value,
      text: label,
    });
  if (!server) {
    message = t("products.outbox.conflict_gone", { name: item.name });
    actions.push(choice("again", t("products.outbox.add_again")), discardButton(item));
  } else if (kind === "delete") {
    message = t("products.outbox.conflict_delete", { name: item.name });
    actions.push(choice("mine", t("products.outbox.delete_anyway"), true), choice("theirs", t("products.outbox.keep_theirs")));
  } else {
    message = t("products.outbox.conflict_changed", { name: item.name });
    actions.push(choice("mine", t("products.outbox.keep_mine")), choice("theirs", t("products.outbox.keep_theirs")));
  }
  const rows = [];
  if (server && kind === "edit") {
    const fields = [
      ["name", t("products.outbox.field_name"), item.name, server.name],
      ["type", t("products.outbox.field_type"), item.type, server.type],
      ["price", t("products.outbox.field_price", { currency }), priceText(item.price), server.price_display],
      ["tax", t("products.outbox.field_tax"), item.tax, server.tax],
    ];
    for (const [name, label, mine, theirs] of fields) {
      if (String(mine).trim() === String(theirs).trim()) continue;
      rows.push(
        el("tr", { "data-field": name }, [
          el("th", { scope: "row", text: label }),
          el("td", { class: "conflict-mine", text: mine }),
          el("td", { class: "conflict-theirs", text: theirs }),
        ]),
      );
    }
  }
  const table = rows.length
    ? el("table", { class: "conflict-table" }, [
        el("thead", {}, [
          el("tr", {}, [
            el("td"),
            el("th", { scope: "col", text: t("products.outbox.yours") }),
            el("th", { scope: "col", text: t("products.outbox.theirs") }),
          ]),
        ]),
        el("tbody", {}, rows),
      ])
    : null;
  return el("li", { class: "outbox-item outbox-conflict", "data-outbox-id": item.id }, [
    thumb(item),
    el("div", { class: "outbox-text" }, [el("strong", { class: "outbox-name", text: message }), table]),
    el("div", { class: "outbox-actions" }, actions),
  ]);
}

document.addEventListener("click", async (event) => {
  if (!outbox) return;
  if (event.target.closest("[data-outbox-sync]")) {
    outbox.syncNow();
    return;
  }
  const resolve = event.target.closest("[data-outbox-resolve]");
  if (resolve) {
    const item = await outbox.get(resolve.dataset.outboxResolve);
    await outbox.resolve(resolve.dataset.outboxResolve, resolve.dataset.choice);
    if (resolve.dataset.choice === "theirs" && item?.error?.server) {
      (await catalog)?.remember(item.error.server).catch(() => {});
    }
    if (navigator.onLine) outbox.sync();
    return;
  }
  const discard = event.target.closest("[data-outbox-discard]");
  if (!discard) return;
  // Two steps, like the other destructive buttons: the first click asks.
  if (discard.dataset.confirming !== "yes") {
    discard.dataset.confirming = "yes";
    discard.textContent = t("products.outbox.discard_confirm");
    return;
  }
  await outbox.discard(discard.dataset.outboxDiscard);
});

// ------------------------------------------------------------------ listing: refresh after sync

let refreshTimer = null;

function scheduleListingRefresh() {
  if (!document.querySelector(".products-page")) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshListing, 400);
}

/** Re-reads the listing from the server so products that just synced appear in the grid. */
async function refreshListing() {
  const root = document.querySelector(".products-page");
  if (!root || notLive()) return;
  if (root.contains(document.activeElement) && document.activeElement.matches("input, select")) {
    scheduleListingRefresh(); // Not while someone is typing in the search box.
    return;
  }
  let doc;
  try {
    const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return;
    doc = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch {
    return;
  }
  const fresh = doc.querySelector(".products-page");
  if (!fresh) return;
  const status = root.querySelector("#product-outbox");
  const nodes = [...fresh.childNodes].map((node) =>
    node.id === "product-outbox" && status ? status : document.importNode(node, true),
  );
  root.replaceChildren(...nodes);
  delete root.dataset.rendered;
  bindListing();
}

async function refreshFavorites() {
  const current = document.getElementById("favorites");
  if (!current || renderedLocally) return;
  try {
    const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.getElementById("favorites");
    if (fresh) current.replaceWith(document.importNode(fresh, true));
  } catch {
    // The row catches up on the next page load.
  }
}

// ------------------------------------------------------------------ listing: favourites

const favoriteBusy = new Set();

function setFavoriteState(productID, on) {
  for (const form of document.querySelectorAll(`.favorite-form[data-product="${CSS.escape(productID)}"]`)) {
    const button = form.querySelector("button");
    if (!button.hasAttribute("aria-pressed")) continue; // the favourites row's remove buttons
    const name = form.dataset.name;
    const label = on
      ? t("products.favorite.remove", { name })
      : t("products.favorite.add", { name });
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("aria-label", label);
    button.title = label;
    form.querySelector('input[name="favorite"]').value = on ? "0" : "1";
  }
}

function announce(message) {
  const region = document.getElementById("products-announce") || document.body.appendChild(
    el("div", { id: "products-announce", class: "products-sr-only", role: "status", "aria-live": "polite" }),
  );
  region.textContent = message;
}

/** A heart tapped without a connection waits in the outbox; the page shows it at once. */
async function queueFavorite(form, productID, on) {
  await outbox.enqueueFavorite({ productId: productID, on, name: form.dataset.name });
  announce(on
    ? t("products.favorite.added", { name: form.dataset.name })
    : t("products.favorite.removed", { name: form.dataset.name }));
  refreshView();
}

// One tap changes the heart at once; the request states the wanted value (PUT or DELETE), so a
// repeat can never flip it back, and a failure restores the heart and says why.
document.addEventListener("submit", async (event) => {
  const form = event.target.closest(".favorite-form");
  if (!form) return;
  event.preventDefault();
  const productID = form.dataset.product;
  if (favoriteBusy.has(productID)) return;
  const on = form.querySelector('input[name="favorite"]').value === "1";
  const isToggle = form.querySelector("button").hasAttribute("aria-pressed");
  favoriteBusy.add(productID);
  setFavoriteState(productID, on);
  try {
    if (outbox && (notLive() || isLocal(productID))) {
      await queueFavorite(form, productID, on);
      return;
    }
    let response;
    try {
      response = await fetch(route("favoriteApi", productID), {
        method: on ? "PUT" : "DELETE",
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRF-Token": csrfToken() },
      });
    } catch (error) {
      // The network went away under the tap: it waits like any other change made offline.
      if (outbox) {
        await queueFavorite(form, productID, on);
        return;
      }
      throw error;
    }
    if (!response.ok) throw new Error(String(response.status));
    if (!isToggle && !on) form.closest("li")?.remove();
    announce(on
      ? t("products.favorite.added", { name: form.dataset.name })
      : t("products.favorite.removed", { name: form.dataset.name }));
    refreshFavorites();
    syncSoon();
  } catch {
    setFavoriteState(productID, !on);
    announce(navigator.onLine ? t("products.favorite.failed") : t("products.favorite.offline"));
  } finally {
    favoriteBusy.delete(productID);
  }
});

// ------------------------------------------------------------------ listing: search as you type

function bindListing() {
  const root = document.querySelector(".products-page");
  if (!root) return;
  root.classList.add("products-js");

  const sort = root.querySelector("#product-sort-order");
  if (sort && !sort.dataset.bound) {
    sort.dataset.bound = "yes";
    sort.addEventListener("change", () => sort.form.requestSubmit());
  }

  const input = root.querySelector("#product-q");
  const results = root.querySelector("#product-search-results");
  if (!input || !results || input.dataset.bound) return;
  input.dataset.bound = "yes";
  const api = input.dataset.api;
  let timer = null;
  let controller = null;
  let sequence = 0;

  const close = () => {
    results.hidden = true;
    results.replaceChildren();
  };

  // Search runs once typing has paused for SEARCH_DELAY_MS; a newer search cancels the older
  // request, and an answer that arrives late is dropped by its sequence number. Without a
  // network the device's copy answers, at once.
  async function search(term) {
    controller?.abort();
    controller = new AbortController();
    const mine = ++sequence;
    if (notLive() || !api) {
      await searchCopy(term, mine);
      return;
    }
    const url = `${api}?${new URLSearchParams({ q: term, per: "8", sort: "name" })}`;
    let body;
    try {
      const response = await fetch(url, {
        signal: controller.signal,
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(String(response.status));
      body = await response.json();
    } catch (error) {
      if (error.name === "AbortError" || mine !== sequence) return;
      if (await searchCopy(term, mine)) return;
      results.replaceChildren(el("p", { class: "search-empty", text: navigator.onLine ? t("products.search.failed") : t("products.search.offline") }));
      results.hidden = false;
      return;
    }
    if (mine !== sequence) return;
    renderResults(term, body.items, body.total, false);
  }

  /** The search in the device's copy; false when there is no copy to search. */
  async function searchCopy(term, mine) {
    const products = await localView();
    if (!products || !sheet || mine !== sequence) return false;
    const found = listing(products, { q: term, sort: "name", per: 8 }, sheet);
    const thumbs = await thumbnailURLs();
    if (mine !== sequence) return true;
    renderResults(term, found.items, found.total, true, thumbs);
    return true;
  }

  function renderResults(term, items, total, fromCopy, thumbs = null) {
    if (items.length === 0) {
      results.replaceChildren(el("p", { class: "search-empty", text: t("products.search.not_found") }));
      results.hidden = false;
      return;
    }
    const list = el("ul", { class: "search-list" }, items.map((product) => searchItem(product, thumbs)));
    const all = el("p", { class: "search-all" }, [
      el("a", {
        href: `${location.pathname}?${new URLSearchParams({ q: term })}`,
        text: total > items.length
          ? t("products.search.show_all", { total })
          : t("products.search.show_these"),
      }),
    ]);
    results.replaceChildren(
      list,
      fromCopy ? el("p", { class: "muted small search-copy", text: t("products.offline.search_copy") }) : null,
      all,
    );
    results.hidden = false;
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const term = input.value.trim();
    if (!term) {
      controller?.abort();
      sequence += 1;
      close();
      return;
    }
    // The device's copy answers at once; the server after a pause, one request per pause.
    timer = setTimeout(() => search(term), notLive() ? 0 : SEARCH_DELAY_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  document.addEventListener("click", (event) => {
    if (!results.hidden && !event.target.closest("#product-search")) close();
  });
}

function searchItem(product, thumbs) {
  const picture = thumbs ? media(product, thumbs, true, routes).querySelector("img") : null;
  const source = picture?.getAttribute("src") || (!thumbs ? product.image_url : null);
  const box = el("span", { class: "search-media" + (source ? "" : " product-placeholder") });
  if (source) box.append(el("img", { src: source, alt: "", width: "48", height: "48", loading: "lazy" }));
  else box.innerHTML = icon("placeholder");
  const link = el("a", { class: "search-link", href: editHref(product, routes) }, [
    box,
    el("span", { class: "search-text" }, [
      el("span", { class: "search-name", text: product.name }),
      el("span", { class: "search-meta", text: `${product.type} · ${product.price_display}` }),
    ]),
  ]);
  const label = product.favorite
    ? t("products.favorite.remove", { name: product.name })
    : t("products.favorite.add", { name: product.name });
  const button = el("button", {
    type: "submit",
    class: "heart",
    "aria-pressed": product.favorite ? "true" : "false",
    "aria-label": label,
    title: label,
  });
  button.innerHTML = icon("heart");
  const form = el("form", {
    class: "favorite-form",
    method: "post",
    action: route("favorite", product.id),
    "data-product": product.id,
    "data-name": product.name,
  }, [
    el("input", { type: "hidden", name: "_csrf", value: csrfToken() }),
    el("input", { type: "hidden", name: "favorite", value: product.favorite ? "0" : "1" }),
    el("input", { type: "hidden", name: "back", value: location.pathname + location.search }),
    button,
  ]);
  return el("li", { class: "search-item" }, [link, form]);
}

// ------------------------------------------------------------------ form: photo crop

/** The chosen photo and the square part of it that will be uploaded. */
const crop = { image: null, side: 0, x: 0, y: 0, dataURL: null };

function bindPhoto(form) {
  const input = form.querySelector("#field-photo");
  const box = form.querySelector("#photo-crop");
  const canvas = form.querySelector("#photo-crop-canvas");
  const clear = form.querySelector("#photo-crop-clear");
  if (!input || !box || !canvas) return;
  const context = canvas.getContext("2d");
  // With this script the photo is scaled down before upload; the hint says so.
  const hint = form.querySelector("#field-photo-hint");
  if (hint?.dataset.scriptHint) hint.textContent = hint.dataset.scriptHint;

  const draw = () => {
    if (!crop.image) return;
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(crop.image, crop.x, crop.y, crop.side, crop.side, 0, 0, canvas.width, canvas.height);
  };
  const clamp = () => {
    crop.x = Math.min(Math.max(0, crop.x), crop.image.width - crop.side);
    crop.y = Math.min(Math.max(0, crop.y), crop.image.height - crop.side);
  };

  input.addEventListener("change", async () => {
    const file = input.files[0];
    crop.image = null;
    crop.dataURL = null;
    box.hidden = true;
    if (!file) return;
    try {
      crop.image = await loadImage(file);
    } catch {
      return; // Not an image the browser can read: the server will say what is wrong.
    }
    crop.side = Math.min(crop.image.width, crop.image.height);
    crop.x = (crop.image.width - crop.side) / 2;
    crop.y = (crop.image.height - crop.side) / 2;
    box.hidden = false;
    draw();
  });

  // Drag (mouse, finger or pen) or arrow keys move the square over the photo.
  let drag = null;
  canvas.tabIndex = 0;
  canvas.addEventListener("pointerdown", (event) => {
    if (!crop.image) return;
    drag = { x: event.clientX, y: event.clientY };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!drag || !crop.image) return;
    const scale = crop.side / canvas.getBoundingClientRect().width;
    crop.x -= (event.clientX - drag.x) * scale;
    crop.y -= (event.clientY - drag.y) * scale;
    drag = { x: event.clientX, y: event.clientY };
    clamp();
    draw();
  });
  canvas.addEventListener("pointerup", () => { drag = null; });
  canvas.addEventListener("pointercancel", () => { drag = null; });
  canvas.addEventListener("keydown", (event) => {
    const step = crop.side / 20;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const move = moves[event.key];
    if (!move || !crop.image) return;
    event.preventDefault();
    crop.x += move[0];
    crop.y += move[1];
    clamp();
    draw();
  });
  clear?.addEventListener("click", () => {
    input.value = "";
    crop.image = null;
    crop.dataURL = null;
    box.hidden = true;
    input.focus();
  });

  return {
    /** Shows a queued item's photo (already square) while it is being fixed. */
    showDataURL(dataURL) {
      const image = new Image();
      image.onload = () => {
        crop.image = image;
        crop.side = Math.min(image.width, image.height);
        crop.x = (image.width - crop.side) / 2;
        crop.y = (image.height - crop.side) / 2;
        crop.dataURL = dataURL;
        box.hidden = false;
        draw();
      };
      image.src = dataURL;
    },
  };
}

function loadImage(file) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable image"));
    };
    image.src = url;
  });
}

/** The chosen square as a JPEG blob (white behind transparent PNG parts), or null. */
function croppedBlob() {
  if (!crop.image) return Promise.resolve(null);
  const side = Math.round(Math.min(crop.side, CROP_MAX_SIDE));
  const canvas = document.createElement("canvas");
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, side, side);
  context.drawImage(crop.image, crop.x, crop.y, crop.side, crop.side, 0, 0, side, side);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
}

function readAsDataURL(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
// ------------------------------------------------------------------ form: submit and offline

function showFieldErrors(form, fields) {
  for (const name of ["name", "type", "price", "tax", "photo"]) {
    const message = fields[name];
    const slot = form.querySelector(`#field-${name}-error`);
    const input = form.querySelector(`#field-${name}`);
    if (!slot) continue;
    slot.textContent = message || "";
    slot.hidden = !message;
    slot.closest(".field")?.classList.toggle("field-invalid", Boolean(message));
    if (message) input?.setAttribute("aria-invalid", "true");
    else input?.removeAttribute("aria-invalid");
  }
}

function showStatus(message, kind = "success", offlineNotice = false) {
  const status = document.getElementById("product-form-status");
  if (!status) return;
  status.className = `form-status flash flash-${kind}`;
  status.textContent = message;
  status.hidden = false;
  if (offlineNotice) status.dataset.offlineNotice = "yes";
  else delete status.dataset.offlineNotice;
}

/** A dot decimal ("1694.92") as the form's locale types it ("1694,92"). */
function typed(decimal) {
  if (decimal === null || decimal === undefined || decimal === "") return "";
  return String(decimal).replace(".", decimalSeparator(locale));
}

/**
 * The stored Add form, served offline for a product's edit address the device never opened:
 * made into that product's form (title, button, photo, delete).
 */
function convertToEdit(form, product) {
  document.querySelector(".product-form-page h1").textContent = t("products.offline.edit_title");
  document.title = `${t("products.offline.edit_title")} · Backoffice`;
  const submit = form.querySelector("#product-submit");
  if (submit) submit.textContent = t("products.offline.save");
  form.removeAttribute("data-outbox");
  if (product?.image_url || product?.photo) {
    const current = el("div", { class: "current-photo" }, [
      media(product, thumbURLs, true, routes),
      el("label", { class: "check" }, [
        el("input", { type: "checkbox", name: "remove_photo", value: "1" }),
        document.createTextNode(" " + t("products.offline.remove_photo")),
      ]),
    ]);
    form.querySelector("#field-photo")?.before(current);
  }
  const zone = el("div", { class: "danger-zone" }, [
    el("button", { type: "button", class: "button button-danger", id: "offline-delete", text: t("products.offline.delete") }),
  ]);
  document.querySelector(".product-form-page")?.append(zone);
}

function bindForm() {
  const form = document.getElementById("product-form");
  if (!form) return;
  const photo = bindPhoto(form);
  const keyField = form.querySelector('input[name="idempotency_key"]');
  const submit = form.querySelector("#product-submit");
  const editID = editedProductID();
  const stored = form.dataset.outbox === "create" && editID !== null; // the Add form, standing in
  let fixing = null; // the outbox item being fixed
  let editing = null; // the product being edited, as the device sees it

  // A page restored from the offline cache or the back/forward cache must not reuse the key of
  // an earlier submit, or the server would answer with that product instead of saving this one.
  const freshKey = () => { if (keyField) keyField.value = newKey(); };
  freshKey();
  window.addEventListener("pageshow", (event) => { if (event.persisted) freshKey(); });

  // Not live: the product's values come from the device (the stored page may be older).
  const ready = (async () => {
    if (!editID || !(notLive() || stored)) return;
    const products = await localView();
    editing = products?.find((product) => product.id === editID) ?? null;
    if (stored) convertToEdit(form, editing);
    if (!editing) {
      showStatus(t("products.offline.not_in_copy"), "error");
      if (submit) submit.disabled = true;
      return;
    }
    if (location.hash.startsWith("#outbox=")) return;
    for (const name of ["name", "type"]) {
      const input = form.querySelector(`#field-${name}`);
      if (input) input.value = editing[name] ?? "";
    }
    for (const name of ["price", "tax"]) {
      const input = form.querySelector(`#field-${name}`);
      if (input) input.value = typed(editing[name]);
    }
  })();

  // "Fix" links to this form with #outbox=<id>; the outbox list on this same page only changes
  // the hash, so listen for that too.
  const loadFix = () => {
    const match = location.hash.match(/^#outbox=(.+)$/);
    if (!match || !outbox) return;
    outbox.get(decodeURIComponent(match[1])).then((item) => {
      if (!item) return;
      fixing = item;
      for (const name of ["name", "type", "price", "tax"]) {
        const input = form.querySelector(`#field-${name}`);
        if (input) input.value = item[name] || "";
      }
      if (item.photo) photo?.showDataURL(item.photo);
      showFieldErrors(form, item.error?.fields || {});
      const fields = item.error?.fields || {};
      const unknown = Object.keys(fields).filter((key) => !["name", "type", "price", "tax", "photo"].includes(key));
      if (item.status === "refused") {
        showStatus(
          t("products.form.fix_status") +
            (unknown.length ? " " + unknown.map((key) => fields[key]).join(" ") : ""),
          "info",
        );
      }
      if (submit) submit.textContent = t("products.form.save_and_upload");
      form.querySelector("#field-name").focus();
    });
  };
  loadFix();
  window.addEventListener("hashchange", loadFix);

  async function queueDelete() {
    await ready;
    if (!editing || !outbox) return;
    await outbox.enqueueDelete({
      productId: editID,
      baseVersion: editing.version ?? Number(form.querySelector('input[name="version"]')?.value || 0),
      name: editing.name,
    });
    location.href = routes.list;
  }

  // Deleting without a connection: the stored edit page's own confirmation, or the one added
  // to the Add form standing in for it.
  document.querySelector(".danger-zone")?.addEventListener("submit", (event) => {
    if (!notLive() || !outbox) return;
    event.preventDefault();
    queueDelete();
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("#offline-delete");
    if (!button) return;
    if (button.dataset.confirming !== "yes") {
      button.dataset.confirming = "yes";
      button.textContent = t("products.offline.delete_yes");
      const question = el("p", { class: "muted", text: t("products.offline.delete_confirm", { name: editing?.name ?? "" }) });
      button.before(question);
      return;
    }
    queueDelete();
  });

  form.addEventListener("submit", async (event) => {
    if (form.dataset.submitting === "yes") {
      event.preventDefault();
      return;
    }
    const offline = notLive();
    const queue = Boolean(outbox) && (offline || fixing) && (editID ? true : form.dataset.outbox === "create");
    event.preventDefault();
    form.dataset.submitting = "yes";
    if (submit) submit.disabled = true;
    try {
      const blob = await croppedBlob();
      if (!queue) {
        // Online: the normal form post, with the cropped square instead of the original file.
        if (blob && window.DataTransfer) {
          const input = form.querySelector("#field-photo");
          const transfer = new DataTransfer();
          transfer.items.add(new File([blob], "photo.jpg", { type: "image/jpeg" }));
          input.files = transfer.files;
        }
        form.submit();
        return;
      }
      let photoData = crop.dataURL;
      if (blob) photoData = await readAsDataURL(blob);
      else {
        const raw = form.querySelector("#field-photo")?.files?.[0];
        if (raw) photoData = await readAsDataURL(raw); // Unreadable here: let the server judge.
      }
      const values = {
        name: form.querySelector("#field-name").value,
        type: form.querySelector("#field-type").value,
        price: form.querySelector("#field-price").value,
        tax: form.querySelector("#field-tax").value,
        photo: photoData || null,
      };
      // What the server would refuse is said now, by its own rules and words, and not queued.
      const rules = pageRules();
      const problems = rules ? checkProduct(values, rules) : {};
      if (Object.keys(problems).length) {
        showFieldErrors(form, problems);
        showStatus(t("products.form.not_saved_offline"), "error");
        form.querySelector(`#field-${Object.keys(problems)[0]}`)?.focus();
        return;
      }
      if (editID) {
        await ready;
        const removePhoto = Boolean(form.querySelector('input[name="remove_photo"]')?.checked);
        if (fixing) {
          await outbox.update(fixing.id, { ...values, removePhoto });
          fixing = null;
        } else {
          if (!editing) return;
          await outbox.enqueueEdit({
            productId: editID,
            baseVersion: editing.version ?? Number(form.querySelector('input[name="version"]')?.value || 0),
            ...values,
            removePhoto,
          });
        }
        showStatus(t("products.offline.saved_edit"), "info", true);
        if (navigator.onLine) outbox.sync();
        location.href = routes.list;
        return;
      }
      if (fixing) {
        await outbox.update(fixing.id, values);
        fixing = null;
        history.replaceState(null, "", location.pathname);
        if (navigator.onLine) {
          location.href = route("list");
          return;
        }
      } else {
        await outbox.enqueue(values);
      }
      form.reset();
      crop.image = null;
      crop.dataURL = null;
      form.querySelector("#photo-crop").hidden = true;
      showFieldErrors(form, {});
      freshKey();
      if (submit) submit.textContent = t("products.form.upload");
      showStatus(
        t("products.form.saved_offline"),
        "info",
        true,
      );
      form.querySelector("#field-name").focus();
      if (navigator.onLine) outbox.sync();
    } catch {
      showStatus(t("products.form.save_failed"), "error");
    } finally {
      delete form.dataset.submitting;
      if (submit) submit.disabled = false;
    }
  });
}

// ------------------------------------------------------------------ start

bindListing();
bindForm();
if (outbox) {
  renderOutbox();
  outbox.start();
}
if (pageRoot) {
  showBar();
  refreshView();
  catalog.then((copy) => {
    copy?.addEventListener("change", () => {
      forgetView();
      thumbsReady = null;
      showBar();
      refreshView();
    });
    copy?.addEventListener("synced", () => showBar());
    copy?.addEventListener("thumbnails", () => {
      thumbsReady = null;
      if (renderedLocally) refreshView();
    });
  });
}
