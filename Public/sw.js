// Backoffice service worker: the app keeps working without a network.
//
// - App shell (styles, scripts, fonts, icons, the offline page): stored when the worker is
//   installed, under the build id the server stamps into this file, so each deploy installs
//   its own shell and drops the old one; served from the store and refreshed in the
//   background.
// - Pages: network first. The last good copy of each page of the areas (lists and the
//   products forms) is kept and served when the network fails, marked as a copy (the
//   `data-offline-copy` attribute on <html>, with the time it was stored), so the page says
//   it is not live. The products listing and its Add form are stored at install, so a cold
//   start offline opens them even if they were never opened.
// - Product photos: stale-while-revalidate; offline, a photo never stored here is answered
//   with the device's thumbnail of that very version of it, when the catalog copy has one.
// Copies belong to the person in their workspace: every signed-in page names it (the
// X-Offline-Key header), pages are kept under it, and only its copies are ever served. When it
// changes (another workspace chosen, or the person removed from this one), the stored pages
// and photos of every other go at once (the page deletes their copies of the catalog).
// Signing in, out or up clears the stored pages and photos; signing out also deletes the
// catalog's copy, so the next person on this browser never sees the previous account's data.
// The outbox (IndexedDB) is kept: its items carry their account and are only ever sent for
// that account.

const VERSION = "__BUILD__";
const SHELL = `shell-${VERSION}`;
const PAGES_PREFIX = "pages-v2-";
const PHOTOS = "photos-v1";
// Holds the key of the person and workspace the stored copies belong to.
const OWNER_CACHE = "offline-owner";
// A key of its own cache, not an address anything fetches.
const OWNER_ENTRY = "offline-owner.key";
const KEY_HEADER = "X-Offline-Key";
const OFFLINE_PAGE = "/offline.html";
const CATALOG_PREFIX = "backoffice-catalog-";
const STORED_AT = "X-Stored-At";

// Stamped by the server with every file of the shell.
const SHELL_FILES = ["__SHELL_FILES__"];

// The pages a cold start offline needs: the listing and the Add form (stored when the worker
// is installed, from a signed-in page, and again whenever a page asks and they are missing).
const WARM_PAGES = ["/products", "/products/new"];

// Pages kept for reading offline: each area's list, the home page, the products forms and a
// fundraiser's page. Settings and sign-in are never kept (secrets, and nothing to read).
const KEPT_PAGES = [
  /^\/$/,
  /^\/products$/,
  /^\/products\/new$/,
  /^\/products\/[^/]+\/edit$/,
  /^\/expenses$/,
  /^\/ad-payments$/,
  /^\/marketing$/,
  /^\/fundraisers$/,
  /^\/fundraisers\/[0-9a-fA-F-]{36}$/,
];

async function warmPages({ forms = true } = {}) {
  for (const path of WARM_PAGES) {
    if (!forms && path === "/products/new") continue;
    const owner = await currentOwner();
    if (owner && (await (await caches.open(PAGES_PREFIX + owner)).match(path))) continue;
    try {
      const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
      await keep(path, response);
    } catch {
      // Offline already: the pages are stored on the next visit.
    }
  }
}

// ------------------------------------------------------------------ whose copies these are

let ownerInMemory = null;

/** The key of the person and workspace whose copies are kept, or null before any page. */
async function currentOwner() {
  if (ownerInMemory) return ownerInMemory;
  const stored = await (await caches.open(OWNER_CACHE)).match(OWNER_ENTRY);
  ownerInMemory = stored ? (await stored.text()) || null : null;
  return ownerInMemory;
}

/**
 * A page said whose it is. When that is someone else (another workspace, or the person was
 * removed from the one the copies came from), every other owner's pages and the photos are
 * deleted before anything is stored for the new one.
 */
async function adoptOwner(key) {
  if (!/^[0-9a-f-]{16,80}$/.test(key) || key === (await currentOwner())) return;
  ownerInMemory = key;
  await (await caches.open(OWNER_CACHE)).put(OWNER_ENTRY, new Response(key));
  for (const name of await caches.keys()) {
    if ((name.startsWith("pages-") && name !== PAGES_PREFIX + key) || name === PHOTOS) {
      await caches.delete(name);
    }
  }
  // The page deletes the other copies of the catalog itself as it opens (catalog.js).
}

/** Stores a page under the owner it names; false when it is not worth keeping. */
async function keep(request, response) {
  const key = response.headers.get(KEY_HEADER);
  if (!keepable(response) || !key) return false;
  await adoptOwner(key);
  if (key !== (await currentOwner())) return false;
  await (await caches.open(PAGES_PREFIX + key)).put(request, await stamped(response));
  return true;
}

/** The current owner's stored pages, or null when no page has said whose they are. */
async function ownPages() {
  const owner = await currentOwner();
  return owner ? caches.open(PAGES_PREFIX + owner) : null;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(SHELL_FILES.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => warmPages())
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "warm") event.waitUntil(warmPages({ forms: event.data.forms !== false }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        // Earlier builds kept pages under no owner ("pages-v1").
        if ((name.startsWith("shell-") && name !== SHELL) || name === "pages-v1") {
          await caches.delete(name);
        }
      }
      await self.clients.claim();
    })(),
  );
});

function isShell(url) {
  return (
    /^\/(css|js|fonts|icons)\//.test(url.pathname) ||
    ["/favicon.svg", "/manifest.webmanifest", OFFLINE_PAGE].includes(url.pathname)
  );
}

