// The offline outbox: what is done to the catalog without a connection — products added,
// edited or deleted, hearts tapped — waits in IndexedDB, in order, and is sent when the
// server can be reached. Every item carries its own Idempotency-Key, so sending it twice (a
// retry after a lost answer, two tabs at once) still does it once; an edit or delete carries
// the version it was made on (If-Match), so a product changed on the server meanwhile is a
// conflict for the user to settle, never a silent overwrite. An item is deleted only after
// the server confirmed it, or when the user discards it.

import { t } from "./i18n.js";

const DB_NAME = "backoffice-outbox";
const STORE = "products";
const DB_VERSION = 1;
const FIRST_DELAY_MS = 2000;
const MAX_DELAY_MS = 60000;
// The longest one upload may take (a photo on a slow line fits well within it); a request the
// server never answers is given up and tried again instead of "Uploading…" for ever.
export const REQUEST_LIMIT_MS = 20000;

// ------------------------------------------------------------------ storage

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let dbPromise = null;

function openDB() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const open = indexedDB.open(DB_NAME, DB_VERSION);
      open.onupgradeneeded = () => {
        const store = open.result.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex("account", "account");
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
  }
  return dbPromise;
}

async function withStore(mode, work) {
  const db = await openDB();
  const transaction = db.transaction(STORE, mode);
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
  const result = await work(transaction.objectStore(STORE));
  await done;
  return result;
}

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id a product still waiting to be created has on this device. */
export const LOCAL_PREFIX = "local-";

export function isLocal(id) {
  return String(id).startsWith(LOCAL_PREFIX);
}

/** An item's kind (items queued before edits existed are creations). */
export function kindOf(item) {
  return item.kind || "create";
}

// ------------------------------------------------------------------ the outbox

export class Outbox extends EventTarget {
  /**
   * @param {{account: string, api: string, locale: string, productApi: string,
   *   favoriteApi: string}} settings from the page's data-* attributes: items are filed under
   *   the signed-in account and only that account's items are ever sent. `productApi` and
   *   `favoriteApi` are route templates with `:productID`.
   */
  constructor(settings) {
    super();
    this.account = settings.account;
    this.api = settings.api;
    this.locale = settings.locale;
    this.productApi = settings.productApi;
    this.favoriteApi = settings.favoriteApi;
    this.running = false;
    this.again = false;
    this.failures = 0;
    this.timer = null;
    this.nextTryAt = null;
    this.blocked = null; // "signed-out" when the server no longer knows the session
    this.random = Math.random;
    // Grows with every change to the items (not with a sync pass that changed nothing), so a
    // page can tell whether what it drew from them is still right.
    this.revision = 0;
  }

  /** This account's items, oldest first. */
  async items() {
    const all = await withStore("readonly", (store) =>
      request(store.index("account").getAll(this.account)),
    );
    return all.sort((a, b) => a.createdAt - b.createdAt || a.order - b.order);
  }

  async get(id) {
    const item = await withStore("readonly", (store) => request(store.get(id)));
    return item && item.account === this.account ? item : null;
  }

  async put(item) {
    await withStore("readwrite", (store) => request(store.put(item)));
    this.revision += 1;
    this.changed();
    return item;
  }

  base(kind, values) {
    return {
      id: newKey(),
      key: newKey(),
      kind,
      account: this.account,
      locale: this.locale,
      createdAt: Date.now(),
      order: performance.now(),
      status: "pending",
      error: null,
      ...values,
    };
  }

  /** Queues a new product as typed into the form; `photo` is a data: URL or null. */
  async enqueue({ name, type, price, tax, photo }) {
    return this.put(this.base("create", { name, type, price, tax, photo: photo || null, favorite: false }));
  }

  /**
   * Queues an edit of product `productId` made on `baseVersion`. An edit of a product still
   * waiting to be created changes that creation; a second edit of a product joins the first
   * (and keeps the version the first was made on).
   */
  async enqueueEdit({ productId, baseVersion, name, type, price, tax, photo, removePhoto }) {
    const values = { name, type, price, tax };
    if (photo) values.photo = photo;
    const items = await this.items();
    if (isLocal(productId)) {
      const creation = items.find((item) => LOCAL_PREFIX + item.id === productId);
      if (!creation) return null;
      if (removePhoto) values.photo = null;
      return this.put({ ...creation, ...values, key: newKey(), status: "pending", error: null });
    }
    const earlier = items.find(
      (item) => kindOf(item) === "edit" && item.productId === productId && item.status !== "conflict",
    );
    if (earlier) {
      const merged = { ...earlier, ...values, key: newKey(), status: "pending", error: null };
      if (removePhoto) {
        merged.photo = null;
        merged.removePhoto = true;
      } else if (photo) merged.removePhoto = false;
      return this.put(merged);
    }
    return this.put(
      this.base("edit", { productId, baseVersion, ...values, photo: photo || null, removePhoto: Boolean(removePhoto) }),
    );
  }

