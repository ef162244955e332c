// The offline outbox: products added without a connection wait in IndexedDB and are sent to
// the server when it can be reached. Every item carries its own Idempotency-Key, so sending it
// twice (a retry after a lost answer, two tabs at once) still creates one product; an item is
// deleted only after the server confirmed it, or when the user discards it.

import { t } from "./i18n.js";

const DB_NAME = "backoffice-outbox";
const STORE = "products";
const DB_VERSION = 1;
const FIRST_DELAY_MS = 2000;
const MAX_DELAY_MS = 60000;
// The longest one upload may take (a photo on a slow line fits well within it); a request the
// server never answers is given up and tried again instead of "Uploading…" for ever.
const REQUEST_LIMIT_MS = 20000;

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

// ------------------------------------------------------------------ the outbox

export class Outbox extends EventTarget {
  /**
   * @param {{account: string, api: string, locale: string}} settings from the page's
   *   data-outbox-* attributes: items are filed under the signed-in account and only that
   *   account's items are ever sent.
   */
  constructor(settings) {
    super();
    this.account = settings.account;
    this.api = settings.api;
    this.locale = settings.locale;
    this.running = false;
    this.again = false;
    this.failures = 0;
    this.timer = null;
    this.nextTryAt = null;
    this.blocked = null; // "signed-out" when the server no longer knows the session
  }

  /** This account's items, oldest first. */
  async items() {
    const all = await withStore("readonly", (store) =>
      request(store.index("account").getAll(this.account)),
    );
    return all.sort((a, b) => a.createdAt - b.createdAt);
  }

  async get(id) {
    const item = await withStore("readonly", (store) => request(store.get(id)));
    return item && item.account === this.account ? item : null;
  }

  /** Queues a product as typed into the form; `photo` is a data: URL or null. */
  async enqueue({ name, type, price, tax, photo }) {
    const item = {
      id: newKey(),
      key: newKey(),
      account: this.account,
      locale: this.locale,
      createdAt: Date.now(),
      name,
      type,
      price,
      tax,
      photo: photo || null,
      status: "pending",
      error: null,
    };
    await withStore("readwrite", (store) => request(store.add(item)));
    this.changed();
    return item;
  }

  /**
   * Replaces a refused item's values after the user fixed them. The Idempotency-Key stays: the
   * server keeps only successful answers, so a refused key may be sent again with new values.
   */
  async update(id, values) {
    const item = await this.get(id);
    if (!item) return null;
    Object.assign(item, values, { status: "pending", error: null });
    await withStore("readwrite", (store) => request(store.put(item)));
    this.changed();
    return item;
  }

  async discard(id) {
    const item = await this.get(id);
    if (!item) return;
    await withStore("readwrite", (store) => request(store.delete(id)));
    this.changed();
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
   * hangs (given up, and sent again with the same Idempotency-Key, so the server still makes
   * one product if the first one did arrive).
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
    for (const item of pending) {
      const outcome = await this.send(item);
      if (outcome === "sent") {
        await withStore("readwrite", (store) => request(store.delete(item.id)));
        this.failures = 0;
        this.blocked = null;
        this.changed({ sent: item });
      } else if (outcome === "refused") {
        this.changed({ refused: item });
      } else {
        // The server could not be reached, answered 5xx or took too long: keep everything and
        // try again later — or now, when "Sync now" cut the request short.
        if (!this.again) this.retryLater();
        return;
      }
    }
  }

  retryLater() {
    if (this.blocked) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.failures);
    this.failures += 1;
    // A little jitter so many phones coming back online do not all retry in step.
    const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
    this.nextTryAt = Date.now() + wait;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.sync(), wait);
  }

  /** "sent", "refused" (kept for the user to fix or discard) or "retry". */
  async send(item, tokenRefreshed = false) {
    let response;
    const controller = new AbortController();
    this.inFlight = controller;
    const limit = setTimeout(() => controller.abort(), REQUEST_LIMIT_MS);
    try {
      response = await fetch(this.api, {
        signal: controller.signal,
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Idempotency-Key": item.key,
          "X-CSRF-Token": csrfToken(),
        },
        body: JSON.stringify({
          name: item.name,
          type: item.type,
          price: item.price,
          tax: item.tax,
          locale: item.locale,
          photo: item.photo,
        }),
      });
    } catch {
      return "retry";
    } finally {
      clearTimeout(limit);
      this.inFlight = null;
    }
    if (response.ok) return "sent";
    if (response.status === 403 && !tokenRefreshed) {
      // The page may come from the offline cache with an old session's token.
      if (await refreshCsrfToken()) return this.send(item, true);
    }
    if (response.status === 401 || response.status === 403) {
      this.blocked = "signed-out";
      return "retry";
    }
    if ([400, 409, 413, 415, 422].includes(response.status)) {
      const body = await response.json().catch(() => null);
      item.status = "refused";
      item.error = {
        status: response.status,
        message: body?.error?.message || t("products.outbox.server_refused", { status: response.status }),
        fields: body?.error?.fields || {},
      };
      await withStore("readwrite", (store) => request(store.put(item)));
      return "refused";
    }
    return "retry";
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