function isPhoto(url) {
  return /^(\/api\/v1)?\/products\/[^/]+\/photo$/.test(url.pathname);
}

function isKeptPage(url) {
  return KEPT_PAGES.some((pattern) => pattern.test(url.pathname));
}

async function forgetAccount(signingOut) {
  ownerInMemory = null;
  for (const name of await caches.keys()) {
    if (name.startsWith("pages-") || name === PHOTOS || name === OWNER_CACHE) {
      await caches.delete(name);
    }
  }
  if (!signingOut || !indexedDB.databases) return;
  for (const info of await indexedDB.databases()) {
    if (info.name?.startsWith(CATALOG_PREFIX)) indexedDB.deleteDatabase(info.name);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.method !== "GET") {
    if (["/sign-out", "/sign-in", "/sign-up"].includes(url.pathname)) {
      event.waitUntil(forgetAccount(url.pathname === "/sign-out").catch(() => {}));
    }
    return; // Writes always go to the network.
  }
  if (isShell(url)) {
    event.respondWith(cacheFirst(event, request));
  } else if (isPhoto(url)) {
    // A script making thumbnails keeps its own small copy; only pictures on pages are stored.
    if (request.destination === "image") event.respondWith(staleWhileRevalidate(event, request));
  } else if (request.mode === "navigate") {
    event.respondWith(isKeptPage(url) ? networkFirstPage(request) : fetch(request).catch(() => offlinePage()));
  }
});

async function cacheFirst(event, request) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  const refresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => null);
  if (cached) {
    event.waitUntil(refresh);
    return cached;
  }
  return (await refresh) || Response.error();
}

async function staleWhileRevalidate(event, request) {
  const cache = await caches.open(PHOTOS);
  const cached = await cache.match(request);
  const refresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => null);
  if (cached) {
    event.waitUntil(refresh);
    return cached;
  }
  return (
    (await refresh) ||
    (await deviceThumbnail(new URL(request.url)).catch(() => null)) ||
    new Response("", { status: 504, statusText: "Offline" })
  );
}

/**
 * The thumbnail the products script made of this photo, from the device's copy of the
 * catalog: the same product and the same version (`v`), so an old picture is never shown as
 * the new one.
 */
async function deviceThumbnail(url) {
  const owner = await currentOwner();
  const id = decodeURIComponent(url.pathname.split("/").at(-2));
  const version = url.searchParams.get("v");
  if (!owner || !version || !indexedDB.databases) return null;
  const name = CATALOG_PREFIX + owner;
  if (!(await indexedDB.databases()).some((info) => info.name === name)) return null;
  const stored = await readThumb(name, id);
  if (!stored?.blob || new URL(stored.url, url).searchParams.get("v") !== version) return null;
  return new Response(stored.blob, {
    status: 200,
    headers: { "Content-Type": stored.blob.type || "image/jpeg", "Cache-Control": "no-store" },
  });
}

function readThumb(name, id) {
  return new Promise((resolve) => {
    const open = indexedDB.open(name);
    // Never create or upgrade a copy here: that is the page's job.
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("thumbs")) {
        db.close();
        return resolve(null);
      }
      const get = db.transaction("thumbs").objectStore("thumbs").get(id);
      get.onsuccess = () => {
        db.close();
        resolve(get.result || null);
      };
      get.onerror = () => {
        db.close();
        resolve(null);
      };
    };
  });
}

/** Only real pages: a redirect to sign-in or an error is not worth keeping. */
function keepable(response) {
  return (
    response.ok &&
    !response.redirected &&
    response.type === "basic" &&
    (response.headers.get("Content-Type") || "").startsWith("text/html")
  );
}

/** The response with the time it was stored, to say how old a copy is. */
async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT, new Date().toISOString());
  return new Response(await response.blob(), { status: response.status, headers });
}

/** A stored page as the browser gets it offline: marked as a copy, with its time. */
async function asCopy(cached) {
  const html = await cached.text();
  const storedAt = (cached.headers.get(STORED_AT) || "").replace(/[^0-9TZ:.-]/g, "");
  const headers = new Headers(cached.headers);
  headers.delete("Content-Length");
  headers.delete(STORED_AT);
  return new Response(html.replace(/<html\b/i, `<html data-offline-copy="${storedAt}"`), {
    status: 200,
    headers,
  });
}

async function networkFirstPage(request) {
  try {
    const response = await fetch(request);
    await keep(request, response.clone());
    return response;
  } catch {
    const cache = await ownPages();
    if (!cache) return offlinePage();
    const url = new URL(request.url);
    // The page itself; another filter or page of the same list; for a product's edit form
    // never opened here, the Add form, which the products script turns into that product's
    // form from the device's copy of the catalog.
    const cached =
      (await cache.match(request)) ||
      (await cache.match(url.pathname)) ||
      (await cache.match(url.pathname, { ignoreSearch: true })) ||
      (/^\/products\/[^/]+\/edit$/.test(url.pathname) && (await cache.match("/products/new")));
    return cached ? asCopy(cached) : offlinePage();
  }
}

async function offlinePage() {
  const cached = await caches.match(OFFLINE_PAGE);
  // Without the stored page, both interface languages (a service worker cannot tell which).
  return cached || new Response("You are offline. / Немає з’єднання з інтернетом.", {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
