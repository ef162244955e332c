// Products pages: search as you type, one-tap favourites, square photo cropping, and the
// offline outbox. Every page works without this file; it only makes them quicker and lets
// Add Product work offline.

import { t, tn } from "./i18n.js";
import { Outbox, csrfToken, newKey } from "./products-outbox.js";
import { checkProduct, pageRules } from "./product-rules.js";

const SEARCH_DELAY_MS = 300;
const CROP_MAX_SIDE = 1200;

/** The markup of an icon the page carries in a <template> (one source: the server's views). */
function icon(name) {
  return document.getElementById(`icon-${name}`)?.innerHTML ?? "";
}

// ------------------------------------------------------------------ helpers

function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const pageRoot = document.querySelector(".products-page, .product-form-page");

/**
 * An address the page gave: `data-route-<name>` holds a route template such as
 * `/products/:productID/edit`, filled with `id`.
 */
function route(name, id = "") {
  const template = pageRoot?.dataset[`route${name[0].toUpperCase()}${name.slice(1)}`] ?? "";
  return template.replace(":productID", encodeURIComponent(id));
}

// ------------------------------------------------------------------ service worker

// The page gives the worker's address; its scope is the folder it is served from (the root).
const serviceWorker = pageRoot?.dataset.serviceWorker;
if (serviceWorker && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(serviceWorker).catch(() => {
    // Without a service worker the pages still work online; only offline support is missing.
  });
  // The listing and the Add form are stored for offline use even if never opened: ask the
  // worker to fetch whichever is missing (after a new sign-in the stored pages are gone).
  navigator.serviceWorker.ready
    .then((registration) => registration.active?.postMessage({ type: "warm" }))
    .catch(() => {});
}

// ------------------------------------------------------------------ outbox status

let outbox = null;
if (pageRoot && "indexedDB" in window && pageRoot.dataset.outboxAccount) {
  outbox = new Outbox({
    account: pageRoot.dataset.outboxAccount,
    api: pageRoot.dataset.outboxApi,
    locale: pageRoot.dataset.locale,
  });
  outbox.addEventListener("change", (event) => {
    renderOutbox();
    if (event.detail.sent) {
      uploaded.push(event.detail.sent.name);
      scheduleListingRefresh();
    }
  });
  window.addEventListener("offline", renderOutbox);
  window.addEventListener("online", renderOutbox);
}

