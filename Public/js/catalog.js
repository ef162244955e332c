// The device's own copy of the catalog: every product of the signed-in account in IndexedDB,
// kept up to date from the server's change feed (GET /api/v1/product-changes: only what
// changed since the last sync, never the whole catalog again), with small thumbnails of the
// photos. The products pages read it when the network is gone: the grid, the categories, the
// favourites and the search work from it, in the server's order and with its folding of
// names (the rules come from the page, see SearchFoldingSheet).

const DB_PREFIX = "backoffice-catalog-";
const DB_VERSION = 1;
const PAGE_SIZE = 1000;
// One answer of the feed may take this long before it is given up (and tried again later).
const REQUEST_LIMIT_MS = 30000;
// Thumbnails are made for this many products (the newest first): enough for what a phone
// shows, without storing every photo of a very large catalog twice.
export const THUMBNAIL_LIMIT = 2000;
const THUMBNAIL_SIDE = 160;

export function dbName(account) {
  return DB_PREFIX + account;
}

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("aborted"));
  });
}

/**
 * Copies of the catalog of anyone else on this browser are removed: another person signed in,
 * or this person now works in another workspace (or was removed from the one copied).
 */
export async function forgetOtherAccounts(account) {
  if (!indexedDB.databases) return;
  try {
    for (const info of await indexedDB.databases()) {
      if (info.name?.startsWith(DB_PREFIX) && info.name !== dbName(account)) {
        indexedDB.deleteDatabase(info.name);
      }
    }
  } catch {
    // Listing databases can fail in private modes; nothing was kept there either.
  }
}

export class Catalog extends EventTarget {
  /** @param {{account: string, api: string, format: string}} settings from the page. */
  constructor(settings) {
    super();
    this.account = settings.account;
    this.api = settings.api;
    this.format = settings.format;
    this.dbPromise = null;
    this.cached = null; // the products, read once per change of the copy
    this.channel = "BroadcastChannel" in self ? new BroadcastChannel(dbName(this.account)) : null;
    this.channel?.addEventListener("message", () => this.changed(false));
  }

  open() {
    if (!this.dbPromise) {
      this.dbPromise = new Promise((resolve, reject) => {
        const open = indexedDB.open(dbName(this.account), DB_VERSION);
        open.onupgradeneeded = () => {
          const db = open.result;
          db.createObjectStore("products", { keyPath: "id" });
          db.createObjectStore("meta", { keyPath: "key" });
          db.createObjectStore("thumbs", { keyPath: "id" });
        };
        open.onsuccess = () => {
          const db = open.result;
          // Signing out deletes the copy: let go of it when asked.
          db.onversionchange = () => {
            db.close();
            this.dbPromise = null;
          };
          resolve(db);
        };
        open.onerror = () => reject(open.error);
        open.onblocked = () => reject(new Error("blocked"));
      });
    }
    return this.dbPromise;
  }

  /** {cursor, format, syncedAt} of the copy, or null before its first sync. */
  async state() {
    const db = await this.open();
    return (await request(db.transaction("meta").objectStore("meta").get("state"))) ?? null;
  }

  /** Every product of the copy (the array is shared: do not change it). */
  async products() {
    if (this.cached) return this.cached;
    const db = await this.open();
    const all = await request(db.transaction("products").objectStore("products").getAll());
    this.cached = all;
    return all;
  }

  async product(id) {
    const db = await this.open();
    return (await request(db.transaction("products").objectStore("products").get(id))) ?? null;
  }

  changed(broadcast = true) {
    this.cached = null;
    if (broadcast) this.channel?.postMessage("changed");
    this.dispatchEvent(new Event("change"));
  }

  /**
   * Brings the copy up to date: the changes after its cursor, page by page, each page applied
   * in one transaction with the cursor it reaches, so an interrupted sync resumes where it
   * stopped and never applies a change twice. Tabs take turns (Web Locks).
   */
  async sync() {
    const run = () => this.pull();
    if (navigator.locks) return navigator.locks.request(`${dbName(this.account)}-sync`, run);
    return run();
  }