  /** Queues a delete; a product still waiting to be created is simply not created. */
  async enqueueDelete({ productId, baseVersion, name }) {
    const items = await this.items();
    if (isLocal(productId)) {
      const creation = items.find((item) => LOCAL_PREFIX + item.id === productId);
      if (creation) await this.discard(creation.id);
      return null;
    }
    // Edits and hearts of a product about to be deleted need not be sent.
    let base = baseVersion;
    for (const item of items) {
      if (item.productId === productId && ["edit", "favorite"].includes(kindOf(item))) {
        if (kindOf(item) === "edit") base = item.baseVersion;
        await withStore("readwrite", (store) => request(store.delete(item.id)));
        this.revision += 1;
      }
    }
    return this.put(this.base("delete", { productId, baseVersion: base, name }));
  }

  /** Queues a heart; only the last one tapped for a product is sent. */
  async enqueueFavorite({ productId, on, name }) {
    const items = await this.items();
    if (isLocal(productId)) {
      const creation = items.find((item) => LOCAL_PREFIX + item.id === productId);
      return creation ? this.put({ ...creation, favorite: on }) : null;
    }
    for (const item of items) {
      if (kindOf(item) === "favorite" && item.productId === productId) {
        await withStore("readwrite", (store) => request(store.delete(item.id)));
        this.revision += 1;
      }
    }
    return this.put(this.base("favorite", { productId, on, name }));
  }

  /**
   * Replaces a refused item's values after the user fixed them. The Idempotency-Key stays: the
   * server keeps only successful answers, so a refused key may be sent again with new values.
   */
  async update(id, values) {
    const item = await this.get(id);
    if (!item) return null;
    Object.assign(item, values, { status: "pending", error: null });
    return this.put(item);
  }

  /**
   * Settles a conflict: "mine" sends the edit (or delete) again onto the version now on the
   * server; "theirs" drops it; "again" turns an edit of a product deleted on the server into
   * a new product with the same values.
   */
  async resolve(id, choice) {
    const item = await this.get(id);
    if (!item) return;
    if (choice === "theirs") return this.discard(id);
    if (choice === "again") {
      await this.discard(id);
      return this.put(
        this.base("create", {
          name: item.name,
          type: item.type,
          price: item.price,
          tax: item.tax,
          photo: item.photo || null,
          favorite: false,
        }),
      );
    }
    const server = item.error?.server;
    return this.put({
      ...item,
      baseVersion: server?.version ?? item.baseVersion,
      key: newKey(),
      status: "pending",
      error: null,
    });
  }

  async discard(id) {
    const item = await this.get(id);
    if (!item) return;
    await withStore("readwrite", (store) => request(store.delete(id)));
    this.revision += 1;
    this.changed({ discarded: item });
  }

  changed(detail = {}) {
    this.dispatchEvent(new CustomEvent("change", { detail }));
  }

  /** Sync on load, whenever the connection returns, and when another tab asks. */
  start() {
    window.addEventListener("online", () => {
      this.failures = 0;
      this.sync();
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.sync();
    });
    this.sync();
  }

  /**
   * "Sync now": at once, whatever is waiting — the retry timer, the backoff, or a request that
   * hangs (given up, and sent again with the same Idempotency-Key, so the server still does it
   * once if the first one did arrive).
   */
  syncNow() {
    this.failures = 0;
    this.blocked = null;
    if (this.running) {
      this.again = true;
      this.inFlight?.abort();
      return;
    }
    this.sync();
  }