/** Names of the products this page saw reach the server. */
const uploaded = [];

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
      el("ul", { class: "outbox-list" }, pending.map((item) => outboxItem(item, false))),
    );
  }
  if (refused.length > 0) {
    children.push(
      el("h2", { class: "outbox-heading", text: tn("products.outbox.refused_heading", refused.length) }),
      el("p", { class: "muted small", text: t("products.outbox.refused_note") }),
      el("ul", { class: "outbox-list" }, refused.map((item) => outboxItem(item, true))),
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

// A waiting product's type as the category chips write it: each word capitalised unless it
// already has a capital ("service" → "Service", "iPhone" stays).
function typeTitle(type) {
  return String(type || "")
    .trim()
    .split(/(\s+)/)
    .map((word) => (/\p{Lu}/u.test(word) ? word : word.charAt(0).toLocaleUpperCase() + word.slice(1)))
    .join("");
}

// A typed price ("19.99", "19,99" in de-DE) as an amount in the account's currency, the way
// the listing shows saved ones; as typed when it is not a number.
function priceText(typed) {
  const text = String(typed || "").trim();
  if (!text) return "";
  const locale = pageRoot?.dataset.locale || "en-US";
  const currency = pageRoot?.dataset.currency;
  try {
    const decimal = (1.5).toLocaleString(locale).charAt(1);
    const plain = text.replace(/[\s\u00a0\u202f]/g, "").split(decimal === "," ? "." : ",").join("").replace(decimal, ".");
    const amount = Number(plain);
    if (!currency || !/^\d+(\.\d+)?$/.test(plain) || !Number.isFinite(amount)) {
      return currency ? `${text} ${currency}` : text;
    }
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);
  } catch {
    return currency ? `${text} ${currency}` : text;
  }
}

function outboxItem(item, refused) {
  const media = item.photo
    ? el("img", { src: item.photo, alt: "", width: "48", height: "48", class: "outbox-thumb" })
    : el("span", { class: "outbox-thumb product-placeholder", "aria-hidden": "true" });
  if (!item.photo) media.innerHTML = icon("placeholder");
  const text = el("div", { class: "outbox-text" }, [
    el("strong", { class: "outbox-name", text: item.name || t("products.outbox.no_name") }),
    el("span", { class: "muted small", text: [typeTitle(item.type), priceText(item.price)].filter(Boolean).join(" · ") }),
  ]);
  if (!refused) {
    return el("li", { class: "outbox-item", "data-outbox-id": item.id }, [
      media,
      text,
      el("span", { class: "outbox-badge", text: t("products.outbox.waiting_badge") }),
    ]);
  }
  const messages = Object.values(item.error?.fields || {});
  text.append(
    el("ul", { class: "outbox-errors" }, (messages.length ? messages : [item.error?.message || t("products.outbox.refused")]).map(
      (message) => el("li", { text: message }),
    )),
  );
  return el("li", { class: "outbox-item outbox-refused", "data-outbox-id": item.id }, [
    media,
    text,
    el("div", { class: "outbox-actions" }, [
      el("a", {
        class: "button",
        href: `${pageRoot.dataset.outboxForm}#outbox=${encodeURIComponent(item.id)}`,
        text: t("products.outbox.fix"),
        "aria-label": t("products.outbox.fix_label", { name: item.name }),
      }),
      el("button", {
        type: "button",
        class: "button button-danger",
        "data-outbox-discard": item.id,
        text: t("products.outbox.discard"),
        "aria-label": t("products.outbox.discard_label", { name: item.name }),
      }),
    ]),
  ]);
}

document.addEventListener("click", async (event) => {
  if (!outbox) return;
  if (event.target.closest("[data-outbox-sync]")) {
    outbox.syncNow();
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
  if (!root) return;
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
  bindListing();
}

async function refreshFavorites() {
  const current = document.getElementById("favorites");
  if (!current) return;
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
  for (const form of document.querySelectorAll(`.favorite-form[data-product="${productID}"]`)) {
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
    const response = await fetch(route("favoriteApi", productID), {
      method: on ? "PUT" : "DELETE",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRF-Token": csrfToken() },
    });
    if (!response.ok) throw new Error(String(response.status));
    if (!isToggle && !on) form.closest("li")?.remove();
    announce(on
      ? t("products.favorite.added", { name: form.dataset.name })
      : t("products.favorite.removed", { name: form.dataset.name }));
    refreshFavorites();
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
  sort?.addEventListener("change", () => sort.form.submit());

  const input = root.querySelector("#product-q");
  const results = root.querySelector("#product-search-results");
  if (!input || !results) return;
  const api = input.dataset.api;
  let timer = null;
  let controller = null;
  let sequence = 0;

  const close = () => {
    results.hidden = true;
    results.replaceChildren();
  };

  // Search runs once typing has paused for SEARCH_DELAY_MS; a newer search cancels the older
  // request, and an answer that arrives late is dropped by its sequence number.
  async function search(term) {
    controller?.abort();
    controller = new AbortController();
    const mine = ++sequence;
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
      results.replaceChildren(el("p", { class: "search-empty", text: navigator.onLine ? t("products.search.failed") : t("products.search.offline") }));
      results.hidden = false;
      return;
    }
    if (mine !== sequence) return;
    renderResults(term, body);
  }

  function renderResults(term, body) {
    if (body.items.length === 0) {
      results.replaceChildren(el("p", { class: "search-empty", text: t("products.search.not_found") }));
      results.hidden = false;
      return;
    }
    const list = el("ul", { class: "search-list" }, body.items.map(searchItem));
    const all = el("p", { class: "search-all" }, [
      el("a", {
        href: `${location.pathname}?${new URLSearchParams({ q: term })}`,
        text: body.total > body.items.length
          ? t("products.search.show_all", { total: body.total })
          : t("products.search.show_these"),
      }),
    ]);
    results.replaceChildren(list, all);
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
    timer = setTimeout(() => search(term), SEARCH_DELAY_MS);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  document.addEventListener("click", (event) => {
    if (!results.hidden && !event.target.closest("#product-search")) close();
  });
}

function searchItem(product) {
  const media = el("span", { class: "search-media" + (product.image_url ? "" : " product-placeholder") });
  if (product.image_url) media.append(el("img", { src: product.image_url, alt: "", width: "48", height: "48", loading: "lazy" }));
  else media.innerHTML = icon("placeholder");
  const link = el("a", { class: "search-link", href: route("edit", product.id) }, [
    media,
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

function bindForm() {
  const form = document.getElementById("product-form");
  if (!form) return;
  const photo = bindPhoto(form);
  const keyField = form.querySelector('input[name="idempotency_key"]');
  const submit = form.querySelector("#product-submit");
  let fixing = null; // the outbox item being fixed

  // A page restored from the offline cache or the back/forward cache must not reuse the key of
  // an earlier submit, or the server would answer with that product instead of saving this one.
  const freshKey = () => { if (keyField) keyField.value = newKey(); };
  freshKey();
  window.addEventListener("pageshow", (event) => { if (event.persisted) freshKey(); });

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
      showStatus(
        t("products.form.fix_status") +
          (unknown.length ? " " + unknown.map((key) => fields[key]).join(" ") : ""),
        "info",
      );
      if (submit) submit.textContent = t("products.form.save_and_upload");
      form.querySelector("#field-name").focus();
    });
  };
  loadFix();
  window.addEventListener("hashchange", loadFix);

  form.addEventListener("submit", async (event) => {
    if (form.dataset.submitting === "yes") {
      event.preventDefault();
      return;
    }
    const offline = !navigator.onLine;
    const queue = Boolean(outbox) && form.dataset.outbox === "create" && (offline || fixing);
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