  async pull() {
    let applied = 0;
    let state = await this.state();
    // A copy written in another locale, currency or language starts again.
    let cursor = state && state.format === this.format ? state.cursor : 0;
    for (;;) {
      const controller = new AbortController();
      const limit = setTimeout(() => controller.abort(), REQUEST_LIMIT_MS);
      let body;
      try {
        const response = await fetch(`${this.api}?since=${cursor}&limit=${PAGE_SIZE}`, {
          credentials: "same-origin",
          cache: "no-store",
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        body = await response.json();
      } finally {
        clearTimeout(limit);
      }
      await this.apply(body);
      applied += body.changes.length;
      cursor = body.cursor;
      if (!body.has_more) break;
    }
    if (applied > 0) this.changed();
    else this.dispatchEvent(new Event("synced"));
    return applied;
  }

  /** One page of the feed, in one transaction with its cursor. */
  async apply(body) {
    const db = await this.open();
    const transaction = db.transaction(["products", "meta", "thumbs"], "readwrite");
    const products = transaction.objectStore("products");
    if (body.reset) {
      products.clear();
      transaction.objectStore("thumbs").clear();
    }
    for (const change of body.changes) {
      if (change.deleted) {
        products.delete(change.id);
        transaction.objectStore("thumbs").delete(change.id);
      } else {
        products.put({
          ...change.product,
          seq: change.seq,
          name_key: change.name_key,
          type_key: change.type_key,
          favorited_at: change.favorited_at ?? null,
        });
      }
    }
    transaction.objectStore("meta").put({
      key: "state",
      cursor: body.cursor,
      format: body.format,
      syncedAt: Date.now(),
    });
    await done(transaction);
    if (body.changes.length) this.cached = null;
  }

  /**
   * Puts a product the server just answered with into the copy at once (an upload from the
   * outbox), so the grid shows it before the next sync; the sync later brings the same.
   */
  async remember(product) {
    const db = await this.open();
    const transaction = db.transaction("products", "readwrite");
    const store = transaction.objectStore("products");
    const old = (await request(store.get(product.id))) ?? {};
    store.put({
      ...old,
      ...product,
      seq: old.seq ?? 0,
      name_key: product.name_key ?? old.name_key ?? "",
      type_key: product.type_key ?? old.type_key ?? "",
      favorited_at: product.favorite ? old.favorited_at ?? new Date().toISOString() : null,
    });
    await done(transaction);
    this.changed();
  }

  async forget(id) {
    const db = await this.open();
    const transaction = db.transaction(["products", "thumbs"], "readwrite");
    transaction.objectStore("products").delete(id);
    transaction.objectStore("thumbs").delete(id);
    await done(transaction);
    this.changed();
  }

  // ---------------------------------------------------------------- thumbnails

  /** The stored thumbnail of a product's current photo, or null. */
  async thumbnail(product) {
    if (!product.image_url) return null;
    const db = await this.open();
    const stored = await request(db.transaction("thumbs").objectStore("thumbs").get(product.id));
    return stored && stored.url === product.image_url ? stored.blob : null;
  }

  async thumbnails() {
    const db = await this.open();
    const all = await request(db.transaction("thumbs").objectStore("thumbs").getAll());
    return new Map(all.map((entry) => [entry.id, entry]));
  }

  /**
   * Makes the missing thumbnails, newest products first, a few at a time, while the page is
   * open and online. A photo that cannot be read is skipped.
   */
  async fillThumbnails({ limit = THUMBNAIL_LIMIT, signal } = {}) {
    if (typeof createImageBitmap !== "function") return 0;
    const have = await this.thumbnails();
    const wanted = (await this.products())
      .filter((product) => product.image_url)
      .sort((a, b) => b.number - a.number)
      .slice(0, limit)
      .filter((product) => have.get(product.id)?.url !== product.image_url);
    let made = 0;
    const next = async () => {
      while (wanted.length && !signal?.aborted && navigator.onLine) {
        const product = wanted.shift();
        try {
          const blob = await shrink(product.image_url, signal);
          const db = await this.open();
          const transaction = db.transaction("thumbs", "readwrite");
          transaction.objectStore("thumbs").put({ id: product.id, url: product.image_url, blob });
          await done(transaction);
          made += 1;
        } catch {
          // Gone, unreadable or offline: it is tried again on the next sync.
        }
      }
    };
    await Promise.all([next(), next(), next()]);
    if (made) this.dispatchEvent(new Event("thumbnails"));
    return made;
  }
}

async function shrink(url, signal) {
  // Fetched by the script (not an <img>), so the service worker does not keep the full photo.
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const bitmap = await createImageBitmap(await response.blob());
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = new OffscreenCanvas(THUMBNAIL_SIDE, THUMBNAIL_SIDE);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, THUMBNAIL_SIDE, THUMBNAIL_SIDE);
  context.drawImage(
    bitmap,
    (bitmap.width - side) / 2,
    (bitmap.height - side) / 2,
    side,
    side,
    0,
    0,
    THUMBNAIL_SIDE,
    THUMBNAIL_SIDE,
  );
  bitmap.close?.();
  return canvas.convertToBlob({ type: "image/jpeg", quality: 0.8 });
}

// ------------------------------------------------------------------ searching the copy

/**
 * Code point order, the order of the server's keys (SQLite BINARY, PostgreSQL "C"). JavaScript
 * compares UTF-16 units, which agree with code points except that a surrogate pair (a code
 * point above U+FFFF) must sort after U+E000–U+FFFF: that one case is turned around.
 */
export function compareKeys(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** A sheet read once into lookups. */
function prepared(sheet) {
  if (sheet.prepared) return sheet.prepared;
  sheet.prepared = {
    marks: sheet.foldedMarks,
    kept: new Set(sheet.keptMarks.map(([base, mark]) => `${base}:${mark}`)),
    ignorable: new Set(sheet.ignorable),
    replacements: new Map(Object.entries(sheet.replacements).map(([code, text]) => [Number(code), text])),
    fullWidth: sheet.fullWidth,
  };
  return sheet.prepared;
}

const WHITE_SPACE = /\p{White_Space}/u;
const CONTROL = /\p{Cc}/u;
const MARK = /[\p{Mn}\p{Me}]/u;

/**
 * The search key of `text`, as the server's SearchNormalizer makes it: lower case, accents
 * dropped (but not those that make й, ў, ї), some letters written out (ß → ss), full-width
 * ASCII made plain, invisible characters dropped, whitespace runs made one space.
 */
export function normalize(text, sheet) {
  const rules = prepared(sheet);
  const out = [];
  let pendingSpace = false;
  for (const char of String(text ?? "").toLowerCase().normalize("NFD")) {
    const code = char.codePointAt(0);
    if (WHITE_SPACE.test(char)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (rules.ignorable.has(code) || CONTROL.test(char)) continue;
    if (MARK.test(char) && rules.marks.some(([low, high]) => code >= low && code <= high)) {
      const base = out[out.length - 1];
      if (base !== undefined && rules.kept.has(`${base}:${code}`)) out.push(code);
      continue;
    }
    if (pendingSpace) {
      out.push(32);
      pendingSpace = false;
    }
    const replacement = rules.replacements.get(code);
    if (replacement !== undefined) {
      for (const part of replacement) out.push(part.codePointAt(0));
    } else if (code >= rules.fullWidth[0] && code <= rules.fullWidth[1]) {
      out.push(code - rules.fullWidth[2]);
    } else {
      out.push(code);
    }
  }
  return String.fromCodePoint(...out).normalize("NFC");
}

// Letters whose title case is neither their upper nor their lower case (Unicode's digraphs).
const TITLE_CASE = { "Ǆ": "ǅ", "ǆ": "ǅ", "Ǉ": "ǈ", "ǉ": "ǈ", "Ǌ": "ǋ", "ǌ": "ǋ", "Ǳ": "ǲ", "ǳ": "ǲ" };

/** The title case of one character: "é" → "É", "ß" → "Ss", "ﬁ" → "Fi", "ǆ" → "ǅ". */
function titlecase(char) {
  if (TITLE_CASE[char]) return TITLE_CASE[char];
  const [head, ...tail] = [...char.toUpperCase()];
  return head + tail.join("").toLowerCase();
}

/** A type as its chip writes it: each word capitalised unless it has a capital already. */
export function capitalized(text) {
  return String(text ?? "")
    .split(/(\s+)/)
    .map((word) => {
      if (!word || /\s/.test(word) || /[\p{Lu}\p{Lt}]/u.test(word)) return word;
      const [first, ...rest] = [...word];
      return titlecase(first) + rest.join("");
    })
    .join("");
}

/**
 * The category chips of `products`: one per type key, titled by the spelling most products
 * use (ties: the smallest), sorted by key — as the server's ProductTypes.chips.
 */
export function chips(products) {
  const groups = new Map();
  for (const product of products) {
    const key = product.type_key;
    if (!key) continue;
    const spelling = String(product.type ?? "").trim();
    const group = groups.get(key) ?? new Map();
    group.set(spelling, (group.get(spelling) ?? 0) + 1);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .map(([key, spellings]) => {
      let best = null;
      let count = 0;
      for (const [spelling, n] of spellings) {
        count += n;
        if (!best || n > best[1] || (n === best[1] && compareKeys(spelling, best[0]) < 0)) best = [spelling, n];
      }
      return { key, title: capitalized(best ? best[0] : key), count };
    })
    .sort((a, b) => compareKeys(a.key, b.key));
}

// Each product's price in hundredths, worked out once per product object.
const minorOf = new WeakMap();

function priceMinor(product) {
  let value = minorOf.get(product);
  if (value === undefined) {
    value = minor(product.price);
    minorOf.set(product, value);
  }
  return value;
}

const byName = (a, b) => compareKeys(a.name_key, b.name_key) || a.number - b.number;
const ORDERS = {
  newest: (a, b) => b.number - a.number,
  name: byName,
  price: (a, b) => priceMinor(a) - priceMinor(b) || byName(a, b),
  price_desc: (a, b) => priceMinor(b) - priceMinor(a) || byName(a, b),
};

/** A decimal string ("1694.92") in hundredths, exactly. */
export function minor(price) {
  const [whole, fraction = ""] = String(price ?? "0").split(".");
  const sign = whole.startsWith("-") ? -1 : 1;
  return sign * (Math.abs(parseInt(whole, 10) || 0) * 100 + parseInt((fraction + "00").slice(0, 2), 10));
}

/**
 * One page of the listing from the copy, as the server would give it: `q` a name prefix,
 * `type` a type key, `sort` newest | name | price | price_desc; a page past the end is the
 * last page.
 */
export function listing(products, { q = "", type = "", sort = "newest", page = 1, per = 24 }, sheet) {
  const prefix = normalize(q, sheet);
  const typeKey = type ? normalize(type, sheet) : "";
  const matching = products.filter(
    (product) => (!typeKey || product.type_key === typeKey) && (!prefix || product.name_key.startsWith(prefix)),
  );
  matching.sort(ORDERS[sort] ?? ORDERS.newest);
  const pageCount = Math.max(1, Math.ceil(matching.length / per));
  const shown = Math.min(Math.max(1, page), pageCount);
  return {
    items: matching.slice((shown - 1) * per, shown * per),
    total: matching.length,
    page: shown,
    pageCount,
  };
}

/** The favourites row: most recently starred first. */
export function favorites(products) {
  return products
    .filter((product) => product.favorite)
    .sort((a, b) => compareKeys(b.favorited_at ?? "", a.favorited_at ?? "") || b.number - a.number);
}
