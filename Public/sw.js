// Backoffice service worker: makes the Products area usable offline.
//
// - App shell (styles, scripts, fonts, icons): served from the cache at once and refreshed in
//   the background, so the next load gets a new deploy.
// - Product pages and the product list JSON: network first; the last good answer is served
//   when the network fails.
// - Product photos: stale-while-revalidate.
// Signing in, out or up clears the cached pages and photos, so the next person on this browser
// never sees the previous account's catalog. The outbox (IndexedDB) is kept: its items carry
// their account and are only ever sent for that account.

const VERSION = "products-v1";
const SHELL = `shell-${VERSION}`;
const PAGES = "pages-v1";
const PHOTOS = "photos-v1";
const OFFLINE_PAGE = "/offline.html";

const SHELL_FILES = [
  "/css/app.css",
  "/js/app.js",
  "/js/i18n.js",
  "/js/offline.js",
  "/js/products.js",
  "/js/products-outbox.js",
  "/js/product-rules.js",
  "/favicon.svg",
  "/manifest.webmanifest",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  OFFLINE_PAGE,
];

// The pages a cold start offline needs: the listing and the Add form, stored when the worker is
// installed (from a products page, so signed in) and again whenever a page asks and they are
// missing (after signing in anew, which clears them).
const WARM_PAGES = ["/products", "/products/new"];

async function warmPages() {
  const cache = await caches.open(PAGES);
  for (const path of WARM_PAGES) {
    if (await cache.match(path)) continue;
    try {
      const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
      // A redirect (signed out) or an error is not a page worth keeping.
      if (response.ok && !response.redirected) await cache.put(path, response);
    } catch {
      // Offline already: the pages are stored on the next visit.
    }
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(SHELL_FILES))
      .then(() => warmPages())
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "warm") event.waitUntil(warmPages());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
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

function isProductPage(url) {
  return url.pathname === "/products" || /^\/products\/(new|[^/]+\/edit)$/.test(url.pathname);
}

function isProductData(url) {
  return url.pathname === "/api/v1/products" || url.pathname === "/api/v1/product-types";
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.method !== "GET") {
    if (["/sign-out", "/sign-in", "/sign-up"].includes(url.pathname)) {
      event.waitUntil(Promise.all([caches.delete(PAGES), caches.delete(PHOTOS)]));
    }
    return; // Writes always go to the network.
  }
  if (isShell(url)) {
    event.respondWith(cacheFirst(event, request));
  } else if (isPhoto(url)) {
    event.respondWith(staleWhileRevalidate(event, request));
  } else if ((request.mode === "navigate" && isProductPage(url)) || isProductData(url)) {
    event.respondWith(networkFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
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
  return (await refresh) || new Response("", { status: 504, statusText: "Offline" });
}

async function networkFirst(request) {
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    // Only real pages: a redirect to sign-in or an error is not worth keeping.
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return response;
  } catch {
    const cached = await cache.match(request);
    if (cached) return cached;
    if (request.mode === "navigate") {
      const url = new URL(request.url);
      // Another page or filter of the listing: the plain listing is the next best thing.
      const fallback =
        (url.pathname === "/products" && (await cache.match("/products"))) ||
        (await cache.match(url.pathname, { ignoreSearch: true }));
      return fallback || offlinePage();
    }
    return new Response(
      JSON.stringify({ error: { code: "offline", message: "You are offline." } }),
      { status: 503, headers: { "Content-Type": "application/json" } },
    );
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