  /** One sync at a time; a request during a sync runs another pass right after it. */
  async sync() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.nextTryAt = null;
    try {
      do {
        this.again = false;
        // Tabs take turns, so two open pages do not send the same item at the same moment
        // (the Idempotency-Key would make that harmless, but it saves a request).
        if (navigator.locks) {
          await navigator.locks.request("backoffice-outbox-" + this.account, () => this.drain());
        } else {
          await this.drain();
        }
      } while (this.again);
    } finally {
      this.running = false;
      this.changed();
    }
  }

  async drain() {
    const pending = (await this.items()).filter((item) => item.status === "pending");
    for (const queued of pending) {
      // Another tab may have sent or changed it meanwhile.
      const item = await this.get(queued.id);
      if (!item || item.status !== "pending") continue;
      const outcome = await this.send(item);
      if (outcome.result === "sent") {
        await withStore("readwrite", (store) => request(store.delete(item.id)));
        this.revision += 1;
        this.failures = 0;
        this.blocked = null;
        this.changed({ sent: item, answer: outcome.answer });
        // A product created with a heart: the heart follows as its own item.
        if (kindOf(item) === "create" && item.favorite && outcome.answer?.id) {
          await this.enqueueFavorite({ productId: outcome.answer.id, on: true, name: item.name });
          this.again = true;
        }
      } else if (outcome.result === "refused") {
        this.revision += 1;
        this.changed({ refused: item });
      } else {
        // The server could not be reached, answered 5xx or took too long: keep everything and
        // try again later — or now, when "Sync now" cut the request short.
        if (!this.again) this.retryLater();
        return;
      }
    }
  }

  /** Exponential backoff, 2 s doubling up to a minute, each wait varied by ±20 %. */
  retryLater() {
    if (this.blocked) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.failures);
    this.failures += 1;
    // Jitter, so many phones coming back online do not all retry in step.
    const wait = Math.round(delay * (0.8 + this.random() * 0.4));
    this.nextTryAt = Date.now() + wait;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.sync(), wait);
  }

  route(template, id) {
    return template.replace(":productID", encodeURIComponent(id));
  }

  /** What to send for an item: method, address, headers and body. */
  requestFor(item) {
    const headers = {
      Accept: "application/json",
      "Idempotency-Key": item.key,
      "X-CSRF-Token": csrfToken(),
    };
    switch (kindOf(item)) {
      case "edit": {
        const body = {
          name: item.name,
          type: item.type,
          price: item.price,
          tax: item.tax,
          locale: item.locale,
        };
        if (item.photo) body.photo = item.photo;
        else if (item.removePhoto) body.remove_photo = true;
        return {
          method: "PUT",
          url: this.route(this.productApi, item.productId),
          headers: { ...headers, "Content-Type": "application/json", "If-Match": `"${item.baseVersion}"` },
          body: JSON.stringify(body),
        };
      }
      case "delete":
        return {
          method: "DELETE",
          url: this.route(this.productApi, item.productId),
          headers: { ...headers, "If-Match": `"${item.baseVersion}"` },
        };
      case "favorite":
        return { method: item.on ? "PUT" : "DELETE", url: this.route(this.favoriteApi, item.productId), headers };
      default:
        return {
          method: "POST",
          url: this.api,
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({
            name: item.name,
            type: item.type,
            price: item.price,
            tax: item.tax,
            locale: item.locale,
            photo: item.photo,
          }),
        };
    }
  }

  /** {result: "sent" | "refused" | "retry", answer}: refused items wait for the user. */
  async send(item, tokenRefreshed = false) {
    let response;
    const controller = new AbortController();
    this.inFlight = controller;
    const limit = setTimeout(() => controller.abort(), REQUEST_LIMIT_MS);
    const { method, url, headers, body } = this.requestFor(item);
    try {
      response = await fetch(url, {
        signal: controller.signal,
        method,
        credentials: "same-origin",
        cache: "no-store",
        headers: { ...headers, "X-CSRF-Token": csrfToken() },
        body,
      });
    } catch {
      return { result: "retry" };
    } finally {
      clearTimeout(limit);
      this.inFlight = null;
    }
    const kind = kindOf(item);
    if (response.ok) {
      const answer = response.status === 204 ? null : await response.json().catch(() => null);
      return { result: "sent", answer };
    }
    if (response.status === 403 && !tokenRefreshed) {
      // The page may come from the offline cache with an old session's token.
      if (await refreshCsrfToken()) return this.send(item, true);
    }
    if (response.status === 403) {
      // The member's role no longer allows the change: the server's words, kept for the user.
      const answer = await response.clone().json().catch(() => null);
      if (answer?.error?.code === "forbidden") {
        item.status = "refused";
        item.error = { status: 403, message: answer.error.message, fields: {} };
        await withStore("readwrite", (store) => request(store.put(item)));
        return { result: "refused" };
      }
    }
    if (response.status === 401 || response.status === 403) {
      this.blocked = "signed-out";
      return { result: "retry" };
    }
    // Deleting or unstarring what is already gone is done; a heart for a deleted product has
    // nothing left to mark.
    if (response.status === 404 && (kind === "delete" || kind === "favorite")) {
      return { result: "sent", answer: null };
    }
    if (response.status === 412 || (response.status === 404 && kind === "edit")) {
      const server = response.status === 412 ? await this.current(item.productId) : null;
      if (response.status === 412 && server === undefined) return { result: "retry" };
      item.status = "conflict";
      item.error = { status: response.status, server: server ?? null };
      await withStore("readwrite", (store) => request(store.put(item)));
      return { result: "refused" };
    }
    if ([400, 409, 413, 415, 422].includes(response.status)) {
      const answer = await response.json().catch(() => null);
      item.status = "refused";
      item.error = {
        status: response.status,
        message: answer?.error?.message || t("products.outbox.server_refused", { status: response.status }),
        fields: answer?.error?.fields || {},
      };
      await withStore("readwrite", (store) => request(store.put(item)));
      return { result: "refused" };
    }
    return { result: "retry" };
  }

  /** The product as the server has it now; null when deleted, undefined when unreachable. */
  async current(productId) {
    try {
      const response = await fetch(this.route(this.productApi, productId), {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "application/json" },
      });
      if (response.status === 404) return null;
      if (!response.ok) return undefined;
      return await response.json();
    } catch {
      return undefined;
    }
  }
}

// ------------------------------------------------------------------ CSRF token

export function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.content || "";
}

async function refreshCsrfToken() {
  try {
    const response = await fetch(location.pathname, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok || response.redirected) return false;
    const html = await response.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const token = doc.querySelector('meta[name="csrf-token"]')?.content;
    const meta = document.querySelector('meta[name="csrf-token"]');
    if (!token || !meta) return false;
    meta.content = token;
    for (const field of document.querySelectorAll('input[name="_csrf"]')) field.value = token;
    return true;
  } catch {
    return false;
  }
}
